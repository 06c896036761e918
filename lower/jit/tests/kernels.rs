//! The kernels of `corpus/kernels/` (issue #13) on the JIT: every buffer
//! after the launch must hold what `NAME.expect` (the hand-written kernels,
//! computed by `expected.py`) or `NAME.gpu.txt` (the nvcc-built kernels:
//! what the H200 stored) says, as on the reference interpreter
//! (`core/tests/kernels.rs`).

use std::path::{Path, PathBuf};
use warp_core::launch::{compare, parse_expected, Launch};
use warp_core::text::parse_module;

fn corpus() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../corpus/kernels")
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

/// Runs one launch on the JIT and compares it with `expected`.
fn check(launch: &Path, expected: &Path) -> Vec<String> {
    let name = launch.display().to_string();
    let ptx = launch.with_extension("ptx");
    let src = std::fs::read_to_string(&ptx).expect("the .ptx beside the .launch");
    let m = parse_module(&src)
        .unwrap_or_else(|e| panic!("{}", e.with_file(&ptx.display().to_string())));
    let l = Launch::parse(
        &std::fs::read_to_string(launch).expect("readable"),
        &name,
        launch.parent().expect("in a folder"),
    )
    .unwrap_or_else(|e| panic!("{e}"));
    let out = match warp_jit::launch::run_launch(&m, &l) {
        Ok(o) => o,
        Err(e) => return vec![format!("{name}: {e}")],
    };
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
fn nvcc_kernels_match_the_h200_on_the_jit() {
    let all = launches(&corpus().join("nvcc"));
    assert_eq!(all.len(), 4, "the four nvcc kernels");
    let fails: Vec<String> = all
        .iter()
        .flat_map(|l| check(l, &l.with_extension("gpu.txt")))
        .collect();
    assert!(fails.is_empty(), "{}", fails.join("\n"));
}

#[test]
fn hand_written_kernels_match_their_expected_outputs_on_the_jit() {
    let all = launches(&corpus());
    assert!(all.len() >= 8, "at least 8 kernels, found {}", all.len());
    let fails: Vec<String> = all
        .iter()
        .flat_map(|l| check(l, &l.with_extension("expect")))
        .collect();
    assert!(fails.is_empty(), "{}", fails.join("\n"));
}

#[test]
fn an_out_of_bounds_store_on_the_jit_names_lane_thread_instruction_and_address() {
    let src = std::fs::read_to_string(corpus().join("nvcc/warp_sum_xor.ptx")).expect("readable");
    let m = parse_module(&src).expect("valid PTX");
    // 64 threads store out[i]; a 40-word `out` ends under thread 40.
    let mut l = Launch::parse(
        &std::fs::read_to_string(corpus().join("nvcc/warp_sum_xor.launch")).expect("readable"),
        "warp_sum_xor.launch",
        Path::new("."),
    )
    .expect("valid");
    l.buffers[1].bytes.truncate(4 * 40);
    let e = warp_jit::launch::run_launch(&m, &l).expect_err("thread 40 stores past `out`");
    // `out` is buffer 1: it starts at 0x21_0000_0000 (ir::windows); thread
    // 40 stores at byte 160 = 0xa0.
    assert!(
        e.0.contains("cta (0,0,0) warp 1")
            && e.0
                .contains("lane 8 (%tid (40,0,0)), `st.global.u32 [%rd7], %r22;`")
            && e.0.contains("address 0x21000000a0 (4 bytes) is outside"),
        "{}",
        e.0
    );
}
