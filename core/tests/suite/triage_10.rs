//! The triage of session 10's `--avoid all` hunts (2026-11-28-j, issue
//! #35): the experiment variants of `docs/log/gpu-2026-11-28-j/triage/`
//! (each a found case of `a/found-replay`, `c/found-default` or
//! `d/found-O3` with one change) and the idioms the detectors find in
//! them. The table of the 53 findings themselves is
//! `triage_of_the_found_cases_of_2026_11_28_j` (`experiment_10.rs`).

use warp_core::idioms::{idioms, idioms_in_case, Idiom};
use warp_core::text::parse;

/// A case under `docs/log/`, by its path there (without `.ptx.txt`).
fn log_case(file: &str) -> warp_core::ir::Case {
    let path = format!("{}/../docs/log/{file}.ptx.txt", env!("CARGO_MANIFEST_DIR"));
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"));
    parse(&text).unwrap_or_else(|e| panic!("{path}: {e:?}"))
}

/// The idioms every detector finds in each experiment variant of the
/// 2026-11-28-j triage (`docs/log/gpu-2026-11-28-j/triage/experiments/`),
/// beside what `PREDICT.txt` says the hypothesis predicts; run by hand:
/// `cargo test -p warp-core --test suite idioms_of_the_triage_variants_of_2026_11_28_j -- --ignored --nocapture`.
#[test]
#[ignore = "prints the detectors on the variants of docs/log/gpu-2026-11-28-j/triage.md"]
fn idioms_of_the_triage_variants_of_2026_11_28_j() {
    let dir = format!(
        "{}/../docs/log/gpu-2026-11-28-j/triage/experiments",
        env!("CARGO_MANIFEST_DIR")
    );
    let predict = std::fs::read_to_string(format!("{dir}/PREDICT.txt")).expect("PREDICT.txt");
    let mut n = 0;
    for line in predict.lines() {
        let (name, says) = line.split_once(' ').expect("NAME PREDICTION");
        let case = log_case(&format!("gpu-2026-11-28-j/triage/experiments/{name}"));
        let names = |v: &[Idiom]| v.iter().map(|i| i.name()).collect::<Vec<_>>().join(", ");
        println!(
            "{name} ({says}): {} (program alone: {})",
            names(&idioms_in_case(&case.program, &case.inputs)),
            names(&idioms(&case.program))
        );
        n += 1;
    }
    assert!(n > 0);
}
