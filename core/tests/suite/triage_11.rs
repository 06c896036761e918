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
/// guard (`k1d.fresh-pred`) or the choice (`n23a.unguarded`). The H200
/// agreed (`f/table.md`: the two controls right at every level, the rest
/// wrong from -O1); the hardware rows are in [`variants`].
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
    assert_eq!(
        crate::idioms::print_variant_idioms_in("gpu-2026-11-28-k/triage/experiments/s11f"),
        45
    );
}

/// The variants of the 2026-11-28-k triage and what the H200 did with each
/// through the driver's JIT linker at -O0, -O1 and -O3
/// (`docs/log/gpu-2026-11-28-k/f/table.md`, the main session's run of
/// `devrun/s11f/run.sh`): whether it diverged (wrong at -O1 or -O3, right
/// at -O0) or agreed at every level, and what the GPU gave. Every variant
/// agreed at -O0. The expected answers are those hardware results, not
/// `PREDICT.txt` (six went otherwise than predicted).
mod variants {
    use crate::idioms::log_case;
    use warp_core::ir::Case;

    /// A variant's case.
    pub fn variant(name: &str) -> Case {
        log_case(&format!("gpu-2026-11-28-k/triage/experiments/s11f/{name}"))
    }

    /// (variant, diverged on the GPU, what).
    pub type Row = (&'static str, bool, &'static str);

    /// K1 past a dead `setp` (K1D) and with an unguarded collective past
    /// a self-loop (K1U).
    pub const K1: &[Row] = &[
        ("k1d.found", true, "%bd0 lane 21 gpu 1, interp 0 (-O1, -O3)"),
        ("k1d.no-dead-setp", true, "as the found case"),
        (
            "k1d.fresh-pred",
            false,
            "the shuffle writes a fresh predicate",
        ),
        ("k1u.found", true, "%rd1 lane 0 gpu 1, interp 0 (-O1, -O3)"),
        (
            "k1u.fresh-pred",
            false,
            "the shuffle writes a fresh predicate",
        ),
        ("k1u.no-self-loop", true, "as the found case"),
        ("k1u.guarded-shfl", true, "as the found case"),
    ];

    /// K5: the unused vote read by a self-copy in a loop (K5L), the
    /// unused result overwritten under a known guard (K5G2, K5G3).
    pub const K5: &[Row] = &[
        (
            "k5l.found",
            true,
            "%r1 lane 0 gpu 1, interp 0xffffffff (-O3)",
        ),
        ("k5l.no-copy", true, "as the found case"),
        (
            "k5l.copy-kept",
            false,
            "the copy into a fresh stored predicate",
        ),
        ("k5g2.found", true, "%s4 lane 1 gpu 1, interp 0 (-O1, -O3)"),
        ("k5g2.unguarded", true, "as the found case"),
        ("k5g2.no-vote", false, "no vote"),
        ("k5g2.full-mask-vote", false, "the vote's mask full"),
        ("k5g3.found", true, "%b0 lane 0 gpu 1, interp 0 (-O1, -O3)"),
        ("k5g3.unguarded", true, "as the found case"),
        ("k5g3.full-mask-redux", false, "the first redux's mask full"),
        ("k5g3.no-late-setp", false, "the last `setp` of %p1 removed"),
    ];

    /// N2 with a non-`.sync` second shuffle (N2W) and with activemask's
    /// value for the immediate (N2A).
    pub const N2: &[Row] = &[
        (
            "n2w.found",
            true,
            "%f0 lane 25 gpu 0f00000000, interp 0f00000001 (-O1, -O3)",
        ),
        ("n2w.value-laneid", false, "the first shuffle of %laneid"),
        ("n2w.value-input", false, "the first shuffle of an input"),
        (
            "n2a.found",
            true,
            "%r1 lane 5 gpu 0, interp 0xb6db6db6 (-O1, -O3)",
        ),
        ("n2a.value-laneid", false, "the first bfly of %laneid"),
        (
            "n2a.no-down-no-match",
            false,
            "the unused shfl.sync.down and match.all.sync removed",
        ),
    ];

    /// N15's merge with a never-written register, the copy after the read
    /// in the loop's body: a float (N15L) and a predicate (N15P).
    pub const N15: &[Row] = &[
        (
            "n15l.found",
            true,
            "%f2 lane 0 gpu 0f00000000, interp 0fe853505e (-O3 only)",
        ),
        ("n15l.f0-given", false, "%f0 an input"),
        ("n15l.no-loop", false, "no back edge"),
        (
            "n15p.found",
            true,
            "%fd2 lane 0 gpu 0d0000000300000000, interp 0 (-O3 only)",
        ),
        ("n15p.p0-given", false, "%p0 an input"),
    ];

