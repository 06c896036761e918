//! `warpdiff fuzz`: the fuzzing loop on stable Rust, without libFuzzer.
//!
//! `--jobs` CPU workers generate cases, check them on the CPU engines
//! (the reference interpreter first) and, when a GPU or an external engine
//! is in the run, offer the agreeing ones to queues that one thread per GPU
//! ([`crate::fuzz::gpu`]) and one per external engine
//! ([`crate::fuzz::external`]) drain in batches. Every wait has a way out:
//! workers never block on the GPU queue (they drop a case rather than wait
//! once the GPUs are off, the run is over or the queue stays full) and
//! wait on an external engine's only until the run's end, the batch
//! threads take no batch after the run's end, every request to an
//! external engine has a deadline, and narrowing a failure down and
//! reducing it have a deadline of their own. So the run always ends by
//! `--seconds` (plus that bounded narrowing), with its summary and exit
//! status. Two last resorts keep that true when something below breaks the
//! rules: a thread that panics is caught, named and counted as an internal
//! error (exit status 2 unless a divergence was found) while the rest of
//! the run goes on; and a thread still busy `--stuck-after-s` (180 s) after
//! the run's end (a driver call that never returns) is left behind: the
//! summary is printed and the process exits without waiting for it.

use crate::cli::FuzzArgs;
use crate::engines::{flatten, EngineSet, EngineSpec};
use crate::fuzz::case::{self, CaseResult};
use crate::fuzz::external::{self, ForExt, Lane};
use crate::fuzz::gpu::{self, ForGpu, NARROW_BUDGET, NARROW_GRACE};
use crate::fuzz::progress::Progress;
use crate::{errln, outln};
use std::collections::BTreeMap;
use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, AtomicU64, AtomicUsize, Ordering};
use std::sync::mpsc::{sync_channel, Receiver, RecvTimeoutError, SyncSender, TrySendError};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};
use warp_core::engine::Engine;
use warp_core::gen::{Stats, TestCase};
use warp_core::interp::Interp;
use warp_core::oracle::{Divergence, ENGINE_FAILED};
use warp_gpu::batch::Pending;
use warp_gpu::device::{Device, Timing};

/// The most GPUs a fuzzing run spreads over.
pub const MAX_DEVICES: usize = 16;

/// With --keep-going, divergences of one engine on one form that are
/// reduced and recorded; later ones are only counted.
pub const REDUCE_PER_FORM: u64 = 3;

/// A run's settings, resolved from the command line.
pub struct Run {
    /// The arguments.
    pub args: FuzzArgs,
    /// The seed (given or from the clock).
    pub seed: u64,
    /// The engines, the reference first (external ones started).
    pub engines: EngineSet,
    /// Where divergences are written.
    pub corpus: PathBuf,
    /// When the run started.
    pub start: Instant,
}

impl Run {
    /// When the run's time is up.
    pub fn end(&self) -> Instant {
        self.start + Duration::from_secs(self.args.seconds)
    }

    /// Whether the run's time is up.
    pub fn over(&self) -> bool {
        Instant::now() >= self.end()
    }

    /// Every engine besides the reference, each for one case at a time:
    /// what the reducer checks candidates on.
    pub fn all_engines(&self) -> Vec<Box<dyn Engine>> {
        self.engines
            .others(warp_jit::Limits::default(), |_| true, true)
    }
}

