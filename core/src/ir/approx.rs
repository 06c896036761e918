//! The approximate float functions (issue #37, item 3): `ex2`, `lg2`,
//! `rcp`, `rsqrt`, `sqrt`, `sin`, `cos`, `tanh` with `.approx`, and
//! `div.approx`/`div.full`, as [`FloatOp::Approx`](super::FloatOp) of a
//! [`LaneOpKind::Float`](super::LaneOpKind) (whose rounding is `.rn`, not
//! written, and `.sat` never set). Which forms exist ([`ApproxFn::takes`])
//! and how they are spelled live here; what the reference computes for
//! them (an interval the ISA allows, and the bits every value of it
//! shares) is `interp::approx`'s.
//!
//! Each variant's doc quotes its PTX ISA page ("Floating Point
//! Instructions", §9.7.3, ISA 9.x:
//! <https://docs.nvidia.com/cuda/parallel-thread-execution/#floating-point-instructions>):
//! the error bound and the table of special inputs, which the reference
//! gives exactly.

use super::Type;

/// An approximate float function.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ApproxFn {
    /// `ex2.approx{.ftz}.f32 d, a` (§9.7.3.21): "Raise 2 to the power a".
    /// "The maximum ulp error is 2 ulp from correctly rounded result across
    /// the full range of inputs." Table: −Inf → +0.0, −0.0 → +1.0, +0.0 →
    /// +1.0, +Inf → +Inf, NaN → NaN. "`ex2.ftz.f32` flushes subnormal
    /// inputs and results to sign-preserving zero."
    Ex2,
    /// `lg2.approx{.ftz}.f32 d, a` (§9.7.3.20): "The maximum absolute error
    /// is 2^-22 when the input operand is in the range (0.5, 2). For
    /// positive finite inputs outside of this interval, maximum relative
    /// error is 2^-22." Table: −Inf → NaN, −normal → NaN, −0.0 → −Inf,
    /// +0.0 → −Inf, +Inf → +Inf, NaN → NaN (a negative subnormal without
    /// `.ftz` is in no row: undefined).
    Lg2,
    /// `rcp.approx{.ftz}.f32 d, a` (§9.7.3.13): "The maximum ulp error is 1
    /// across the full range of inputs." Table: −Inf → −0.0, −0.0 → −Inf,
    /// +0.0 → +Inf, +Inf → +0.0, NaN → NaN.
    ///
    /// `rcp.approx.ftz.f64 d, a` (§9.7.3.14): "Compute a fast, gross
    /// approximation to the reciprocal", `tmp = a[63:32]; d[63:32] = 1.0 /
    /// tmp; d[31:0] = 0x00000000;` — no error bound. Table on `a[63:32]`
    /// (1.11.20 format): −Inf → −0.0, −subnormal → −Inf, −0.0 → −Inf, +0.0
    /// → +Inf, +subnormal → +Inf, +Inf → +0.0, NaN → NaN; "Input NaNs map
    /// to a canonical NaN with encoding 0x7fffffff00000000."
    Rcp,
    /// `rsqrt.approx{.ftz}.f32`, `rsqrt.approx.f64` (§9.7.3.16): "The
    /// maximum relative error for rsqrt.f32 over the entire positive finite
    /// floating-point range is 2^-22.9" (none for `.f64`). Table: −Inf →
    /// NaN, −normal → NaN, −0.0 → −Inf, +0.0 → +Inf, +Inf → +0.0, NaN →
    /// NaN.
    ///
    /// `rsqrt.approx.ftz.f64` (§9.7.3.17): `tmp = a[63:32]; d[63:32] = 1.0
    /// / sqrt(tmp); d[31:0] = 0x00000000;`, no error bound. Table on
    /// `a[63:32]`: −Inf → NaN, −subnormal → −Inf, −0.0 → −Inf, +0.0 → +Inf,
    /// +subnormal → +Inf, +Inf → +0.0, NaN → NaN; "Input NaNs map to a
    /// canonical NaN with encoding 0x7fffffff00000000."
    Rsqrt,
    /// `sqrt.approx{.ftz}.f32` (§9.7.3.15): "The maximum relative error
    /// over the entire positive finite floating-point range is 2^-23."
    /// Table: −Inf → NaN, −normal → NaN, −0.0 → −0.0, +0.0 → +0.0, +Inf →
    /// +Inf, NaN → NaN.
    Sqrt,
    /// `sin.approx{.ftz}.f32` (§9.7.3.18): "The maximum absolute error over
    /// input range is as follows: [-2pi .. 2pi] 2^-20.5, [-100pi .. +100pi]
    /// 2^-14.7. Outside of the range [-100pi .. +100pi], only best effort
    /// is provided. There are no defined error guarantees." Table: −Inf →
    /// NaN, −0.0 → −0.0, +0.0 → +0.0, +Inf → NaN, NaN → NaN.
    Sin,
    /// `cos.approx{.ftz}.f32` (§9.7.3.19): the bounds of [`ApproxFn::Sin`].
    /// Table: −Inf → NaN, −0.0 → +1.0, +0.0 → +1.0, +Inf → NaN, NaN → NaN.
    Cos,
    /// `tanh.approx.f32` (§9.7.3.22): "The maximum relative error over the
    /// entire floating point range is 2^-11. The subnormal numbers are
    /// supported." "The subnormal inputs gets passed through to the
    /// output." Table: −Inf → −1.0, −0.0 → −0.0, +0.0 → +0.0, +Inf → 1.0,
    /// NaN → NaN.
    Tanh,
    /// `div.approx{.ftz}.f32 d, a, b` (§9.7.3.8): "computed as d = a *
    /// (1/b). For |b| in [2^-126, 2^126], the maximum ulp error is 2. For
    /// 2^126 < |b| < 2^128, if a is infinity, div.approx.f32 returns NaN,
    /// otherwise it returns a sign-preserving zero."
    Div,
    /// `div.full{.ftz}.f32 d, a, b` (§9.7.3.8): "a relatively fast,
    /// full-range approximation that scales operands to achieve better
    /// accuracy ... The maximum ulp error is 2 across the full range of
    /// inputs."
    DivFull,
}

