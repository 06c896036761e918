//! The lane ops (PTX's thread-level instructions) of PTX modules that
//! compute per lane:
//! special registers, `cvt`, integer `mul.wide`/`mad`/`div`/`rem`/`neg`/
//! `abs`/`brev`/`clz`/`bfind`, float arithmetic with rounding modifiers,
//! `setp.f64`, and `mov` packing. (Memory is `memory.rs`; `bar.sync` is
//! the scheduler's.)
//!
//! Definedness is whole-value: a result is defined when every input bit
//! is, except packing and unpacking, which move bits as they are.
//!
//! Rounding follows the ISA's "Rounding Modifiers": `.rn` nearest even,
//! `.rz` toward zero, `.rm` toward −∞, `.rp` toward +∞; the result is the
//! exact result rounded once (`softfloat.rs`). `cvt` from float to integer
//! saturates to the destination's range ("For float-to-integer
//! conversions, the result is clamped to the destination range by
//! default"); for a NaN it writes what the H200 writes (`nan_to_int`,
//! where the hardware and the ISA's "converted to 0" part). `.sat` gives
//! +0.0 for −0.0, as the H200 does. Integer division by zero gives an
//! "unspecified, machine-specific value": undefined here, as is
//! `div.s32`'s one overflowing case (−2³¹ / −1).

use super::alu::{compare, signed};
use super::approx;
use super::bits::Val;
use super::lanes::lanes;
use super::place::WarpPlace;
use super::softfloat::{self, Format};
use super::warp::{Step, Warp};
use crate::ir::{wide_type, FloatOp, IntOp, LaneOp, LaneOpKind, Rounding, Type};

/// `x` (bits of a `ty` value) as an exact integer.
fn int_of(x: u64, ty: Type) -> i128 {
    if ty.is_signed() {
        signed(x, ty) as i128
    } else {
        (x & ty.mask()) as i128
    }
}

/// The closest value of `ty`'s range to `v` (saturation).
fn clamp(v: i128, ty: Type) -> u64 {
    let bits = ty.bits();
    let (lo, hi) = if ty.is_signed() {
        (-(1i128 << (bits - 1)), (1i128 << (bits - 1)) - 1)
    } else {
        (0, (1i128 << bits) - 1)
    };
    (v.clamp(lo, hi) as u64) & ty.mask()
}

/// Whether the host's IEEE arithmetic gives `op`'s result whatever the
/// rounding: a NaN or infinite operand, division by zero, the square root
/// of a zero or a negative value (IEEE 754 §6: these results are exact).
fn host_exact(op: FloatOp, a: f64, b: f64, c: f64) -> bool {
    let finite = match op {
        FloatOp::Add | FloatOp::Sub | FloatOp::Mul => a.is_finite() && b.is_finite(),
        FloatOp::Fma => a.is_finite() && b.is_finite() && c.is_finite(),
        FloatOp::Div => a.is_finite() && b.is_finite() && b != 0.0,
        FloatOp::Sqrt => a.is_finite() && a > 0.0,
        FloatOp::Neg | FloatOp::Abs | FloatOp::Min | FloatOp::Max => false,
        FloatOp::Approx(_) => unreachable!("approx.rs computes these"),
    };
    !finite
}

