//! The approximate float functions (issue #37, item 3): `ex2.approx`,
//! `lg2.approx`, `rcp.approx` (and `.ftz.f64`), `rsqrt.approx` (`.f32`,
//! `.f64`, `.ftz.f64`), `sqrt.approx`, `sin.approx`, `cos.approx`,
//! `tanh.approx`, `div.approx`, `div.full`. The reference gives the
//! ISA's special values exactly and, elsewhere, the bits every value
//! within the ISA's error bound shares (`interp::approx`). Every expected
//! value and mask below is worked out by hand from the ISA's bounds (the
//! comment above each says how); bit patterns of f32 values are IEEE 754
//! binary32.

use warp_core::interp::approx::{eval_op, Approx};
use warp_core::interp::Interp;
use warp_core::ir::{ApproxFn, Bits, FloatOp, LaneOp, LaneOpKind, Op, Rounding, Type};
use warp_core::text::{parse, parse_module, print};

const DECLS: &str = ".reg .f32 %f<4>;\n.reg .f64 %fd<4>;\n.reg .b32 %r<4>;\n";

/// The lane op of a one-instruction case.
fn lane_op(line: &str) -> LaneOp {
    let c = parse(&format!("{DECLS}    {line}\n")).unwrap_or_else(|e| panic!("{line}: {e}"));
    match &c.program.insts[0].op {
        Op::LaneOp(x) => x.clone(),
        op => panic!("{line}: {op:?}"),
    }
}

/// What the reference knows of `opcode` (an `.f32` form unless it ends in
/// `.f64`) applied to `a` (and `b`).
fn run(opcode: &str, a: u64, b: u64) -> Approx {
    let (d, s) = if opcode.ends_with(".f64") {
        ("%fd1", "%fd2")
    } else {
        ("%f1", "%f2")
    };
    let two = opcode.starts_with("div.");
    let line = if two {
        format!("{opcode} {d}, {s}, {s};")
    } else {
        format!("{opcode} {d}, {s};")
    };
    eval_op(&lane_op(&line), [a, b, 0, 0]).expect("an approximate op")
}

/// The low 32 bits of an f32 result: `(value & defined, defined)`.
fn low(r: Approx) -> (u32, u32) {
    let d = r.defined as u32;
    (r.value as u32 & d, d)
}

/// Asserts `r` is exactly the f32 `bits`, fully defined, not an open NaN.
fn exact32(what: &str, r: Approx, bits: u32) {
    assert_eq!(low(r), (bits, u32::MAX), "{what}: {r:x?}");
    assert!(!r.open_nan, "{what}");
}

/// Asserts `r` is a NaN with open bits.
fn open_nan(what: &str, r: Approx, ty: Type) {
    assert!(r.open_nan, "{what}: {r:x?}");
    assert!(r.full(ty), "{what}: {r:x?}");
}

const PZERO: u64 = 0x0000_0000;
const NZERO: u64 = 0x8000_0000;
const PINF: u64 = 0x7f80_0000;
const NINF: u64 = 0xff80_0000;
const NAN: u64 = 0x7fc0_0000;
const ONE: u64 = 0x3f80_0000;
const NEG_ONE: u64 = 0xbf80_0000;
/// The smallest positive subnormal, 2^-149.
const SUB: u64 = 0x0000_0001;
const NEG_SUB: u64 = 0x8000_0001;

