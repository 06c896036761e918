//! `cargo bench -p warp-jit`: the interpreter, the Cranelift JIT and a
//! hand-written Rust version of the same warp computation (compiled by
//! LLVM: the practical CPU limit), on the same programs in one run.
//!
//! Printed per program: warp-instructions per second of each (a
//! warp-instruction is one instruction executed by one converged group, the
//! interpreter's step), the ratios, the Cranelift compile time, and the JIT
//! batch throughput on all cores. Then resident memory across 100,000
//! compile-and-drop cycles. Then scaling (issue #14): mix200's body cut or
//! repeated to 50 .. 200,000 instructions (`BENCH_SIZES=50,500` picks
//! sizes), each compiled once per tuning: compile microseconds per PTX
//! instruction, the resident memory the compiled program holds and the
//! peak during its compile, and interpreter and JIT warp-instructions per
//! second. Then the compile speed on the fuzzer's own generated cases, and
//! the reference interpreter's time per run of them.

#[path = "native.rs"]
#[allow(dead_code)]
mod native;

use std::hint::black_box;
use std::time::{Duration, Instant};
use warp_core::interp::Interp;
use warp_core::ir::Case;
use warp_jit::{JitProgram, Limits, Tuning};

const PROGRAMS: &[&str] = &[
    "scan", "rscan", "bfly", "compact", "group", "mix200", "loop",
];

fn load(name: &str) -> Case {
    let path = format!("{}/benches/programs/{name}.ptx", env!("CARGO_MANIFEST_DIR"));
    let src = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"));
    warp_core::text::parse(&src).unwrap_or_else(|e| panic!("{}", e.with_file(&path)))
}

/// Seconds per call of `f`: the fastest of up to five rounds of about
/// `budget / 5` each (a round runs `f` as many times as fit), run until
/// `budget` is spent. The machine's noise only slows a round down, so the
/// fastest round is the least disturbed one. A call longer than `budget`
/// (or any call when `budget` is 0) is timed once.
fn time_per_call(budget: Duration, mut f: impl FnMut()) -> f64 {
    let round = budget / 5;
    let mut spent = Duration::ZERO;
    let mut n = 1u64;
    let mut best = f64::MAX;
    let mut rounds = 0;
    // One round at least (BENCH_MS=0 times one call).
    while rounds == 0 || (rounds < 5 && spent < budget) {
        let t = Instant::now();
        for _ in 0..n {
            f();
        }
        let el = t.elapsed();
        spent += el;
        if el < round {
            // Too short to count: more calls per round.
            n = (n * 2).max((n as f64 * round.as_secs_f64() / el.as_secs_f64().max(1e-9)) as u64);
            continue;
        }
        best = best.min(el.as_secs_f64() / n as f64);
        rounds += 1;
    }
    best
}

/// The x86 features LLVM compiled the hand-written Rust for (this bench's
/// target features: baseline x86-64 has none of them unless RUSTFLAGS says
/// `-C target-cpu=native` or `-C target-feature=...`), and those of this
/// host, which Cranelift's native ISA uses for the JIT's code (128-bit
/// vectors at most, whatever the host has).
fn features() -> (String, String) {
    // (name, compiled for it, the host has it): the macros take literals.
    macro_rules! feature {
        ($name:tt) => {
            ($name, cfg!(target_feature = $name), host_has!($name))
        };
    }
    #[cfg(target_arch = "x86_64")]
    macro_rules! host_has {
        ($name:tt) => {
            std::arch::is_x86_feature_detected!($name)
        };
    }
    #[cfg(not(target_arch = "x86_64"))]
    macro_rules! host_has {
        ($name:tt) => {
            false
        };
    }
    let all = [
        feature!("sse4.1"),
        feature!("popcnt"),
        feature!("bmi2"),
        feature!("avx2"),
        feature!("avx512f"),
    ];
    let list = |pick: fn(&(&str, bool, bool)) -> bool| {
        let on: Vec<&str> = all.iter().filter(|f| pick(f)).map(|f| f.0).collect();
        if on.is_empty() {
            let names: Vec<&str> = all.iter().map(|f| f.0).collect();
            format!("none of {}", names.join(", "))
        } else {
            on.join(", ")
        }
    };
    (list(|f| f.1), list(|f| f.2))
}

