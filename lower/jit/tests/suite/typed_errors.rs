//! One fault, one type (issue #41): the same out-of-bounds store reported
//! by the interpreter (undefined behaviour, [`Ub::fault`]) and by the JIT
//! (`LaunchError::Fault`) as the same `AccessFault`, its fields computed
//! by hand; and the launch errors' kinds.

use warp_core::launch::{Launch, LaunchError};
use warp_core::text::parse_module;
use warp_core::ub::{AccessFault, UbRule};

/// `out[%tid.x] = %tid.x`, the store on line 13.
const OOB: &str = include_str!("../../../../core/tests/data/oob_store.ptx");

/// 40 threads storing into 32 words: thread 32 (warp 1, lane 0) is the
/// first past the end.
fn launch() -> Launch {
    Launch::new("oob")
        .block([40, 1, 1])
        .buffer_u32("out", &[0; 32])
        .param_buffer("oob_param_0", "out")
}

/// What both engines must say, by hand: buffer 0 starts at
/// 0x20_0000_0000 (`ir::windows::BUFFERS`), thread 32 stores 4 bytes at
/// byte 4 * 32 = 0x80 of it.
fn want() -> AccessFault {
    AccessFault {
        rule: UbRule::MemoryOutOfBounds,
        cta: [0, 0, 0],
        warp: 1,
        lane: 0,
        tid: [32, 0, 0],
        line: 13,
        inst: "st.global.u32 [%rd4], %r1;".into(),
        address: Some(0x20_0000_0080),
        message:
            "address 0x2000000080 (4 bytes) is outside every buffer and .global/.const variable"
                .into(),
    }
}

#[test]
fn an_out_of_bounds_store_is_the_same_access_fault_on_the_interpreter_and_the_jit() {
    let m = parse_module(OOB).expect("valid PTX");
    let l = launch();
    let interp = warp_core::interp::run_launch(&m, &l).expect("runs to undefined behaviour");
    assert_eq!(interp.fault(), Some(&want()));
    let (_, ub) = interp.ub.as_ref().expect("undefined behaviour");
    assert_eq!(ub.rule, UbRule::MemoryOutOfBounds);
    match warp_jit::launch::run_launch(&m, &l) {
        Err(LaunchError::Fault(f)) => assert_eq!(f, want()),
        other => panic!("the JIT should fault: {other:?}"),
    }
    // On any number of threads.
    let k = warp_jit::launch::CompiledKernel::compile(&m, "oob").expect("compiles");
    for threads in [1, 3] {
        assert_eq!(
            k.launch_on(&l, threads),
            Err(LaunchError::Fault(want())),
            "{threads} threads"
        );
    }
    // Its message: where, the lane, `%tid`, the instruction and the address.
    assert_eq!(
        want().to_string(),
        "cta (0,0,0) warp 1: line 13: lane 0 (%tid (32,0,0)), `st.global.u32 [%rd4], %r1;`: address 0x2000000080 (4 bytes) is outside every buffer and .global/.const variable"
    );
    // The interpreter's report of the JIT's fault is the interpreter's own.
    assert_eq!(
        want().to_ub(),
        interp.ub.clone().expect("undefined behaviour")
    );
}

#[test]
fn a_launch_that_does_not_fit_is_invalid_on_both_engines() {
    let m = parse_module(OOB).expect("valid PTX");
    for l in [
        Launch::new("nope"),
        launch().block([2048, 1, 1]),
        Launch::new("oob").block([32, 1, 1]),
    ] {
        let i = warp_core::interp::run_launch(&m, &l).expect_err("does not fit");
        let j = warp_jit::launch::run_launch(&m, &l).expect_err("does not fit");
        assert!(matches!(i, LaunchError::Invalid(_)), "{i:?}");
        assert_eq!(i, j);
    }
}
