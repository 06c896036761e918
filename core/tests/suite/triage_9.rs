//! The triage of session 9's `--avoid all` hunts (2026-11-28-i, issue
//! #35): every reduced finding of `found-O3/` (H100, -O3) and
//! `found-default/` (H200, the driver's default level) and the idioms the
//! current detectors find in it, with its inputs and as a program alone.

use crate::idioms::{print_triage, print_variant_idioms, variant_mismatches, Alone};
use warp_core::idioms::{idioms_in_case, Idiom};

/// Prints a table row per file and the counts per first idiom
/// ([`print_triage`]); run by hand:
/// `cargo test -p warp-core --test suite triage_of_the_found_cases_of_2026_11_28_i -- --ignored --nocapture`.
#[test]
#[ignore = "prints the triage table of docs/log/gpu-2026-11-28-i/triage.md"]
fn triage_of_the_found_cases_of_2026_11_28_i() {
    assert_eq!(
        print_triage("gpu-2026-11-28-i", &["found-O3", "found-default"]),
        71
    );
}

/// The idioms every detector finds in each experiment variant of the
/// 2026-11-28-i triage (`docs/log/gpu-2026-11-28-i/triage/experiments/`),
/// beside what `PREDICT.txt` says the hypothesis predicts; run by hand:
/// `cargo test -p warp-core --test suite idioms_of_the_triage_variants_of_2026_11_28_i -- --ignored --nocapture`.
#[test]
#[ignore = "prints the detectors on the variants of docs/log/gpu-2026-11-28-i/triage.md"]
fn idioms_of_the_triage_variants_of_2026_11_28_i() {
    assert!(print_variant_idioms("gpu-2026-11-28-i") > 0);
}

/// The variants of the 2026-11-28-i triage and what the GPU did with each
/// at -O0 to -O3 (`docs/log/gpu-2026-11-28-i/triage/levels.txt`): whether
/// it diverged (wrong from -O1 or -O2, right at -O0) or agreed at every
/// level, and what the GPU gave or what the variant changed. The expected
/// answers are those hardware results.
mod variants {
    use crate::idioms::log_case;
    use warp_core::ir::Case;

    /// A variant's case.
    pub fn variant(name: &str) -> Case {
        log_case(&format!("gpu-2026-11-28-i/triage/experiments/{name}"))
    }

    /// (variant, diverged on the GPU, what).
    pub type Row = (&'static str, bool, &'static str);

    /// N6's tie through a `mov` or a `neg` of an immediate.
    pub const N6: &[Row] = &[
        (
            "n6-mov.found",
            true,
            "lane 0 gpu 0fcd20b865, interp 0fcd20b866 (-O1 to -O3)",
        ),
        ("n6-mov.immediates", true, "as the found case"),
        ("n6-mov.input", false, "the 8.0 an input register"),
        ("n6-mov.no-tie", false, "7.0: no tie"),
        (
            "n6-neg.found",
            true,
            "lane 0 gpu 0f814bf3df, interp 0f814bf3e0 (-O1 to -O3)",
        ),
        ("n6-neg.immediates", true, "as the found case"),
        ("n6-neg.input", false, "the negated value an input register"),
        ("n6-neg.no-tie", false, "the subnormal 2: no tie"),
    ];

    /// N18's `abs` read by `mul.hi` or a sign shift.
    pub const N18: &[Row] = &[
        (
            "n18-mulhi.found",
            true,
            "lane 26 gpu 0, interp 0xffff (-O1 to -O3)",
        ),
        (
            "n18-mulhi.by-2",
            true,
            "lane 26 gpu 1, interp 0xffff (-O1 to -O3)",
        ),
        (
            "n18-mulhi.shr-sign",
            true,
            "lane 26 gpu 1, interp 0xffff (-O1 to -O3)",
        ),
        ("n18-mulhi.no-abs", false, "the mul.hi of the input itself"),
    ];