/// The counters and findings every thread of a run shares.
#[derive(Default)]
pub struct Shared {
    /// Cases generated and checked on the CPU engines.
    pub execs: AtomicU64,
    /// Cases whose reference run had undefined behaviour.
    pub ub: AtomicU64,
    /// Cases the reference could not finish (fuel).
    pub rejected: AtomicU64,
    /// Divergences found (every one, reduced or only counted).
    pub divergences: AtomicU64,
    /// Engine failures among them (kind `engine-failed`, hangs, faults).
    pub engine_failures: AtomicU64,
    /// Cases checked on a GPU.
    pub gpu_checked: AtomicU64,
    /// Of those, the ones that agreed.
    pub gpu_agreed: AtomicU64,
    /// Set to stop every thread (the first divergence without
    /// `--keep-going`).
    pub stop: AtomicBool,
    /// The generator's counters, merged from every worker at its end.
    pub stats: Mutex<Stats>,
    /// One line per recorded finding.
    pub found: Mutex<Vec<String>>,
    /// Skips by engine and reason class (never counted as agreement).
    pub skipped: Mutex<BTreeMap<String, u64>>,
    /// Where the GPU time went.
    pub gpu_timing: Mutex<Timing>,
    /// Set once every GPU is off: workers stop offering cases.
    pub gpu_off: AtomicBool,
    /// Divergences per "engine on form".
    pub per_form: Mutex<BTreeMap<String, u64>>,
    /// Cases checked per GPU (by ordinal).
    pub per_device: [AtomicU64; MAX_DEVICES],
    /// GPUs not switched off yet.
    pub gpus_alive: AtomicUsize,
    /// Reduced findings by distinct bug: the known idiom they show, else
    /// engine, class and form.
    pub distinct: Mutex<BTreeMap<String, u64>>,
    /// CPU workers still generating.
    pub workers_alive: AtomicUsize,
    /// The wrapping sum of every generated case's FNV-1a hash (of its
    /// printed text): the same seed and `--cases` give the same digest,
    /// whatever the number of jobs' interleaving.
    pub digest: AtomicU64,
    /// Threads of the run still working (workers, GPU and external-engine
    /// threads).
    pub busy: AtomicUsize,
    /// Threads that panicked (each caught and reported).
    pub internal_errors: AtomicU64,
}

/// Decrements [`Shared::busy`] when a thread ends, by return or by panic.
struct Busy<'a>(&'a Shared);

impl Drop for Busy<'_> {
    fn drop(&mut self) {
        self.0.busy.fetch_sub(1, Ordering::Relaxed);
    }
}

/// Runs one thread's body `f` (named `what` in messages): counted in
/// [`Shared::busy`] until it ends, and a panic in it is caught, reported
/// and counted, after `on_panic` has run (to give back what the thread
/// held).
fn guarded(sh: &Shared, what: &str, f: impl FnOnce(), on_panic: impl FnOnce()) {
    let _busy = Busy(sh);
    if let Err(p) = std::panic::catch_unwind(std::panic::AssertUnwindSafe(f)) {
        on_panic();
        let msg = p
            .downcast_ref::<&str>()
            .map(|s| s.to_string())
            .or_else(|| p.downcast_ref::<String>().cloned())
            .unwrap_or_else(|| "a panic without a message".to_string());
        sh.internal_errors.fetch_add(1, Ordering::Relaxed);
        sh.found(format!(
            "internal error: the {what} thread panicked ({msg}); it stopped, the rest of the run went on"
        ));
    }
}

/// Spawns a thread of the run in `sc`: counted in [`Shared::busy`] from
/// now on, its body `f` run by [`guarded`].
fn spawn_guarded<'scope>(
    sc: &'scope std::thread::Scope<'scope, '_>,
    sh: &'scope Shared,
    what: String,
    f: impl FnOnce() + Send + 'scope,
    on_panic: impl FnOnce() + Send + 'scope,
) {
    sh.busy.fetch_add(1, Ordering::Relaxed);
    sc.spawn(move || guarded(sh, &what, f, on_panic));
}

impl Shared {
    /// Counts a skip of `engine` with `reason` (by its class: the text
    /// before the first `:`).
    pub fn skip(&self, engine: &str, reason: &str) {
        let class = warp_gpu::batch::skip_class(reason);
        *self
            .skipped
            .lock()
            .unwrap_or_else(|p| p.into_inner())
            .entry(format!("{engine}: {class}"))
            .or_default() += 1;
    }

    /// Prints and keeps a finding's line.
    pub fn found(&self, msg: String) {
        outln!("{msg}");
        self.found
            .lock()
            .unwrap_or_else(|p| p.into_inner())
            .push(msg);
    }
}

