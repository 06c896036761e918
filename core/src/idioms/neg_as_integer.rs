//! NZ (N33 of `docs/findings.md`; session 12's -O1 hunt, `neg.f32-8ef1e843`,
//! decided by session 13's H200 variants, `docs/log/gpu-2026-11-28-m/nz/`):
//! `neg.f32 d, a` (or `abs.f32`), then `@p mov.f32 d, IMM` and `@p mov.b32
//! d, %laneid` under the same guard, neither run: the compiler computes the
//! `neg` as an integer negation of the bits (`@!P0 IADD3 R11, -R7, RZ, RZ`
//! at -O1 to -O3, where -O0 has `FADD R5, -RZ, -R4`). The PTX ISA (`neg`,
//! floating-point instructions): "Negate the sign of a and store the result
//! in d"; for +0.0 that is -0.0, for 1.0 it is -1.0. The H200 gives +0.0,
//! -4.0 (0xc0800000 = -0x3f800000 as an integer), -8.0 for 0.5 and -1.5
//! for 3.0; `abs.f32` of -1.0 gives 4.0 (0x40800000, the integer absolute
//! value of 0xbf800000); 2.0 happens to come out right (0xc0000000 is both).
//!
//! What the shape needs (calls a and b of session 13, through the driver's
//! JIT linker at -O1 and -O3, right at -O0): an unguarded `neg.f32` or
//! `abs.f32` without `.ftz` (`neg.ftz.f32`, or the `neg` under a guard that
//! holds: right); then, later in the block, `@p mov.f32 d, IMM` (a `mov.f32`
//! of a register, or a `mov.b32` of an immediate: right) and `@p mov.b32 d,
//! R` with `R` not an immediate (`%laneid` or a register; an immediate:
//! right) under the same guard (`@p`/`@!p` alike; under another predicate:
//! right), in that order (swapped: right); an instruction between that does
//! not touch `d` is no matter. `mov.f32` or `add.f32` in place of the `neg`:
//! right; `neg.f64` and `neg.s32` in the same shape: right.

use super::shape::labelled;
use crate::ir::{Dest, Glue, Guard, Inst, Op, Operand, Program, Reg, Type, UnOp};

/// The destination of `x` when it is an unguarded `.f32` `neg` or `abs`
/// of a register in its plain form (no `.ftz`).
fn neg_or_abs_f32_dest(x: &Inst) -> Option<Reg> {
    let Op::Glue(Glue::Un {
        op: UnOp::Neg | UnOp::Abs,
        ty: Type::F32,
        d: Dest::Reg(d),
        a: Operand::Reg(_),
    }) = &x.op
    else {
        return None;
    };
    x.guard.is_none().then_some(*d)
}

/// The guard of `x` when it is a guarded `mov` into `d` of the shape's
/// first write (`first`: `mov.f32 d, IMM`) or second (`mov.b32 d, R`, `R`
/// a register or `%laneid`).
fn guarded_mov_into(x: &Inst, d: Reg, first: bool) -> Option<Guard> {
    let Op::Glue(Glue::Mov {
        ty,
        d: Dest::Reg(w),
        a,
    }) = &x.op
    else {
        return None;
    };
    let fits = match a {
        Operand::Imm(_) => first && *ty == Type::F32,
        Operand::LaneId | Operand::Reg(_) => !first && *ty == Type::B32,
        Operand::NotPred(_) => false,
    };
    (*w == d && fits).then_some(x.guard?)
}

/// The `neg`/`abs` of the shape: an `.f32` `neg` or `abs` into `d`, and
/// after it in the same block (no label, no control flow, `d` not read)
/// the next two writes of `d` are `@p mov.f32 d, IMM` and `@p mov.b32 d,
/// R` under the same guard. Its index.
pub(super) fn neg_f32_before_guarded_imm_and_laneid(prog: &Program) -> Option<usize> {
    let n = prog.insts.len();
    (0..n).find(|&i| {
        let Some(d) = neg_or_abs_f32_dest(&prog.insts[i]) else {
            return false;
        };
        let mut writes = Vec::new();
        for k in i + 1..n {
            let x = &prog.insts[k];
            if labelled(prog, k) || x.op.is_control_flow() || x.op.source_regs().contains(&d) {
                break;
            }
            if x.op.written().contains(&d) {
                writes.push(k);
                if writes.len() == 2 {
                    break;
                }
            }
        }
        let [a, b] = writes[..] else {
            return false;
        };
        guarded_mov_into(&prog.insts[a], d, true)
            .zip(guarded_mov_into(&prog.insts[b], d, false))
            .is_some_and(|(g, h)| g == h)
    })
}
