//! The NaN bits of f32 `add`, `sub`, `mul`, `neg` and `abs` in the JIT's
//! code: the canonical `0x7fffffff` an H200 gives at run time (see
//! `Outcome::nan_open`: the comparison with the reference accepts any NaN
//! there, because `ptxas` folds immediates differently, so only this test
//! holds the JIT to the hardware's bits). The vector code leaves the
//! canonicalisation to a cold block entered when some lane of an
//! instruction is NaN (`alu.rs`'s `canonicalize_vecs`): NaN lanes here sit
//! in the first, the fourth and the last group of four lanes, under a
//! guard, and alone in an instruction. Values by hand (IEEE 754 binary32).

use warp_core::text::parse;
use warp_jit::{JitProgram, Tuning};

const ONE: u32 = 0x3f80_0000;
const TWO: u32 = 0x4000_0000;
const INF: u32 = 0x7f80_0000;
const NEG_INF: u32 = 0xff80_0000;
/// A negative NaN with a payload (x86's arithmetic keeps such bits).
const ODD_NAN: u32 = 0xffc0_0001;
const CANONICAL: u32 = 0x7fff_ffff;

/// Lane `l`'s `(A, B)`: 1 and 2 but on lanes 2 (inf, -inf), 13 (0, inf)
/// and 31 (a NaN, 2).
fn inputs(l: usize) -> (u32, u32) {
    match l {
        2 => (INF, NEG_INF),
        13 => (0, INF),
        31 => (ODD_NAN, TWO),
        _ => (ONE, TWO),
    }
}

/// By hand, lane `l`'s `(add, sub, mul, neg, abs)` of its inputs.
fn expected(l: usize) -> [u32; 5] {
    match l {
        // inf + -inf is NaN; inf - -inf = inf; inf * -inf = -inf.
        2 => [CANONICAL, INF, NEG_INF, NEG_INF, INF],
        // 0 + inf = inf, 0 - inf = -inf, 0 * inf is NaN, -0, +0.
        13 => [INF, NEG_INF, CANONICAL, 0x8000_0000, 0],
        // A NaN operand: every result NaN.
        31 => [CANONICAL; 5],
        // 1 + 2 = 3, 1 - 2 = -1, 1 * 2 = 2, -1, 1.
        _ => [0x4040_0000, 0xbf80_0000, TWO, 0xbf80_0000, ONE],
    }
}

fn lanes(f: impl Fn(usize) -> String) -> String {
    (0..32).map(f).collect::<Vec<_>>().join(" ")
}

#[test]
fn f32_nan_results_are_canonical_on_every_tuning() {
    let src = format!(
        ".reg .f32 A, B, ad, sb, ml, ng, ab, g, h;\n.reg .pred p, q;\n\
         .lanes A = {};\n.lanes B = {};\n.lanes p = {};\n.lanes q = {};\n\
         .lanes g = {};\n.lanes h = {};\n\
         \x20   add.f32 ad, A, B;\n    sub.f32 sb, A, B;\n    mul.f32 ml, A, B;\n\
         \x20   neg.f32 ng, A;\n    abs.f32 ab, A;\n\
         @p  add.f32 g, A, B;\n@q  sub.f32 h, B, A;\n",
        lanes(|l| format!("0f{:08x}", inputs(l).0)),
        lanes(|l| format!("0f{:08x}", inputs(l).1)),
        // p: lanes 0..15; q: lane 31 alone.
        lanes(|l| ((l < 16) as u32).to_string()),
        lanes(|l| ((l == 31) as u32).to_string()),
        lanes(|_| format!("0f{ONE:08x}")),
        lanes(|_| format!("0f{ONE:08x}")),
    );
    let case = parse(&src).expect("the program parses");
    let prog = &case.program;
    let reg = |name: &str| prog.reg(name).expect("declared").index();
    for tuning in [Tuning::FastCode, Tuning::Inline, Tuning::FastCompile] {
        let out = JitProgram::compile_with(prog, tuning)
            .expect("compiles")
            .run(&case.inputs)
            .expect("runs");
        for l in 0..32 {
            let want = expected(l);
            for (i, name) in ["ad", "sb", "ml", "ng", "ab"].into_iter().enumerate() {
                assert_eq!(
                    out.values[reg(name)][l] as u32,
                    want[i],
                    "{tuning:?}: {name} on lane {l}"
                );
            }
            // @p add on lanes 0..15; the others keep 1.0.
            let g = if l < 16 { want[0] } else { ONE };
            assert_eq!(
                out.values[reg("g")][l] as u32,
                g,
                "{tuning:?}: g on lane {l}"
            );
            // @q sub B - A on lane 31 alone: NaN there (2 - NaN); 1.0 elsewhere.
            let h = if l == 31 { CANONICAL } else { ONE };
            assert_eq!(
                out.values[reg("h")][l] as u32,
                h,
                "{tuning:?}: h on lane {l}"
            );
        }
    }
}
