//! `popc.b32` on every tuning against counts worked out by hand: the JIT
//! counts 32-bit lanes four at a time (`alu.rs`'s `popc_vec`, a bit-sliced
//! sum), so every bit position and the blend under a guard are checked.

use warp_core::interp::Interp;
use warp_core::text::parse;
use warp_jit::{JitProgram, Tuning};

/// Lane values and their population counts, by hand.
const CASES: [(u32, u64); 16] = [
    (0x0000_0000, 0),
    (0x0000_0001, 1),
    (0xffff_ffff, 32),
    (0x8000_0000, 1),
    (0x5555_5555, 16),
    (0xaaaa_aaaa, 16),
    (0x0f0f_0f0f, 16),
    (0xf0f0_f0f0, 16),
    (0x00ff_00ff, 16),
    (0x7fff_ffff, 31),
    (0xffff_fffe, 31),
    // 1+1+2+1+2+2+3+1 over the nibbles 1..8.
    (0x1234_5678, 13),
    (0x0101_0101, 4),
    (0x8080_8080, 4),
    // d, e, a, d, b, e, e, f: 3+3+2+3+3+3+3+4.
    (0xdead_beef, 24),
    (0x0000_0003, 2),
];

#[test]
fn popc_b32_counts_every_lane() {
    let lanes: Vec<String> = (0..32).map(|i| format!("{:#x}", CASES[i % 16].0)).collect();
    let src = format!(
        ".reg .b32 a, d, g;\n.reg .pred p;\n.lanes a = {};\n.lanes g = {};\n\
         .lanes d = 99;\n    setp.ne.u32 p, g, 0;\n    popc.b32 d, a;\n@p  popc.b32 g, a;\n",
        lanes.join(" "),
        (0..32)
            .map(|i| if i % 2 == 0 { "1" } else { "0" })
            .collect::<Vec<_>>()
            .join(" ")
    );
    let case = parse(&src).expect("parses");
    // d: every lane's count; g: the count on even lanes (p), 0 kept on odd.
    let want_d: Vec<u64> = (0..32).map(|i| CASES[i % 16].1).collect();
    let want_g: Vec<u64> = (0..32)
        .map(|i| if i % 2 == 0 { CASES[i % 16].1 } else { 0 })
        .collect();
    let reference = Interp::new(&case.program).run(&case.inputs).expect("runs");
    assert_eq!(reference.values[1].to_vec(), want_d, "interp d");
    assert_eq!(reference.values[2].to_vec(), want_g, "interp g");
    for tuning in [Tuning::FastCode, Tuning::FastCompile, Tuning::Inline] {
        let got = JitProgram::compile_with(&case.program, tuning)
            .expect("compiles")
            .run(&case.inputs)
            .expect("runs");
        assert_eq!(got.values[1].to_vec(), want_d, "{tuning:?} d");
        assert_eq!(got.values[2].to_vec(), want_g, "{tuning:?} g");
    }
}
