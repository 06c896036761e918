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

/// The rule's parts on small programs (LR2's shape: the ballot before the
/// guarded `add`, a loop that copies `q` into the guard): the unused
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
    let ballot = "vote.sync.ballot.b32 _, !p, 0xffffffff;";
    let add = "@p add.u32 r, r, 1;";
    let copy = "mov.pred p, q;";
    assert_eq!(lr(ballot, add, "", copy), Some(0), "the shape: the ballot");
    // The ballot's result unused: dead (overwritten unread) counts, read
    // or stored at the end does not.
    let into_s = "vote.sync.ballot.b32 s, !p, 0xffffffff;";
    assert_eq!(lr(into_s, add, "", copy), Some(0), "overwritten unread");
    let into_r = "vote.sync.ballot.b32 r, !p, 0xffffffff;";
    assert_eq!(lr(into_r, add, "", copy), None, "read by the add");
    // Full mask only; the guard's own predicate only.
    let half = "vote.sync.ballot.b32 _, !p, 0x0000ffff;";
    assert_eq!(lr(half, add, "", copy), None, "not the full mask");
    let other = "vote.sync.ballot.b32 _, !q, 0xffffffff;";
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
    // The ballot after the guarded instruction needs another collective
    // reading the guard before it (lr.found's never-run shuffle).
    let after = format!("{add}\n{ballot}");
    assert_eq!(lr("", &after, "", copy), None, "lr.no-shfl");
    let shfl = "@p shfl.sync.idx.b32 _, 0, 0, 0, 0;";
    assert_eq!(lr(shfl, &after, "", copy), Some(2), "lr.found's order");
    // A guarded instruction that writes nothing is no guarded read.
    assert_eq!(lr(ballot, shfl, "", copy), None, "only the shuffle guarded");
}
