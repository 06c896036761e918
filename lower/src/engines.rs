//! The engines `warpdiff` can use, by name.

use crate::jit::JitEngine;
use warp_core::engine::{Engine, InterpEngine};

/// Names of every engine, the reference first.
pub const ENGINES: &[&str] = &["interp", "jit"];

/// The engine called `name`, if there is one.
pub fn by_name(name: &str) -> Option<Box<dyn Engine>> {
    match name {
        "interp" => Some(Box::new(InterpEngine)),
        "jit" => Some(Box::new(JitEngine)),
        _ => None,
    }
}