/// One float operation on values of `fmt` (f32 values given as the f64s
/// they are exactly), rounded once by `rnd` ([`softfloat`]); the result's
/// bits (an f32's in the low 32).
fn float_op(op: FloatOp, rnd: Rounding, fmt: Format, a: f64, b: f64, c: f64) -> u64 {
    let host = |r: f64| match fmt {
        Format::F64 => r.to_bits(),
        Format::F32 => (r as f32).to_bits() as u64,
    };
    if host_exact(op, a, b, c) {
        return host(match op {
            FloatOp::Add => a + b,
            FloatOp::Sub => a - b,
            FloatOp::Mul => a * b,
            FloatOp::Fma => a.mul_add(b, c),
            FloatOp::Div => a / b,
            FloatOp::Sqrt => a.sqrt(),
            FloatOp::Neg => -a,
            FloatOp::Abs => a.abs(),
            FloatOp::Approx(_) => unreachable!("approx.rs computes these"),
            FloatOp::Min | FloatOp::Max => {
                let a_first = (a < b || (a == b && a.is_sign_negative())) == (op == FloatOp::Min);
                if a.is_nan() {
                    b
                } else if b.is_nan() || a_first {
                    a
                } else {
                    b
                }
            }
        });
    }
    match op {
        FloatOp::Add => softfloat::add(a, b, fmt, rnd),
        FloatOp::Sub => softfloat::add(a, -b, fmt, rnd),
        FloatOp::Mul => softfloat::mul(a, b, fmt, rnd),
        FloatOp::Fma => softfloat::fma(a, b, c, fmt, rnd),
        FloatOp::Div => softfloat::div(a, b, fmt, rnd),
        FloatOp::Sqrt => softfloat::sqrt(a, fmt, rnd),
        FloatOp::Neg | FloatOp::Abs | FloatOp::Min | FloatOp::Max => {
            unreachable!("host_exact takes these")
        }
        FloatOp::Approx(_) => unreachable!("approx.rs computes these"),
    }
}

/// Flushes an f32 subnormal to a zero of its sign (`.ftz`).
fn ftz32(x: f32) -> f32 {
    if x.is_subnormal() {
        0.0f32.copysign(x)
    } else {
        x
    }
}

/// `.sat` on a float: "clamps the result to [0.0, 1.0]. NaN results are
/// flushed to +0.0f". −0.0 becomes +0.0: the ISA does not say which zero
/// a clamp to [0.0, 1.0] leaves, and the H200 gives +0.0 for every `.sat`
/// of −0.0 (`mul.rz.sat.f32 0, -0`, `sub.rp.ftz.sat.f32 -0, 0`,
/// `cvt.rzi.sat.f64.f64 -0`: corpus/cases/sat-negative-zero-h200.ptx), as
/// libdevice's `__saturatef` documents ("Clamp ... to [+0.0, 1.0]").
fn sat(x: f64) -> f64 {
    if x.is_nan() || x == 0.0 {
        0.0
    } else {
        x.clamp(0.0, 1.0)
    }
}

/// `x` rounded to an integral value under `rnd`.
fn integral(x: f64, rnd: Rounding) -> f64 {
    match rnd {
        Rounding::Rn => x.round_ties_even(),
        Rounding::Rz => x.trunc(),
        Rounding::Rm => x.floor(),
        Rounding::Rp => x.ceil(),
    }
}

/// The format of a float type.
fn format(ty: Type) -> Format {
    if ty == Type::F32 {
        Format::F32
    } else {
        Format::F64
    }
}

/// What `cvt` from a float type `aty` to an integer type `dty` writes for
/// a NaN. The ISA says "In float-to-integer conversions, NaN inputs are
/// converted to 0"; an H200 (sm_90, driver 580.159.04, at -O0 and every
/// other level) gives 0 only from `.f32` to a type of 32 bits or fewer, and
/// the type's lowest bit pattern with its top bit set (0x80, 0x8000,
/// 0x80000000, 0x8000000000000000: the most negative value of the signed
/// type of that width) from `.f64` to every integer type and from `.f32`
/// to 64-bit types (corpus/cases/cvt-nan-to-int-h200.ptx). The reference
/// follows the hardware: these conversions are what the SASS `F2I`
/// instructions do at every level, and emulator authors need the GPU's
/// value; docs/findings.md records the disagreement with the ISA's text.
fn nan_to_int(aty: Type, dty: Type) -> u64 {
    if aty == Type::F64 || dty.bits() == 64 {
        1 << (dty.bits() - 1)
    } else {
        0
    }
}

