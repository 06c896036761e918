//! MJ (N27 of `docs/findings.md`; the triage of 2026-11-28-j, decided by
//! session 11's H200 call, `docs/log/gpu-2026-11-28-k/`): a `match.sync`
//! at a label that two lanes of its membermask reach by different paths,
//! one by a branch to the label and one by the fall-through into it. The
//! GPU runs it wrong from -O1, through the driver's JIT linker and
//! whole-program: a `match.all` of values that differ gives `%p` true (the
//! SASS has `PLOP3.LUT P0, PT, PT, PT, PT, 0x80, 0x0` for the predicate
//! and no `MATCH`), and a `match.any` whose membermask is a register
//! holding each lane's own bit gives both lanes' bits (its `MATCH.ANY` runs
//! after `WARPSYNC` over the converged lanes, not the membermask).
//!
//! The shape is read from the program text: a label that a forward branch
//! targets (not from the instruction just before it, which would make one
//! path) and that the instruction before it can fall into (it is no
//! unguarded `bra` or `exit`); in the straight-line code from the label
//! (up to the next label or control-flow instruction) either a
//! `match.all.sync` of a value that may differ per lane (a register or
//! `%laneid`, not an immediate) with a sub-warp membermask (an immediate
//! neither 0 nor the full warp, or a register), or a `match.any.sync`
//! whose membermask is a register written in that straight-line code by a
//! `match` of a per-lane value (a mask that may differ between the
//! lanes). On the H200 (session 11): `match.all` with the membermask
//! immediate or in a register, `.b32` of `%laneid`, after another
//! instruction, and its mask result wrong; `match.any` with an immediate
//! membermask right (also when its values are equal),
//! `vote.sync.ballot`/`.any`, `shfl.sync`, `redux.sync` at the same join
//! right. A branch no lane takes makes no second path: one guarded by
//! the `p` of `setp.eq p, %laneid, K` with `K` above 31 just before it (the
//! session 9 variant `match-join.one-path`, which agreed, has one).

use super::shape::{labelled, straight_writer};
use crate::ir::{CmpOp, Control, Glue, MatchMode, Op, Operand, Program};

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

/// Whether `a` may differ between lanes (a register or `%laneid`).
fn per_lane(a: Operand) -> bool {
    matches!(a, Operand::Reg(_) | Operand::LaneId)
}

/// Whether instruction `j` is a `match.sync` of MJ's shape: `match.all` of
/// a per-lane value with a sub-warp membermask (an immediate neither 0 nor
/// the full warp, or a register), or `match.any` with a membermask
/// register that a `match` of a per-lane value wrote in the straight-line
/// code before it.
fn match_of_shape(prog: &Program, j: usize) -> bool {
    let Op::Match(m) = prog.insts[j].op else {
        return false;
    };
    match m.mode {
        MatchMode::All => {
            let sub_warp = match m.membermask {
                Operand::Imm(k) => k as u32 != 0 && k as u32 != u32::MAX,
                Operand::Reg(_) => true,
                Operand::NotPred(_) | Operand::LaneId => false,
            };
            per_lane(m.a) && sub_warp
        }
        MatchMode::Any => {
            let Operand::Reg(r) = m.membermask else {
                return false;
            };
            straight_writer(prog, r, j)
                .is_some_and(|w| matches!(prog.insts[w].op, Op::Match(x) if per_lane(x.a)))
        }
    }
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
            if match_of_shape(prog, j) {
                return Some(j);
            }
            j += 1;
        }
    }
    None
}
