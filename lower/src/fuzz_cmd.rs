//! `warpdiff fuzz`: the fuzzing loop on stable Rust, without libFuzzer.

use crate::hang;
use std::collections::BTreeMap;
use std::sync::atomic::{AtomicBool, AtomicU64, AtomicUsize, Ordering};
use std::sync::mpsc::{sync_channel, Receiver, RecvTimeoutError, SyncSender};
use std::sync::Mutex;
use std::time::{Duration, Instant};
use warp_core::engine::Engine;
use warp_core::gen::{Stats, TestCase};
use warp_core::interp::Interp;
use warp_core::oracle::Divergence;
use warp_lower::engines;
use warp_lower::fuzzing::{self, CaseResult, XorShift};
use warp_lower::gpu::batch::{check_batch, skip_class, Checked, Pending};
use warp_lower::gpu::engine as gpu_engine;
use warp_lower::gpu::run::{Gpu, GpuError, Timing};

/// Options of `warpdiff fuzz`.
pub struct FuzzOptions {
    seconds: u64,
    seed: u64,
    jobs: usize,
    engines: Vec<String>,
    corpus: std::path::PathBuf,
    keep_going: bool,
    gpu_batch: usize,
    gpu_inputs: usize,
    gpus: usize,
}

impl FuzzOptions {
    /// Parses the arguments after `fuzz`.
    pub fn parse(args: &[String]) -> Result<FuzzOptions, String> {
        let mut o = FuzzOptions {
            seconds: 60,
            seed: std::time::SystemTime::now()
                .duration_since(std::time::UNIX_EPOCH)
                .map_or(1, |d| d.as_nanos() as u64),
            jobs: 1,
            engines: engines::ENGINES.iter().map(|s| s.to_string()).collect(),
            corpus: fuzzing::corpus_dir(),
            keep_going: false,
            gpu_batch: 1024,
            gpu_inputs: 1,
            gpus: MAX_DEVICES,
        };
        let mut it = args.iter();
        let num = |v: Option<&String>, what: &str| -> Result<u64, String> {
            let v = v.ok_or(format!("{what} needs a value"))?;
            match v.strip_prefix("0x") {
                Some(h) => u64::from_str_radix(h, 16),
                None => v.parse(),
            }
            .map_err(|_| format!("bad {what} `{v}`"))
        };
        while let Some(a) = it.next() {
            match a.as_str() {
                "--seconds" => o.seconds = num(it.next(), "--seconds")?,
                "--seed" => o.seed = num(it.next(), "--seed")?,
                "--jobs" => o.jobs = num(it.next(), "--jobs")?.clamp(1, 256) as usize,
                "--engines" => {
                    let v = it.next().ok_or("--engines needs a list")?;
                    o.engines = v.split(',').map(|s| s.trim().to_string()).collect();
                }
                "--corpus" => o.corpus = it.next().ok_or("--corpus needs a folder")?.into(),
                "--keep-going" => o.keep_going = true,
                "--gpus" => {
                    o.gpus = num(it.next(), "--gpus")?.clamp(1, MAX_DEVICES as u64) as usize
                }
                "--gpu-inputs" => {
                    o.gpu_inputs = num(it.next(), "--gpu-inputs")?.clamp(1, 32) as usize
                }
                "--gpu-batch" => {
                    o.gpu_batch = num(it.next(), "--gpu-batch")?.clamp(1, 1 << 16) as usize
                }
                other => return Err(format!("unknown option `{other}`")),
            }
        }
        if !o.engines.iter().any(|e| e == "interp") {
            return Err("--engines must include interp, the reference".into());
        }
        for e in &o.engines {
            if engines::by_name(e).is_none() {
                return Err(format!(
                    "unknown engine `{e}` (available: {})",
                    engines::ENGINES.join(", ")
                ));
            }
        }
        if o.engines.len() < 2 {
            return Err("--engines needs at least one engine besides interp".into());
        }
        Ok(o)
    }
}

