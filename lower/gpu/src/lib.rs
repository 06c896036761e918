//! The GPU backend: warp programs as PTX kernels for real NVIDIA hardware.
//!
//! Emitting a batch's PTX needs no GPU (the driver is loaded at run time,
//! and only to run): two jobs of one program become one kernel that runs
//! one warp per job.
//!
//! ```
//! use warp_gpu::emit::{emit_module, text_target, Job};
//! use warp_gpu::warp_core::text::parse;
//!
//! let case = parse(
//!     ".reg .b32 b;
//!      .reg .pred p;
//!      setp.ne.u32 p, %laneid, 3;
//!      vote.sync.ballot.b32 b, p, 0xffffffff;",
//! )?;
//! let (version, target) = text_target(&case.program).expect("an sm_70 program");
//! let job = Job { program: &case.program, inputs: &case.inputs };
//! let module = emit_module(&[job, job], version, target)?;
//! assert_eq!(module.kernels.len(), 1);
//! assert!(module.ptx.contains("vote.sync.ballot.b32"));
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
//!
//! Running it takes a GPU: [`engine::gpu`] opens device 0 or says why there
//! is none.
//!
//! - [`emit`] turns a batch of (program, inputs) jobs into one PTX module
//!   (one `.entry` kernel per distinct program, one warp per job) and
//!   converts each job's inputs to, and its results from, the flat `u64`
//!   buffers the kernels read and write; it needs no GPU and no CUDA.
//! - [`device`] is what the rest of warpdiff sees of a GPU: a [`Device`]
//!   running batches, with [`GpuError`] and [`Timing`].
//! - [`plan`] cuts a batch into chunks (one module each) and reads their
//!   output words back; [`wire`] is a batch on its way to a GPU (modules,
//!   launches, buffers) and the runner messages; [`exec`] runs such
//!   modules on a CUDA context with a deadline.
//! - [`run`] is the device in this process: it compiles the modules (in
//!   parallel, optionally in [`farm`] helper processes) and runs them with
//!   [`exec`]; a hang or a fault switches it off for the process.
//! - [`remote`] is the device whose batches run in a child process
//!   ([`runner`], `warpdiff gpu-runner`), compiled in [`farm`] helpers with a
//!   deadline each: a hang, a fault or a stuck driver call costs that
//!   process and a batch, and a fresh runner takes the next one.
//! - [`driver`] holds every raw driver call and so every `unsafe` block of
//!   the crate.
//! - [`kernel`] launches a kernel of a PTX module as written (issue #13):
//!   the text as given, its buffers and parameters, with the deadline.
//! - [`batch`] compares a batch's results with the reference;
//!   [`engine`] opens the process's GPUs with a [`GpuConfig`]
//!   ([`config`]) and makes the GPU an [`Engine`](warp_core::engine::Engine).
//! - `sim` (fault-injection builds only) is a simulated GPU that hangs,
//!   faults or gets stuck on command, in this process or in a runner, to
//!   test the fault paths without hardware; `sim_wrong` its wrong values
//!   (a program wrong only after a batch mate, after a register fill, or
//!   once).
//!
//! Imports go one way: `engine` → `remote`, `run` → `plan`, `exec`, `farm`,
//! `driver`; `runner` → `exec`, `sim`, `sim_wrong`, `wire`; `kernel` →
//! `driver`, `config`; `batch` → `device`; `plan`, `sim` → `emit`, `wire`;
//! `sim` → `sim_wrong` → `config`; no module imports `engine`.

#![deny(unsafe_code)]
#![warn(missing_docs)]

pub mod batch;
pub mod config;
pub mod device;
pub mod dirty;
pub mod driver;
pub mod emit;
pub mod engine;
pub mod exec;
pub mod farm;
pub mod kernel;
pub mod plan;
pub mod remote;
pub mod run;
pub mod runner;
#[cfg(feature = "inject-bugs")]
pub mod sim;
#[cfg(feature = "inject-bugs")]
pub mod sim_wrong;
pub mod wire;

pub use config::{Compiler, GpuConfig, SimFault, SimStop};
pub use device::{Device, GpuError, RunnerCounts, Timing};
pub use emit::{
    decode_outputs, emit_module, emit_module_with, encode_inputs, encode_outputs, in_words,
    module_target, out_words, EmitError, Job, KernelInfo, Module, BLOCK_THREADS, LEGACY_TARGET,
    LEGACY_VERSION, TARGET, VERSION,
};
pub use kernel::{KernelError, KernelGpu};
/// The reference crate this one builds on, re-exported so that depending on
/// `warp-gpu` alone is enough to build the jobs it runs
/// (`warp_gpu::warp_core::text::parse`).
pub use warp_core;
