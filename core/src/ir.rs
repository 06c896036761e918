//! The warp IR: a typed program of PTX instructions over declared registers.
//!
//! A [`Program`] is what one warp runs: `.version`/`.target`, the declared
//! registers, and a body of [`Inst`]s with labels between them. Every operand
//! is already resolved (registers are indices into [`Program::regs`], labels are
//! indices into [`Program::labels`]) and type-checked by the parser, so the
//! interpreter and the backends never see a name.
//!
//! This module owns the vocabulary of the instruction set, so that the
//! interpreter, the generator, the reducer and the backends ask it rather
//! than keep copies: the instruction types here, and beside them
//! `ir/operands.rs` (which operands an instruction reads and writes, with
//! their types and roles), `ir/requirement.rs` (which `.version` and
//! `.target` each instruction needs) and `ir/forms.rs` (the modes,
//! operations and types each instruction takes, form names and opcodes).

use std::fmt;

mod forms;
mod module;
mod operands;
mod requirement;
mod thread;

pub use forms::all_forms;
pub use module::{windows, Kernel, Module, Param, Variable};
pub use operands::{DestMut, Role, SourceMut};
pub use requirement::{Refusal, Requirement};
pub use thread::{Address, Axis, FloatOp, IntOp, Rounding, Space, Special, Thread, ThreadKind};

/// Number of lanes in a warp.
pub const WARP: usize = 32;

/// A register's declared PTX type (`.reg .TYPE name;`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Type {
    /// `.b32`: untyped 32 bits, compatible with every 32-bit type.
    B32,
    /// `.u32`: unsigned 32-bit integer.
    U32,
    /// `.s32`: signed (two's complement) 32-bit integer.
    S32,
    /// `.f32`: IEEE binary32.
    F32,
    /// `.b64`: untyped 64 bits, compatible with every 64-bit type.
    B64,
    /// `.u64`: unsigned 64-bit integer.
    U64,
    /// `.s64`: signed 64-bit integer.
    S64,
    /// `.pred`: a one-bit predicate (0 or 1).
    Pred,
    /// `.b16`: untyped 16 bits (PTX modules; not in the fuzzed case format).
    B16,
    /// `.u16`: unsigned 16-bit integer.
    U16,
    /// `.s16`: signed 16-bit integer.
    S16,
    /// `.f64`: IEEE binary64.
    F64,
    /// `.b8`: untyped 8 bits (a memory and `cvt` type: `ld.global.u8`).
    B8,
    /// `.u8`: unsigned 8-bit integer.
    U8,
    /// `.s8`: signed 8-bit integer.
    S8,
}

impl Type {
    /// The eight types of the warp-instruction case format (what the
    /// generator draws from), in the order of the table above. PTX modules
    /// also use [`Type::MODULE_ONLY`].
    pub const ALL: [Type; 8] = [
        Type::B32,
        Type::U32,
        Type::S32,
        Type::F32,
        Type::B64,
        Type::U64,
        Type::S64,
        Type::Pred,
    ];

    /// The types only PTX modules (`.entry` kernels) use: 8- and 16-bit
    /// integers and `.f64`.
    pub const MODULE_ONLY: [Type; 7] = [
        Type::B16,
        Type::U16,
        Type::S16,
        Type::F64,
        Type::B8,
        Type::U8,
        Type::S8,
    ];

    /// Width in bits of a value of this type (1 for `.pred`).
    pub fn bits(self) -> u32 {
        match self {
            Type::B32 | Type::U32 | Type::S32 | Type::F32 => 32,
            Type::B64 | Type::U64 | Type::S64 | Type::F64 => 64,
            Type::B16 | Type::U16 | Type::S16 => 16,
            Type::B8 | Type::U8 | Type::S8 => 8,
            Type::Pred => 1,
        }
    }

    /// Whether it is a signed integer type (`.s8` .. `.s64`).
    pub fn is_signed(self) -> bool {
        matches!(self, Type::S8 | Type::S16 | Type::S32 | Type::S64)
    }

    /// Whether it is a float type (`.f32`, `.f64`).
    pub fn is_float(self) -> bool {
        matches!(self, Type::F32 | Type::F64)
    }

