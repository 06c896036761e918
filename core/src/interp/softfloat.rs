//! Exact IEEE 754 binary32 and binary64 arithmetic under the four
//! roundings: the value of `add`, `sub`, `mul`, `fma`, `div`, `sqrt` and
//! of the conversions to a float type, computed exactly in integers and
//! rounded once.
//!
//! The ISA's "Rounding Modifiers" (`.rn` nearest even, `.rz` toward zero,
//! `.rm` toward −∞, `.rp` toward +∞) round "the infinitely precise result"
//! (IEEE 754-2008, which the float instructions' pages cite): so the
//! result is the exact value rounded once, subnormal results included, an
//! overflow goes to the largest finite value where the rounding direction
//! points away from the infinity (`.rz`, `.rm` of a positive value, `.rp`
//! of a negative one), and an exact zero sum of opposite signs is −0 under
//! `.rm` and +0 otherwise (IEEE 754 §6.3). A first version computed with
//! the host's round-to-nearest floats and moved the result one step by the
//! sign of an error term; an H200 showed it wrong where that error term is
//! not representable (subnormal results: `mul.rp.f64` of the two smallest
//! subnormals is the smallest subnormal, not 0), on overflow (`div.rm.f64`
//! of a large value by the smallest subnormal is the largest finite value,
//! not +∞) and on the sign of zero sums (`sub.rm.f32 x, x` is −0).
//!
//! Only finite operands come here; the callers take NaN and infinite
//! operands (and division by zero) to the host's IEEE arithmetic, whose
//! results there do not depend on the rounding.

use crate::ir::Rounding;

/// A binary interchange format.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Format {
    /// binary32 (`.f32`).
    F32,
    /// binary64 (`.f64`).
    F64,
}

impl Format {
    /// Precision (significand bits with the hidden one), the smallest
    /// normal exponent, and the exponent bias.
    fn params(self) -> (i32, i32, i32) {
        match self {
            Format::F32 => (24, -126, 127),
            Format::F64 => (53, -1022, 1023),
        }
    }
}

/// A finite value `(−1)^neg · (m + δ) · 2^e` with `0 ≤ δ < 1`, where
/// `sticky` says whether `δ > 0`. Whenever `sticky` is set, `m` has at
/// least the format's precision plus two bits, so δ lies below the
/// rounding bit.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Exact {
    neg: bool,
    m: u128,
    e: i32,
    sticky: bool,
}

/// The number of significant bits of `m`.
fn bitlen(m: u128) -> i32 {
    128 - m.leading_zeros() as i32
}

/// A finite f64 (every f32 is one exactly) as an exact value.
pub(crate) fn exact(x: f64) -> Exact {
    let b = x.to_bits();
    let field = (b >> 52 & 0x7ff) as i32;
    let frac = (b & ((1 << 52) - 1)) as u128;
    let (m, e) = if field == 0 {
        (frac, -1074)
    } else {
        (frac | 1 << 52, field - 1075)
    };
    Exact {
        neg: b >> 63 == 1,
        m,
        e,
        sticky: false,
    }
}

/// An integer as an exact value.
pub(crate) fn exact_int(v: i128) -> Exact {
    Exact {
        neg: v < 0,
        m: v.unsigned_abs(),
        e: 0,
        sticky: false,
    }
}

/// The bits of a zero of `fmt` with the sign `neg`.
fn zero(fmt: Format, neg: bool) -> u64 {
    let sign_at = match fmt {
        Format::F32 => 31,
        Format::F64 => 63,
    };
    (neg as u64) << sign_at
}

