//! `warpdiff bench-gpu`: cases verified per second on the GPU, end to end
//! (generate, interpret, emit, driver compile, launch, read back, compare),
//! at several batch sizes, and where the time goes.
//!
//! Each round generates `batch` usable cases on `--threads` threads (a
//! generated program and, with `--inputs K`, K input sets: the generated
//! one and sets with its data inputs redrawn, `case::input_sets`; each
//! run on the interpreter, UB dropped),
//! then checks them on the GPU in one batch. The phases run one after the
//! other, so the shares add up to the wall time.

use crate::cli::BenchGpuArgs;
use crate::fuzz::case::{self, FUZZ_FUEL};
use crate::outln;
use std::sync::Arc;
use std::time::{Duration, Instant};
use warp_core::gen::{Stats, TestCase};
use warp_core::interp::Interp;
use warp_gpu::batch::{check_batch, skip_class, Checked, Pending};
use warp_gpu::device::{Device, Timing};
use warp_gpu::emit::Job;
use warp_gpu::engine::{gpu, gpus};

/// The options, with defaults resolved.
struct BenchOptions {
    batches: Vec<usize>,
    seconds: f64,
    inputs: usize,
    threads: usize,
    seed: u64,
}

/// Generates `n` cases the interpreter runs without UB, on `threads`
/// threads; returns them and the number of generated programs.
fn generate(n: usize, threads: usize, inputs_per: usize, seed: u64) -> (Vec<Pending>, u64) {
    let per = n.div_ceil(threads);
    let parts: Vec<(Vec<Pending>, u64)> = std::thread::scope(|sc| {
        let hs: Vec<_> = (0..threads)
            .map(|t| {
                sc.spawn(move || {
                    let mut seeds = case::case_seeds(seed, t as u64);
                    let mut stats = Stats::default();
                    let mut buf = Vec::new();
                    let mut out = Vec::with_capacity(per);
                    let mut programs = 0;
                    while out.len() < per {
                        let case_seed = seeds.next().expect("an endless stream");
                        let Some(tc) = case::case_from_seed(case_seed, &mut buf, &mut stats, &[])
                        else {
                            continue;
                        };
                        programs += 1;
                        let interp = Interp::new(&tc.program).with_fuel(FUZZ_FUEL);
                        for inputs in case::input_sets(&tc, inputs_per, case_seed) {
                            if let Ok(r) = interp.run(&inputs) {
                                if r.ub.is_none() && out.len() < per {
                                    out.push(Pending {
                                        case: TestCase {
                                            program: tc.program.clone(),
                                            inputs,
                                        },
                                        reference: r,
                                    });
                                }
                            }
                        }
                    }
                    (out, programs)
                })
            })
            .collect();
        hs.into_iter()
            .map(|h| h.join().expect("generator thread"))
            .collect()
    });
    let programs = parts.iter().map(|p| p.1).sum();
    let mut all: Vec<Pending> = parts.into_iter().flat_map(|p| p.0).collect();
    all.truncate(n);
    (all, programs)
}

fn pct(part: Duration, whole: Duration) -> String {
    format!(
        "{:>4.1}%",
        100.0 * part.as_secs_f64() / whole.as_secs_f64().max(1e-9)
    )
}

/// Checks `cases` spread over `devices` (equal shares, in parallel);
/// results in order, timings summed (wall-clock phases overlap).
fn check_spread(devices: &[Arc<dyn Device>], cases: &[Pending]) -> (Vec<Checked>, Timing) {
    if devices.len() == 1 {
        return check_batch(devices[0].as_ref(), cases);
    }
    let per = cases.len().div_ceil(devices.len()).max(1);
    let parts: Vec<(Vec<Checked>, Timing)> = std::thread::scope(|sc| {
        let hs: Vec<_> = devices
            .iter()
            .zip(cases.chunks(per))
            .map(|(d, part)| sc.spawn(move || check_batch(d.as_ref(), part)))
            .collect();
        hs.into_iter()
            .map(|h| h.join().expect("device thread"))
            .collect()
    });
    let mut all = Vec::with_capacity(cases.len());
    let mut timing = Timing::default();
    let mut wall = Timing::default();
    for (c, t) in parts {
        all.extend(c);
        timing.add(&t);
        // Phases ran in parallel: keep the longest of each as the wall.
        wall.load = wall.load.max(t.load);
        wall.launch = wall.launch.max(t.launch);
        wall.wait = wall.wait.max(t.wait);
        wall.copy = wall.copy.max(t.copy);
    }
    timing.load = wall.load;
    timing.launch = wall.launch;
    timing.wait = wall.wait;
    timing.copy = wall.copy;
    (all, timing)
}

