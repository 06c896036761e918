//! 32-bit shifts by a per-lane amount on every tuning against values
//! worked out by hand, amounts past the width included: PTX clamps them
//! ("shift amounts greater than the register width N are clamped to N": 0
//! for `shl` and `shr.b32`, the sign in every bit for `shr.s32`), where
//! x86's shifts take the amount modulo 32. The JIT runs them four lanes at
//! a time as multiplies by powers of two (`alu.rs`'s `shift_lanes_vec`;
//! with `%laneid` as the amount the powers are constants, and with an
//! immediate value the whole result is).

use warp_core::interp::Interp;
use warp_core::text::parse;
use warp_jit::{JitProgram, Tuning};

/// Runs `case` on the interpreter and every JIT tuning and hands each
/// one's register values to `check`, with the engine's name.
fn on_every_engine(case: &warp_core::ir::Case, check: impl Fn(&str, &[[u64; 32]])) {
    let reference = Interp::new(&case.program).run(&case.inputs).expect("runs");
    check("interp", &reference.values);
    for tuning in [Tuning::FastCode, Tuning::FastCompile, Tuning::Inline] {
        let got = JitProgram::compile_with(&case.program, tuning)
            .expect("compiles")
            .run(&case.inputs)
            .expect("runs");
        check(&format!("{tuning:?}"), &got.values);
    }
}

/// Per lane: the amount, then `0x8000_0001 << n`, `0x8000_0001 >> n`
/// (logical) and `0x8000_0001 >> n` (arithmetic), by hand.
const CASES: [(u32, u32, u32, u32); 16] = [
    (0, 0x8000_0001, 0x8000_0001, 0x8000_0001),
    (1, 0x0000_0002, 0x4000_0000, 0xc000_0000),
    (2, 0x0000_0004, 0x2000_0000, 0xe000_0000),
    (3, 0x0000_0008, 0x1000_0000, 0xf000_0000),
    (4, 0x0000_0010, 0x0800_0000, 0xf800_0000),
    (5, 0x0000_0020, 0x0400_0000, 0xfc00_0000),
    (8, 0x0000_0100, 0x0080_0000, 0xff80_0000),
    (15, 0x0000_8000, 0x0001_0000, 0xffff_0000),
    (16, 0x0001_0000, 0x0000_8000, 0xffff_8000),
    (30, 0x4000_0000, 0x0000_0002, 0xffff_fffe),
    (31, 0x8000_0000, 0x0000_0001, 0xffff_ffff),
    (32, 0, 0, 0xffff_ffff),
    (33, 0, 0, 0xffff_ffff),
    (63, 0, 0, 0xffff_ffff),
    (0x8000_0000, 0, 0, 0xffff_ffff),
    (0xffff_ffff, 0, 0, 0xffff_ffff),
];

#[test]
fn shifts_by_a_per_lane_amount() {
    let list = |f: &dyn Fn(usize) -> String| (0..32).map(f).collect::<Vec<_>>().join(" ");
    let src = format!(
        ".reg .b32 a, n, l, r;\n.reg .s32 s;\n.reg .pred p;\n.lanes a = 0x80000001;\n\
         .lanes n = {};\n.lanes p = {};\n.lanes l = 7;\n.lanes r = 7;\n.lanes s = 7;\n\
         @p  shl.b32 l, a, n;\n    shr.b32 r, a, n;\n    shr.s32 s, a, n;\n",
        list(&|i| format!("{:#x}", CASES[i % 16].0)),
        // Lanes 16..31 under a false guard: `l` keeps 7 there.
        list(&|i| (if i < 16 { "1" } else { "0" }).to_string()),
    );
    let case = parse(&src).expect("parses");
    let want_l: Vec<u64> = (0..32)
        .map(|i| if i < 16 { CASES[i].1 as u64 } else { 7 })
        .collect();
    let want_r: Vec<u64> = (0..32).map(|i| CASES[i % 16].2 as u64).collect();
    let want_s: Vec<u64> = (0..32).map(|i| CASES[i % 16].3 as u64).collect();
    let check = |what: &str, values: &[[u64; 32]]| {
        assert_eq!(values[2].to_vec(), want_l, "{what}: shl");
        assert_eq!(values[3].to_vec(), want_r, "{what}: shr.b32");
        assert_eq!(values[4].to_vec(), want_s, "{what}: shr.s32");
    };
    on_every_engine(&case, check);
}

/// By `%laneid` (amount i on lane i): `0x8000_0001 << i` is `0x8000_0001`
/// on lane 0 and `1 << i` elsewhere (the top bit leaves); `0x8000_0001 >>
/// i` logically is `0x8000_0001`, then `0x8000_0000 >> i` = `1 << (31 -
/// i)`; arithmetically the bits above that one are copies of the sign:
/// `!((1 << (31 - i)) - 1)`. With an immediate value: `1 << i`, and
/// `0x8000_0000 >> i` arithmetically, `!((1 << (31 - i)) - 1)` on every
/// lane.
#[test]
fn shifts_by_the_lane_id() {
    let src = ".reg .b32 a, l, r, one, top;\n.reg .s32 s, stop;\n.reg .pred p;\n.reg .b32 t;\n\
               .lanes a = 0x80000001;\n.lanes l = 7;\n\
               and.b32 t, %laneid, 1;\n    setp.eq.u32 p, t, 0;\n\
               @p  shl.b32 l, a, %laneid;\n    shr.b32 r, a, %laneid;\n\
               shr.s32 s, a, %laneid;\n    shl.b32 one, 1, %laneid;\n\
               shr.b32 top, 0x80000000, %laneid;\n    shr.s32 stop, 0x80000000, %laneid;\n";
    let case = parse(src).expect("parses");
    let fill = |i: u32| !((1u64 << (31 - i)) - 1) as u32 as u64;
    let want: [(&str, usize, Vec<u64>); 6] = [
        // l under p (even lanes): odd lanes keep 7.
        (
            "shl a",
            1,
            (0..32)
                .map(|i| match i {
                    0 => 0x8000_0001,
                    i if i % 2 == 1 => 7,
                    i => 1 << i,
                })
                .collect(),
        ),
        (
            "shr.b32 a",
            2,
            (0..32)
                .map(|i| if i == 0 { 0x8000_0001 } else { 1 << (31 - i) })
                .collect(),
        ),
        (
            "shr.s32 a",
            5,
            (0..32)
                .map(|i| if i == 0 { 0x8000_0001 } else { fill(i) })
                .collect(),
        ),
        ("shl 1", 3, (0..32).map(|i| 1 << i).collect()),
        (
            "shr.b32 0x80000000",
            4,
            (0..32).map(|i| 1 << (31 - i)).collect(),
        ),
        ("shr.s32 0x80000000", 6, (0..32).map(fill).collect()),
    ];
    let check = |what: &str, values: &[[u64; 32]]| {
        for (name, reg, lanes) in &want {
            assert_eq!(values[*reg].to_vec(), *lanes, "{what}: {name}");
        }
    };
    on_every_engine(&case, check);
}
