//! The lane ops (PTX's thread-level instructions, `warp_core::ir::LaneOp`)
//! of PTX modules (issue #13), lowered per lane in a run-time lane loop:
//!
//! - inline: special registers (read from the warp state, where the launch
//!   put them), `cvta`, the integer ops (`mul.wide`, `mad.lo/hi/wide`,
//!   `div`/`rem` with a zero divisor giving 0 rather than a trap, `neg`,
//!   `abs`, `brev`, `clz`, `bfind`), integer-to-integer `cvt` (with
//!   `.sat` too), `.rn` `.f64` arithmetic, `setp.f64`, `mov` packing;
//! - as calls (`approx.rs`): the approximate functions (`ex2.approx`,
//!   `div.full`, ...), computed apart from the reference;
//! - as calls (`runtime.rs`): the conversions and float operations with
//!   directed roundings,
//!   `.ftz` or `.sat`, and `bfe`/`bfi`/`prmt`/`shf`, which call warp-core's
//!   scalar semantics
//!   (`interp::lane_ops::eval`) rather than an independent implementation.
//!
//! `ld` and `st` are `memory_ops.rs`'s (inline, with the bounds checks);
//! `bar.sync` is the driver's (`emit.rs`), a park point.

use super::builder::{float_cc, At, Emitter};
use super::inject::{self, Bug};
use super::layout::wide;
use super::runtime;
use cranelift_codegen::ir::condcodes::IntCC;
use cranelift_codegen::ir::types::{F64, I32, I64};
use cranelift_codegen::ir::{InstBuilder, MemFlagsData, Value};
use warp_core::ir::{
    windows, Dest, FloatOp, Glue, Guard, IntOp, LaneOp, LaneOpKind, Op, Operand, Rounding, Special,
    Type,
};

/// Lowers one lane op (not `ld`, `st` or `bar.sync`) at `pc`.
pub fn emit(e: &mut Emitter, guard: Option<Guard>, x: &LaneOp, pc: usize) {
    let mut l = e.lanes(guard);
    let exec = e.exec(&mut l);
    match x.kind {
        LaneOpKind::Ld(_) | LaneOpKind::St(_) => unreachable!("memory_ops.rs lowers ld and st"),
        LaneOpKind::Bar => unreachable!("the driver lowers bar.sync"),
        LaneOpKind::Atom(_) | LaneOpKind::Fence(_) => unreachable!("atomic.rs lowers them"),
        LaneOpKind::Special(_)
        | LaneOpKind::Cvta { .. }
        | LaneOpKind::Cvt { .. }
        | LaneOpKind::Int(_)
        | LaneOpKind::Float { .. }
        | LaneOpKind::FSetp(_)
        | LaneOpKind::Pack
        | LaneOpKind::Unpack => e.lane_loop(|e, at| {
            let vals = compute(e, x, pc, at);
            for (i, v) in vals.into_iter().enumerate() {
                write(e, x.dests[i].0, at, exec, v);
            }
        }),
    }
}

/// Whether `g` is glue on a 16-bit type (PTX modules' `add.s16`,
/// `setp.lt.u16` ...): the vector lowering of `alu.rs` works on 32 bits, so
/// these go through [`emit_glue`].
pub fn narrow_glue(g: &Glue) -> bool {
    g.ty().bits() == 16
}

/// Lowers 16-bit glue at `pc` per lane, as a call to the reference's
/// scalar semantics (`interp::alu::eval`); `setp`'s two results come back
/// as bits 0 and 1.
pub fn emit_glue(e: &mut Emitter, guard: Option<Guard>, g: &Glue, pc: usize) {
    let mut l = e.lanes(guard);
    let exec = e.exec(&mut l);
    let op = Op::Glue(*g);
    let srcs = op.sources();
    let dests = op.dests();
    e.lane_loop(|e, at| {
        let pcv = e.b.ins().iconst(I64, pc as i64);
        let zero = e.b.ins().iconst(I64, 0);
        let mut args = [pcv, zero, zero, zero];
        for (i, &(o, ty, _)) in srcs.iter().enumerate().take(3) {
            args[i + 1] = read(e, o, ty, at);
        }
        let r = e.call_host(runtime::host_glue as *const () as usize, &args);
        match dests.as_slice() {
            [(p, _), (q, _)] => {
                let pv = e.b.ins().band_imm_s(r, 1);
                let qv = e.b.ins().ushr_imm_s(r, 1);
                write(e, *p, at, exec, pv);
                write(e, *q, at, exec, qv);
            }
            [(d, _)] => write(e, *d, at, exec, r),
            _ => {}
        }
    });
}