/// `x` rounded once to `fmt` under `rnd`: the result's bits (an f32's in
/// the low 32).
pub(crate) fn round(x: Exact, fmt: Format, rnd: Rounding) -> u64 {
    let (p, emin, bias) = fmt.params();
    let sign = zero(fmt, x.neg);
    if x.m == 0 {
        debug_assert!(!x.sticky, "a sticky value keeps its leading bits");
        return sign;
    }
    // The exponent of the last bit kept: `p` bits below the leading one,
    // or the subnormal quantum.
    let top = x.e + bitlen(x.m) - 1;
    let mut q = top.max(emin) - (p - 1);
    let shift = q - x.e;
    debug_assert!(shift >= 2 || !x.sticky, "the rounding bit is exact");
    let (mut keep, round_bit, rest) = if shift <= 0 {
        (x.m << -shift, false, x.sticky)
    } else {
        let s = shift as u32;
        let keep = if s >= 128 { 0 } else { x.m >> s };
        let round_bit = s - 1 < 128 && x.m >> (s - 1) & 1 == 1;
        let below = if s > 128 {
            x.m
        } else {
            x.m & ((1u128 << (s - 1)) - 1)
        };
        (keep, round_bit, below != 0 || x.sticky)
    };
    let inexact = round_bit || rest;
    let up = match rnd {
        Rounding::Rn => round_bit && (rest || keep & 1 == 1),
        Rounding::Rz => false,
        Rounding::Rp => inexact && !x.neg,
        Rounding::Rm => inexact && x.neg,
    };
    keep += up as u128;
    if keep == 1 << p {
        keep >>= 1;
        q += 1;
    }
    if keep < 1 << (p - 1) {
        // Subnormal (or zero): the exponent field is 0.
        return sign | keep as u64;
    }
    let field = q + (p - 1) + bias;
    if field > 2 * bias {
        // Overflow: infinity, or the largest finite value where the
        // rounding points back toward zero.
        let to_inf = match rnd {
            Rounding::Rn => true,
            Rounding::Rz => false,
            Rounding::Rp => !x.neg,
            Rounding::Rm => x.neg,
        };
        let inf = ((2 * bias + 1) as u64) << (p - 1);
        return sign | if to_inf { inf } else { inf - 1 };
    }
    sign | (field as u64) << (p - 1) | (keep as u64 & ((1 << (p - 1)) - 1))
}

/// `x + y`, exact or with a sticky tail below 125 significant bits
/// (operands of at most 106 bits, neither sticky).
fn add_exact(x: Exact, y: Exact) -> Exact {
    if x.m == 0 {
        return y;
    }
    if y.m == 0 {
        return x;
    }
    let (big, small) = if x.e + bitlen(x.m) >= y.e + bitlen(y.m) {
        (x, y)
    } else {
        (y, x)
    };
    // The larger operand at the top of a 125-bit window; the smaller one
    // aligned to it, its bits below the window kept as a sticky tail.
    let up = 125 - bitlen(big.m);
    let (bm, be) = (big.m << up, big.e - up);
    let (sm, tail) = if small.e >= be {
        (small.m << (small.e - be), false)
    } else {
        let s = (be - small.e) as u32;
        if s >= 128 {
            (0, true)
        } else {
            (small.m >> s, small.m & ((1u128 << s) - 1) != 0)
        }
    };
    if big.neg == small.neg {
        return Exact {
            neg: big.neg,
            m: bm + sm,
            e: be,
            sticky: tail,
        };
    }
    // Opposite signs. A tail exists only when the smaller operand lies
    // far below the larger (at most 106 bits long), so `bm > sm` then.
    if tail {
        return Exact {
            neg: big.neg,
            m: bm - sm - 1,
            e: be,
            sticky: true,
        };
    }
    let (neg, m) = if bm >= sm {
        (big.neg, bm - sm)
    } else {
        (small.neg, sm - bm)
    };
    Exact {
        neg,
        m,
        e: be,
        sticky: false,
    }
}

/// The sign of an exact zero sum `a + b` of values whose signs are
/// `neg_a` and `neg_b` (IEEE 754 §6.3): the common sign when both agree,
/// else −0 under `.rm` and +0 otherwise.
fn zero_sum_sign(neg_a: bool, neg_b: bool, rnd: Rounding) -> bool {
    if neg_a == neg_b {
        neg_a
    } else {
        rnd == Rounding::Rm
    }
}

/// `a + b` of finite values, rounded to `fmt`.
pub(crate) fn add(a: f64, b: f64, fmt: Format, rnd: Rounding) -> u64 {
    let (x, y) = (exact(a), exact(b));
    let s = add_exact(x, y);
    if s.m == 0 && !s.sticky {
        return zero(fmt, zero_sum_sign(x.neg, y.neg, rnd));
    }
    round(s, fmt, rnd)
}

/// The exact product of two finite values.
fn mul_exact(x: Exact, y: Exact) -> Exact {
    Exact {
        neg: x.neg != y.neg,
        m: x.m * y.m,
        e: x.e + y.e,
        sticky: false,
    }
}

/// `a × b` of finite values, rounded to `fmt`.
pub(crate) fn mul(a: f64, b: f64, fmt: Format, rnd: Rounding) -> u64 {
    round(mul_exact(exact(a), exact(b)), fmt, rnd)
}

