//! `cargo bench -p warp-jit --bench kernels`: real kernels (issue #36) on
//! the reference interpreter, on the JIT (one thread and every core), and
//! written in plain Rust (one thread and every core), in one table.
//!
//! The kernels (`benches/kernel_cases.rs`): saxpy, a block reduction
//! through shared memory and `bar.sync`, a warp-shuffle reduction, a
//! block scan, a tiled transpose and ballot compaction, each nvcc's PTX
//! (the scan's edited to cover a grid). For each size the JIT's and the
//! plain version's buffers are checked word for word against each other
//! first, and at the interpreter's size the JIT's against the
//! interpreter's on every word it defines; a difference panics.
//!
//! Times are per launch, the fastest of the repetitions that fit in
//! `BENCH_MS` (default 3000), taken in `BENCH_ROUNDS` slices (default 5;
//! at least 2 repetitions each) that alternate with the other columns'
//! (a slow phase of a virtual machine's CPU then slows all alike): the JIT's and the plain
//! version's on buffers that stay in place (`CompiledKernel::run_on`: no
//! copies in or out), the interpreter's a whole `run_launch` (once; its
//! copies are noise). The compile is timed apart, once per kernel.
//!
//! Plain Rust comes twice: the kernel's PTX translated instruction by
//! instruction (`benches/kernel_literal.rs`: warps as arrays of 32 lanes,
//! the same shuffles, shared memory and barriers, as COX and CuPBoP
//! translate CUDA for CPUs), and the shortest plain Rust of the same
//! result (`Kernel::native`: a sum, a prefix sum, a copy; "Rust vec.").
//!
//! `BENCH_N=1048576,16777216` (the default) sets the sizes in elements,
//! `BENCH_INTERP_N` (default 1048576; 0: none) the interpreter's,
//! `BENCH_THREADS=1,16` the thread counts of the JIT's and plain Rust's
//! columns (default 1 and every core; 1 is always measured: the ratios
//! are at 1 thread, the scaling the last count against 1),
//! `BENCH_KERNELS=saxpy,transpose` a subset (by the first word of the
//! name or by the `.entry`'s name: `block_scan_grid` alone), `BENCH_TUNING=fast-compile` (or `inline`) the JIT's tuning
//! (default fast-code, what `CompiledKernel::compile` uses),
//! `BENCH_ROOT` the directory holding `corpus/` and `lower/jit/benches/`
//! (default: the workspace it was built in, else found up from the
//! current directory or the executable: `kernel_cases::root`).

#[path = "kernel_cases.rs"]
mod kernel_cases;
#[path = "kernel_literal.rs"]
mod kernel_literal;

use kernel_cases::Kernel;
use std::time::{Duration, Instant};
use warp_jit::launch::CompiledKernel;
use warp_jit::Tuning;

fn env_list(name: &str, default: &[usize]) -> Vec<usize> {
    match std::env::var(name) {
        Ok(v) => v
            .split(',')
            .filter(|s| !s.trim().is_empty())
            .map(|s| s.trim().parse().unwrap_or_else(|_| panic!("{name}: `{s}`")))
            .collect(),
        Err(_) => default.to_vec(),
    }
}

/// The fastest of the calls of `f` that fit in `budget` (at least two).
fn best(budget: Duration, mut f: impl FnMut()) -> f64 {
    let start = Instant::now();
    let mut best = f64::MAX;
    let mut n = 0;
    while n < 2 || start.elapsed() < budget {
        let t = Instant::now();
        f();
        best = best.min(t.elapsed().as_secs_f64());
        n += 1;
        if n >= 50 {
            break;
        }
    }
    best
}

/// A time in the table's unit.
fn ms(s: f64) -> String {
    if s >= 10.0 {
        format!("{s:.1} s")
    } else if s >= 1.0 {
        format!("{s:.2} s")
    } else if s >= 0.01 {
        format!("{:.0} ms", s * 1e3)
    } else {
        format!("{:.2} ms", s * 1e3)
    }
}