#[test]
fn every_form_parses_prints_back_and_has_its_canonical_opcode() {
    for (f, ty, ftz) in ApproxFn::forms() {
        let opcode = format!("{}{}{ty}", f.mnemonic(), if ftz { ".ftz" } else { "" });
        let (d, s) = if ty == Type::F64 {
            ("%fd1", "%fd2")
        } else {
            ("%f1", "%f2")
        };
        let line = if f.arity() == 2 {
            format!("    {opcode} {d}, {s}, %{}3;", &s[1..s.len() - 1])
        } else {
            format!("    {opcode} {d}, {s};")
        };
        let src = format!("{DECLS}{line}\n");
        let c = parse(&src).unwrap_or_else(|e| panic!("{line}: {e}"));
        let Op::LaneOp(x) = &c.program.insts[0].op else {
            panic!("{line}")
        };
        assert_eq!(
            x.kind,
            LaneOpKind::Float {
                op: FloatOp::Approx(f),
                rnd: Rounding::Rn,
                ftz,
                sat: false
            },
            "{line}"
        );
        assert_eq!(x.canonical_opcode(), opcode, "{line}");
        assert_eq!(x.form_name(), opcode, "{line}");
        let printed = print(&c);
        assert!(printed.contains(line.trim()), "{line}\n{printed}");
        assert_eq!(parse(&printed).expect("reparses"), c, "{line}");
    }
    // The ISA's syntax lines: 9 functions on `.f32` with and without
    // `.ftz`, `tanh` without only, `rcp.approx.ftz.f64`,
    // `rsqrt.approx{.ftz}.f64`: 9·2 + 1 + 1 + 2 = 22 forms.
    assert_eq!(ApproxFn::forms().len(), 22);
}

#[test]
fn a_kernel_reads_them_verbatim() {
    // As nvcc writes them with --use_fast_math.
    let src = ".version 8.0\n.target sm_90\n.address_size 64\n.visible .entry k()\n{\n\
               \t.reg .f32 %f<8>;\n\tex2.approx.ftz.f32 \t%f2, %f1;\n\
               \tdiv.full.f32 \t%f3, %f2, %f1;\n\trcp.approx.ftz.f32 %f4, %f3;\n\tret;\n}\n";
    let m = parse_module(src).unwrap_or_else(|e| panic!("{e}"));
    let ops: Vec<String> = m.kernels[0]
        .program
        .insts
        .iter()
        .filter_map(|i| match &i.op {
            Op::LaneOp(x) => Some(x.canonical_opcode()),
            _ => None,
        })
        .collect();
    assert_eq!(
        ops,
        ["ex2.approx.ftz.f32", "div.full.f32", "rcp.approx.ftz.f32"]
    );
}

#[test]
fn forms_the_isa_lacks_are_refused_with_line_and_column() {
    // (line, what the message says); the column is the opcode's (5).
    for (line, msg) in [
        (
            "ex2.approx.ftz.bf16 %r1, %r2;",
            "16-bit float registers, `.f16`/`.bf16`, do not exist here yet",
        ),
        ("ex2.approx.f16 %r1, %r2;", "16-bit float registers"),
        ("tanh.approx.bf16x2 %r1, %r2;", "16-bit float registers"),
        ("ex2.f32 %f1, %f2;", "`.approx` is required"),
        ("rcp.rn.f32 %f1, %f2;", "not supported yet: `rcp.rn.f32`"),
        (
            "tanh.approx.ftz.f32 %f1, %f2;",
            "no such form (the ISA has `tanh.approx.f32`)",
        ),
        (
            "rcp.approx.f64 %fd1, %fd2;",
            "no such form (the ISA has `rcp.approx.f32`, `rcp.approx.ftz.f32`, \
             `rcp.approx.ftz.f64`)",
        ),
        ("sqrt.approx.f64 %fd1, %fd2;", "no such form"),
        ("sin.full.f32 %f1, %f2;", "`sin` has no `.full` form"),
        ("ex2.approx.rn.f32 %f1, %f2;", "unknown modifier `.rn`"),
        ("lg2.approx.u32 %r1, %r2;", "no such form"),
    ] {
        let e = parse(&format!("{DECLS}    {line}\n")).expect_err(line);
        assert_eq!((e.line, e.col), (4, 5), "{line}: {e}");
        assert!(e.msg.contains(msg), "{line}: {e}");
    }
    // An operand of the wrong type: at the operand.
    let e = parse(&format!("{DECLS}    ex2.approx.f32 %f1, %fd2;\n")).expect_err("type");
    assert_eq!((e.line, e.col), (4, 25), "{e}");
}

