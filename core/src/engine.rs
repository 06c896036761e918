//! The `Engine` abstraction: compile a [`Program`] once, run it on many
//! [`Inputs`], get an [`Outcome`] per run — or a reason the engine skips
//! the program.
//!
//! The reference interpreter implements it here; the Cranelift JIT and the
//! GPU runner implement it in `warp-lower`. Only the interpreter knows
//! definedness and undefined behaviour: other engines report every lane as
//! defined, and their outcomes are compared on the interpreter's defined
//! lanes.

use crate::interp::{Interp, Outcome, RunError};
use crate::ir::{Inputs, Program};
use std::fmt;

/// Why an engine does not run a program (e.g. the GPU lacks sm_100a for
/// `.f32` `redux.sync`). A skip is never counted as agreement.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Skip {
    /// A sentence naming what is missing.
    pub reason: String,
}

impl fmt::Display for Skip {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.reason)
    }
}

/// A program compiled by an engine, ready to run on any number of inputs.
pub trait Compiled: Send + Sync {
    /// Runs one warp.
    fn run(&self, inputs: &Inputs) -> Result<Outcome, RunError>;
}

/// An execution engine.
pub trait Engine {
    /// Short name: `interp`, `jit`, `gpu`.
    fn name(&self) -> &'static str;

    /// Compiles `prog` (fuel bounds every later run).
    fn compile<'p>(&self, prog: &'p Program, fuel: u64) -> Result<Box<dyn Compiled + 'p>, Skip>;
}

/// The reference interpreter as an [`Engine`].
#[derive(Clone, Copy, Debug, Default)]
pub struct InterpEngine;

struct Interpreted<'p> {
    interp: Interp<'p>,
}

impl Compiled for Interpreted<'_> {
    fn run(&self, inputs: &Inputs) -> Result<Outcome, RunError> {
        self.interp.run(inputs)
    }
}

impl Engine for InterpEngine {
    fn name(&self) -> &'static str {
        "interp"
    }

    fn compile<'p>(&self, prog: &'p Program, fuel: u64) -> Result<Box<dyn Compiled + 'p>, Skip> {
        Ok(Box::new(Interpreted {
            interp: Interp::new(prog).with_fuel(fuel),
        }))
    }
}