    /// Whether it is an untyped bit type (`.b8` .. `.b64`).
    pub fn is_bits(self) -> bool {
        matches!(self, Type::B8 | Type::B16 | Type::B32 | Type::B64)
    }

    /// Mask of the bits a value of this type occupies in a `u64`.
    pub fn mask(self) -> u64 {
        match self.bits() {
            64 => u64::MAX,
            n => (1u64 << n) - 1,
        }
    }

    /// The untyped bit type of the same width (`.b32`, `.b64`; `.pred`
    /// stays `.pred`).
    pub fn bit_type(self) -> Type {
        match self.bits() {
            8 => Type::B8,
            16 => Type::B16,
            32 => Type::B32,
            64 => Type::B64,
            _ => Type::Pred,
        }
    }

    /// The PTX spelling without the dot (`b32`, `pred`, ...).
    pub fn name(self) -> &'static str {
        match self {
            Type::B32 => "b32",
            Type::U32 => "u32",
            Type::S32 => "s32",
            Type::F32 => "f32",
            Type::B64 => "b64",
            Type::U64 => "u64",
            Type::S64 => "s64",
            Type::Pred => "pred",
            Type::B16 => "b16",
            Type::U16 => "u16",
            Type::S16 => "s16",
            Type::F64 => "f64",
            Type::B8 => "b8",
            Type::U8 => "u8",
            Type::S8 => "s8",
        }
    }

    /// Parses a PTX type name without the dot.
    pub fn from_name(s: &str) -> Option<Type> {
        Some(match s {
            "b32" => Type::B32,
            "u32" => Type::U32,
            "s32" => Type::S32,
            "f32" => Type::F32,
            "b64" => Type::B64,
            "u64" => Type::U64,
            "s64" => Type::S64,
            "pred" => Type::Pred,
            "b16" => Type::B16,
            "u16" => Type::U16,
            "s16" => Type::S16,
            "f64" => Type::F64,
            "b8" => Type::B8,
            "u8" => Type::U8,
            "s8" => Type::S8,
            _ => return None,
        })
    }

    /// PTX operand type compatibility (ISA §6.4.1, "Operand Type
    /// Information"): a register of type `self` may be used where an
    /// instruction of type `want` expects an operand when the sizes agree and
    /// either one of them is a bit-size type, both are integers (signed and
    /// unsigned mix freely), or both are the same float type.
    pub fn compatible(self, want: Type) -> bool {
        if self == Type::Pred || want == Type::Pred {
            return self == want;
        }
        if self.bits() != want.bits() {
            return false;
        }
        let int = |t: Type| !t.is_bits() && !t.is_float();
        self.is_bits() || want.is_bits() || (int(self) && int(want)) || self == want
    }
}

impl fmt::Display for Type {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, ".{}", self.name())
    }
}

/// Index of a declared register in [`Program::regs`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Reg(pub u32);

impl Reg {
    /// The register's index as a `usize`.
    pub fn index(self) -> usize {
        self.0 as usize
    }
}

/// Index of a label in [`Program::labels`].
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
    /// Index into [`Program::insts`] of the instruction that follows it.
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

/// `shfl` source-lane modes (spec: `.mode = { .up, .down, .bfly, .idx }`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ShflMode {
    /// `j = lane - bval; pval = (j >= maxLane)`.
    Up,
    /// `j = lane + bval; pval = (j <= maxLane)`.
    Down,
    /// `j = lane ^ bval; pval = (j <= maxLane)`.
    Bfly,
    /// `j = minLane | (bval[4:0] & ~segmask[4:0]); pval = (j <= maxLane)`.
    Idx,
}

impl ShflMode {
    /// The PTX spelling (`up`, `down`, `bfly`, `idx`).
    pub fn name(self) -> &'static str {
        match self {
            ShflMode::Up => "up",
            ShflMode::Down => "down",
            ShflMode::Bfly => "bfly",
            ShflMode::Idx => "idx",
        }
    }
}