/// `--cross-check`: the same cases on every device; their outcomes must be
/// identical bit for bit (and each is compared with the reference).
fn cross_check(o: &BenchOptions, devices: &[Arc<dyn Device>]) -> u8 {
    let b = *o.batches.iter().max().unwrap_or(&1024);
    let (cases, _) = generate(b, o.threads, o.inputs, o.seed);
    let jobs: Vec<Job> = cases.iter().map(Pending::job).collect();
    let runs: Vec<_> = std::thread::scope(|sc| {
        let hs: Vec<_> = devices
            .iter()
            .map(|d| {
                let jobs = &jobs;
                sc.spawn(move || d.run_batch(jobs))
            })
            .collect();
        hs.into_iter()
            .map(|h| h.join().expect("device thread"))
            .collect()
    });
    let mut status = 0;
    for (d, r) in devices.iter().zip(&runs).skip(1) {
        let ran = r.iter().filter(|x| x.is_ok()).count();
        // Compared where the reference defines a lane: elsewhere a kernel
        // register holds whatever the register file held.
        let differ = cases
            .iter()
            .zip(r.iter().zip(&runs[0]))
            .filter(|(p, (a, b))| match (a, b) {
                (Ok(a), Ok(b)) => {
                    let mut masked = a.clone();
                    masked.defined = p.reference.defined.clone();
                    masked.open = p.reference.open.clone();
                    !warp_core::compare::compare(&masked, b).is_empty()
                }
                (Err(x), Err(y)) => x != y,
                _ => true,
            })
            .count();
        outln!(
            "cross-check: {} cases; GPU {} ran {ran}; GPU 0 and GPU {} differ on {differ} case(s)",
            cases.len(),
            d.ordinal(),
            d.ordinal()
        );
        if differ > 0 {
            status = 1;
        }
    }
    status
}

