//! Small facts about a program's shape that several detectors read: where
//! labels (join points) sit, its loops, a register's last straight-line
//! writer, a predicate copied into another register. A leaf of the
//! detectors' modules: it imports the IR alone.

use crate::ir::{BinOp, Dest, Glue, Inst, Op, Operand, Program, Reg, Type};

/// Whether a label sits at instruction `i` (it is a join point).
pub(super) fn labelled(prog: &Program, i: usize) -> bool {
    prog.labels.iter().any(|l| l.at == i)
}

/// The loops of `prog`: (head, back edge) of every backward branch.
pub(super) fn loops(prog: &Program) -> Vec<(usize, usize)> {
    prog.insts
        .iter()
        .enumerate()
        .filter_map(|(b, inst)| {
            let h = prog.labels[inst.op.branch_target()?.0 as usize].at;
            (h <= b).then_some((h, b))
        })
        .collect()
}

/// The last write of `r` before instruction `at`, when no label lies
/// between them (straight-line code).
pub(super) fn straight_writer(prog: &Program, r: Reg, at: usize) -> Option<usize> {
    let k = (0..at)
        .rev()
        .find(|&k| prog.insts[k].op.written().contains(&r))?;
    (!(k + 1..=at).any(|i| labelled(prog, i))).then_some(k)
}

/// `(d, a)` when `x` is an unguarded `and.pred d, a, a` or `or.pred d, a,
/// a` into another register: a copy of predicate `a` (N26's and N28's
/// copy).
pub(super) fn predicate_self_copy(x: &Inst) -> Option<(Reg, Reg)> {
    let Op::Glue(Glue::Bin {
        op: BinOp::And | BinOp::Or,
        ty: Type::Pred,
        d: Dest::Reg(d),
        a: Operand::Reg(a),
        b: Operand::Reg(b),
    }) = x.op
    else {
        return None;
    };
    (x.guard.is_none() && a == b && d != a).then_some((d, a))
}

/// Whether `x` is `mov d, d` (guarded or not): it leaves `d` as it was.
/// Since the triage of 2026-11-28-k (`docs/log/gpu-2026-11-28-k/triage.md`,
/// group K5L): K5's unused vote read only by `mov.pred %p0, %p0` in a
/// one-trip loop, then overwritten by the full-mask `match.all`
/// (`k5l.found` wrong on the H200 at -O3, as without the copy; the copy
/// into a fresh stored `%p1`, right).
pub(super) fn copy_into_itself(x: &crate::ir::Inst, d: Reg) -> bool {
    matches!(x.op, Op::Glue(Glue::Mov { d: Dest::Reg(r), a: Operand::Reg(a), .. }) if r == d && a == d)
}

/// The membermask `m` of instruction `at` as the compiler sees it: a
/// register whose last write before `at`, with no label between (no other
/// path joins), is an unguarded `mov` of an immediate is that immediate
/// (2026-11-27-h: `mov.b32 %m0, 0xffffffff; match.all.sync.b32 %r1, 0,
/// %m0`, `found-O2/match.all.sync.b32-767a1584`).
pub(super) fn mask_value(prog: &Program, at: usize, m: Operand) -> Operand {
    let Operand::Reg(r) = m else {
        return m;
    };
    let Some(k) = (0..at)
        .rev()
        .find(|&k| prog.insts[k].op.written().contains(&r))
    else {
        return m;
    };
    let joined = (k + 1..=at).any(|j| labelled(prog, j));
    let x = &prog.insts[k];
    if let Op::Glue(Glue::Mov {
        a: a @ Operand::Imm(_),
        ..
    }) = &x.op
    {
        if x.guard.is_none() && !joined {
            return *a;
        }
    }
    m
}

/// Whether `op` is a lane op the PTX compilers implement with a routine of
/// their own ([`crate::interp::converge::calls_math_routine`]).
pub(super) fn calls_math_subroutine(op: &Op) -> bool {
    match op {
        Op::LaneOp(lane) => crate::interp::converge::calls_math_routine(lane),
        Op::Shfl(_)
        | Op::Vote(_)
        | Op::Match(_)
        | Op::Redux(_)
        | Op::Activemask(_)
        | Op::Glue(_)
        | Op::Control(_) => false,
    }
}