#[test]
fn special_inputs_give_the_tables_values_exactly() {
    // ex2: −Inf → +0.0, −0.0 → +1.0, +0.0 → +1.0, +Inf → +Inf, NaN → NaN.
    for op in ["ex2.approx.f32", "ex2.approx.ftz.f32"] {
        exact32(op, run(op, NINF, 0), 0);
        exact32(op, run(op, NZERO, 0), ONE as u32);
        exact32(op, run(op, PZERO, 0), ONE as u32);
        exact32(op, run(op, PINF, 0), PINF as u32);
        open_nan(op, run(op, NAN, 0), Type::F32);
    }
    // lg2: −Inf → NaN, −normal → NaN, −0.0 → −Inf, +0.0 → −Inf, +Inf →
    // +Inf, NaN → NaN.
    for op in ["lg2.approx.f32", "lg2.approx.ftz.f32"] {
        open_nan(op, run(op, NINF, 0), Type::F32);
        open_nan(op, run(op, NEG_ONE, 0), Type::F32);
        exact32(op, run(op, NZERO, 0), NINF as u32);
        exact32(op, run(op, PZERO, 0), NINF as u32);
        exact32(op, run(op, PINF, 0), PINF as u32);
        open_nan(op, run(op, NAN, 0), Type::F32);
    }
    // A negative subnormal is in no row: undefined without .ftz, −0.0 (so
    // −Inf) with it.
    assert_eq!(run("lg2.approx.f32", NEG_SUB, 0).defined as u32, 0);
    exact32(
        "lg2 ftz",
        run("lg2.approx.ftz.f32", NEG_SUB, 0),
        NINF as u32,
    );
    // rcp: −Inf → −0.0, −0.0 → −Inf, +0.0 → +Inf, +Inf → +0.0, NaN → NaN.
    let op = "rcp.approx.f32";
    exact32(op, run(op, NINF, 0), NZERO as u32);
    exact32(op, run(op, NZERO, 0), NINF as u32);
    exact32(op, run(op, PZERO, 0), PINF as u32);
    exact32(op, run(op, PINF, 0), 0);
    open_nan(op, run(op, NAN, 0), Type::F32);
    // rsqrt: −Inf → NaN, −normal → NaN, −0.0 → −Inf, +0.0 → +Inf, +Inf →
    // +0.0, NaN → NaN; the same table for .f64.
    let op = "rsqrt.approx.f32";
    open_nan(op, run(op, NINF, 0), Type::F32);
    open_nan(op, run(op, NEG_ONE, 0), Type::F32);
    exact32(op, run(op, NZERO, 0), NINF as u32);
    exact32(op, run(op, PZERO, 0), PINF as u32);
    exact32(op, run(op, PINF, 0), 0);
    let op = "rsqrt.approx.f64";
    let (ninf64, pinf64) = (0xfff0_0000_0000_0000u64, 0x7ff0_0000_0000_0000u64);
    open_nan(op, run(op, ninf64, 0), Type::F64);
    open_nan(op, run(op, 0xbff0_0000_0000_0000, 0), Type::F64);
    assert_eq!(run(op, 1 << 63, 0), Approx::exact(ninf64));
    assert_eq!(run(op, 0, 0), Approx::exact(pinf64));
    assert_eq!(run(op, pinf64, 0), Approx::exact(0));
    // sqrt: −Inf → NaN, −normal → NaN, −0.0 → −0.0, +0.0 → +0.0, +Inf →
    // +Inf, NaN → NaN.
    let op = "sqrt.approx.f32";
    open_nan(op, run(op, NINF, 0), Type::F32);
    open_nan(op, run(op, NEG_ONE, 0), Type::F32);
    exact32(op, run(op, NZERO, 0), NZERO as u32);
    exact32(op, run(op, PZERO, 0), 0);
    exact32(op, run(op, PINF, 0), PINF as u32);
    // sin: ±Inf → NaN, ∓0.0 → ∓0.0; cos: ±Inf → NaN, ±0.0 → +1.0.
    for op in ["sin.approx.f32", "cos.approx.ftz.f32"] {
        open_nan(op, run(op, NINF, 0), Type::F32);
        open_nan(op, run(op, PINF, 0), Type::F32);
        open_nan(op, run(op, NAN, 0), Type::F32);
    }
    exact32("sin", run("sin.approx.f32", NZERO, 0), NZERO as u32);
    exact32("sin", run("sin.approx.f32", PZERO, 0), 0);
    exact32("cos", run("cos.approx.f32", NZERO, 0), ONE as u32);
    exact32("cos", run("cos.approx.f32", PZERO, 0), ONE as u32);
    // tanh: −Inf → −1.0, ∓0.0 → ∓0.0, +Inf → 1.0, NaN → NaN; "the
    // subnormal inputs gets passed through to the output".
    let op = "tanh.approx.f32";
    exact32(op, run(op, NINF, 0), NEG_ONE as u32);
    exact32(op, run(op, PINF, 0), ONE as u32);
    exact32(op, run(op, NZERO, 0), NZERO as u32);
    exact32(op, run(op, 5, 0), 5);
    exact32(op, run(op, 0x8000_0123, 0), 0x8000_0123);
    open_nan(op, run(op, NAN, 0), Type::F32);
}

