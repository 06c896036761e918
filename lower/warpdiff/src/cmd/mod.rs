//! One module per `warpdiff` subcommand (declared in [`crate::cli`]):
//! each takes its parsed arguments and returns the exit status.

pub mod batch_ddmin;
pub mod bench_gpu;
pub mod check;
pub mod diff;
pub mod diff_batch;
pub mod diff_kernel;
pub mod emit_ptx;
pub mod fuzz;
pub mod gpu_probe;
pub mod reduce;
pub mod reduce_batch;
pub mod repro;
pub mod run;
pub mod run_kernel;
