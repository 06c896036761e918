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

/// The three findings of `d/found` that are a known bug's shape which its
/// detector missed for a detail of the reduction (triage.md, groups N1B,
/// K2L and K5U), each wrong on the H200 from -O1 and right at -O0 (the
/// finding's own level sweep, its `// class` line) with the bug's value:
/// `setp.gt.s32-59a91017` is N1 (`@%p0 bra L2; exit; bra L3; L2:` in a
/// loop, the exiting lanes 20-23 store `%lp0` 0, the loop's later `setp.gt`
/// of the second trip's counter, where the reference has the first trip's
/// 1), which the unreachable `bra L3` between the `exit` and `L2` hid;
/// `vote.sync.any-d436cd9b` is K2 (`@!%p0 bra L1; L0: exit; L1:`, then a
/// loop that writes and reads `%p0`: lanes 16 and 18 end with `%p0` 1 and
/// `%p1` 0, the loop's values with `%p0` folded to 0), which the label
/// `L0:`, a target of no branch, hid; `shfl.sync.up-34bbfcce` is K5
/// (`vote.sync.all.pred %p0, !%p2, %m0` with `%m0` each lane's own bit,
/// then the full-mask `shfl.sync.up.b32 %b0|%p0, 1, 1, 0`: lanes 1-31 get
/// 0 where the reference's 1 comes from the lane below, the value of a
/// shuffle run in groups of one lane), which the vote's only reader hid,
/// `@!%p0 mov.b32 %m1, 0` after an unguarded `bra L1` (no lane runs it).
/// Each is named, with its inputs and alone, by that detector only.
#[test]
fn the_widened_n1_k2_and_k5_name_their_findings_of_2026_11_28_l() {
    use crate::idioms::log_case;
    use warp_core::idioms::{idioms, idioms_in_case, Idiom};
    for (file, idiom) in [
        (
            "gpu-2026-11-28-l/d/found/setp.gt.s32-59a91017",
            Idiom::LoopWriteHoistedAboveExit,
        ),
        (
            "gpu-2026-11-28-l/d/found/vote.sync.any-d436cd9b",
            Idiom::GuardFoldedAfterExit,
        ),
        (
            "gpu-2026-11-28-l/d/found/shfl.sync.up-34bbfcce",
            Idiom::UnusedCollectiveSplitsWarp,
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

/// The six findings of `d/found` in K5's groups K5M, K5S, K5Q and K5X
/// (triage.md), each wrong on the H200 from -O1 to -O4 and right at -O0
/// (its `// class` line) with K5's value (each lane what the later
/// full-mask collective gives within its group), and each `.found`
/// variant wrong from -O1 while its `.full-mask` (and, for K5S and K5Q,
/// its `.guard-input`) ran right (`triage/results/table.md`): named, with
/// their inputs and alone, by K5's detector only since H42's widening
/// (a `match.all` of a moved immediate; a guard a constant `setp` or a
/// branch around an `exit` fixes).
#[test]
fn the_widened_k5_names_the_k5m_k5s_k5q_and_k5x_findings_of_2026_11_28_l() {
    use crate::idioms::log_case;
    use warp_core::idioms::{idioms, idioms_in_case, Idiom};
    for file in [
        "shfl.sync.idx-a3d7c9b6",
        "match.all.sync.b64-4950e802",
        "vote.sync.ballot-71c773b8",
        "shfl.sync.down-76cb7c61",
        "redux.sync.max.s32-3e418724",
        "match.any.sync.b64-49487c2a",
    ] {
        let case = log_case(&format!("gpu-2026-11-28-l/d/found/{file}"));
        let k5 = vec![Idiom::UnusedCollectiveSplitsWarp];
        assert_eq!(idioms_in_case(&case.program, &case.inputs), k5, "{file}");
        assert_eq!(idioms(&case.program), k5, "{file} alone");
    }
}

/// The widenings of N1 (unreachable instructions between the `exit` and
/// the branch's target), K2 (a label no branch targets on the skipped
/// `exit`) and K5 (a read by an unreachable instruction is no read) keep
/// their whole shape: on the triage's variants
/// (`docs/log/gpu-2026-11-28-l/triage/experiments/`) each fires where the
/// variant keeps it (the found case, and the form the detector took
/// before: `n1b.no-dead-bra`, `k2l.no-label`) and not where the one change
/// removes the bug's precondition: `n1b.lp0-given` gives `%lp0` an entry
/// value (N1's reproducer agrees with one at every level, 2026-11-27) and
/// `k2l.loop-writes-other` no longer rewrites `%p0` in the loop (K2's
/// `.loop-writes-other` of 2026-11-27-h agreed on the H200),
/// `k5u.full-mask` has no groups and in `k5u.reader-reachable` the `mov`
/// runs and reads the vote. The H200 agreed (`triage/results/table.md`:
/// these controls right at every level, the rest wrong from -O1); the
/// hardware rows are in [`variants`].
#[test]
fn the_widened_n1_k2_and_k5_need_their_whole_shape() {
    use crate::idioms::log_case;
    use warp_core::idioms::{idioms_in_case, Idiom};
    for (name, expected) in [
        ("n1b.found", vec![Idiom::LoopWriteHoistedAboveExit]),
        ("n1b.no-dead-bra", vec![Idiom::LoopWriteHoistedAboveExit]),
        ("n1b.lp0-given", vec![]),
        ("k2l.found", vec![Idiom::GuardFoldedAfterExit]),
        ("k2l.no-label", vec![Idiom::GuardFoldedAfterExit]),
        ("k2l.loop-writes-other", vec![]),
        ("k5u.found", vec![Idiom::UnusedCollectiveSplitsWarp]),
        ("k5u.no-dead-mov", vec![Idiom::UnusedCollectiveSplitsWarp]),
        ("k5u.full-mask", vec![]),
        ("k5u.reader-reachable", vec![]),
    ] {
        let case = log_case(&format!("gpu-2026-11-28-l/triage/experiments/{name}"));
        assert_eq!(
            idioms_in_case(&case.program, &case.inputs),
            expected,
            "{name}"
        );
    }
}

/// The idioms every detector finds in each variant of the 2026-11-28-l
/// triage (`docs/log/gpu-2026-11-28-l/triage/experiments/`), beside what
/// its `PREDICT.txt` says; run by hand:
/// `cargo test -p warp-core --test suite idioms_of_the_triage_variants_of_2026_11_28_l -- --ignored --nocapture`.
#[test]
#[ignore = "prints the detectors on the variants of docs/log/gpu-2026-11-28-l/triage.md"]
fn idioms_of_the_triage_variants_of_2026_11_28_l() {
    assert_eq!(crate::idioms::print_variant_idioms("gpu-2026-11-28-l"), 52);
}

/// The variants of the 2026-11-28-l triage and what the H200 did with each
/// through the driver's JIT linker at -O0, -O1 and -O3
/// (`docs/log/gpu-2026-11-28-l/triage/results/table.md`, the main
/// session's run of `devrun/s12e/run.sh`; `NAME-OL.txt` the raw output):
/// whether it diverged (wrong, hung or crashed at -O1 or -O3, right at
/// -O0) or agreed at every level, and what the GPU did. Every variant
/// agreed at -O0. The expected answers are those hardware results, not
/// `PREDICT.txt` (eight went otherwise than predicted).
mod variants {
    use crate::idioms::log_case;
    use warp_core::ir::Case;

    /// A variant's case.
    pub fn variant(name: &str) -> Case {
        log_case(&format!("gpu-2026-11-28-l/triage/experiments/{name}"))
    }

    /// (variant, diverged on the GPU, what).
    pub type Row = (&'static str, bool, &'static str);

    /// K5's unused collective in groups, missed for a detail: a `match.all`
    /// of a moved immediate (K5M), a guard a self-compare fixes (K5S), the
    /// `q` of a constant `setp.and` (K5Q), an unreachable reader (K5U), a
    /// branch around an `exit` (K5X).
    pub const K5: &[Row] = &[
        ("k5m.found", true, "%s1 lane 1 gpu 0, interp 1 (-O1, -O3)"),
        ("k5m.full-mask", false, "the match's mask full"),
        ("k5m.value-input", false, "%sd2 an input 0, no mov"),
        (
            "k5m.b64-found",
            true,
            "%b1 lane 0 gpu 0x11111111, interp 0xffffffff (-O1, -O3)",
        ),
        (
            "k5s.found",
            true,
            "%b3 lane 0 gpu 0x390081, interp 0xffffffff (-O1, -O3)",
        ),
        (
            "k5s.guard-input",
            false,
            "the overwrite's guard an input (predicted wrong)",
        ),
        ("k5s.full-mask", false, "the match's mask full"),
        (
            "k5s.down-found",
            true,
            "%s1 lane 0 gpu 0, interp 1 (-O1, -O3)",
        ),
        (
            "k5s.down-guard-input",
            false,
            "the overwrite's guard an input (predicted wrong)",
        ),
        ("k5q.found", true, "%s1 lane 0 gpu 27, interp 31 (-O1, -O3)"),
        ("k5q.full-mask", false, "the ballot's mask full"),
        (
            "k5q.guard-input",
            false,
            "the overwrite's guard an input (predicted wrong)",
        ),
        ("k5u.found", true, "%b0 lane 1 gpu 0, interp 1 (-O1, -O3)"),
        ("k5u.no-dead-mov", true, "as the found case"),
        ("k5u.full-mask", false, "the vote's mask full"),
        (
            "k5u.reader-reachable",
            false,
            "the mov runs and reads the vote",
        ),
        (
            "k5x.found",
            true,
            "%r0 lane 0 gpu 1, interp 0xffffffff (-O1, -O3)",
        ),
        ("k5x.full-mask", false, "the ballot's mask full"),
    ];

    /// The hunt's hangs (K5H): K5's split before full-mask collectives
    /// the lanes reach apart (`k5h`, `k5h2`); `k5h3` hung with its
    /// shuffle's mask full too (not K5).
    pub const K5H: &[Row] = &[
        ("k5h.found", true, "hang (-O1, -O3)"),
        ("k5h.full-mask", false, "the unused vote's mask full"),
        ("k5h.no-branch", false, "lane 0's branch removed"),
        ("k5h2.found", true, "hang (-O1; right at -O3)"),
        ("k5h2.full-mask", false, "the pairwise redux's mask full"),
        ("k5h3.found", true, "hang (-O1, -O3)"),
        (
            "k5h3.full-mask",
            true,
            "hang (-O1, -O3): the shuffle's mask full (predicted right)",
        ),
    ];

    /// N1 past an unreachable `bra` (N1B) and K2 with a label on the
    /// skipped `exit` (K2L).
    pub const N1_K2: &[Row] = &[
        ("n1b.found", true, "%lp0 lane 20 gpu 0, interp 1 (-O1, -O3)"),
        ("n1b.no-dead-bra", true, "as the found case"),
        ("n1b.lp0-given", false, "%lp0 an input"),
        ("k2l.found", true, "%p0 lane 16 gpu 1, interp 0 (-O1, -O3)"),
        ("k2l.no-label", true, "as the found case"),
        (
            "k2l.loop-writes-other",
            false,
            "the loop's not.pred into a fresh %p2",
        ),
    ];

    /// The open groups: LR2 (session 11's LR), SP (session 8's), LC
    /// (session 10's crash), NL and NZ (new).
    pub const OPEN: &[Row] = &[
        (
            "lr2.found",
            true,
            "%fd2 lane 0 gpu 0d0000000000000001, interp 0 (-O1, -O3)",
        ),
        ("lr2.fresh-pred", false, "the loop's copy into a fresh %p6"),
        ("lr2.no-vote", false, "the ballot removed"),
        ("lr2.vote-other-pred", false, "the ballot of !%p3"),
        ("sp.found", true, "%b0 lane 0 gpu 3, interp 0 (-O1 only)"),
        ("sp.setp-pred", false, "%p3 from a setp, no shuffle"),
        ("sp.in-range", false, "the shuffle's source lane in range"),
        ("lc.found", true, "the compile crashes (-O1 only)"),
        ("lc.no-div", false, "the div.s64 removed"),
        ("lc.div-used", true, "the compile crashes (-O1, -O3)"),
        (
            "lc.div-after",
            false,
            "the div.s64 after the ballot (predicted a crash)",
        ),
        ("lc.match-found", true, "the compile crashes (-O1 only)"),
        ("lc.sqrt-found", true, "the compile crashes (-O1 only)"),
        ("nl.found", true, "%p3 lane 28 gpu 1, interp 0 (-O1 only)"),
        ("nl.p0-given", false, "%p0 an input (predicted wrong)"),
        ("nl.no-final-mov", false, "the last mov.pred removed"),
        ("nl.no-p1", false, "the setp into %p1 removed"),
        ("nl.one-trip", false, "one trip of the outer loop"),
        (
            "nz.found",
            true,
            "%f1 lane 0 gpu 0f00000000, interp 0f80000000 (-O1, -O3)",
        ),
        (
            "nz.dead-mov-one",
            true,
            "%f1 lane 0 gpu 0f00000000, interp 0f80000000 (-O1, -O3; predicted right)",
        ),
        (
            "nz.f2-one",
            true,
            "%f1 lane 0 gpu 0fc0800000, interp 0fbf800000 (-O1, -O3; predicted right)",
        ),
    ];

    /// Every group's rows (52 variants).
    pub const ALL: &[&[Row]] = &[K5, K5H, N1_K2, OPEN];
}

/// Every variant of `PREDICT.txt` has one hardware row, and every row a
/// variant.
#[test]
fn every_variant_of_2026_11_28_l_has_a_hardware_row() {
    assert_eq!(
        crate::idioms::predict_lists_the_rows("gpu-2026-11-28-l/triage/experiments", variants::ALL),
        52
    );
}

use crate::idioms::rows_of;

/// Each detector widened by the 2026-11-28-l triage (N1 past unreachable
/// instructions, K2 past a label no branch targets, K5 with an unreachable
/// reader: H41; K5 with a `match.all` of a moved immediate and with a
/// guard a constant `setp` or a branch around an `exit` fixes: H42) fires,
/// with the case's inputs, on every variant of its subgroup that diverged
/// on the H200 and on none that agreed, but `k5x.full-mask` (see
/// [`WIDER`]), and no other detector fires on them.
#[test]
fn the_widened_idioms_of_the_2026_11_28_l_triage_fire_on_the_variants_that_diverged() {
    use crate::idioms::{variant_mismatches, Alone};
    use warp_core::idioms::Idiom;
    let k5 = Idiom::UnusedCollectiveSplitsWarp;
    let wider = [(
        "k5x.full-mask",
        k5,
        "the never-run mask-0 match, overwritten under the now known guard",
    )];
    let mut wrong = Vec::new();
    for (idiom, rows, alone) in [
        (k5, rows_of(variants::K5, "k5m."), Alone::Contains),
        (k5, rows_of(variants::K5, "k5s."), Alone::Contains),
        (k5, rows_of(variants::K5, "k5q."), Alone::Contains),
        (k5, rows_of(variants::K5, "k5u."), Alone::Contains),
        (k5, rows_of(variants::K5, "k5x."), Alone::Contains),
        (
            Idiom::LoopWriteHoistedAboveExit,
            rows_of(variants::N1_K2, "n1b."),
            // `%lp0`'s entry value is an input: alone it has none.
            Alone::Contains,
        ),
        (
            Idiom::GuardFoldedAfterExit,
            rows_of(variants::N1_K2, "k2l."),
            Alone::Same,
        ),
    ] {
        assert!(rows.iter().any(|v| v.1) && rows.iter().any(|v| !v.1));
        wrong.extend(variant_mismatches(
            idiom,
            &rows,
            variants::variant,
            &wider,
            alone,
        ));
    }
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
}

/// K5's hang (its `effects` since this triage): of the hang variants, the
/// idioms known to hang ([`warp_core::idioms::known_for`] with
/// `Effect::Hang`) are K5 on `k5h.found` and `k5h2.found`, which hung on
/// the H200, and nothing on their `.full-mask`, which ran right; the two
/// `k5h3` rows hung with no idiom known to hang (open: the full mask hung
/// too, so not K5), and `k5h.no-branch`, right on the H200, holds K5 (see
/// [`WIDER`]).
#[test]
fn k5s_hang_on_the_hang_variants_of_2026_11_28_l() {
    use warp_core::idioms::{known_for, Effect, Idiom};
    let mut wrong = Vec::new();
    for &(name, hung, what) in variants::K5H {
        let case = variants::variant(name);
        let found = known_for(&case.program, Effect::Hang);
        let want = match name {
            "k5h3.found" | "k5h3.full-mask" => vec![],
            "k5h.no-branch" => vec![Idiom::UnusedCollectiveSplitsWarp],
            _ if hung => vec![Idiom::UnusedCollectiveSplitsWarp],
            _ => vec![],
        };
        if found != want {
            wrong.push(format!(
                "{name} ({what}): expected {want:?}, found {found:?}"
            ));
        }
    }
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
}

/// What every detector finds (with the case's inputs) in each of the 52
/// variants, against the hardware: a variant that diverged holds exactly
/// the idiom [`NAMED`] gives it, or none if it is in [`OPEN`]; one that
/// agreed holds none, but those of [`WIDER`].
#[test]
fn every_variant_of_2026_11_28_l_against_the_detectors() {
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
/// each.
const NAMED: &[(&str, warp_core::idioms::Idiom)] = {
    use warp_core::idioms::Idiom::*;
    &[
        ("k5m.found", UnusedCollectiveSplitsWarp),
        ("k5m.b64-found", UnusedCollectiveSplitsWarp),
        ("k5s.found", UnusedCollectiveSplitsWarp),
        ("k5s.down-found", UnusedCollectiveSplitsWarp),
        ("k5q.found", UnusedCollectiveSplitsWarp),
        ("k5u.found", UnusedCollectiveSplitsWarp),
        ("k5u.no-dead-mov", UnusedCollectiveSplitsWarp),
        ("k5x.found", UnusedCollectiveSplitsWarp),
        ("k5h.found", UnusedCollectiveSplitsWarp),
        ("k5h2.found", UnusedCollectiveSplitsWarp),
        // N7's shape (`vote.uni.pred %p3, %p0`, then `shfl.sync.idx.b32
        // %b0|%p3` under the branch on `%laneid < 14`), but N7's effects
        // are wrong values: the hang stays open (candidate K5H3, the
        // `.full-mask` hung too).
        ("k5h3.found", PredicateRedefinedPastBranch),
        ("k5h3.full-mask", PredicateRedefinedPastBranch),
        ("n1b.found", LoopWriteHoistedAboveExit),
        ("n1b.no-dead-bra", LoopWriteHoistedAboveExit),
        ("k2l.found", GuardFoldedAfterExit),
        ("k2l.no-label", GuardFoldedAfterExit),
        // NZ, made N33 by session 13's variants
        // (docs/log/gpu-2026-11-28-m/nz/): the `neg.f32` computed as an
        // integer negation.
        ("nz.found", NegF32ComputedAsInteger),
        ("nz.dead-mov-one", NegF32ComputedAsInteger),
        ("nz.f2-one", NegF32ComputedAsInteger),
        // LC, made N34 in session 13: a vote of a never-written predicate,
        // a subroutine, an unused ballot of the vote's result.
        ("lc.found", UnusedBallotAfterMathCallCrashesLinker),
        ("lc.div-used", UnusedBallotAfterMathCallCrashesLinker),
        ("lc.sqrt-found", UnusedBallotAfterMathCallCrashesLinker),
        // Its `div` after the ballot: named since the hunts of session 13.
        ("lc.match-found", UnusedBallotAfterMathCallCrashesLinker),
        // LR2, N31 (LR) since session 13: the ballot of `!%p2` before the
        // guarded `fma`.
        ("lr2.found", BallotGuardReadAfterLoopRewrite),
        // SP (N32, H44): the out-of-range shuffle predicate's vote.
        ("sp.found", CollectiveUnderOutOfRangeShufflePredicate),
    ]
};

/// The variants that agreed on the H200 but hold a detector's idiom: the
/// detector is wider than its bug there. `k5x.full-mask`: K5's first part
/// is then the never-run `@!%p1 match.any.sync.b32 %r0, 0, 0` (mask 0),
/// whose `%r0` the full-mask `@%p0 match.any.sync.b64 %r0` overwrites
/// under the guard the branch around the `exit` fixes; K5's detector took
/// a mask-0 collective before (`experiment_9`'s `a5-no-exit`, right on the
/// GPU, while the H100's `k5g-setp.guard-unknown` of 2026-11-28-j went
/// wrong with one), so that is left as it was. `k5h.no-branch`: K5's
/// unused vote of the odd and even lanes before the full-mask ones, right
/// on the H200 (neither a hang nor a wrong value without lane 0's branch).
const WIDER: &[(&str, warp_core::idioms::Idiom)] = &[
    (
        "k5x.full-mask",
        warp_core::idioms::Idiom::UnusedCollectiveSplitsWarp,
    ),
    (
        "k5h.no-branch",
        warp_core::idioms::Idiom::UnusedCollectiveSplitsWarp,
    ),
    // N34 (LC) widened by session 13's hunts to a subroutine after the
    // ballot (docs/log/gpu-2026-11-28-m/d/found/engine-failed-17f2c2f6
    // died so); this one compiled on the H200.
    (
        "lc.div-after",
        warp_core::idioms::Idiom::UnusedBallotAfterMathCallCrashesLinker,
    ),
];

/// The variants that diverged on the H200 with no detector firing, each
/// with why: the candidates of triage.md's decisions (no detector).
const OPEN: &[(&str, &str)] = &[(
    "nl.found",
    "NL: new candidate (the never-written %p0 needed)",
)];
