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
//! exact result rounded once. `cvt` from float to integer saturates to the
//! destination's range and gives 0 for NaN ("For float-to-integer
//! conversions, the result is clamped to the destination range by
//! default"; NaN "is converted to 0"). Integer division by zero gives an
//! "unspecified, machine-specific value": undefined here, as is
//! `div.s32`'s one overflowing case (−2³¹ / −1).

use super::alu::{compare, signed};
use super::bits::Val;
use super::lanes::lanes;
use super::place::WarpPlace;
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

/// The next f64 toward +∞ (`up`) or −∞.
fn next_f64(x: f64, up: bool) -> f64 {
    if x.is_nan() || (x.is_infinite() && (x > 0.0) == up) {
        return x;
    }
    if x == 0.0 {
        let tiny = f64::from_bits(1);
        return if up { tiny } else { -tiny };
    }
    let b = x.to_bits();
    let away = (x > 0.0) == up;
    f64::from_bits(if away { b + 1 } else { b - 1 })
}

/// The next f32 toward +∞ (`up`) or −∞.
fn next_f32(x: f32, up: bool) -> f32 {
    if x.is_nan() || (x.is_infinite() && (x > 0.0) == up) {
        return x;
    }
    if x == 0.0 {
        let tiny = f32::from_bits(1);
        return if up { tiny } else { -tiny };
    }
    let b = x.to_bits();
    let away = (x > 0.0) == up;
    f32::from_bits(if away { b + 1 } else { b - 1 })
}

/// Whether a candidate above (`above`) or below the exact result must
/// move one step, and which way (`true` = up), under `rnd`; `c` is the
/// nearest-even candidate and `sign_exact` the exact result's sign.
fn nudge(rnd: Rounding, above: bool, sign_neg: bool) -> Option<bool> {
    match rnd {
        Rounding::Rn => None,
        Rounding::Rm => above.then_some(false),
        Rounding::Rp => (!above).then_some(true),
        // Toward zero: a positive result above moves down, a negative one
        // below moves up.
        Rounding::Rz => match (sign_neg, above) {
            (false, true) => Some(false),
            (true, false) => Some(true),
            _ => None,
        },
    }
}

/// Rounds `c` (an f64 rounded to nearest, `err` = exact − `c`, exact in
/// f64 or of the right sign) under `rnd`.
fn direct_f64(c: f64, err: f64, rnd: Rounding) -> f64 {
    if err == 0.0 || c.is_nan() {
        return c;
    }
    match nudge(rnd, err < 0.0, c < 0.0 || (c == 0.0 && err < 0.0)) {
        Some(up) => next_f64(c, up),
        None => c,
    }
}

/// Rounds an exact value given as `hi + lo` (f64s, `|lo|` tiny) to f32.
fn to_f32(hi: f64, lo: f64, rnd: Rounding) -> f32 {
    let c = hi as f32;
    if c.is_nan() {
        return c;
    }
    if c.is_infinite() {
        // Overflow: toward zero (or away from the infinity's side) gives
        // the largest finite value.
        let pos = c > 0.0;
        let keep = match rnd {
            Rounding::Rn => true,
            Rounding::Rz => false,
            Rounding::Rm => !pos,
            Rounding::Rp => pos,
        };
        if !keep && hi.is_finite() {
            return if pos { f32::MAX } else { f32::MIN };
        }
        return c;
    }
    if rnd == Rounding::Rn {
        // `hi as f32` rounds hi correctly; it is wrong for hi + lo only
        // when hi lies exactly halfway between two f32s and lo, the part
        // of the exact value below hi's precision, breaks the tie (lo
        // cannot carry the value across any other midpoint).
        let dh = hi - c as f64;
        if dh != 0.0 && lo != 0.0 {
            let n = next_f32(c, dh > 0.0);
            if n as f64 - hi == dh && (lo > 0.0) == (dh > 0.0) {
                return n;
            }
        }
        return c;
    }
    // d = exact − c, whose sign is all that matters.
    let d = (hi - c as f64) + lo;
    if d == 0.0 {
        return c;
    }
    match nudge(rnd, d < 0.0, c < 0.0 || (c == 0.0 && d < 0.0)) {
        Some(up) => next_f32(c, up),
        None => c,
    }
}

/// `a + b` as `(sum, error)` (Knuth's TwoSum: exact).
fn two_sum(a: f64, b: f64) -> (f64, f64) {
    let s = a + b;
    let bb = s - a;
    (s, (a - (s - bb)) + (b - bb))
}

/// One f64 operation, rounded by `rnd`.
fn f64_op(op: FloatOp, rnd: Rounding, a: f64, b: f64, c: f64) -> f64 {
    match op {
        FloatOp::Add | FloatOp::Sub => {
            let b = if op == FloatOp::Sub { -b } else { b };
            let (s, e) = two_sum(a, b);
            if !s.is_finite() {
                return s;
            }
            direct_f64(s, e, rnd)
        }
        FloatOp::Mul => {
            let p = a * b;
            if !p.is_finite() {
                return p;
            }
            direct_f64(p, a.mul_add(b, -p), rnd)
        }
        FloatOp::Div => {
            let q = a / b;
            if !q.is_finite() || q == 0.0 {
                return q;
            }
            // a − q·b, exact; the exact quotient is above q when it has
            // the sign of b.
            let r = (-q).mul_add(b, a);
            direct_f64(
                q,
                if (r > 0.0) == (b > 0.0) {
                    r.abs()
                } else {
                    -r.abs()
                },
                rnd,
            )
        }
        FloatOp::Sqrt => {
            let s = a.sqrt();
            if !s.is_finite() || s == 0.0 {
                return s;
            }
            direct_f64(s, (-s).mul_add(s, a), rnd)
        }
        FloatOp::Fma => a.mul_add(b, c),
        FloatOp::Neg => -a,
        FloatOp::Abs => a.abs(),
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
    }
}

