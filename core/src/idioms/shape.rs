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
