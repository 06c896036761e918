//! The findings of session 13's `--avoid all` hunt (2026-11-28-m, issue
//! #35): a 330-s -O3 hunt on an H200 through the driver's JIT linker, seed
//! 0x3d01 (`docs/log/gpu-2026-11-28-m/a/found`), each against every
//! detector; the triage is `docs/log/gpu-2026-11-28-m/triage.md`.

/// A table row per finding of `a/found` (its class, the idioms the
/// detectors find with its inputs and without) and the counts per first
/// idiom ([`crate::idioms::print_triage`]); run by hand:
/// `cargo test -p warp-core --test suite triage_of_the_found_cases_of_2026_11_28_m -- --ignored --nocapture`.
#[test]
#[ignore = "prints the triage table of docs/log/gpu-2026-11-28-m/triage.md"]
fn triage_of_the_found_cases_of_2026_11_28_m() {
    assert_eq!(
        crate::idioms::print_triage("gpu-2026-11-28-m", &["a/found"]),
        21
    );
}