/// A float (`aty`) to a float or integer `dty`, as `cvt` does.
#[allow(clippy::too_many_arguments)]
fn cvt(
    x: u64,
    aty: Type,
    dty: Type,
    rnd: Option<Rounding>,
    int_round: bool,
    ftz: bool,
    sat_: bool,
) -> u64 {
    let rnd_or = rnd.unwrap_or(Rounding::Rn);
    if !aty.is_float() {
        let v = int_of(x, aty);
        if dty.is_float() {
            return softfloat::round(softfloat::exact_int(v), format(dty), rnd_or);
        }
        return if sat_ {
            clamp(v, dty)
        } else {
            (v as u64) & dty.mask()
        };
    }
    let mut f = if aty == Type::F32 {
        let v = f32::from_bits(x as u32);
        (if ftz { ftz32(v) } else { v }) as f64
    } else {
        f64::from_bits(x)
    };
    if !dty.is_float() {
        if f.is_nan() {
            return nan_to_int(aty, dty);
        }
        let r = integral(f, rnd_or);
        let v = if r >= 1.7e38 {
            i128::MAX
        } else if r <= -1.7e38 {
            i128::MIN
        } else {
            r as i128
        };
        return clamp(v, dty);
    }
    if int_round {
        f = integral(f, rnd_or);
    }
    if sat_ {
        f = sat(f);
    }
    if dty == Type::F32 {
        let r = if aty == Type::F64 && !int_round && f.is_finite() {
            f32::from_bits(softfloat::round(softfloat::exact(f), Format::F32, rnd_or) as u32)
        } else {
            f as f32
        };
        let r = if ftz { ftz32(r) } else { r };
        r.to_bits() as u64
    } else {
        f.to_bits()
    }
}

/// `bfe`, `bfi`, `prmt`, `shf` as the ISA pages' pseudocode writes them.
/// `None` for the other integer operations ([`int_op`]); `Some(None)`
/// where the result is undefined.
///
/// `bfe`'s position and length (`b`, `c`) and `bfi`'s (`c`, `d`): "Operands
/// b and c are type .u32, but are restricted to the 8-bit value range
/// 0..255" (ISA `bfe`; `bfi`: "Operands c and d ..."). A value outside
/// 0..255 is outside the instruction's range, so the result is undefined
/// on that lane, as integer division by zero is: the H200 does not take
/// it `& 0xff` (`bfe.u64 %rd1, 1, %r0, 1` with `%r0 = 0x5348fb00` gave 0,
/// `& 0xff` would make the position 0 and the result 1; `bfi.b64 %rd1, 0,
/// 1, 0, %b0` with `%b0 = 0x80000000` gave 0, a length of 0 would keep
/// `b` = 1: `corpus/cases/bit-field-range-in-register-h200.ptx`). An
/// immediate outside it is refused by the parser, as by `ptxas`.
fn bit_field(op: IntOp, ty: Type, args: [u64; 4]) -> Option<Option<u64>> {
    let msb = ty.bits() as u64 - 1;
    let bit = |x: u64, i: u64| x >> i & 1;
    let in_range = |v: u64| (v <= 0xff).then_some(v);
    Some(Some(match op {
        IntOp::Bfe => {
            let (Some(pos), Some(len)) = (in_range(args[1]), in_range(args[2])) else {
                return Some(None);
            };
            let a = args[0];
            let sbit = if !ty.is_signed() || len == 0 {
                0
            } else {
                bit(a, (pos + len - 1).min(msb))
            };
            (0..=msb).fold(0, |d, i| {
                let v = if i < len && pos + i <= msb {
                    bit(a, pos + i)
                } else {
                    sbit
                };
                d | v << i
            })
        }
        IntOp::Bfi => {
            let (Some(pos), Some(len)) = (in_range(args[2]), in_range(args[3])) else {
                return Some(None);
            };
            let (a, mut f) = (args[0], args[1]);
            let mut i = 0;
            while i < len && pos + i <= msb {
                f = (f & !(1 << (pos + i))) | bit(a, i) << (pos + i);
                i += 1;
            }
            f
        }
        IntOp::Shf { left, clamp } => {
            let n = if clamp {
                (args[2] & 0xffff_ffff).min(32)
            } else {
                args[2] & 31
            };
            let both = (args[1] & 0xffff_ffff) << 32 | (args[0] & 0xffff_ffff);
            if left {
                (both << n) >> 32 & 0xffff_ffff
            } else {
                (both >> n) & 0xffff_ffff
            }
        }
        IntOp::Bmsk { clamp } => {
            // The ISA's pseudocode, step by step (see `IntOp::Bmsk`).
            let (a, b) = (args[0] & 0xffff_ffff, args[1] & 0xffff_ffff);
            let a1 = a & 0x1f;
            let b1 = b & 0x1f;
            let sum = a1 + b1;
            let mut mask0: u64 = 0xffff_ffff << a1 & 0xffff_ffff;
            let mut overflow = sum >= 32;
            if clamp {
                if a >= 32 {
                    overflow = true;
                    mask0 = 0;
                }
                if b >= 32 {
                    overflow = true;
                }
            }
            let mask1: u64 = if overflow {
                0
            } else if b1 == 0 {
                0xffff_ffff
            } else {
                0xffff_ffff << sum & 0xffff_ffff
            };
            mask0 & !mask1 & 0xffff_ffff
        }
        IntOp::Prmt => {
            let tmp = (args[1] & 0xffff_ffff) << 32 | (args[0] & 0xffff_ffff);
            (0..4).fold(0, |d, i| {
                let ctl = args[2] >> (4 * i) & 0xf;
                let byte = tmp >> ((ctl & 7) * 8) & 0xff;
                let byte = match (ctl & 8 != 0, byte & 0x80 != 0) {
                    (false, _) => byte,
                    (true, true) => 0xff,
                    (true, false) => 0,
                };
                d | byte << (8 * i)
            })
        }
        IntOp::MulWide
        | IntOp::MadLo
        | IntOp::MadHi
        | IntOp::MadWide
        | IntOp::Div
        | IntOp::Rem
        | IntOp::Neg
        | IntOp::Abs
        | IntOp::Brev
        | IntOp::Clz
        | IntOp::Bfind { .. } => return None,
    }))
}