/// One f32 operation, rounded by `rnd`, computed exactly in f64 where the
/// f64 result is exact (`+ − ×` of f32s with a TwoSum error, `÷` and `√`
/// with an exact remainder).
fn f32_op(op: FloatOp, rnd: Rounding, a: f32, b: f32, c: f32) -> f32 {
    let (a, b, c) = (a as f64, b as f64, c as f64);
    match op {
        FloatOp::Add | FloatOp::Sub => {
            let b = if op == FloatOp::Sub { -b } else { b };
            let (s, e) = two_sum(a, b);
            to_f32(s, e, rnd)
        }
        // A product of two f32s is exact in f64.
        FloatOp::Mul => to_f32(a * b, 0.0, rnd),
        FloatOp::Fma => {
            let p = a * b;
            let (s, e) = two_sum(p, c);
            to_f32(s, e, rnd)
        }
        FloatOp::Div => {
            let q = a / b;
            if !q.is_finite() || q == 0.0 {
                return q as f32;
            }
            let r = (-q).mul_add(b, a);
            to_f32(
                q,
                sign_only(if (r > 0.0) == (b > 0.0) {
                    r.abs()
                } else {
                    -r.abs()
                }),
                rnd,
            )
        }
        FloatOp::Sqrt => {
            let s = a.sqrt();
            if !s.is_finite() || s == 0.0 {
                return s as f32;
            }
            to_f32(s, sign_only((-s).mul_add(s, a)), rnd)
        }
        FloatOp::Neg | FloatOp::Abs | FloatOp::Min | FloatOp::Max => {
            f64_op(op, rnd, a, b, c) as f32
        }
    }
}

/// The smallest f64 of `x`'s sign (0 for 0): an error term whose sign is
/// all [`to_f32`] needs, when `hi` is only the nearest f64 to the result.
fn sign_only(x: f64) -> f64 {
    if x == 0.0 {
        0.0
    } else {
        f64::from_bits(1).copysign(x)
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

/// `.sat` on a float: clamp to [0.0, 1.0], NaN to 0.0.
fn sat(x: f64) -> f64 {
    if x.is_nan() {
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

/// An integer rounded to f32 or f64 (`dty`) under `rnd`.
fn int_to_float(v: i128, dty: Type, rnd: Rounding) -> u64 {
    if dty == Type::F32 {
        let c = v as f32;
        let above = (c as i128) > v || (c.is_infinite() && c > 0.0);
        let below = (c as i128) < v || (c.is_infinite() && c < 0.0);
        let r = match (above, below) {
            (false, false) => c,
            (a, _) => match nudge(rnd, a, v < 0) {
                Some(up) => next_f32(c, up),
                None => c,
            },
        };
        r.to_bits() as u64
    } else {
        let c = v as f64;
        let above = (c as i128) > v;
        let below = (c as i128) < v;
        let r = match (above, below) {
            (false, false) => c,
            (a, _) => match nudge(rnd, a, v < 0) {
                Some(up) => next_f64(c, up),
                None => c,
            },
        };
        r.to_bits()
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
            return int_to_float(v, dty, rnd_or);
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
            return 0;
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
        let r = if aty == Type::F64 && !int_round {
            to_f32(f, 0.0, rnd_or)
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
        IntOp::Bfe | IntOp::Bfi | IntOp::Prmt | IntOp::Shf { .. } => {
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
            op,
            rnd,
            ftz,
            sat: s_,
        } => {
            let ty = x.dests[0].1;
            Some(if ty == Type::F64 {
                let f = |i| f64::from_bits(arg(i));
                let r = f64_op(op, rnd, f(0), f(1), f(2));
                (if s_ { sat(r) } else { r }).to_bits()
            } else {
                let f = |i| {
                    let v = f32::from_bits(arg(i) as u32);
                    if ftz {
                        ftz32(v)
                    } else {
                        v
                    }
                };
                let r = f32_op(op, rnd, f(0), f(1), f(2));
                let r = if s_ { sat(r as f64) as f32 } else { r };
                (if ftz { ftz32(r) } else { r }).to_bits() as u64
            })
        }
        LaneOpKind::FSetp(cmp) => Some(compare(cmp, Type::F64, arg(0), arg(1)) as u64),
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
        | LaneOpKind::Bar => false,
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
            LaneOpKind::Ld(_) | LaneOpKind::St(_) | LaneOpKind::Cvta { .. } | LaneOpKind::Bar => {
                unreachable!("run by memory.rs and the scheduler")
            }
        }
    }
    for (i, r) in results.iter().enumerate() {
        for &(l, v, open) in r {
            w.write_nan(x.dests[i].0, l, v, open);
        }
    }
}
