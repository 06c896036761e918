//! Fuel: how many warp steps an unbounded run may take ([`DEFAULT_FUEL`]
//! unless [`Interp::with_fuel`](super::Interp::with_fuel) says otherwise),
//! and the interpreter's one error, [`OutOfFuel`], when a run takes them
//! all. (A bounded run, [`Inputs::fuel`](crate::ir::Inputs::fuel), stops
//! instead, as an outcome.)

use std::fmt;

/// Default fuel: warp steps (instructions executed by a converged group).
pub const DEFAULT_FUEL: u64 = 1_000_000;

/// The interpreter's error: the fuel ran out (the program may loop
/// forever), so the run has no outcome. It is the only way an interpreter
/// run fails; as an engine's error it is
/// [`RunError::OutOfFuel`](crate::engine::RunError::OutOfFuel).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct OutOfFuel {
    /// Steps executed.
    pub steps: u64,
    /// Source line of the next instruction to run.
    pub line: u32,
}

impl fmt::Display for OutOfFuel {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let OutOfFuel { steps, line } = self;
        write!(
            f,
            "out of fuel after {steps} warp steps at line {line} (does the program loop forever?)"
        )
    }
}

impl std::error::Error for OutOfFuel {}
