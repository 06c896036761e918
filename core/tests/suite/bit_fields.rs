//! `bfe`'s and `bfi`'s position and length (issue #39 follow-up, brief
//! H12): "Operands b and c are type .u32, but are restricted to the 8-bit
//! value range 0..255" (PTX ISA `bfe`; `bfi`: "Operands c and d ...").
//! An immediate outside 0..255 is refused where it stands, as `ptxas`
//! refuses it ("Argument 2 of instruction 'bfe': value '1796237040' out of
//! range, expected to be in range [0..255]"); the generator and the reducer
//! never make one; a register value outside it makes the lane's result
//! undefined (the H200 does not take it `& 0xff`:
//! `corpus/cases/bit-field-range-in-register-h200.ptx`). Expected values
//! by hand from the ISA pages.

use crate::common;
use arbitrary::Unstructured;
use common::bytes;
use warp_core::gen::{generate, Config, TestCase, Weights};
use warp_core::interp::lane_ops::eval;
use warp_core::interp::Interp;
use warp_core::ir::{Dest, IntOp, LaneOp, LaneOpKind, Op, Operand, Program};
use warp_core::reduce::Reducer;
use warp_core::text::{parse, parse_module, print};

const DECLS: &str = ".reg .b32 %r<4>;\n.reg .b64 %rd<4>;\n";

/// The error of a case whose third line is `line`.
fn refusal(line: &str) -> warp_core::text::ParseError {
    parse(&format!("{DECLS}{line}\n")).expect_err(line)
}

#[test]
fn an_immediate_position_or_length_past_255_is_refused_where_it_stands() {
    // (line, the refused operand's text, which operand, its value)
    for (line, operand, what, v) in [
        // The one of the H200 run: bfe's argument 2.
        (
            "    bfe.s32 _, 0, 0x6b1066f0, 0;",
            "0x6b1066f0",
            "position",
            1_796_237_040u64,
        ),
        ("    bfe.u32 %r1, %r2, 8, 256;", "256", "length", 256),
        ("    bfe.s64 %rd1, %rd2, 300, 4;", "300", "position", 300),
        ("    bfe.u64 %rd1, %rd2, 0, 0x100;", "0x100", "length", 256),
        ("    bfi.b32 %r1, %r2, %r3, 256, 8;", "256", "position", 256),
        (
            "    bfi.b64 %rd1, %rd2, %rd3, 0, 4096;",
            "4096",
            "length",
            4096,
        ),
    ] {
        let e = refusal(line);
        let mnemonic = &line.trim_start()[..3];
        assert_eq!(e.line, 3, "{line}: {e}");
        // 1-based: the column where the operand starts.
        let col = line.find(&format!(" {operand}")).expect("in the line") as u32 + 2;
        assert_eq!(e.col, col, "{line}: {e}");
        let msg = format!("`{mnemonic}`'s {what} must be in 0..255, not {v}");
        assert!(e.msg.contains(&msg), "{line}: {e}");
    }
    // The file name goes in front, as the command line prints it.
    assert_eq!(
        refusal("    bfe.s32 _, 0, 0x6b1066f0, 0;")
            .with_file("a.ptx")
            .split(": ")
            .next(),
        Some("a.ptx:3:19")
    );
}

#[test]
fn positions_and_lengths_up_to_255_and_registers_are_accepted() {
    for line in [
        "    bfe.u32 %r1, %r2, 255, 255;",
        "    bfe.s64 %rd1, %rd2, 0, 0;",
        "    bfe.u32 %r1, %r2, %r3, %r3;",
        "    bfi.b64 %rd1, %rd2, %rd3, 255, 0;",
        "    bfi.b32 %r1, %r2, %r3, %r1, %r2;",
        // Any value where the range does not apply.
        "    bfe.u32 %r1, 0x6b1066f0, 1, 2;",
        "    bfi.b32 %r1, 0x6b1066f0, 0xffffffff, 3, 4;",
    ] {
        parse(&format!("{DECLS}{line}\n")).unwrap_or_else(|e| panic!("{line}: {e}"));
    }
}

#[test]
fn a_kernel_body_refuses_it_too() {
    let src = ".version 9.0\n.target sm_90\n.address_size 64\n.visible .entry k()\n{\n\
               \t.reg .b32 %r<2>;\n\tbfi.b32 \t%r1, %r0, %r0, 8, 1000;\n\tret;\n}\n";
    let e = parse_module(src).expect_err("out of range");
    assert_eq!((e.line, e.col), (7, 29), "{e}");
    assert!(
        e.msg.contains("`bfi`'s length must be in 0..255, not 1000"),
        "{e}"
    );
}

/// The lane op of a one-instruction case.
fn lane_op(line: &str) -> LaneOp {
    let c = parse(&format!("{DECLS}    {line}\n")).unwrap_or_else(|e| panic!("{line}: {e}"));
    match &c.program.insts[0].op {
        Op::LaneOp(x) => x.clone(),
        op => panic!("{line}: {op:?}"),
    }
}