    /// N12's stale upper half with no shuffle, an `exit` after (N12E).
    pub const N12: &[Row] = &[
        (
            "n12e.found",
            true,
            "%s0 lane 28 gpu 0x460a0000, interp 0 (-O3 only)",
        ),
        ("n12e.unguarded", false, "the cvt unguarded"),
        ("n12e.cvt-s32", false, "a 32-bit destination type"),
        ("n12e.no-exit", false, "the exit after the cvt removed"),
        (
            "n12e.no-branch",
            false,
            "the branch fixing the guard removed",
        ),
    ];

    /// N23 with `abs.f32` of an immediate (N23A).
    pub const N23: &[Row] = &[
        (
            "n23a.found",
            true,
            "%f0 lane 0 gpu 0f80000000, interp 0f00000000 (-O1, -O3)",
        ),
        ("n23a.mov", true, "as the found case"),
        ("n23a.unguarded", false, "no choice"),
    ];

    /// A guard read before a loop that rewrites it (LR).
    pub const LR: &[Row] = &[
        ("lr.found", true, "%rd0 lane 1 gpu 0, interp 1 (-O1, -O3)"),
        (
            "lr.fresh-pred",
            false,
            "the loop's setp into a fresh predicate",
        ),
        ("lr.no-shfl", false, "the never-run mask-0 shuffle removed"),
        ("lr.no-vote", false, "the full-mask vote removed"),
    ];

    /// A non-`.sync` ballot whose guard a join's `mov.pred` rewrites (VB).
    pub const VB: &[Row] = &[
        (
            "vb.found",
            true,
            "%b1 lane 29 gpu 3, interp 0xa0000000 (-O1, -O3)",
        ),
        (
            "vb.fresh-pred",
            false,
            "the join's copy into a fresh predicate",
        ),
        ("vb.sync", true, "as the found case"),
        ("vb.mov-guarded", false, "a guarded mov for the ballot"),
    ];

    /// Every group's rows (45 variants).
    pub const ALL: &[&[Row]] = &[K1, K5, N2, N15, N12, N23, LR, VB];
}

/// Every variant of `PREDICT.txt` has one hardware row, and every row a
/// variant.
#[test]
fn every_variant_of_2026_11_28_k_has_a_hardware_row() {
    assert_eq!(
        crate::idioms::predict_lists_the_rows(
            "gpu-2026-11-28-k/triage/experiments/s11f",
            variants::ALL
        ),
        45
    );
}

use crate::idioms::rows_of;

/// Each detector widened by the 2026-11-28-k triage (K1 past a dead
/// `setp`, N23 with `abs.f32` of an immediate: H38; K5's overwrite under
/// a `setp.and` of false constants and a copy into itself as no read, N2
/// with a non-`.sync` second shuffle, N7 past a self-loop, N12 with a
/// guarded `exit` after the `cvt` for the shuffle, N15 with a read before
/// the copy for the exit test: H39) fires, with the case's inputs, on every variant of its subgroup
/// that diverged on the H200 and on none that agreed, and no other
/// detector fires on them.
#[test]
fn the_widened_idioms_of_the_2026_11_28_k_triage_fire_on_the_variants_that_diverged() {
    use crate::idioms::{variant_mismatches, Alone};
    use warp_core::idioms::Idiom;
    let mut wrong = Vec::new();
    for (idiom, rows, alone) in [
        (
            Idiom::GuardRedefinedByCollective,
            rows_of(variants::K1, "k1d."),
            Alone::Same,
        ),
        (
            Idiom::PredicateRedefinedPastBranch,
            rows_of(variants::K1, "k1u.")
                .into_iter()
                .filter(|r| r.0 != "k1u.guarded-shfl")
                .collect(),
            Alone::Same,
        ),
        (
            Idiom::UnusedCollectiveSplitsWarp,
            rows_of(variants::K5, "k5g2."),
            Alone::Contains,
        ),
        (
            Idiom::UnusedCollectiveSplitsWarp,
            rows_of(variants::K5, "k5l."),
            Alone::Contains,
        ),
        (
            Idiom::ShuffleOfShuffledImmediate,
            rows_of(variants::N2, "n2w."),
            Alone::Same,
        ),
        (
            Idiom::AbsOfChoiceKeepsNegativeZero,
            rows_of(variants::N23, "n23a."),
            Alone::Same,
        ),
        (
            Idiom::NarrowCvtKeepsStaleUpperHalf,
            rows_of(variants::N12, "n12e."),
            Alone::Any,
        ),
        (
            Idiom::LoopCopyOfNeverWrittenReplacesMerge,
            variants::N15.to_vec(),
            // `d`'s entry value is an input: alone the program has none.
            Alone::Any,
        ),
    ] {
        assert!(rows.iter().any(|v| v.1) && rows.iter().any(|v| !v.1));
        wrong.extend(variant_mismatches(
            idiom,
            &rows,
            variants::variant,
            &[],
            alone,
        ));
    }
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
}

