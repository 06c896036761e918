//! N31 (LR) in session 13: what the detectors find in the variants that
//! ask the H200 which part of session 11's never-run shuffle session 12's
//! ballot stands for (`docs/log/gpu-2026-11-28-m/lr/experiments/`, with
//! `PREDICT.txt`; run by `devrun/h43/run.sh`). Their hardware rows come
//! once the H200 has answered; until then this prints.

/// Each variant's idioms (with its inputs and alone) beside its
/// prediction; run by hand:
/// `cargo test -p warp-core --test suite idioms_of_the_lr_variants_of_session_13 -- --ignored --nocapture`.
#[test]
#[ignore = "prints the detectors' answers on docs/log/gpu-2026-11-28-m/lr/experiments"]
fn idioms_of_the_lr_variants_of_session_13() {
    assert_eq!(
        crate::idioms::print_variant_idioms_in("gpu-2026-11-28-m/lr/experiments"),
        13
    );
}

/// The rule's parts on small programs (LR2's shape: the guarded ballot
/// before the guarded `add`, a loop that copies `q` into the guard): the unused
/// full-mask ballot is what the detector names, and each part taken away
/// or spoiled takes the idiom away.
#[test]
fn the_lr_rule_needs_each_of_its_parts() {
    use warp_core::idioms::Idiom;
    use warp_core::text::parse;
    let lr = |ballot: &str, guarded: &str, between: &str, rewrite: &str| {
        let src = format!(
            ".reg .pred p, q, lp;\n.reg .b32 r, s, c;\n{ballot}\n{guarded}\n{between}\nL:\n    setp.le.s32 lp, c, 0;\n    @lp bra E;\n    sub.s32 c, c, 1;\n    {rewrite}\n    bra L;\nE:\n    mov.b32 s, 0;\n"
        );
        let prog = parse(&src).expect("parses").program;
        Idiom::BallotGuardReadAfterLoopRewrite.find(&prog)
    };
    let ballot = "@!q vote.sync.ballot.b32 _, !p, 0xffffffff;";
    let add = "@p add.u32 r, r, 1;";
    let copy = "mov.pred p, q;";
    assert_eq!(lr(ballot, add, "", copy), Some(0), "the shape: the ballot");
    // Unguarded, the ballot is no guarded collective before the `add`.
    let unguarded = "vote.sync.ballot.b32 _, !p, 0xffffffff;";
    assert_eq!(lr(unguarded, add, "", copy), None, "lr3.lr2-unguarded-vote");
    // The ballot's result unused: dead (overwritten unread) counts, read
    // or stored at the end does not.
    let into_s = "@!q vote.sync.ballot.b32 s, !p, 0xffffffff;";
    assert_eq!(lr(into_s, add, "", copy), Some(0), "overwritten unread");
    let into_r = "@!q vote.sync.ballot.b32 r, !p, 0xffffffff;";
    assert_eq!(lr(into_r, add, "", copy), None, "read by the add");
    // Full mask only; the guard's own predicate only.
    let half = "@!q vote.sync.ballot.b32 _, !p, 0x0000ffff;";
    assert_eq!(lr(half, add, "", copy), None, "not the full mask");
    let other = "@!q vote.sync.ballot.b32 _, !q, 0xffffffff;";
    assert_eq!(lr(other, add, "", copy), None, "lr2.vote-other-pred");
    // The loop must rewrite the guard (not copy it into itself), and no
    // write of it may stand between the guarded instruction and the loop.
    assert_eq!(
        lr(ballot, add, "", "mov.pred q, p;"),
        None,
        "lr2.fresh-pred"
    );
    assert_eq!(lr(ballot, add, "", "mov.pred p, p;"), None, "a self-copy");
    assert_eq!(
        lr(ballot, add, copy, copy),
        None,
        "rewritten before the loop"
    );
    // The ballot after the guarded instruction needs a guarded collective
    // before it (lr.found's never-run shuffle).
    let after = format!("{add}\n{ballot}");
    assert_eq!(lr("", &after, "", copy), None, "lr.no-shfl");
    let shfl = "@p shfl.sync.idx.b32 _, 0, 0, 0, 0;";
    assert_eq!(lr(shfl, &after, "", copy), Some(2), "lr.found's order");
    // A guarded instruction that writes nothing is no guarded read.
    assert_eq!(lr(ballot, shfl, "", copy), None, "only the shuffle guarded");
}

/// The H200's answers for the LR variants of session 13
/// (`docs/log/gpu-2026-11-28-m/lr/table.md`, call c: through the driver's
/// JIT linker, every one right at -O0, the same answer at -O1 and -O3),
/// with the four controls from the earlier logs: (variant, diverged,
/// what).
const LR_ROWS: &[crate::idioms::HwRow] = &[
    ("lr.found", true, "%rd0 lane 1: gpu 0, interp 1"),
    ("lr.no-shfl", false, "the shuffle removed"),
    ("lr2.found", true, "%fd2 lane 0: gpu 1, interp 0"),
    ("lr2.no-vote", false, "the ballot removed"),
    (
        "lr3.lr-vote-first",
        false,
        "the unguarded ballot before the mov",
    ),
    (
        "lr3.lr-shfl-full-mask",
        true,
        "the guarded shuffle's mask full",
    ),
    ("lr3.lr-shfl-unguarded", false, "the shuffle unguarded"),
    (
        "lr3.lr-mov-for-shfl",
        false,
        "a guarded mov for the shuffle",
    ),
    (
        "lr3.lr2-vote-after",
        false,
        "the ballot after the fma alone",
    ),
    (
        "lr3.lr2-shfl-before",
        true,
        "a guarded shuffle before the fma",
    ),
    ("lr3.lr2-unguarded-vote", false, "the ballot unguarded"),
    (
        "lr3.lr2-vote-any",
        false,
        "a guarded vote.any for the ballot",
    ),
    ("lr3.lr2-no-loop", false, "the loop as straight code"),
];

/// N31's detector names every LR variant that went wrong on the H200 and
/// none that ran right (the rule as narrowed by these rows: a guarded
/// collective before the guarded instruction), and no other detector
/// names any of them.
#[test]
fn lr_variants_of_session_13_against_the_detectors() {
    use warp_core::idioms::Idiom::BallotGuardReadAfterLoopRewrite as Lr;
    let variant =
        |n: &str| crate::idioms::log_case(&format!("gpu-2026-11-28-m/lr/experiments/{n}"));
    let named: Vec<(&str, warp_core::idioms::Idiom)> =
        LR_ROWS.iter().filter(|r| r.1).map(|r| (r.0, Lr)).collect();
    let wrong = crate::idioms::variants_against_detectors(&[LR_ROWS], variant, &named, &[], &[]);
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
}
