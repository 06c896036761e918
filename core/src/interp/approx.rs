//! What the reference says about an approximate result (`ex2.approx`,
//! `rcp.approx`, `div.full`, ...: [`ApproxFn`], whose docs quote each
//! bound and special-value table of the PTX ISA).
//!
//! The ISA bounds each function's error, not its value. So the reference
//! computes the exact function (in f64, a few f64 ulps from the true
//! value: a relative slack of 2^-46 widens every interval by more than that),
//! then the interval of values the ISA allows around it:
//!
//! - "n ulp from correctly rounded result" (`ex2` 2, `rcp` 1, `div.approx`
//!   2, `div.full` 2): `[c − n·ulp(c), c + n·ulp(c)]`, `c` the exact value
//!   rounded to nearest f32 (both neighbours where the f64 value is within
//!   the slack of a midpoint) and `ulp(c)` the spacing of `c`'s binade (so
//!   below a power of two twice as many f32 values fit); past the largest
//!   finite value `±∞` counts as the next value;
//! - a relative bound `r` (`lg2` outside (0.5, 2), `rsqrt` 2^-22.9, `sqrt`
//!   2^-23, `tanh` 2^-11): `[v − |v|·r, v + |v|·r]`;
//! - an absolute bound `a` (`lg2` on (0.5, 2) 2^-22, `sin`/`cos` 2^-20.5
//!   on [−2π, 2π], 2^-14.7 on [−100π, 100π]): `[v − a, v + a]`;
//! - no bound (`sin`/`cos` outside [−100π, 100π], `rsqrt.approx.f64`,
//!   `rcp`/`rsqrt.approx.ftz.f64` of a normal input, `div.approx` by a
//!   subnormal, an input no table row names): every bit undefined, but the
//!   low 32 bits of `rcp`/`rsqrt.approx.ftz.f64`, which the ISA sets to 0.
//!
//! The possible results are the f32 values in that interval (both zeros
//! when it holds 0; under `.ftz`, a subnormal becomes the zero of its sign,
//! as "flushes subnormal inputs and results to sign-preserving zero"
//! says). A bit is *defined* when every possible result has it alike: for
//! finite floats of one sign the bit patterns are ordered like the values,
//! so over one sign's part of the interval those are the common high bits
//! of its two ends' patterns; the parts of both signs (and a zero a flush
//! adds) are combined bit by bit. An interval that crosses an exponent
//! boundary thus defines fewer bits; one that crosses zero leaves the sign
//! undefined, and every bit below it but where `±0` alone are possible.
//! Inputs the ISA's tables give (±0, ±∞, NaN, subnormals under `.ftz`)
//! give exact, fully defined results; a NaN result has open bits (any
//! NaN, as for the other float instructions), but the canonical
//! `0x7fffffff00000000` the `.ftz.f64` pages name.
//!
//! A value computed from a partly defined one: float instructions need
//! every input bit defined (`bits.rs`), so an `add.f32` of it is wholly
//! undefined; `mov`, `selp`, `shfl`, stores and the bitwise glue carry
//! the defined bits as they are.

use super::bits::Val;
use crate::ir::{ApproxFn, FloatOp, LaneOp, LaneOpKind, Type};

/// Relative slack on every f64 value computed here (`exp2`, `log2`, `sin`,
/// `cos`, `tanh` of the host's libm are within one or two f64 ulps, 2^-52;
/// `/` and `sqrt` are correctly rounded): 2^-46, so that the interval
/// holds every value the ISA allows around the true result.
const SLACK: f64 = 1.0 / (1u64 << 46) as f64;

/// An f32 NaN with open bits.
const NAN32: u64 = 0x7fff_ffff;

/// An f64 NaN with open bits.
const NAN64: u64 = 0x7fff_ffff_ffff_ffff;

/// The canonical NaN of `rcp.approx.ftz.f64` and `rsqrt.approx.ftz.f64`:
/// "Input NaNs map to a canonical NaN with encoding 0x7fffffff00000000."
const CANONICAL_FTZ64: u64 = 0x7fff_ffff_0000_0000;

/// What the reference knows of one approximate result.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Approx {
    /// The value's bits (an f32's in the low 32), meaningful where
    /// `defined` has a 1.
    pub value: u64,
    /// The bits every result the ISA allows shares (an f32's low 32 bits;
    /// the upper ones are set).
    pub defined: u64,
    /// Whether it is a NaN whose bits PTX leaves open (any NaN matches).
    pub open_nan: bool,
}

