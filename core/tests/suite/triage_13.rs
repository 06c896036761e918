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

/// The finding of `a/found` that is a known bug's shape which its
/// detector missed for a detail of the reduction (triage.md, group K1X),
/// wrong on the H200 from -O1 to -O4 and right at -O0 (the finding's own
/// level sweep, its `// class` line) with K1's value: `not.b64-989d5d72`
/// (lane 30 alone: `@%p3 not.b64 %bd2, 0`, then `@%p0 vote.any.pred %p3,
/// !%p3`, which makes `%p3` 0: the GPU's `%bd2` 0 is the `not` skipped,
/// its guard read after the vote, where the reference has
/// 0xffffffffffffffff), which the unreachable `exit` after `bra L1` hid
/// from K1's scan. Named, with its inputs and alone, by K1's detector only.
#[test]
fn the_widened_k1_names_its_finding_of_2026_11_28_m() {
    use crate::idioms::log_case;
    use warp_core::idioms::{idioms, idioms_in_case, Idiom};
    let file = "gpu-2026-11-28-m/a/found/not.b64-989d5d72";
    let case = log_case(file);
    let k1 = vec![Idiom::GuardRedefinedByCollective];
    assert_eq!(idioms_in_case(&case.program, &case.inputs), k1, "{file}");
    assert_eq!(idioms(&case.program), k1, "{file} alone");
}

/// The widening of K1 (the scan passes an instruction no lane reaches)
/// keeps its whole shape: on the triage's variants
/// (`docs/log/gpu-2026-11-28-m/triage/experiments/`) it fires where the
/// variant keeps it (the found case, and the form the detector took
/// before: `k1x.no-dead-exit`) and not where the one change removes the
/// bug's precondition: `k1x.fresh-pred` makes the vote write a fresh
/// predicate (no redefinition of the guard). N1S (`n1s.*`, N1's shape with
/// a sink `mov` before the `exit`) is not widened: N1's detector there
/// would also take session 10's `k2-inner.found` and `.fresh-pred`
/// (triage.md), so its variants hold no idiom. No hardware row of these
/// variants yet (the main session runs `devrun/s13h/run.sh`).
#[test]
fn the_widened_k1_needs_its_whole_shape() {
    use crate::idioms::log_case;
    use warp_core::idioms::{idioms_in_case, Idiom};
    for (name, expected) in [
        ("k1x.found", vec![Idiom::GuardRedefinedByCollective]),
        ("k1x.no-dead-exit", vec![Idiom::GuardRedefinedByCollective]),
        ("k1x.fresh-pred", vec![]),
        ("n1s.found", vec![]),
        ("n1s.no-dead-mov", vec![Idiom::LoopWriteHoistedAboveExit]),
        ("n1s.lp0-given", vec![]),
    ] {
        let case = log_case(&format!("gpu-2026-11-28-m/triage/experiments/{name}"));
        assert_eq!(
            idioms_in_case(&case.program, &case.inputs),
            expected,
            "{name}"
        );
    }
}

/// The idioms every detector finds in each variant of the 2026-11-28-m
/// triage (`docs/log/gpu-2026-11-28-m/triage/experiments/`), beside what
/// its `PREDICT.txt` says; run by hand:
/// `cargo test -p warp-core --test suite idioms_of_the_triage_variants_of_2026_11_28_m -- --ignored --nocapture`.
#[test]
#[ignore = "prints the detectors on the variants of docs/log/gpu-2026-11-28-m/triage.md"]
fn idioms_of_the_triage_variants_of_2026_11_28_m() {
    assert_eq!(crate::idioms::print_variant_idioms("gpu-2026-11-28-m"), 53);
}