/// Resets the peak resident memory (VmHWM) to the current one, so that
/// [`peak_kib`] measures from here (Linux `clear_refs` 5; nothing where
/// it is not available).
fn reset_peak() {
    let _ = std::fs::write("/proc/self/clear_refs", "5");
}

/// The process's peak resident memory since the last [`reset_peak`]
/// (VmHWM), in KiB.
fn peak_kib() -> u64 {
    std::fs::read_to_string("/proc/self/status")
        .ok()
        .and_then(|s| {
            s.lines()
                .find(|l| l.starts_with("VmHWM:"))?
                .split_whitespace()
                .nth(1)?
                .parse()
                .ok()
        })
        .unwrap_or(0)
}

/// `case` with its body cut or repeated (cyclically) to `n` instructions.
/// mix200 is straight-line code (no labels), so any prefix of the repeated
/// body is a program.
fn scaled(case: &Case, n: usize) -> Case {
    let mut c = case.clone();
    let body = &case.program.insts;
    c.program.insts = (0..n).map(|i| body[i % body.len()].clone()).collect();
    c.expect = Default::default();
    c
}

/// The scaling table (see the module doc).
fn scaling(budget: Duration) {
    let sizes: Vec<usize> = std::env::var("BENCH_SIZES")
        .ok()
        .map(|s| s.split(',').filter_map(|x| x.trim().parse().ok()).collect())
        .unwrap_or_else(|| vec![50, 500, 5_000, 50_000, 200_000]);
    let fastcode_max: usize = std::env::var("BENCH_FASTCODE_MAX")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(5_000);
    let mix = load("mix200");
    assert!(
        mix.program.labels.is_empty(),
        "mix200 is straight-line code"
    );
    let unlimited = Limits {
        max_insts: usize::MAX,
        max_clif_insts: usize::MAX,
    };
    println!(
        "\nscaling (mix200 cut or repeated): compile us per PTX instruction (fast-compile: first compile, with the helpers of new instruction shapes, then again with them cached, the fastest of up to five rounds of compiles within BENCH_MS; fast-code skipped above {fastcode_max}), Cranelift instructions per PTX instruction, resident memory the compiled program holds and the peak during its compiles, runtime of the fast-code program and of the fast-compile one"
    );
    println!(
        "{:>7} {:>10} {:>10} {:>10} {:>9} {:>9} {:>10} {:>10} {:>11} {:>11} {:>11} {:>8} {:>8}",
        "insts",
        "fast-code",
        "fc first",
        "fc again",
        "clif/i fc",
        "clif/i fC",
        "held KiB",
        "peak KiB",
        "interp wi/s",
        "fcode wi/s",
        "fcomp wi/s",
        "fcode/in",
        "fcomp/in"
    );
    for n in sizes {
        let case = scaled(&mix, n);
        let prog = &case.program;
        let reference = Interp::new(prog).run(&case.inputs).expect("runs");
        assert!(reference.ub.is_none(), "mix200 x {n}: UB");
        let steps = reference.steps as f64;
        let interp = Interp::new(prog);
        let t_interp = time_per_call(budget, || {
            black_box(interp.run(black_box(&case.inputs)).expect("runs"));
        });
        let before = rss_kib();
        reset_peak();
        let t = Instant::now();
        let quick =
            JitProgram::compile_limited(prog, Tuning::FastCompile, unlimited).expect("compiles");
        let t_first = t.elapsed().as_secs_f64();
        let held = rss_kib() as i64 - before as i64;
        drop(quick);
        // Again with the helpers cached: the fastest of up to five rounds
        // of as many compiles as fit (one at least), each program dropped.
        let t_again = time_per_call(budget, || {
            black_box(
                JitProgram::compile_limited(prog, Tuning::FastCompile, unlimited)
                    .expect("compiles"),
            );
        });
        let quick =
            JitProgram::compile_limited(prog, Tuning::FastCompile, unlimited).expect("compiles");
        // The fast-code tuning (backtracking register allocation) grows
        // faster than linearly: above `BENCH_FASTCODE_MAX` instructions
        // (default 5,000) it is skipped.
        let fast = (n <= fastcode_max).then(|| {
            let t = Instant::now();
            let jit =
                JitProgram::compile_limited(prog, Tuning::FastCode, unlimited).expect("compiles");
            (jit, t.elapsed().as_secs_f64())
        });
        let peak = peak_kib();
        let wis = |jit: &JitProgram| {
            let mut st = jit.state_for(&case.inputs);
            let t = time_per_call(budget, || {
                jit.run_state(black_box(&mut st)).expect("runs");
            });
            (steps / t, t_interp / t)
        };
        let (q_wis, q_ratio) = wis(&quick);
        let code = fast
            .as_ref()
            .map(|(jit, t)| (jit.clif_insts(), *t, wis(jit)));
        let opt = |x: Option<String>| x.unwrap_or_else(|| "skipped".to_string());
        println!(
            "{n:>7} {:>10} {:>10.1} {:>10.1} {:>9} {:>9.1} {held:>+10} {peak:>10} {:>11.3e} {:>11} {:>11.3e} {:>8} {:>7.1}x",
            opt(code.map(|(_, t, _)| format!("{:.1}", t * 1e6 / n as f64))),
            t_first * 1e6 / n as f64,
            t_again * 1e6 / n as f64,
            opt(code.map(|(c, _, _)| format!("{:.1}", c as f64 / n as f64))),
            quick.clif_insts() as f64 / n as f64,
            steps / t_interp,
            opt(code.map(|(_, _, (w, _))| format!("{w:.3e}"))),
            q_wis,
            opt(code.map(|(_, _, (_, r))| format!("{r:.1}x"))),
            q_ratio,
        );
    }
}

