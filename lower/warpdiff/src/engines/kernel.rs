//! The engines that run kernel launches of PTX modules (issue #13), by
//! name: the reference interpreter, the JIT and the GPU (the PTX text as
//! written, on the process's first GPU, opened once). `warpdiff run` and
//! `warpdiff diff` use them for `--launch`/`--kernel`.

use crate::engines::spec::EngineSpec;
use crate::errln;
use std::sync::OnceLock;
use warp_core::ir::Module;
use warp_core::launch::{Launch, LaunchOutcome};
use warp_gpu::kernel::{KernelError, KernelGpu};

/// Why an engine gave no outcome for a launch.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum KernelRunError {
    /// The engine cannot run here (no CUDA driver or GPU): a skip, with
    /// the reason.
    Skip(String),
    /// The engine failed on the launch (on a valid program, a finding).
    Failed(String),
}

/// The process's GPU for kernel launches, opened on first use with the
/// configuration the command line gave; its absence is said once, on
/// stderr.
fn gpu() -> Result<&'static KernelGpu, String> {
    static GPU: OnceLock<Result<KernelGpu, String>> = OnceLock::new();
    GPU.get_or_init(|| {
        let g = KernelGpu::open(0, warp_gpu::engine::config())
            .map_err(|e| KernelError::NoGpu(e.0).to_string());
        match &g {
            Ok(g) => errln!("warpdiff: kernel launches on {}", g.description()),
            Err(e) => errln!("warpdiff: {e}; the GPU engine is not used"),
        }
        g
    })
    .as_ref()
    .map_err(Clone::clone)
}

/// The engine's name, and for `gpu` the model it runs on (opening the
/// GPU if it is not open yet), for headers.
pub fn describe(name: &str) -> String {
    match name {
        "gpu" => gpu().map_or_else(
            |_| name.to_string(),
            |g| format!("gpu: {}", g.description()),
        ),
        _ => name.to_string(),
    }
}

/// Which built-in engine `spec` names, if it runs kernel launches.
pub fn kernel_engine(spec: &EngineSpec) -> Result<&'static str, String> {
    match spec {
        EngineSpec::Builtin(n) => Ok(n),
        EngineSpec::Cmd(c) => Err(format!(
            "engine `cmd:{c}`: external engines do not run PTX modules (the engine protocol carries warp programs); use interp, jit or gpu"
        )),
    }
}

/// Runs `launch` of a kernel of `module` (parsed from `ptx`) on the
/// built-in engine `name`. The GPU's buffers are all defined and it
/// reports no steps or undefined behaviour (hardware does not say).
pub fn run(
    name: &str,
    ptx: &str,
    module: &Module,
    launch: &Launch,
) -> Result<LaunchOutcome, KernelRunError> {
    match name {
        "interp" => warp_core::interp::run_launch(module, launch)
            .map_err(|e| KernelRunError::Failed(e.to_string())),
        "jit" => warp_jit::launch::run_launch(module, launch)
            .map_err(|e| KernelRunError::Failed(e.to_string())),
        "gpu" => {
            let g = gpu().map_err(KernelRunError::Skip)?;
            match g.run_launch(ptx, module, launch) {
                Ok(buffers) => Ok(LaunchOutcome {
                    buffers,
                    ub: None,
                    steps: 0,
                }),
                Err(e) if e.is_no_gpu() => Err(KernelRunError::Skip(e.to_string())),
                Err(e) => Err(KernelRunError::Failed(e.to_string())),
            }
        }
        other => Err(KernelRunError::Failed(format!(
            "`{other}` is not an engine that runs kernel launches (interp, jit, gpu)"
        ))),
    }
}
