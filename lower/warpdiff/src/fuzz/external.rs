//! The external engines' side of `warpdiff fuzz`: per engine, a queue
//! ([`Lane`]) that the CPU workers fill with the cases the reference (and
//! the other CPU engines) ran, and one thread that takes them in batches
//! of up to `--ext-batch` and sends each batch as one request.
//!
//! - A value divergence, or a job the engine says it failed on, is
//!   reduced and recorded like a CPU engine's (the reducer runs the
//!   engine one job per request).
//! - A request that fails as a whole (the child exited, hung or wrote
//!   garbage, or refused it) is printed as it happened; the first such
//!   failure of each engine is narrowed down by halving the batch, each
//!   half one request, until one job fails alone, which is then reduced
//!   and recorded as `engine-failed` (a batch no part of which fails again
//!   is saved and counted). Later ones are counted. After [`OFF_AFTER`]
//!   requests in a row failed as a whole, the engine is off for the rest
//!   of the run, and the CPU engines go on.
//!
//! Workers wait while an engine's queue is full, so a run goes at the pace
//! of its slowest engine, but never past the run's end, and never while
//! the engine's thread narrows a failure down (they pass the engine by
//! meanwhile). Requests still out at the run's end are abandoned.

use crate::engines::external::{External, JobResult};
use crate::errln;
use crate::fuzz::case;
use crate::fuzz::run::{count_finding, report, take_batch, Run, Shared};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::mpsc::{sync_channel, Receiver, SyncSender, TrySendError};
use std::sync::Mutex;
use std::time::{Duration, Instant};
use warp_core::engine::Engine;
use warp_core::gen::TestCase;
use warp_core::oracle::{diverges, Disagreement, Divergence, ENGINE_FAILED};
use warp_core::outcome::Outcome;
use warp_gpu::emit::Job;

/// Requests in a row that fail as a whole after which an engine is off
/// for the rest of the run.
pub const OFF_AFTER: u32 = 3;

/// Request failures of one engine that are narrowed down and reduced;
/// later ones are counted.
pub const NARROWED_PER_ENGINE: u64 = 1;

/// A case for an external engine, with where it came from.
pub struct ForExt {
    /// The program and its inputs.
    pub case: TestCase,
    /// The reference's run of it (no UB).
    pub reference: Outcome,
    /// The worker that made it.
    pub job: usize,
    /// Its case seed.
    pub case_seed: u64,
}

/// One external engine in a run: its queue and its figures.
pub struct Lane {
    /// The engine.
    pub engine: External,
    tx: SyncSender<ForExt>,
    rx: Mutex<Receiver<ForExt>>,
    /// Cases it ran (answered with outputs or a job error).
    pub checked: AtomicU64,
    /// Of those, the ones that agreed with the reference.
    pub agreed: AtomicU64,
    /// Requests of the fuzz loop's batches (the reducer's come on top).
    pub requests: AtomicU64,
    /// Jobs in those requests.
    pub jobs: AtomicU64,
    /// Cases not offered to it: it was off, or busy narrowing a failure.
    pub passed_by: AtomicU64,
    /// Batches whose request failed as a whole.
    pub batch_failures: AtomicU64,
    /// Set while its thread narrows or reduces a failure.
    busy: AtomicBool,
}

impl Lane {
    /// A lane whose queue holds one batch of `batch` (the next, while
    /// one is out).
    pub fn new(engine: External, batch: usize) -> Lane {
        let (tx, rx) = sync_channel(batch);
        Lane {
            engine,
            tx,
            rx: Mutex::new(rx),
            checked: AtomicU64::new(0),
            requests: AtomicU64::new(0),
            jobs: AtomicU64::new(0),
            agreed: AtomicU64::new(0),
            passed_by: AtomicU64::new(0),
            batch_failures: AtomicU64::new(0),
            busy: AtomicBool::new(false),
        }
    }

