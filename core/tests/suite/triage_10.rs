//! The triage of session 10's `--avoid all` hunts (2026-11-28-j, issue
//! #35): the experiment variants of `docs/log/gpu-2026-11-28-j/triage/`
//! (each a found case of `a/found-replay`, `c/found-default` or
//! `d/found-O3` with one change) and the idioms the detectors find in
//! them. The table of the 53 findings themselves is
//! `triage_of_the_found_cases_of_2026_11_28_j` (`experiment_10.rs`).

use crate::idioms::print_variant_idioms;
use warp_core::idioms::{idioms_in_case, Idiom};

/// The idioms every detector finds in each experiment variant of the
/// 2026-11-28-j triage (`docs/log/gpu-2026-11-28-j/triage/experiments/`),
/// beside what `PREDICT.txt` says the hypothesis predicts; run by hand:
/// `cargo test -p warp-core --test suite idioms_of_the_triage_variants_of_2026_11_28_j -- --ignored --nocapture`.
#[test]
#[ignore = "prints the detectors on the variants of docs/log/gpu-2026-11-28-j/triage.md"]
fn idioms_of_the_triage_variants_of_2026_11_28_j() {
    assert!(print_variant_idioms("gpu-2026-11-28-j") > 0);
}

/// The variants of the 2026-11-28-j triage and what the H100 did with each
/// through the driver's JIT linker at -O0, -O1 and -O3
/// (`docs/log/gpu-2026-11-28-j/triage/levels.txt`, the main session's run
/// of commit 21c0bd0): whether it diverged (wrong at -O1 or -O3, right at
/// -O0) or agreed at every level, and what the GPU gave or what the
/// variant changed. The expected answers are those hardware results.
mod variants {
    use crate::idioms::log_case;
    use warp_core::ir::Case;

    /// A variant's case.
    pub fn variant(name: &str) -> Case {
        log_case(&format!("gpu-2026-11-28-j/triage/experiments/{name}"))
    }

    /// (variant, diverged on the GPU, what).
    pub type Row = (&'static str, bool, &'static str);

    /// K5: a dead reader (K5T), a `match.all` of a never-written register
    /// (K5U), a guarded overwrite under a guard a branch fixes (K5G).
    pub const K5: &[Row] = &[
        ("k5t-copy.found", true, "lane 1 gpu 0, interp 1 (-O1, -O3)"),
        ("k5t-copy.no-copy", true, "as the found case"),
        (
            "k5t-copy.copy-kept",
            false,
            "the copy into a stored predicate",
        ),
        (
            "k5t-ballot.found",
            true,
            "lane 1 gpu 0f00000000, interp 0f80000000",
        ),
        (
            "k5t-ballot.ballot-kept",
            false,
            "the ballot's result stored",
        ),
        ("k5t-redux.found", true, "lane 27 gpu 0, interp 1"),
        ("k5t-redux.kill-removed", false, "the redux's result stored"),
        ("k5u.found", true, "lane 0 gpu 1, interp 0xffffffff"),
        ("k5u.value-imm", true, "as the found case"),
        ("k5u.value-input", false, "the value an input"),
        ("k5u.value-laneid", false, "the value %laneid"),
        (
            "k5u-b64.found",
            true,
            "lane 0 gpu 0x30208869, interp 0xffffffff",
        ),
        ("k5u-b64.value-input", false, "the value an input"),
        ("k5g-setp.found", true, "lane 2 gpu 1, interp 0"),
        ("k5g-setp.unguarded", true, "as the found case"),
        (
            "k5g-setp.guard-unknown",
            true,
            "as the found case: the guard decided nothing",
        ),
        ("k5g-branch.found", true, "lane 0 gpu 1, interp 0xfffffff"),
        ("k5g-branch.other-guard", false, "an input's guard"),
        ("k5s.vote", true, "lane 5 gpu 0, interp 0xb6db6db6"),
    ];

    /// K1 past a loop and past a label an unreachable branch targets.
    pub const K1: &[Row] = &[
        ("k1-loop.found", true, "lane 2 gpu 0f00000001, interp 0"),
        ("k1-loop.no-loop", true, "as the found case"),
        (
            "k1-loop.fresh-pred",
            false,
            "the vote writes a fresh predicate",
        ),
        ("k1-exit.found", true, "lane 21 gpu 1, interp 0"),
        (
            "k1-exit.fresh-pred",
            false,
            "the shuffle writes a fresh predicate",
        ),
    ];