/// Operand `o` (read as `ty`) on lane `at` as an i64 holding its `ty` bits
/// (`memory_ops.rs` reads addresses and stored values with it too).
pub(crate) fn read(e: &mut Emitter, o: Operand, ty: Type, at: At) -> Value {
    let width = match o {
        Operand::Reg(r) | Operand::NotPred(r) if wide(e.reg_type(r)) => 64,
        Operand::Reg(_) | Operand::NotPred(_) => 32,
        Operand::Imm(_) | Operand::LaneId if ty.bits() == 64 => 64,
        Operand::Imm(_) | Operand::LaneId => 32,
    };
    let v = e.read_at(o, at, width);
    let v = if width == 32 {
        e.b.ins().uextend(I64, v)
    } else {
        v
    };
    mask(e, v, ty.bits())
}

/// The Cranelift instruction of the round-to-nearest float `op` on `f`
/// (scalars or vectors: `lane_vec.rs` uses it on four lanes). `min` and
/// `max` are no single instruction under PTX's NaN rules: callers lower
/// them apart.
pub(crate) fn float_inst(e: &mut Emitter, op: FloatOp, f: &[Value]) -> Value {
    match op {
        FloatOp::Add => e.b.ins().fadd(f[0], f[1]),
        FloatOp::Sub => e.b.ins().fsub(f[0], f[1]),
        FloatOp::Mul => e.b.ins().fmul(f[0], f[1]),
        FloatOp::Div => e.b.ins().fdiv(f[0], f[1]),
        FloatOp::Fma => e.b.ins().fma(f[0], f[1], f[2]),
        FloatOp::Sqrt => e.b.ins().sqrt(f[0]),
        FloatOp::Neg => e.b.ins().fneg(f[0]),
        FloatOp::Abs => e.b.ins().fabs(f[0]),
        FloatOp::Min | FloatOp::Max | FloatOp::Approx(_) => {
            unreachable!("{op:?} is lowered by its caller")
        }
    }
}

/// `v` with only its low `bits` bits.
pub(crate) fn mask(e: &mut Emitter, v: Value, bits: u32) -> Value {
    if bits >= 64 {
        v
    } else {
        e.b.ins().band_imm_s(v, ((1u64 << bits) - 1) as i64)
    }
}

/// `v` sign-extended from `bits` to 64.
fn sext(e: &mut Emitter, v: Value, bits: u32) -> Value {
    if bits >= 64 {
        return v;
    }
    let s = e.b.ins().ishl_imm_s(v, (64 - bits) as i64);
    e.b.ins().sshr_imm_s(s, (64 - bits) as i64)
}

/// Writes i64 `v` to `d` on lane `at` where `exec` has it.
fn write(e: &mut Emitter, d: Dest, at: At, exec: Value, v: Value) {
    let Dest::Reg(r) = d else { return };
    let ty = e.reg_type(r);
    let v = mask(e, v, ty.bits());
    let v = if wide(ty) {
        v
    } else {
        e.b.ins().ireduce(I32, v)
    };
    e.write_at(d, at, exec, v);
}

