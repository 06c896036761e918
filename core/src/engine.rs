//! The `Engine` abstraction: compile a [`Program`] once, run it on many
//! [`Inputs`], get an [`Outcome`] per run — or a reason the engine skips
//! the program, or the engine's failure.
//!
//! Two kinds of "no outcome" are kept apart, because only one of them is a
//! finding:
//! - **cannot run here** ([`Skip`]): no GPU, a target the device lacks
//!   (`.f32` `redux.sync` needs sm_100a), a configured size limit, a GPU
//!   switched off after an earlier hang. Counted by reason, never as
//!   agreement, never as a divergence.
//! - **the engine failed on a valid program** ([`CompileError::Failed`],
//!   [`RunError::Engine`]): a JIT lowering that does not compile, PTX the
//!   driver rejects, a hang, a panic inside the engine. The oracle reports
//!   it as a divergence of kind `engine-failed`, reduced and recorded like
//!   any other.
//!
//! The reference interpreter implements it in [`crate::interp`] (its
//! `InterpEngine`); the Cranelift JIT and the GPU runner implement it in
//! `warp-jit` and `warp-gpu`. Only the interpreter knows
//! definedness and undefined behaviour: other engines report every lane as
//! defined, and their outcomes are compared on the interpreter's defined
//! lanes.

use crate::ir::{Inputs, Program};
use crate::outcome::Outcome;
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

/// Why an engine gives no compiled program.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum CompileError {
    /// The engine cannot run it here (see [`Skip`]).
    Skip(Skip),
    /// The engine failed on a valid program: a bug in it, with its message.
    Failed(String),
}

impl fmt::Display for CompileError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            CompileError::Skip(s) => write!(f, "skipped: {s}"),
            CompileError::Failed(m) => write!(f, "failed: {m}"),
        }
    }
}

impl From<Skip> for CompileError {
    fn from(s: Skip) -> Self {
        CompileError::Skip(s)
    }
}

/// Why a run gave no [`Outcome`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum RunError {
    /// The fuel ran out (the program may loop forever): an unbounded run
    /// ([`Inputs::fuel`] not set) of an engine that counts warp steps (the
    /// interpreter, the JIT).
    OutOfFuel {
        /// Steps executed.
        steps: u64,
        /// Source line of the next instruction to run.
        line: u32,
    },
    /// An engine other than the interpreter failed on the program (a GPU
    /// driver error, hang or fault; a JIT's runaway code; a panic): a
    /// finding, with its message.
    Engine(String),
    /// An engine other than the interpreter cannot run the program now
    /// (the GPU was switched off by an earlier hang): a skip, not a finding.
    Unavailable(Skip),
}

impl fmt::Display for RunError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            RunError::OutOfFuel { steps, line } => write!(
                f,
                "out of fuel after {steps} warp steps at line {line} (does the program loop forever?)"
            ),
            RunError::Engine(m) => f.write_str(m),
            RunError::Unavailable(s) => write!(f, "not run: {s}"),
        }
    }
}

impl std::error::Error for RunError {}

/// The skip of an engine that cannot stop a run after a number of warp
/// steps (a GPU, an external engine) for `inputs`, when they ask for a
/// bounded run ([`Inputs::fuel`]); `None` when they do not.
pub fn unbounded_only(inputs: &Inputs) -> Option<Skip> {
    // One reason for every fuel value: skips are counted by reason.
    inputs.fuel.map(|_| Skip {
        reason:
            "a bounded run (`.fuel`): this engine does not stop a run after a number of warp steps"
                .to_string(),
    })
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

    /// Whether its runs honour [`Inputs::fuel`]: stop after exactly that
    /// many warp steps, counted as the reference counts them (one per
    /// instruction a group of converged lanes executes, arrivals at a
    /// collective included, the completion of a rendezvous free), and
    /// return the state there with [`Outcome::stop`]. Such engines are
    /// compared on bounded runs, and their divergences blamed on the first
    /// step that differs ([`crate::blame`]). Default: no.
    fn bounded_runs(&self) -> bool {
        false
    }

    /// Whether the engine promises only the convergence the ISA promises:
    /// its lanes may part at any instruction and meet again only at a
    /// `.sync` rendezvous (a GPU whose lanes sleep for different times
    /// before every collective and `activemask`, `--gpu-perturb`). Its
    /// runs are then compared with the reference in the spec model
    /// ([`crate::interp::Interp::spec_model`]), whose defined values are
    /// those of the observed model less the ones that rest on lanes
    /// staying together. Default: no (the observed model, what every
    /// unperturbed H200 run showed).
    fn spec_convergence(&self) -> bool {
        false
    }

    /// Compiles `prog` (fuel bounds every later run).
    fn compile<'p>(
        &self,
        prog: &'p Program,
        fuel: u64,
    ) -> Result<Box<dyn Compiled + 'p>, CompileError>;

    /// [`Engine::compile`] when the caller knows whether the runs will be
    /// bounded (`.fuel`): an engine with separate code for bounded runs
    /// then compiles the kind that is needed now, and the other one only
    /// if a run needs it. Default: [`Engine::compile`].
    fn compile_for<'p>(
        &self,
        prog: &'p Program,
        fuel: u64,
        bounded: bool,
    ) -> Result<Box<dyn Compiled + 'p>, CompileError> {
        let _ = bounded;
        self.compile(prog, fuel)
    }
}
