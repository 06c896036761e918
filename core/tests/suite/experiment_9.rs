//! Session 9's hardware experiments (docs/log/gpu-2026-11-28-i/): N24's
//! (both forms) and N25's detectors against every variant that ran, each fired on the
//! variants the GPU got wrong (or crashed on) and on none it got right,
//! with no other detector firing on any of them.

use crate::idioms::{variant_mismatches, Alone};
use warp_core::idioms::Idiom;
use warp_core::ir::Case;
use warp_core::text::parse;

/// A variant's case from the log folder of the call that ran it.
fn variant(dir: &str, name: &str) -> Case {
    let path = format!(
        "{}/../docs/log/gpu-2026-11-28-i/{dir}/{name}.ptx.txt",
        env!("CARGO_MANIFEST_DIR")
    );
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"));
    parse(&text).unwrap_or_else(|e| panic!("{path}: {e:?}"))
}

/// N24's variants of session 9 (`n24-variants-h100.txt`, and `y11` in
/// `n24-y11-h200.txt`): (file, crashed from -O1, what changed). `y9` (the
/// branch over a `match.all.sync.b64`) compiled, and the detector takes it:
/// left out, said in the idiom's documentation.
const N24: &[(&str, bool, &str)] = &[
    (
        "y5-branch-not-taken",
        true,
        "the reproducer: SIGSEGV from -O1",
    ),
    ("y7-no-branch", false, "no branch around the exit"),
    ("y8-vote-after", false, "a vote.sync after the exit"),
    ("y10-negated-exit", false, "@!p exit"),
    (
        "y11-bar-warp-sync-after",
        false,
        "bar.warp.sync after the exit (H200)",
    ),
    (
        "y12-mask-from-activemask",
        false,
        "the mask from activemask",
    ),
    ("y13-branch-not-exit", false, "a branch in the exit's place"),
    (
        "y14-register-mask-after",
        false,
        "a register mask on the shfl.sync",
    ),
    ("y15-result-used", false, "the match's result read"),
    ("y16-nothing-after", false, "a mov after the exit"),
];

/// N24's second form (the `match` a branch target reached from two paths;
/// `n26-variants-h100.txt`): (file, crashed from -O1, what changed).
const N24_JOINED: &[(&str, bool, &str)] = &[
    ("a8-found-exact", true, "the -O3 hunt's case: the mask 0"),
    (
        "a0-found",
        true,
        "the same with a register declared beside it",
    ),
    ("a1-mask-full", true, "the full mask"),
    ("a2-mask-low-half", true, "the mask 0xffff"),
    ("a3-mask-register", true, "a register mask"),
    ("a4-mask-one-lane", true, "the mask 1"),
    ("a6-shfl-after", true, "a shfl.sync after the join"),
    ("a7-vote-after", true, "a vote.sync after the join"),
    ("a5-no-exit", false, "no exit"),
];

/// N25's variants (`j4-levels-h100.txt`, `j4-levels-h200.txt`, the same on
/// both): (file, wrong from -O1, what changed).
const N25: &[(&str, bool, &str)] = &[
    (
        "j4-cnot64-twice-cvt-rmi-u8-f64",
        true,
        "the lead: 1 where 0 is right",
    ),
    ("j8-rzi", true, ".rzi"),
    ("j9-u16", true, "a .u16 destination"),
    ("j10-s8", true, "an .s8 destination"),
    ("j15-rni", true, ".rni"),
    ("j16-lane-input", true, "the input 0 1 2 3: 24 lanes wrong"),
    ("j11-b32-f32", false, "cnot.b32 twice, cvt.rmi.u8.f32"),
    ("j12-setp-selp", false, "setp + selp.b64 for the cnots"),
    ("j13-and-1", false, "and.b64 x, 1 for the cnots"),
    ("j14-u32", false, "a 32-bit destination"),
    ("j17-cnot-once-from-lanes", false, "one cnot"),
    (
        "j18-setp-selp-s32-into-u8",
        false,
        "setp + selp.b32, cvt from .f32",
    ),
];

/// Variants another bug's detector takes, each with why (the only ones
/// where a detector but the tested one may fire).
const ALSO: &[(&str, Idiom, &str)] = &[
    (
        "y13-branch-not-exit",
        Idiom::UnusedCollectiveSplitsWarp,
        "K5's widened shape (H30: a match.all predicate of an immediate is known, so its read by \
         the branch does not count), with a register mask that is the full mask on every lane in \
         the inputs, so no groups are left behind: it agreed, as H30's two whole-warp K5 variants did",
    ),
    (
    "a5-no-exit",
    Idiom::UnusedCollectiveSplitsWarp,
    "K5's shape: an unused match with the mask 0 before a full-mask collective; no lane runs \
     that match, so it agreed, and N24's detector does not fire without the exit",
    ),
];

#[test]
fn n24_and_n25_fire_on_the_variants_the_gpu_got_wrong_and_on_no_other() {
    let mut wrong = Vec::new();
    for (idiom, dir, variants) in [
        (Idiom::MatchAllExitJoinCrashes, "n24v", N24),
        (Idiom::MatchAllExitJoinCrashes, "n26v", N24_JOINED),
        (Idiom::CnotPairNarrowCvtFromF64, "j4v", N25),
    ] {
        assert!(variants.iter().any(|v| v.1) && variants.iter().any(|v| !v.1));
        wrong.extend(variant_mismatches(
            idiom,
            variants,
            |name| variant(dir, name),
            ALSO,
            Alone::Same,
        ));
    }
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
}