impl Approx {
    /// A fully defined result.
    pub fn exact(value: u64) -> Approx {
        Approx {
            value,
            defined: u64::MAX,
            open_nan: false,
        }
    }

    /// A NaN with open bits, of `ty`.
    fn nan(ty: Type) -> Approx {
        Approx {
            value: if ty == Type::F64 { NAN64 } else { NAN32 },
            defined: u64::MAX,
            open_nan: true,
        }
    }

    /// Nothing defined.
    fn undefined() -> Approx {
        Approx {
            value: 0,
            defined: 0,
            open_nan: false,
        }
    }

    /// Whether every bit of a `ty` value is defined.
    pub fn full(self, ty: Type) -> bool {
        self.defined & ty.mask() == ty.mask()
    }

    /// As the interpreter's register value.
    pub(crate) fn val(self) -> Val {
        Val {
            v: self.value,
            d: self.defined,
        }
    }
}

/// The result of the approximate lane op `x` (a [`FloatOp::Approx`]) on
/// its sources' bits, `None` for any other instruction.
pub fn eval_op(x: &LaneOp, args: [u64; 4]) -> Option<Approx> {
    match x.kind {
        LaneOpKind::Float {
            op: FloatOp::Approx(f),
            ftz,
            ..
        } => Some(eval(f, x.dests[0].1, ftz, args[0], args[1])),
        _ => None,
    }
}

/// `f{.ftz}.ty` of `a` (and `b` for the divisions), as bits.
pub fn eval(f: ApproxFn, ty: Type, ftz: bool, a: u64, b: u64) -> Approx {
    if ty == Type::F64 {
        return match (f, ftz) {
            (ApproxFn::Rcp | ApproxFn::Rsqrt, true) => upper_word(f, a),
            (ApproxFn::Rsqrt, false) => rsqrt64(a),
            // No such form (`ApproxFn::takes`).
            _ => Approx::undefined(),
        };
    }
    let flush = |x: u64| {
        let x = f32::from_bits(x as u32);
        if ftz && x.is_subnormal() {
            0.0f32.copysign(x)
        } else {
            x
        }
    };
    let (x, y) = (flush(a), flush(b));
    let set = Interval::f32(ftz);
    match f {
        ApproxFn::Ex2 => ex2(x, set),
        ApproxFn::Lg2 => lg2(x, set),
        ApproxFn::Rcp => rcp(x, set),
        ApproxFn::Rsqrt => rsqrt32(x, set),
        ApproxFn::Sqrt => sqrt(x, set),
        ApproxFn::Sin | ApproxFn::Cos => sin_cos(f == ApproxFn::Sin, x, set),
        ApproxFn::Tanh => tanh(x, set),
        ApproxFn::Div => div_approx(x, y, set),
        ApproxFn::DivFull => div_full(x, y, set),
    }
}

/// An f32 result, exact.
fn exact32(x: f32) -> Approx {
    Approx::exact(x.to_bits() as u64)
}

/// How to turn an interval of values into the bits its f32s share.
#[derive(Clone, Copy)]
struct Interval {
    /// `.ftz`: subnormal results become the zero of their sign.
    ftz: bool,
}

impl Interval {
    fn f32(ftz: bool) -> Interval {
        Interval { ftz }
    }

    /// Within `n` ulps of the correctly rounded `v`.
    fn ulps(self, v: f64, n: u32) -> Approx {
        if v.is_nan() {
            return Approx::nan(Type::F32);
        }
        let (c0, c1) = if v.is_infinite() {
            (v as f32, v as f32)
        } else {
            (round32(v - v.abs() * SLACK), round32(v + v.abs() * SLACK))
        };
        let (lo, hi) = (c0.min(c1), c0.max(c1));
        self.values(step(lo, -(n as i32)), step(hi, n as i32))
    }

    /// Within `r·|v|` of `v`.
    fn relative(self, v: f64, r: f64) -> Approx {
        let d = v.abs() * (r + SLACK);
        self.bounds(v - d, v + d)
    }

    /// Within `a` of `v`.
    fn absolute(self, v: f64, a: f64) -> Approx {
        let d = a * (1.0 + SLACK) + v.abs() * SLACK;
        self.bounds(v - d, v + d)
    }

    /// The f32 values in `[lo, hi]` (past the largest finite value, the
    /// infinity of that sign too).
    fn bounds(self, lo: f64, hi: f64) -> Approx {
        self.values(up32(lo), down32(hi))
    }

