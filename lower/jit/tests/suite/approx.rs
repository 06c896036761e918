//! The approximate float functions in the JIT (`src/approx.rs`, computed
//! apart from the reference) against the reference's intervals: every form
//! the ISA has, on special values, subnormals, both ends of the bounded
//! ranges and pseudo-random bit patterns, on every tuning; the comparison
//! looks at the bits the reference defines only. Where the reference gives
//! an exact value (the ISA's tables), the JIT must give that value: the
//! specials checked by hand at the end.

use warp_core::compare::compare;
use warp_core::interp::Interp;
use warp_core::ir::{ApproxFn, Type};
use warp_core::rng::Rng;
use warp_core::text::parse;
use warp_jit::{JitProgram, Tuning};

/// 32 lane values of a `ty` operand for round `k`: specials and
/// subnormals, then random bit patterns and random values in [−8, 8].
fn lanes(ty: Type, k: u64, rng: &mut Rng) -> Vec<u64> {
    let special32: [u32; 16] = [
        0x0000_0000, // +0.0
        0x8000_0000, // −0.0
        0x7f80_0000, // +Inf
        0xff80_0000, // −Inf
        0x7fc0_0000, // NaN
        0x0000_0001, // 2^-149
        0x8000_0001,
        0x007f_ffff, // the largest subnormal
        0x3f80_0000, // 1.0
        0xbf80_0000,
        0x40c9_0fda, // 2π, just below
        0x439d_1463, // 100π, about
        0x7f7f_ffff, // the largest finite
        0x7f00_0000, // 2^127
        0x3f00_0000, // 0.5
        0x4000_0000, // 2.0
    ];
    (0..32)
        .map(|l| {
            let r = rng.next_u64();
            if ty == Type::F64 {
                match (k, l) {
                    (0, l) if l < 16 => [
                        0,
                        1 << 63,
                        0x7ff0_0000_0000_0000,
                        0xfff0_0000_0000_0000,
                        0x7ff8_0000_0000_0000,
                        0x0000_0000_0000_0001,
                        0x0000_0001_0000_0000,
                        0x8000_0001_0000_0000,
                        0x3ff0_0000_0000_0000,
                        0xbff0_0000_0000_0000,
                        0x4010_0000_0000_0000,
                        0x7fef_ffff_ffff_ffff,
                        0x7ff0_0000_0000_0001,
                        0x0010_0000_0000_0000,
                        0x3fe0_0000_1234_5678,
                        0x4330_0000_0000_0000,
                    ][l],
                    _ if l % 2 == 0 => r,
                    _ => ((r % 16_000) as f64 / 1000.0 - 8.0).to_bits(),
                }
            } else {
                match (k, l) {
                    (0, l) if l < 16 => special32[l] as u64,
                    _ if l % 2 == 0 => r & 0xffff_ffff,
                    _ => (((r % 16_000) as f32) / 1000.0 - 8.0).to_bits() as u64,
                }
            }
        })
        .collect()
}

fn lit(ty: Type, v: u64) -> String {
    if ty == Type::F64 {
        format!("0d{v:016x}")
    } else {
        format!("0f{v:08x}")
    }
}

