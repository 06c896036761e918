//! N26X (a candidate of the triage of 2026-11-28-j): N26's predicate copy
//! (`and.pred d, a, a` or `or.pred d, a, a`, its source `a` rewritten
//! after it) read by `@d exit`, with no math call: the GPU loses what the
//! exiting lanes hold (an input register stored as 0) from -O1 through the
//! driver's JIT linker; `mov.pred` for the copy, or no rewrite of `a`,
//! right at every level.
//!
//! The shape is read from the program text: the copy unguarded, `d` not
//! `a`; in the straight-line code after it (no label, no control flow) `a`
//! rewritten by an unguarded instruction with `d` untouched; that code
//! ending in `@d exit` (the copy's value, not its negation). N26's detector
//! ([`super::Idiom::PredicateCopyLostAfterMathCall`]) wants a math call
//! before the copy and a forward branch on it; this one takes the `exit`.

use super::labelled;
use crate::ir::{BinOp, Control, Dest, Glue, Op, Operand, Program, Type};

/// The first copy of N26X's shape: its index.
pub(super) fn predicate_copy_guards_exit(prog: &Program) -> Option<usize> {
    let n = prog.insts.len();
    for (i, x) in prog.insts.iter().enumerate() {
        let Op::Glue(Glue::Bin {
            op: BinOp::And | BinOp::Or,
            ty: Type::Pred,
            d: Dest::Reg(d),
            a: Operand::Reg(a),
            b: Operand::Reg(b),
        }) = x.op
        else {
            continue;
        };
        if x.guard.is_some() || a != b || d == a {
            continue;
        }
        let mut rewritten = false;
        let mut k = i + 1;
        while k < n && !labelled(prog, k) && !prog.insts[k].op.is_control_flow() {
            let w = prog.insts[k].op.written();
            if w.contains(&d) {
                break;
            }
            rewritten |= prog.insts[k].guard.is_none() && w.contains(&a);
            k += 1;
        }
        if !rewritten || k >= n || labelled(prog, k) {
            continue;
        }
        let y = &prog.insts[k];
        let exits_on_copy = matches!(y.op, Op::Control(Control::Exit))
            && y.guard.is_some_and(|g| g.reg == d && !g.negated);
        if exits_on_copy {
            return Some(i);
        }
    }
    None
}
