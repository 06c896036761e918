//! The GPU as an [`Engine`]: the process-wide GPU is opened on first use;
//! its absence is said once, on stderr, and the GPU engine is then simply
//! not available.

use super::emit::Job;
use super::run::{Gpu, GpuError, NoGpu};
use std::sync::{Arc, OnceLock};
use warp_core::engine::{Compiled, Engine, Skip};
use warp_core::interp::{Outcome, RunError};
use warp_core::ir::{Inputs, Program};

static COMPILE_EXE: OnceLock<std::path::PathBuf> = OnceLock::new();

/// Makes the process's GPU (opened later by [`gpu`]) compile PTX in helper
/// processes running `exe gpu-compile-worker` ([`super::farm`]); `exe` must
/// be a `warpdiff` binary. Has no effect once the GPU is open.
pub fn compile_in_processes(exe: std::path::PathBuf) {
    let _ = COMPILE_EXE.set(exe);
}

/// Every GPU of the host (device 0 is [`gpu`]'s), opened once: each with
/// its own context, stream and compile helpers. Empty without a GPU.
pub fn gpus() -> Vec<Arc<Gpu>> {
    static ALL: OnceLock<Vec<Arc<Gpu>>> = OnceLock::new();
    ALL.get_or_init(|| {
        let Ok(first) = gpu() else {
            return Vec::new();
        };
        let mut all = vec![first];
        for n in 1..super::run::device_count() {
            match open_with_helpers(n) {
                Ok(g) => {
                    eprintln!(
                        "warpdiff: also using GPU {n}: {}{}",
                        g.description,
                        g.compiler()
                    );
                    all.push(Arc::new(g));
                }
                Err(e) => eprintln!("warpdiff: GPU {n}: {e}; not used"),
            }
        }
        all
    })
    .clone()
}

fn open_with_helpers(ordinal: usize) -> Result<Gpu, NoGpu> {
    Gpu::open_device(ordinal).map(|mut g| {
        if let Some(exe) = COMPILE_EXE.get() {
            if let Err(e) = g.start_compile_processes(exe) {
                eprintln!("warpdiff: cannot start compile helpers ({e}); compiling in-process");
            }
        }
        g
    })
}

/// The process's GPU (device 0), opened once.
pub fn gpu() -> Result<Arc<Gpu>, NoGpu> {
    static GPU: OnceLock<Result<Arc<Gpu>, NoGpu>> = OnceLock::new();
    GPU.get_or_init(|| {
        let g = open_with_helpers(0).map(Arc::new);
        match &g {
            Ok(g) => eprintln!("warpdiff: using {}{}", g.description, g.compiler()),
            Err(e) => eprintln!("warpdiff: {e}; the GPU engine is not used"),
        }
        g
    })
    .clone()
}

/// The GPU engine.
#[derive(Clone, Copy, Debug, Default)]
pub struct GpuEngine;

struct OnGpu<'p> {
    gpu: Arc<Gpu>,
    program: &'p Program,
}

impl Compiled for OnGpu<'_> {
    fn run(&self, inputs: &Inputs) -> Result<Outcome, RunError> {
        let job = Job {
            program: self.program,
            inputs,
        };
        match self.gpu.run_batch(&[job]).pop() {
            Some(Ok(o)) => Ok(o),
            Some(Err(e @ (GpuError::Hang(_) | GpuError::Fault(_)))) => {
                // Keep the program that switched the GPU off.
                let path = std::env::temp_dir()
                    .join(format!("warpdiff-gpu-failed-{}.ptx", std::process::id()));
                let case = warp_core::ir::Case {
                    header: vec![format!("This case switched the GPU off: {e}")],
                    program: self.program.clone(),
                    inputs: inputs.clone(),
                    expect: Default::default(),
                };
                // (Not when a hang probe runs it: the prober has it.)
                let saved = if std::env::var_os("WARPDIFF_PROBE").is_some() {
                    String::new()
                } else {
                    match std::fs::write(&path, warp_core::text::print(&case)) {
                        Ok(()) => format!(
                            " (the program is in {}; `warpdiff reduce-hang` reduces it)",
                            path.display()
                        ),
                        Err(_) => String::new(),
                    }
                };
                eprintln!("warpdiff: {e}{saved}");
                Err(RunError::Engine(e.to_string()))
            }
            Some(Err(e)) => Err(RunError::Engine(e.to_string())),
            None => Err(RunError::Engine("no result".into())),
        }
    }
}

impl Engine for GpuEngine {
    fn name(&self) -> &'static str {
        "gpu"
    }

    fn compile<'p>(&self, prog: &'p Program, _fuel: u64) -> Result<Box<dyn Compiled + 'p>, Skip> {
        let gpu = gpu().map_err(|e| Skip {
            reason: e.to_string(),
        })?;
        if gpu.is_dead() {
            return Err(Skip {
                reason: GpuError::Dead.to_string(),
            });
        }
        super::emit::module_target(prog)?;
        Ok(Box::new(OnGpu { gpu, program: prog }))
    }
}