#[test]
fn every_form_agrees_with_the_reference_on_its_defined_bits() {
    let mut rng = Rng::new(0xa11c);
    let mut checked = 0;
    for (f, ty, ftz) in ApproxFn::forms() {
        let opcode = format!("{}{}{ty}", f.mnemonic(), if ftz { ".ftz" } else { "" });
        for k in 0..4 {
            let a = lanes(ty, k, &mut rng);
            // The second operand a rotation of others, so that specials
            // meet ordinary values.
            let b: Vec<u64> = lanes(ty, (k + 1) % 4, &mut rng)
                .into_iter()
                .cycle()
                .skip(k as usize * 5 + 3)
                .take(32)
                .collect();
            let srcs = if f.arity() == 2 { "A, B" } else { "A" };
            let join = |v: &[u64]| v.iter().map(|&x| lit(ty, x)).collect::<Vec<_>>().join(" ");
            let src = format!(
                ".reg {ty} A, B, D;\n.lanes A = {};\n.lanes B = {};\n    {opcode} D, {srcs};\n",
                join(&a),
                join(&b)
            );
            let case = parse(&src).unwrap_or_else(|e| panic!("{src}: {e}"));
            let reference = Interp::new(&case.program).run(&case.inputs).expect("runs");
            for tuning in [Tuning::FastCode, Tuning::Inline, Tuning::FastCompile] {
                let out = JitProgram::compile_with(&case.program, tuning)
                    .expect("compiles")
                    .run(&case.inputs)
                    .expect("runs");
                let diffs = compare(&reference, &out);
                assert!(
                    diffs.is_empty(),
                    "{opcode} {tuning:?} round {k}: {diffs:?}\n{src}"
                );
                checked += 1;
            }
        }
    }
    assert_eq!(checked, 22 * 4 * 3);
}

#[test]
fn the_jit_gives_the_tables_values_exactly() {
    // (opcode, input, output) by hand from the ISA's tables.
    for (opcode, a, want) in [
        ("ex2.approx.ftz.f32", 0xff80_0000u64, 0x0000_0000u64), // −Inf → +0.0
        ("ex2.approx.f32", 0x8000_0000, 0x3f80_0000),           // −0.0 → 1.0
        ("ex2.approx.ftz.f32", 0x0000_0001, 0x3f80_0000),       // 2^-149 flushed: 1.0
        ("lg2.approx.f32", 0x0000_0000, 0xff80_0000),           // +0.0 → −Inf
        ("rcp.approx.f32", 0x8000_0000, 0xff80_0000),           // −0.0 → −Inf
        ("rcp.approx.ftz.f32", 0x0000_0001, 0x7f80_0000),       // 2^-149 flushed: +Inf
        ("rsqrt.approx.f32", 0x7f80_0000, 0x0000_0000),         // +Inf → +0.0
        ("sqrt.approx.f32", 0x8000_0000, 0x8000_0000),          // −0.0 → −0.0
        ("sin.approx.f32", 0x8000_0000, 0x8000_0000),           // −0.0 → −0.0
        ("cos.approx.f32", 0x8000_0000, 0x3f80_0000),           // −0.0 → +1.0
        ("tanh.approx.f32", 0xff80_0000, 0xbf80_0000),          // −Inf → −1.0
        ("tanh.approx.f32", 0x0000_0005, 0x0000_0005),          // passed through
        // The upper word NaN: the canonical 0x7fffffff00000000; +0.0 in
        // the upper word (the lower ignored): +Inf.
        (
            "rcp.approx.ftz.f64",
            0x7ff8_0000_0000_0000,
            0x7fff_ffff_0000_0000,
        ),
        (
            "rsqrt.approx.ftz.f64",
            0x0000_0000_1234_5678,
            0x7ff0_0000_0000_0000,
        ),
        ("rsqrt.approx.f64", 1 << 63, 0xfff0_0000_0000_0000), // −0.0 → −Inf
    ] {
        let ty = if opcode.ends_with("f64") {
            Type::F64
        } else {
            Type::F32
        };
        let src = format!(
            ".reg {ty} A, D;\n.lanes A = {};\n    {opcode} D, A;\n",
            lit(ty, a)
        );
        let case = parse(&src).unwrap_or_else(|e| panic!("{src}: {e}"));
        let d = case.program.reg("D").expect("declared").index();
        let out = JitProgram::compile_with(&case.program, Tuning::FastCode)
            .expect("compiles")
            .run(&case.inputs)
            .expect("runs");
        for l in 0..32 {
            assert_eq!(
                out.values[d][l] & ty.mask(),
                want,
                "{opcode} {a:x} lane {l}"
            );
        }
    }
}
