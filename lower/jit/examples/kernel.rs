//! A real kernel on the JIT, checked against the reference: nvcc's
//! `block_scan` (a CTA-wide inclusive scan with `shfl.sync.up` and shared
//! memory, `corpus/kernels/nvcc/block_scan.cu`) launched as its `.launch`
//! file says, on the JIT (all cores) and on the reference interpreter;
//! every byte the reference defines must be the JIT's, and both must be
//! what the H200 stored (`block_scan.gpu.txt`). A kernel's faulty access
//! is the same [`AccessFault`](warp_core::ub::AccessFault) on both.
//!
//! `cargo run --release -p warp-jit --example kernel [NAME.launch]`

use std::path::PathBuf;
use warp_jit::warp_core::kernel_corpus::KernelCase;
use warp_jit::warp_core::launch::LaunchError;

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let launch_file = std::env::args().nth(1).map_or_else(
        || {
            let p = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
                .join("../../corpus/kernels/nvcc/block_scan.launch");
            p.canonicalize().unwrap_or(p)
        },
        PathBuf::from,
    );
    // The module, the launch and the H200's buffers, each read and parsed
    // (an error names file, line and column).
    let case = KernelCase::load(&launch_file, "gpu.txt")?;
    let reference = warp_jit::warp_core::interp::run_launch(&case.module, &case.launch)?;
    if let Some(f) = reference.fault() {
        return Err(format!("the reference: {f}").into());
    }
    if let Some((at, ub)) = &reference.ub {
        return Err(format!("the reference: {at}: {ub}").into());
    }
    let jit = match warp_jit::launch::run_launch(&case.module, &case.launch) {
        Ok(out) => out,
        Err(LaunchError::Fault(f)) => {
            return Err(format!("the JIT: {f} (address {:#x?})", f.address).into())
        }
        Err(e) => return Err(e.into()),
    };
    // Byte by byte, where the reference defines it; then both against the
    // H200.
    let mut fails = Vec::new();
    for (r, j) in reference.buffers.iter().zip(&jit.buffers) {
        let differ = (0..r.bytes.len())
            .filter(|&i| r.defined[i] && r.bytes[i] != j.bytes[i])
            .count();
        if differ > 0 {
            fails.push(format!("{}: {differ} defined bytes differ", r.name));
        }
    }
    fails.extend(case.check(&reference.buffers));
    fails.extend(case.check(&jit.buffers));
    if !fails.is_empty() {
        return Err(fails.join("\n").into());
    }
    for b in &jit.buffers {
        let words = b.u32s();
        let head: Vec<String> = words
            .iter()
            .take(8)
            .map(|w| w.map_or("________".into(), |w| format!("{w:08x}")))
            .collect();
        println!("{}: {} words: {} ...", b.name, words.len(), head.join(" "));
    }
    println!(
        "{}: the JIT, the reference ({} warp steps) and the H200 agree",
        launch_file.display(),
        reference.steps
    );
    Ok(())
}
