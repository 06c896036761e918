//! The warp-level instructions, one type per family: [`Shfl`], [`Vote`],
//! [`Match`], [`Redux`] and [`Activemask`], with their modes and
//! operations.

use super::regs::{Dest, Operand};
use super::types::Type;

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

impl Vote {
    /// The membermask when this is how `bar.warp.sync membermask;` is read
    /// (`vote.sync.any.pred _, 1, membermask`: the wait of a `.sync`
    /// collective with no result; the parser's `warp_sync` says why), so
    /// that printers and the GPU emitter write `bar.warp.sync` back, what
    /// the program said (a PTX compiler may treat the two differently).
    pub fn warp_sync_mask(&self) -> Option<Operand> {
        let wait = self.mode == VoteMode::Any && self.d == Dest::Sink && self.a == Operand::Imm(1);
        self.membermask.filter(|_| wait)
    }
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