/// An integer operation on `ty` values (`c` for `mad`).
fn int_op(op: IntOp, ty: Type, a: u64, b: u64, c: u64) -> Option<u64> {
    let bits = ty.bits();
    let m = ty.mask();
    let (ia, ib) = (int_of(a, ty), int_of(b, ty));
    let wide_m = if bits >= 32 {
        u64::MAX
    } else {
        (1u64 << (2 * bits)) - 1
    };
    // The exact product: two `.u64` values need all 128 bits unsigned
    // (their product overflows an i128), everything else fits an i128.
    let hi = |p: i128| -> i128 {
        if ty.is_signed() {
            p >> bits
        } else {
            ((p as u128) >> bits) as i128
        }
    };
    let product = if ty.is_signed() {
        ia * ib
    } else {
        (ia as u128).wrapping_mul(ib as u128) as i128
    };
    Some(match op {
        IntOp::MulWide => (product as u64) & wide_m,
        IntOp::MadLo => (product.wrapping_add(int_of(c, ty)) as u64) & m,
        IntOp::MadHi => (hi(product).wrapping_add(int_of(c, ty)) as u64) & m,
        // "`.wide`: `c` and `d` are twice the width of `a` and `b`".
        IntOp::MadWide => (product.wrapping_add(int_of(c, wide_type(ty))) as u64) & wide_m,
        IntOp::Div | IntOp::Rem => {
            if ib == 0 {
                return None;
            }
            let q = ia / ib;
            if ty.is_signed() && q == 1i128 << (bits - 1) {
                return None;
            }
            (if op == IntOp::Div { q } else { ia % ib } as u64) & m
        }
        IntOp::Bfe | IntOp::Bfi | IntOp::Prmt | IntOp::Shf { .. } | IntOp::Bmsk { .. } => {
            unreachable!("eval runs these through bit_field")
        }
        IntOp::Neg => (ia.wrapping_neg() as u64) & m,
        IntOp::Abs => (ia.unsigned_abs() as u64) & m,
        IntOp::Brev => (a & m).reverse_bits() >> (64 - bits),
        IntOp::Clz => ((a & m).leading_zeros() - (64 - bits)) as u64,
        IntOp::Bfind { shiftamt } => {
            // The most significant bit that differs from the sign (signed)
            // or is set (unsigned).
            let v = if ty.is_signed() && signed(a, ty) < 0 {
                !a & m
            } else {
                a & m
            };
            if v == 0 {
                0xffff_ffff
            } else {
                let pos = 63 - v.leading_zeros() as u64;
                if shiftamt {
                    bits as u64 - 1 - pos
                } else {
                    pos
                }
            }
        }
    })
}

