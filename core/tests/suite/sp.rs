//! SP (N32): a collective guarded by the out-of-range predicate of a
//! `shfl.sync.idx`, or by a vote of it, not run at -O1. Its detector
//! (`collective-under-out-of-range-shuffle-predicate`) against the two
//! findings and the hardware rows of sessions 8 and 12, and the shapes it
//! does and does not take.

use crate::idioms::{corpus_case, log_case, variant_mismatches, Alone};
use warp_core::idioms::{idioms, idioms_in_case, Idiom};
use warp_core::text::parse;

const SP: Idiom = Idiom::CollectiveUnderOutOfRangeShufflePredicate;

/// The two findings (session 8's `found-O1/redux.sync.min.u32-938185ad`,
/// H100 and H200, and session 12's `d/found/redux.sync.add.s32-ba615066`,
/// H200: each wrong at -O1 only, `%r0`/`%b0` 3 on every lane) and their
/// corpus copies are SP's and no other detector's, with their inputs and
/// alone; the index is the guarded `redux`.
#[test]
fn sp_names_its_two_findings_and_no_other_detector_does() {
    for (case, at) in [
        (
            log_case("gpu-2026-11-27-h/found-O1/redux.sync.min.u32-938185ad"),
            1,
        ),
        (
            log_case("gpu-2026-11-28-l/d/found/redux.sync.add.s32-ba615066"),
            2,
        ),
        (corpus_case("redux.sync.min.u32-938185ad.ptx"), 1),
        (corpus_case("redux.sync.add.s32-ba615066.ptx"), 2),
    ] {
        assert_eq!(idioms_in_case(&case.program, &case.inputs), vec![SP]);
        assert_eq!(idioms(&case.program), vec![SP]);
        assert_eq!(SP.find(&case.program), Some(at));
    }
}

/// Session 8's variants (`docs/log/gpu-2026-11-27-h/triage.md`, section
/// SP; H200 at -O0 to -O3, `triage/levels-h200.txt`): `shfl-pred.found`
/// wrong at -O1 only; `.in-range` (source lane 0, `@%p2 redux`) and
/// `.pred-stored` (no redux) right at every level. And session 12's
/// (`docs/log/gpu-2026-11-28-l/triage/results/table.md`, H200 through the
/// driver's JIT linker at -O0, -O1, -O3): `sp.found` wrong at -O1 (`%b0`
/// gpu 3, interp 0), `.setp-pred` and `.in-range` right at every level.
/// SP's detector fires, with the inputs and alone, on exactly those that
/// went wrong.
#[test]
fn sp_fires_on_the_variants_that_went_wrong_and_on_none_that_ran_right() {
    let session_8: &[(&str, bool, &str)] = &[
        ("shfl-pred.found", true, "%r0 gpu 3, interp 1 (-O1 only)"),
        ("shfl-pred.in-range", false, "source lane 0, @%p2 redux"),
        ("shfl-pred.pred-stored", false, "the redux removed"),
    ];
    let session_12: &[(&str, bool, &str)] = &[
        ("sp.found", true, "%b0 gpu 3, interp 0 (-O1 only)"),
        ("sp.setp-pred", false, "%p3 from a setp, no shuffle"),
        ("sp.in-range", false, "the shuffle's source lane 0"),
    ];
    let mut wrong = variant_mismatches(
        SP,
        session_8,
        |n| log_case(&format!("gpu-2026-11-27-h/triage/experiments/{n}")),
        &[],
        Alone::Same,
    );
    wrong.extend(variant_mismatches(
        SP,
        session_12,
        |n| log_case(&format!("gpu-2026-11-28-l/triage/experiments/{n}")),
        &[],
        Alone::Same,
    ));
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
}

