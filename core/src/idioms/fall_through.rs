//! Values a branch fixes: after `setp.ne p, r, K; @p bra L` every lane
//! whose `r` differs from `K` has gone to `L`, so the instructions after the
//! branch that only its fall-through reaches run where `r == K`. Two known
//! bugs (N19 and N20 of docs/findings.md) are the compiler using that
//! equality wrongly; their detectors look for their operation among those
//! instructions.
//!
//! The shape is read from the program text: the `setp` unguarded, integer,
//! `ne` against an immediate; nothing between it and the branch writing `p`
//! or `r`, and no label there (no other path joins); the branch `@p` (not
//! `@!p`) and forward. The fall-through's instructions run from the one
//! after the branch up to the first label (where other paths join) or
//! control-flow instruction, and the one that rewrites `r` is the last of
//! them (it still reads `r == K`).

use crate::ir::{CmpOp, Dest, Glue, Op, Operand, Program};

/// A value a branch fixes on its fall-through.
pub(super) struct Fixed {
    /// The compared operand: a register or `%laneid`.
    pub(super) what: Operand,
    /// Its value on the fall-through: the `setp`'s immediate `K`, to the
    /// compare's width.
    pub(super) value: u64,
    /// The compare's width in bits.
    pub(super) bits: u32,
    /// The instructions that only the fall-through reaches, where `what`
    /// still holds `value` when they read it.
    pub(super) reach: std::ops::Range<usize>,
}

/// Whether a label sits at instruction `i` (other paths join there).
fn labelled(prog: &Program, i: usize) -> bool {
    prog.labels.iter().any(|l| l.at == i)
}

/// Whether instruction `i` writes the register `what` is (never for
/// `%laneid`).
fn writes(prog: &Program, i: usize, what: Operand) -> bool {
    match what {
        Operand::Reg(r) => prog.insts[i].op.written().contains(&r),
        Operand::NotPred(_) | Operand::Imm(_) | Operand::LaneId => false,
    }
}

/// Every `setp.ne p, r, K; @p bra L` of `prog` with what its fall-through
/// alone reaches.
pub(super) fn fixed_on_fall_through(prog: &Program) -> Vec<Fixed> {
    let n = prog.insts.len();
    let mut found = Vec::new();
    for (s, x) in prog.insts.iter().enumerate() {
        let Op::Glue(Glue::Setp {
            cmp: CmpOp::Ne,
            combine: None,
            ty,
            p: Dest::Reg(p),
            a,
            b,
            ..
        }) = x.op
        else {
            continue;
        };
        if x.guard.is_some() || ty.is_float() || ty.bits() < 8 {
            continue;
        }
        let (what, k) = match (a, b) {
            (w @ (Operand::Reg(_) | Operand::LaneId), Operand::Imm(k))
            | (Operand::Imm(k), w @ (Operand::Reg(_) | Operand::LaneId)) => (w, k),
            _ => continue,
        };
        // Up to the branch: no label, no control flow, `p` and `r` kept.
        let mut k_at = s + 1;
        while k_at < n
            && !labelled(prog, k_at)
            && !prog.insts[k_at].op.is_control_flow()
            && !prog.insts[k_at].op.written().contains(&p)
            && !writes(prog, k_at, what)
        {
            k_at += 1;
        }
        if k_at >= n || labelled(prog, k_at) {
            continue;
        }
        let bra = &prog.insts[k_at];
        let Some(target) = bra.op.branch_target() else {
            continue;
        };
        if bra.guard.is_none_or(|g| g.reg != p || g.negated) {
            continue;
        }
        let t = prog.label_target(target);
        if t <= k_at + 1 {
            continue;
        }
        let from = k_at + 1;
        let mut to = from;
        while to < t.min(n) && !labelled(prog, to) && !prog.insts[to].op.is_control_flow() {
            to += 1;
            if writes(prog, to - 1, what) {
                break;
            }
        }
        if to > from {
            found.push(Fixed {
                what,
                value: k & ty.mask(),
                bits: ty.bits(),
                reach: from..to,
            });
        }
    }
    found
}
