//! `mov` packing and unpacking (`mov.b64 d, {a, b}`, `mov.b64 {a, b}, s`):
//! the registers of the `{...}` are of one type, the integer and bit-size
//! types counting as one (and the generator draws one declared type), and
//! an unpacking vector names at least one register.
//!
//! The expected outcomes come from the PTX ISA and from `ptxas`, not from
//! the code. ISA 9.7.9.4 "mov (vector)" reads the group as a *vector
//! register*, and every example gives its elements one type ("`mov.b32
//! %r1,{a,b};` // a,b have type .u16"); §6.4.3 calls a brace-enclosed list
//! one "of similarly typed scalars". `ptxas` 13.0 (driver 580.159.04, on an
//! H200) refused both lines of `refuses_the_lines_ptxas_refused` with
//! "Vector with elements of different types are not allowed in mov
//! instruction", and the driver with them the whole batch of 1024 programs;
//! all 15 such refusals of that day (`docs/log/gpu-2026-11-27-d/found/
//! *-engine-failed-*`) put `.f32` with `.u32` or `.s32`. It compiled
//! `mov.b64 %rd2, {%rh0, %rh0, %h0, %sh0}` (`.u16`, `.b16`, `.s16`: the
//! H200 ran `corpus/cases/activemask-after-sqrt-h200.ptx`). Whether `.b32`
//! and `.f32` mix is not known: the parser refuses it. "the sink symbol `_`
//! may be used for one or more elements provided that at least one element
//! is a scalar register" (ISA, same page).

use crate::common;
use arbitrary::Unstructured;
use common::bytes;
use std::collections::HashSet;
use warp_core::gen::{generate, Config, TestCase, Weights};
use warp_core::ir::*;
use warp_core::reduce::{ReduceError, Reducer};
use warp_core::text::{parse, parse_module, print};

/// The declarations of the program the GPU run refused.
const DECLS: &str = ".reg .u32 %r1;  .reg .f32 %f2;  .reg .u32 %r0;\n";

#[test]
fn refuses_the_lines_ptxas_refused() {
    // Line 2; `%f2` at column 19, `%r0` at column 22.
    for (line, col, msg) in [
        (
            "    mov.b64 {%r1, %f2}, 0;",
            19,
            "`%r1` is .u32, `%f2` is .f32",
        ),
        (
            "    mov.b64 _, {%f2, %r0};",
            22,
            "`%f2` is .f32, `%r0` is .u32",
        ),
    ] {
        let e = parse(&format!("{DECLS}{line}\n")).expect_err(line);
        assert_eq!((e.line, e.col), (2, col), "{line}: {e}");
        assert!(
            e.msg
                .starts_with("the elements of a `mov` vector must have one type")
                && e.msg.ends_with(msg),
            "{line}: {e}"
        );
        // With the file's name in front, as the command line prints it.
        assert!(
            e.with_file("a.ptx")
                .starts_with(&format!("a.ptx:2:{col}: the elements")),
            "{e}"
        );
    }
}

#[test]
fn a_kernel_body_refuses_them_too() {
    let src = ".version 8.0\n.target sm_90\n.address_size 64\n.visible .entry k()\n{\n\
               \t.reg .u32 %r<2>;\n\t.reg .f32 %f<3>;\n\t.reg .b64 %rd<2>;\n\
               \tmov.b64 %rd1, {%r1, %f2};\n\tret;\n}\n";
    let e = parse_module(src).expect_err("mixed vector");
    // Line 9: a tab, `mov.b64 ` (columns 2-9), `%rd1, ` (10-15), `{%r1, `
    // (16-21), `%f2` at 22.
    assert_eq!((e.line, e.col), (9, 22), "{e}");
    assert!(e.msg.contains("`%r1` is .u32, `%f2` is .f32"), "{e}");
    let ok = src.replace("%f2}", "%r0}");
    parse_module(&ok).unwrap_or_else(|e| panic!("{e}"));
}

/// Declarations with two registers of each type a group can hold.
const ALL: &str = "\
.reg .b32 %b<2>;
.reg .u32 %r<2>;
.reg .s32 %s<2>;
.reg .f32 %f<2>;
.reg .b16 %h<4>;
.reg .u16 %rh<4>;
.reg .s16 %sh<4>;
.reg .b64 %bd<2>;
.reg .f64 %fd<2>;
";