#[derive(Default)]
struct Shared {
    execs: AtomicU64,
    ub: AtomicU64,
    rejected: AtomicU64,
    divergences: AtomicU64,
    gpu_checked: AtomicU64,
    gpu_agreed: AtomicU64,
    stop: AtomicBool,
    stats: Mutex<Stats>,
    found: Mutex<Vec<String>>,
    /// GPU skips and failures, by reason class.
    gpu_skipped: Mutex<BTreeMap<String, u64>>,
    gpu_timing: Mutex<Timing>,
    /// Set when the GPU hung: workers stop queueing cases for it.
    gpu_off: AtomicBool,
    /// Divergences per "engine on form".
    per_form: Mutex<BTreeMap<String, u64>>,
    /// Cases checked per GPU (by ordinal).
    per_device: [AtomicU64; MAX_DEVICES],
    /// GPUs not switched off yet.
    gpus_alive: AtomicUsize,
}

/// The most GPUs a fuzzing run spreads over.
const MAX_DEVICES: usize = 16;

/// With --keep-going, divergences of one engine on one form that are
/// reduced and recorded; later ones are only counted.
const REDUCE_PER_FORM: u64 = 3;

/// The engines named, besides the reference, each for one case at a time.
pub(crate) fn others(names: &[String]) -> Vec<Box<dyn Engine>> {
    names
        .iter()
        .filter(|n| *n != "interp")
        .filter_map(|n| engines::for_one_run(n))
        .collect()
}

/// A case for the GPU thread, with where it came from.
struct ForGpu {
    pending: Pending,
    job: usize,
    case_seed: u64,
}

/// Reduces a divergence, writes it into the corpus and prints a line.
#[allow(clippy::too_many_arguments)]
fn report(
    o: &FuzzOptions,
    sh: &Shared,
    start: Instant,
    job: usize,
    case_seed: u64,
    tc: &TestCase,
    d: Box<Divergence>,
    others: &[&dyn Engine],
) {
    sh.divergences.fetch_add(1, Ordering::Relaxed);
    if !o.keep_going {
        sh.stop.store(true, Ordering::Relaxed);
    }
    let found_after = start.elapsed().as_secs_f64();
    // With --keep-going, one engine and form can diverge thousands of
    // times (a compiler bug, a convergence difference): reduce the first
    // few, count the rest, so the loop keeps fuzzing.
    let seen = {
        let mut per = sh.per_form.lock().expect("lock");
        let n = per
            .entry(format!("{} on {}", d.engine, d.form))
            .or_default();
        *n += 1;
        *n
    };
    if seen > REDUCE_PER_FORM {
        return;
    }
    let (small, secs) = fuzzing::reduce(tc, &d, others, case_seed);
    let d2 = fuzzing::divergence_of(&small, others).unwrap_or(d);
    let mut notes = vec![
        format!(
            "Found by `warpdiff fuzz --seed {:#x}` (job {job}, case seed {case_seed:#x}) at {}, {found_after:.1} s into the run.",
            o.seed,
            fuzzing::now_utc()
        ),
        format!(
            "Reduced from {} to {} instructions in {secs:.2} s.",
            tc.program.insts.len(),
            small.program.insts.len()
        ),
    ];
    notes.extend(fuzzing::hardware_notes(&d2));
    let msg = match fuzzing::record(&o.corpus, &small, &d2, notes) {
        Ok(w) => format!(
            "divergence: {} on {} after {found_after:.1} s; reduced {} -> {} instructions in {secs:.2} s; {} {}",
            d2.engine,
            d2.form,
            tc.program.insts.len(),
            small.program.insts.len(),
            match w {
                warp_core::corpus::Written::New(_) => "wrote",
                warp_core::corpus::Written::Exists(_) => "already in corpus:",
            },
            w.path().display()
        ),
        Err(e) => format!(
            "divergence: {} on {}; could not write it: {e}",
            d2.engine, d2.form
        ),
    };
    println!("{msg}");
    sh.found.lock().expect("lock").push(msg);
}