#[test]
fn the_f64_ftz_forms_read_the_upper_word_and_zero_the_lower() {
    // `tmp = a[63:32]; d[63:32] = 1.0 / tmp; d[31:0] = 0x00000000;`
    for op in ["rcp.approx.ftz.f64", "rsqrt.approx.ftz.f64"] {
        // "Input NaNs map to a canonical NaN with encoding
        // 0x7fffffff00000000": exact, not an open NaN.
        assert_eq!(
            run(op, 0x7ff8_0000_0000_0000, 0),
            Approx::exact(0x7fff_ffff_0000_0000),
            "{op}"
        );
        // The upper word +0.0 (the lower one ignored): +Inf; a subnormal
        // upper word likewise (−subnormal → −Inf).
        assert_eq!(
            run(op, 0x0000_0000_1234_5678, 0),
            Approx::exact(0x7ff0_0000_0000_0000),
            "{op}"
        );
        assert_eq!(
            run(op, 0x8000_0001_0000_0000, 0),
            Approx::exact(0xfff0_0000_0000_0000),
            "{op}"
        );
        // The upper word +Inf (a NaN as an f64, but not as 1.11.20): +0.0.
        assert_eq!(run(op, 0x7ff0_0000_0000_0001, 0), Approx::exact(0), "{op}");
        // A normal input: no bound, but the lower word is 0.
        let r = run(op, 0x4000_0000_0000_0000, 0);
        assert_eq!((r.value & r.defined, r.defined), (0, 0xffff_ffff), "{op}");
    }
    // rcp: −Inf → −0.0; rsqrt: −Inf → NaN.
    assert_eq!(
        run("rcp.approx.ftz.f64", 0xfff0_0000_0000_0000, 0),
        Approx::exact(1 << 63)
    );
    open_nan(
        "rsqrt -inf",
        run("rsqrt.approx.ftz.f64", 0xfff0_0000_0000_0000, 0),
        Type::F64,
    );
}

