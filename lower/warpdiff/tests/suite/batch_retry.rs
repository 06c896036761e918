//! A GPU divergence that agrees alone at every level keeps its batch and
//! is retried (`warpdiff::fuzz::retry`), shown on the simulated GPU's
//! wrong values (`lower/gpu/src/sim_wrong.rs`), whose rules say what each
//! retry must see:
//!
//! - `wrong-after:activemask+match.any.sync.b32`: a program with
//!   `match.any.sync.b32` is wrong after one with `activemask` in its
//!   batch, at an optimising level: the batch reproduces it in every rerun
//!   and agrees at -O0; alone, filled or not, it agrees.
//! - `wrong-dirty:match.any.sync.b32`: such a program is wrong once the
//!   process ran anything before its batch, or after any register fill,
//!   at an optimising level: a batch in a fresh process agrees, the first
//!   fill reproduces it, -O0 under it agrees.
//! - `wrong-once:2`: the last job of the run's second batch is wrong, and
//!   nothing else ever: every retry agrees, and it stays unknown.
//!
//! Fuzz runs default to the driver's level (optimising), so each rule
//! fires in the run.

use crate::common;

use common::warpdiff_env as warpdiff;
use std::path::{Path, PathBuf};
use warpdiff::fuzz::batch_file::{parse_batch, SavedBatch};

