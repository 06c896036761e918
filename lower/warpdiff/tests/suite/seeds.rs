//! Every (seed, job) pair has its own stream of cases (issue #18): the
//! digest that `warpdiff fuzz` prints over the cases it generated differs
//! between `--seed 2` and `--seed 3`, and repeats for the same seed.

use std::process::Command;

/// Runs `warpdiff fuzz` on `cases` generated programs, each on `inputs`
/// input sets; returns what it printed.
fn fuzz(seed: &str, jobs: &str, cases: &str, inputs: &str) -> String {
    let corpus = std::env::temp_dir().join(format!("warpdiff-seeds-{}", std::process::id()));
    let out = Command::new(env!("CARGO_BIN_EXE_warpdiff"))
        .args([
            "fuzz",
            "--engines",
            "interp,jit",
            "--keep-going",
            "--seconds",
            "600",
            "--seed",
            seed,
            "--jobs",
            jobs,
            "--cases",
            cases,
            "--inputs",
            inputs,
            "--corpus",
        ])
        .arg(&corpus)
        .env("CUDA_VISIBLE_DEVICES", "")
        .output()
        .expect("runs");
    String::from_utf8(out.stdout).expect("utf8")
}

/// The digest `warpdiff fuzz` printed in `text`.
fn digest_in(text: &str) -> String {
    let line = text
        .lines()
        .find(|l| l.starts_with("programs digest "))
        .unwrap_or_else(|| panic!("a digest line:\n{text}"));
    line.split_whitespace()
        .nth(2)
        .expect("the digest")
        .to_string()
}

/// Runs `warpdiff fuzz` for `cases` cases; returns the digest it printed.
fn digest(seed: &str, jobs: &str, cases: &str) -> String {
    let text = fuzz(seed, jobs, cases, "1");
    assert!(
        text.contains(&format!("\n{cases} programs (")),
        "stops after {cases} programs:\n{text}"
    );
    digest_in(&text)
}

#[test]
fn seeds_two_and_three_generate_different_cases_and_each_repeats() {
    let two = digest("2", "1", "40");
    assert_eq!(two, digest("2", "1", "40"), "the same seed, the same cases");
    assert_ne!(two, digest("3", "1", "40"), "--seed 2 and --seed 3 differ");
}

#[test]
fn the_jobs_of_one_run_generate_different_cases() {
    // Two jobs of seed 2 make 20 cases each; had job 1 repeated job 0's
    // stream, the digest would be twice that of job 0's 20 cases alone
    // (the digest is a sum over cases).
    let one_job = u64::from_str_radix(&digest("2", "1", "20"), 16).expect("hex");
    let two_jobs = u64::from_str_radix(&digest("2", "2", "40"), 16).expect("hex");
    assert_ne!(two_jobs, one_job.wrapping_mul(2));
}

#[test]
fn more_input_sets_per_program_are_more_cases_from_the_same_programs() {
    // `--inputs 4`: each of the 30 generated programs is also checked on
    // up to 3 more input sets, so more than 30 input sets are run; the
    // programs (and so the digest over them) are the same.
    let counts = |text: &str| -> (u64, u64) {
        let line = text
            .lines()
            .find(|l| l.contains(" input sets in "))
            .unwrap_or_else(|| panic!("a summary line:\n{text}"));
        let words: Vec<&str> = line.split_whitespace().collect();
        let at = words
            .iter()
            .position(|w| *w == "input")
            .expect("input sets");
        (
            words[0].parse().expect("programs"),
            words[at - 1].parse().expect("input sets"),
        )
    };
    let (one, four) = (fuzz("4", "1", "30", "1"), fuzz("4", "1", "30", "4"));
    assert_eq!(counts(&one), (30, 30), "{one}");
    assert_eq!(counts(&four).0, 30, "{four}");
    assert!(counts(&four).1 > 30, "{four}");
    assert_eq!(digest_in(&one), digest_in(&four));
}
