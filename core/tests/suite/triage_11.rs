//! The findings of session 11's `--avoid all` hunt (2026-11-28-k, issue
//! #35): H34's 150-s -O3 hunt on an H200 with the level sweep's retries
//! (`docs/log/gpu-2026-11-28-k/c/found`), each against every detector.

/// A table row per finding of `c/found` (its class, the idioms the
/// detectors find with its inputs and without) and the counts per first
/// idiom ([`crate::idioms::print_triage`]); run by hand:
/// `cargo test -p warp-core --test suite triage_of_the_found_cases_of_2026_11_28_k -- --ignored --nocapture`.
#[test]
#[ignore = "prints the triage table of docs/log/gpu-2026-11-28-k/README.md"]
fn triage_of_the_found_cases_of_2026_11_28_k() {
    assert_eq!(
        crate::idioms::print_triage("gpu-2026-11-28-k", &["c/found"]),
        19
    );
}