fn worker(
    o: &FuzzOptions,
    job: usize,
    sh: &Shared,
    start: Instant,
    to_gpu: Option<SyncSender<ForGpu>>,
) {
    // With a batching GPU thread, the GPU is not among this worker's
    // engines: agreeing cases go to the thread instead.
    let names: Vec<String> = o
        .engines
        .iter()
        .filter(|n| to_gpu.is_none() || *n != "gpu")
        .cloned()
        .collect();
    let owned = others(&names);
    let others: Vec<&dyn Engine> = owned.iter().map(|e| e.as_ref()).collect();
    let all_owned = others_for_reduce(o);
    let all: Vec<&dyn Engine> = all_owned.iter().map(|e| e.as_ref()).collect();
    let mut rng = XorShift((o.seed ^ (job as u64).wrapping_mul(0x9e37_79b9_7f4a_7c15)) | 1);
    let mut stats = Stats::default();
    let deadline = start + Duration::from_secs(o.seconds);
    let mut buf = Vec::new();
    while Instant::now() < deadline && !sh.stop.load(Ordering::Relaxed) {
        let case_seed = rng.next();
        let Some(tc) = fuzzing::case_from_seed(case_seed, &mut buf, &mut stats) else {
            continue;
        };
        sh.execs.fetch_add(1, Ordering::Relaxed);
        match fuzzing::run_case(&tc, &others, &mut stats) {
            CaseResult::NoCase => {}
            CaseResult::Agree(reference) => {
                if let Some(tx) = to_gpu
                    .as_ref()
                    .filter(|_| !sh.gpu_off.load(Ordering::Relaxed))
                {
                    // More input sets for the same program: one compile
                    // serves them all (each checked by the reference).
                    let interp = Interp::new(&tc.program).with_fuel(fuzzing::FUZZ_FUEL);
                    let mut items = vec![(tc.inputs.clone(), *reference)];
                    for k in 1..o.gpu_inputs {
                        let inputs = fuzzing::rotated_inputs(&tc.inputs, k * 7);
                        if let Ok(r) = interp.run(&inputs) {
                            if r.ub.is_none() {
                                items.push((inputs, r));
                            }
                        }
                    }
                    let sent = items.into_iter().all(|(inputs, reference)| {
                        let item = ForGpu {
                            pending: Pending {
                                case: TestCase {
                                    program: tc.program.clone(),
                                    inputs,
                                },
                                reference,
                            },
                            job,
                            case_seed,
                        };
                        tx.send(item).is_ok()
                    });
                    if !sent {
                        break;
                    }
                }
            }
            CaseResult::Ub => {
                sh.ub.fetch_add(1, Ordering::Relaxed);
            }
            CaseResult::Rejected => {
                sh.rejected.fetch_add(1, Ordering::Relaxed);
            }
            CaseResult::Diverge(tc, d) => report(o, sh, start, job, case_seed, &tc, d, &all),
        }
    }
    sh.stats.lock().expect("lock").merge(&stats);
}

/// Every engine of the run, each case on its own (for reducing).
fn others_for_reduce(o: &FuzzOptions) -> Vec<Box<dyn Engine>> {
    others(&o.engines)
}

