//! The fuzzing oracle runs for about a second under `cargo test` (the
//! regalloc2 pattern), so the fuzz loop cannot rot on stable: random bytes
//! → generated case → reference interpreter → JIT, compared on defined
//! lanes. Any divergence fails with the case as a `.ptx` file.

use std::time::{Duration, Instant};
use warp_core::engine::Engine;
use warp_core::gen::Stats;
use warp_jit::JitEngine;
use warpdiff::fuzz::case::{case_from_bytes, case_text, run_case, CaseResult};

#[test]
fn smoke() {
    let jit = JitEngine::fast_compile();
    let others: [&dyn Engine; 1] = [&jit];
    let mut stats = Stats::default();
    let mut rng = warp_core::rng::Rng::new(0x2545_f491_4f6c_dd1d);
    let start = Instant::now();
    let mut cases = 0;
    while start.elapsed() < Duration::from_secs(1) || cases < 20 {
        let bytes = rng.bytes(1024);
        let Some(tc) = case_from_bytes(&bytes, &mut stats) else {
            continue;
        };
        cases += 1;
        if let CaseResult::Diverge(tc, d) = run_case(&tc, &others, &mut stats) {
            panic!("divergence:\n{}", case_text(&tc, &d, vec![]));
        }
    }
    println!(
        "{cases} cases in {:.2} s, usable {:.1}%",
        start.elapsed().as_secs_f64(),
        100.0 * stats.usable_share()
    );
    assert!(
        stats.usable_share() > 0.9,
        "usable share {}",
        stats.usable_share()
    );
}
