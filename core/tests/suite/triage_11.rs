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

/// The two findings of `c/found` that are a known bug's shape which its
/// detector missed for a reason the hardware shows (triage.md, groups K1D
/// and N23A): each went wrong on the H200 from -O1 and agreed at -O0 (the
/// finding's own level sweep, its `// class` line), with the value of the
/// bug it is named for: `cvt.rzi.f64.f64-91e96a1d` is session 10's
/// `cvt.rzi.f64.f64-8aa07dfe` (K1, wrong from -O1 on the H100: lane 21 gpu
/// 1, interp 0) with one unreachable `setp` more, and gives lane 21 gpu 1,
/// interp 0; `abs.f32-0065bdde` is session 10's `abs.f32-d1acea24` (N23:
/// -0.0 from -O1 on the H100) with `abs.f32` of an immediate for the
/// first `mov.f32`, and gives -0.0 (0f80000000) where `abs` gives +0.0.
/// Each is named, with its inputs and alone, by that detector only.
#[test]
fn the_widened_k1_and_n23_name_their_findings_of_2026_11_28_k() {
    use crate::idioms::log_case;
    use warp_core::idioms::{idioms, idioms_in_case, Idiom};
    for (file, idiom) in [
        (
            "gpu-2026-11-28-k/c/found/cvt.rzi.f64.f64-91e96a1d",
            Idiom::GuardRedefinedByCollective,
        ),
        (
            "gpu-2026-11-28-k/c/found/abs.f32-0065bdde",
            Idiom::AbsOfChoiceKeepsNegativeZero,
        ),
    ] {
        let case = log_case(file);
        assert_eq!(
            idioms_in_case(&case.program, &case.inputs),
            vec![idiom],
            "{file}"
        );
        assert_eq!(idioms(&case.program), vec![idiom], "{file} alone");
    }
}

/// The widenings of K1 (a dead instruction between the `exit` and the
/// unreachable `bra`) and N23 (`abs.f32` of an immediate as the other
/// write) keep their whole shape: on the triage's variants
/// (`docs/log/gpu-2026-11-28-k/triage/experiments/s11f/`) each fires where
/// the variant keeps it and not where the one change removes the redefined
/// guard (`k1d.fresh-pred`) or the choice (`n23a.unguarded`). These are the
/// detectors' shapes only; the GPU's answers on the variants are not in
/// yet (devrun/s11f/run.sh).
#[test]
fn the_widened_k1_and_n23_need_their_whole_shape() {
    use crate::idioms::log_case;
    use warp_core::idioms::{idioms_in_case, Idiom};
    for (name, expected) in [
        ("k1d.found", vec![Idiom::GuardRedefinedByCollective]),
        ("k1d.no-dead-setp", vec![Idiom::GuardRedefinedByCollective]),
        ("k1d.fresh-pred", vec![]),
        ("n23a.found", vec![Idiom::AbsOfChoiceKeepsNegativeZero]),
        ("n23a.mov", vec![Idiom::AbsOfChoiceKeepsNegativeZero]),
        ("n23a.unguarded", vec![]),
    ] {
        let case = log_case(&format!("gpu-2026-11-28-k/triage/experiments/s11f/{name}"));
        assert_eq!(
            idioms_in_case(&case.program, &case.inputs),
            expected,
            "{name}"
        );
    }
}

/// The idioms every detector finds in each variant of the 2026-11-28-k
/// triage (`docs/log/gpu-2026-11-28-k/triage/experiments/s11f/`), beside
/// what its `PREDICT.txt` says; run by hand:
/// `cargo test -p warp-core --test suite idioms_of_the_triage_variants_of_2026_11_28_k -- --ignored --nocapture`.
#[test]
#[ignore = "prints the detectors on the variants of docs/log/gpu-2026-11-28-k/triage.md"]
fn idioms_of_the_triage_variants_of_2026_11_28_k() {
    use crate::idioms::log_case;
    use warp_core::idioms::{idioms, idioms_in_case, Idiom};
    let dir = "gpu-2026-11-28-k/triage/experiments/s11f";
    let path = format!(
        "{}/../docs/log/{dir}/PREDICT.txt",
        env!("CARGO_MANIFEST_DIR")
    );
    let predict = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"));
    let names = |v: &[Idiom]| v.iter().map(|i| i.name()).collect::<Vec<_>>().join(", ");
    let mut n = 0;
    for line in predict.lines() {
        let (name, says) = line.split_once(' ').expect("NAME PREDICTION");
        let case = log_case(&format!("{dir}/{name}"));
        println!(
            "{name} ({says}): {} (program alone: {})",
            names(&idioms_in_case(&case.program, &case.inputs)),
            names(&idioms(&case.program))
        );
        n += 1;
    }
    assert_eq!(n, 45);
}