/// The host: CPU model, cores, the vector features that matter here.
fn host() -> String {
    let model = std::fs::read_to_string("/proc/cpuinfo")
        .ok()
        .and_then(|c| {
            c.lines()
                .find(|l| l.starts_with("model name"))
                .and_then(|l| l.split(':').nth(1))
                .map(|m| m.trim().to_string())
        })
        .unwrap_or_else(|| "unknown CPU".into());
    let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
    #[cfg(target_arch = "x86_64")]
    let features = {
        let mut f = Vec::new();
        macro_rules! feat {
            ($($n:tt),*) => {$(
                if std::arch::is_x86_feature_detected!($n) { f.push($n); }
            )*};
        }
        feat!("sse4.1", "avx", "avx2", "fma", "bmi2", "avx512f");
        f.join(" ")
    };
    #[cfg(not(target_arch = "x86_64"))]
    let features = std::env::consts::ARCH.to_string();
    let native = if cfg!(target_feature = "avx2") {
        "the plain Rust compiled with AVX2"
    } else {
        "the plain Rust compiled for baseline x86-64 (SSE2; `f32::mul_add` a call of `fmaf`)"
    };
    format!("{model}, {cores} cores ({features}); {native}")
}

/// The first word where `got` (a buffer's bytes) and `want` differ.
fn first_difference(got: &[u8], want: &[u32]) -> Option<(usize, u32, u32)> {
    got.chunks_exact(4)
        .map(|c| u32::from_le_bytes([c[0], c[1], c[2], c[3]]))
        .zip(want)
        .enumerate()
        .find(|(_, (a, b))| a != *b)
        .map(|(i, (a, &b))| (i, a, b))
}

