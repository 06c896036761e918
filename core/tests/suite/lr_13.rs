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