    /// Offers a case: waits while the queue is full, but not past the
    /// run's end or a stop, and not at all while the engine is off or
    /// busy with a failure.
    pub fn offer(&self, r: &Run, sh: &Shared, mut item: ForExt) {
        loop {
            if r.over() || sh.stop.load(Ordering::Relaxed) {
                return;
            }
            if self.engine.off().is_some() || self.busy.load(Ordering::Relaxed) {
                self.passed_by.fetch_add(1, Ordering::Relaxed);
                return;
            }
            match self.tx.try_send(item) {
                Ok(()) => return,
                Err(TrySendError::Disconnected(_)) => return,
                Err(TrySendError::Full(back)) => {
                    item = back;
                    std::thread::sleep(Duration::from_millis(1));
                }
            }
        }
    }
}

/// The next batch from the lane's queue: `None` once the run is over or
/// stopping.
fn next_batch(r: &Run, sh: &Shared, lane: &Lane) -> Option<Vec<ForExt>> {
    take_batch(r, sh, &lane.rx, r.args.ext_batch as usize, None)
}

/// An engine failure of `engine` with message `m`, as a divergence.
fn failed(engine: &'static str, m: String) -> Box<Divergence> {
    Box::new(Divergence {
        engine,
        what: Disagreement::EngineFailed(m),
        form: ENGINE_FAILED.to_string(),
    })
}

/// The thread of one external engine.
pub fn ext_loop(r: &Run, sh: &Shared, lane: &Lane) {
    let all_owned = r.all_engines();
    let all: Vec<&dyn Engine> = all_owned.iter().map(|e| e.as_ref()).collect();
    let name = lane.engine.name();
    let stopped = || sh.stop.load(Ordering::Relaxed) && !r.args.keep_going;
    let mut in_row = 0u32;
    while let Some(batch) = next_batch(r, sh, lane) {
        let jobs: Vec<Job> = batch
            .iter()
            .map(|b| Job {
                program: &b.case.program,
                inputs: &b.case.inputs,
            })
            .collect();
        let run = lane.engine.run_batch(&jobs, Some(r.end()));
        lane.requests
            .fetch_add(run.requests as u64, Ordering::Relaxed);
        lane.jobs.fetch_add(jobs.len() as u64, Ordering::Relaxed);
        let mut request_failed: Vec<&ForExt> = Vec::new();
        let mut why = None;
        let mut answered = false;
        for (b, res) in batch.iter().zip(run.results) {
            match res {
                JobResult::Ran(out) => {
                    answered = true;
                    lane.checked.fetch_add(1, Ordering::Relaxed);
                    match diverges(name, &b.case.program, &b.reference, &out) {
                        None => {
                            lane.agreed.fetch_add(1, Ordering::Relaxed);
                        }
                        Some(d) if !stopped() => {
                            report(r, sh, b.job, b.case_seed, &b.case, d, &all, None);
                        }
                        Some(_) => {}
                    }
                }
                JobResult::Failed(m) => {
                    answered = true;
                    lane.checked.fetch_add(1, Ordering::Relaxed);
                    if !stopped() {
                        report(
                            r,
                            sh,
                            b.job,
                            b.case_seed,
                            &b.case,
                            failed(name, m),
                            &all,
                            None,
                        );
                    }
                }
                JobResult::Skipped(s) => sh.skip(name, &s.reason),
                JobResult::RequestFailed(m) => {
                    request_failed.push(b);
                    why = Some(m);
                }
                JobResult::CutOff => {
                    sh.skip(name, "not checked (the run ended during its request)")
                }
            }
        }
        if answered {
            in_row = 0;
        }
        if let Some(why) = why {
            in_row += 1;
            errln!("warpdiff fuzz: {why}");
            if !stopped() {
                lane.busy.store(true, Ordering::Relaxed);
                after_request_failure(r, sh, lane, &request_failed, &why, &all);
                lane.busy.store(false, Ordering::Relaxed);
            }
            if in_row >= OFF_AFTER && lane.engine.off().is_none() {
                lane.engine
                    .switch_off(format!("{OFF_AFTER} requests in a row failed as a whole"));
            }
        }
        if let Some(off) = lane.engine.off() {
            errln!(
                "warpdiff fuzz: external engine {name} is off for the rest of the run ({off}); the other engines go on"
            );
            break;
        }
    }
    // Cases left in the queue were never checked: say so.
    let rx = lane.rx.lock().unwrap_or_else(|p| p.into_inner());
    while rx.try_recv().is_ok() {
        sh.skip(name, "not checked (left in its queue at the end)");
    }
}

