//! The engines `warpdiff` can use, by name.

use crate::gpu::engine::GpuEngine;
use crate::jit::{JitEngine, Tuning};
use warp_core::engine::{Engine, InterpEngine};

/// Names of every engine, the reference first.
pub const ENGINES: &[&str] = &["interp", "jit", "gpu"];

/// The engine called `name`, tuned for programs that run once (fuzzing,
/// `diff`, `run`): the JIT compiles fast rather than for the fastest code.
pub fn for_one_run(name: &str) -> Option<Box<dyn Engine>> {
    match name {
        "jit" => Some(Box::new(JitEngine {
            tuning: Tuning::FastCompile,
        })),
        other => by_name(other),
    }
}

/// The engine called `name`, if there is one.
pub fn by_name(name: &str) -> Option<Box<dyn Engine>> {
    match name {
        "interp" => Some(Box::new(InterpEngine)),
        "jit" => Some(Box::new(JitEngine::default())),
        "gpu" => Some(Box::new(GpuEngine)),
        _ => None,
    }
}
