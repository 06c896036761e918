//! Registers and labels as a parsed program holds them (indices into its
//! declarations), and what instructions build on registers: source
//! operands, destinations and guards.

use super::types::Type;

/// Index of a declared register in [`Program::regs`](super::Program::regs).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Reg(pub u32);

impl Reg {
    /// The register's index as a `usize`.
    pub fn index(self) -> usize {
        self.0 as usize
    }
}

/// Index of a label in [`Program::labels`](super::Program::labels).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct LabelId(pub u32);

/// A declared register.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct RegDecl {
    /// Its name as written (`Rx`, `%r3`).
    pub name: String,
    /// Its declared type.
    pub ty: Type,
}

/// A label: a name and the index of the instruction it stands before
/// (`insts.len()` for a label at the very end).
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Label {
    /// The name as written.
    pub name: String,
    /// Index into [`Program::insts`](super::Program::insts) of the
    /// instruction that follows it.
    pub at: usize,
}

/// A source operand.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Operand {
    /// A declared register, read per lane.
    Reg(Reg),
    /// `!p`: the negation of a `.pred` register (vote `a`, setp `c`).
    NotPred(Reg),
    /// An immediate, stored as its bits truncated to the operand's width.
    Imm(u64),
    /// `%laneid`: the lane's index 0..31 as a 32-bit integer.
    LaneId,
}

/// A destination operand.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Dest {
    /// Write this register on every lane that executes.
    Reg(Reg),
    /// `_`: the sink; the result is discarded.
    Sink,
}

/// `@p` / `@!p`: a per-lane guard predicate.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Guard {
    /// The `.pred` register tested.
    pub reg: Reg,
    /// `@!p`: execute where the predicate is false.
    pub negated: bool,
}
