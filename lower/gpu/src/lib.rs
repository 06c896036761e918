//! The GPU backend: warp programs as PTX kernels for real NVIDIA hardware.
//!
//! - [`emit`] turns a batch of (program, inputs) jobs into one PTX module
//!   (one `.entry` kernel per distinct program, one warp per job) and
//!   converts each job's inputs to, and its results from, the flat `u64`
//!   buffers the kernels read and write; it needs no GPU and no CUDA.
//! - [`device`] is what the rest of warpdiff sees of a GPU: a [`Device`]
//!   running batches, with [`GpuError`] and [`Timing`].
//! - [`run`] is the real device: it compiles such modules (in parallel,
//!   optionally in [`farm`] helper processes) and launches them through the
//!   CUDA driver, with a deadline; [`driver`] holds every raw driver call
//!   and so every `unsafe` block of the crate.
//! - [`kernel`] launches a kernel of a PTX module as written (issue #13):
//!   the text as given, its buffers and parameters, with the deadline.
//! - [`batch`] compares a batch's results with the reference;
//!   [`engine`] opens the process's GPUs with a [`GpuConfig`]
//!   ([`config`]) and makes the GPU an [`Engine`](warp_core::engine::Engine).
//! - `sim` (fault-injection builds only) is a simulated GPU that faults on
//!   command, to test the fault paths without hardware.
//!
//! Imports go one way: `engine` → `run` → `farm`, `driver`; `kernel` →
//! `driver`, `config`; `batch` →
//! `device`; `run`, `sim` → `device`, `emit`, `config`; no module imports
//! `engine`.

#![deny(unsafe_code)]
#![warn(missing_docs)]

pub mod batch;
pub mod config;
pub mod device;
pub mod driver;
pub mod emit;
pub mod engine;
pub mod farm;
pub mod kernel;
pub mod run;
#[cfg(feature = "inject-bugs")]
pub mod sim;

pub use config::{Compiler, GpuConfig, SimFault};
pub use device::{Device, GpuError, Timing};
pub use emit::{
    decode_outputs, emit_module, emit_module_with, encode_inputs, in_words, module_target,
    out_words, EmitError, Job, KernelInfo, Module, BLOCK_THREADS, LEGACY_TARGET, LEGACY_VERSION,
    TARGET, VERSION,
};
pub use kernel::{KernelError, KernelGpu};