/// The GPU thread: batches the cases the workers send, checks them on the
/// GPU, reduces and records divergences (the reducer runs the GPU one case
/// at a time).
fn gpu_loop(o: &FuzzOptions, sh: &Shared, start: Instant, gpu: &Gpu, rx: &Mutex<Receiver<ForGpu>>) {
    let all_owned = others_for_reduce(o);
    let all: Vec<&dyn Engine> = all_owned.iter().map(|e| e.as_ref()).collect();
    let mut said_failed = false;
    // A hang is narrowed down and reduced on a thread of its own (in fresh
    // processes, minutes at most) while this loop drains the queue.
    std::thread::scope(|sc| loop {
        if gpu.is_dead() {
            // This device is off; the others (if any) take the queue.
            break;
        }
        // One device at a time fills its batch from the shared queue.
        let batch = {
            let rx = rx.lock().unwrap_or_else(|p| p.into_inner());
            let first = match rx.recv_timeout(Duration::from_millis(100)) {
                Ok(x) => x,
                Err(RecvTimeoutError::Timeout) => continue,
                Err(RecvTimeoutError::Disconnected) => break,
            };
            let mut batch = vec![first];
            let t = Instant::now();
            let fill = Duration::from_millis(20);
            while batch.len() < o.gpu_batch {
                match rx.recv_timeout(fill.saturating_sub(t.elapsed())) {
                    Ok(x) => batch.push(x),
                    Err(_) => break,
                }
            }
            batch
        };
        let pending: Vec<Pending> = batch.iter().map(|b| b.pending.clone()).collect();
        let (checked, timing) = check_batch(gpu, &pending);
        sh.gpu_timing.lock().expect("lock").add(&timing);
        for (b, c) in batch.iter().zip(checked) {
            match c {
                Checked::Agree => {
                    sh.gpu_checked.fetch_add(1, Ordering::Relaxed);
                    sh.gpu_agreed.fetch_add(1, Ordering::Relaxed);
                    sh.per_device[gpu.ordinal.min(MAX_DEVICES - 1)].fetch_add(1, Ordering::Relaxed);
                }
                Checked::Skipped(reason) => {
                    *sh.gpu_skipped
                        .lock()
                        .expect("lock")
                        .entry(skip_class(&reason))
                        .or_default() += 1;
                }
                Checked::Failed(e) => {
                    if !said_failed {
                        let saved = match &e {
                            GpuError::Hang(_) | GpuError::Fault(_) => save_batch(&batch),
                            _ => String::new(),
                        };
                        eprintln!("warpdiff fuzz: {e} (counted under \"gpu failed\"){saved}");
                        said_failed = true;
                        if matches!(e, GpuError::Hang(_) | GpuError::Fault(_)) {
                            // Workers stop queueing once every device is off.
                            if sh.gpus_alive.fetch_sub(1, Ordering::Relaxed) == 1 {
                                sh.gpu_off.store(true, Ordering::Relaxed);
                            }
                            let hung: Vec<(TestCase, usize, u64)> = batch
                                .iter()
                                .map(|b| (b.pending.case.clone(), b.job, b.case_seed))
                                .collect();
                            sc.spawn(move || hang_found(o, sh, start, &hung));
                        }
                    }
                    *sh.gpu_skipped
                        .lock()
                        .expect("lock")
                        .entry(format!("gpu failed: {}", skip_class(&e.to_string())))
                        .or_default() += 1;
                }
                Checked::Diverge(d) => {
                    sh.gpu_checked.fetch_add(1, Ordering::Relaxed);
                    sh.per_device[gpu.ordinal.min(MAX_DEVICES - 1)].fetch_add(1, Ordering::Relaxed);
                    if sh.stop.load(Ordering::Relaxed) && !o.keep_going {
                        continue;
                    }
                    report(o, sh, start, b.job, b.case_seed, &b.pending.case, d, &all);
                }
            }
        }
    });
}

/// A batch hung: find the case(s) that hang alone (each in a fresh
/// process), reduce the first and record it in the corpus, marked so that
/// replay does not run it on the GPU.
fn hang_found(o: &FuzzOptions, sh: &Shared, start: Instant, batch: &[(TestCase, usize, u64)]) {
    let cases: Vec<TestCase> = batch.iter().map(|b| b.0.clone()).collect();
    let threads = std::thread::available_parallelism().map_or(1, |n| n.get());
    let t = Instant::now();
    // Give up at the run's end: the run must still finish.
    let until = start + Duration::from_secs(o.seconds);
    let failing = hang::find_failing(&cases, hang::DEADLINE_MS, threads, until);
    println!(
        "gpu hang or fault: {} of the batch's {} cases fail alone (checked in {:.1} s, one process each, deadline {} ms){}",
        failing.len(),
        cases.len(),
        t.elapsed().as_secs_f64(),
        hang::DEADLINE_MS,
        failing
            .first()
            .map_or(String::new(), |(_, what)| format!("; the first: {what}"))
    );
    let Some((i, what)) = failing.first().cloned() else {
        return;
    };
    let (_, job, case_seed) = batch[i];
    let (small, secs) = hang::reduce_failing(&cases[i], hang::DEADLINE_MS, case_seed, until);
    let after = match hang::run_alone(&small, hang::DEADLINE_MS) {
        hang::Alone::Fails(w) => w,
        hang::Alone::Finishes | hang::Alone::Unknown(_) => what,
    };
    let notes = vec![
        format!(
            "Found by `warpdiff fuzz --seed {:#x}` (job {}, case seed {:#x}) at {}, {:.1} s into the run.",
            o.seed,
            job,
            case_seed,
            fuzzing::now_utc(),
            start.elapsed().as_secs_f64()
        ),
        format!(
            "Reduced from {} to {} instructions in {secs:.1} s, each candidate run alone in a fresh process.",
            cases[i].program.insts.len(),
            small.program.insts.len()
        ),
    ];
    let (d, notes) = hang::as_divergence(&after, notes);
    sh.divergences.fetch_add(1, Ordering::Relaxed);
    let msg = match fuzzing::record(&o.corpus, &small, &d, notes) {
        Ok(w) => format!(
            "divergence: gpu hang or fault; reduced {} -> {} instructions in {secs:.1} s; {}",
            cases[i].program.insts.len(),
            small.program.insts.len(),
            w.path().display()
        ),
        Err(e) => format!("divergence: gpu hang or fault; could not write it: {e}"),
    };
    println!("{msg}");
    sh.found.lock().expect("lock").push(msg);
}