#[test]
fn ordinary_inputs_define_the_bits_their_interval_shares() {
    // ex2(3) = 8 = 0x41000000 exactly; 2 ulps of it, ulp(8) = 2^-20 (the
    // binade [8, 16)): [8 − 2^-19, 8 + 2^-19]. Above 8: 0x41000001,
    // 0x41000002; below, the spacing is 2^-21, so four values down to
    // 0x40fffffc. Not one value but seven, across an exponent boundary:
    // 0x40fffffc ^ 0x41000002 = 0x01fffffe, bits 31..25 defined.
    let r = low(run("ex2.approx.ftz.f32", 0x4040_0000, 0));
    assert_eq!(r, (0x4000_0000, 0xfe00_0000));
    // ex2(0.5) = √2, to nearest f32 0x3fb504f3 (1.41421353..., the next
    // one up, 0x3fb504f4, is 1.41421365...; √2 = 1.41421356...): ±2 ulps
    // 0x3fb504f1..0x3fb504f5, which differ from bit 2 down.
    let r = low(run("ex2.approx.f32", 0x3f00_0000, 0));
    assert_eq!(r, (0x3fb5_04f0, 0xffff_fff8));
    // rcp(3) = 0.333..., to nearest 0x3eaaaaab; ±1 ulp 0x3eaaaaaa..ac.
    let r = low(run("rcp.approx.f32", 0x4040_0000, 0));
    assert_eq!(r, (0x3eaa_aaa8, 0xffff_fff8));
    // rcp(2) = 0.5 = 0x3f000000, a power of two: 1 ulp (2^-24) above is
    // 0x3f000001, below is two values (spacing 2^-25): 0x3efffffe.
    let r = low(run("rcp.approx.f32", 0x4000_0000, 0));
    assert_eq!(r, (0x3e00_0000, 0xfe00_0000));
    // sqrt(4) = 2, relative 2^-23: [2 − 2^-22, 2 + 2^-22]: 0x3ffffffe up
    // to 0x40000001 (2 + 2^-22 is one ulp of [2, 4)): only the sign bit
    // is alike.
    let r = low(run("sqrt.approx.f32", 0x4080_0000, 0));
    assert_eq!(r, (0, 0x8000_0000));
    // lg2(8) = 3, relative 2^-22 (8 is outside (0.5, 2)): 3·2^-22 is 3
    // ulps of [2, 4): 0x403ffffd..0x40400003, alike above bit 22.
    let r = low(run("lg2.approx.f32", 0x4100_0000, 0));
    assert_eq!(r, (0x4000_0000, 0xff80_0000));
    // lg2(1) = 0, absolute 2^-22: [−2^-22, 2^-22] crosses zero: the sign
    // is open, but every value is below 2 in magnitude, so bit 30 (the
    // exponent's top bit) is 0 on all.
    let r = low(run("lg2.approx.f32", ONE, 0));
    assert_eq!(r, (0, 0x4000_0000));
    // div.approx(6, 3) = 2, 2 ulps: 0x3ffffffc..0x40000002: the sign.
    let r = low(run("div.approx.f32", 0x40c0_0000, 0x4040_0000));
    assert_eq!(r, (0, 0x8000_0000));
    // div.full(1, 0) = +Inf correctly rounded; 2 steps down, +Inf counted
    // as the step past the largest finite 0x7f7fffff: 0x7f7ffffe..+Inf.
    let r = low(run("div.full.f32", ONE, 0));
    assert_eq!(r, (0x7f00_0000, 0xff00_0000));
    // sin(0.5) = 0.4794255..., absolute 2^-20.5 ≈ 6.7e-7, about 22 ulps
    // of [0.25, 0.5) (2^-25 each): the sign and the exponent are defined
    // (0.4794 ± 6.7e-7 stays in [0.25, 0.5)), the low 5 bits are not.
    let r = low(run("sin.approx.f32", 0x3f00_0000, 0));
    assert_eq!(r.1 & 0xff80_0000, 0xff80_0000);
    assert_eq!(r.0 & 0xff80_0000, 0x3e80_0000);
    assert_eq!(r.1 & 0x1f, 0);
    // Outside [−100π, 100π] the ISA guarantees nothing: 1000.
    assert_eq!(run("sin.approx.f32", 0x447a_0000, 0).defined as u32, 0);
    assert_eq!(run("cos.approx.f32", 0x447a_0000, 0).defined as u32, 0);
    // div.approx by 2^127 (in (2^126, 2^128)): "a sign-preserving zero",
    // its sign not said; an infinite a: NaN.
    let r = low(run("div.approx.f32", ONE, 0x7f00_0000));
    assert_eq!(r, (0, 0x7fff_ffff));
    open_nan(
        "inf / 2^127",
        run("div.approx.f32", PINF, 0x7f00_0000),
        Type::F32,
    );
    // A subnormal divisor without .ftz is in no range the ISA bounds.
    assert_eq!(run("div.approx.f32", ONE, SUB).defined as u32, 0);
}