    /// The bits every f32 value in `[lo, hi]` shares (both zeros when it
    /// holds 0; under `.ftz`, subnormals replaced by the zero of their
    /// sign).
    fn values(self, lo: f32, hi: f32) -> Approx {
        if lo.is_nan() || hi.is_nan() || lo > hi {
            return Approx::undefined();
        }
        // Ranges of bit patterns, each of one sign, ordered by magnitude.
        let mut ranges: Vec<(u32, u32)> = Vec::new();
        if hi >= 0.0 {
            let from = if lo <= 0.0 { 0 } else { lo.to_bits() };
            let to = if hi == 0.0 { 0 } else { hi.to_bits() };
            ranges.push((from, to));
        }
        if lo <= 0.0 {
            let from = if hi >= 0.0 { 0x8000_0000 } else { hi.to_bits() };
            let to = if lo == 0.0 { 0x8000_0000 } else { lo.to_bits() };
            ranges.push((from, to));
        }
        if self.ftz {
            ranges = ranges.into_iter().flat_map(flush_range).collect();
        }
        let first = ranges[0].0;
        let mut mask = u32::MAX;
        for &(p, q) in &ranges {
            mask &= common_high_bits(p, q) & !(p ^ first);
        }
        Approx {
            value: first as u64,
            defined: !0xffff_ffffu64 | mask as u64,
            open_nan: false,
        }
    }
}

/// The bits above the highest one where `p` and `q` differ (every integer
/// from `p` to `q` has them alike, and no other bit).
fn common_high_bits(p: u32, q: u32) -> u32 {
    match p ^ q {
        0 => u32::MAX,
        x => !(u32::MAX >> x.leading_zeros()),
    }
}

/// A range of one sign's patterns with its subnormals flushed to the zero
/// of that sign: up to two ranges.
fn flush_range((p, q): (u32, u32)) -> Vec<(u32, u32)> {
    const MAX_SUBNORMAL: u32 = 0x007f_ffff;
    let sign = p & 0x8000_0000;
    let (mp, mq) = (p & 0x7fff_ffff, q & 0x7fff_ffff);
    if mp > MAX_SUBNORMAL || mq == 0 {
        return vec![(p, q)];
    }
    let mut v = vec![(sign, sign)];
    if mq > MAX_SUBNORMAL {
        v.push((sign | (MAX_SUBNORMAL + 1), q));
    }
    v
}

/// `v` rounded to the nearest f32 (ties to even; past the largest finite
/// value, infinity).
fn round32(v: f64) -> f32 {
    v as f32
}

/// The smallest f32 at or above `v` (`+∞` past the largest finite value).
fn up32(v: f64) -> f32 {
    let r = v as f32;
    if (r as f64) < v {
        next32(r, 1)
    } else if r == f32::NEG_INFINITY && v > f64::NEG_INFINITY {
        -f32::MAX
    } else if v > f32::MAX as f64 {
        f32::INFINITY
    } else {
        r
    }
}

/// The largest f32 at or below `v` (`−∞` past the most negative finite
/// value).
fn down32(v: f64) -> f32 {
    -up32(-v)
}

/// The f32 `k` steps of one ulp of its binade away from `c` (`k` > 0
/// upward): `c + k·ulp(c)` as a value, where `ulp(c)` is the spacing of
/// the binade `c` is in (below a power of two, twice as many f32 values
/// fit), rounded outward to an f32; `±∞` is the step past the largest
/// finite value, and a step from `±∞` goes one value toward zero.
fn step(c: f32, k: i32) -> f32 {
    if c.is_infinite() {
        // `±∞` is one step past `±MAX`.
        let n = k.abs() - 1;
        return match (c > 0.0, k > 0) {
            (true, true) | (false, false) => c,
            (true, false) => next32(f32::MAX, -n),
            (false, true) => next32(-f32::MAX, n),
        };
    }
    let v = c as f64 + k as f64 * ulp(c);
    if k > 0 {
        up32(v)
    } else {
        down32(v)
    }
}

/// The spacing of the f32 binade `c` is in (of the subnormals for 0).
fn ulp(c: f32) -> f64 {
    let e = (c.to_bits() >> 23) & 0xff;
    2f64.powi(e.max(1) as i32 - 127 - 23)
}

/// The f32 `k` representable values after `x` (before, for `k` < 0),
/// along the real line (`−0` and `+0` count as one).
fn next32(x: f32, k: i32) -> f32 {
    // Ordered integer key: negative values below zero.
    let key = |x: f32| {
        let b = x.to_bits();
        if b & 0x8000_0000 != 0 {
            -((b & 0x7fff_ffff) as i64)
        } else {
            b as i64
        }
    };
    let n = key(x) + k as i64;
    let lim = 0x7f80_0000i64;
    let n = n.clamp(-lim, lim);
    if n < 0 {
        f32::from_bits(0x8000_0000 | (-n) as u32)
    } else {
        f32::from_bits(n as u32)
    }
}

