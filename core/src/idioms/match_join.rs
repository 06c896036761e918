//! MJ (a candidate of the triage of 2026-11-28-j): a `match.sync` at a
//! label that two lanes of its membermask reach by different paths, one by
//! a branch to the label and one by the fall-through into it. The GPU runs
//! it wrong from -O1 through the driver's JIT linker: the `match.all` as if
//! each lane were alone (`%p` true where the two values differ), and in the
//! second case a later `match.any` with each lane's own bit as its mask as
//! if both lanes were its members.
//!
//! The shape is read from the program text: a label that a forward branch
//! targets (not from the instruction just before it, which would make one
//! path) and that the instruction before it can fall into (it is no
//! unguarded `bra` or `exit`); in the straight-line code from the label
//! (up to the next label or control-flow instruction) a `match.sync` of a
//! value that may differ per lane (a register or `%laneid`, not an
//! immediate) with an immediate sub-warp membermask (neither 0 nor the
//! full warp). A branch no lane takes makes no second path: one guarded by
//! the `p` of `setp.eq p, %laneid, K` with `K` above 31 just before it (the
//! session 9 variant `match-join.one-path`, which agreed, has one).

use super::{labelled, straight_writer};
use crate::ir::{CmpOp, Control, Glue, Op, Operand, Program};

/// Whether no lane takes the branch at `k`: `@p bra` where `p`'s last
/// write, in the straight-line code before it, is `setp.eq p, %laneid, K`
/// (unguarded, no `.bool` combination, either operand order) with `K` no
/// lane index.
fn never_taken(prog: &Program, k: usize) -> bool {
    let Some(g) = prog.insts[k].guard else {
        return false;
    };
    let Some(w) = straight_writer(prog, g.reg, k) else {
        return false;
    };
    let x = &prog.insts[w];
    let Op::Glue(Glue::Setp {
        cmp: CmpOp::Eq,
        combine: None,
        ty,
        q: None,
        a,
        b,
        ..
    }) = x.op
    else {
        return false;
    };
    let past_last_lane = matches!(
        (a, b),
        (Operand::LaneId, Operand::Imm(c)) | (Operand::Imm(c), Operand::LaneId) if c >= 32
    );
    x.guard.is_none() && !g.negated && !ty.is_float() && past_last_lane
}

/// Whether instruction `t - 1` may run on into `t` (it is no unguarded
/// `bra` or `exit`).
fn falls_into(prog: &Program, t: usize) -> bool {
    let x = &prog.insts[t - 1];
    match x.op {
        Op::Control(Control::Bra { .. } | Control::Exit) => x.guard.is_some(),
        Op::Shfl(_)
        | Op::Vote(_)
        | Op::Match(_)
        | Op::Redux(_)
        | Op::Activemask(_)
        | Op::Glue(_)
        | Op::LaneOp(_) => true,
    }
}

/// Whether the label at instruction `t` is the target of a forward branch
/// that is not instruction `t - 1` and that some lane may take (a second
/// path into it).
fn branched_to(prog: &Program, t: usize) -> bool {
    (0..t.saturating_sub(1)).any(|k| {
        let to_t = prog.insts[k]
            .op
            .branch_target()
            .is_some_and(|l| prog.labels[l.0 as usize].at == t);
        to_t && !never_taken(prog, k)
    })
}

/// Whether `op` is a `match.sync` of a per-lane value with an immediate
/// sub-warp membermask.
fn sub_warp_match_of_lane_value(op: &Op) -> bool {
    let Op::Match(m) = op else {
        return false;
    };
    let value = matches!(m.a, Operand::Reg(_) | Operand::LaneId);
    let sub_warp = matches!(m.membermask, Operand::Imm(k) if k as u32 != 0 && k as u32 != u32::MAX);
    value && sub_warp
}

/// The first `match.sync` of MJ's shape: the index of the `match`.
pub(super) fn match_at_join_of_two_paths(prog: &Program) -> Option<usize> {
    let n = prog.insts.len();
    for t in 1..n {
        if !labelled(prog, t) || !falls_into(prog, t) || !branched_to(prog, t) {
            continue;
        }
        let mut j = t;
        while j < n && (j == t || !labelled(prog, j)) && !prog.insts[j].op.is_control_flow() {
            if sub_warp_match_of_lane_value(&prog.insts[j].op) {
                return Some(j);
            }
            j += 1;
        }
    }
    None
}