/// `vote` modes.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum VoteMode {
    /// `.all.pred`: true if `a` is true for all non-exited member threads.
    All,
    /// `.any.pred`: true if `a` is true for any member thread.
    Any,
    /// `.uni.pred`: true if `a` has the same value in all non-exited members.
    Uni,
    /// `.ballot.b32`: bit `i` of `d` is lane `i`'s predicate.
    Ballot,
}

impl VoteMode {
    /// The PTX spelling (`all`, `any`, `uni`, `ballot`).
    pub fn name(self) -> &'static str {
        match self {
            VoteMode::All => "all",
            VoteMode::Any => "any",
            VoteMode::Uni => "uni",
            VoteMode::Ballot => "ballot",
        }
    }

    /// The instruction type, which is the result's: `.b32` for
    /// `.ballot`, `.pred` for the others.
    pub fn ty(self) -> Type {
        match self {
            VoteMode::Ballot => Type::B32,
            VoteMode::All | VoteMode::Any | VoteMode::Uni => Type::Pred,
        }
    }
}

/// `match.sync` modes.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum MatchMode {
    /// `.any`: mask of non-exited members whose `a` equals this thread's.
    Any,
    /// `.all`: mask of non-exited members if all have the same `a`, else 0.
    All,
}

impl MatchMode {
    /// The PTX spelling (`any`, `all`).
    pub fn name(self) -> &'static str {
        match self {
            MatchMode::Any => "any",
            MatchMode::All => "all",
        }
    }
}

/// The integer flavour of an arithmetic `redux.sync` (`.u32` / `.s32`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Signedness {
    /// `.u32`.
    Unsigned,
    /// `.s32`.
    Signed,
}

/// A `redux.sync` operation with its type.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ReduxOp {
    /// `.add.{u32,s32}`: sum truncated to 32 bits.
    Add(Signedness),
    /// `.min.{u32,s32}`.
    Min(Signedness),
    /// `.max.{u32,s32}`.
    Max(Signedness),
    /// `.and.b32`.
    And,
    /// `.or.b32`.
    Or,
    /// `.xor.b32`.
    Xor,
    /// `.min{.abs}{.NaN}.f32` (sm_100a): `+0.0 > -0.0`.
    FMin {
        /// `.abs`: reduce absolute values.
        abs: bool,
        /// `.NaN`: any NaN input makes the result canonical NaN.
        nan: bool,
    },
    /// `.max{.abs}{.NaN}.f32` (sm_100a).
    FMax {
        /// `.abs`: reduce absolute values.
        abs: bool,
        /// `.NaN`: any NaN input makes the result canonical NaN.
        nan: bool,
    },
}

impl ReduxOp {
    /// The type of the operation's source and destination (`.u32`/`.s32`
    /// for add/min/max, `.b32` for the bitwise ones, `.f32`).
    pub fn ty(self) -> Type {
        match self {
            ReduxOp::Add(s) | ReduxOp::Min(s) | ReduxOp::Max(s) => match s {
                Signedness::Unsigned => Type::U32,
                Signedness::Signed => Type::S32,
            },
            ReduxOp::And | ReduxOp::Or | ReduxOp::Xor => Type::B32,
            ReduxOp::FMin { .. } | ReduxOp::FMax { .. } => Type::F32,
        }
    }

    /// Whether it is one of the sm_100a `.f32` forms.
    pub fn is_f32(self) -> bool {
        self.ty() == Type::F32
    }
}

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
}

