//! The findings of session 12's `--avoid all` hunt (2026-11-28-l, issue
//! #35): a 400-s -O1 hunt on an H200 through the driver's JIT linker, seed
//! 0x3c01 (`docs/log/gpu-2026-11-28-l/d/found`), each against every
//! detector; the triage is `docs/log/gpu-2026-11-28-l/triage.md`.

/// A table row per finding of `d/found` (its class, the idioms the
/// detectors find with its inputs and without) and the counts per first
/// idiom ([`crate::idioms::print_triage`]); run by hand:
/// `cargo test -p warp-core --test suite triage_of_the_found_cases_of_2026_11_28_l -- --ignored --nocapture`.
#[test]
#[ignore = "prints the triage table of docs/log/gpu-2026-11-28-l/triage.md"]
fn triage_of_the_found_cases_of_2026_11_28_l() {
    assert_eq!(
        crate::idioms::print_triage("gpu-2026-11-28-l", &["d/found"]),
        20
    );
}
