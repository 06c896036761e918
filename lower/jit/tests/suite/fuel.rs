//! The JIT stops with the same fuel error as the reference interpreter, at
//! the same instruction, on an endless loop, whole and in parts. (That it agrees on every
//! corpus file is `tests/replay.rs`.)

use warp_core::engine::RunError;
use warp_core::interp::Interp;
use warp_core::text::parse;
use warp_jit::{JitProgram, Limits, Tuning};

#[test]
fn fuel_error_is_the_same() {
    // A loop of three instructions, and one of a single `bra` (a taken back
    // edge per step: the most the runaway bound allows).
    let three = ".reg .b32 Rx;\n.reg .pred p;\n.lanes Rx = 0;\n    setp.eq.u32 p, %laneid, 3;\nTOP:\n    add.u32 Rx, Rx, 1;\n@p  exit;\n    bra TOP;\n";
    let one = ".reg .b32 Rx;\n.lanes Rx = 0;\n    add.u32 Rx, Rx, 1;\nTOP:\n    bra TOP;\n";
    for src in [three, one] {
        check_fuel_errors(src);
    }
    let case = parse(three).expect("parses");
    let e = JitProgram::compile(&case.program)
        .expect("compiles")
        .with_fuel(10)
        .run(&case.inputs);
    assert!(matches!(e, Err(RunError::OutOfFuel { steps: 10, .. })));
}

/// The interpreter's and the JIT's (whole and in parts of one
/// instruction) results on `src` for a range of fuels are the same.
fn check_fuel_errors(src: &str) {
    let case = parse(src).expect("parses");
    for fuel in [0, 1, 5, 1000, 1001, 1002] {
        let want = Interp::new(&case.program)
            .with_fuel(fuel)
            .run(&case.inputs)
            .map_err(RunError::from);
        // Whole, and in parts of one instruction (the loop crosses parts).
        for split in [None, Some(1)] {
            let jit = match split {
                None => JitProgram::compile(&case.program),
                Some(k) => JitProgram::compile_in_parts(
                    &case.program,
                    Tuning::FastCode,
                    Limits::default(),
                    false,
                    k,
                ),
            }
            .expect("compiles")
            .with_fuel(fuel);
            let got = jit.run(&case.inputs);
            match (&want, got) {
                (Err(a), Err(b)) => assert_eq!(a, &b, "fuel {fuel}, parts {split:?}"),
                (a, b) => panic!("fuel {fuel}, parts {split:?}: interp {a:?}, jit {b:?}"),
            }
        }
    }
}

/// Straight-line code with `.sync` collectives, every fuel from 0 to past
/// its end, on every tuning: the run stops before instruction `fuel` (the
/// warp stays converged, one step per instruction), at that instruction's
/// line. The fast-compile tier charges a segment's fuel inside the
/// collective's `arrive` call when the segment is helper calls ending at
/// the collective (here the first two segments), in the code otherwise
/// (the last).
#[test]
fn fuel_runs_out_before_each_instruction() {
    let src = "\
.reg .b32 r0, r1;
.lanes r0 = 0 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20 21 22 23 24 25 26 27 28 29 30 31;
    add.u32 r0, r0, 1;
    shfl.sync.bfly.b32 r1, r0, 1, 0x1f, 0xffffffff;
    add.u32 r0, r0, r1;
    mul.lo.u32 r0, r0, 3;
    redux.sync.add.u32 r1, r0, 0xffffffff;
    add.u32 r0, r0, r1;
";
    let case = parse(src).expect("parses");
    // The instructions are on lines 3 to 8 of the text.
    let line = |pc: u64| pc as u32 + 3;
    let n = case.program.insts.len() as u64;
    assert_eq!(n, 6);
    // Whole, and in parts of 1, 2 and 4 instructions: a cut splits a
    // segment's fuel charge in two, which must stop at the same
    // instruction.
    let tunings = [Tuning::FastCode, Tuning::FastCompile, Tuning::Inline];
    let splits = [None, Some(1), Some(2), Some(4)];
    for (tuning, split) in tunings.into_iter().flat_map(|t| splits.map(|s| (t, s))) {
        for fuel in 0..=n + 1 {
            let jit = match split {
                None => JitProgram::compile_with(&case.program, tuning),
                Some(k) => {
                    JitProgram::compile_in_parts(&case.program, tuning, Limits::default(), false, k)
                }
            };
            let got = jit.expect("compiles").with_fuel(fuel).run(&case.inputs);
            let want = Interp::new(&case.program)
                .with_fuel(fuel)
                .run(&case.inputs)
                .map_err(RunError::from);
            if fuel < n {
                let stop = RunError::OutOfFuel {
                    steps: fuel,
                    line: line(fuel),
                };
                assert_eq!(want.as_ref().err(), Some(&stop), "interp, fuel {fuel}");
                assert_eq!(got.err(), Some(stop), "{tuning:?} {split:?}, fuel {fuel}");
            } else {
                let (want, got) = (want.expect("runs"), got.expect("runs"));
                assert_eq!(got.values, want.values, "{tuning:?} {split:?}, fuel {fuel}");
            }
        }
    }
}
