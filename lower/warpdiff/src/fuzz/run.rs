//! What the parts of `warpdiff fuzz` share: the run's settings
//! ([`Run`]), the counters and findings every thread adds to ([`Shared`]),
//! reporting a divergence (reduced, triaged and recorded: [`report`]),
//! taking a batch from a queue ([`take_batch`]), and the limits: devices,
//! divergences reduced per form, how long narrowing a failure may take.

use crate::cli::FuzzArgs;
use crate::engines::EngineSet;
use crate::fuzz::batch_file::{batch_text, write_batch};
use crate::fuzz::case;
use crate::fuzz::levels::Class;
use crate::fuzz::retry::{retry, AsRan, On, Retries};
use crate::outln;
use std::collections::{BTreeMap, VecDeque};
use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, AtomicU64, AtomicUsize, Ordering};
use std::sync::mpsc::{Receiver, RecvTimeoutError};
use std::sync::Mutex;
use std::time::{Duration, Instant};
use warp_core::engine::Engine;
use warp_core::gen::{Stats, TestCase};
use warp_core::oracle::{Divergence, ENGINE_FAILED};
use warp_gpu::device::Timing;

/// The most GPUs a fuzzing run spreads over.
pub const MAX_DEVICES: usize = 16;

/// With --keep-going, divergences of one engine on one form that are
/// reduced and recorded; later ones are only counted.
pub const REDUCE_PER_FORM: u64 = 3;

/// A batch that hung or faulted on a GPU: its cases (each with the job
/// and case seed that made it) and what happened.
pub type FailedBatch = (Vec<(TestCase, usize, u64)>, String);

/// How many failed batches may wait to be narrowed down while another is
/// (a 10-minute default-level run on an H200 had 20 hangs and faults; one
/// narrowing takes 20 to 80 s, most of it reducing the culprit).
pub const NARROW_QUEUE: usize = 16;

