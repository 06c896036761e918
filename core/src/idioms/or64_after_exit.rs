//! OR64 (N29 of `docs/findings.md`; the triage of 2026-11-28-j, decided
//! by session 11's H200 call, `docs/log/gpu-2026-11-28-k/`): after `@p
//! exit`, a loop whose body runs `@!p or.b64 d, 0xffffffff, d` (a guard
//! the exit makes true on every lane left): the GPU gives `d` = 0xffffffff,
//! the upper word lost, from -O2 through the driver's JIT linker and at -O3
//! whole-program (right at -O1). The SASS (`ptxas -O3 -c`): the loop writes
//! only the word the immediate sets (`UMOV UR6, 0xffffffff; MOV R6, UR6`)
//! and the other word of the pair (`R7`) is reused for a temporary of the
//! exit path (`SEL R7, RZ, 0x1, !P0`) before `STG.E.64 ... R6` stores the
//! pair. `and.b64` with 0xffffffff (the low word lost, read as 0) and
//! `or.b64` with 0xffffffff00000000 (the low word lost) go wrong the same
//! way; `xor`, the immediates 0xffff and 0x1ffffffff, no loop, nothing between the
//! `exit` and the loop (no `shr`), another destination, a branch for the `exit` right.
//!
//! The shape is read from the program text: a `.b64` `or` of an immediate
//! with one word all ones and the other 0, or a `.b64` `and` of 0xffffffff
//! (either operand), with a register that is also its destination, inside
//! a loop (between a label and a backward branch to it), guarded by the
//! negation of the guard of an `exit` before the loop, with no label
//! between the `exit` and the loop's head and nothing from the `exit` to
//! the loop's back edge writing the guard, and at least one instruction
//! between the `exit` and the loop's head. It does not see the register
//! allocation: `o11-no-regs` (the case without its unused `.b32`
//! registers) agreed on the H200 and has the shape.

use super::shape::{labelled, loops};
use crate::ir::{BinOp, Control, Dest, Glue, Op, Operand, Program, Type};

/// The low word all ones, the high word 0: `0xffffffff` as a `.b64`
/// immediate.
const LOW_WORD_ONES: u64 = 0xffff_ffff;

/// The high word all ones, the low word 0.
const HIGH_WORD_ONES: u64 = 0xffff_ffff_0000_0000;

/// Whether instruction `i` is `or.b64 d, K, d` with `K` one word all ones
/// and the other 0, or `and.b64 d, 0xffffffff, d` (either operand order):
/// the forms that went wrong on the H200 (`o0-found`, `o5-low-ones-high`,
/// `o3-and`); `xor`, `0xffff`, `0x1ffffffff` right there.
fn or64_low_word_ones_into_itself(prog: &Program, i: usize) -> bool {
    let Op::Glue(Glue::Bin {
        op,
        ty: Type::B64,
        d: Dest::Reg(d),
        a,
        b,
    }) = prog.insts[i].op
    else {
        return false;
    };
    let (k, r) = match (a, b) {
        (Operand::Imm(k), Operand::Reg(r)) | (Operand::Reg(r), Operand::Imm(k)) => (k, r),
        _ => return false,
    };
    let word_mask = (matches!(op, BinOp::Or) && (k == LOW_WORD_ONES || k == HIGH_WORD_ONES))
        || (matches!(op, BinOp::And) && k == LOW_WORD_ONES);
    word_mask && r == d
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
            // An instruction between the exit and the loop (`o7-no-shr`,
            // without the `shr.u32` there, agreed on the H200).
            let joined = e + 1 >= h || (e + 1..h).any(|k| labelled(prog, k));
            let rewritten = (e + 1..=b).any(|k| prog.insts[k].op.written().contains(&g.reg));
            if !joined && !rewritten {
                return Some(i);
            }
        }
    }
    None
}
