//! The lane ops of PTX modules that compilers put on every path of a
//! kernel, four 32-bit lanes (or two 64-bit ones) at a time (issue #36),
//! where `lane_ops.rs` runs a loop over the 32 lanes: special registers,
//! `cvta`, `mul.wide`, `mad.lo`/`mad.wide`, integer `neg`/`abs` and
//! conversions between 32- and 64-bit integers, and the `.rn` f32
//! arithmetic that is not glue (`fma.rn.f32`, `div.rn.f32`,
//! `sqrt.rn.f32`). The values are those of `lane_ops.rs`'s scalar
//! lowering (which stays the reference for everything else); an f32
//! result that is NaN, whose bits the IEEE operation does not fix, comes
//! from warp-core's scalar semantics instead, through the run time, for
//! the four lanes it is in.

use super::builder::{Emitter, Lanes};
use super::runtime;
use super::uniform::same_on_every_lane;
use cranelift_codegen::ir::condcodes::FloatCC;
use cranelift_codegen::ir::types::{F32X4, I32, I32X4, I64, I64X2};
use cranelift_codegen::ir::{InstBuilder, MemFlagsData, Value};
use warp_core::ir::{
    windows, Dest, FloatOp, Guard, IntOp, LaneOp, LaneOpKind, Operand, Rounding, Special, Type,
    WARP,
};

/// How wide an operand of `x` is: its register's width, or for an
/// immediate the type it is read as.
fn width(e: &Emitter, o: Operand, ty: Type) -> u32 {
    match o {
        Operand::Reg(r) | Operand::NotPred(r) => e.reg_type(r).bits(),
        Operand::Imm(_) | Operand::LaneId => ty.bits(),
    }
}

/// Whether every source of `x` is a register of its type's width or an
/// immediate (no `%laneid`, no `!p`), and its destination a register of
/// its type's width.
fn plain(e: &Emitter, x: &LaneOp) -> bool {
    x.srcs
        .iter()
        .all(|&(o, t)| matches!(o, Operand::Reg(_) | Operand::Imm(_)) && width(e, o, t) == t.bits())
        && x.dests.len() == 1
        && match x.dests[0] {
            (Dest::Reg(r), t) => e.reg_type(r).bits() == t.bits(),
            (Dest::Sink, _) => false,
        }
}

/// Whether this file lowers `x` (else `lane_ops.rs` does).
pub fn handles(e: &Emitter, x: &LaneOp) -> bool {
    let dest_bits = |i: usize| match x.dests.get(i) {
        Some(&(Dest::Reg(r), _)) => Some(e.reg_type(r).bits()),
        _ => None,
    };
    match x.kind {
        LaneOpKind::Special(_) => dest_bits(0) == Some(32),
        LaneOpKind::Cvta { .. } => {
            plain(e, x) && matches!(x.srcs[0].1.bits(), 32 | 64) && x.dests[0].1 == x.srcs[0].1
        }
        LaneOpKind::Int(IntOp::MulWide | IntOp::MadWide) => {
            plain(e, x) && x.srcs[0].1.bits() == 32 && x.dests[0].1.bits() == 64
        }
        LaneOpKind::Int(IntOp::MadLo | IntOp::Neg | IntOp::Abs) => {
            plain(e, x) && x.srcs[0].1.bits() == 32
        }
        LaneOpKind::Cvt {
            rnd: None,
            sat: false,
            ftz: false,
            ..
        } => {
            let (a, d) = (x.srcs[0].1, x.dests[0].1);
            plain(e, x)
                && !a.is_float()
                && !d.is_float()
                && matches!(a.bits(), 32 | 64)
                && matches!(d.bits(), 32 | 64)
        }
        LaneOpKind::Float {
            op:
                FloatOp::Add | FloatOp::Sub | FloatOp::Mul | FloatOp::Fma | FloatOp::Div | FloatOp::Sqrt,
            rnd: Rounding::Rn,
            ftz: false,
            sat: false,
        } => {
            plain(e, x)
                && x.dests[0].1 == Type::F32
                && (x.kind
                    != LaneOpKind::Float {
                        op: FloatOp::Fma,
                        rnd: Rounding::Rn,
                        ftz: false,
                        sat: false,
                    }
                    || super::isa::has_fma())
        }
        LaneOpKind::Int(_)
        | LaneOpKind::Cvt { .. }
        | LaneOpKind::Float { .. }
        | LaneOpKind::FSetp(_)
        | LaneOpKind::Pack
        | LaneOpKind::Unpack
        | LaneOpKind::Ld(_)
        | LaneOpKind::St(_)
        | LaneOpKind::Bar
        | LaneOpKind::Atom(_)
        | LaneOpKind::Fence(_) => false,
    }
}

