//! The fast-compile tier with its helper cache full from the start
//! (`outline::set_max_helpers(0)`): every instruction is lowered inline
//! inside the outlined driver (its shared helpers for guards, arrivals
//! and completion of whole groups fall back too). On random generated
//! programs it must still equal the interpreter on every defined lane. Its
//! own test binary: the limit is global to the process.

use arbitrary::{Arbitrary, Unstructured};
use std::time::{Duration, Instant};
use warp_core::compare::compare;
use warp_core::gen::{generate, Config};
use warp_core::interp::Interp;
use warp_core::rng::Rng;
use warp_jit::{outline, JitProgram, Limits, Tuning};

#[test]
fn a_full_helper_cache_lowers_inline_and_still_equals_the_interpreter() {
    outline::set_max_helpers(0);
    let mut rng = Rng::new(0x14f0);
    let deadline = Instant::now() + Duration::from_secs(2);
    let (mut compared, mut bounded, mut cases) = (0u32, 0u32, 0u32);
    while Instant::now() < deadline || compared < 30 {
        cases += 1;
        assert!(cases < 10_000, "too few usable cases");
        let bytes = rng.bytes(4096);
        let mut u = Unstructured::new(&bytes);
        let cfg = Config::arbitrary(&mut u).unwrap_or_default();
        let Ok(tc) = generate(&mut u, &cfg) else {
            continue;
        };
        let Ok(reference) = Interp::new(&tc.program).run(&tc.inputs) else {
            continue;
        };
        if reference.ub.is_some() {
            continue;
        }
        let jit = if tc.inputs.fuel.is_some() {
            bounded += 1;
            JitProgram::compile_stepped(&tc.program, Tuning::FastCompile, Limits::default())
        } else {
            JitProgram::compile_with(&tc.program, Tuning::FastCompile)
        }
        .expect("compiles");
        let out = jit.run(&tc.inputs).expect("runs");
        let diffs = compare(&reference, &out);
        assert!(
            diffs.is_empty(),
            "case {cases} diverges:\n{}",
            warp_core::text::print(&tc.to_case())
        );
        compared += 1;
    }
    let stats = outline::stats();
    assert_eq!(stats.helpers, 0, "no helper was compiled");
    assert!(stats.inlined > 0, "sites were lowered inline: {stats:?}");
    println!("{compared} cases compared ({bounded} bounded), {stats:?}");
}
