//! The GPU backend: warp programs as PTX kernels for real NVIDIA hardware.
//!
//! [`emit`] turns a batch of (program, inputs) jobs into one PTX module
//! (one `.entry` kernel per distinct program, one warp per job) and
//! converts each job's inputs to, and its results from, the flat `u64`
//! buffers the kernels read and write; it needs no GPU and no CUDA.
//! [`run`] loads such modules and launches them through the CUDA driver,
//! and [`engine`] makes the GPU an [`Engine`](warp_core::engine::Engine).

pub mod batch;
pub mod emit;
pub mod engine;
pub mod farm;
pub mod run;

pub use emit::{
    decode_outputs, emit_module, encode_inputs, in_words, module_target, out_words, EmitError, Job,
    KernelInfo, Module, BLOCK_THREADS, LEGACY_TARGET, LEGACY_VERSION, TARGET, VERSION,
};