/// Lowers `x` at `pc` under `guard` ([`handles`] said yes).
pub fn emit(e: &mut Emitter, guard: Option<Guard>, x: &LaneOp, pc: usize) {
    let mut l = e.lanes(guard);
    // The lane vectors the writes blend with, built once up front.
    e.vecs(&mut l);
    let d = x.dests[0].0;
    let src = |i: usize| x.srcs[i].0;
    match x.kind {
        LaneOpKind::Special(s) => {
            let idx = Special::ALL.iter().position(|t| *t == s).expect("listed");
            let base = e.lay.specials.expect("laid out when read") + (idx * 128) as u32;
            if same_on_every_lane(s) {
                // The host writes the warp's value to every lane: lane
                // 0's word broadcast is every lane's.
                let w = e.load(I32, base as i32);
                let v = e.b.ins().splat(I32X4, w);
                for k in 0..WARP / 4 {
                    e.write_vec(d, k, &mut l, v);
                }
            } else {
                for k in 0..WARP / 4 {
                    let v = e.load(I32X4, (base + 16 * k as u32) as i32);
                    e.write_vec(d, k, &mut l, v);
                }
            }
        }
        LaneOpKind::Cvta { space, to } => {
            let base = windows::base(space) as i64;
            let delta = if to { base.wrapping_neg() } else { base };
            // (A global address is its generic one: a copy.)
            if x.srcs[0].1.bits() == 64 {
                for j in 0..WARP / 2 {
                    let v = e.read_vec64(src(0), j);
                    let r = if delta == 0 {
                        v
                    } else {
                        let c = e.b.ins().iconst(I64, delta);
                        let c = e.b.ins().splat(I64X2, c);
                        e.b.ins().iadd(v, c)
                    };
                    e.write_vec64(d, j, &mut l, r);
                }
            } else {
                for k in 0..WARP / 4 {
                    let v = e.read_vec(src(0), k);
                    let r = if delta as u32 == 0 {
                        v
                    } else {
                        let c = e.b.ins().iconst(I32, delta as u32 as i64);
                        let c = e.b.ins().splat(I32X4, c);
                        e.b.ins().iadd(v, c)
                    };
                    e.write_vec(d, k, &mut l, r);
                }
            }
        }
        LaneOpKind::Int(op @ (IntOp::MulWide | IntOp::MadWide)) => {
            let signed = x.srcs[0].1.is_signed();
            // A multiplier that is a power of two (`mul.wide.s32 %rd, %r,
            // 4`: an index scaled to bytes) is a shift: x86 has no 64-bit
            // lane multiply before AVX-512.
            let shift = match src(1) {
                Operand::Imm(v) => {
                    let v = v as u32;
                    let v = if signed {
                        v as i32 as i64 as u64
                    } else {
                        v as u64
                    };
                    v.is_power_of_two().then(|| v.trailing_zeros() as i64)
                }
                Operand::Reg(_) | Operand::NotPred(_) | Operand::LaneId => None,
            };
            for k in 0..WARP / 4 {
                let a = e.read_vec(src(0), k);
                let b = e.read_vec(src(1), k);
                for half in 0..2 {
                    let widen = |e: &mut Emitter, v: Value| match (signed, half) {
                        (true, 0) => e.b.ins().swiden_low(v),
                        (true, _) => e.b.ins().swiden_high(v),
                        (false, 0) => e.b.ins().uwiden_low(v),
                        (false, _) => e.b.ins().uwiden_high(v),
                    };
                    let wa = widen(e, a);
                    let mut p = match shift {
                        Some(n) => e.b.ins().ishl_imm_s(wa, n),
                        None => {
                            let wb = widen(e, b);
                            e.b.ins().imul(wa, wb)
                        }
                    };
                    if op == IntOp::MadWide {
                        let c = e.read_vec64(src(2), 2 * k + half);
                        p = e.b.ins().iadd(p, c);
                    }
                    e.write_vec64(d, 2 * k + half, &mut l, p);
                }
            }
        }
        LaneOpKind::Int(op) => {
            for k in 0..WARP / 4 {
                let a = e.read_vec(src(0), k);
                let r = match op {
                    IntOp::MadLo => {
                        let b = e.read_vec(src(1), k);
                        let c = e.read_vec(src(2), k);
                        let p = e.b.ins().imul(a, b);
                        e.b.ins().iadd(p, c)
                    }
                    IntOp::Neg => e.b.ins().ineg(a),
                    IntOp::Abs => e.b.ins().iabs(a),
                    _ => unreachable!("not handled: {op:?}"),
                };
                e.write_vec(d, k, &mut l, r);
            }
        }
        LaneOpKind::Cvt { .. } => cvt(e, x, &mut l),
        LaneOpKind::Float { op, .. } => {
            for k in 0..WARP / 4 {
                float(e, x, op, pc, k, &mut l);
            }
        }
        LaneOpKind::FSetp(_)
        | LaneOpKind::Pack
        | LaneOpKind::Unpack
        | LaneOpKind::Ld(_)
        | LaneOpKind::St(_)
        | LaneOpKind::Bar
        | LaneOpKind::Atom(_)
        | LaneOpKind::Fence(_) => unreachable!("not handled here"),
    }
}

