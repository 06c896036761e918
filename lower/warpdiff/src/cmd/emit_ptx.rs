//! `warpdiff emit-ptx FILE...`: the PTX module the GPU engine would load,
//! or for a case the GPUs here do not run (an `sm_100a` one), the module
//! for its own `.target`: emitting needs no GPU.

use crate::cli::EmitPtxArgs;
use crate::cmd::run::read_case;
use crate::{errln, out};
use warp_gpu::emit::{emit_module_text, text_target, Job};

/// Prints the module for the files; returns the exit status (2 on an
/// unreadable file, files that need different targets, or a program the
/// GPU engine skips).
pub fn emit_ptx(a: &EmitPtxArgs) -> u8 {
    let files: Vec<String> = a.files.iter().map(|f| f.display().to_string()).collect();
    let mut cases = Vec::new();
    for f in &files {
        match read_case(f) {
            Ok(c) => cases.push(c),
            Err(m) => {
                errln!("{m}");
                return 2;
            }
        }
    }
    let mut target = None;
    for (c, f) in cases.iter().zip(&files) {
        match text_target(&c.program) {
            Ok(t) if target.is_none() || target == Some(t) => target = Some(t),
            Ok(_) => {
                errln!("{f}: needs another .version/.target than the files before it");
                return 2;
            }
            Err(s) => {
                errln!("{f}: no module can hold it: {s}");
                return 2;
            }
        }
    }
    let Some((v, t)) = target else {
        errln!("warpdiff emit-ptx: no files");
        return 2;
    };
    let jobs: Vec<Job> = cases
        .iter()
        .map(|c| Job {
            program: &c.program,
            inputs: &c.inputs,
        })
        .collect();
    match emit_module_text(&jobs, v, t, a.gpu_perturb) {
        Ok(m) => {
            out!("{}", m.ptx);
            0
        }
        Err(e) => {
            errln!("emit-ptx: {e}");
            2
        }
    }
}