/// A request failed as a whole: the first time, narrow the batch down to
/// a job that fails alone and report that; later, count it.
fn after_request_failure(
    r: &Run,
    sh: &Shared,
    lane: &Lane,
    batch: &[&ForExt],
    why: &str,
    all: &[&dyn Engine],
) {
    let name = lane.engine.name();
    let seen = lane.batch_failures.fetch_add(1, Ordering::Relaxed) + 1;
    if seen > NARROWED_PER_ENGINE {
        count_finding(r, sh, name, ENGINE_FAILED);
        return;
    }
    let t = Instant::now();
    let until = r.narrow_until();
    match narrow(lane, batch, why, until) {
        Some((i, m)) => {
            let b = batch[i];
            if batch.len() > 1 {
                sh.found(format!(
                    "{name}: of the failed request's {} jobs, job {i} fails alone (found in {:.1} s by halving, one request per half)",
                    batch.len(),
                    t.elapsed().as_secs_f64()
                ));
            }
            report(
                r,
                sh,
                b.job,
                b.case_seed,
                &b.case,
                failed(name, m),
                all,
                None,
            );
        }
        None => {
            count_finding(r, sh, name, ENGINE_FAILED);
            let saved = save_batch(batch);
            sh.found(format!(
                "{name}: a request of {} jobs failed, but no part of it failed again on its own (asked for {:.1} s); {saved}",
                batch.len(),
                t.elapsed().as_secs_f64()
            ));
        }
    }
}

/// Halves `batch` (one request per half) down to one job whose request
/// fails alone: its index and the failure's message; `None` when neither
/// half fails or the time is up.
fn narrow(lane: &Lane, batch: &[&ForExt], why: &str, until: Instant) -> Option<(usize, String)> {
    let fails = |idx: &[usize]| -> Option<String> {
        let jobs: Vec<Job> = idx
            .iter()
            .map(|&i| Job {
                program: &batch[i].case.program,
                inputs: &batch[i].case.inputs,
            })
            .collect();
        lane.engine
            .run_batch(&jobs, Some(until))
            .results
            .into_iter()
            .find_map(|res| match res {
                JobResult::RequestFailed(m) => Some(m.to_string()),
                JobResult::Ran(_)
                | JobResult::Skipped(_)
                | JobResult::Failed(_)
                | JobResult::CutOff => None,
            })
    };
    let mut cur: Vec<usize> = (0..batch.len()).collect();
    let mut msg = why.to_string();
    while cur.len() > 1 {
        if Instant::now() >= until {
            return None;
        }
        let (a, b) = cur.split_at(cur.len() / 2);
        let (a, b) = (a.to_vec(), b.to_vec());
        if let Some(m) = fails(&a) {
            (cur, msg) = (a, m);
        } else if let Some(m) = fails(&b) {
            (cur, msg) = (b, m);
        } else {
            return None;
        }
    }
    cur.first().map(|&i| (i, msg))
}

/// Saves the cases of a failed request that could not be narrowed down,
/// and says where.
fn save_batch(batch: &[&ForExt]) -> String {
    let dir = std::env::temp_dir().join(format!(
        "warpdiff-ext-failed-batch-{}-{}",
        std::process::id(),
        case::now_utc().replace([' ', ':'], "-")
    ));
    if let Err(e) = std::fs::create_dir_all(&dir) {
        return format!("could not save the batch: {}: {e}", dir.display());
    }
    for (i, b) in batch.iter().enumerate() {
        let text = warp_core::text::print(&b.case.to_case());
        let path = dir.join(format!("case-{i:05}-seed-{:016x}.ptx", b.case_seed));
        if let Err(e) = std::fs::write(&path, text) {
            return format!("could not save the batch: {}: {e}", path.display());
        }
    }
    format!("its {} cases are in {}", batch.len(), dir.display())
}