impl UnOp {
    /// The PTX opcode.
    pub fn mnemonic(self) -> &'static str {
        match self {
            UnOp::Not => "not",
            UnOp::Neg => "neg",
            UnOp::Abs => "abs",
            UnOp::Popc => "popc",
        }
    }

    /// The type `d` is written as in `op.ty`: `.u32` for `popc` (a count,
    /// whatever the width), else the instruction type.
    pub fn d_type(self, ty: Type) -> Type {
        match self {
            UnOp::Popc => Type::U32,
            UnOp::Not | UnOp::Neg | UnOp::Abs => ty,
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

/// `shfl[.sync].mode.b32 d[|p], a, b, c[, membermask];`
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Shfl {
    /// Source-lane computation.
    pub mode: ShflMode,
    /// The copied value (32 bits).
    pub d: Dest,
    /// Optional range-test predicate; `None` when `|p` is absent.
    pub p: Option<Dest>,
    /// The value each lane offers.
    pub a: Operand,
    /// Source lane or lane offset (`b[4:0]` is used).
    pub b: Operand,
    /// Packed clamp `c[4:0]` and segment mask `c[12:8]`.
    pub c: Operand,
    /// The participating lanes; `None` for the deprecated non-`.sync`
    /// `shfl`, whose participants are the lanes that execute it.
    pub membermask: Option<Operand>,
}

/// `vote[.sync].mode.{pred,b32} d, {!}a[, membermask];`
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Vote {
    /// `.all`, `.any`, `.uni` (`.pred` result) or `.ballot` (`.b32`).
    pub mode: VoteMode,
    /// Destination (`.pred`, or 32 bits for ballot).
    pub d: Dest,
    /// The predicate voted on (`Operand::NotPred` for `!a`).
    pub a: Operand,
    /// The participating lanes; `None` for the deprecated non-`.sync`
    /// `vote`, whose participants are the lanes that execute it.
    pub membermask: Option<Operand>,
}

/// `match.{any,all}.sync.{b32,b64} d[|p], a, membermask;`
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Match {
    /// `.any` or `.all`.
    pub mode: MatchMode,
    /// `true` for `.b64` (operand `a` is 64 bits), `false` for `.b32`.
    pub wide: bool,
    /// The 32-bit lane mask result.
    pub d: Dest,
    /// `.all` only: whether all members matched.
    pub p: Option<Dest>,
    /// The value compared.
    pub a: Operand,
    /// The participating lanes.
    pub membermask: Operand,
}

impl Match {
    /// The instruction type: `.b64` when [`Match::wide`], else `.b32`.
    pub fn ty(&self) -> Type {
        if self.wide {
            Type::B64
        } else {
            Type::B32
        }
    }
}

/// `redux.sync.op.type d, a, membermask;`
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Redux {
    /// Operation and type.
    pub op: ReduxOp,
    /// 32-bit result, the same on every participant.
    pub d: Dest,
    /// 32-bit source.
    pub a: Operand,
    /// The participating lanes.
    pub membermask: Operand,
}

/// `activemask.b32 d;`
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Activemask {
    /// Receives the mask of lanes executing this instruction.
    pub d: Dest,
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

/// Control flow: where straight-line segments end. The interpreter and the
/// backends run it in their drivers, not in a family file, since it moves
/// lanes rather than computing values; it is one variant of [`Op`] so that
/// "is this control flow?" is one pattern.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Control {
    /// `bra LABEL;`: lanes that execute it continue at the label.
    Bra {
        /// Target label.
        target: LabelId,
    },
    /// `exit;`: lanes that execute it terminate.
    Exit,
}

/// One instruction of the body, by family: each family's interpreter,
/// JIT and PTX code receives its own type.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Op {
    /// `shfl.sync` and the deprecated `shfl`.
    Shfl(Shfl),
    /// `vote.sync` and the deprecated `vote`.
    Vote(Vote),
    /// `match.{any,all}.sync`.
    Match(Match),
    /// `redux.sync`.
    Redux(Redux),
    /// `activemask`.
    Activemask(Activemask),
    /// `mov`, the ALU operations, `setp`, `selp`.
    Glue(Glue),
    /// `bra` and `exit`.
    Control(Control),
    /// The thread-level instructions of PTX modules: memory, conversions,
    /// barriers, `ret` ... (see [`Thread`]).
    Thread(Thread),
}

impl Op {
    /// Whether the instruction changes control flow (`bra`, `exit`): where
    /// straight-line segments end.
    pub fn is_control_flow(&self) -> bool {
        match self {
            Op::Control(_) => true,
            Op::Thread(_)
            | Op::Shfl(_)
            | Op::Vote(_)
            | Op::Match(_)
            | Op::Redux(_)
            | Op::Activemask(_)
            | Op::Glue(_) => false,
        }
    }

    /// The qualifiers of a `.sync` collective as a number, or `None` for
    /// any other instruction. Two `.sync` instructions pair in one
    /// rendezvous when these are equal (the `.sync` pages: members wait
    /// for each other "with the same qualifiers and same `membermask`").
    pub fn rendezvous_key(&self) -> Option<u32> {
        let signed = |s: Signedness| match s {
            Signedness::Unsigned => 0,
            Signedness::Signed => 1,
        };
        match self {
            Op::Shfl(x) => x.membermask.map(|_| x.mode as u32),
            Op::Vote(x) => x.membermask.map(|_| 4 + x.mode as u32),
            Op::Match(x) => Some(8 + 2 * x.mode as u32 + x.wide as u32),
            Op::Redux(x) => Some(
                16 + match x.op {
                    ReduxOp::Add(s) => signed(s),
                    ReduxOp::Min(s) => 2 + signed(s),
                    ReduxOp::Max(s) => 4 + signed(s),
                    ReduxOp::And => 6,
                    ReduxOp::Or => 7,
                    ReduxOp::Xor => 8,
                    ReduxOp::FMin { abs, nan } => 9 + 2 * abs as u32 + nan as u32,
                    ReduxOp::FMax { abs, nan } => 13 + 2 * abs as u32 + nan as u32,
                },
            ),
            Op::Activemask(_) | Op::Glue(_) | Op::Control(_) | Op::Thread(_) => None,
        }
    }

    /// The `membermask` operand of a `.sync` collective (`None` for the
    /// deprecated `shfl`/`vote` and every other instruction).
    pub fn membermask(&self) -> Option<Operand> {
        match self {
            Op::Shfl(x) => x.membermask,
            Op::Vote(x) => x.membermask,
            Op::Match(x) => Some(x.membermask),
            Op::Redux(x) => Some(x.membermask),
            Op::Activemask(_) | Op::Glue(_) | Op::Control(_) | Op::Thread(_) => None,
        }
    }

    /// The label a `bra` jumps to.
    pub fn branch_target(&self) -> Option<LabelId> {
        match self {
            Op::Control(Control::Bra { target }) => Some(*target),
            Op::Control(Control::Exit)
            | Op::Thread(_)
            | Op::Shfl(_)
            | Op::Vote(_)
            | Op::Match(_)
            | Op::Redux(_)
            | Op::Activemask(_)
            | Op::Glue(_) => None,
        }
    }
}

/// An instruction with its optional guard and its source line.
///
/// Equality and hashing ignore `line`: where an instruction was written is
/// not part of what the program means, so a printed and re-parsed program
/// compares equal to the original.
#[derive(Clone, Debug)]
pub struct Inst {
    /// `@p` / `@!p`, if any.
    pub guard: Option<Guard>,
    /// The operation.
    pub op: Op,
    /// 1-based line in the source text (0 when built in memory).
    pub line: u32,
}

impl PartialEq for Inst {
    fn eq(&self, other: &Self) -> bool {
        self.guard == other.guard && self.op == other.op
    }
}

impl Eq for Inst {}

impl std::hash::Hash for Inst {
    fn hash<H: std::hash::Hasher>(&self, state: &mut H) {
        self.guard.hash(state);
        self.op.hash(state);
    }
}

/// A `.target sm_NN[a|f]` directive.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Target {
    /// The architecture number (`90` for `sm_90`).
    pub sm: u32,
    /// `a` (architecture-specific) or `f` (family) suffix, if any.
    pub suffix: Option<char>,
}

