//! 32-bit shifts by a per-lane amount on every tuning against values
//! worked out by hand, amounts past the width included: PTX clamps them
//! ("shift amounts greater than the register width N are clamped to N": 0
//! for `shl` and `shr.b32`, the sign in every bit for `shr.s32`), where
//! x86's shifts take the amount modulo 32. (The JIT runs these per lane: a
//! four-lane version applying the amount bit by bit was measured slower on
//! `compact`, 1.0e8 → 7.8e7 wi/s, and not kept.)

use warp_core::interp::Interp;
use warp_core::text::parse;
use warp_jit::{JitProgram, Tuning};

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