/// Runs the benchmark; returns the exit status (2 on bad arguments).
pub fn bench(a: &BenchGpuArgs) -> u8 {
    if a.batches.is_empty() || a.batches.contains(&0) {
        crate::errln!("warpdiff bench-gpu: --batches needs sizes of at least 1");
        return 2;
    }
    let o = BenchOptions {
        batches: a.batches.clone(),
        seconds: a.seconds,
        inputs: a.inputs as usize,
        threads: a
            .threads
            .unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get()))
            .max(1),
        seed: a.seed,
    };
    let o = &o;
    let g = match gpu() {
        Ok(g) => g,
        Err(e) => {
            outln!("warpdiff bench-gpu: {e}; nothing to measure");
            return 0;
        }
    };
    let want = a.devices as usize;
    let devices: Vec<Arc<dyn Device>> = if want > 1 {
        gpus(want).into_iter().take(want).collect()
    } else {
        vec![g.clone()]
    };
    if devices.len() < want {
        outln!(
            "warpdiff bench-gpu: {} GPU(s) asked for, {} found",
            want,
            devices.len()
        );
    }
    if a.cross_check {
        return cross_check(o, &devices);
    }
    outln!(
        "warpdiff bench-gpu on {} GPU(s), {}: {} generator thread(s), {} input set(s) per program, ≥{} s per batch size",
        devices.len(),
        g.description(),
        o.threads,
        o.inputs,
        o.seconds
    );
    // Warm-up (not measured): every compile helper (or the driver) loads
    // its PTX compiler on its first module, ~50 ms each.
    let t = Instant::now();
    let (warm, _) = generate(1024, o.threads, o.inputs, o.seed ^ 0x77);
    let _ = check_spread(&devices, &warm);
    outln!(
        "warm-up: one batch of 1024, {:.2} s (not counted)",
        t.elapsed().as_secs_f64()
    );
    outln!(
        "{:>6} {:>8} {:>9} {:>9} | {:>6} {:>6} {:>7} {:>6} {:>6} {:>6} {:>6} | skipped",
        "batch",
        "cases",
        "cases/s",
        "progs/s",
        "gen",
        "emit",
        "compile",
        "launch",
        "wait",
        "copy",
        "cmp"
    );
    for (round_seed, &b) in o.batches.iter().enumerate() {
        let start = Instant::now();
        let (mut gen_t, mut cmp_t) = (Duration::ZERO, Duration::ZERO);
        let mut timing = Timing::default();
        let (mut verified, mut programs, mut skipped, mut diverged) = (0u64, 0u64, 0u64, 0u64);
        let mut skip_reasons = std::collections::BTreeMap::<String, u64>::new();
        let mut round = 0u64;
        while round == 0 || start.elapsed().as_secs_f64() < o.seconds {
            let seed = o.seed ^ (round_seed as u64) << 40 ^ round << 8;
            round += 1;
            let t0 = Instant::now();
            let (cases, progs) = generate(b, o.threads, o.inputs, seed);
            gen_t += t0.elapsed();
            programs += progs;
            let t1 = Instant::now();
            let (checked, t) = check_spread(&devices, &cases);
            let gpu_wall = t1.elapsed();
            // `check_batch` compares after the GPU part: what is left.
            cmp_t += gpu_wall.saturating_sub(t.load + t.launch + t.wait + t.copy);
            timing.add(&t);
            for c in checked {
                match c {
                    Checked::Agree => verified += 1,
                    Checked::Diverge(_) => {
                        verified += 1;
                        diverged += 1;
                    }
                    Checked::Skipped(r) => {
                        skipped += 1;
                        *skip_reasons.entry(skip_class(&r)).or_default() += 1;
                    }
                    Checked::Failed(e) => {
                        skipped += 1;
                        *skip_reasons
                            .entry(format!("failed: {}", skip_class(&e.to_string())))
                            .or_default() += 1;
                    }
                }
            }
        }
        let wall = start.elapsed();
        let compile = timing
            .load
            .saturating_sub(timing.emit / o.threads.max(1) as u32);
        outln!(
            "{:>6} {:>8} {:>9.0} {:>9.0} | {} {} {} {} {} {} {} | {}{}",
            b,
            verified,
            verified as f64 / wall.as_secs_f64(),
            programs as f64 / wall.as_secs_f64(),
            pct(gen_t, wall),
            pct(timing.emit / o.threads.max(1) as u32, wall),
            pct(compile, wall),
            pct(timing.launch, wall),
            pct(timing.wait, wall),
            pct(timing.copy, wall),
            pct(cmp_t, wall),
            skipped,
            if diverged > 0 {
                format!(" ({diverged} divergences among the verified)")
            } else {
                String::new()
            }
        );
        for (r, n) in skip_reasons {
            outln!("{:>6}   skipped {n}: {r}", "");
        }
        outln!(
            "{:>6}   {} rounds in {:.2} s; {} modules, {} kernels, {:.1} MB of PTX",
            "",
            round,
            wall.as_secs_f64(),
            timing.modules,
            timing.kernels,
            timing.ptx_bytes as f64 / 1e6
        );
    }
    outln!(
        "gen = generate + interpret (threads in parallel); emit = PTX text (summed over threads / threads); compile = the driver's PTX compiler (modules in parallel); launch = input copies + launches; wait = kernels running; copy = read back + decode; cmp = compare with the reference"
    );
    0
}