/// Counts a finding of `engine` on `form` (stopping the run unless
/// `--keep-going`); returns how many of that engine and form the run has
/// seen, this one included.
pub fn count_finding(r: &Run, sh: &Shared, engine: &str, form: &str) -> u64 {
    sh.divergences.fetch_add(1, Ordering::Relaxed);
    if form == ENGINE_FAILED {
        sh.engine_failures.fetch_add(1, Ordering::Relaxed);
    }
    if !r.args.keep_going {
        sh.stop.store(true, Ordering::Relaxed);
    }
    let mut per = sh.per_form.lock().unwrap_or_else(|p| p.into_inner());
    let n = per.entry(format!("{engine} on {form}")).or_default();
    *n += 1;
    *n
}

/// Reduces a divergence, writes it into the corpus and prints a line.
pub fn report(
    r: &Run,
    sh: &Shared,
    job: usize,
    case_seed: u64,
    tc: &TestCase,
    d: Box<Divergence>,
    others: &[&dyn Engine],
) {
    let found_after = r.start.elapsed().as_secs_f64();
    // With --keep-going, one engine and form can diverge thousands of
    // times (a compiler bug, a convergence difference): reduce the first
    // few, count the rest, so the loop keeps fuzzing.
    if count_finding(r, sh, d.engine, &d.form) > REDUCE_PER_FORM {
        return;
    }
    // An engine that answers only at its deadline (a hang) makes every
    // candidate slow: the reduction has a deadline of its own.
    let until = (Instant::now() + NARROW_BUDGET).min(r.end().max(Instant::now()) + NARROW_GRACE);
    let (small, secs) = case::reduce_until(tc, &d, others, case_seed, Some(until));
    let (small, d2, unstable) = case::settle(tc, small, d, others);
    let mut notes = vec![
        format!(
            "Found by `warpdiff fuzz --seed {:#x}` (job {job}, case seed {case_seed:#x}) at {}, {found_after:.1} s into the run.",
            r.seed,
            case::now_utc()
        ),
        format!(
            "Reduced from {} to {} instructions in {secs:.2} s.",
            tc.program.insts.len(),
            small.program.insts.len()
        ),
    ];
    notes.extend(unstable);
    notes.extend(r.engines.notes(d2.engine));
    let key = triage(&small, &d2, &mut notes);
    *sh.distinct
        .lock()
        .unwrap_or_else(|p| p.into_inner())
        .entry(key)
        .or_default() += 1;
    let msg = match case::record(&r.corpus, &small, &d2, notes) {
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
    sh.found(msg);
}

/// What a reduced divergence is: for the GPU, its class by optimisation
/// level ([`crate::fuzz::levels`]; the real GPU only); the idioms of known
/// compiler bugs it shows ([`warp_core::idioms`]). Adds both to `notes`;
/// returns the key it counts under among distinct findings.
fn triage(small: &TestCase, d: &Divergence, notes: &mut Vec<String>) -> String {
    let mut class = String::new();
    if d.engine == "gpu" && warp_gpu::engine::config().simulate.is_none() {
        let reference = Interp::new(&small.program)
            .with_fuel(case::FUZZ_FUEL)
            .run(&small.inputs);
        if let Ok(reference) = reference {
            let (c, per) =
                crate::fuzz::levels::sweep(small, &reference, warp_gpu::engine::config());
            notes.push(c.header(&per));
            class = format!("{} ", c.name());
        }
    }
    let known = warp_core::idioms::idioms(&small.program);
    for i in &known {
        notes.push(format!(
            "known idiom: {} (warp_core::idioms; `warpdiff fuzz --avoid {}` keeps it out)",
            i.name(),
            i.name()
        ));
    }
    match known.first() {
        Some(i) => format!("known idiom {}", i.name()),
        None => format!("{} {class}on {}", d.engine, d.form),
    }
}

/// Offers a case to the GPU queue without ever blocking for long: `false`
/// when it was dropped because the GPUs are off, the run is over or
/// stopping, or the queue stayed full for a second.
fn offer(r: &Run, sh: &Shared, tx: &SyncSender<ForGpu>, mut item: ForGpu) -> bool {
    let patience = Instant::now() + Duration::from_secs(1);
    loop {
        if sh.gpu_off.load(Ordering::Relaxed) || sh.stop.load(Ordering::Relaxed) || r.over() {
            return false;
        }
        match tx.try_send(item) {
            Ok(()) => return true,
            Err(TrySendError::Disconnected(_)) => return false,
            Err(TrySendError::Full(back)) => {
                if Instant::now() > patience {
                    sh.skip("gpu", "not checked (the GPU queue stayed full)");
                    return false;
                }
                item = back;
                std::thread::sleep(Duration::from_millis(2));
            }
        }
    }
}

fn worker(r: &Run, job: usize, sh: &Shared, to_gpu: Option<SyncSender<ForGpu>>, lanes: &[Lane]) {
    // With batching GPU threads, the GPU is not among this worker's
    // engines, nor are the external engines: agreeing cases go to their
    // queues instead.
    let owned = r.engines.others(
        warp_jit::Limits::default(),
        |n| to_gpu.is_none() || n != "gpu",
        false,
    );
    let others: Vec<&dyn Engine> = owned.iter().map(|e| e.as_ref()).collect();
    let all_owned = r.all_engines();
    let all: Vec<&dyn Engine> = all_owned.iter().map(|e| e.as_ref()).collect();
    let mut seeds = case::case_seeds(r.seed, job as u64);
    let mut stats = Stats::default();
    let mut buf = Vec::new();
    let avoid = r.args.avoided();
    let quota = r.args.cases.map(|n| job_quota(n, r.args.jobs, job as u64));
    let mut made = 0u64;
    while !r.over() && !sh.stop.load(Ordering::Relaxed) && quota.is_none_or(|q| made < q) {
        let case_seed = seeds.next().expect("an endless stream");
        let Some(tc) = case::case_from_seed(case_seed, &mut buf, &mut stats, &avoid) else {
            continue;
        };
        made += 1;
        sh.execs.fetch_add(1, Ordering::Relaxed);
        sh.digest.fetch_add(case::case_hash(&tc), Ordering::Relaxed);
        let (result, more) =
            case::run_case_inputs(&tc, &others, &mut stats, r.args.inputs as usize, case_seed);
        sh.execs.fetch_add(more, Ordering::Relaxed);
        match result {
            CaseResult::NoCase => {}
            CaseResult::Agree(reference, skipped) => {
                for (engine, why) in &skipped {
                    sh.skip(engine, &why.reason);
                }
                for lane in lanes {
                    let item = ForExt {
                        case: tc.clone(),
                        reference: (*reference).clone(),
                        job,
                        case_seed,
                    };
                    lane.offer(r, sh, item);
                }
                let Some(tx) = &to_gpu else { continue };
                if sh.gpu_off.load(Ordering::Relaxed) {
                    continue;
                }
                // More input sets for the same program: one compile
                // serves them all (each checked by the reference).
                let interp = Interp::new(&tc.program).with_fuel(case::FUZZ_FUEL);
                let mut items = vec![(tc.inputs.clone(), *reference)];
                let sets = case::input_sets(&tc, r.args.gpu_inputs as usize, case_seed);
                for inputs in sets.into_iter().skip(1) {
                    if let Ok(out) = interp.run(&inputs) {
                        if out.ub.is_none() {
                            items.push((inputs, out));
                        }
                    }
                }
                for (inputs, reference) in items {
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
                    if !offer(r, sh, tx, item) {
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
            CaseResult::Diverge(tc, d) => report(r, sh, job, case_seed, &tc, d, &all),
        }
    }
    sh.stats
        .lock()
        .unwrap_or_else(|p| p.into_inner())
        .merge(&stats);
    sh.workers_alive.fetch_sub(1, Ordering::Relaxed);
}

/// Job `job`'s share of `cases` cases over `jobs` jobs: the first
/// `cases % jobs` jobs take one more.
pub fn job_quota(cases: u64, jobs: u64, job: u64) -> u64 {
    cases / jobs + u64::from(job < cases % jobs)
}

/// The progress line's figures.
fn progress_line(
    sh: &Shared,
    gpus: &[Arc<dyn Device>],
    lanes: &[Lane],
    rate: f64,
    gpu_rates: &[f64],
) -> String {
    let execs = sh.execs.load(Ordering::Relaxed);
    let ub = sh.ub.load(Ordering::Relaxed);
    let mut line = format!(
        "{rate:>7.0} execs/s  {execs} cases  UB {:.1}%  rejected {}  divergences {}",
        100.0 * ub as f64 / execs.max(1) as f64,
        sh.rejected.load(Ordering::Relaxed),
        sh.divergences.load(Ordering::Relaxed)
    );
    if !gpus.is_empty() {
        let per: Vec<String> = gpus
            .iter()
            .zip(gpu_rates)
            .map(|(g, r)| {
                format!(
                    "gpu{} {r:.0}/s{}",
                    g.ordinal(),
                    if g.is_dead() { " (off)" } else { "" }
                )
            })
            .collect();
        line.push_str(&format!(
            "  gpu {} checked ({})",
            sh.gpu_checked.load(Ordering::Relaxed),
            per.join(", ")
        ));
    }
    for lane in lanes {
        line.push_str(&format!(
            "  {} {} checked{}",
            lane.engine.name(),
            lane.checked.load(Ordering::Relaxed),
            if lane.engine.off().is_some() {
                " (off)"
            } else {
                ""
            }
        ));
    }
    line
}

/// Runs the fuzzing loop; returns the exit status (1 if a divergence was
/// found, 2 on bad arguments).
pub fn fuzz(a: &FuzzArgs) -> u8 {
    let specs = flatten(&a.engines, crate::engines::ENGINES);
    if specs.first() != Some(&EngineSpec::Builtin("interp")) {
        errln!("warpdiff fuzz: --engines must start with interp, the reference");
        return 2;
    }
    if specs.len() < 2 {
        errln!("warpdiff fuzz: --engines needs at least one engine besides interp");
        return 2;
    }
    let set = match EngineSet::open(&specs, &a.ext.options()) {
        Ok(s) => s,
        Err(m) => {
            errln!("warpdiff fuzz: {m}");
            return 2;
        }
    };
    let r = Run {
        args: a.clone(),
        seed: a.seed.unwrap_or_else(|| {
            std::time::SystemTime::now()
                .duration_since(std::time::UNIX_EPOCH)
                .map_or(1, |d| d.as_nanos() as u64)
        }),
        engines: set,
        corpus: a.corpus.clone().unwrap_or_else(case::corpus_dir),
        start: Instant::now(),
    };
    let sh = Shared::default();
    // The GPUs, when asked for and present, check cases in batches: one
    // thread per device, all taking batches from one queue.
    let gpus: Vec<Arc<dyn Device>> = if r.engines.builtin.contains(&"gpu") {
        warp_gpu::engine::gpus()
            .into_iter()
            .take(a.gpus as usize)
            .collect()
    } else {
        Vec::new()
    };
    sh.gpus_alive.store(gpus.len(), Ordering::Relaxed);
    sh.workers_alive.store(a.jobs as usize, Ordering::Relaxed);
    outln!(
        "warpdiff fuzz: engines {}, {} job(s), seed {:#x}, {} s, corpus {}{}{}",
        r.engines.names().join(","),
        a.jobs,
        r.seed,
        a.seconds,
        r.corpus.display(),
        match a.avoided().as_slice() {
            [] => String::new(),
            v => format!(
                ", avoiding {}",
                v.iter().map(|i| i.name()).collect::<Vec<_>>().join(",")
            ),
        },
        match gpus.first() {
            Some(g) => format!(
                ", {} GPU(s) {} in batches of up to {}",
                gpus.len(),
                g.description(),
                a.gpu_batch
            ),
            None => String::new(),
        }
    );
    for e in &r.engines.external {
        outln!(
            "warpdiff fuzz: {} in requests of up to {} jobs",
            e.describe().trim_end_matches('.'),
            e.max_jobs()
                .map_or(a.ext_batch, |m| a.ext_batch.min(m as u64))
        );
    }
    let lanes: Vec<Lane> = r
        .engines
        .external
        .iter()
        .map(|e| Lane::new(e.clone(), a.ext_batch as usize))
        .collect();
    let (tx, rx) = if gpus.is_empty() {
        (None, None)
    } else {
        let (tx, rx) = sync_channel::<ForGpu>(a.gpu_batch as usize * 2);
        (Some(tx), Some(Mutex::new(rx)))
    };
    let progress = Progress::new(a.seconds);
    std::thread::scope(|sc| {
        if let Some(rx) = &rx {
            for g in &gpus {
                let (r, sh) = (&r, &sh);
                spawn_guarded(
                    sc,
                    sh,
                    format!("GPU {}", g.ordinal()),
                    move || gpu::gpu_loop(r, sh, g.as_ref(), rx),
                    move || {
                        if sh.gpus_alive.fetch_sub(1, Ordering::Relaxed) == 1 {
                            sh.gpu_off.store(true, Ordering::Relaxed);
                        }
                    },
                );
            }
        }
        for lane in &lanes {
            let (r, sh) = (&r, &sh);
            spawn_guarded(
                sc,
                sh,
                "external engine".to_string(),
                move || external::ext_loop(r, sh, lane),
                || {},
            );
        }
        for job in 0..a.jobs as usize {
            let (r, sh, lanes) = (&r, &sh, &lanes);
            let tx = tx.clone();
            spawn_guarded(
                sc,
                sh,
                format!("job {job}"),
                move || worker(r, job, sh, tx, lanes),
                move || {
                    sh.workers_alive.fetch_sub(1, Ordering::Relaxed);
                },
            );
        }
        drop(tx);
        let mut last = (Instant::now(), 0u64);
        let mut last_dev = [0u64; MAX_DEVICES];
        while !r.over()
            && !sh.stop.load(Ordering::Relaxed)
            && sh.workers_alive.load(Ordering::Relaxed) > 0
        {
            std::thread::sleep(Duration::from_millis(250));
            let dt = last.0.elapsed().as_secs_f64();
            if dt >= 1.0 {
                let execs = sh.execs.load(Ordering::Relaxed);
                let rate = (execs - last.1) as f64 / dt;
                let gpu_rates: Vec<f64> = gpus
                    .iter()
                    .map(|g| {
                        let i = g.ordinal().min(MAX_DEVICES - 1);
                        let now = sh.per_device[i].load(Ordering::Relaxed);
                        let r = (now - last_dev[i]) as f64 / dt;
                        last_dev[i] = now;
                        r
                    })
                    .collect();
                progress.update(
                    r.start.elapsed().as_secs(),
                    &progress_line(&sh, &gpus, &lanes, rate, &gpu_rates),
                );
                last = (Instant::now(), execs);
            }
        }
        // The run is over: the threads finish what they hold (bounded
        // reductions and narrowing). One that is still busy long after has
        // hung in a call that does not return; it is left behind.
        let stuck_after = Duration::from_secs(a.stuck_after_s);
        let stuck_at = Instant::now() + stuck_after;
        while sh.busy.load(Ordering::Relaxed) > 0 && Instant::now() < stuck_at {
            std::thread::sleep(Duration::from_millis(100));
        }
        let left = sh.busy.load(Ordering::Relaxed);
        if left > 0 {
            progress.finish();
            summary(&r, &sh, &gpus, &lanes);
            errln!(
                "warpdiff fuzz: {left} thread(s) still busy {} s after the run was over (a GPU or engine call that does not return); exiting without waiting for them (the counts above may miss their last cases)",
                stuck_after.as_secs()
            );
            std::process::exit(exit_status(&sh).into());
        }
    });
    progress.finish();
    summary(&r, &sh, &gpus, &lanes);
    exit_status(&sh)
}

/// The exit status of a run: 1 if a divergence was found, else 2 if a
/// thread of the run failed (an internal error), else 0.
fn exit_status(sh: &Shared) -> u8 {
    if sh.divergences.load(Ordering::Relaxed) > 0 {
        1
    } else if sh.internal_errors.load(Ordering::Relaxed) > 0 {
        2
    } else {
        0
    }
}

/// The blind-spot report: per context, the forms no usable case executed
/// there (the first few named).
fn blind_spots(stats: &Stats) {
    const NAMED: usize = 8;
    let spots = stats.blind_spots();
    let all = warp_core::gen::all_forms().len();
    let counts: Vec<String> = spots
        .iter()
        .map(|(c, never)| format!("{c} {}", never.len()))
        .collect();
    outln!(
        "blind spots (of {all} forms, never executed): {}",
        counts.join(", ")
    );
    for (c, never) in spots.iter().filter(|(_, n)| !n.is_empty()) {
        let more = never.len().saturating_sub(NAMED);
        outln!(
            "  never {c}: {}{}",
            never[..never.len().min(NAMED)].join(", "),
            if more > 0 {
                format!(" and {more} more")
            } else {
                String::new()
            }
        );
    }
}

/// The summary after the run: the generator's coverage table, the counts,
/// divergences by engine and form, skips by reason, the GPU's figures.
fn summary(r: &Run, sh: &Shared, gpus: &[Arc<dyn Device>], lanes: &[Lane]) {
    let secs = r.start.elapsed().as_secs_f64();
    let stats = sh.stats.lock().unwrap_or_else(|p| p.into_inner());
    let execs = sh.execs.load(Ordering::Relaxed);
    outln!("\n{stats}");
    let missing = stats.missing_forms();
    let all = warp_core::gen::all_forms().len();
    outln!(
        "{execs} cases in {secs:.1} s ({:.0} execs/s); usable {:.2}%; UB {}; rejected {}; divergences {} (engine failures {}); forms generated {}/{all}{}",
        execs as f64 / secs,
        100.0 * stats.usable_share(),
        sh.ub.load(Ordering::Relaxed),
        sh.rejected.load(Ordering::Relaxed),
        sh.divergences.load(Ordering::Relaxed),
        sh.engine_failures.load(Ordering::Relaxed),
        all - missing.len(),
        if missing.is_empty() {
            String::new()
        } else {
            format!(" (missing: {})", missing.join(", "))
        }
    );
    blind_spots(&stats);
    outln!(
        "cases digest {:016x} (seed {:#x}; the same seed and --cases give the same digest)",
        sh.digest.load(Ordering::Relaxed),
        r.seed
    );
    let distinct = sh.distinct.lock().unwrap_or_else(|p| p.into_inner());
    if !distinct.is_empty() {
        outln!(
            "distinct findings reduced: {} (by known idiom, else engine, class and form): {}",
            distinct.len(),
            distinct
                .iter()
                .map(|(k, n)| format!("{k} {n}"))
                .collect::<Vec<_>>()
                .join(", ")
        );
    }
    let per_form = sh.per_form.lock().unwrap_or_else(|p| p.into_inner());
    if !per_form.is_empty() {
        outln!(
            "divergences by engine and form (the first {REDUCE_PER_FORM} of each reduced into the corpus): {}",
            per_form
                .iter()
                .map(|(k, n)| format!("{k} {n}"))
                .collect::<Vec<_>>()
                .join(", ")
        );
    }
    let helpers = warp_jit::outline::stats();
    if helpers.hits + helpers.misses + helpers.inlined > 0 {
        outln!(
            "JIT helpers (fast-compile tier): {} instruction shapes compiled, {} call sites served from the cache, {} lowered inline (cache full)",
            helpers.misses,
            helpers.hits,
            helpers.inlined
        );
    }
    let skipped = sh.skipped.lock().unwrap_or_else(|p| p.into_inner());
    if skipped.is_empty() {
        outln!("skipped (cannot run here): none");
    } else {
        for (reason, n) in skipped.iter() {
            outln!("skipped (cannot run here) {n}: {reason}");
        }
    }
    for lane in lanes {
        outln!("{}", lane_summary(lane, secs));
    }
    if let Some(g) = gpus.first() {
        let t = sh.gpu_timing.lock().unwrap_or_else(|p| p.into_inner());
        for d in gpus {
            outln!(
                "GPU {} ({}): {} cases checked{}",
                d.ordinal(),
                d.description(),
                sh.per_device[d.ordinal().min(MAX_DEVICES - 1)].load(Ordering::Relaxed),
                if d.is_dead() {
                    ", then switched off"
                } else {
                    ""
                }
            );
        }
        outln!(
            "GPU {}: {} cases checked ({} agree), {} modules, {} kernels; emit {:.1} s (summed over threads), emit+compile {:.1} s, launch {:.1} s, wait {:.1} s, read back {:.1} s",
            g.description(),
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
    }
}

/// An external engine's line of the summary: cases, requests, jobs per
/// request, failures.
fn lane_summary(lane: &Lane, secs: f64) -> String {
    let e = &lane.engine;
    let c = e.counters();
    let requests = lane.requests.load(Ordering::Relaxed);
    let checked = lane.checked.load(Ordering::Relaxed);
    format!(
        "{} {} (external): {checked} cases checked ({} agree), {:.1} cases/s; {requests} requests of the fuzz loop, {:.1} jobs per request, and {} more for narrowing and reducing; {:.1} s waiting for answers; {} requests failed as a whole, {} restarts{}{}",
        e.name(),
        e.version(),
        lane.agreed.load(Ordering::Relaxed),
        checked as f64 / secs.max(1e-9),
        lane.jobs.load(Ordering::Relaxed) as f64 / requests.max(1) as f64,
        c.requests.load(Ordering::Relaxed).saturating_sub(requests),
        c.busy_us.load(Ordering::Relaxed) as f64 / 1e6,
        c.failed_requests.load(Ordering::Relaxed),
        c.restarts.load(Ordering::Relaxed),
        match lane.passed_by.load(Ordering::Relaxed) {
            0 => String::new(),
            n => format!("; {n} cases passed it by (off or busy with a failure)"),
        },
        match e.off() {
            Some(why) => format!("; switched off: {why}"),
            None => String::new(),
        }
    )
}

/// Takes the next batch, of at most `max` items, from a queue that batching
/// threads share: waits for a first item (looking every 100 ms whether the
/// run is over or stopping), then takes what arrives within 20 ms more.
/// `None` when the run is over or stopping, or every sender is gone and
/// the queue is empty. The lock is held while one batch fills.
pub fn take_batch<T>(r: &Run, sh: &Shared, rx: &Mutex<Receiver<T>>, max: usize) -> Option<Vec<T>> {
    loop {
        if r.over() || (sh.stop.load(Ordering::Relaxed) && !r.args.keep_going) {
            return None;
        }
        let rx = rx.lock().unwrap_or_else(|p| p.into_inner());
        let first = match rx.recv_timeout(Duration::from_millis(100)) {
            Ok(x) => x,
            Err(RecvTimeoutError::Timeout) => continue,
            Err(RecvTimeoutError::Disconnected) => return None,
        };
        let mut batch = vec![first];
        let t = Instant::now();
        let fill = Duration::from_millis(r.args.batch_fill_ms);
        while batch.len() < max {
            match rx.recv_timeout(fill.saturating_sub(t.elapsed())) {
                Ok(x) => batch.push(x),
                Err(_) => break,
            }
        }
        return Some(batch);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_panicking_thread_is_caught_counted_and_named() {
        let sh = Shared::default();
        sh.busy.store(1, Ordering::Relaxed);
        let mut gave_back = false;
        guarded(
            &sh,
            "job 3",
            || panic!("boom at case 17"),
            || gave_back = true,
        );
        assert!(gave_back, "on_panic ran");
        assert_eq!(sh.busy.load(Ordering::Relaxed), 0, "no longer busy");
        assert_eq!(sh.internal_errors.load(Ordering::Relaxed), 1);
        assert_eq!(exit_status(&sh), 2, "an internal error is exit status 2");
        let found = sh.found.lock().unwrap();
        assert_eq!(
            found.as_slice(),
            ["internal error: the job 3 thread panicked (boom at case 17); it stopped, the rest of the run went on"]
        );
    }

    #[test]
    fn a_thread_that_returns_is_not_an_error() {
        let sh = Shared::default();
        sh.busy.store(1, Ordering::Relaxed);
        guarded(&sh, "job 0", || {}, || unreachable!("no panic"));
        assert_eq!(sh.busy.load(Ordering::Relaxed), 0);
        assert_eq!(exit_status(&sh), 0);
    }
}