/// The value one lane computes for a computing thread-level instruction
/// (`cvt`, [`LaneOpKind::Int`], [`LaneOpKind::Float`], `setp.f64`) from
/// its source values (`args[i]` is source `i`'s bits, unused ones 0), or
/// `None` where the ISA leaves the result unspecified (integer division
/// by zero, a `bfe`/`bfi` position or length past 255). A result narrower than 64 bits comes back extended (signed
/// types sign-extended); a register keeps the bits of its width. The
/// interpreter's semantics, for engines that call it rather
/// than lower an instruction themselves (the JIT's directed roundings).
pub fn eval(x: &LaneOp, args: [u64; 4]) -> Option<u64> {
    let arg = |i: usize| x.srcs.get(i).map_or(0, |&(_, t)| args[i] & t.mask());
    match x.kind {
        LaneOpKind::Cvt {
            rnd,
            int_round,
            ftz,
            sat,
        } => {
            // A result narrower than its register is sign-extended for a
            // signed type, zero-extended otherwise (ISA "Operand Size
            // Exceeding Instruction-Type Size", as `ld` does).
            let dty = x.dests[0].1;
            let r = cvt(arg(0), x.srcs[0].1, dty, rnd, int_round, ftz, sat);
            Some(if dty.is_signed() {
                signed(r, dty) as u64
            } else {
                r
            })
        }
        LaneOpKind::Int(op) => {
            match bit_field(op, x.dests[0].1, [arg(0), arg(1), arg(2), arg(3)]) {
                Some(v) => v.map(|v| v & x.dests[0].1.mask()),
                None => int_op(op, x.srcs[0].1, arg(0), arg(1), arg(2)),
            }
        }
        LaneOpKind::Float {
            op: FloatOp::Approx(_),
            ..
        } => approx::eval_op(x, [arg(0), arg(1), 0, 0])
            .filter(|r| r.full(x.dests[0].1))
            .map(|r| r.value),
        LaneOpKind::Float {
            op,
            rnd,
            ftz,
            sat: s_,
        } => {
            let ty = x.dests[0].1;
            Some(if ty == Type::F64 {
                let f = |i| f64::from_bits(arg(i));
                let r = f64::from_bits(float_op(op, rnd, Format::F64, f(0), f(1), f(2)));
                (if s_ { sat(r) } else { r }).to_bits()
            } else {
                let f = |i| {
                    let v = f32::from_bits(arg(i) as u32);
                    (if ftz { ftz32(v) } else { v }) as f64
                };
                let r = f32::from_bits(float_op(op, rnd, Format::F32, f(0), f(1), f(2)) as u32);
                let r = if s_ { sat(r as f64) as f32 } else { r };
                (if ftz { ftz32(r) } else { r }).to_bits() as u64
            })
        }
        LaneOpKind::FSetp(cmp) => Some(compare(cmp, Type::F64, arg(0), arg(1)) as u64),
        LaneOpKind::Atom(_) | LaneOpKind::Fence(_) => None,
        LaneOpKind::Special(_)
        | LaneOpKind::Pack
        | LaneOpKind::Unpack
        | LaneOpKind::Ld(_)
        | LaneOpKind::St(_)
        | LaneOpKind::Cvta { .. }
        | LaneOpKind::Bar => None,
    }
}