fn one(line: &str) -> Result<Case, String> {
    parse(&format!("{ALL}    {line}\n")).map_err(|e| e.to_string())
}

#[test]
fn accepts_vectors_of_one_type_or_of_integer_types() {
    for line in [
        "mov.b64 %bd0, {%b0, %b1};",
        "mov.b64 %fd0, {%r0, %r1};",
        "mov.b64 %bd0, {%f0, %f1};",
        "mov.b64 {%s0, %s1}, %bd0;",
        "mov.b64 {%f0, %f1}, %fd0;",
        "mov.b32 %b0, {%h0, %h1};",
        "mov.b32 {%rh0, %rh1}, %f0;",
        "mov.b64 %bd0, {%sh0, %sh1, %sh2, %sh3};",
        "mov.b64 {%h0, %h1, %h2, %h3}, %bd0;",
        // The sink has no type (ISA: `mov.b64 {%r1, _}, %x;`).
        "mov.b64 {%f0, _}, %bd0;",
        "mov.b64 {_, %r1}, %bd0;",
        "mov.b64 {_, %h1, _, %h3}, %bd0;",
        // Integer and bit-size types mix: ptxas compiled the first.
        "mov.b64 %bd0, {%rh0, %rh0, %h0, %sh0};",
        "mov.b64 {%h0, %rh1, %sh2, _}, %bd0;",
        "mov.b32 {%sh0, %h1}, %r0;",
        "mov.b64 %bd0, {%b0, %r1};",
        "mov.b64 {%r0, %s1}, %bd0;",
    ] {
        let case = one(line).unwrap_or_else(|e| panic!("`{line}`: {e}"));
        let again = parse(&print(&case)).unwrap_or_else(|e| panic!("`{line}` prints: {e}"));
        assert_eq!(again, case, "`{line}` round trip");
    }
}

#[test]
fn refuses_vectors_of_two_types() {
    for (line, msg) in [
        // As ptxas did.
        ("mov.b64 {%f0, %r1}, %fd0;", "`%f0` is .f32, `%r1` is .u32"),
        ("mov.b64 %bd0, {%s0, %f1};", "`%s0` is .s32, `%f1` is .f32"),
        // Bit-size with float: not known; refused to be safe.
        ("mov.b64 %bd0, {%b0, %f1};", "`%b0` is .b32, `%f1` is .f32"),
        ("mov.b64 {%f0, %b1}, %bd0;", "`%f0` is .f32, `%b1` is .b32"),
    ] {
        let e = one(line).expect_err(line);
        assert!(
            e.contains("the elements of a `mov` vector must have one type") && e.ends_with(msg),
            "`{line}`: {e}"
        );
    }
}

#[test]
fn an_unpacking_vector_needs_a_register() {
    let e = one("mov.b64 {_, _}, %bd0;").expect_err("all sinks");
    assert!(e.contains("needs a register"), "{e}");
    let e = one("mov.b64 {_, _, _, _}, %bd0;").expect_err("all sinks");
    assert!(e.contains("needs a register"), "{e}");
}

/// The declared types of the registers of `x`'s `{...}` (sinks left out,
/// and a packed `_`, which reads as `0`).
fn group_types(prog: &Program, x: &LaneOp) -> Vec<Type> {
    let regs: Vec<Reg> = match x.kind {
        LaneOpKind::Pack => x
            .srcs
            .iter()
            .filter_map(|(o, _)| match o {
                Operand::Reg(r) => Some(*r),
                _ => None,
            })
            .collect(),
        _ => x
            .dests
            .iter()
            .filter_map(|(d, _)| match d {
                Dest::Reg(r) => Some(*r),
                Dest::Sink => None,
            })
            .collect(),
    };
    regs.iter().map(|&r| prog.decl(r).ty).collect()
}

