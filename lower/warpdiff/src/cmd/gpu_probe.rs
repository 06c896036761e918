//! `warpdiff gpu-probe FILE...` (internal): runs the cases as one GPU batch
//! in this process and says how it ended through the exit status, which is
//! the whole protocol between the fuzz loop (or `reduce-hang`) and the
//! fresh processes it asks "does this hang or fault?" ([`crate::fuzz::hang`],
//! which holds the statuses: [`probe_status`](crate::fuzz::hang::probe_status)).
//! A hung kernel cannot be stopped and a fault poisons the context, so the
//! question must be asked in a process that then exits. The message on
//! stderr is for people and for the case comment, never parsed.

use crate::cli::ProbeArgs;
use crate::cmd::run::read_case;
use crate::errln;
use crate::fuzz::hang::probe_status::{BAD_INPUT, DRIVER, FAULT, FINISHED, HANG, NO_GPU};
use warp_gpu::device::GpuError;
use warp_gpu::emit::Job;

/// Runs the probe; returns the exit status (see
/// [`probe_status`](crate::fuzz::hang::probe_status)).
pub fn probe(a: &ProbeArgs) -> u8 {
    let mut cases = Vec::new();
    for f in &a.files {
        match read_case(&f.display().to_string()) {
            Ok(c) => cases.push(c),
            Err(m) => {
                errln!("{m}");
                return BAD_INPUT;
            }
        }
    }
    let gpu = match warp_gpu::engine::gpu() {
        Ok(g) => g,
        Err(e) => {
            errln!("{e}");
            return NO_GPU;
        }
    };
    let jobs: Vec<Job> = cases
        .iter()
        .map(|c| Job {
            program: &c.program,
            inputs: &c.inputs,
        })
        .collect();
    let results = gpu.run_batch(&jobs);
    let worst = results
        .iter()
        .filter_map(|r| r.as_ref().err())
        .max_by_key(|e| severity(e));
    match worst {
        Some(e @ GpuError::Hang(_)) => {
            errln!("{e}");
            HANG
        }
        Some(e @ GpuError::Fault(_)) => {
            errln!("{e}");
            FAULT
        }
        Some(e @ (GpuError::Driver(_) | GpuError::Dead | GpuError::Abandoned)) => {
            errln!("{e}");
            DRIVER
        }
        Some(GpuError::Skip(_)) | None => FINISHED,
    }
}

/// Which error of a batch the exit status reports.
fn severity(e: &GpuError) -> u8 {
    match e {
        GpuError::Skip(_) => 0,
        GpuError::Dead | GpuError::Abandoned => 1,
        GpuError::Driver(_) => 2,
        GpuError::Fault(_) => 3,
        GpuError::Hang(_) => 4,
    }
}