#[test]
fn ftz_flushes_subnormal_inputs_and_results() {
    // Input: ex2(2^-149) is 1 + 1e-45, correctly rounded 1.0; ±2 ulps
    // (below 1.0 the spacing is 2^-24: four values) 0x3f7ffffc..0x3f800002,
    // alike above bit 23. With .ftz the input is +0.0: exactly +1.0.
    assert_eq!(
        low(run("ex2.approx.f32", SUB, 0)),
        (0x3f00_0000, 0xff00_0000)
    );
    exact32("ex2 ftz", run("ex2.approx.ftz.f32", SUB, 0), ONE as u32);
    // Result: ex2(−130) = 2^-130 = 2^19 · 2^-149 = 0x00080000, a
    // subnormal; ±2 ulps of the subnormals (2^-149): 0x0007fffe up to
    // 0x00080002, alike above bit 19. With .ftz every one of them flushes
    // to +0.0: exactly +0.0.
    let minus_130 = 0xc302_0000;
    assert_eq!(low(run("ex2.approx.f32", minus_130, 0)), (0, 0xfff0_0000));
    exact32("ex2 ftz result", run("ex2.approx.ftz.f32", minus_130, 0), 0);
    // rcp(2^-149) = 2^149, past the largest f32: +Inf correctly rounded,
    // one step down the largest finite 0x7f7fffff. With .ftz: +0.0, so
    // +Inf exactly.
    assert_eq!(
        low(run("rcp.approx.f32", SUB, 0)),
        (0x7f00_0000, 0xff00_0000)
    );
    exact32("rcp ftz", run("rcp.approx.ftz.f32", SUB, 0), PINF as u32);
    exact32(
        "rcp ftz",
        run("rcp.approx.ftz.f32", NEG_SUB, 0),
        NINF as u32,
    );
    // sin(−2^-149) with .ftz is sin(−0.0) = −0.0.
    exact32(
        "sin ftz",
        run("sin.approx.ftz.f32", NEG_SUB, 0),
        NZERO as u32,
    );
    // sqrt of a negative subnormal: in no row without .ftz; −0.0 with it.
    assert_eq!(run("sqrt.approx.f32", NEG_SUB, 0).defined as u32, 0);
    exact32(
        "sqrt ftz",
        run("sqrt.approx.ftz.f32", NEG_SUB, 0),
        NZERO as u32,
    );
}

#[test]
fn partly_defined_results_propagate_as_float_results_do() {
    // ex2(3): bits 31..25 defined (see above). `mov.b32` copies the
    // defined bits; `and.b32` with 0xfe000000 makes the word defined;
    // `add.f32` needs every input bit, so it is undefined.
    let src = ".reg .f32 %f<4>;\n.reg .b32 %r<4>;\n\
               .lanes %f1 = 3.0;\n\
               \x20   ex2.approx.ftz.f32 %f2, %f1;\n\
               \x20   mov.b32 %r1, %f2;\n\
               \x20   and.b32 %r2, %r1, 0xfe000000;\n\
               \x20   add.f32 %f3, %f2, 1.0;\n";
    let case = parse(src).unwrap_or_else(|e| panic!("{e}"));
    let out = Interp::new(&case.program).run(&case.inputs).expect("runs");
    let reg = |n: &str| case.program.reg(n).expect("declared");
    for l in [0, 31] {
        let r1 = out.bits(reg("%r1"), l);
        assert_eq!(
            (r1.value as u32, r1.defined as u32),
            (0x4000_0000, 0xfe00_0000)
        );
        assert_eq!(out.get(reg("%r2"), l), Some(0x4000_0000));
        assert_eq!(out.bits(reg("%f3"), l), Bits::UNDEFINED);
    }
    // A partly defined input makes an approximate result undefined.
    let src = ".reg .f32 %f<4>;\n.lanes %f1 = 3.0;\n\
               \x20   ex2.approx.ftz.f32 %f2, %f1;\n\
               \x20   rcp.approx.ftz.f32 %f3, %f2;\n";
    let case = parse(src).unwrap_or_else(|e| panic!("{e}"));
    let out = Interp::new(&case.program).run(&case.inputs).expect("runs");
    assert_eq!(
        out.bits(case.program.reg("%f3").unwrap(), 0),
        Bits::UNDEFINED
    );
    // An exact special value is a whole value: ex2(−0.0) + 1.0 = 2.0.
    let src = ".reg .f32 %f<4>;\n.lanes %f1 = -0.0;\n\
               \x20   ex2.approx.f32 %f2, %f1;\n\
               \x20   add.f32 %f3, %f2, 1.0;\n";
    let case = parse(src).unwrap_or_else(|e| panic!("{e}"));
    let out = Interp::new(&case.program).run(&case.inputs).expect("runs");
    assert_eq!(
        out.get(case.program.reg("%f3").unwrap(), 5),
        Some(0x4000_0000)
    );
}

/// One evaluation of the sweep file: `FUNCTION INPUT [INPUT2] OUTPUT`
/// (hex bit patterns), its line number.
struct Sample {
    line: usize,
    opcode: String,
    a: u64,
    b: u64,
    out: u64,
}

