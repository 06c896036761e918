//! The glue between the warp instructions ([`Glue`]): `mov`, the ALU
//! operations ([`BinOp`], [`UnOp`]), `setp` ([`CmpOp`], [`BoolOp`]) and
//! `selp`, all per lane.

use super::regs::{Dest, Operand};
use super::types::Type;

/// Binary ALU operations (`op.TYPE d, a, b`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum BinOp {
    /// `add` (integers wrap; f32 rounds to nearest even).
    Add,
    /// `sub`.
    Sub,
    /// `mul.lo` on integers (low half of the product), `mul` on f32.
    Mul,
    /// `mul.hi`: high half of the double-width product.
    MulHi,
    /// `min` (f32: NaN-ignoring, `min(+0,-0) = -0`).
    Min,
    /// `max` (f32: NaN-ignoring, `max(+0,-0) = +0`).
    Max,
    /// `and` (bit types and `.pred`).
    And,
    /// `or`.
    Or,
    /// `xor`.
    Xor,
    /// `shl` (amount is `.u32`, clamped to the width).
    Shl,
    /// `shr` (`.s` types shift arithmetically; amount clamped to the width).
    Shr,
}

impl BinOp {
    /// The PTX opcode for type `ty` (`mul.lo` for integers, `mul` for f32).
    pub fn mnemonic(self, ty: Type) -> &'static str {
        match self {
            BinOp::Add => "add",
            BinOp::Sub => "sub",
            BinOp::Mul if ty == Type::F32 => "mul",
            BinOp::Mul => "mul.lo",
            BinOp::MulHi => "mul.hi",
            BinOp::Min => "min",
            BinOp::Max => "max",
            BinOp::And => "and",
            BinOp::Or => "or",
            BinOp::Xor => "xor",
            BinOp::Shl => "shl",
            BinOp::Shr => "shr",
        }
    }

    /// The type operand `b` is read as in `op.ty`: a `.u32` shift amount
    /// for `shl`/`shr` (whatever the width), else the instruction type.
    pub fn b_type(self, ty: Type) -> Type {
        match self {
            BinOp::Shl | BinOp::Shr => Type::U32,
            BinOp::Add
            | BinOp::Sub
            | BinOp::Mul
            | BinOp::MulHi
            | BinOp::Min
            | BinOp::Max
            | BinOp::And
            | BinOp::Or
            | BinOp::Xor => ty,
        }
    }
}

/// Unary ALU operations (`op.TYPE d, a`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum UnOp {
    /// `not` (bit types and `.pred`).
    Not,
    /// `neg.f32`.
    Neg,
    /// `abs.f32`.
    Abs,
    /// `popc.{b32,b64}`: population count into a 32-bit destination.
    Popc,
    /// `cnot.{b32,b64}`: "Compute the logical negation using C/C++
    /// semantics", `d = (a==0) ? 1 : 0;` (PTX ISA 9.7.8.3, Logic and Shift
    /// Instructions: `cnot`).
    Cnot,
}

impl UnOp {
    /// The PTX opcode.
    pub fn mnemonic(self) -> &'static str {
        match self {
            UnOp::Not => "not",
            UnOp::Neg => "neg",
            UnOp::Abs => "abs",
            UnOp::Popc => "popc",
            UnOp::Cnot => "cnot",
        }
    }

    /// The type `d` is written as in `op.ty`: `.u32` for `popc` (a count,
    /// whatever the width), else the instruction type.
    pub fn d_type(self, ty: Type) -> Type {
        match self {
            UnOp::Popc => Type::U32,
            UnOp::Not | UnOp::Neg | UnOp::Abs | UnOp::Cnot => ty,
        }
    }
}

/// `setp` comparison operators.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum CmpOp {
    /// `.eq`.
    Eq,
    /// `.ne`.
    Ne,
    /// `.lt`.
    Lt,
    /// `.le`.
    Le,
    /// `.gt`.
    Gt,
    /// `.ge`.
    Ge,
}

impl CmpOp {
    /// The PTX spelling (`eq`, `ne`, `lt`, `le`, `gt`, `ge`).
    pub fn name(self) -> &'static str {
        match self {
            CmpOp::Eq => "eq",
            CmpOp::Ne => "ne",
            CmpOp::Lt => "lt",
            CmpOp::Le => "le",
            CmpOp::Gt => "gt",
            CmpOp::Ge => "ge",
        }
    }
}

/// The boolean operator that combines a `setp` result with its `c` operand.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum BoolOp {
    /// `.and`.
    And,
    /// `.or`.
    Or,
    /// `.xor`.
    Xor,
}

impl BoolOp {
    /// The PTX spelling (`and`, `or`, `xor`).
    pub fn name(self) -> &'static str {
        match self {
            BoolOp::And => "and",
            BoolOp::Or => "or",
            BoolOp::Xor => "xor",
        }
    }
}

/// The glue between the warp instructions: moves, ALU operations,
/// comparisons and selects, all per lane.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Glue {
    /// `mov.TYPE d, a;`
    Mov {
        /// Instruction type.
        ty: Type,
        /// Destination.
        d: Dest,
        /// Source.
        a: Operand,
    },
    /// `op.TYPE d, a, b;` (see [`BinOp`]).
    Bin {
        /// The operation.
        op: BinOp,
        /// Instruction type.
        ty: Type,
        /// Destination.
        d: Dest,
        /// First source.
        a: Operand,
        /// Second source (a `.u32` shift amount for `shl`/`shr`).
        b: Operand,
    },
    /// `op.TYPE d, a;` (see [`UnOp`]).
    Un {
        /// The operation.
        op: UnOp,
        /// Instruction type (of `a`; `popc` writes 32 bits).
        ty: Type,
        /// Destination.
        d: Dest,
        /// Source.
        a: Operand,
    },
    /// `setp.cmp{.bool}.TYPE p[|q], a, b{, {!}c};`
    Setp {
        /// Comparison.
        cmp: CmpOp,
        /// Combining operator and its predicate operand `c`.
        combine: Option<(BoolOp, Operand)>,
        /// Type of `a` and `b`.
        ty: Type,
        /// `p = cmp(a, b) BOOL c`.
        p: Dest,
        /// `q = !cmp(a, b) BOOL c`, when `|q` is written.
        q: Option<Dest>,
        /// Left operand.
        a: Operand,
        /// Right operand.
        b: Operand,
    },
    /// `selp.TYPE d, a, b, c;`: `d = c ? a : b`.
    Selp {
        /// Instruction type.
        ty: Type,
        /// Destination.
        d: Dest,
        /// Chosen where `c` is true.
        a: Operand,
        /// Chosen where `c` is false.
        b: Operand,
        /// The `.pred` selector.
        c: Operand,
    },
}

impl Glue {
    /// The instruction type (`.TYPE`; for `popc` the type of `a`).
    pub fn ty(&self) -> Type {
        match *self {
            Glue::Mov { ty, .. }
            | Glue::Bin { ty, .. }
            | Glue::Un { ty, .. }
            | Glue::Setp { ty, .. }
            | Glue::Selp { ty, .. } => ty,
        }
    }

    /// The instruction type, to change it (the reducer narrows 64-bit
    /// instructions).
    pub fn ty_mut(&mut self) -> &mut Type {
        match self {
            Glue::Mov { ty, .. }
            | Glue::Bin { ty, .. }
            | Glue::Un { ty, .. }
            | Glue::Setp { ty, .. }
            | Glue::Selp { ty, .. } => ty,
        }
    }
}
