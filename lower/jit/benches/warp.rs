//! `cargo bench -p warp-jit`: the interpreter, the Cranelift JIT and a
//! hand-written Rust version of the same warp computation (compiled by
//! LLVM: the practical CPU limit), on the same programs in one run.
//!
//! Printed per program: warp-instructions per second of each (a
//! warp-instruction is one instruction executed by one converged group, the
//! interpreter's step), the ratios, the Cranelift compile time, and the JIT
//! batch throughput on all cores. Then resident memory across 100,000
//! compile-and-drop cycles.

#[path = "native.rs"]
#[allow(dead_code)]
mod native;

use std::hint::black_box;
use std::time::{Duration, Instant};
use warp_core::interp::Interp;
use warp_core::ir::Case;
use warp_jit::JitProgram;

const PROGRAMS: &[&str] = &[
    "scan", "rscan", "bfly", "compact", "group", "mix200", "loop",
];

fn load(name: &str) -> Case {
    let path = format!("{}/benches/programs/{name}.ptx", env!("CARGO_MANIFEST_DIR"));
    let src = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"));
    warp_core::text::parse(&src).unwrap_or_else(|e| panic!("{}", e.with_file(&path)))
}

/// Runs `f` repeatedly for about `budget`; returns seconds per call.
fn time_per_call(budget: Duration, mut f: impl FnMut()) -> f64 {
    let mut n = 1u64;
    loop {
        let t = Instant::now();
        for _ in 0..n {
            f();
        }
        let el = t.elapsed();
        if el >= budget {
            return el.as_secs_f64() / n as f64;
        }
        n = (n * 2).max((n as f64 * budget.as_secs_f64() / el.as_secs_f64().max(1e-9)) as u64);
    }
}

fn rss_kib() -> u64 {
    std::fs::read_to_string("/proc/self/statm")
        .ok()
        .and_then(|s| s.split_whitespace().nth(1)?.parse::<u64>().ok())
        .map_or(0, |p| p * 4)
}

fn main() {
    let budget = Duration::from_millis(
        std::env::var("BENCH_MS")
            .ok()
            .and_then(|s| s.parse().ok())
            .unwrap_or(400),
    );
    let threads = std::thread::available_parallelism().map_or(1, |n| n.get());
    println!(
        "{:<8} {:>5} {:>6} {:>12} {:>12} {:>12} {:>8} {:>8} {:>9} {:>14}",
        "program",
        "insts",
        "steps",
        "interp wi/s",
        "jit wi/s",
        "native wi/s",
        "jit/int",
        "nat/jit",
        "compile",
        "batch warps/s"
    );
    for name in PROGRAMS {
        let case = load(name);
        let prog = &case.program;
        let reference = Interp::new(prog).run(&case.inputs).expect("runs");
        assert!(reference.ub.is_none(), "{name}: UB");
        let steps = reference.steps as f64;

        let interp = Interp::new(prog);
        let t_interp = time_per_call(budget, || {
            black_box(interp.run(black_box(&case.inputs)).expect("runs"));
        });

        let t_compile = time_per_call(budget, || {
            black_box(JitProgram::compile(black_box(prog)).expect("compiles"));
        });
        // Both the JIT and the native version run repeatedly in place on
        // one warp's registers (no per-run copying or conversion).
        let jit = JitProgram::compile(prog).expect("compiles");
        let fresh = jit.state_for(&case.inputs);
        let mut st = fresh.clone();
        let t_jit = time_per_call(budget, || {
            jit.run_state(black_box(&mut st)).expect("runs");
        });

        let mut regs: Vec<[u64; 32]> = (0..prog.regs.len())
            .map(|r| {
                case.inputs
                    .get(warp_core::ir::Reg(r as u32))
                    .copied()
                    .unwrap_or([0; 32])
            })
            .collect();
        let reps = 4096;
        let t_native = time_per_call(budget, || {
            native::run_program_repeated(name, black_box(&mut regs), reps).expect("native");
        }) / reps as f64;

        let n_batch = 200_000usize;
        let mut states = vec![fresh.clone(); n_batch];
        let t = Instant::now();
        let oof = jit.run_states(&mut states);
        let t_batch = t.elapsed().as_secs_f64();
        assert_eq!(oof, 0);

        println!(
            "{:<8} {:>5} {:>6} {:>12.3e} {:>12.3e} {:>12.3e} {:>7.1}x {:>7.2}x {:>7.1}us {:>11.3e} ({threads} thr)",
            name,
            prog.insts.len(),
            steps,
            steps / t_interp,
            steps / t_jit,
            steps / t_native,
            t_interp / t_jit,
            t_jit / t_native,
            t_compile * 1e6,
            n_batch as f64 / t_batch,
        );
    }

    // Memory: compile and drop 100,000 programs (a small one, so this
    // measures leaks per program rather than compile speed).
    let case = warp_core::text::parse(
        ".reg .b32 R;\n.reg .pred p;\n    vote.sync.ballot.b32 R, p, 0xffffffff;\n    shfl.sync.bfly.b32 R, R, 1, 0x1f, 0xffffffff;\n",
    )
    .expect("parses");
    for _ in 0..1000 {
        drop(JitProgram::compile(&case.program).expect("compiles"));
    }
    let before = rss_kib();
    let t = Instant::now();
    let n = 100_000;
    for _ in 0..n {
        drop(black_box(
            JitProgram::compile(&case.program).expect("compiles"),
        ));
    }
    let after = rss_kib();
    println!(
        "memory: {n} compile+drop in {:.1} s: rss {before} KiB -> {after} KiB ({:+} KiB)",
        t.elapsed().as_secs_f64(),
        after as i64 - before as i64
    );
}