/// What every detector finds (with the case's inputs) in each of the 45
/// variants, against the hardware: a variant that diverged holds exactly
/// the idiom [`NAMED`] gives it, or none if it is in [`OPEN`]; one that
/// agreed holds none, but those of [`WIDER`].
#[test]
fn every_variant_of_2026_11_28_k_against_the_detectors() {
    let wrong = crate::idioms::variants_against_detectors(
        variants::ALL,
        variants::variant,
        NAMED,
        WIDER,
        OPEN,
    );
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
}

/// The variants that diverged on the H200 and the detector that names
/// each (beside the widened subgroups' own: a variant whose one change
/// made it another known bug's shape).
const NAMED: &[(&str, warp_core::idioms::Idiom)] = {
    use warp_core::idioms::Idiom::*;
    &[
        ("k1d.found", GuardRedefinedByCollective),
        ("k1d.no-dead-setp", GuardRedefinedByCollective),
        // N7's late read past a forward branch, a self-loop between.
        ("k1u.found", PredicateRedefinedPastBranch),
        // Without the self-loop: N7's rewrite past a forward branch.
        ("k1u.no-self-loop", PredicateRedefinedPastBranch),
        // The shuffle guarded: K1's own shape.
        ("k1u.guarded-shfl", GuardRedefinedByCollective),
        // Without the self-copy: K5's unused vote.
        ("k5l.found", UnusedCollectiveSplitsWarp),
        ("k5l.no-copy", UnusedCollectiveSplitsWarp),
        ("k5g2.found", UnusedCollectiveSplitsWarp),
        ("k5g2.unguarded", UnusedCollectiveSplitsWarp),
        ("k5g3.unguarded", UnusedCollectiveSplitsWarp),
        // Since the triage of 2026-11-28-l (group K5S): K5's guard
        // `@!%p1` after `setp.ne.s32 %p1, %rd1, %rd1` (a register compared
        // with itself) is known, as the H200 showed for K5S; the late
        // `setp` of `%p1` that `.no-late-setp` removed stays unexplained.
        ("k5g3.found", UnusedCollectiveSplitsWarp),
        ("n2w.found", ShuffleOfShuffledImmediate),
        ("n15l.found", LoopCopyOfNeverWrittenReplacesMerge),
        ("n15p.found", LoopCopyOfNeverWrittenReplacesMerge),
        ("n12e.found", NarrowCvtKeepsStaleUpperHalf),
        ("n23a.found", AbsOfChoiceKeepsNegativeZero),
        ("n23a.mov", AbsOfChoiceKeepsNegativeZero),
        // LR, N31 since session 13: the never-run shuffle under `%p0`
        // before the guarded `mov`, the ballot of `!%p0` after it.
        ("lr.found", BallotGuardReadAfterLoopRewrite),
    ]
};

/// The variants that agreed on the H200 but hold a detector's idiom: the
/// detector is wider than its bug there. `k5g3.no-late-setp`: K5's
/// detector took it before this triage too (triage.md, group K5G), but without the last
/// `setp.eq.and.b32 %p1, 0, %b0, %p1` the H200 ran it right: the late
/// rewrite of the guard is part of group K5G3's trigger (open).
const WIDER: &[(&str, warp_core::idioms::Idiom)] = &[(
    "k5g3.no-late-setp",
    warp_core::idioms::Idiom::UnusedCollectiveSplitsWarp,
)];

/// The variants that diverged on the H200 with no detector firing, each
/// with why: the candidates of triage.md's decisions (no detector).
const OPEN: &[(&str, &str)] = &[
    (
        "n2a.found",
        "N2A/K5S: the unused collectives are needed (candidate, open)",
    ),
    (
        "vb.found",
        "VB: candidate (a collective under a guard a join's mov.pred rewrites)",
    ),
    ("vb.sync", "VB with vote.sync.ballot"),
];

/// N15 as widened for N15L and N15P (a read of the register before the
/// copy, in a loop with no branch but its back edge) on session 10's
/// N15W variants (`docs/log/gpu-2026-11-28-j/triage/experiments/n15-pred.*`)
/// against what the H100 did (`../gpu-2026-11-28-j/triage.md`'s table):
/// `n15-pred.found` wrong at -O3 (%fd2 lane 0 gpu 0d0000000300000000,
/// interp 0), `.no-loop` and `.p0-given` right at every level.
#[test]
fn the_widened_n15_on_session_10s_n15w_variants() {
    use crate::idioms::{log_case, variant_mismatches, Alone};
    use warp_core::idioms::Idiom;
    let rows: &[variants::Row] = &[
        (
            "n15-pred.found",
            true,
            "%fd2 lane 0 gpu 0d0000000300000000, interp 0 (-O3)",
        ),
        ("n15-pred.no-loop", false, "no back edge"),
        ("n15-pred.p0-given", false, "%p0 an input"),
    ];
    let wrong = variant_mismatches(
        Idiom::LoopCopyOfNeverWrittenReplacesMerge,
        rows,
        |name| log_case(&format!("gpu-2026-11-28-j/triage/experiments/{name}")),
        &[],
        Alone::Any,
    );
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
}