/// Saves the cases of a batch that hung on the GPU (one of them hung; the
/// GPU is off, so it cannot be narrowed down here) and says where.
fn save_batch(batch: &[ForGpu]) -> String {
    let dir = std::env::temp_dir().join(format!(
        "warpdiff-gpu-hang-{}-{}",
        std::process::id(),
        std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(0, |d| d.as_secs())
    ));
    if let Err(e) = std::fs::create_dir_all(&dir) {
        return format!("; could not save the batch: {}: {e}", dir.display());
    }
    for (i, b) in batch.iter().enumerate() {
        let text = warp_core::text::print(&b.pending.case.to_case());
        let path = dir.join(format!("case-{i:05}-seed-{:016x}.ptx", b.case_seed));
        if let Err(e) = std::fs::write(&path, text) {
            return format!("; could not save the batch: {}: {e}", path.display());
        }
    }
    format!(
        "; the batch's {} cases (one of them hung) are in {} (`warpdiff run --engine gpu` runs them one by one)",
        batch.len(),
        dir.display()
    )
}

/// Runs the fuzzing loop; returns the exit status (1 if a divergence was
/// found).
pub fn fuzz(o: &FuzzOptions) -> u8 {
    let sh = Shared::default();
    let start = Instant::now();
    // The GPUs, when asked for and present, check cases in batches: one
    // thread per device, all taking batches from one queue.
    let gpus: Vec<std::sync::Arc<Gpu>> = if o.engines.iter().any(|e| e == "gpu") {
        gpu_engine::gpus()
            .into_iter()
            .take(o.gpus.clamp(1, MAX_DEVICES))
            .collect()
    } else {
        Vec::new()
    };
    sh.gpus_alive.store(gpus.len(), Ordering::Relaxed);
    let gpu = gpus.first().cloned();
    println!(
        "warpdiff fuzz: engines {}, {} job(s), seed {:#x}, {} s, corpus {}{}",
        o.engines.join(","),
        o.jobs,
        o.seed,
        o.seconds,
        o.corpus.display(),
        match &gpu {
            Some(g) => format!(
                ", {} GPU(s) {}{} in batches of up to {}",
                gpus.len(),
                g.description,
                g.compiler(),
                o.gpu_batch
            ),
            None => String::new(),
        }
    );
    let (tx, rx) = match &gpu {
        Some(_) => {
            let (tx, rx) = sync_channel::<ForGpu>(o.gpu_batch * 2);
            (Some(tx), Some(Mutex::new(rx)))
        }
        None => (None, None),
    };
    std::thread::scope(|sc| {
        if let Some(rx) = &rx {
            for g in &gpus {
                let sh = &sh;
                sc.spawn(move || gpu_loop(o, sh, start, g, rx));
            }
        }
        for job in 0..o.jobs {
            let sh = &sh;
            let tx = tx.clone();
            sc.spawn(move || worker(o, job, sh, start, tx));
        }
        drop(tx);
        let mut last = (Instant::now(), 0u64);
        let mut last_dev = [0u64; MAX_DEVICES];
        while start.elapsed() < Duration::from_secs(o.seconds) && !sh.stop.load(Ordering::Relaxed) {
            std::thread::sleep(Duration::from_millis(250));
            if last.0.elapsed() >= Duration::from_secs(1) {
                let execs = sh.execs.load(Ordering::Relaxed);
                let rate = (execs - last.1) as f64 / last.0.elapsed().as_secs_f64();
                let ub = sh.ub.load(Ordering::Relaxed);
                let dt = last.0.elapsed().as_secs_f64();
                let per_dev: Vec<String> = gpus
                    .iter()
                    .map(|g| {
                        let i = g.ordinal.min(MAX_DEVICES - 1);
                        let now = sh.per_device[i].load(Ordering::Relaxed);
                        let r = (now - last_dev[i]) as f64 / dt;
                        last_dev[i] = now;
                        format!("gpu{} {r:.0}/s", g.ordinal)
                    })
                    .collect();
                let gpu_part = match &gpu {
                    Some(_) => format!(
                        "  gpu {} checked, {} skipped ({})",
                        sh.gpu_checked.load(Ordering::Relaxed),
                        sh.gpu_skipped.lock().expect("lock").values().sum::<u64>(),
                        per_dev.join(", ")
                    ),
                    None => String::new(),
                };
                eprintln!(
                    "[{:>4.0}s] {rate:>7.0} execs/s  {execs} cases  UB {:.1}%  rejected {}  divergences {}{gpu_part}",
                    start.elapsed().as_secs_f64(),
                    100.0 * ub as f64 / execs.max(1) as f64,
                    sh.rejected.load(Ordering::Relaxed),
                    sh.divergences.load(Ordering::Relaxed)
                );
                last = (Instant::now(), execs);
            }
        }
    });
    let secs = start.elapsed().as_secs_f64();
    let stats = sh.stats.lock().expect("lock");
    let execs = sh.execs.load(Ordering::Relaxed);
    println!("\n{stats}");
    let missing = stats.missing_forms();
    println!(
        "{execs} cases in {secs:.1} s ({:.0} execs/s); usable {:.2}%; UB {}; rejected {}; divergences {}; forms generated {}/{}{}",
        execs as f64 / secs,
        100.0 * stats.usable_share(),
        sh.ub.load(Ordering::Relaxed),
        sh.rejected.load(Ordering::Relaxed),
        sh.divergences.load(Ordering::Relaxed),
        warp_core::gen::all_forms().len() - missing.len(),
        warp_core::gen::all_forms().len(),
        if missing.is_empty() {
            String::new()
        } else {
            format!(" (missing: {})", missing.join(", "))
        }
    );
    let per_form = sh.per_form.lock().expect("lock");
    if !per_form.is_empty() {
        println!(
            "divergences by engine and form (the first {REDUCE_PER_FORM} of each reduced into the corpus): {}",
            per_form
                .iter()
                .map(|(k, n)| format!("{k} {n}"))
                .collect::<Vec<_>>()
                .join(", ")
        );
    }
    if let Some(g) = &gpu {
        let t = sh.gpu_timing.lock().expect("lock");
        for d in &gpus {
            println!(
                "GPU {} ({}): {} cases checked{}",
                d.ordinal,
                d.description,
                sh.per_device[d.ordinal.min(MAX_DEVICES - 1)].load(Ordering::Relaxed),
                if d.is_dead() {
                    ", then switched off"
                } else {
                    ""
                }
            );
        }
        println!(
            "GPU {}: {} cases checked ({} agree), {} modules, {} kernels; emit {:.1} s (summed over threads), emit+compile {:.1} s, launch {:.1} s, wait {:.1} s, read back {:.1} s",
            g.description,
            sh.gpu_checked.load(Ordering::Relaxed),
            sh.gpu_agreed.load(Ordering::Relaxed),
            t.modules,
            t.kernels,
            t.emit.as_secs_f64(),
            t.load.as_secs_f64(),
            t.launch.as_secs_f64(),
            t.wait.as_secs_f64(),
            t.copy.as_secs_f64()
        );
        for (reason, n) in sh.gpu_skipped.lock().expect("lock").iter() {
            println!("GPU skipped {n}: {reason}");
        }
    }
    if sh.divergences.load(Ordering::Relaxed) > 0 {
        1
    } else {
        0
    }
}
