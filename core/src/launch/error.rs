//! [`LaunchError`]: why a kernel launch gave no outcome, the same type
//! from every engine (the interpreter, the JIT, the GPU).

use crate::interp::fuel::OutOfFuel;
use crate::ub::AccessFault;
use std::fmt;

/// Why a launch could not run or did not finish. Its `Display` is the
/// message `warpdiff run` prints.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum LaunchError {
    /// The launch does not fit the module: no such kernel, a parameter
    /// without a value or a value for no parameter, a block over 1024
    /// threads or with an empty dimension, more shared or local memory
    /// than sm_90 has, a buffer over 4 GiB. The message says which.
    Invalid(String),
    /// A faulty memory access of the kernel, as the JIT reports it (the
    /// interpreter reports the same access as undefined behaviour in the
    /// outcome, with the same [`AccessFault`] in
    /// [`Ub::fault`](crate::ub::Ub::fault): see
    /// [`LaunchOutcome::fault`](super::LaunchOutcome::fault)).
    Fault(AccessFault),
    /// A warp ran out of fuel (does the kernel loop forever?).
    OutOfFuel {
        /// `%ctaid` of its CTA.
        cta: [u32; 3],
        /// The warp's index in its CTA.
        warp: u32,
        /// The steps it took and the line it was at.
        fuel: OutOfFuel,
    },
    /// The engine failed: a bug of the engine, or the host lacks what it
    /// needs (executable memory, a GPU). The message says what.
    Engine(String),
}

impl fmt::Display for LaunchError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            LaunchError::Invalid(m) | LaunchError::Engine(m) => f.write_str(m),
            LaunchError::Fault(x) => x.fmt(f),
            LaunchError::OutOfFuel {
                cta: [x, y, z],
                warp,
                fuel,
            } => write!(f, "cta ({x},{y},{z}) warp {warp}: {fuel}"),
        }
    }
}

impl std::error::Error for LaunchError {}

/// The message as the command line prints it (callers whose errors are
/// strings take a `LaunchError` with `?`).
impl From<LaunchError> for String {
    fn from(e: LaunchError) -> String {
        e.to_string()
    }
}
