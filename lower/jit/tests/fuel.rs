//! The JIT stops with the same fuel error as the reference interpreter, at
//! the same instruction, on an endless loop. (That it agrees on every
//! corpus file is `tests/replay.rs`.)

use warp_core::interp::{Interp, RunError};
use warp_core::text::parse;
use warp_jit::JitProgram;

#[test]
fn fuel_error_is_the_same() {
    let src = ".reg .b32 Rx;\n.reg .pred p;\n.lanes Rx = 0;\n    setp.eq.u32 p, %laneid, 3;\nTOP:\n    add.u32 Rx, Rx, 1;\n@p  exit;\n    bra TOP;\n";
    let case = parse(src).expect("parses");
    for fuel in [0, 1, 5, 1000, 1001, 1002] {
        let want = Interp::new(&case.program).with_fuel(fuel).run(&case.inputs);
        let jit = JitProgram::compile(&case.program)
            .expect("compiles")
            .with_fuel(fuel);
        let got = jit.run(&case.inputs);
        match (want, got) {
            (Err(a), Err(b)) => assert_eq!(a, b, "fuel {fuel}"),
            (a, b) => panic!("fuel {fuel}: interp {a:?}, jit {b:?}"),
        }
    }
    let e = JitProgram::compile(&case.program)
        .expect("compiles")
        .with_fuel(10)
        .run(&case.inputs);
    assert!(matches!(e, Err(RunError::OutOfFuel { steps: 10, .. })));
}
