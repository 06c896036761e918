//! One instruction of a program: its operation by family ([`Op`]: the
//! warp instructions, the glue, control flow, the lane-level instructions
//! of PTX modules), with its guard and source line ([`Inst`]).

use super::glue::Glue;
use super::lane_ops::LaneOp;
use super::regs::{Guard, LabelId, Operand};
use super::warp_ops::{Activemask, Match, Redux, ReduxOp, Shfl, Signedness, Vote};

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
    /// barriers, `ret` ... (see [`LaneOp`]).
    LaneOp(LaneOp),
}

impl Op {
    /// Whether the instruction changes control flow (`bra`, `exit`): where
    /// straight-line segments end.
    pub fn is_control_flow(&self) -> bool {
        match self {
            Op::Control(_) => true,
            Op::LaneOp(_)
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
            Op::Activemask(_) | Op::Glue(_) | Op::Control(_) | Op::LaneOp(_) => None,
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
            Op::Activemask(_) | Op::Glue(_) | Op::Control(_) | Op::LaneOp(_) => None,
        }
    }

    /// The label a `bra` jumps to.
    pub fn branch_target(&self) -> Option<LabelId> {
        match self {
            Op::Control(Control::Bra { target }) => Some(*target),
            Op::Control(Control::Exit)
            | Op::LaneOp(_)
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
