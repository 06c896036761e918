//! N26X (N28 of `docs/findings.md`; the triage of 2026-11-28-j, decided by
//! session 11's H200 call, `docs/log/gpu-2026-11-28-k/`): after a forward
//! branch that the lanes fall past, `or.pred d, a, a` (or `and.pred`), `a`
//! rewritten by `mov.pred a, imm`, then `@d exit`: the exiting lanes lose
//! the store of a register the kernel never wrote (an input stored as 0)
//! from -O1, through the driver's JIT linker and whole-program. Not N26's
//! rule: the SASS (`ptxas -O3 -c`) computes the exit's guard `P0` from
//! `%p0`'s input (`ISETP.NE.U32.AND P0, PT, R0, RZ, PT`, the copy kept)
//! and guards the other stores and the `EXIT` with it, but the store of
//! the input register `%b0` (`STG.E desc[UR4][R2.64], R7`) is only after
//! the `BSYNC`, on the path of the lanes that do not exit.
//!
//! The shape is read from the program text: a guarded forward `bra` before
//! the copy, with no label between them, to a label after the `exit`; the
//! copy unguarded, `d` not `a`; in the straight-line code after it (no
//! label, no control flow) `a` rewritten by an unguarded `mov` of an
//! immediate with `d` untouched; that code ending in `@d exit` (the copy's
//! value, not its negation). On the H200 (session 11): no leading branch,
//! `setp` for the `mov.pred` rewrite, a branch for the `exit` right (the
//! last is N26's shape: [`super::Idiom::PredicateCopyLostAfterMathCall`]).

use super::shape::{labelled, predicate_self_copy};
use crate::ir::{Control, Dest, Glue, Op, Operand, Program, Reg};

/// Whether instruction `k` is an unguarded `mov` of an immediate into `a`.
fn mov_imm_into(prog: &Program, k: usize, a: Reg) -> bool {
    let x = &prog.insts[k];
    x.guard.is_none()
        && matches!(x.op, Op::Glue(Glue::Mov { d: Dest::Reg(d), a: Operand::Imm(_), .. }) if d == a)
}

/// Whether a guarded forward `bra` lies before instruction `i` with no
/// label between them, to a label after instruction `k`.
fn branched_over(prog: &Program, i: usize, k: usize) -> bool {
    let mut j = i;
    while j > 0 && !labelled(prog, j) {
        j -= 1;
        let x = &prog.insts[j];
        let past_k =
            x.op.branch_target()
                .is_some_and(|l| prog.labels[l.0 as usize].at > k);
        if x.guard.is_some() && past_k {
            return true;
        }
    }
    false
}

/// The first copy of N26X's shape: its index.
pub(super) fn predicate_copy_guards_exit(prog: &Program) -> Option<usize> {
    let n = prog.insts.len();
    for (i, x) in prog.insts.iter().enumerate() {
        let Some((d, a)) = predicate_self_copy(x) else {
            continue;
        };
        let mut rewritten = false;
        let mut k = i + 1;
        while k < n && !labelled(prog, k) && !prog.insts[k].op.is_control_flow() {
            let w = prog.insts[k].op.written();
            if w.contains(&d) {
                break;
            }
            rewritten |= mov_imm_into(prog, k, a);
            k += 1;
        }
        if !rewritten || k >= n || labelled(prog, k) {
            continue;
        }
        let y = &prog.insts[k];
        let exits_on_copy = matches!(y.op, Op::Control(Control::Exit))
            && y.guard.is_some_and(|g| g.reg == d && !g.negated);
        if exits_on_copy && branched_over(prog, i, k) {
            return Some(i);
        }
    }
    None
}
