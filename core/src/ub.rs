//! Undefined behaviour: the rules ([`UbRule`]), the diagnostic a run
//! ends with ([`Ub`]), and where a faulty memory access happened
//! ([`AccessFault`]: lane, `%tid`, instruction, address). The interpreter detects it, but an
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
    /// For a faulty memory access of a kernel launch (out of bounds,
    /// misaligned, read-only, an undefined address): where, field by
    /// field, as the JIT reports the same access
    /// ([`LaunchError::Fault`](crate::launch::LaunchError::Fault)).
    pub fault: Option<Box<AccessFault>>,
}

impl Ub {
    /// A diagnostic at `inst`.
    pub fn new(rule: UbRule, inst: &Inst, lanes: u32, message: String) -> Self {
        Ub {
            rule,
            line: inst.line,
            lanes,
            message,
            fault: None,
        }
    }

    /// The same diagnostic, with where the access happened.
    pub fn with_fault(mut self, fault: AccessFault) -> Self {
        self.fault = Some(Box::new(fault));
        self
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

/// A faulty memory access of a kernel launch: an address out of bounds,
/// misaligned, with undefined bits, or a store to read-only memory. The
/// interpreter reports it as undefined behaviour ([`Ub::fault`]), the
/// JIT as an error
/// ([`LaunchError::Fault`](crate::launch::LaunchError::Fault)); both give
/// this, so a user reads one type whichever engine ran.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct AccessFault {
    /// The rule broken: `memory-out-of-bounds`, `memory-misaligned`,
    /// `memory-read-only`, `memory-undefined-address`, or (the
    /// interpreter only: the JIT does not look for them) `memory-race`.
    pub rule: UbRule,
    /// `%ctaid` of the CTA.
    pub cta: [u32; 3],
    /// The warp's index in its CTA.
    pub warp: u32,
    /// The lane (0 to 31) that faulted first (in lane order).
    pub lane: u32,
    /// The lane's `%tid`.
    pub tid: [u32; 3],
    /// Source line of the instruction.
    pub line: u32,
    /// The instruction, as the PTX text writes it
    /// ([`inst_text`](crate::text::inst_text)).
    pub inst: String,
    /// The address accessed (`None` when it has undefined bits).
    pub address: Option<u64>,
    /// What is wrong with the access, e.g. `address 0x2000000080 (4
    /// bytes) is outside every buffer and .global/.const variable`.
    pub message: String,
}

impl AccessFault {
    /// The interpreter's report of this access: where (`cta (X,Y,Z) warp
    /// W`, as [`LaunchOutcome::ub`](crate::launch::LaunchOutcome::ub) has
    /// it) and the diagnostic, with this fault in it. `warpdiff run`
    /// prints a fault so on every engine.
    pub fn to_ub(&self) -> (String, Ub) {
        let [x, y, z] = self.cta;
        let ub = Ub {
            rule: self.rule,
            line: self.line,
            lanes: 1 << (self.lane % 32),
            message: access_message(self.lane as usize, self.tid, &self.inst, &self.message),
            fault: Some(Box::new(self.clone())),
        };
        (format!("cta ({x},{y},{z}) warp {}", self.warp), ub)
    }
}

/// The diagnostic's sentence for a faulty access (interpreter and JIT
/// alike): `lane N (%tid (X,Y,Z)), `INST`: MESSAGE`.
pub(crate) fn access_message(lane: usize, tid: [u32; 3], inst: &str, msg: &str) -> String {
    let [tx, ty, tz] = tid;
    format!("lane {lane} (%tid ({tx},{ty},{tz})), `{inst}`: {msg}")
}

impl fmt::Display for AccessFault {
    /// `cta (X,Y,Z) warp W: line L: lane N (%tid (X,Y,Z)), `INST`: MESSAGE`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let [x, y, z] = self.cta;
        let what = access_message(self.lane as usize, self.tid, &self.inst, &self.message);
        write!(
            f,
            "cta ({x},{y},{z}) warp {}: line {}: {what}",
            self.warp, self.line
        )
    }
}

impl std::error::Error for AccessFault {}
