//! What a run of one warp produces, whichever engine ran it: the
//! [`Outcome`] (every register's final value on every lane, which lanes and
//! bits are defined, undefined behaviour, where a bounded run stopped), and
//! the per-instruction [`Seen`] flags of how the run executed each
//! instruction.
//!
//! The reference interpreter fills every field; other engines report
//! every lane as defined ([`Outcome::all_defined`]) and leave the
//! reference's extras empty.

use crate::ir::{Bits, Reg, WARP};
use crate::ub::Ub;

/// The final state of a run.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Outcome {
    /// Final value of every declared register on every lane (bits, masked
    /// to the register's width; `.pred` is 0 or 1).
    pub values: Vec<[u64; WARP]>,
    /// Per register, the mask of lanes whose value is defined on every bit.
    pub defined: Vec<u32>,
    /// Per register and lane, the defined bits (the reference's; engines
    /// that do not track definedness leave it empty, and then `defined`
    /// says it per lane).
    pub defined_bits: Vec<[u64; WARP]>,
    /// Per register, the defined lanes whose value is a NaN whose bits PTX
    /// leaves open (see [`Outcome::nan_open`]); another engine matches
    /// there with any NaN. Empty for engines that do not track it.
    pub open: Vec<u32>,
    /// Lanes that executed `exit`.
    pub exited: u32,
    /// Set when the program hit undefined behaviour; then `values` are the
    /// state when it happened and mean nothing.
    pub ub: Option<Ub>,
    /// Warp steps executed.
    pub steps: u64,
    /// Per register and lane, which instruction wrote the final value:
    /// its index in `Program::insts` plus one, or 0 for an input or a
    /// register never written. Empty for engines that do not track it.
    pub writer: Vec<[u32; WARP]>,
    /// Where a bounded run ([`Inputs::fuel`](crate::ir::Inputs::fuel)) ran
    /// out of fuel; `None` when it ran to its end. The state above is the
    /// state at the stop.
    pub stop: Option<Stop>,
    /// Per instruction, how it was executed in this run: [`Seen`] flags
    /// (for the fuzzer's report of what it never exercised). Empty for
    /// engines that do not track it.
    pub seen: Vec<Seen>,
}

/// How an instruction was executed during a run: a set of flags.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Seen(pub u8);

impl Seen {
    /// A group of lanes executed it (guarded off or not).
    pub const RAN: Seen = Seen(1);
    /// ... with every lane that had not exited or finished in the group.
    pub const CONVERGED: Seen = Seen(2);
    /// ... with some lane that had not exited or finished elsewhere.
    pub const DIVERGENT: Seen = Seen(4);
    /// ... after some lane had exited.
    pub const AFTER_EXIT: Seen = Seen(8);

    /// Whether every flag of `f` is set.
    pub fn has(self, f: Seen) -> bool {
        self.0 & f.0 == f.0
    }
}

/// Where a bounded run stopped: its fuel was spent with lanes still to run.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Stop {
    /// Index in `Program::insts` of the instruction that would run next
    /// (the lowest pc among the lanes that can run).
    pub pc: usize,
    /// Its source line.
    pub line: u32,
}

impl Outcome {
    /// The value of register `r` on `lane`, or `None` unless every bit is
    /// defined.
    pub fn get(&self, r: Reg, lane: usize) -> Option<u64> {
        (self.defined[r.index()] >> lane & 1 == 1).then_some(self.values[r.index()][lane])
    }

    /// Register `r` on `lane` with its defined bits.
    pub fn bits(&self, r: Reg, lane: usize) -> Bits {
        let v = self.values[r.index()][lane];
        match self.defined_bits.get(r.index()) {
            Some(d) => Bits::new(v, d[lane]),
            None if self.defined[r.index()] >> lane & 1 == 1 => Bits::new(v, u64::MAX),
            None => Bits::UNDEFINED,
        }
    }

    /// Whether register `r` holds on `lane` a NaN whose bits PTX does not
    /// fix: the result of an f32 `add/sub/mul/min/max/neg/abs` that is NaN,
    /// a NaN that a lane op's float arithmetic or conversion writes
    /// (`add.rz.f64`, `cvt.f64.f32` ...), or a copy of one (`mov`, `selp`,
    /// `shfl`). On an H200 such results
    /// were canonical `0x7fffffff` at run time but kept the operand's bits
    /// when `ptxas` folded immediate operands (`abs.f32 %f, 0f7fc00000`
    /// gave `0x7fc00000`), so only "is a NaN" is compared there. The
    /// interpreter computes canonical NaN as their value.
    pub fn nan_open(&self, r: Reg, lane: usize) -> bool {
        self.open.get(r.index()).is_some_and(|m| m >> lane & 1 == 1)
    }

    /// An outcome of an engine that reports every lane as defined (the
    /// JIT, a GPU): `values` as read back, `exited` as reported.
    pub fn all_defined(values: Vec<[u64; WARP]>, exited: u32) -> Outcome {
        let n = values.len();
        Outcome {
            values,
            defined: vec![u32::MAX; n],
            defined_bits: Vec::new(),
            open: Vec::new(),
            exited,
            ub: None,
            steps: 0,
            writer: Vec::new(),
            stop: None,
            seen: Vec::new(),
        }
    }
}
