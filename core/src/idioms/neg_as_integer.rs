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
//! What the shape needs (call a of session 13, through the driver's JIT
//! linker at -O1 and -O3, right at -O0): both guarded writes, the immediate
//! first and the lane id second (without either, in the other order, or
//! with an immediate for `%laneid`: right); the guards may be `@p` or `@!p`;
//! `mov.f32` or `add.f32` in place of the `neg`: right; `neg.f64` and
//! `neg.s32` in the same shape: right.

use crate::ir::{Dest, FloatOp, Glue, Guard, Inst, LaneOp, LaneOpKind, Op, Operand, Program, Reg};
use crate::ir::{Type, UnOp};

/// The destination of `x` when it is an `.f32` `neg` or `abs` of a
/// register (the glue's `.rn` form or the arithmetic one with a
/// modifier).
fn neg_or_abs_f32_dest(x: &Inst) -> Option<Reg> {
    match &x.op {
        Op::Glue(Glue::Un {
            op: UnOp::Neg | UnOp::Abs,
            ty: Type::F32,
            d: Dest::Reg(d),
            a: Operand::Reg(_),
        }) => Some(*d),
        Op::LaneOp(LaneOp {
            kind:
                LaneOpKind::Float {
                    op: FloatOp::Neg | FloatOp::Abs,
                    ..
                },
            dests,
            srcs,
            ..
        }) => match (dests.first(), srcs.first()) {
            (Some((Dest::Reg(d), Type::F32)), Some((Operand::Reg(_), _))) => Some(*d),
            _ => None,
        },
        _ => None,
    }
}

/// The guard of `x` when it is a guarded `mov` of a 32-bit type into `d`
/// whose source is `src` (`Some(true)`: an immediate; `Some(false)`:
/// `%laneid`).
fn guarded_mov_into(x: &Inst, d: Reg, immediate: bool) -> Option<Guard> {
    let Op::Glue(Glue::Mov {
        ty: Type::F32 | Type::B32,
        d: Dest::Reg(w),
        a,
    }) = &x.op
    else {
        return None;
    };
    let source_fits = match a {
        Operand::Imm(_) => immediate,
        Operand::LaneId => !immediate,
        Operand::Reg(_) | Operand::NotPred(_) => false,
    };
    (*w == d && source_fits).then_some(x.guard?)
}

/// The `neg`/`abs` of the shape: an `.f32` `neg` or `abs` into `d`, whose
/// next two instructions are `@p mov d, IMM` and `@p mov.b32 d, %laneid`
/// (the same guard, either polarity). Its index.
pub(super) fn neg_f32_before_guarded_imm_and_laneid(prog: &Program) -> Option<usize> {
    (0..prog.insts.len()).find(|&i| {
        let Some(d) = neg_or_abs_f32_dest(&prog.insts[i]) else {
            return false;
        };
        let (Some(a), Some(b)) = (prog.insts.get(i + 1), prog.insts.get(i + 2)) else {
            return false;
        };
        let labels = super::shape::labelled(prog, i + 1) || super::shape::labelled(prog, i + 2);
        !labels
            && guarded_mov_into(a, d, true)
                .zip(guarded_mov_into(b, d, false))
                .is_some_and(|(g, h)| g == h)
    })
}