    /// N12's stale upper half from a `match`'s or a `mov`'s immediate.
    pub const N12: &[Row] = &[
        (
            "n12-match.found",
            true,
            "lane 1 gpu 0xdbb70000, interp 0 (-O2, -O3)",
        ),
        (
            "n12-match.other-imm",
            true,
            "lane 1 gpu 0x12340000, interp 0 (-O2, -O3)",
        ),
        ("n12-match.no-match", false, "no match"),
        ("n12-match.unguarded", false, "the cvt unguarded"),
        ("n12-match.cvt-s32", false, "a 32-bit destination type"),
        (
            "n12-mov.found",
            true,
            "lane 0 gpu 0x27370000, interp 0 (-O2, -O3)",
        ),
        (
            "n12-mov.other-imm",
            true,
            "lane 0 gpu 0x33330000, interp 0 (-O2, -O3)",
        ),
        ("n12-mov.no-exit", false, "no exit"),
        ("n12-mov.unguarded", false, "the cvt unguarded"),
        ("n12-mov.no-mov", false, "no mov of the immediate"),
    ];

    /// N3 with a guarded rewrite.
    pub const N3: &[Row] = &[
        (
            "n3-guarded.found",
            true,
            "lane 2 gpu 0f00000002, interp 0f00000001 (-O2, -O3)",
        ),
        ("n3-guarded.f1-given", false, "%f1 given an entry value"),
        (
            "n3-guarded2.found",
            true,
            "lane 0 gpu 0f00000000, interp 0f00000001 (-O2, -O3)",
        ),
        ("n3-guarded2.f0-given", false, "%f0 given an entry value"),
    ];
}

/// Each detector widened by the 2026-11-28-i triage fires, with the
/// case's inputs (as the GPU ran it), on every variant of its bug that
/// diverged and on none that agreed; on a variant that diverged no other
/// detector fires, and on one that agreed none at all. The program alone
/// (no entry values) holds the bug's idiom wherever the case diverged.
#[test]
fn the_widened_idioms_of_the_2026_11_28_i_triage_fire_on_the_variants_that_diverged() {
    let mut wrong = Vec::new();
    for (idiom, rows) in [
        (Idiom::F32AddImmediatesTieMisrounded, variants::N6),
        (Idiom::AbsResultTakenAsNonNegative, variants::N18),
        (Idiom::NarrowCvtKeepsStaleUpperHalf, variants::N12),
        (Idiom::LoopReadBeforeWrite, variants::N3),
    ] {
        assert!(rows.iter().any(|v| v.1) && rows.iter().any(|v| !v.1));
        wrong.extend(variant_mismatches(
            idiom,
            rows,
            variants::variant,
            &[],
            Alone::Contains,
        ));
    }
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
}

/// The variants that agreed on the GPU but hold a detector's idiom: each
/// detector is wider than its bug there (not taken into the test above).
/// `n18-mulhi.no-min`: N18's detector does not read an input's value (no
/// lane's `abs` source is 0x8000); `n12-match.shfl`: a `shfl.sync` in the
/// match's place, N12's own shape since 2026-11-27-e, agreed here (N12's
/// case has a guarded `xor.b64` before the shuffle, which this one lacks);
/// `n3-guarded.unguarded`, `n3-guarded2.unguarded`: the found cases with
/// the rewrite unguarded, N3's shape before this triage, agreed at every
/// level (with `max.f32`/`sub.f32` readers; N3's case reads by `mov`).
#[test]
fn the_variants_that_agreed_but_hold_an_idiom() {
    for (name, idiom) in [
        ("n18-mulhi.no-min", Idiom::AbsResultTakenAsNonNegative),
        ("n12-match.shfl", Idiom::NarrowCvtKeepsStaleUpperHalf),
        ("n3-guarded.unguarded", Idiom::LoopReadBeforeWrite),
        ("n3-guarded2.unguarded", Idiom::LoopReadBeforeWrite),
    ] {
        let case = variants::variant(name);
        assert_eq!(
            idioms_in_case(&case.program, &case.inputs),
            vec![idiom],
            "{name}"
        );
    }
}
