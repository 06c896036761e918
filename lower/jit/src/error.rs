//! [`JitError`]: why the JIT gives no compiled program (a size limit, or a
//! failure of the lowering, of Cranelift or of the host).

use std::fmt;

/// Why a program was not compiled.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum JitError {
    /// The program is over a size limit ([`Limits`](crate::Limits)): not a
    /// bug, a choice; the message says which limit and how to raise it.
    TooBig(String),
    /// The lowering or Cranelift failed on it (a bug in the JIT), or the
    /// host has no native ISA or executable memory.
    Failed(String),
}

impl fmt::Display for JitError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            JitError::TooBig(m) | JitError::Failed(m) => write!(f, "jit: {m}"),
        }
    }
}

impl std::error::Error for JitError {}