impl Default for Target {
    fn default() -> Self {
        Target {
            sm: 90,
            suffix: None,
        }
    }
}

impl fmt::Display for Target {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "sm_{}", self.sm)?;
        if let Some(c) = self.suffix {
            write!(f, "{c}")?;
        }
        Ok(())
    }
}

/// A `.version MAJOR.MINOR` directive.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Version {
    /// Major number.
    pub major: u32,
    /// Minor number.
    pub minor: u32,
}

impl Version {
    /// Builds a version.
    pub const fn new(major: u32, minor: u32) -> Self {
        Version { major, minor }
    }
}

impl Default for Version {
    fn default() -> Self {
        Version::new(9, 1)
    }
}

impl fmt::Display for Version {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}.{}", self.major, self.minor)
    }
}

/// A warp program.
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash)]
pub struct Program {
    /// `.version` (default 9.1).
    pub version: Version,
    /// `.target` (default `sm_90`).
    pub target: Target,
    /// Declared registers, in declaration order.
    pub regs: Vec<RegDecl>,
    /// The body.
    pub insts: Vec<Inst>,
    /// Labels, in the order they appear.
    pub labels: Vec<Label>,
}

impl Program {
    /// Looks a register up by name.
    pub fn reg(&self, name: &str) -> Option<Reg> {
        self.regs
            .iter()
            .position(|r| r.name == name)
            .map(|i| Reg(i as u32))
    }