/// `a × b + c` of finite values, rounded once to `fmt`.
pub(crate) fn fma(a: f64, b: f64, c: f64, fmt: Format, rnd: Rounding) -> u64 {
    let p = mul_exact(exact(a), exact(b));
    let z = exact(c);
    let s = add_exact(p, z);
    if s.m == 0 && !s.sticky {
        return zero(fmt, zero_sum_sign(p.neg, z.neg, rnd));
    }
    round(s, fmt, rnd)
}

/// `a ÷ b` of finite values, `b ≠ 0`, rounded to `fmt`.
pub(crate) fn div(a: f64, b: f64, fmt: Format, rnd: Rounding) -> u64 {
    let (x, y) = (exact(a), exact(b));
    let neg = x.neg != y.neg;
    if x.m == 0 {
        return zero(fmt, neg);
    }
    // A dividend of 120 bits over a divisor of at most 53 leaves a
    // quotient of at least 67 bits; the remainder is the sticky tail.
    let up = 120 - bitlen(x.m);
    let n = x.m << up;
    round(
        Exact {
            neg,
            m: n / y.m,
            e: x.e - up - y.e,
            sticky: !n.is_multiple_of(y.m),
        },
        fmt,
        rnd,
    )
}

/// The integer square root of `n` (the largest `r` with `r² ≤ n`).
fn isqrt(n: u128) -> u128 {
    if n == 0 {
        return 0;
    }
    // The host's estimate is within a few units in its last place; one
    // Newton step and a final adjustment make it exact.
    let mut r = (n as f64).sqrt() as u128;
    if r > 0 {
        r = (r + n / r) / 2;
    }
    while r.checked_mul(r).is_none_or(|s| s > n) {
        r -= 1;
    }
    while (r + 1).checked_mul(r + 1).is_some_and(|s| s <= n) {
        r += 1;
    }
    r
}