#[test]
fn a_register_position_or_length_past_255_makes_the_result_undefined() {
    // `bfe.u64 d, a, b, c`: "d = 0; for (i = 0; i <= msb; i++) d[i] = (i <
    // len && pos+i <= msb) ? a[pos+i] : sbit", sbit 0 for the unsigned
    // types. a = 1, len = 1: bit 0 of a from position 0 is 1; from position
    // 255 (past msb 63) nothing, 0.
    let x = lane_op("bfe.u64 %rd1, 1, %r0, 1;");
    assert_eq!(eval(&x, [1, 0, 1, 0]), Some(1));
    assert_eq!(eval(&x, [1, 255, 1, 0]), Some(0));
    // The H200's operand: 0x5348fb00 & 0xff would be 0, giving 1; the GPU
    // gave 0. Outside 0..255: undefined.
    assert_eq!(eval(&x, [1, 0x5348_fb00, 1, 0]), None);
    assert_eq!(eval(&x, [1, 256, 1, 0]), None);
    // The length likewise: 255 takes every bit of a (and bfe.s32 fills
    // with a[min(pos+len-1, msb)] = a[31] = 1, none left to fill here).
    let x = lane_op("bfe.s32 %r1, %r2, 0, %r3;");
    assert_eq!(eval(&x, [0x8000_00f0, 0, 255, 0]), Some(0x8000_00f0));
    assert_eq!(eval(&x, [0x8000_00f0, 0, 256, 0]), None);
    // `bfi.b64 f, a, b, c, d`: "f = b; for (i = 0; i < len && pos+i <=
    // msb; i++) f[pos+i] = a[i]". a = 0, b = 1, pos = 0: a length of 0
    // keeps b = 1, a length of 1 or 255 clears bit 0.
    let x = lane_op("bfi.b64 %rd1, 0, 1, 0, %r0;");
    assert_eq!(eval(&x, [0, 1, 0, 0]), Some(1));
    assert_eq!(eval(&x, [0, 1, 0, 1]), Some(0));
    assert_eq!(eval(&x, [0, 1, 0, 255]), Some(0));
    // The H200's: 0x80000000 & 0xff would be 0, giving 1; the GPU gave 0.
    assert_eq!(eval(&x, [0, 1, 0, 0x8000_0000]), None);
    assert_eq!(eval(&x, [0, 1, 0, 256]), None);
    // And the position: 8 puts a's low byte at bits 8..15.
    let x = lane_op("bfi.b32 %r1, 0xab, 0x12345678, %r0, 8;");
    assert_eq!(eval(&x, [0xab, 0x1234_5678, 8, 8]), Some(0x1234_ab78));
    assert_eq!(eval(&x, [0xab, 0x1234_5678, 0x108, 8]), None);
}

/// Every `bfe`/`bfi` position and length of `p` that is an immediate.
fn bit_field_immediates(p: &Program) -> Vec<u64> {
    let mut v = Vec::new();
    for inst in &p.insts {
        let Op::LaneOp(x) = &inst.op else { continue };
        let first = match x.kind {
            LaneOpKind::Int(IntOp::Bfe) => 1,
            LaneOpKind::Int(IntOp::Bfi) => 2,
            _ => continue,
        };
        for (o, _) in &x.srcs[first..first + 2] {
            if let Operand::Imm(k) = o {
                v.push(*k);
            }
        }
    }
    v
}

#[test]
fn the_generator_draws_immediate_positions_and_lengths_up_to_255() {
    // Lane ops only, so that bfe and bfi (6 of the row's forms) come often.
    let cfg = Config {
        weights: Weights {
            glue: 1,
            shfl: 0,
            vote: 0,
            matching: 0,
            redux: 0,
            activemask: 0,
            lane_ops: 100,
            branch: 0,
            if_else: 0,
            loops: 0,
            exit: 0,
            jump: 0,
        },
        ..Config::default()
    };
    let mut imms = Vec::new();
    for seed in 0..400 {
        let data = bytes(seed, 4096);
        let tc = generate(&mut Unstructured::new(&data), &cfg).expect("a case");
        imms.extend(bit_field_immediates(&tc.program));
    }
    assert!(imms.len() >= 50, "only {} immediates", imms.len());
    assert!(imms.iter().all(|&k| k <= 255), "{imms:?}");
    // Past every width, up to the most there is.
    assert!(imms.iter().any(|&k| k > 64), "{imms:?}");
}

#[test]
fn the_reducer_never_makes_one() {
    // %r0 holds 300 on every lane: the position is out of range, so %r1
    // is undefined. The operands pass tries 0 and 1 for %r0 (which define
    // %r1: not interesting), then its lane-0 input, 300, as an immediate:
    // that candidate does not parse back, so it is skipped and the
    // predicate never sees it; the register stays.
    let src = ".reg .b32 %r<4>;\n.lanes %r0 = 300;\n.lanes %r2 = 0xf0;\n\
               \x20   bfe.u32 %r1, %r2, %r0, 4;\n    add.u32 %r3, %r1, 1;\n";
    let c = parse(src).expect("parses");
    let tc = TestCase {
        program: c.program,
        inputs: c.inputs,
    };
    let mut seen = Vec::new();
    // A bfe writes %r1, which is undefined on lane 0.
    let undefined_bfe = |c: &TestCase| {
        seen.extend(bit_field_immediates(&c.program));
        let Some(r1) = c.program.reg("%r1") else {
            return false;
        };
        let writes = c.program.insts.iter().any(|i| match &i.op {
            Op::LaneOp(x) => x.kind == LaneOpKind::Int(IntOp::Bfe) && x.dests[0].0 == Dest::Reg(r1),
            _ => false,
        });
        let out = Interp::new(&c.program).run(&c.inputs).expect("runs");
        writes && out.bits(r1, 0).defined & 0xffff_ffff == 0
    };
    let small = Reducer::new()
        .seed(1)
        .run(&tc, undefined_bfe)
        .expect("reduces");
    assert!(!seen.is_empty(), "the operands pass tried immediates");
    assert!(seen.iter().all(|&k| k <= 255), "{seen:?}");
    let text = print(&small.case.to_case());
    parse(&text).expect("parses");
    println!("{text}");
    assert!(
        bit_field_immediates(&small.case.program)
            .iter()
            .all(|&k| k <= 255),
        "{text}"
    );
}
