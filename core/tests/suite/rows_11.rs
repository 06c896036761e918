//! Session 11's three draft rows (issue #35): the detectors of the
//! candidates MJ, N26X and OR64 of the triage of 2026-11-28-j
//! (`docs/log/gpu-2026-11-28-j/triage.md`) against every variant of them
//! that ran on hardware: fired, with the case's inputs, on the variants the
//! GPU got wrong and on none it got right, with no other detector firing.
//! The expected answers are those hardware results: the H100 through the
//! driver's JIT linker at -O0, -O1 and -O3
//! (`docs/log/gpu-2026-11-28-j/triage/levels.txt`) and, for MJ's first
//! case, the H100 at -O0 to -O3 of session 9
//! (`docs/log/gpu-2026-11-28-i/triage/levels-h100.txt`).

use crate::idioms::{corpus_case, log_case, variant_mismatches, Alone};
use warp_core::idioms::{idioms_in_case, Idiom};
use warp_core::ir::Case;

/// A variant of the 2026-11-28-j triage.
fn variant_j(name: &str) -> Case {
    log_case(&format!("gpu-2026-11-28-j/triage/experiments/{name}"))
}

/// A variant of the 2026-11-28-i triage.
fn variant_i(name: &str) -> Case {
    log_case(&format!("gpu-2026-11-28-i/triage/experiments/{name}"))
}

/// (variant, diverged on the GPU, what).
type Row = (&'static str, bool, &'static str);

/// MJ's second case (`d/found-O3/match.any.sync.b64-925e3038`) and its
/// variants.
const MJ_J: &[Row] = &[
    (
        "mj2.found",
        true,
        "lanes 12 and 17 at L7 by two paths: %s0 0x21000 on both (-O1, -O3)",
    ),
    (
        "mj2.one-path",
        false,
        "both lanes by the fall-through: L7 no branch's target",
    ),
    (
        "mj2.same-values",
        false,
        "match.any.sync.b32 %m1, 0, 0x21000: every match of an immediate",
    ),
];

/// MJ's first case (session 9, `found-O3/match.all.sync.b64-66cbd4dc`) and
/// the variant that agreed by its program (`match-join.same-values`, which
/// agreed by its inputs, is in
/// `mj_holds_on_the_same_values_variant_whose_inputs_make_it_right`).
const MJ_I: &[Row] = &[
    (
        "match-join.found",
        true,
        "lanes 11 and 21 at L12 by two paths: %p0 1 on both (-O1 to -O3)",
    ),
    (
        "match-join.one-path",
        false,
        "the branch to L12 guarded by %laneid == 32, which no lane takes",
    ),
];

/// N26X's case (`c/found-default/input-57155f24`) and its variants.
const N26X: &[Row] = &[
    ("n26x.found", true, "%b0 lane 0: gpu 0, interp 1 (-O1, -O3)"),
    (
        "n26x.and-pred",
        true,
        "and.pred for the copy: as the found case",
    ),
    (
        "n26x.sqrt",
        true,
        "a sqrt.rn.f32 of an input before the copy: as the found case",
    ),
    ("n26x.mov-pred", false, "mov.pred for the copy"),
    ("n26x.no-rewrite", false, "the source not rewritten"),
];

/// OR64's case (`c/found-default/or.b64-306b84b5`) and its variants.
const OR64: &[Row] = &[
    (
        "or64.found",
        true,
        "%bd3 gpu 0xffffffff, interp 0xc8a1da41ffffffff (-O3; -O1 right)",
    ),
    ("or64.no-exit", false, "the exit removed"),
    ("or64.unguarded", false, "the or unguarded"),
];

#[test]
fn each_new_detector_fires_on_the_variants_the_gpu_got_wrong_and_on_no_other() {
    let mut wrong = Vec::new();
    for (idiom, rows, load) in [
        (
            Idiom::MatchAtJoinOfTwoPaths,
            MJ_J,
            variant_j as fn(&str) -> Case,
        ),
        (Idiom::MatchAtJoinOfTwoPaths, MJ_I, variant_i),
        (Idiom::PredicateCopyLostAtExit, N26X, variant_j),
        (Idiom::Or64LowWordOnesDropsHighWord, OR64, variant_j),
    ] {
        assert!(rows.iter().any(|r| r.1) && rows.iter().any(|r| !r.1));
        wrong.extend(variant_mismatches(idiom, rows, load, &[], Alone::Same));
    }
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
}

/// `match-join.same-values` (session 9) agreed at every level: lane 21's
/// input value made 0, like lane 11's, so the `match.all` is right whether
/// the lanes match together or alone. MJ's detector reads the program, not
/// the values, and takes it (a sufficient shape, wider than the bug there).
#[test]
fn mj_holds_on_the_same_values_variant_whose_inputs_make_it_right() {
    let case = variant_i("match-join.same-values");
    assert_eq!(
        idioms_in_case(&case.program, &case.inputs),
        vec![Idiom::MatchAtJoinOfTwoPaths]
    );
}

/// Where each detector points: the `match` at the join (the first of the
/// second case's two; the second, of an immediate, is none), the predicate
/// copy, the `or.b64`.
#[test]
fn the_new_detectors_name_the_instruction_of_their_shape() {
    for (file, idiom, at) in [
        (
            "match.all.sync.b64-66cbd4dc.ptx",
            Idiom::MatchAtJoinOfTwoPaths,
            4,
        ),
        (
            "match.any.sync.b64-925e3038.ptx",
            Idiom::MatchAtJoinOfTwoPaths,
            5,
        ),
        ("input-57155f24.ptx", Idiom::PredicateCopyLostAtExit, 1),
        (
            "or.b64-306b84b5.ptx",
            Idiom::Or64LowWordOnesDropsHighWord,
            2,
        ),
    ] {
        let case = corpus_case(file);
        assert_eq!(idiom.find(&case.program), Some(at), "{file}");
    }
}

/// The idioms every detector finds in each variant of session 11's GPU call
/// (`docs/log/gpu-2026-11-28-k/triage/experiments/`, run by
/// `devrun/s11-rows/run.sh`), beside what `PREDICT.txt` says each
/// hypothesis predicts: to set against the transcripts once they are back;
/// run by hand:
/// `cargo test -p warp-core --test suite idioms_of_the_s11_variants -- --ignored --nocapture`.
#[test]
#[ignore = "prints the detectors on the variants of docs/log/gpu-2026-11-28-k/"]
fn idioms_of_the_s11_variants() {
    assert_eq!(crate::idioms::print_variant_idioms("gpu-2026-11-28-k"), 37);
}
