//! The approximate float functions (`ex2.approx`, `rcp.approx.ftz.f64`,
//! `div.full`, ...: `warp_core::ir::ApproxFn`) in the JIT: a call per lane
//! to [`host_approx`], which computes them apart from the reference (which
//! gives an interval and the bits its values share, `interp::approx`):
//! the exact function in f64 rounded once to f32 (so within half an ulp,
//! inside every bound the ISA gives), the special inputs by IEEE
//! arithmetic (the ISA's tables are IEEE's values there), `.ftz` flushing
//! inputs and results, `div.approx` as the ISA computes it (`a * (1/b)`,
//! a sign-preserving zero, or NaN for an infinite `a`, when `2^126 < |b|`),
//! and the `.ftz.f64` forms on the upper word of their operand, with the
//! canonical NaN `0x7fffffff00000000` and a zero lower word.

use super::builder::Emitter;
use cranelift_codegen::ir::types::I64;
use cranelift_codegen::ir::{InstBuilder, Value};
use warp_core::ir::{ApproxFn, Type};

/// `f{.ftz}.ty` of the sources `args` (i64s holding their bits), one lane.
pub(crate) fn emit(e: &mut Emitter, f: ApproxFn, ftz: bool, ty: Type, args: &[Value]) -> Value {
    let code = e.b.ins().iconst(I64, encode(f, ftz, ty) as i64);
    let b = match args.get(1) {
        Some(&b) => b,
        None => e.b.ins().iconst(I64, 0),
    };
    e.call_host(host_approx as *const () as usize, &[code, args[0], b])
}

/// The function, `.ftz` and the type in one constant.
fn encode(f: ApproxFn, ftz: bool, ty: Type) -> u64 {
    let i = ApproxFn::ALL.iter().position(|&g| g == f).expect("listed") as u64;
    i << 2 | (ftz as u64) << 1 | (ty == Type::F64) as u64
}

/// The run-time half: `code` from [`encode`], the sources' bits.
pub(crate) extern "C" fn host_approx(code: u64, a: u64, b: u64) -> u64 {
    let f = ApproxFn::ALL[(code >> 2) as usize % ApproxFn::ALL.len()];
    let ftz = code & 2 != 0;
    if code & 1 != 0 {
        return f64_form(f, ftz, a);
    }
    f32_form(f, ftz, f32::from_bits(a as u32), f32::from_bits(b as u32)).to_bits() as u64
}

/// An f32 subnormal as the zero of its sign under `.ftz`.
fn flush(ftz: bool, x: f32) -> f32 {
    if ftz && x.is_subnormal() {
        0.0f32.copysign(x)
    } else {
        x
    }
}

/// The `.f32` forms.
fn f32_form(f: ApproxFn, ftz: bool, a: f32, b: f32) -> f32 {
    let (a, b) = (flush(ftz, a), flush(ftz, b));
    let (x, y) = (a as f64, b as f64);
    let r = match f {
        ApproxFn::Ex2 => x.exp2(),
        ApproxFn::Lg2 => x.log2(),
        ApproxFn::Rcp => 1.0 / x,
        ApproxFn::Rsqrt => 1.0 / x.sqrt(),
        ApproxFn::Sqrt => x.sqrt(),
        ApproxFn::Sin => x.sin(),
        ApproxFn::Cos => x.cos(),
        ApproxFn::Tanh if a.is_subnormal() => x,
        ApproxFn::Tanh => x.tanh(),
        ApproxFn::Div if y.abs() > 2f64.powi(126) && y.is_finite() => {
            if x.is_infinite() || x.is_nan() {
                f64::NAN
            } else {
                0.0f64.copysign(x) * y.signum()
            }
        }
        ApproxFn::Div => x * (1.0 / y),
        ApproxFn::DivFull => x / y,
    };
    flush(ftz, r as f32)
}

/// `rsqrt.approx.f64`, and `rcp`/`rsqrt.approx.ftz.f64` on `a[63:32]`.
fn f64_form(f: ApproxFn, ftz: bool, a: u64) -> u64 {
    if !ftz {
        return (1.0 / f64::from_bits(a).sqrt()).to_bits();
    }
    let tmp = f64::from_bits(a & 0xffff_ffff_0000_0000);
    if tmp.is_nan() {
        return 0x7fff_ffff_0000_0000;
    }
    // Subnormal inputs (of the 1.11.20 word) and results flush to zero.
    let tmp = if tmp.is_subnormal() {
        0.0f64.copysign(tmp)
    } else {
        tmp
    };
    let r = match f {
        ApproxFn::Rsqrt => 1.0 / tmp.sqrt(),
        _ => 1.0 / tmp,
    };
    let r = if r.is_subnormal() {
        0.0f64.copysign(r)
    } else {
        r
    };
    r.to_bits() & 0xffff_ffff_0000_0000
}
