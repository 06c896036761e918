//! The GPU as an [`Engine`]: the process-wide GPU is opened on first use;
//! its absence is said once, on stderr, and the GPU engine is then simply
//! not available.

use super::emit::Job;
use super::run::{Gpu, GpuError, NoGpu};
use std::sync::{Arc, OnceLock};
use warp_core::engine::{Compiled, Engine, Skip};
use warp_core::interp::{Outcome, RunError};
use warp_core::ir::{Inputs, Program};

/// The process's GPU, opened once.
pub fn gpu() -> Result<Arc<Gpu>, NoGpu> {
    static GPU: OnceLock<Result<Arc<Gpu>, NoGpu>> = OnceLock::new();
    GPU.get_or_init(|| {
        let g = Gpu::open().map(Arc::new);
        match &g {
            Ok(g) => eprintln!("warpdiff: using {}", g.description),
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
