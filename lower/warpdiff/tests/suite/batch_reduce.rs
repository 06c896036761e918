//! `warpdiff diff --gpu-batch-file FILE --reduce-batch` on the simulated
//! GPU's wrong values (`lower/gpu/src/sim_wrong.rs`): under
//! `wrong-after:popc.b32+brev.b32` a program with `brev.b32` is wrong when
//! one with `popc.b32` ran before it in its batch, at an optimising level.
//! The batches are built by hand, so which mates the divergence needs is
//! known from how they were built, not from the reducer.

use crate::common;

use common::warpdiff_env as warpdiff;
use std::path::{Path, PathBuf};
use warp_core::gen::TestCase;
use warpdiff::fuzz::batch_file::{batch_text, parse_batch};

const RULE: &str = "wrong-after:popc.b32+brev.b32";

fn dir(name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("warpdiff-reduce-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).expect("temp dir");
    d
}

fn case(op: &str, value: u32) -> TestCase {
    let c = warp_core::text::parse(&format!(
        ".reg .b32 r, s;\n.lanes s = {value};\n{op} r, s;\n"
    ))
    .expect("parses");
    TestCase {
        program: c.program,
        inputs: c.inputs,
    }
}

/// 21 cases: `brev.b32` at 15 (the diverged one), the only `popc.b32`
/// before it at 7, another `popc.b32` after it at 18 (which cannot matter:
/// the rule needs it before), `not.b32` everywhere else. The one mate the
/// divergence needs is case 7.
fn write_batch_file(d: &Path) -> PathBuf {
    let cases: Vec<TestCase> = (0..21u32)
        .map(|i| match i {
            15 => case("brev.b32", 0x1234_5678),
            7 | 18 => case("popc.b32", 0xff00 + i),
            _ => case("not.b32", i),
        })
        .collect();
    let refs: Vec<&TestCase> = cases.iter().collect();
    let text = batch_text(&refs, 15, &["Built by batch_reduce.rs.".to_string()]);
    let f = d.join("brev.b32-0000beef.batch.txt");
    std::fs::write(&f, text).expect("write");
    f
}

/// The reduction through the helpers at `-O{level}`, with `extra` flags.
fn reduce(file: &Path, level: &str, extra: &[&str]) -> (i32, String) {
    let f = file.to_str().expect("utf-8");
    let mut args = vec![
        "diff",
        "--gpu-batch-file",
        f,
        "--reduce-batch",
        "--gpu-simulate",
        RULE,
        "--gpu-helpers",
        "--gpu-opt-level",
        level,
    ];
    args.extend_from_slice(extra);
    let (code, out, err, _) = warpdiff(&args, &[]);
    (code, format!("{out}{err}"))
}

#[test]
fn the_one_mate_the_divergence_needs_is_kept_and_nothing_else() {
    let d = dir("one");
    let file = write_batch_file(&d);
    let (code, out) = reduce(&file, "3", &[]);
    assert_eq!(code, 1, "{out}");
    let min = d.join("brev.b32-0000beef.min.batch.txt");
    let text = std::fs::read_to_string(&min).expect("the reduced batch is written");
    let b = parse_batch(&text, "min").expect("parses");
    assert_eq!(b.cases.len(), 2, "{text}");
    assert_eq!(b.diverged, 1, "{text}");
    let input = parse_batch(&std::fs::read_to_string(&file).expect("read"), "in").expect("parses");
    assert_eq!(b.cases[0].program, input.cases[7].program);
    assert_eq!(b.cases[0].inputs, input.cases[7].inputs);
    assert_eq!(b.cases[1].program, input.cases[15].program);
    assert!(
        text.contains("kept 1 mate(s), input case(s) 7 (here 0)."),
        "{text}"
    );
    assert!(
        text.contains("Re-checked 2 more time(s): differs 2 of 2."),
        "{text}"
    );
    assert!(
        text.contains("Module: as plan::chunks cuts this batch, case(s) 0 (input case(s) 7) share the diverged case's module."),
        "{text}"
    );
    assert!(
        out.contains("reduced to 1 of 20 mate(s) (input case(s) 7) in "),
        "{out}"
    );
    assert!(out.contains("re-checked: differs 2 of 2; wrote "), "{out}");
    assert!(!out.contains("STOPPED EARLY"), "{out}");
    // The reduced batch replays the divergence, and agrees at -O0.
    let m = min.to_str().expect("utf-8");
    let (code, out, err, _) = warpdiff(
        &[
            "diff",
            "--gpu-batch-file",
            m,
            "--gpu-simulate",
            RULE,
            "--gpu-opt-level",
            "3",
        ],
        &[],
    );
    assert_eq!(code, 1, "{out}{err}");
    assert!(
        out.contains("case 1 (the case that diverged): DIFFERS"),
        "{out}"
    );
    let (code, out, err, _) = warpdiff(
        &[
            "diff",
            "--gpu-batch-file",
            m,
            "--gpu-simulate",
            RULE,
            "--gpu-opt-level",
            "0",
        ],
        &[],
    );
    assert_eq!(code, 0, "{out}{err}");
}

#[test]
fn the_test_cap_stops_it_with_the_best_so_far_and_never_overwrites() {
    let d = dir("cap");
    let file = write_batch_file(&d);
    // Test 1: all 20 mates (differs). One module for 21 cases, so the
    // module cut is all of them and is skipped; test 2: the 15 mates
    // before it (differs: case 7 is among them); then the cap.
    let (code, out) = reduce(&file, "3", &["--max-tests", "2"]);
    assert_eq!(code, 1, "{out}");
    assert!(
        out.contains("reduced to 15 of 20 mate(s) (input case(s) 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14) in 2 test(s)"),
        "{out}"
    );
    assert!(
        out.contains("; STOPPED EARLY: the test cap was reached (2 tests, --max-tests); wrote "),
        "{out}"
    );
    let text = std::fs::read_to_string(d.join("brev.b32-0000beef.min.batch.txt")).expect("written");
    assert!(
        text.contains("// STOPPED EARLY: the test cap was reached (2 tests, --max-tests); this is the smallest batch found so far."),
        "{text}"
    );
    assert_eq!(parse_batch(&text, "min").expect("parses").cases.len(), 16);
    // Again: a second file, the first one kept.
    let (code, out) = reduce(&file, "3", &["--max-tests", "2"]);
    assert_eq!(code, 1, "{out}");
    assert!(
        d.join("brev.b32-0000beef.min.batch-2.txt").exists(),
        "{out}"
    );
    assert_eq!(
        std::fs::read_to_string(d.join("brev.b32-0000beef.min.batch.txt")).expect("kept"),
        text
    );
}

#[test]
fn the_time_bound_stops_it_before_the_first_test() {
    let d = dir("time");
    let file = write_batch_file(&d);
    let (code, out) = reduce(&file, "3", &["--seconds", "0"]);
    assert_eq!(code, 2, "{out}");
    assert!(
        out.contains("not reduced: the time bound was reached (0 s, --seconds) after 0 test(s) before the whole batch ran"),
        "{out}"
    );
    assert!(!d.join("brev.b32-0000beef.min.batch.txt").exists());
}

#[test]
fn a_batch_that_agrees_on_its_path_is_not_reduced() {
    let d = dir("agrees");
    let file = write_batch_file(&d);
    // At -O0 the rule never fires.
    let (code, out) = reduce(&file, "0", &[]);
    assert_eq!(code, 0, "{out}");
    assert!(
        out.contains("case 15 agrees with all 20 mate(s) on this path: nothing to reduce"),
        "{out}"
    );
    assert!(!d.join("brev.b32-0000beef.min.batch.txt").exists());
}

#[test]
fn the_diverged_cases_own_module_is_tried_first() {
    let d = dir("module");
    // 70 cases: with 3 compile threads plan::chunks cuts them into 3
    // modules (70 / MIN_JOBS_PER_MODULE 32, rounded up) of 24, 24 and 22:
    // cases 0-23, 24-47, 48-69. `brev.b32` at 40 (diverged), the one
    // `popc.b32` before it at 30 (its module), another at 60 (after it).
    let cases: Vec<TestCase> = (0..70u32)
        .map(|i| match i {
            40 => case("brev.b32", 0x1234_5678),
            30 | 60 => case("popc.b32", 0xff00 + i),
            _ => case("not.b32", i),
        })
        .collect();
    let refs: Vec<&TestCase> = cases.iter().collect();
    let file = d.join("brev.b32-0000cafe.batch.txt");
    std::fs::write(&file, batch_text(&refs, 40, &[])).expect("write");
    let (code, out) = reduce(&file, "3", &["--gpu-compile-threads", "3"]);
    assert_eq!(code, 1, "{out}");
    let text = std::fs::read_to_string(d.join("brev.b32-0000cafe.min.batch.txt")).expect("written");
    assert!(
        text.contains("// step: its module's mates (24 of the whole batch's cases, 3 compile thread(s)): 23 mate(s) still differ (of 69)"),
        "{text}"
    );
    // Of cases 24-47 those before 40: 24-39.
    assert!(
        text.contains("// step: the mates before it: 16 mate(s) still differ (of 23)"),
        "{text}"
    );
    assert!(
        text.contains("kept 1 mate(s), input case(s) 30 (here 0)."),
        "{text}"
    );
}
