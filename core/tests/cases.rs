//! Replays every case file with `.expect` lines on the reference
//! interpreter: `corpus/*.ptx` (H200 results and regressions) and
//! `core/tests/cases/*.ptx` (one per instruction form, expected values
//! computed by hand from the spec, the computation shown in each file's
//! comment). Every lane of every `.expect` register must match bit for bit,
//! and undefined lanes must be exactly the `_` ones.

use std::path::{Path, PathBuf};
use warp_core::check::{check_expect, MismatchReport};
use warp_core::interp::Interp;
use warp_core::text::parse;

fn ptx_files(dir: &Path) -> Vec<PathBuf> {
    let mut v: Vec<PathBuf> = std::fs::read_dir(dir)
        .unwrap_or_else(|e| panic!("cannot read {}: {e}", dir.display()))
        .map(|e| e.expect("dir entry").path())
        .filter(|p| p.extension().is_some_and(|x| x == "ptx"))
        .collect();
    v.sort();
    v
}

/// Runs each file, returning one line per failure.
fn replay(dir: &str) -> (usize, Vec<String>) {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let files = ptx_files(&root.join(dir));
    let mut failures = Vec::new();
    for f in &files {
        let name = f.display().to_string();
        let src = std::fs::read_to_string(f).expect("readable");
        let case = match parse(&src) {
            Ok(c) => c,
            Err(e) => {
                failures.push(e.with_file(&name));
                continue;
            }
        };
        if case.expect.regs.is_empty() {
            failures.push(format!("{name}: has no .expect line, so checks nothing"));
            continue;
        }
        let out = match Interp::new(&case.program).run(&case.inputs) {
            Ok(o) => o,
            Err(e) => {
                failures.push(format!("{name}: {e}"));
                continue;
            }
        };
        if let Some(ub) = out.ub {
            failures.push(format!("{name}: {ub}"));
            continue;
        }
        let m = check_expect(&case.expect, &out, true, Some(&out));
        if !m.is_empty() {
            let report = MismatchReport {
                program: &case.program,
                mismatches: &m,
            };
            failures.push(format!("{name}: {} lane(s) differ:\n{report}", m.len()));
        }
    }
    (files.len(), failures)
}

fn assert_replays(dir: &str, at_least: usize) {
    let (n, failures) = replay(dir);
    assert!(
        n >= at_least,
        "{dir}: expected at least {at_least} cases, found {n}"
    );
    assert!(
        failures.is_empty(),
        "{} of {n} cases in {dir} failed:\n{}",
        failures.len(),
        failures.join("\n")
    );
}

#[test]
fn corpus_matches_hardware_results() {
    assert_replays("../corpus", 4);
}

#[test]
fn hand_computed_cases_match() {
    assert_replays("tests/cases", 30);
}