/// `cvt` between 32- and 64-bit integers: the source extended by its
/// type's signedness, or cut to 32 bits.
fn cvt(e: &mut Emitter, x: &LaneOp, l: &mut Lanes) {
    let (a, d) = (x.srcs[0], x.dests[0].0);
    match (a.1.bits(), x.dests[0].1.bits()) {
        (32, 64) => {
            for k in 0..WARP / 4 {
                let v = e.read_vec(a.0, k);
                for half in 0..2 {
                    let w = match (a.1.is_signed(), half) {
                        (true, 0) => e.b.ins().swiden_low(v),
                        (true, _) => e.b.ins().swiden_high(v),
                        (false, 0) => e.b.ins().uwiden_low(v),
                        (false, _) => e.b.ins().uwiden_high(v),
                    };
                    e.write_vec64(d, 2 * k + half, l, w);
                }
            }
        }
        (64, 32) => {
            for k in 0..WARP / 4 {
                let lo = e.read_vec64(a.0, 2 * k);
                let hi = e.read_vec64(a.0, 2 * k + 1);
                let (lo, hi) = (e.as_bytes(lo), e.as_bytes(hi));
                // The low word of each 64-bit lane.
                let low_words = [0, 1, 2, 3, 8, 9, 10, 11, 16, 17, 18, 19, 24, 25, 26, 27];
                let v = e.shuffle_bytes(lo, hi, low_words);
                let v = e.as_words(v);
                e.write_vec(d, k, l, v);
            }
        }
        (32, 32) => {
            for k in 0..WARP / 4 {
                let v = e.read_vec(a.0, k);
                e.write_vec(d, k, l, v);
            }
        }
        _ => {
            for j in 0..WARP / 2 {
                let v = e.read_vec64(a.0, j);
                e.write_vec64(d, j, l, v);
            }
        }
    }
}

/// `.rn` f32 `op` on lanes `4k..4k+3`; NaN results from the run time.
fn float(e: &mut Emitter, x: &LaneOp, op: FloatOp, pc: usize, k: usize, l: &mut Lanes) {
    let bits: Vec<Value> = x.srcs.iter().map(|&(o, _)| e.read_vec(o, k)).collect();
    let f: Vec<Value> = bits
        .iter()
        .map(|&v| e.b.ins().bitcast(F32X4, MemFlagsData::new(), v))
        .collect();
    let r = super::lane_ops::float_inst(e, op, &f);
    let nan = e.b.ins().fcmp(FloatCC::Unordered, r, r);
    let any = e.b.ins().vany_true(nan);
    let r = e.b.ins().bitcast(I32X4, MemFlagsData::new(), r);
    let (cold, join) = (e.b.create_block(), e.b.create_block());
    e.b.set_cold_block(cold);
    e.b.append_block_param(join, I32X4);
    e.b.ins().brif(any, cold, &[], join, &[r.into()]);
    e.switch_to(cold);
    // A NaN's bits: warp-core's scalar semantics, lane by lane.
    let mut v = r;
    for i in 0..4u8 {
        let pcv = e.b.ins().iconst(I64, pc as i64);
        let zero = e.b.ins().iconst(I64, 0);
        let mut args = [pcv, zero, zero, zero, zero];
        for (j, &b) in bits.iter().enumerate() {
            let s = e.b.ins().extractlane(b, i);
            args[j + 1] = e.b.ins().uextend(I64, s);
        }
        let s = e.call_host(runtime::host_eval as *const () as usize, &args);
        let s = e.b.ins().ireduce(I32, s);
        v = e.b.ins().insertlane(v, s, i);
    }
    e.b.ins().jump(join, &[v.into()]);
    e.switch_to(join);
    let r = e.b.block_params(join)[0];
    e.write_vec(x.dests[0].0, k, l, r);
}