/// How long narrowing a GPU failure down may take at most.
pub const NARROW_BUDGET: Duration = Duration::from_secs(120);

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

    /// Until when narrowing or reducing a failure that starts now may go
    /// on: [`NARROW_BUDGET`], and never more than `--narrow-grace-s` past
    /// the run's end.
    pub fn narrow_until(&self) -> Instant {
        let now = Instant::now();
        (now + NARROW_BUDGET).min(self.end().max(now) + self.narrow_grace())
    }

    /// How long past the run's end narrowing or reducing may go on:
    /// `--narrow-grace-s`, else a tenth of the run, 2 to 30 s (a one-minute
    /// run ended 30 s late when a narrowing was in flight at its end).
    pub fn narrow_grace(&self) -> Duration {
        Duration::from_secs(
            self.args
                .narrow_grace_s
                .unwrap_or((self.args.seconds / 10).clamp(2, 30)),
        )
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
    /// The names of the threads counted in `busy` (`GPU 0 thread 1`,
    /// `job 3`, `the known-bug lane`...), for the message about threads
    /// still busy after the run.
    pub busy_names: Mutex<Vec<String>>,
    /// Threads that panicked (each caught and reported).
    pub internal_errors: AtomicU64,
    /// Programs checked on a GPU (each once, whatever its input sets).
    pub gpu_programs: AtomicU64,
    /// Programs checked per GPU (by ordinal).
    pub programs_per_device: [AtomicU64; MAX_DEVICES],
    /// Programs checked on the GPUs in each minute of the run.
    pub per_minute: Mutex<Vec<u64>>,
    /// GPUs switched off (by ordinal): set once.
    pub device_off: [AtomicBool; MAX_DEVICES],
    /// Batches that hung on a GPU (the GPU went on when it could).
    pub gpu_hangs: AtomicU64,
    /// Batches that faulted on a GPU (likewise).
    pub gpu_faults: AtomicU64,
    /// Set while a thread narrows GPU failures down (one at a time, from
    /// [`Shared::narrow_queue`]).
    pub narrowing: AtomicBool,
    /// GPU failures waiting to be narrowed down: each a failed batch's
    /// cases (case, job, case seed) and what happened. At most
    /// [`NARROW_QUEUE`]; one more is saved un-narrowed.
    pub narrow_queue: Mutex<VecDeque<FailedBatch>>,
    /// Time spent narrowing GPU failures down, in microseconds.
    pub narrow_us: AtomicU64,
    /// Programs the CPU workers generated.
    pub programs: AtomicU64,
    /// Input sets the CPU workers ran (each a program on one input set).
    pub input_sets: AtomicU64,
    /// Of those, the ones whose reference run met undefined behaviour (not
    /// compared).
    pub ub_sets: AtomicU64,
    /// Of those, the ones the reference could not finish (not compared).
    pub refused_sets: AtomicU64,
    /// The corpus files reduced findings were written to (or found in).
    pub written: Mutex<Vec<PathBuf>>,
    /// Microseconds CPU workers waited for room in the GPU queue (summed):
    /// the GPU side was the slower one.
    pub offer_wait_us: AtomicU64,
    /// Microseconds GPU threads waited for a first case (summed): the CPU
    /// side was the slower one.
    pub batch_wait_us: AtomicU64,
    /// Hits of known compiler bugs, by "idiom: what it did" (counted, not
    /// reduced).
    pub known: Mutex<BTreeMap<String, u64>>,
    /// GPU results from schedules the observed convergence model does not
    /// predict and the ISA allows ([`crate::fuzz::schedule`]): counted,
    /// not divergences.
    pub schedules: AtomicU64,
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

    /// Counts a hit of the known bug `idiom` that did `what` (a wrong
    /// value, a hang, a fault).
    pub fn count_known(&self, idiom: &str, what: &str) {
        *self
            .known
            .lock()
            .unwrap_or_else(|p| p.into_inner())
            .entry(format!("{idiom}: {what}"))
            .or_default() += 1;
    }

    /// Counts a program checked on a GPU in `minute` of the run.
    pub fn count_minute(&self, minute: usize) {
        let mut m = self.per_minute.lock().unwrap_or_else(|p| p.into_inner());
        if m.len() <= minute {
            m.resize(minute + 1, 0);
        }
        m[minute] += 1;
    }

    /// Every known-bug hit so far.
    pub fn known_hits(&self) -> u64 {
        self.known
            .lock()
            .unwrap_or_else(|p| p.into_inner())
            .values()
            .sum()
    }

    /// Keeps `path` as a file a finding was written to; returns `msg`.
    pub fn wrote(&self, path: &std::path::Path, msg: String) -> String {
        self.written
            .lock()
            .unwrap_or_else(|p| p.into_inner())
            .push(path.to_path_buf());
        msg
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
/// `batch` is the GPU batch it diverged in (a GPU value divergence), which
/// is kept and run again when the level sweep cannot explain the case
/// ([`crate::fuzz::retry`]).
#[allow(clippy::too_many_arguments)]
pub fn report(
    r: &Run,
    sh: &Shared,
    job: usize,
    case_seed: u64,
    tc: &TestCase,
    d: Box<Divergence>,
    others: &[&dyn Engine],
    batch: Option<&AsRan>,
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
    let until = r.narrow_until();
    let (small, secs) =
        case::reduce_until(tc, &d, others, case_seed, Some(until), &r.args.avoided());
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
    // Past the run's end and its grace, a level sweep (five more compiles
    // and runs, each up to the GPU's deadline) would hold the summary up:
    // the case is written unclassified.
    let sweep = Instant::now() < r.end() + r.narrow_grace();
    let found = Found {
        job,
        case_seed,
        batch,
    };
    let (key, kept) = triage(r, &small, &d2, sweep, &found, &mut notes);
    *sh.distinct
        .lock()
        .unwrap_or_else(|p| p.into_inner())
        .entry(key)
        .or_default() += 1;
    let kept = kept.map_or(String::new(), |k| format!("; {k}"));
    // A case already in the corpus keeps its header: what the retries of
    // this finding said goes into its line instead of being lost.
    let retried: Vec<String> = notes
        .iter()
        .filter(|n| n.starts_with("retry: ") || (!kept.is_empty() && n.starts_with("class: ")))
        .cloned()
        .collect();
    let msg = match case::record(&r.corpus, &small, &d2, notes) {
        Ok(w) => sh.wrote(w.path(), format!(
            "divergence: {} on {} after {found_after:.1} s; reduced {} -> {} instructions in {secs:.2} s; {} {}{kept}{}",
            d2.engine,
            d2.form,
            tc.program.insts.len(),
            small.program.insts.len(),
            match w {
                warp_core::corpus::Written::New(_) => "wrote",
                warp_core::corpus::Written::Exists(_) => "already in corpus:",
            },
            w.path().display(),
            match w {
                warp_core::corpus::Written::Exists(_) if !retried.is_empty() => {
                    format!("; this time: {}", retried.join("; "))
                }
                warp_core::corpus::Written::New(_) | warp_core::corpus::Written::Exists(_) => {
                    String::new()
                }
            }
        )),
        Err(e) => format!(
            "divergence: {} on {}; could not write it: {e}{kept}",
            d2.engine, d2.form
        ),
    };
    sh.found(msg);
}

/// Where a divergence was found: what the retries of a GPU divergence
/// need.
struct Found<'a> {
    job: usize,
    case_seed: u64,
    batch: Option<&'a AsRan>,
}

/// What a reduced divergence is: for the GPU, its class by optimisation
/// level ([`crate::fuzz::levels`]; only when `sweep`: not once the run is
/// over), and, when that is `unknown`, its batch kept next to it and the
/// retries ([`crate::fuzz::retry`]); the idioms of known compiler bugs it
/// shows ([`warp_core::idioms`]). Adds them to `notes`; returns the key it
/// counts under among distinct findings, and where its batch was kept
/// (for the finding's line).
fn triage(
    r: &Run,
    small: &TestCase,
    d: &Divergence,
    sweep: bool,
    found: &Found,
    notes: &mut Vec<String>,
) -> (String, Option<String>) {
    let mut class = String::new();
    let mut kept = None;
    // The hardware, or the simulated GPU of a fault-injection build (whose
    // devices the sweep opens the same way).
    let gpu_finding = d.engine == "gpu";
    if gpu_finding && !sweep {
        notes.push(
            "class: not classified (found as the run ended: no level sweep; `warpdiff repro --gpu-sweep` classifies it)"
                .to_string(),
        );
    }
    if gpu_finding && sweep {
        // In the model the GPU is compared in (the spec one when its
        // schedule is perturbed).
        let gpu = warp_gpu::engine::GpuEngine;
        let reference =
            warp_core::oracle::reference_interp(&small.program, &[&gpu], case::FUZZ_FUEL)
                .run(&small.inputs);
        if let Ok(reference) = reference {
            let base = warp_gpu::engine::config();
            let (c, per) = crate::fuzz::levels::sweep(small, &reference, base);
            let c = match c {
                Class::Unknown(why) => {
                    if let Some(b) = found.batch {
                        let (line, msg) = keep_batch(r, small, d, found, b);
                        notes.push(line);
                        kept = Some(msg);
                    }
                    // The run's compile threads per GPU: its batches' modules.
                    let per_gpu =
                        base.compile_threads / warp_gpu::engine::gpus(usize::MAX).len().max(1);
                    let counts = Retries {
                        reruns: r.args.gpu_batch_reruns,
                        seeds: r.args.gpu_dirty_retries,
                    };
                    let on = On {
                        base,
                        per_gpu,
                        until: r.end() + r.narrow_grace(),
                    };
                    let attempts =
                        retry(found.batch, small, &reference, found.case_seed, counts, on);
                    let c = attempts.class(&why);
                    notes.push(c.header(&per));
                    notes
                        .extend(attempts.lines(base.opt_level, found.batch.map(|b| b.cases.len())));
                    c
                }
                c => {
                    notes.push(c.header(&per));
                    c
                }
            };
            class = format!("{} ", c.name());
        }
    }
    let known = warp_core::idioms::idioms_in_case(&small.program, &small.inputs);
    for i in &known {
        notes.push(format!(
            "known idiom: {} (warp_core::idioms; `warpdiff fuzz --avoid {}` keeps it out)",
            i.name(),
            i.name()
        ));
    }
    let key = match known.first() {
        Some(i) => format!("known idiom {}", i.name()),
        None => format!("{} {class}on {}", d.engine, d.form),
    };
    (key, kept)
}

/// Writes the batch `b` that `small` (divergence `d`) was found in next to
/// where the finding is written: `<form>-<hash>.batch.txt`
/// ([`crate::fuzz::batch_file`]). Returns the finding's header line and
/// the finding's message about it.
fn keep_batch(
    r: &Run,
    small: &TestCase,
    d: &Divergence,
    found: &Found,
    b: &AsRan,
) -> (String, String) {
    let name = warp_core::corpus::case_name(&d.form, &warp_core::text::print(&small.to_case()));
    let stem = name.strip_suffix(".ptx").unwrap_or(&name);
    let config = warp_gpu::engine::config();
    let level = config
        .opt_level
        .map_or("default".to_string(), |o| o.to_string());
    // The run's register fill, when it had one.
    let dirty = config
        .dirty
        .map_or(String::new(), |seed| format!(" --gpu-dirty {seed:#x}"));
    let mut notes = vec![
        format!(
            "Found by `warpdiff fuzz --seed {:#x}` (job {}, case seed {:#x}) at {}; the finding is {name} (case {} here is its program as found, before any reduction).",
            r.seed,
            found.job,
            found.case_seed,
            case::now_utc(),
            b.diverged
        ),
        format!("Replay: `warpdiff diff --gpu-batch-file FILE --gpu-opt-level {level}{dirty}` (add `--gpu-helpers` for the run's compile helpers and runner process)."),
    ];
    notes.extend(r.engines.notes("gpu"));
    let text = batch_text(&b.test_cases(), b.diverged, &notes);
    match write_batch(&r.corpus, stem, &text) {
        Ok(p) => {
            let file = p.file_name().map_or(p.display().to_string(), |f| {
                f.to_string_lossy().into_owned()
            });
            (
                format!(
                    "batch: the {} cases it diverged in are kept in {file} (case {} diverged); `warpdiff diff --gpu-batch-file {file}` runs them again",
                    b.cases.len(),
                    b.diverged
                ),
                format!("its batch kept in {}", p.display()),
            )
        }
        Err(e) => (
            format!("batch: could not be kept: {e}"),
            format!("its batch could not be kept: {e}"),
        ),
    }
}

/// Takes the next batch, of at most `max` items, from a queue that batching
/// threads share: waits for a first item (looking every 100 ms whether the
/// run is over or stopping), then takes what arrives within 20 ms more.
/// `None` when the run is over or stopping, or every sender is gone and
/// the queue is empty. The lock is held while one batch fills. The time
/// spent waiting for the first item is added to `waited`.
pub fn take_batch<T>(
    r: &Run,
    sh: &Shared,
    rx: &Mutex<Receiver<T>>,
    max: usize,
    waited: Option<&AtomicU64>,
) -> Option<Vec<T>> {
    loop {
        if r.over() || (sh.stop.load(Ordering::Relaxed) && !r.args.keep_going) {
            return None;
        }
        let rx = rx.lock().unwrap_or_else(|p| p.into_inner());
        let waiting = Instant::now();
        let first = rx.recv_timeout(Duration::from_millis(100));
        if let Some(w) = waited {
            w.fetch_add(waiting.elapsed().as_micros() as u64, Ordering::Relaxed);
        }
        let first = match first {
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