/// The results of a computing instruction on lane `at`, one i64 per
/// destination.
fn compute(e: &mut Emitter, x: &LaneOp, pc: usize, at: At) -> Vec<Value> {
    let mut args: Vec<Value> = x.srcs.iter().map(|&(o, t)| read(e, o, t, at)).collect();
    if x.kind == LaneOpKind::Int(IntOp::Bfe) && inject::on(Bug::BfeLenZero) {
        // The planted bug: a length of 0 taken as 32.
        let len = e.b.ins().band_imm_s(args[2], 0xff);
        let zero = e.b.ins().icmp_imm_s(IntCC::Equal, len, 0);
        let k32 = e.b.ins().iconst(I64, 32);
        args[2] = e.b.ins().select(zero, k32, args[2]);
    }
    let host = |e: &mut Emitter| {
        let pcv = e.b.ins().iconst(I64, pc as i64);
        let zero = e.b.ins().iconst(I64, 0);
        let a = |i: usize| args.get(i).copied().unwrap_or(zero);
        vec![e.call_host(
            runtime::host_eval as *const () as usize,
            &[pcv, a(0), a(1), a(2), a(3)],
        )]
    };
    match x.kind {
        LaneOpKind::Special(s) => {
            let idx = Special::ALL.iter().position(|t| *t == s).expect("listed");
            let base = e.lay.specials.expect("laid out when read") + (idx * 128) as u32;
            let v =
                e.b.ins()
                    .load(I32, MemFlagsData::trusted(), at.p4, base as i32);
            vec![e.b.ins().uextend(I64, v)]
        }
        LaneOpKind::Cvta { space, to } => {
            let base = windows::base(space) as i64;
            vec![e.b.ins().iadd_imm_s(args[0], if to { -base } else { base })]
        }
        LaneOpKind::Int(
            IntOp::Bfe | IntOp::Bfi | IntOp::Prmt | IntOp::Shf { .. } | IntOp::Bmsk { .. },
        ) => host(e),
        LaneOpKind::Int(op) => vec![int(e, op, x.srcs[0].1, &args)],
        LaneOpKind::Cvt {
            rnd: None,
            sat,
            ftz: false,
            ..
        } if !x.srcs[0].1.is_float() && !x.dests[0].1.is_float() => {
            // The source extended to 64 bits, clamped to the destination
            // type's range with `.sat`, then cut to the destination type
            // and extended again as a signed or unsigned value of it.
            let (aty, dty) = (x.srcs[0].1, x.dests[0].1);
            let v = if aty.is_signed() {
                sext(e, args[0], aty.bits())
            } else {
                args[0]
            };
            let v = if sat { saturate(e, v, aty, dty) } else { v };
            let v = mask(e, v, dty.bits());
            vec![if dty.is_signed() {
                sext(e, v, dty.bits())
            } else {
                v
            }]
        }
        LaneOpKind::Float {
            op: FloatOp::Approx(f),
            ftz,
            ..
        } => vec![super::approx::emit(e, f, ftz, x.dests[0].1, &args)],
        LaneOpKind::Float {
            op,
            rnd,
            ftz: false,
            sat: false,
        } if x.dests[0].1 == Type::F64
            && !matches!(op, FloatOp::Min | FloatOp::Max)
            && (rnd == Rounding::Rn || (rnd == Rounding::Rz && inject::on(Bug::F64RzAsRn))) =>
        {
            let f: Vec<Value> = args
                .iter()
                .map(|&v| e.b.ins().bitcast(F64, MemFlagsData::new(), v))
                .collect();
            let r = float_inst(e, op, &f);
            vec![e.b.ins().bitcast(I64, MemFlagsData::new(), r)]
        }
        LaneOpKind::FSetp(cmp) => {
            let a = e.b.ins().bitcast(F64, MemFlagsData::new(), args[0]);
            let b = e.b.ins().bitcast(F64, MemFlagsData::new(), args[1]);
            let cc = float_cc(cmp);
            let c = e.b.ins().fcmp(cc, a, b);
            vec![e.b.ins().uextend(I64, c)]
        }
        LaneOpKind::Pack => {
            let mut r = e.b.ins().iconst(I64, 0);
            let mut shift = 0;
            for (i, &(_, t)) in x.srcs.iter().enumerate() {
                let v = e.b.ins().ishl_imm_s(args[i], shift);
                r = e.b.ins().bor(r, v);
                shift += t.bits() as i64;
            }
            vec![r]
        }
        LaneOpKind::Unpack => {
            let mut shift = 0;
            x.dests
                .iter()
                .map(|&(_, t)| {
                    let v = e.b.ins().ushr_imm_s(args[0], shift);
                    shift += t.bits() as i64;
                    mask(e, v, t.bits())
                })
                .collect()
        }
        LaneOpKind::Cvt { .. } | LaneOpKind::Float { .. } => host(e),
        LaneOpKind::Ld(_)
        | LaneOpKind::St(_)
        | LaneOpKind::Bar
        | LaneOpKind::Atom(_)
        | LaneOpKind::Fence(_) => {
            unreachable!("lowered elsewhere")
        }
    }
}

/// `v`, an integer of type `aty` extended to 64 bits, clamped to the range
/// of `dty` (`cvt.sat`: "clamps the result to MININT..MAXINT for the size
/// of the operation").
fn saturate(e: &mut Emitter, v: Value, aty: Type, dty: Type) -> Value {
    let bits = dty.bits();
    let (lo, hi): (i64, u64) = if dty.is_signed() {
        (i64::MIN >> (64 - bits), (1u64 << (bits - 1)) - 1)
    } else {
        (0, dty.mask())
    };
    // The planted bug: the upper bound one short.
    let hi = hi - u64::from(inject::on(Bug::CvtSatBound));
    if aty.is_signed() {
        // `v` is signed; an upper bound past i64 clamps nothing.
        let hi = e.b.ins().iconst(I64, hi.min(i64::MAX as u64) as i64);
        let lo = e.b.ins().iconst(I64, lo);
        let v = e.b.ins().smin(v, hi);
        e.b.ins().smax(v, lo)
    } else {
        // `v` is unsigned, so at least every lower bound.
        let hi = e.b.ins().iconst(I64, hi as i64);
        e.b.ins().umin(v, hi)
    }
}