/// The shape's edges, each worked out from the ISA's `pval` of `.idx`
/// (`j = minLane | (bval & ~segmask)`, `maxLane = (lane & segmask) |
/// (cval & ~segmask)`, in range when `j <= maxLane`) and `vote`'s result,
/// and the index found (the guarded collective).
#[test]
fn sp_needs_a_guard_the_out_of_range_predicate_makes_true_on_every_lane() {
    let regs = ".reg .u32 %r0, %r1;\n.reg .pred %p2, %p3, %p7;\n";
    let find = |body: &str| {
        let case = parse(&format!("{regs}{body}")).expect("parses");
        SP.find(&case.program)
    };
    let shfl = "shfl.sync.idx.b32 _|%p2, 0, 1, 0, 0xffffffff;\n";
    let redux = "redux.sync.min.u32 %r0, 1, 0xffffffff;\n";
    // The found shape; `@%p2` is false on every lane, so no lane runs it.
    assert_eq!(find(&format!("{shfl}@!%p2 {redux}")), Some(1));
    assert_eq!(find(&format!("{shfl}@%p2 {redux}")), None);
    // Source lane 0 is in range (pval true): the guard `@!%p2` is false.
    assert_eq!(
        find(&format!(
            "shfl.sync.idx.b32 _|%p2, 0, 0, 0, 0xffffffff;\n@!%p2 {redux}"
        )),
        None
    );
    // c = 0x1f (clamp 31): every source lane is in range.
    assert_eq!(
        find(&format!(
            "shfl.sync.idx.b32 _|%p2, 0, 1, 0x1f, 0xffffffff;\n@!%p2 {redux}"
        )),
        None
    );
    // c = 1, b = 2: j = 2 > maxLane = 1 on every lane.
    assert_eq!(
        find(&format!(
            "shfl.sync.idx.b32 _|%p2, 0, 2, 1, 0xffffffff;\n@!%p2 {redux}"
        )),
        Some(1)
    );
    // c = 0x101 (segmask 1, clamp 1), b = 1: j = (lane & 1) | 0 and maxLane
    // = (lane & 1) | 0, in range on every lane.
    assert_eq!(
        find(&format!(
            "shfl.sync.idx.b32 _|%p2, 0, 1, 0x101, 0xffffffff;\n@!%p2 {redux}"
        )),
        None
    );
    // c = 0x100 (segmask 1, clamp 0), b = 2: j = (lane & 1) | 2 > maxLane =
    // lane & 1 on every lane.
    assert_eq!(
        find(&format!(
            "shfl.sync.idx.b32 _|%p2, 0, 2, 0x100, 0xffffffff;\n@!%p2 {redux}"
        )),
        Some(1)
    );
    // A register `b`, another mode, a guarded shuffle: not taken.
    for other in [
        "shfl.sync.idx.b32 _|%p2, 0, %r1, 0, 0xffffffff;\n",
        "shfl.sync.down.b32 _|%p2, 0, 1, 0, 0xffffffff;\n",
        "@%p3 shfl.sync.idx.b32 _|%p2, 0, 1, 0, 0xffffffff;\n",
    ] {
        assert_eq!(find(&format!("{other}@!%p2 {redux}")), None, "{other}");
    }
    // A guarded non-collective is not taken, nor (since session 13's
    // `sp4.ballot`, right on the H200) a guarded ballot, nor (`sp4.written-
    // first`, right) a `redux` into a register written before it.
    assert_eq!(find(&format!("{shfl}@!%p2 mov.b32 %r0, 1;\n")), None);
    assert_eq!(
        find(&format!(
            "{shfl}@!%p2 vote.sync.ballot.b32 %r0, %p3, 0xffffffff;\n"
        )),
        None
    );
    assert_eq!(find(&format!("mov.u32 %r0, 7;\n{shfl}@!%p2 {redux}")), None);
    // Through a vote: uni of a predicate false on every lane is 1, any and
    // all of it 0, of its negation 1.
    for (vote, guard, fires) in [
        ("vote.sync.uni.pred %p7, %p2, 0xffffffff;\n", "@%p7", true),
        ("vote.sync.uni.pred %p7, %p2, 0xffffffff;\n", "@!%p7", false),
        ("vote.sync.any.pred %p7, %p2, 0xffffffff;\n", "@!%p7", true),
        ("vote.sync.any.pred %p7, !%p2, 0xffffffff;\n", "@%p7", true),
        ("vote.sync.all.pred %p7, %p2, 0xffffffff;\n", "@%p7", false),
        ("vote.sync.all.pred %p7, !%p2, 0xffffffff;\n", "@%p7", true),
        (
            "@%p3 vote.sync.uni.pred %p7, %p2, 0xffffffff;\n",
            "@%p7",
            false,
        ),
    ] {
        assert_eq!(
            find(&format!("{shfl}{vote}{guard} {redux}")),
            fires.then_some(2),
            "{vote}{guard}"
        );
    }
    // The predicate rewritten, a label or a branch between: not taken.
    for between in [
        "mov.pred %p2, 0;\n",
        "L0:\n",
        "@%p3 bra L0;\nL0:\n",
        "@%p3 exit;\n",
    ] {
        assert_eq!(
            find(&format!("{shfl}{between}@!%p2 {redux}")),
            None,
            "{between}"
        );
    }
}

