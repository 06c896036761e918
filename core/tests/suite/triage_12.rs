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
/// runs and reads the vote. Whether the
/// H200 agrees is what `devrun/s12e/run.sh` decides (triage.md).
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
    use crate::idioms::log_case;
    use warp_core::idioms::{idioms, idioms_in_case, Idiom};
    let dir = "gpu-2026-11-28-l/triage/experiments";
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
    assert_eq!(n, 52);
}
