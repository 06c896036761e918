//! The kernels of `corpus/kernels/` (issue #13) on a real GPU: each
//! `NAME.launch` runs the PTX text of `NAME.ptx` as written, and every
//! buffer must hold what `NAME.expect` (the hand-written kernels) or
//! `NAME.gpu.txt` (the nvcc-built ones: what an H200 stored) says. Needs a
//! GPU: `cargo test -p warp-gpu --test suite kernels:: -- --ignored`.

use std::path::{Path, PathBuf};
use warp_core::kernel_corpus::{launch_files, KernelCase};
use warp_gpu::config::GpuConfig;
use warp_gpu::kernel::KernelGpu;

fn corpus() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../corpus/kernels")
}

/// Runs every launch of `dir` on `gpu` against its `ext` file; returns
/// the failures and how many launches there were.
fn check_all(gpu: &KernelGpu, dir: &Path, ext: &str) -> (Vec<String>, usize) {
    let all = launch_files(dir).unwrap_or_else(|e| panic!("{e}"));
    let mut fails = Vec::new();
    for l in &all {
        let case = KernelCase::load(l, ext).unwrap_or_else(|e| panic!("{e}"));
        match gpu.run_launch(&case.ptx, &case.module, &case.launch) {
            Ok(out) => {
                assert!(out.iter().all(|b| b.defined.iter().all(|&d| d)));
                fails.extend(case.check(&out));
            }
            Err(e) => fails.push(format!("{}: {e}", l.display())),
        }
    }
    (fails, all.len())
}

#[test]
#[ignore = "needs a GPU"]
fn every_corpus_kernel_matches_its_expected_output_on_the_gpu() {
    let gpu = KernelGpu::open(0, &GpuConfig::default()).unwrap_or_else(|e| panic!("{e}"));
    let (mut fails, hand) = check_all(&gpu, &corpus(), "expect");
    let (nvcc_fails, nvcc) = check_all(&gpu, &corpus().join("nvcc"), "gpu.txt");
    fails.extend(nvcc_fails);
    assert!(hand >= 8, "at least 8 hand-written kernels");
    assert!(nvcc >= 10, "the ten nvcc-built kernels, found {nvcc}");
    assert!(!gpu.is_dead());
    assert!(fails.is_empty(), "{}", fails.join("\n"));
}