fn dir(name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("warpdiff-retry-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).expect("temp dir");
    d
}

/// The files of `d` whose names end with `suffix`.
fn files(d: &Path, suffix: &str) -> Vec<PathBuf> {
    let mut v: Vec<PathBuf> = std::fs::read_dir(d)
        .map(|rd| rd.flatten().map(|e| e.path()).collect())
        .unwrap_or_default();
    v.retain(|p| p.to_string_lossy().ends_with(suffix));
    v.sort();
    v
}

/// A fuzz run on the simulated GPU with `rule` that stops at its first
/// finding; the finding's text and its batch (text, parsed).
fn found_with(name: &str, rule: &str) -> (PathBuf, String, String, SavedBatch) {
    let d = dir(name);
    let corpus = d.join("corpus");
    let (code, out, err, _) = warpdiff(
        &[
            "fuzz",
            "--engines",
            "interp,gpu",
            "--seconds",
            "120",
            "--seed",
            "5",
            // Batches of several cases (an unoptimised build on a loaded
            // machine makes a case every 60 ms or so).
            "--gpu-batch",
            "16",
            "--batch-fill-ms",
            "3000",
            // No known bug's idiom, which would be counted, not found.
            "--avoid",
            "all",
            "--gpu-simulate",
            rule,
            "--corpus",
            corpus.to_str().expect("utf-8"),
        ],
        &[],
    );
    assert_eq!(code, 1, "one finding: {out}{err}");
    let found = files(&corpus, ".ptx");
    assert_eq!(found.len(), 1, "{out}");
    let batches = files(&corpus, ".batch.txt");
    assert_eq!(batches.len(), 1, "the batch is kept: {out}");
    let text = std::fs::read_to_string(&found[0]).expect("read");
    let btext = std::fs::read_to_string(&batches[0]).expect("read");
    let batch = parse_batch(&btext, &batches[0].display().to_string()).expect("the batch parses");
    assert!(batch.cases.len() > 1, "a batch of several: {btext}");
    let stem = found[0]
        .file_stem()
        .expect("stem")
        .to_string_lossy()
        .into_owned();
    assert!(
        batches[0].ends_with(format!("{stem}.batch.txt")),
        "next to the finding: {batches:?}"
    );
    assert!(
        text.contains(&format!(
            "// batch: the {} cases it diverged in are kept in {stem}.batch.txt (case {} diverged)",
            batch.cases.len(),
            batch.diverged
        )),
        "{text}"
    );
    (batches[0].clone(), text, out, batch)
}

/// The header lines of `text` that start with `// retry: `.
fn retries(text: &str) -> Vec<&str> {
    text.lines()
        .filter_map(|l| l.strip_prefix("// retry: "))
        .collect()
}

/// `warpdiff diff --gpu-batch-file FILE --gpu-simulate RULE EXTRA...`.
fn replay(file: &Path, rule: &str, extra: &[&str]) -> (i32, String) {
    let f = file.to_str().expect("utf-8");
    let mut args = vec!["diff", "--gpu-batch-file", f, "--gpu-simulate", rule];
    args.extend_from_slice(extra);
    let (code, out, err, _) = warpdiff(&args, &[]);
    (code, format!("{out}{err}"))
}

fn has(c: &warp_core::gen::TestCase, form: &str) -> bool {
    c.program.insts.iter().any(|i| i.op.form_name() == form)
}

#[test]
fn a_divergence_that_needs_its_batch_is_a_compiler_finding_and_its_batch_replays_it() {
    let rule = "wrong-after:activemask+match.any.sync.b32";
    let (file, text, _, batch) = found_with("after", rule);
    // The case that diverged has the second form; another of its batch
    // the first.
    let culprit = &batch.cases[batch.diverged];
    assert!(has(culprit, "match.any.sync.b32"), "{text}");
    assert!(
        batch
            .cases
            .iter()
            .enumerate()
            .any(|(i, c)| i != batch.diverged && has(c, "activemask")),
        "a batch mate with activemask"
    );
    // Alone it agrees, so it could not be reduced: the finding is the
    // batch's program.
    let found = warp_core::text::parse(&text).expect("the finding parses");
    assert_eq!(found.program, culprit.program);
    assert!(
        text.contains("// class: compiler (needs its batch: differs in 3 of 3 reruns); -O0 agrees, -O1 agrees, -O2 agrees, -O3 agrees, -O4 agrees"),
        "{text}"
    );
    let r = retries(&text);
    for i in 1..=3 {
        assert!(
            r.iter()
                .any(|l| l.starts_with(&format!("batch {i}/3 differs"))),
            "{r:?}"
        );
    }
    assert!(r.contains(&"batch at -O0 agrees"), "{r:?}");
    let dirty: Vec<_> = r
        .iter()
        .filter(|l| l.starts_with("alone, dirty seed"))
        .collect();
    assert_eq!(dirty.len(), 4, "{r:?}");
    assert!(dirty.iter().all(|l| l.contains(" agrees ")), "{r:?}");
    // By hand: the batch at an optimising level differs on that case, at
    // -O0 agrees.
    let (code, out) = replay(&file, rule, &["--gpu-helpers", "--gpu-opt-level", "3"]);
    assert_eq!(code, 1, "{out}");
    assert!(
        out.contains(&format!(
            "case {} (the case that diverged): DIFFERS",
            batch.diverged
        )),
        "{out}"
    );
    let (code, out) = replay(&file, rule, &["--gpu-helpers", "--gpu-opt-level", "0"]);
    assert_eq!(code, 0, "{out}");
    assert!(
        out.contains(&format!("0 of {} case(s) differ", batch.cases.len())),
        "{out}"
    );
}

#[test]
fn a_divergence_after_a_register_fill_is_a_state_dependent_compiler_finding() {
    let rule = "wrong-dirty:match.any.sync.b32";
    let (file, text, _, batch) = found_with("dirty", rule);
    assert!(has(&batch.cases[batch.diverged], "match.any.sync.b32"));
    // Any fill makes it wrong: the first seed, drawn from the case seed.
    let seed_at = text.find("case seed 0x").expect("the case seed") + "case seed 0x".len();
    let hex: String = text[seed_at..]
        .chars()
        .take_while(|c| c.is_ascii_hexdigit())
        .collect();
    let case_seed = u64::from_str_radix(&hex, 16).expect("hex");
    let first = warpdiff::fuzz::retry::dirty_seed(case_seed, 0);
    assert!(
        text.contains(&format!(
            "// class: compiler (state-dependent: differs after dirty seed {first:#x}); -O0 agrees, -O1 agrees, -O2 agrees, -O3 agrees, -O4 agrees"
        )),
        "{text}"
    );
    let r = retries(&text);
    // A fresh process holds nothing: each rerun of the batch agrees, and
    // no -O0 batch is run.
    for i in 1..=3 {
        assert!(
            r.iter()
                .any(|l| l.starts_with(&format!("batch {i}/3 agrees"))),
            "{r:?}"
        );
    }
    assert!(!r.iter().any(|l| l.starts_with("batch at -O0")), "{r:?}");
    assert!(
        r.contains(&format!("alone, dirty seed {first:#010x} at -O0 agrees").as_str()),
        "{r:?}"
    );
    let differs = r
        .iter()
        .filter(|l| l.starts_with("alone, dirty seed") && l.contains(" differs "))
        .count();
    assert_eq!(differs, 4, "every fill: {r:?}");
    // By hand: in a fresh process it agrees; after a fill it differs.
    let (code, out) = replay(&file, rule, &["--gpu-opt-level", "3"]);
    assert_eq!(code, 0, "{out}");
    let (code, out) = replay(&file, rule, &["--gpu-opt-level", "3", "--gpu-dirty", "7"]);
    assert_eq!(code, 1, "{out}");
    assert!(
        out.contains(&format!(
            "case {} (the case that diverged): DIFFERS",
            batch.diverged
        )),
        "{out}"
    );
}

#[test]
fn a_one_off_stays_unknown_with_its_retries_recorded() {
    let rule = "wrong-once:2";
    let (file, text, _, batch) = found_with("once", rule);
    // The last job of its batch, as it ran in the runner.
    assert!(
        text.contains("// class: unknown (agrees at every level when run alone (it needs its batch, or is flaky); retries: the batch differs in 0 of 3 reruns; alone, 0 of 4 dirty seeds differ); -O0 agrees, -O1 agrees, -O2 agrees, -O3 agrees, -O4 agrees"),
        "{text}"
    );
    let r = retries(&text);
    assert_eq!(r.len(), 7, "3 reruns and 4 fills: {r:?}");
    assert!(r.iter().all(|l| l.contains(" agrees ")), "{r:?}");
    let (code, out) = replay(&file, rule, &["--gpu-helpers"]);
    assert_eq!(code, 0, "never again: {out}");
    assert!(
        out.contains(&format!("0 of {} case(s) differ", batch.cases.len())),
        "{out}"
    );
}

#[test]
fn the_same_finding_again_keeps_a_second_batch_and_tells_its_retries() {
    let rule = "wrong-after:activemask+match.any.sync.b32";
    let d = dir("again");
    let corpus = d.join("corpus");
    let c = corpus.to_str().expect("utf-8");
    // One worker and the GPU in this process: the same seed gives the
    // same cases in the same batches, so the same finding.
    let run = || {
        let (code, out, err, _) = warpdiff(
            &[
                "fuzz",
                "--engines",
                "interp,gpu",
                "--seconds",
                "120",
                "--seed",
                "5",
                "--jobs",
                "1",
                "--gpu-in-process",
                "--gpu-batch",
                "16",
                "--batch-fill-ms",
                "3000",
                "--avoid",
                "all",
                "--gpu-simulate",
                rule,
                "--corpus",
                c,
            ],
            &[],
        );
        assert_eq!(code, 1, "{out}{err}");
        out
    };
    let first = run();
    assert!(first.contains("; wrote "), "{first}");
    let again = run();
    assert!(again.contains("; already in corpus: "), "{again}");
    assert!(
        again.contains(
            ".batch-2.txt; this time: class: compiler (needs its batch: differs in 3 of 3 reruns)"
        ),
        "{again}"
    );
    assert!(again.contains("retry: batch at -O0 agrees"), "{again}");
    assert_eq!(files(&corpus, ".ptx").len(), 1);
    assert_eq!(files(&corpus, ".txt").len(), 2, "both batches kept");
}