#[test]
fn generated_vectors_have_one_type() {
    // 400 seeds of the default mix (a vector in one case of about 20),
    // then 400 of mostly the rest of the dialect.
    let heavy = Config {
        weights: Weights {
            lane_ops: 1000,
            ..Weights::default()
        },
        ..Config::default()
    };
    let mut vectors = 0;
    let mut kinds: HashSet<(bool, Type)> = HashSet::new();
    for seed in 0..800u64 {
        let cfg = if seed < 400 {
            Config::default()
        } else {
            heavy.clone()
        };
        let data = bytes(seed, 4096);
        let tc = generate(&mut Unstructured::new(&data), &cfg)
            .unwrap_or_else(|e| panic!("seed {seed}: {e}"));
        for inst in &tc.program.insts {
            let Op::LaneOp(x) = &inst.op else { continue };
            if !matches!(x.kind, LaneOpKind::Pack | LaneOpKind::Unpack) {
                continue;
            }
            vectors += 1;
            let types = group_types(&tc.program, x);
            let text = warp_core::text::inst_text(&tc.program, inst);
            assert!(!types.is_empty(), "seed {seed}: no register in `{text}`");
            assert!(
                types.iter().all(|t| *t == types[0]),
                "seed {seed}: `{text}` mixes {types:?}"
            );
            if let LaneOpKind::Pack = x.kind {
                assert!(
                    x.srcs.iter().all(|(o, _)| matches!(o, Operand::Reg(_))),
                    "seed {seed}: `{text}` packs a non-register"
                );
            }
            kinds.insert((x.kind == LaneOpKind::Pack, types[0]));
        }
        // And the whole case reads back (the parser refuses a mixed one).
        let text = print(&tc.to_case());
        parse(&text).unwrap_or_else(|e| panic!("seed {seed}: {e}\n{text}"));
    }
    println!("{vectors} vectors, {} (pack?, type) pairs", kinds.len());
    assert!(vectors >= 100, "only {vectors} vectors in 800 cases");
    // Every type a part may be declared as still comes up, packing and
    // unpacking.
    for pack in [true, false] {
        for ty in [
            Type::B32,
            Type::U32,
            Type::S32,
            Type::F32,
            Type::B16,
            Type::U16,
            Type::S16,
        ] {
            assert!(kinds.contains(&(pack, ty)), "never a {ty} vector ({pack})");
        }
    }
}

/// The reducer prints and parses back each candidate, so it keeps a sink
/// from standing for every element of an unpacking vector (which it
/// would make by replacing destinations by `_`) and refuses an input with
/// a mixed vector as invalid.
#[test]
fn the_reducer_makes_no_such_vector() {
    let src = ".reg .b64 %bd0;\n.reg .u32 %r0, %r1;\n.lanes %bd0 = 0x100000002;\n\
               mov.b64 {%r0, %r1}, %bd0;\n";
    let tc = {
        let c = parse(src).unwrap();
        TestCase {
            program: c.program,
            inputs: c.inputs,
        }
    };
    let unpacks = |tc: &TestCase| {
        tc.program
            .insts
            .iter()
            .filter(|i| matches!(&i.op, Op::LaneOp(x) if x.kind == LaneOpKind::Unpack))
            .count()
    };
    let mut seen = 0;
    let r = Reducer::new()
        .run(&tc, |c| {
            seen += 1;
            for inst in &c.program.insts {
                if let Op::LaneOp(x) = &inst.op {
                    if x.kind == LaneOpKind::Unpack {
                        assert!(
                            !group_types(&c.program, x).is_empty(),
                            "{}",
                            print(&c.to_case())
                        );
                    }
                }
            }
            unpacks(c) == 1
        })
        .unwrap();
    assert!(seen > 1, "the reducer tried nothing");
    assert_eq!(unpacks(&r.case), 1);
    let text = print(&r.case.to_case());
    assert!(text.contains("mov.b64 {"), "{text}");
    assert!(!text.contains("{_, _}"), "{text}");

    // A mixed vector made by hand (as no parser would) is refused.
    let mut mixed = tc.clone();
    mixed.program.regs[1].ty = Type::F32;
    match Reducer::new().run(&mixed, |_| true) {
        Err(ReduceError::Invalid(why)) => assert!(why.contains("one type"), "{why}"),
        other => panic!("expected Invalid, got {other:?}"),
    }
}