/// Whether a result of `x` that is a NaN has bits PTX leaves open (see
/// `alu.rs`): every NaN a float operation or a conversion to a float type
/// writes (the ISA fixes the payload of none of them, and the engines'
/// native NaNs differ).
fn nan_result_open(x: &LaneOp, v: u64) -> bool {
    let ty = x.dests[0].1;
    let produces = match x.kind {
        LaneOpKind::Cvt { .. } | LaneOpKind::Float { .. } => true,
        LaneOpKind::Int(_)
        | LaneOpKind::FSetp(_)
        | LaneOpKind::Special(_)
        | LaneOpKind::Pack
        | LaneOpKind::Unpack
        | LaneOpKind::Ld(_)
        | LaneOpKind::St(_)
        | LaneOpKind::Cvta { .. }
        | LaneOpKind::Bar
        | LaneOpKind::Atom(_)
        | LaneOpKind::Fence(_) => false,
    };
    produces
        && match ty {
            Type::F32 => f32::from_bits(v as u32).is_nan(),
            Type::F64 => f64::from_bits(v).is_nan(),
            _ => false,
        }
}

/// Executes a computing thread-level instruction on `s.exec`.
pub(crate) fn exec(w: &mut Warp, s: &Step, x: &LaneOp) {
    let mut results: Vec<Vec<(usize, Val, bool)>> = vec![Vec::new(); x.dests.len()];
    // A case has no launch: its warp is the one warp of one CTA.
    let case_place = w.kernel.is_none().then(WarpPlace::one_warp);
    for l in lanes(s.exec) {
        // A float source reads an open NaN as the NaN it is; any other
        // reads its bits, which no rule fixes: undefined.
        let ins: Vec<Val> = x
            .srcs
            .iter()
            .map(|&(o, t)| {
                if t.is_float() {
                    w.read_keep_nan(o, l)
                } else {
                    w.read(o, l)
                }
            })
            .collect();
        let full = x
            .srcs
            .iter()
            .zip(&ins)
            .all(|(&(_, t), v)| v.d & t.mask() == t.mask());
        match x.kind {
            LaneOpKind::Special(sr) => {
                let place = match (&w.kernel, &case_place) {
                    (Some(ctx), _) => &ctx.place,
                    (None, Some(p)) => p,
                    (None, None) => unreachable!("a case has its place"),
                };
                results[0].push((l, Val::known(place.special(sr, l) as u64), false));
            }
            LaneOpKind::Float {
                op: FloatOp::Approx(_),
                ..
            } => {
                // Only the bits every value the ISA allows shares.
                let args = [ins[0].v, ins.get(1).map_or(0, |v| v.v), 0, 0];
                let r = approx::eval_op(x, args).filter(|_| full);
                let v = r.map_or((Val::unknown(), false), |r| (r.val(), r.open_nan));
                results[0].push((l, v.0, v.1));
            }
            LaneOpKind::Cvt { .. }
            | LaneOpKind::Int(_)
            | LaneOpKind::Float { .. }
            | LaneOpKind::FSetp(_) => {
                let args = std::array::from_fn(|i| ins.get(i).map_or(0, |v| v.v));
                let v = match (full, eval(x, args)) {
                    (true, Some(v)) => (Val::known(v), nan_result_open(x, v)),
                    _ => (Val::unknown(), false),
                };
                results[0].push((l, v.0, v.1));
            }
            LaneOpKind::Pack => {
                let (mut v, mut d, mut at) = (0u64, 0u64, 0);
                for (i, &(_, t)) in x.srcs.iter().enumerate() {
                    v |= (ins[i].v & t.mask()) << at;
                    d |= (ins[i].d & t.mask()) << at;
                    at += t.bits();
                }
                results[0].push((l, Val { v, d }, false));
            }
            LaneOpKind::Unpack => {
                let (mut at, a) = (0, ins[0]);
                for (i, &(_, t)) in x.dests.iter().enumerate() {
                    let v = Val {
                        v: (a.v >> at) & t.mask(),
                        d: (a.d >> at) & t.mask(),
                    };
                    results[i].push((l, v, false));
                    at += t.bits();
                }
            }
            LaneOpKind::Ld(_)
            | LaneOpKind::St(_)
            | LaneOpKind::Cvta { .. }
            | LaneOpKind::Bar
            | LaneOpKind::Atom(_)
            | LaneOpKind::Fence(_) => {
                unreachable!("run by memory_ops.rs, atomic.rs and the scheduler")
            }
        }
    }
    for (i, r) in results.iter().enumerate() {
        for &(l, v, open) in r {
            w.write_nan(x.dests[i].0, l, v, open);
        }
    }
}