/// Session 13's variants on the H200 through the driver's JIT linker at
/// -O0, -O1, -O3: H44's `sp3.*` with their few declared registers
/// (`docs/log/gpu-2026-11-28-m/c/sp/`: every one right at every level, the
/// found program `sp3.found` too) and the same with the found case's 31
/// declared registers (`sp4.*`, `d/sp4-levels.txt`: the found case, the
/// clamp 1 with source lane 2 and a `vote.any` of the negated predicate
/// wrong at -O1, the last at -O3 too; a ballot or `mov` for the `redux`,
/// the `redux` after a write of its destination, an in-range register
/// source lane, `.down`, a guard false on every lane right). SP's
/// detector, narrowed by these to a `redux` into a register that may have
/// no value, fires on every `sp4` variant that went wrong and none that
/// ran right; on the `sp3` forms of those (right: the register set is not
/// in the text) it fires too, listed as wider.
#[test]
fn sp_against_session_13s_variants() {
    let rows: &[crate::idioms::HwRow] = &[
        ("sp3/variants/sp3.found", false, "few registers: right"),
        ("sp3/variants/sp3.clamp-1", false, "few registers: right"),
        ("sp3/variants/sp3.vote-any", false, "few registers: right"),
        ("sp3/variants/sp3.ballot", false, "right"),
        ("sp3/variants/sp3.mov", false, "right"),
        ("sp3/variants/sp3.written-first", false, "right"),
        ("sp3/variants/sp3.down", false, "right"),
        ("sp3/variants/sp3.guard-false", false, "right"),
        ("sp3/variants/sp3.b-input", false, "right"),
        ("sp4/sp4.found", true, "%r0 gpu 3, interp 1 (-O1)"),
        ("sp4/sp4.clamp-1", true, "%r0 gpu 3, interp 1 (-O1)"),
        ("sp4/sp4.vote-any", true, "%r0 gpu 3, interp 1 (-O1, -O3)"),
        ("sp4/sp4.ballot", false, "a guarded ballot for the redux"),
        ("sp4/sp4.mov", false, "a guarded mov for the redux"),
        ("sp4/sp4.written-first", false, "%r0 written before"),
        ("sp4/sp4.down", false, "shfl.sync.down"),
        ("sp4/sp4.guard-false", false, "the guard false everywhere"),
        ("sp4/sp4.b-input", false, "a register source lane"),
    ];
    let variant = |n: &str| log_case(&format!("gpu-2026-11-28-m/{n}"));
    let named: Vec<(&str, Idiom)> = rows.iter().filter(|r| r.1).map(|r| (r.0, SP)).collect();
    let wider = [
        ("sp3/variants/sp3.found", SP),
        ("sp3/variants/sp3.clamp-1", SP),
        ("sp3/variants/sp3.vote-any", SP),
    ];
    let wrong = crate::idioms::variants_against_detectors(&[rows], variant, &named, &wider, &[]);
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
}
