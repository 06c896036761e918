//! DV (N35 of `docs/findings.md`; session 13's default-level hunt,
//! `docs/log/gpu-2026-11-28-m/d/found/neg.f32-dc2b107c` and
//! `neg.f32-928d0310`, decided by the H200's variants in
//! `docs/log/gpu-2026-11-28-m/dv/`): a never-run guarded `activemask`
//! writes a register, an `.f32` `neg` (or `abs`) of it writes `d`, and `d`
//! is the divisor of a `div.rp.f32`:
//!
//! ```text
//! @%p0 activemask.b32 %b0;              // %p0 0: does not run
//! neg.f32 %f0, %b0;                     // %b0 = 1: %f0 = 0x80000001
//! div.rp.f32 _, 0f00000001, %f0;
//! ```
//!
//! Through the driver's JIT linker (the relocatable compile) from -O2 `%f0`
//! reads back 0 (for 0x80000001) or 0x470501b0 (for 0xcd072c5e): the
//! caller keeps `d` in the register it passes the divisor in
//! (`FADD R5, -R19, -RZ`), calls the division's subroutine
//! (`CALL.ABS.NOINC`), which scales that register in place, and stores it
//! after the call (`STG.E [R16.64+0x100], R5`). The whole-program compile
//! is right at every level. The PTX ISA (`div`): `d = a / b` writes `d`
//! alone; no source is changed.
//!
//! What it needs (the H200 through the linker at -O0 to -O3, right at -O0
//! and -O1): wrong with the `div`'s result kept or discarded, with `abs`
//! for `neg`, with a normal value; right without the guarded `activemask`,
//! without the `div`, with `div.rn`, with `mov.b32` for the `neg`, with the
//! divisor an input (no `neg`).

use super::shape::straight_writer;
use crate::ir::{Dest, FloatOp, Glue, LaneOp, LaneOpKind, Op, Operand, Program, Reg, Rounding};
use crate::ir::{Type, UnOp};

/// `(d, a)` when `x` is an `.f32` `neg` or `abs` of register `a` into `d`
/// (the glue's form, no `.ftz`).
fn neg_or_abs(x: &Op) -> Option<(Reg, Reg)> {
    let Op::Glue(Glue::Un {
        op: UnOp::Neg | UnOp::Abs,
        ty: Type::F32,
        d: Dest::Reg(d),
        a: Operand::Reg(a),
    }) = x
    else {
        return None;
    };
    Some((*d, *a))
}

/// The divisor of `x` when it is a `div.rp.f32` with a register divisor.
fn rp_divisor(x: &Op) -> Option<Reg> {
    let Op::LaneOp(LaneOp {
        kind:
            LaneOpKind::Float {
                op: FloatOp::Div,
                rnd: Rounding::Rp,
                ..
            },
        dests,
        srcs,
        ..
    }) = x
    else {
        return None;
    };
    let f32 = dests.first().is_some_and(|(_, t)| *t == Type::F32);
    match srcs.get(1) {
        Some((Operand::Reg(b), _)) if f32 => Some(*b),
        _ => None,
    }
}

/// The `div.rp.f32` of the shape: its divisor `d` written, with no label
/// between, by a `neg`/`abs` of a register whose writer (no label between)
/// is a guarded `activemask`. Its index.
pub(super) fn div_rp_of_neg_of_guarded_activemask(prog: &Program) -> Option<usize> {
    (0..prog.insts.len()).find(|&k| {
        let Some(d) = rp_divisor(&prog.insts[k].op) else {
            return false;
        };
        let Some(n) = straight_writer(prog, d, k) else {
            return false;
        };
        let Some((_, a)) = neg_or_abs(&prog.insts[n].op).filter(|(w, _)| *w == d) else {
            return false;
        };
        straight_writer(prog, a, n).is_some_and(|w| {
            let x = &prog.insts[w];
            x.guard.is_some() && matches!(x.op, Op::Activemask(_))
        })
    })
}