/// `√a` of a finite `a > 0`, rounded to `fmt`.
pub(crate) fn sqrt(a: f64, fmt: Format, rnd: Rounding) -> u64 {
    let x = exact(a);
    // About 120 bits under the root, with an even exponent, leave a root
    // of at least 60 bits; the remainder is the sticky tail.
    let mut up = 120 - bitlen(x.m);
    if (x.e - up) % 2 != 0 {
        up += 1;
    }
    let n = x.m << up;
    let r = isqrt(n);
    round(
        Exact {
            neg: false,
            m: r,
            e: (x.e - up) / 2,
            sticky: r * r != n,
        },
        fmt,
        rnd,
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use Rounding::{Rm, Rn, Rp, Rz};

    const ALL: [Rounding; 4] = [Rn, Rz, Rm, Rp];

    /// One operation on fixed operands, by rounding.
    type RoundedOp<'a> = Box<dyn Fn(Rounding) -> u64 + 'a>;

    fn f(bits: u64) -> f64 {
        f64::from_bits(bits)
    }

    /// Values from the H200 (sm_90, driver 580.159.04, every level from
    /// -O0): each is a GPU result the first version of this module got
    /// wrong, reduced by `warpdiff fuzz --seed 0x3503` on 2026-11-27.
    #[test]
    fn h200_results() {
        let tiny = f(1);
        let cases: [(u64, u64); 12] = [
            // mul.rp.f64 of the two smallest subnormals: the smallest.
            (mul(tiny, tiny, Format::F64, Rp), 1),
            // mul.rz.f64 31·2⁻¹⁰⁷⁴ × 4.5 = 139.5·2⁻¹⁰⁷⁴ → 139.
            (mul(f(31), 4.5, Format::F64, Rz), 0x8b),
            // div.rm.f64 of 2⁻¹⁰⁷⁴ by 25·2⁻¹⁰⁷⁴ = 0.04, below its nearest.
            (div(tiny, f(25), Format::F64, Rm), 0x3fa4_7ae1_47ae_147a),
            // div.rp.f64 1/28, above its nearest.
            (div(tiny, f(28), Format::F64, Rp), 0x3fa2_4924_9249_2493),
            // div.rm.f64 overflowing: the largest finite value.
            (
                div(f(0x47ef_ffff_f000_0000), tiny, Format::F64, Rm),
                0x7fef_ffff_ffff_ffff,
            ),
            // div.rz.f64 overflowing negative: the most negative finite.
            (
                div(f(0xf160_8d64_9be6_00fb), tiny, Format::F64, Rz),
                0xffef_ffff_ffff_ffff,
            ),
            // fma.rz.f64 −2²⁹·2⁻¹⁰⁷⁴ + 1: just below 1.
            (
                fma(f(0xc1c0_0000_0000_0000), tiny, 1.0, Format::F64, Rz),
                0x3fef_ffff_ffff_ffff,
            ),
            // fma.rz.f64 2⁻¹⁰⁷⁴ × −0.25 + 2⁻¹⁰⁷⁴ = 0.75·2⁻¹⁰⁷⁴ → 0.
            (fma(tiny, -0.25, tiny, Format::F64, Rz), 0),
            // fma.rm.f64 +0 × negative + +0: an exact zero sum, −0.
            (
                fma(0.0, f(0xa4e1_a9d5_7ac3_07e8), 0.0, Format::F64, Rm),
                1 << 63,
            ),
            // sqrt.rz.f64 of 28·2⁻¹⁰⁷⁴.
            (sqrt(f(28), Format::F64, Rz), 0x1e85_2a7f_a9d2_f8e9),
            // sub.rm.f32 x − x: −0.
            (
                add(
                    f32::from_bits(1) as f64,
                    -(f32::from_bits(1) as f64),
                    Format::F32,
                    Rm,
                ),
                0x8000_0000,
            ),
            // fma.rm.f64 of (1/3 + ε)² + 32767.
            (
                fma(
                    f(0x3fd5_5555_6000_0000),
                    f(0x3fd5_5555_6000_0000),
                    f(0x40df_ffc0_0000_0000),
                    Format::F64,
                    Rm,
                ),
                0x40df_ffc7_1c71_ce38,
            ),
        ];
        for (i, (got, want)) in cases.iter().enumerate() {
            assert_eq!(got, want, "case {i}: {got:#x} != {want:#x}");
        }
    }

    /// Hand-computed: 1 + 2⁻⁵³ is halfway between 1 and 1 + 2⁻⁵²; each
    /// rounding picks its side.
    #[test]
    fn halfway_and_directed() {
        let h = f(0x3ca0_0000_0000_0000); // 2⁻⁵³
        let one = 1f64.to_bits();
        assert_eq!(add(1.0, h, Format::F64, Rn), one, "ties to even");
        assert_eq!(add(1.0, h, Format::F64, Rz), one);
        assert_eq!(add(1.0, h, Format::F64, Rm), one);
        assert_eq!(add(1.0, h, Format::F64, Rp), one + 1);
        assert_eq!(add(-1.0, -h, Format::F64, Rm), (-1f64).to_bits() + 1);
        assert_eq!(add(-1.0, -h, Format::F64, Rp), (-1f64).to_bits());
        // 1 + 3·2⁻⁵³ is halfway between 1 + 2⁻⁵² and 1 + 2·2⁻⁵²: to even.
        assert_eq!(add(1.0, 3.0 * h, Format::F64, Rn), one + 2);
        // Far apart: 1 + 2⁻¹⁰⁷⁴ is just above 1.
        assert_eq!(add(1.0, f(1), Format::F64, Rp), one + 1);
        assert_eq!(add(1.0, -f(1), Format::F64, Rm), one - 1);
        assert_eq!(add(1.0, -f(1), Format::F64, Rn), one);
    }

    /// Hand-computed overflow and underflow for binary32.
    #[test]
    fn f32_edges() {
        let max = f32::MAX as f64;
        assert_eq!(add(max, max, Format::F32, Rn), 0x7f80_0000);
        assert_eq!(add(max, max, Format::F32, Rz), 0x7f7f_ffff);
        assert_eq!(add(-max, -max, Format::F32, Rp), 0xff7f_ffff);
        assert_eq!(add(-max, -max, Format::F32, Rm), 0xff80_0000);
        let t = f32::from_bits(1) as f64; // 2⁻¹⁴⁹
        assert_eq!(mul(t, 0.5, Format::F32, Rn), 0, "halfway: to even 0");
        assert_eq!(mul(t, 0.75, Format::F32, Rn), 1);
        assert_eq!(mul(t, 0.5, Format::F32, Rp), 1);
        assert_eq!(mul(-t, 0.5, Format::F32, Rp), 0x8000_0000);
        // 2²⁴ + 1 is not an f32: halfway, to even 2²⁴.
        assert_eq!(
            round(exact_int((1 << 24) + 1), Format::F32, Rn),
            16777216f32.to_bits() as u64
        );
        assert_eq!(
            round(exact_int((1 << 24) + 1), Format::F32, Rp),
            16777218f32.to_bits() as u64
        );
        assert_eq!(
            round(exact_int(-3), Format::F32, Rn),
            (-3f32).to_bits() as u64
        );
    }

    /// Properties every rounding has (IEEE 754 §4.3): `.rm ≤ exact ≤
    /// .rp`, the two one step apart or equal, `.rz` the one nearer zero,
    /// and `.rn` one of them, equal to the host's IEEE result for f64.
    #[test]
    fn roundings_bracket_the_host_result() {
        let mut s = 0x9e37_79b9_7f4a_7c15u64;
        let mut next = || {
            s ^= s << 13;
            s ^= s >> 7;
            s ^= s << 17;
            s
        };
        let pick = |r: u64| -> f64 {
            // Mostly small exponents, some subnormal and huge ones.
            let e = match r % 8 {
                0 => 0,
                1 => 2046,
                _ => 1023 + (r >> 8) % 80 - 40,
            };
            f((r >> 63) << 63 | e << 52 | (r >> 3) & ((1 << 52) - 1))
        };
        for _ in 0..20000 {
            let (a, b, c) = (pick(next()), pick(next()), pick(next()));
            let ops: [(&str, f64, RoundedOp); 5] = [
                ("add", a + b, Box::new(|r| add(a, b, Format::F64, r))),
                ("mul", a * b, Box::new(|r| mul(a, b, Format::F64, r))),
                (
                    "fma",
                    a.mul_add(b, c),
                    Box::new(|r| fma(a, b, c, Format::F64, r)),
                ),
                ("div", a / b, Box::new(|r| div(a, b, Format::F64, r))),
                (
                    "sqrt",
                    a.abs().sqrt(),
                    Box::new(|r| sqrt(a.abs(), Format::F64, r)),
                ),
            ];
            for (name, host, op) in ops {
                if !host.is_finite() || (name == "sqrt" && a == 0.0) || (name == "div" && b == 0.0)
                {
                    continue;
                }
                let [rn, rz, rm, rp] = ALL.map(|r| f(op(r)));
                assert_eq!(rn.to_bits(), host.to_bits(), "{name} {a:e} {b:e} {c:e}");
                assert!(rm <= rp, "{name} {a:e} {b:e} {c:e}");
                assert!(rn == rm || rn == rp, "{name}");
                if rm != rp {
                    let step = if rm == 0.0 && rp == 0.0 {
                        true
                    } else {
                        let up = if rm >= 0.0 {
                            f(rm.to_bits() + 1)
                        } else if rm.to_bits() == 0x8000_0000_0000_0001 {
                            -0.0
                        } else {
                            f(rm.to_bits() - 1)
                        };
                        up == rp || (up == 0.0 && rp == 0.0)
                    };
                    assert!(step, "{name} {a:e} {b:e}: {rm:e} {rp:e} not adjacent");
                }
                let toward_zero = if rm >= 0.0 && rp > 0.0 { rm } else { rp };
                assert!(
                    rz == toward_zero || (rz == 0.0 && toward_zero == 0.0),
                    "{name} {a:e} {b:e}: rz {rz:e}"
                );
            }
            // binary32: the host's f32 arithmetic is IEEE round to nearest.
            let (x, y, z) = (a as f32, b as f32, c as f32);
            if x == 0.0 || y == 0.0 || !x.is_finite() || !y.is_finite() || !z.is_finite() {
                continue;
            }
            let f32s: [(&str, f32, u64); 5] = [
                ("add", x + y, add(x as f64, y as f64, Format::F32, Rn)),
                ("mul", x * y, mul(x as f64, y as f64, Format::F32, Rn)),
                (
                    "fma",
                    x.mul_add(y, z),
                    fma(x as f64, y as f64, z as f64, Format::F32, Rn),
                ),
                ("div", x / y, div(x as f64, y as f64, Format::F32, Rn)),
                (
                    "sqrt",
                    x.abs().sqrt(),
                    sqrt(x.abs() as f64, Format::F32, Rn),
                ),
            ];
            for (name, host, ours) in f32s {
                if !host.is_finite() {
                    continue;
                }
                assert_eq!(ours, host.to_bits() as u64, "f32 {name} {x:e} {y:e} {z:e}");
            }
        }
    }
}
