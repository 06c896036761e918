//! The kernels of `corpus/kernels/` (issue #13) on a real GPU: each
//! `NAME.launch` runs the PTX text of `NAME.ptx` as written, and every
//! buffer must hold what `NAME.expect` (the hand-written kernels) or
//! `NAME.gpu.txt` (the nvcc-built ones: what an H200 stored) says. Needs a
//! GPU: `cargo test -p warp-gpu --test kernels -- --ignored`.

use std::path::{Path, PathBuf};
use warp_core::launch::{compare, parse_expected, Launch};
use warp_core::text::parse_module;
use warp_gpu::config::GpuConfig;
use warp_gpu::kernel::KernelGpu;

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

/// Runs one launch on `gpu` and compares it with `expected`; returns the
/// failures.
fn check(gpu: &KernelGpu, launch: &Path, expected: &Path) -> Vec<String> {
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
    let out = match gpu.run_launch(&src, &m, &l) {
        Ok(o) => o,
        Err(e) => return vec![format!("{name}: {e}")],
    };
    assert!(out.iter().all(|b| b.defined.iter().all(|&d| d)));
    let want = parse_expected(
        &std::fs::read_to_string(expected).expect("expected output beside the .launch"),
        &expected.display().to_string(),
    )
    .unwrap_or_else(|e| panic!("{e}"));
    assert!(!want.is_empty(), "{}: no buffers", expected.display());
    compare(&out, &want)
        .into_iter()
        .map(|d| format!("{name}: {d}"))
        .collect()
}

#[test]
#[ignore = "needs a GPU"]
fn every_corpus_kernel_matches_its_expected_output_on_the_gpu() {
    let gpu = KernelGpu::open(0, &GpuConfig::default()).unwrap_or_else(|e| panic!("{e}"));
    let hand = launches(&corpus());
    let nvcc = launches(&corpus().join("nvcc"));
    assert!(hand.len() >= 8, "at least 8 hand-written kernels");
    assert_eq!(nvcc.len(), 4, "the four nvcc kernels");
    let mut fails: Vec<String> = Vec::new();
    for l in &hand {
        fails.extend(check(&gpu, l, &l.with_extension("expect")));
    }
    for l in &nvcc {
        fails.extend(check(&gpu, l, &l.with_extension("gpu.txt")));
    }
    assert!(!gpu.is_dead());
    assert!(fails.is_empty(), "{}", fails.join("\n"));
}
