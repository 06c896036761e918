//! Kernel launches on the JIT (issue #13): a PTX module's kernel, every
//! warp of every CTA, with the launch's buffers.

use warp_core::ir::Module;
use warp_core::launch::{Launch, LaunchError, LaunchOutcome};

/// Runs `launch` of a kernel of `module` on the JIT.
pub fn run_launch(module: &Module, launch: &Launch) -> Result<LaunchOutcome, LaunchError> {
    let _ = (module, launch);
    Err(LaunchError("jit: not lowered yet: PTX module kernels".into()))
}