    /// N7 with the rewrite on one path elsewhere.
    pub const N7: &[Row] = &[
        ("n7-label.found", true, "lane 0 gpu 1, interp 0"),
        ("n7-label.no-label", true, "as the found case"),
        ("n7-label.fresh-pred", false, "a fresh predicate"),
        ("n7-target.found", true, "lane 0 gpu 0, interp 1"),
        ("n7-target.fresh-pred", false, "a fresh predicate"),
        (
            "n7-neg.found",
            true,
            "lane 0 gpu 0f80000000, interp 0f80000001",
        ),
        ("n7-neg.fresh-pred", false, "a fresh predicate"),
        ("n7-before.found", true, "lane 0 gpu 0, interp 0xffffffff"),
        ("n7-before.fresh-pred", false, "a fresh predicate"),
        ("n7-movpred.found", true, "lane 30 gpu 1, interp 0"),
        ("n7-movpred.fresh-pred", false, "a fresh predicate"),
    ];

    /// N20 at the branch's target and past an inner branch.
    pub const N20: &[Row] = &[
        ("n20-target.found", true, "lane 0 gpu 0, interp 0xffffffff"),
        ("n20-target.fall-through", true, "as the found case"),
        ("n20-target.other-imm", false, "xor with 0x0f0f0f0f"),
        ("n20-target.lane-5", true, "lane 5 gpu 5, interp 0xfffffffa"),
        ("n20-inner.found", true, "lane 0 gpu 0, interp 0xffffffff"),
        ("n20-inner.no-inner-branch", true, "as the found case"),
    ];

    /// N18's `mul.hi` by 31.
    pub const N18: &[Row] = &[
        ("n18-mulhi31.found", true, "lane 26 gpu 15, interp 0xfff0"),
        ("n18-mulhi31.by-1", true, "lane 26 gpu 0, interp 0xffff"),
        ("n18-mulhi31.no-abs", false, "no abs"),
    ];

    /// N21 with `cvt.rmi` to `.u32` (its one variant that agreed,
    /// `n21-rmi.positive`, is in
    /// `the_variants_of_2026_11_28_j_that_agreed_but_hold_an_idiom`).
    pub const N21: &[Row] = &[
        ("n21-rmi.found", true, "lane 0 gpu 0, interp 1"),
        ("n21-rmi.rpi", true, "as the found case"),
        ("n21-rmi.no-ftz", true, "as the found case"),
    ];

    /// N23 with a guarded `neg.f32` of an immediate.
    pub const N23: &[Row] = &[
        ("n23-neg.found", true, "lane 0 gpu 0f80000000, interp 0"),
        ("n23-neg.mov", true, "as the found case"),
        ("n23-neg.unguarded", false, "no choice"),
    ];

    /// K2 with instructions before the exit, and a branch into the loop.
    pub const K2: &[Row] = &[
        (
            "k2-inner.found",
            true,
            "exited lanes gpu 0xffffffff, interp 0xaaaaaaab",
        ),
        ("k2-inner.no-mov", true, "as the found case"),
        ("k2-inner.fresh-pred", false, "a fresh predicate toggled"),
        ("k2-enter.found", true, "lane 2 gpu 0xfffffffc, interp 0"),
        ("k2-enter.p6-input", false, "the rewrite a copy into itself"),
    ];

    /// N12's own upper half kept, after a branch and a shuffle.
    pub const N12: &[Row] = &[
        (
            "n12-own.found",
            true,
            "lane 0 gpu 0x79c00000, interp 0 (-O3)",
        ),
        ("n12-own.no-shfl", false, "no shuffle"),
        ("n12-own.unguarded", false, "the cvt unguarded"),
        ("n12-own.cvt-u32", false, "a 32-bit destination type"),
    ];
}

/// Variants another bug's detector takes too, each with why.
const ALSO: &[(&str, Idiom, &str)] = &[
    (
        "k2-inner.no-mov",
        Idiom::LoopWriteHoistedAboveExit,
        "N1's shape: the outer loop's exit, skipped by `@%p2 bra L1`, then `mov.b32 %ctr1, %laneid` \
         of a register nothing writes before the loop",
    ),
    (
        "k2-inner.found",
        Idiom::LoopWriteHoistedAboveExit,
        "N1's shape since the triage of 2026-11-28-m (group N1S): the sink `mov.s32 _, 0` between \
         `@%p2 bra L1` and the exit, `%p2` rewritten by the inner loop (not so in `.fresh-pred`)",
    ),
];