/// Compile speed on the fuzzer's own cases: `BENCH_CASES` (default 1,000)
/// programs generated as `warpdiff fuzz` generates them (a swarm
/// configuration per case), compiled with each tuning; then the reference
/// interpreter on each case's own inputs.
fn generated() {
    use arbitrary::{Arbitrary, Unstructured};
    let n: usize = std::env::var("BENCH_CASES")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(1_000);
    let mut rng = warp_core::rng::Rng::new(0x14);
    let cases: Vec<_> = (0..n)
        .filter_map(|_| {
            let bytes = rng.bytes(8192);
            let mut u = Unstructured::new(&bytes);
            let cfg = warp_core::gen::Config::arbitrary(&mut u).unwrap_or_default();
            warp_core::gen::generate(&mut u, &cfg).ok()
        })
        .collect();
    let progs: Vec<&warp_core::ir::Program> = cases.iter().map(|tc| &tc.program).collect();
    let insts: usize = progs.iter().map(|p| p.insts.len()).sum();
    println!(
        "\ngenerated cases ({} programs as `warpdiff fuzz` makes them, {:.1} instructions each): compile us per program and per PTX instruction",
        progs.len(),
        insts as f64 / progs.len() as f64
    );
    let row = |what: &str, tuning: Tuning| {
        let t = Instant::now();
        let clif: usize = progs
            .iter()
            .map(|p| {
                JitProgram::compile_with(p, tuning)
                    .expect("compiles")
                    .clif_insts()
            })
            .sum();
        let el = t.elapsed().as_secs_f64();
        let stats = warp_jit::outline::stats();
        println!(
            "  {what:<34} {:>8.0} us/program {:>6.1} us/inst {:>6.1} clif/inst   (helper cache: {} shapes, {} hits)",
            el * 1e6 / progs.len() as f64,
            el * 1e6 / insts as f64,
            clif as f64 / insts as f64,
            stats.helpers,
            stats.hits
        );
    };
    row("fast-code", Tuning::FastCode);
    row("inline (fuzzing's 1 in 64)", Tuning::Inline);
    row("fast-compile, first pass", Tuning::FastCompile);
    row("fast-compile, again (shapes cached)", Tuning::FastCompile);
    // The reference interpreter on the same cases (each on its own
    // inputs): what the fuzz loops run most (the generator's probes and
    // the oracle's reference runs). The fastest of a few rounds.
    let mut best = f64::MAX;
    let mut steps = 0;
    for _ in 0..5 {
        let t = Instant::now();
        steps = cases
            .iter()
            .map(|tc| {
                Interp::new(&tc.program)
                    .run(&tc.inputs)
                    .map_or(0, |o| o.steps)
            })
            .sum::<u64>();
        best = best.min(t.elapsed().as_secs_f64());
    }
    println!(
        "  {:<34} {:>8.1} us/run     {:>6.0} ns/warp step ({:.1} steps a run)",
        "reference interpreter",
        best * 1e6 / cases.len() as f64,
        best * 1e9 / steps.max(1) as f64,
        steps as f64 / cases.len() as f64
    );
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
    let (compiled, host) = features();
    println!("hand-written Rust compiled with: {compiled}; this host (the JIT's code): {host}");
    println!(
        "per program: wi/s of the interpreter, the JIT's fast-code and fast-compile tunings and hand-written Rust; JIT (fast-code) / interpreter and native / JIT; compile us per PTX instruction of each tuning (fast-compile with its helpers cached); resident memory a compiled program holds; fast-code batch warps/s on all cores"
    );
    println!(
        "{:<8} {:>5} {:>5} {:>11} {:>11} {:>11} {:>11} {:>8} {:>8} {:>9} {:>9} {:>8} {:>12}",
        "program",
        "insts",
        "steps",
        "interp wi/s",
        "fcode wi/s",
        "fcomp wi/s",
        "native wi/s",
        "jit/int",
        "nat/jit",
        "fcode c/i",
        "fcomp c/i",
        "held KiB",
        "batch warps/s"
    );
    // (program, JIT fast-code time, time of the PTX's own algorithm in Rust)
    let mut literal = Vec::new();
    for name in PROGRAMS {
        let case = load(name);
        let prog = &case.program;
        let n = prog.insts.len() as f64;
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
        let t_quick = time_per_call(budget, || {
            black_box(
                JitProgram::compile_with(black_box(prog), Tuning::FastCompile).expect("compiles"),
            );
        });
        // The JIT and the native version run repeatedly in place on one
        // warp's registers (no per-run copying or conversion).
        let before = rss_kib();
        let jit = JitProgram::compile(prog).expect("compiles");
        let held = rss_kib() as i64 - before as i64;
        let fresh = jit.state_for(&case.inputs);
        let mut st = fresh.clone();
        let t_jit = time_per_call(budget, || {
            jit.run_state(black_box(&mut st)).expect("runs");
        });
        let quick = JitProgram::compile_with(prog, Tuning::FastCompile).expect("compiles");
        let mut st = quick.state_for(&case.inputs);
        let t_quick_run = time_per_call(budget, || {
            quick.run_state(black_box(&mut st)).expect("runs");
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
        if native::program(name).is_some_and(|p| p.literal.is_some()) {
            let t_literal = time_per_call(budget, || {
                native::run_literal_repeated(name, black_box(&mut regs), reps).expect("literal");
            }) / reps as f64;
            literal.push((name, steps, t_jit, t_literal));
        }

        let n_batch = 200_000usize;
        let mut states = vec![fresh.clone(); n_batch];
        let t = Instant::now();
        let oof = jit.run_states(&mut states);
        let t_batch = t.elapsed().as_secs_f64();
        assert_eq!(oof, 0);

        println!(
            "{:<8} {:>5} {:>5} {:>11.3e} {:>11.3e} {:>11.3e} {:>11.3e} {:>7.1}x {:>7.2}x {:>9.1} {:>9.1} {held:>+8} {:>12.3e}",
            name,
            prog.insts.len(),
            steps,
            steps / t_interp,
            steps / t_jit,
            steps / t_quick_run,
            steps / t_native,
            t_interp / t_jit,
            t_jit / t_native,
            t_compile * 1e6 / n,
            t_quick * 1e6 / n,
            n_batch as f64 / t_batch,
        );
    }
    println!("(batch: {threads} threads)");
    println!(
        "\nthe PTX's own algorithm in hand-written Rust (native.rs `*_literal`, one statement per instruction), where the native column's uses another: its wi/s and the JIT's (fast-code) time over its time"
    );
    for (name, steps, t_jit, t_literal) in literal {
        println!(
            "{name:<8} literal wi/s {:>11.3e}   jit/literal {:>6.2}x",
            steps / t_literal,
            t_jit / t_literal
        );
    }

    generated();

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
    let n: usize = std::env::var("BENCH_DROPS")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(100_000);
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
    // The generated code of a program of tens of thousands of instructions
    // needs a stack frame larger than a default thread stack (see
    // `Limits::DEFAULT_MAX_INSTS`): the scaling runs on a thread of 1 GiB.
    std::thread::Builder::new()
        .stack_size(1 << 30)
        .spawn(move || scaling(budget))
        .expect("a thread")
        .join()
        .expect("the scaling bench");
}
