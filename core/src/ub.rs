//! Undefined behaviour: the rules ([`UbRule`]), and the diagnostic a run
//! ends with ([`Ub`]). The interpreter detects it, but an
//! [`Outcome`](crate::outcome::Outcome) and a kernel launch's outcome carry
//! it and the generator and the oracle read it, so it is engine vocabulary,
//! not part of the interpreter.

use crate::ir::Inst;
use std::fmt;

/// Which rule of the PTX ISA (or of this project's execution model) a
/// program broke.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum UbRule {
    /// "The behavior of `shfl.sync` [`vote.sync`, `match.sync`,
    /// `redux.sync`] is undefined if the executing thread is not in the
    /// `membermask`."
    NotInMembermask,
    /// Members of a `.sync` collective never arrive: the others wait for
    /// ever ("wait until all non-exited threads corresponding to
    /// `membermask` have executed" it). The members finished the program
    /// without exiting, wait at a collective with other qualifiers or
    /// another `membermask`, or spin until the fuel runs out.
    SyncDeadlock,
    /// Lanes of one collective hold different `membermask` values: the spec
    /// requires "the same qualifiers and same `membermask` value".
    MembermaskNotUniform,
    /// The executing lane's own bit of `membermask` is undefined, so
    /// whether it may execute the collective cannot be known. (Other
    /// undefined bits only make the results undefined.)
    MembermaskUndefined,
    /// "For .target `sm_6x` or below, all threads in `membermask` must
    /// execute the same `shfl.sync` instruction in convergence, and only
    /// threads belonging to some `membermask` can be active when the
    /// `shfl.sync` instruction is executed."
    Sm6xConvergence,
    /// An instruction the program's `.target` / `.version` does not allow
    /// (e.g. `match.sync` below sm_70, non-`.sync` `shfl`/`vote` at PTX 6.4+
    /// on sm_70+, `.f32` `redux.sync` without sm_100a).
    TargetUnsupported,
    /// A guard predicate is undefined on a converged lane where it decides
    /// control flow (`bra`, `exit`) or who takes part in a collective. (On
    /// any other instruction it only makes the destinations undefined.)
    GuardUndefined,
    /// A memory access outside every buffer, variable or space.
    MemoryOutOfBounds,
    /// An address not a multiple of the access size.
    MemoryMisaligned,
    /// A store to `.param` or `.const`.
    MemoryReadOnly,
    /// An address with undefined bits.
    MemoryUndefinedAddress,
    /// Conflicting accesses of two warps with no barrier between (or of two
    /// CTAs): a data race in PTX's memory model.
    MemoryRace,
    /// Threads wait at `bar.sync` for threads that never come: they wait at
    /// a `.sync` collective, or finished the program without `exit`/`ret`.
    BarrierDeadlock,
}

impl UbRule {
    /// The rule's stable name, as printed in diagnostics and JSON.
    pub fn name(self) -> &'static str {
        match self {
            UbRule::NotInMembermask => "not-in-membermask",
            UbRule::SyncDeadlock => "sync-deadlock",
            UbRule::MembermaskNotUniform => "membermask-not-uniform",
            UbRule::MembermaskUndefined => "membermask-undefined",
            UbRule::Sm6xConvergence => "sm6x-convergence",
            UbRule::TargetUnsupported => "target-unsupported",
            UbRule::GuardUndefined => "guard-undefined",
            UbRule::MemoryOutOfBounds => "memory-out-of-bounds",
            UbRule::MemoryMisaligned => "memory-misaligned",
            UbRule::MemoryReadOnly => "memory-read-only",
            UbRule::MemoryUndefinedAddress => "memory-undefined-address",
            UbRule::MemoryRace => "memory-race",
            UbRule::BarrierDeadlock => "barrier-deadlock",
        }
    }
}

impl fmt::Display for UbRule {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// The diagnostic of a run that hit undefined behaviour.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Ub {
    /// The rule broken.
    pub rule: UbRule,
    /// Source line of the instruction.
    pub line: u32,
    /// The lanes concerned (bit `i` = lane `i`).
    pub lanes: u32,
    /// A sentence naming the instruction and what happened.
    pub message: String,
}

impl Ub {
    /// A diagnostic at `inst`.
    pub fn new(rule: UbRule, inst: &Inst, lanes: u32, message: String) -> Self {
        Ub {
            rule,
            line: inst.line,
            lanes,
            message,
        }
    }
}

impl fmt::Display for Ub {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "undefined behaviour [{}] at line {}, lanes {:#010x}: {}",
            self.rule, self.line, self.lanes, self.message
        )
    }
}