/// `ex2.approx.f32`.
fn ex2(x: f32, set: Interval) -> Approx {
    if x.is_nan() {
        return Approx::nan(Type::F32);
    }
    if x == f32::NEG_INFINITY {
        return exact32(0.0);
    }
    if x == f32::INFINITY {
        return exact32(f32::INFINITY);
    }
    if x == 0.0 {
        return exact32(1.0);
    }
    set.ulps((x as f64).exp2(), 2)
}

/// `lg2.approx.f32`.
fn lg2(x: f32, set: Interval) -> Approx {
    if x.is_nan() || x == f32::NEG_INFINITY || (x < 0.0 && x.is_normal()) {
        return Approx::nan(Type::F32);
    }
    if x == 0.0 {
        return exact32(f32::NEG_INFINITY);
    }
    if x == f32::INFINITY {
        return exact32(f32::INFINITY);
    }
    if x < 0.0 {
        // A negative subnormal without `.ftz`: in no row of the table.
        return Approx::undefined();
    }
    let v = (x as f64).log2();
    if x > 0.5 && x < 2.0 {
        set.absolute(v, 2f64.powi(-22))
    } else {
        set.relative(v, 2f64.powi(-22))
    }
}

/// `rcp.approx.f32`.
fn rcp(x: f32, set: Interval) -> Approx {
    if x.is_nan() {
        return Approx::nan(Type::F32);
    }
    if x.is_infinite() || x == 0.0 {
        // ∓Inf → ∓0.0, ∓0.0 → ∓Inf.
        return exact32(1.0 / x);
    }
    set.ulps(1.0 / x as f64, 1)
}

/// `rsqrt.approx.f32`.
fn rsqrt32(x: f32, set: Interval) -> Approx {
    if let Some(r) = rsqrt_table(x as f64, Type::F32) {
        return r;
    }
    set.relative(1.0 / (x as f64).sqrt(), (-22.9f64).exp2())
}

/// `rsqrt`'s table (−Inf → NaN, −normal → NaN, −0.0 → −Inf, +0.0 → +Inf,
/// +Inf → +0.0, NaN → NaN) for `x` of `ty`, undefined for a negative
/// subnormal (in no row); `None` for a positive finite `x`.
fn rsqrt_table(x: f64, ty: Type) -> Option<Approx> {
    let exact = |v: f64| {
        Approx::exact(if ty == Type::F64 {
            v.to_bits()
        } else {
            (v as f32).to_bits() as u64
        })
    };
    let min_normal = if ty == Type::F64 {
        f64::MIN_POSITIVE
    } else {
        f32::MIN_POSITIVE as f64
    };
    Some(
        if x.is_nan() || x == f64::NEG_INFINITY || x <= -min_normal {
            Approx::nan(ty)
        } else if x == 0.0 {
            exact(1.0 / x)
        } else if x == f64::INFINITY {
            exact(0.0)
        } else if x < 0.0 {
            Approx::undefined()
        } else {
            return None;
        },
    )
}

/// `rsqrt.approx.f64`: the table; no error bound for the rest.
fn rsqrt64(a: u64) -> Approx {
    rsqrt_table(f64::from_bits(a), Type::F64).unwrap_or_else(Approx::undefined)
}

/// `rcp.approx.ftz.f64` and `rsqrt.approx.ftz.f64`: the tables on the upper
/// word `a[63:32]` (1.11.20 format, the lower word ignored), and
/// `d[31:0] = 0x00000000` always.
fn upper_word(f: ApproxFn, a: u64) -> Approx {
    let hi = (a >> 32) as u32;
    let negative = hi & 0x8000_0000 != 0;
    let exp = (hi >> 20) & 0x7ff;
    let frac = hi & 0x000f_ffff;
    let inf = 0x7ff0_0000_0000_0000u64;
    let sign = (negative as u64) << 63;
    if exp == 0x7ff && frac != 0 {
        return Approx::exact(CANONICAL_FTZ64);
    }
    let rsqrt = f == ApproxFn::Rsqrt;
    if exp == 0x7ff {
        // ±Inf: rcp gives ±0.0; rsqrt +0.0 for +Inf, a NaN for −Inf.
        return match (rsqrt, negative) {
            (true, true) => Approx {
                value: CANONICAL_FTZ64,
                defined: u64::MAX,
                open_nan: true,
            },
            (true, false) => Approx::exact(0),
            (false, _) => Approx::exact(sign),
        };
    }
    if exp == 0 {
        // ±0.0 and ±subnormal: ±Inf (both functions).
        return Approx::exact(sign | inf);
    }
    // A normal input: no error bound; the lower word is 0.
    Approx {
        value: 0,
        defined: 0xffff_ffff,
        open_nan: false,
    }
}