fn read_sweep(text: &str) -> Vec<Sample> {
    let hex = |s: &str, line: usize| {
        u64::from_str_radix(s.trim_start_matches("0x"), 16)
            .unwrap_or_else(|e| panic!("line {line}: `{s}`: {e}"))
    };
    let mut v = Vec::new();
    for (i, raw) in text.lines().enumerate() {
        let line = i + 1;
        let t = raw.split('#').next().unwrap_or("").trim();
        if t.is_empty() {
            continue;
        }
        let w: Vec<&str> = t.split_whitespace().collect();
        let (a, b, out) = match w.len() {
            3 => (hex(w[1], line), 0, hex(w[2], line)),
            4 => (hex(w[1], line), hex(w[2], line), hex(w[3], line)),
            _ => panic!("line {line}: expected FUNCTION INPUT [INPUT2] OUTPUT: `{raw}`"),
        };
        v.push(Sample {
            line,
            opcode: w[0].to_string(),
            a,
            b,
            out,
        });
    }
    v
}

/// Whether the reference's defined bits of `s` agree with its output (a
/// NaN anywhere the reference has an open NaN).
fn agrees(s: &Sample) -> bool {
    let r = run(&s.opcode, s.a, s.b);
    let ty = if s.opcode.ends_with(".f64") {
        Type::F64
    } else {
        Type::F32
    };
    if r.open_nan {
        return match ty {
            Type::F64 => f64::from_bits(s.out).is_nan(),
            _ => f32::from_bits(s.out as u32).is_nan(),
        };
    }
    (r.value ^ s.out) & r.defined & ty.mask() == 0
}

/// The H200 sweep (`corpus/approx/h200-sweep.txt`, written by
/// `corpus/approx/sweep.cu` on an H200, driver 580.159.04, on 2026-11-27:
/// 83,749 evaluations of every form over special values, subnormals,
/// powers of two and their neighbours, random bit patterns and random
/// values in each function's range): every output the hardware gave lies
/// on the reference's defined bits.
#[test]
fn every_h200_output_of_the_sweep_agrees_with_the_defined_bits() {
    let path = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../corpus/approx/h200-sweep.txt"
    );
    let text = std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{path}: {e}"));
    let samples = read_sweep(&text);
    assert!(samples.len() >= 80_000, "only {} samples", samples.len());
    let mut bad = Vec::new();
    let mut seen = std::collections::BTreeMap::<&str, usize>::new();
    for s in &samples {
        *seen.entry(s.opcode.as_str()).or_default() += 1;
        if !agrees(s) {
            let r = run(&s.opcode, s.a, s.b);
            bad.push(format!(
                "line {}: {} {:x} {:x} -> {:x}; reference {:x} defined {:x}",
                s.line, s.opcode, s.a, s.b, s.out, r.value, r.defined
            ));
        }
    }
    assert!(
        bad.is_empty(),
        "{} of {} outputs outside the bound:\n{}",
        bad.len(),
        samples.len(),
        bad[..bad.len().min(40)].join("\n")
    );
    // Every function is in it.
    for f in ApproxFn::ALL {
        assert!(
            seen.keys().any(|k| k.starts_with(f.mnemonic())),
            "{} missing from the sweep",
            f.mnemonic()
        );
    }
}

#[test]
fn the_sweep_check_refuses_an_output_outside_the_bound() {
    // ex2(3) = 8: 32 (0x42000000) differs from it in bit 25, which every
    // value in [8 − 2^-19, 8 + 2^-19] shares; 8 + 2 ulps is inside; −8 is
    // not; rcp(3) off by 8 ulps differs in bit 3.
    let s = read_sweep(
        "ex2.approx.f32 40400000 42000000\nex2.approx.f32 40400000 41000002\n\
         ex2.approx.f32 40400000 c1000000\nrcp.approx.f32 40400000 3eaaaab3\n\
         rcp.approx.ftz.f64 4000000000000000 3fe0000000000001 # low word not 0\n",
    );
    let verdicts: Vec<bool> = s.iter().map(agrees).collect();
    assert_eq!(verdicts, [false, true, false, false, false]);
}