    /// The declaration of a register.
    pub fn decl(&self, r: Reg) -> &RegDecl {
        &self.regs[r.index()]
    }

    /// The instruction index a label stands before.
    pub fn label_target(&self, l: LabelId) -> usize {
        self.labels[l.0 as usize].at
    }
}

/// Per-lane initial register values (`.lanes`): lanes not given are
/// undefined at the start.
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash)]
pub struct Inputs {
    /// `(register, value of each lane)`, in the order written.
    pub lanes: Vec<(Reg, [u64; WARP])>,
    /// `.fuel N`: the run is *bounded* to `N` warp steps, and running out
    /// is an outcome (the state where it stopped, and the instruction it
    /// stopped before: [`Outcome::stop`](crate::outcome::Outcome::stop)),
    /// compared between engines like any other. `None`: the engine's own
    /// fuel, and running out is an error.
    pub fuel: Option<u64>,
}

impl Inputs {
    /// The initial values of `r`, if given.
    pub fn get(&self, r: Reg) -> Option<&[u64; WARP]> {
        self.lanes.iter().find(|(x, _)| *x == r).map(|(_, v)| v)
    }
}

/// One lane of a register as far as it is known: its value on the bits
/// that are defined. `.expect` writes it as `_` (nothing defined), a plain
/// value (every bit of the register's type defined), or `VALUE:MASK` (only
/// the bits of `MASK` defined, e.g. `activemask` whose other lanes' bits
/// depend on scheduling).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Bits {
    /// The value; bits outside `defined` are 0.
    pub value: u64,
    /// The defined bits.
    pub defined: u64,
}

impl Bits {
    /// Nothing defined (`_`).
    pub const UNDEFINED: Bits = Bits {
        value: 0,
        defined: 0,
    };

    /// `value` on the bits of `defined` (the others cleared).
    pub fn new(value: u64, defined: u64) -> Bits {
        Bits {
            value: value & defined,
            defined,
        }
    }

    /// Every bit of a `ty` value defined.
    pub fn full(value: u64, ty: Type) -> Bits {
        Bits::new(value, ty.mask())
    }

    /// `Some(value)` as [`Bits::full`], `None` as [`Bits::UNDEFINED`].
    pub fn from_option(v: Option<u64>, ty: Type) -> Bits {
        v.map_or(Bits::UNDEFINED, |x| Bits::full(x, ty))
    }

    /// The value when every bit of a `ty` value is defined.
    pub fn as_full(self, ty: Type) -> Option<u64> {
        (self.defined & ty.mask() == ty.mask()).then_some(self.value)
    }

    /// Whether `other` agrees with this on every bit this defines and
    /// defines at least those bits.
    pub fn covers(self, other: Bits) -> bool {
        other.defined & self.defined == self.defined
            && (other.value ^ self.value) & self.defined == 0
    }
}

/// Expected final values (`.expect`), bit by bit where only some bits are
/// defined.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Expect {
    /// `(register, expected value of each lane)`, in the order written.
    pub regs: Vec<(Reg, [Bits; WARP])>,
    /// `.stop LINE`: the bounded run (`.fuel`) runs out of fuel before the
    /// instruction on that line.
    pub stop: Option<u32>,
}

/// A whole test case as a `.ptx` file holds it.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Case {
    /// The `//` comment lines before the first directive, without `//`.
    pub header: Vec<String>,
    /// The program.
    pub program: Program,
    /// Its inputs.
    pub inputs: Inputs,
    /// Expected results, if the file has any.
    pub expect: Expect,
}