impl ApproxFn {
    /// Every function, in a fixed order (the JIT passes the index).
    pub const ALL: [ApproxFn; 10] = [
        ApproxFn::Ex2,
        ApproxFn::Lg2,
        ApproxFn::Rcp,
        ApproxFn::Rsqrt,
        ApproxFn::Sqrt,
        ApproxFn::Sin,
        ApproxFn::Cos,
        ApproxFn::Tanh,
        ApproxFn::Div,
        ApproxFn::DivFull,
    ];

    /// The opcode with its `.approx`/`.full` and no other modifier
    /// (`ex2.approx`, `div.full`).
    pub fn mnemonic(self) -> &'static str {
        match self {
            ApproxFn::Ex2 => "ex2.approx",
            ApproxFn::Lg2 => "lg2.approx",
            ApproxFn::Rcp => "rcp.approx",
            ApproxFn::Rsqrt => "rsqrt.approx",
            ApproxFn::Sqrt => "sqrt.approx",
            ApproxFn::Sin => "sin.approx",
            ApproxFn::Cos => "cos.approx",
            ApproxFn::Tanh => "tanh.approx",
            ApproxFn::Div => "div.approx",
            ApproxFn::DivFull => "div.full",
        }
    }

    /// The function of an opcode's first part and its `.approx`/`.full`
    /// (`("div", "full")`).
    pub fn from_parts(op: &str, kind: &str) -> Option<ApproxFn> {
        ApproxFn::ALL
            .into_iter()
            .find(|f| f.mnemonic().split_once('.') == Some((op, kind)))
    }

    /// How many sources it reads.
    pub fn arity(self) -> usize {
        match self {
            ApproxFn::Div | ApproxFn::DivFull => 2,
            ApproxFn::Ex2
            | ApproxFn::Lg2
            | ApproxFn::Rcp
            | ApproxFn::Rsqrt
            | ApproxFn::Sqrt
            | ApproxFn::Sin
            | ApproxFn::Cos
            | ApproxFn::Tanh => 1,
        }
    }

    /// Whether the ISA has the form `self{.ftz}.ty` (the syntax lines of
    /// each page): every function on `.f32`, with or without `.ftz` but
    /// `tanh` (no `.ftz`); on `.f64` only `rcp.approx.ftz.f64`,
    /// `rsqrt.approx.f64` and `rsqrt.approx.ftz.f64`.
    pub fn takes(self, ty: Type, ftz: bool) -> bool {
        match (self, ty) {
            (ApproxFn::Tanh, Type::F32) => !ftz,
            (_, Type::F32) => true,
            (ApproxFn::Rcp, Type::F64) => ftz,
            (ApproxFn::Rsqrt, Type::F64) => true,
            _ => false,
        }
    }

    /// Every form as `(function, type, ftz)`, in a fixed order.
    pub fn forms() -> Vec<(ApproxFn, Type, bool)> {
        let mut v = Vec::new();
        for f in ApproxFn::ALL {
            for ty in [Type::F32, Type::F64] {
                for ftz in [false, true] {
                    if f.takes(ty, ftz) {
                        v.push((f, ty, ftz));
                    }
                }
            }
        }
        v
    }
}
