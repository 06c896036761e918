//! OR64 (a candidate of the triage of 2026-11-28-j): after `@p exit`, a
//! loop whose body runs `@!p or.b64 d, 0xffffffff, d` (a guard the exit
//! makes true on every lane left): the GPU gives `d` = 0xffffffff, the
//! upper word lost, at -O3 through the driver's JIT linker (right at -O1);
//! without the `exit`, or with the `or` unguarded, right at every level.
//!
//! The shape is read from the program text: a `.b64` `or` of an immediate
//! whose low word is all ones and whose high word is 0 (either operand)
//! with a register that is also its destination, inside a loop (between a
//! label and a backward branch to it), guarded by the negation of the
//! guard of an `exit` before the loop, with no label between the `exit`
//! and the loop's head and nothing from the `exit` to the loop's back edge
//! writing the guard.

use super::{labelled, loops};
use crate::ir::{BinOp, Control, Dest, Glue, Op, Operand, Program, Type};

/// The low word all ones, the high word 0: `0xffffffff` as a `.b64`
/// immediate.
const LOW_WORD_ONES: u64 = 0xffff_ffff;

/// Whether instruction `i` is `or.b64 d, 0xffffffff, d` (either operand
/// order).
fn or64_low_word_ones_into_itself(prog: &Program, i: usize) -> bool {
    let Op::Glue(Glue::Bin {
        op: BinOp::Or,
        ty: Type::B64,
        d: Dest::Reg(d),
        a,
        b,
    }) = prog.insts[i].op
    else {
        return false;
    };
    matches!(
        (a, b),
        (Operand::Imm(LOW_WORD_ONES), Operand::Reg(r)) | (Operand::Reg(r), Operand::Imm(LOW_WORD_ONES)) if r == d
    )
}

/// The first `or.b64` of OR64's shape: its index.
pub(super) fn or64_low_word_ones_in_loop_after_exit(prog: &Program) -> Option<usize> {
    for (h, b) in loops(prog) {
        for i in h..b {
            let Some(g) = prog.insts[i].guard else {
                continue;
            };
            if !or64_low_word_ones_into_itself(prog, i) {
                continue;
            }
            // The exit before the loop, no label between it and the head.
            let exit = (0..h).rev().find(|&e| {
                let x = &prog.insts[e];
                matches!(x.op, Op::Control(Control::Exit))
                    && x.guard
                        .is_some_and(|q| q.reg == g.reg && q.negated != g.negated)
            });
            let Some(e) = exit else {
                continue;
            };
            let joined = (e + 1..h).any(|k| labelled(prog, k));
            let rewritten = (e + 1..=b).any(|k| prog.insts[k].op.written().contains(&g.reg));
            if !joined && !rewritten {
                return Some(i);
            }
        }
    }
    None
}