/// `sqrt.approx.f32`.
fn sqrt(x: f32, set: Interval) -> Approx {
    if x.is_nan() || x == f32::NEG_INFINITY || (x < 0.0 && x.is_normal()) {
        return Approx::nan(Type::F32);
    }
    if x == 0.0 || x == f32::INFINITY {
        return exact32(x);
    }
    if x < 0.0 {
        return Approx::undefined();
    }
    set.relative((x as f64).sqrt(), 2f64.powi(-23))
}

/// 2π rounded down: the f64 `TAU` is twice the f64 `PI`, which is below
/// π (an input between this and the true bound, if any f32 were there,
/// would get the looser bound: safe).
const TWO_PI_BELOW: f64 = std::f64::consts::TAU;
/// 100π rounded down.
const HUNDRED_PI_BELOW: f64 = 314.159_265_358_979;

/// `sin.approx.f32` (`sine`) and `cos.approx.f32`.
fn sin_cos(sine: bool, x: f32, set: Interval) -> Approx {
    if x.is_nan() || x.is_infinite() {
        return Approx::nan(Type::F32);
    }
    if x == 0.0 {
        return exact32(if sine { x } else { 1.0 });
    }
    let a = (x as f64).abs();
    let bound = if a <= TWO_PI_BELOW {
        (-20.5f64).exp2()
    } else if a <= HUNDRED_PI_BELOW {
        (-14.7f64).exp2()
    } else {
        return Approx::undefined();
    };
    let x = x as f64;
    set.absolute(if sine { x.sin() } else { x.cos() }, bound)
}

/// `tanh.approx.f32`.
fn tanh(x: f32, set: Interval) -> Approx {
    if x.is_nan() {
        return Approx::nan(Type::F32);
    }
    if x.is_infinite() {
        return exact32(1.0f32.copysign(x));
    }
    if x == 0.0 || x.is_subnormal() {
        // "The subnormal inputs gets passed through to the output."
        return exact32(x);
    }
    set.relative((x as f64).tanh(), 2f64.powi(-11))
}

/// The sign bit of `a / b`.
fn quotient_sign(a: f32, b: f32) -> f32 {
    if a.is_sign_negative() != b.is_sign_negative() {
        -1.0
    } else {
        1.0
    }
}

/// `div.approx.f32`: `d = a * (1/b)`.
fn div_approx(a: f32, b: f32, set: Interval) -> Approx {
    if a.is_nan() || b.is_nan() {
        return Approx::nan(Type::F32);
    }
    let s = quotient_sign(a, b);
    let m = b.abs() as f64;
    if b == 0.0 || b.is_infinite() {
        // 1/b is ±Inf or ±0.0 (`rcp`'s table), then an exact product:
        // 0·Inf and Inf·0 are NaN.
        return if (a == 0.0 && b == 0.0) || (a.is_infinite() && b.is_infinite()) {
            Approx::nan(Type::F32)
        } else if b == 0.0 {
            exact32(f32::INFINITY * s)
        } else {
            exact32(0.0 * s)
        };
    }
    if m < 2f64.powi(-126) {
        // A subnormal divisor without `.ftz`: in no range the ISA bounds.
        return Approx::undefined();
    }
    if m > 2f64.powi(126) {
        // "if a is infinity, div.approx.f32 returns NaN, otherwise it
        // returns a sign-preserving zero": which sign is not said.
        return if a.is_infinite() {
            Approx::nan(Type::F32)
        } else {
            Approx {
                value: 0,
                defined: !0x8000_0000,
                open_nan: false,
            }
        };
    }
    if a.is_infinite() || a == 0.0 {
        // 1/b is finite and not zero: the product is exact.
        return exact32(a.abs() * s);
    }
    set.ulps(a as f64 / b as f64, 2)
}

/// `div.full.f32`: 2 ulps from `a / b` correctly rounded (a NaN where
/// that is a NaN).
fn div_full(a: f32, b: f32, set: Interval) -> Approx {
    set.ulps(a as f64 / b as f64, 2)
}
