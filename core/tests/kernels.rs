//! The kernels of `corpus/kernels/` (issue #13) on the reference
//! interpreter: each `NAME.launch` runs `NAME.ptx`, and every buffer must
//! hold what `NAME.expect` (computed by `expected.py` from what the CUDA
//! source means) or, for the nvcc-built kernels, `NAME.gpu.txt` (what the
//! H200 stored) says.

use std::path::{Path, PathBuf};
use warp_core::interp::run_launch;
use warp_core::launch::{compare, parse_expected, Launch};
use warp_core::text::parse_module;

fn corpus() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../corpus/kernels")
}

/// Every `.launch` under `dir`, sorted.
fn launches(dir: &Path) -> Vec<PathBuf> {
    let mut v: Vec<PathBuf> = std::fs::read_dir(dir)
        .expect("corpus/kernels exists")
        .map(|e| e.expect("readable").path())
        .filter(|p| p.extension().is_some_and(|e| e == "launch"))
        .collect();
    v.sort();
    v
}

/// Runs one launch and compares it with `expected`; returns the failures.
fn check(launch: &Path, expected: &Path) -> Vec<String> {
    let name = launch.display().to_string();
    let ptx = launch.with_extension("ptx");
    let src = std::fs::read_to_string(&ptx).expect("the .ptx beside the .launch");
    let m = match parse_module(&src) {
        Ok(m) => m,
        Err(e) => return vec![e.with_file(&ptx.display().to_string())],
    };
    let l = Launch::parse(
        &std::fs::read_to_string(launch).expect("readable"),
        &name,
        launch.parent().expect("in a folder"),
    )
    .unwrap_or_else(|e| panic!("{e}"));
    let out = match run_launch(&m, &l) {
        Ok(o) => o,
        Err(e) => return vec![format!("{name}: {e}")],
    };
    if let Some((at, ub)) = &out.ub {
        return vec![format!("{name}: {at}: {ub}")];
    }
    let want = parse_expected(
        &std::fs::read_to_string(expected).expect("expected output beside the .launch"),
        &expected.display().to_string(),
    )
    .unwrap_or_else(|e| panic!("{e}"));
    assert!(!want.is_empty(), "{}: no buffers", expected.display());
    compare(&out.buffers, &want)
        .into_iter()
        .map(|d| format!("{name}: {d}"))
        .collect()
}

#[test]
fn nvcc_kernels_match_the_h200_on_the_interpreter() {
    let dir = corpus().join("nvcc");
    let all = launches(&dir);
    assert_eq!(all.len(), 4, "the four nvcc kernels");
    let fails: Vec<String> = all
        .iter()
        .flat_map(|l| check(l, &l.with_extension("gpu.txt")))
        .collect();
    assert!(fails.is_empty(), "{}", fails.join("\n"));
}

#[test]
fn hand_written_kernels_match_their_expected_outputs_on_the_interpreter() {
    let all = launches(&corpus());
    assert!(all.len() >= 8, "at least 8 kernels, found {}", all.len());
    let fails: Vec<String> = all
        .iter()
        .flat_map(|l| check(l, &l.with_extension("expect")))
        .collect();
    assert!(fails.is_empty(), "{}", fails.join("\n"));
}