/// An integer operation on `ty` values (`args` masked to `ty`).
fn int(e: &mut Emitter, op: IntOp, ty: Type, args: &[Value]) -> Value {
    let bits = ty.bits();
    let signed = ty.is_signed();
    // The planted bug: `mul.wide.s*` zero-extends its operands.
    let extend = signed && !(op == IntOp::MulWide && inject::on(Bug::MulWideZext));
    let ext = |e: &mut Emitter, v: Value| if extend { sext(e, v, bits) } else { v };
    let a = ext(e, args[0]);
    let b = args.get(1).map(|&v| ext(e, v));
    match op {
        IntOp::MulWide => e.b.ins().imul(a, b.expect("two operands")),
        IntOp::MadLo => {
            let p = e.b.ins().imul(a, b.expect("three operands"));
            e.b.ins().iadd(p, args[2])
        }
        IntOp::MadHi => {
            let b = b.expect("three operands");
            let hi = if bits == 64 {
                if signed {
                    e.b.ins().smulhi(a, b)
                } else {
                    e.b.ins().umulhi(a, b)
                }
            } else {
                let p = e.b.ins().imul(a, b);
                if signed {
                    e.b.ins().sshr_imm_s(p, bits as i64)
                } else {
                    e.b.ins().ushr_imm_s(p, bits as i64)
                }
            };
            e.b.ins().iadd(hi, args[2])
        }
        IntOp::MadWide => {
            let p = e.b.ins().imul(a, b.expect("three operands"));
            e.b.ins().iadd(p, args[2])
        }
        IntOp::Div | IntOp::Rem => {
            let b = b.expect("two operands");
            // Division by zero is unspecified (the reference leaves it
            // undefined): divide by 1 instead of trapping. `MIN / -1`
            // (undefined too) must not trap either.
            let zero = e.b.ins().icmp_imm_s(IntCC::Equal, b, 0);
            let minus1 = e.b.ins().icmp_imm_s(IntCC::Equal, b, -1);
            let odd = if signed {
                e.b.ins().bor(zero, minus1)
            } else {
                zero
            };
            let one = e.b.ins().iconst(I64, 1);
            let safe = e.b.ins().select(odd, one, b);
            let r = match (op, signed) {
                (IntOp::Div, true) => e.b.ins().sdiv(a, safe),
                (IntOp::Div, false) => e.b.ins().udiv(a, safe),
                (_, true) => e.b.ins().srem(a, safe),
                (_, false) => e.b.ins().urem(a, safe),
            };
            if signed {
                let alt = if op == IntOp::Div {
                    e.b.ins().ineg(a)
                } else {
                    e.b.ins().iconst(I64, 0)
                };
                e.b.ins().select(minus1, alt, r)
            } else {
                r
            }
        }
        IntOp::Bfe | IntOp::Bfi | IntOp::Prmt | IntOp::Shf { .. } | IntOp::Bmsk { .. } => {
            unreachable!("called into the run time")
        }
        IntOp::Neg => e.b.ins().ineg(a),
        IntOp::Abs => e.b.ins().iabs(a),
        IntOp::Brev => {
            let r = e.b.ins().bitrev(args[0]);
            e.b.ins().ushr_imm_s(r, (64 - bits) as i64)
        }
        IntOp::Clz => {
            let r = e.b.ins().clz(args[0]);
            e.b.ins().iadd_imm_s(r, -((64 - bits) as i64))
        }
        IntOp::Bfind { shiftamt } => {
            // The highest bit that differs from the sign bit (signed) or is
            // set (unsigned); 0xffffffff when there is none.
            let v = if signed {
                let neg = e.b.ins().icmp_imm_s(IntCC::SignedLessThan, a, 0);
                let inv = e.b.ins().bnot(args[0]);
                let inv = mask(e, inv, bits);
                e.b.ins().select(neg, inv, args[0])
            } else {
                args[0]
            };
            let lz = e.b.ins().clz(v);
            let c63 = e.b.ins().iconst(I64, 63);
            let pos = e.b.ins().isub(c63, lz);
            let r = if shiftamt {
                let top = e.b.ins().iconst(I64, bits as i64 - 1);
                e.b.ins().isub(top, pos)
            } else {
                pos
            };
            let none = e.b.ins().icmp_imm_s(IntCC::Equal, v, 0);
            let all = e.b.ins().iconst(I64, 0xffff_ffff);
            e.b.ins().select(none, all, r)
        }
    }
}