/// Each detector widened by the 2026-11-28-j triage fires, with the
/// case's inputs (as the GPU ran it), on every variant of its bug that
/// diverged and on none that agreed; on a variant that diverged no other
/// detector fires (but [`ALSO`]'s), and on one that agreed none at all.
#[test]
fn the_widened_idioms_of_the_2026_11_28_j_triage_fire_on_the_variants_that_diverged() {
    use crate::idioms::{variant_mismatches, Alone};
    let mut wrong = Vec::new();
    for (idiom, rows, alone) in [
        (
            Idiom::UnusedCollectiveSplitsWarp,
            variants::K5,
            Alone::Contains,
        ),
        (Idiom::GuardRedefinedByCollective, variants::K1, Alone::Same),
        (
            Idiom::PredicateRedefinedPastBranch,
            variants::N7,
            Alone::Same,
        ),
        (Idiom::XorAllOnesOfKnownValue, variants::N20, Alone::Same),
        (
            Idiom::AbsResultTakenAsNonNegative,
            variants::N18,
            Alone::Same,
        ),
        (
            Idiom::RoundedFtzCvtShift16LosesFlush,
            variants::N21,
            Alone::Same,
        ),
        (
            Idiom::AbsOfChoiceKeepsNegativeZero,
            variants::N23,
            Alone::Same,
        ),
        (Idiom::GuardFoldedAfterExit, variants::K2, Alone::Same),
        (
            Idiom::NarrowCvtKeepsStaleUpperHalf,
            variants::N12,
            Alone::Any,
        ),
    ] {
        let n21 = idiom == Idiom::RoundedFtzCvtShift16LosesFlush;
        assert!(rows.iter().any(|v| v.1) && (n21 || rows.iter().any(|v| !v.1)));
        wrong.extend(variant_mismatches(
            idiom,
            rows,
            variants::variant,
            ALSO,
            alone,
        ));
    }
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
}

/// The variants that agreed on the H100 but hold a detector's idiom: the
/// detector is wider than its bug there (both fired before this triage's
/// widenings too). `k5g-branch.unguarded`: the found case's guarded
/// overwrite of `match.all.sync.b32 %s5, 0, %m1`'s mask made unguarded
/// (K5's own shape) agreed, where the guarded one went wrong;
/// `k2-enter.fall-through`: `@%p6 bra L3` over the loop (K2's shape since
/// 2026-11-27) agreed, where entering the loop by `@!%p6 bra L1` went
/// wrong; `n21-rmi.positive`: the converted input 3.0 (no saturation),
/// whose value N21's detector does not read (-3.0 went wrong).
#[test]
fn the_variants_of_2026_11_28_j_that_agreed_but_hold_an_idiom() {
    for (name, idiom) in [
        ("k5g-branch.unguarded", Idiom::UnusedCollectiveSplitsWarp),
        ("k2-enter.fall-through", Idiom::GuardFoldedAfterExit),
        ("n21-rmi.positive", Idiom::RoundedFtzCvtShift16LosesFlush),
    ] {
        let case = variants::variant(name);
        assert_eq!(
            idioms_in_case(&case.program, &case.inputs),
            vec![idiom],
            "{name}"
        );
    }
}

/// The variants that diverged on the H100 with no detector firing: the
/// groups left without one (K5V and K5S, whose changes did not remove the
/// divergence). The candidates MJ, N26X and OR64 of triage.md have
/// detectors since session 11 (`rows_11.rs`); N15W (`n15-pred.found`) has
/// one since the triage of 2026-11-28-k (`triage_11.rs`).
#[test]
fn the_variants_of_2026_11_28_j_that_diverged_with_no_detector() {
    for name in [
        "k5v.found",
        "k5v.unknown-pred",
        "k5s.found",
        "k5s.result-kept",
    ] {
        let case = variants::variant(name);
        assert_eq!(
            idioms_in_case(&case.program, &case.inputs),
            vec![],
            "{name}"
        );
    }
}