fn main() {
    let sizes = env_list("BENCH_N", &[1 << 20, 1 << 24]);
    let interp_n = env_list("BENCH_INTERP_N", &[1 << 20]);
    let interp_n = interp_n.first().copied().unwrap_or(0);
    let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
    let mut counts = env_list("BENCH_THREADS", &[1, cores]);
    if !counts.contains(&1) {
        counts.insert(0, 1);
    }
    counts.dedup();
    let budget = Duration::from_millis(env_list("BENCH_MS", &[3000])[0] as u64);
    let rounds = env_list("BENCH_ROUNDS", &[5])[0].max(1);
    let only: Option<Vec<String>> = std::env::var("BENCH_KERNELS")
        .ok()
        .map(|v| v.split(',').map(|s| s.trim().to_string()).collect());
    let tuning = match std::env::var("BENCH_TUNING").as_deref() {
        Err(_) | Ok("fast-code") => Tuning::FastCode,
        Ok("fast-compile") => Tuning::FastCompile,
        Ok("inline") => Tuning::Inline,
        Ok(other) => panic!("BENCH_TUNING: `{other}` (fast-code, fast-compile or inline)"),
    };
    let last = *counts.last().expect("one count at least");
    println!("host: {}", host());
    println!("JIT tuning: {tuning:?}");
    println!(
        "threads: {counts:?}; fastest of the runs in {} ms; interpreter at {interp_n} elements",
        budget.as_millis()
    );
    println!("\"Rust\": the kernel's PTX translated to plain Rust (kernel_literal.rs: warps as arrays of 32 lanes, the same shuffles, shared memory and barriers); \"Rust vec.\": the shortest plain Rust of the same result (a sum, a prefix sum: another algorithm)");
    println!();
    let col = |what: &str| {
        counts
            .iter()
            .map(|t| format!("{what} {t}"))
            .collect::<Vec<_>>()
            .join(" | ")
    };
    println!(
        "| kernel | elements | interp | {} | {} | {} | JIT compile | JIT / interp | JIT / Rust (1 thread) | JIT / Rust vec. (1 thread) | JIT {last} / 1 | Rust {last} / 1 |",
        col("JIT"),
        col("Rust"),
        col("Rust vec.")
    );
    println!(
        "|---|---|---|{}---|---|---|---|---|---|",
        "---|".repeat(3 * counts.len())
    );
    for kernel in Kernel::ALL {
        let first = kernel.name().split_whitespace().next().unwrap_or("");
        if let Some(only) = &only {
            if !only.iter().any(|o| o == first || o == kernel.entry()) {
                continue;
            }
        }
        let module = kernel.module();
        let t = Instant::now();
        let compiled =
            CompiledKernel::compile_with(&module, kernel.entry(), tuning, tuning.part_insts())
                .unwrap_or_else(|e| panic!("{}: {e}", kernel.name()));
        let compile = t.elapsed().as_secs_f64();
        eprintln!(
            "{}: {} PTX instructions, {} Cranelift instructions, {} bytes of code",
            kernel.name(),
            compiled.program().program().insts.len(),
            compiled.program().clif_insts(),
            compiled.program().code_size()
        );
        let mut rows: Vec<usize> = sizes.clone();
        if interp_n > 0 && !rows.contains(&interp_n) {
            rows.insert(0, interp_n);
        }
        for n in rows {
            let launch = kernel.launch(n, 0x36 + n as u64);
            let elements = kernel.elements(n);
            // The JIT, the translation and the vectorised plain Rust agree
            // word for word.
            let jit = compiled
                .launch_on(&launch, last)
                .unwrap_or_else(|e| panic!("{}: {e}", kernel.name()));
            let mut want = Kernel::words(&launch);
            kernel.native(&mut want, 1);
            let mut lit = Kernel::words(&launch);
            kernel_literal::literal(kernel, &mut lit, last);
            for ((b, w), l) in jit.buffers.iter().zip(&want).zip(&lit) {
                if let Some((i, got, w)) = first_difference(&b.bytes, w) {
                    panic!(
                        "{} at {elements}: `{}`[{i}] is {got:08x} on the JIT, {w:08x} in plain Rust",
                        kernel.name(),
                        b.name,
                    );
                }
                if let Some((i, got, l)) = first_difference(&b.bytes, l) {
                    panic!(
                        "{} at {elements}: `{}`[{i}] is {got:08x} on the JIT, {l:08x} in the translation",
                        kernel.name(),
                        b.name,
                    );
                }
            }
            // The interpreter agrees on every word it defines.
            let interp = (elements == kernel.elements(interp_n)).then(|| {
                let t = Instant::now();
                let out = warp_core::interp::run_launch(&module, &launch)
                    .unwrap_or_else(|e| panic!("{}: {e}", kernel.name()));
                let el = t.elapsed().as_secs_f64();
                assert!(out.ub.is_none(), "{}: {:?}", kernel.name(), out.ub);
                let diffs = warp_core::launch::compare(
                    &jit.buffers,
                    &out.buffers
                        .iter()
                        .map(|b| {
                            let words = b.words();
                            (
                                b.name.clone(),
                                words
                                    .iter()
                                    .map(|w| u32::from_str_radix(w, 16).ok())
                                    .collect(),
                            )
                        })
                        .collect(),
                );
                assert!(
                    diffs.is_empty(),
                    "{}: the JIT and the interpreter differ: {}",
                    kernel.name(),
                    diffs[..diffs.len().min(5)].join("; ")
                );
                el
            });
            // In place, no copies.
            let mut bufs: Vec<Vec<u8>> = launch.buffers.iter().map(|b| b.bytes.clone()).collect();
            // Each column's repetitions are taken in `rounds` slices in turn
            // (JIT, translation, vectorised, then again), so that a slow
            // phase of the machine (a virtual machine losing its CPU for
            // seconds) slows every column alike, not one of them: the
            // ratios are between times taken side by side.
            let mut words = Kernel::words(&launch);
            let slice = budget / rounds as u32;
            let mut jit_t = vec![f64::MAX; counts.len()];
            let mut lit_t = vec![f64::MAX; counts.len()];
            let mut vec_t = vec![f64::MAX; counts.len()];
            for _ in 0..rounds {
                for (c, &threads) in counts.iter().enumerate() {
                    jit_t[c] = jit_t[c].min(best(slice, || {
                        compiled
                            .run_on(&launch, &mut bufs, threads)
                            .unwrap_or_else(|e| panic!("{e}"))
                    }));
                    lit_t[c] = lit_t[c].min(best(slice, || {
                        kernel_literal::literal(kernel, &mut words, threads)
                    }));
                    vec_t[c] = vec_t[c].min(best(slice, || kernel.native(&mut words, threads)));
                }
            }
            let cells = |t: &[f64]| t.iter().map(|&s| ms(s)).collect::<Vec<_>>().join(" | ");
            let (jit1, jitn) = (jit_t[0], jit_t[counts.len() - 1]);
            println!(
                "| {} | {} | {} | {} | {} | {} | {} | {} | {:.2}x | {:.2}x | {:.2}x | {:.2}x |",
                kernel.name(),
                elements,
                interp.map_or("".into(), ms),
                cells(&jit_t),
                cells(&lit_t),
                cells(&vec_t),
                ms(compile),
                interp.map_or("".into(), |i| format!("{:.0}x", i / jit1)),
                jit1 / lit_t[0],
                jit1 / vec_t[0],
                jit1 / jitn,
                lit_t[0] / lit_t[counts.len() - 1],
            );
        }
    }
}
