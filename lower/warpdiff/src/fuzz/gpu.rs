//! The GPU side of `warpdiff fuzz`: per device, a few threads take
//! batches of agreeing cases from the shared queue, check them on the GPU,
//! and turn what they see into findings. With the batches in runner
//! processes (the default: [`warp_gpu::remote`]) the threads emit and
//! compile batches side by side while one batch runs, so the compile
//! helpers stay busy.
//!
//! - A value divergence on a program that shows a known compiler bug's
//!   idiom ([`warp_core::idioms`]) is counted under that bug and not
//!   reduced; any other is reduced and recorded like a CPU one.
//! - A case the driver refuses (checked again alone) is an engine failure,
//!   reduced and recorded as `engine-failed`.
//! - A hang or a fault costs its batch: the runner process is replaced and
//!   the GPU goes on. The batch is narrowed down in fresh processes
//!   ([`crate::fuzz::hang`], one narrowing at a time, in the background;
//!   the others wait in a queue of [`NARROW_QUEUE`]): the case that fails
//!   alone is counted under a known bug when it shows one's idiom, else
//!   reduced and recorded with a `gpu-fails:` line, or, when none fails alone, the smallest group that fails
//!   together is recorded as a folder, or, when even the whole batch does
//!   not fail again, the batch is saved and the fact counted. Programs with
//!   the idiom of a known bug that hangs or faults never reach these
//!   batches: they run alone ([`crate::fuzz::known`]). Nothing is dropped
//!   silently.
//! - Only a GPU that cannot run batches any more (no runner starts, or, in
//!   this process with `--gpu-in-process`, after a hang or a fault) is
//!   switched off, with the reason.
//!
//! No thread takes a batch after the run's end, and a batch still running
//! shortly after it is abandoned; narrowing has a deadline of its own, at
//! most `--narrow-grace-s` past the run's end.

use crate::errln;
use crate::fuzz::case;
use crate::fuzz::hang::{self, Prober};
use crate::fuzz::retry::AsRan;
use crate::fuzz::run::{report, take_batch, Run, Shared, MAX_DEVICES, NARROW_QUEUE};
use crate::fuzz::schedule;
use std::sync::atomic::Ordering;
use std::sync::mpsc::Receiver;
use std::sync::Mutex;
use std::time::Instant;
use warp_core::engine::Engine;
use warp_core::gen::TestCase;
use warp_core::oracle::{Disagreement, Divergence, ENGINE_FAILED};
use warp_gpu::batch::{check_batch, Checked, Pending};
use warp_gpu::device::{Device, GpuError};

/// A case for the GPU thread, with where it came from.
pub struct ForGpu {
    /// The case and its reference run.
    pub pending: Pending,
    /// The worker that made it.
    pub job: usize,
    /// Its case seed.
    pub case_seed: u64,
    /// Whether these are the program's own inputs (the first of its input
    /// sets): a program counts as checked once.
    pub first: bool,
}

/// Whether the GPU's divergence `d` on `p` is a schedule the ISA allows
/// ([`crate::fuzz::schedule`]): the spec model leaves every differing bit
/// open, and the case, run again alone on `gpu`, agrees.
fn schedule_allowed(gpu: &dyn Device, p: &Pending, d: &Divergence) -> bool {
    if !schedule::allowed_by_spec_model(&p.case, d) {
        return false;
    }
    match gpu.run_batch(&[p.job()]).pop() {
        Some(Ok(out)) => {
            warp_core::oracle::diverges("gpu", &p.case.program, &p.reference, &out).is_none()
        }
        _ => false,
    }
}

/// Takes the next batch from the queue: `None` when the run is over or
/// stopping, or every worker is gone and the queue is empty.
fn next_batch(r: &Run, sh: &Shared, rx: &Mutex<Receiver<ForGpu>>) -> Option<Vec<ForGpu>> {
    // One thread at a time fills its batch from the shared queue.
    take_batch(
        r,
        sh,
        rx,
        r.args.gpu_batch as usize,
        Some(&sh.batch_wait_us),
    )
}

/// Empties the queue once no device will take from it, counting what was
/// left unchecked.
pub fn drain(sh: &Shared, rx: &Mutex<Receiver<ForGpu>>, why: &str) {
    let rx = rx.lock().unwrap_or_else(|p| p.into_inner());
    while rx.try_recv().is_ok() {
        sh.skip("gpu", why);
    }
}

/// Counts one case checked on `gpu` (and its program, when it is the
/// program's first input set).
pub fn count_checked(r: &Run, sh: &Shared, gpu: &dyn Device, b: &ForGpu, agreed: bool) {
    let d = gpu.ordinal().min(MAX_DEVICES - 1);
    sh.gpu_checked.fetch_add(1, Ordering::Relaxed);
    sh.per_device[d].fetch_add(1, Ordering::Relaxed);
    if agreed {
        sh.gpu_agreed.fetch_add(1, Ordering::Relaxed);
    }
    if b.first {
        sh.gpu_programs.fetch_add(1, Ordering::Relaxed);
        sh.programs_per_device[d].fetch_add(1, Ordering::Relaxed);
        sh.count_minute((r.start.elapsed().as_secs() / 60) as usize);
    }
}

/// Switches `gpu` off for the rest of the run, once, saying why; the
/// workers stop offering cases once every device is off.
fn switch_off(sh: &Shared, gpu: &dyn Device, rx: &Mutex<Receiver<ForGpu>>, why: &str) {
    let d = gpu.ordinal().min(MAX_DEVICES - 1);
    if sh.device_off[d].swap(true, Ordering::Relaxed) {
        return;
    }
    errln!(
        "warpdiff fuzz: {why}; GPU {} is off for the rest of the run",
        gpu.ordinal()
    );
    if sh.gpus_alive.fetch_sub(1, Ordering::Relaxed) == 1 {
        sh.gpu_off.store(true, Ordering::Relaxed);
        drain(sh, rx, "not checked (every GPU was switched off)");
    }
}

/// One of a device's threads (see the module doc).
pub fn gpu_loop(r: &Run, sh: &Shared, gpu: &dyn Device, rx: &Mutex<Receiver<ForGpu>>) {
    let all_owned = r.all_engines();
    let all: Vec<&dyn Engine> = all_owned.iter().map(|e| e.as_ref()).collect();
    // A perturbed GPU is compared in the spec model already.
    let spec = warp_gpu::engine::GpuEngine.spec_convergence();
    let prober = Prober::new(&r.args.gpu, hang::DEADLINE_MS).ending_by(r.end() + r.narrow_grace());
    std::thread::scope(|sc| {
        while let Some(batch) = next_batch(r, sh, rx) {
            if sh.device_off[gpu.ordinal().min(MAX_DEVICES - 1)].load(Ordering::Relaxed) {
                for _ in &batch {
                    sh.skip("gpu", "not checked (its GPU was switched off)");
                }
                break;
            }
            let pending: Vec<Pending> = batch.iter().map(|b| b.pending.clone()).collect();
            let (checked, timing) = check_batch(gpu, &pending);
            sh.gpu_timing
                .lock()
                .unwrap_or_else(|p| p.into_inner())
                .add(&timing);
            let mut refused = Vec::new();
            let mut failed = None;
            for (i, (b, c)) in batch.iter().zip(checked).enumerate() {
                match c {
                    Checked::Agree => count_checked(r, sh, gpu, b, true),
                    Checked::Skipped(reason) => sh.skip("gpu", &reason),
                    Checked::Diverge(d) => {
                        count_checked(r, sh, gpu, b, false);
                        if sh.stop.load(Ordering::Relaxed) && !r.args.keep_going {
                            continue;
                        }
                        // A known compiler bug is counted, not found again.
                        // With the case's inputs: a register given a value
                        // takes away the idioms that need one without.
                        let known = warp_core::idioms::idioms_in_case(
                            &b.pending.case.program,
                            &b.pending.case.inputs,
                        );
                        if let Some(i) = known.first() {
                            sh.count_known(i.name(), "wrong value");
                            continue;
                        }
                        if !spec && schedule_allowed(gpu, &b.pending, &d) {
                            sh.schedules.fetch_add(1, Ordering::Relaxed);
                            continue;
                        }
                        // The batch as it ran, kept and run again if the
                        // case agrees alone (`crate::fuzz::retry`).
                        let as_ran = AsRan::new(batch.iter().map(|b| &b.pending), i);
                        report(
                            r,
                            sh,
                            b.job,
                            b.case_seed,
                            &b.pending.case,
                            d,
                            &all,
                            as_ran.as_ref(),
                        );
                    }
                    Checked::Failed(GpuError::Driver(m)) => refused.push((b, m)),
                    Checked::Failed(GpuError::Abandoned) => {
                        sh.skip("gpu", "not checked (the run ended during its batch)")
                    }
                    Checked::Failed(e) if e.switches_off() => failed = Some(e),
                    Checked::Failed(e) => sh.skip("gpu", &format!("not checked (GPU error): {e}")),
                }
            }
            if !refused.is_empty() {
                driver_refused(r, sh, gpu, &refused, &all);
            }
            if let Some(e) = failed {
                let what = e.to_string();
                match e {
                    GpuError::Hang(_) => sh.gpu_hangs.fetch_add(1, Ordering::Relaxed),
                    _ => sh.gpu_faults.fetch_add(1, Ordering::Relaxed),
                };
                let survives = gpu.survives_failures() && !gpu.is_dead();
                if survives {
                    errln!(
                        "warpdiff fuzz: GPU {}: {what}; the batch of {} cases is narrowed down in the background",
                        gpu.ordinal(),
                        batch.len()
                    );
                } else {
                    switch_off(sh, gpu, rx, &what);
                }
                let cases: Vec<(TestCase, usize, u64)> = batch
                    .iter()
                    .map(|b| (b.pending.case.clone(), b.job, b.case_seed))
                    .collect();
                // One narrowing at a time (each starts fresh processes, and
                // they would compete for the cores the compilers need); the
                // others wait in a queue, and are saved un-narrowed only when
                // it is full.
                let start = {
                    let mut q = sh.narrow_queue.lock().unwrap_or_else(|p| p.into_inner());
                    if q.len() >= NARROW_QUEUE {
                        let saved = save_batch(&cases);
                        sh.found(format!(
                            "gpu hang or fault ({what}): not narrowed ({NARROW_QUEUE} failures were waiting to be); {saved}"
                        ));
                        sh.divergences.fetch_add(1, Ordering::Relaxed);
                        sh.engine_failures.fetch_add(1, Ordering::Relaxed);
                        false
                    } else {
                        q.push_back((cases, what));
                        !sh.narrowing.swap(true, Ordering::Relaxed)
                    }
                };
                if start {
                    let prober = &prober;
                    sc.spawn(move || narrow_queued(r, sh, prober));
                }
                if !survives {
                    break;
                }
            }
            if gpu.is_dead() {
                let why = gpu.why_dead().unwrap_or_else(|| GpuError::Dead.to_string());
                switch_off(sh, gpu, rx, &why);
                break;
            }
        }
    });
    if r.over() {
        drain(sh, rx, "not checked (the run ended before its batch)");
    }
}

/// Cases of a batch the driver refused: each is compiled again alone, in
/// this process (a refusal does not poison the context); one that fails
/// alone is an engine failure of the GPU, reduced and recorded. Each
/// compile takes tens of milliseconds, so a whole refused batch takes
/// many seconds: once the run is over the rest are skipped, so that the
/// run still ends on time.
fn driver_refused(
    r: &Run,
    sh: &Shared,
    gpu: &dyn Device,
    refused: &[(&ForGpu, String)],
    all: &[&dyn Engine],
) {
    for (b, batch_msg) in refused {
        if r.over() {
            sh.skip(
                "gpu",
                "not checked (the driver refused its batch; the run ended before it was compiled alone)",
            );
            continue;
        }
        let job = b.pending.job();
        match gpu.run_batch(&[job]).pop() {
            Some(Err(GpuError::Driver(m))) => {
                // A known bug that crashes the PTX compiler is counted, not
                // reduced again.
                let crash = warp_core::idioms::known_for(
                    &b.pending.case.program,
                    warp_core::idioms::Effect::CompilerCrash,
                );
                if let Some(k) = crash.first() {
                    sh.count_known(k.name(), "compiler crash");
                    continue;
                }
                let d = Box::new(Divergence {
                    engine: "gpu",
                    what: Disagreement::EngineFailed(m),
                    form: ENGINE_FAILED.to_string(),
                });
                report(r, sh, b.job, b.case_seed, &b.pending.case, d, all, None);
            }
            _ => sh.skip(
                "gpu",
                &format!(
                    "not checked (the driver refused its batch, not the case alone): {batch_msg}"
                ),
            ),
        }
    }
}

/// The narrowing thread: narrows the queued failures down one after
/// another until the queue is empty (the queue's lock makes "empty" and
/// "no narrowing thread" one step, so nothing queued is left behind). Past
/// the run's end and its grace, what is left is saved, not narrowed.
fn narrow_queued(r: &Run, sh: &Shared, prober: &Prober) {
    loop {
        let next = {
            let mut q = sh.narrow_queue.lock().unwrap_or_else(|p| p.into_inner());
            match q.pop_front() {
                Some(f) => f,
                None => {
                    sh.narrowing.store(false, Ordering::Relaxed);
                    return;
                }
            }
        };
        let (cases, what) = next;
        // Without `--keep-going` the run ends at its first finding: what
        // failed meanwhile is saved, not narrowed.
        if sh.stop.load(Ordering::Relaxed) && !r.args.keep_going {
            let saved = save_batch(&cases);
            sh.found(format!(
                "gpu hang or fault ({what}): not narrowed (the run stops at its first finding); {saved}"
            ));
            sh.divergences.fetch_add(1, Ordering::Relaxed);
            sh.engine_failures.fetch_add(1, Ordering::Relaxed);
            continue;
        }
        if Instant::now() >= r.end() + r.narrow_grace() {
            let saved = save_batch(&cases);
            sh.found(format!(
                "gpu hang or fault ({what}): not narrowed (the run ended while it waited); {saved}"
            ));
            sh.divergences.fetch_add(1, Ordering::Relaxed);
            sh.engine_failures.fetch_add(1, Ordering::Relaxed);
            continue;
        }
        let t = Instant::now();
        narrow(r, sh, prober, &cases, &what);
        sh.narrow_us
            .fetch_add(t.elapsed().as_micros() as u64, Ordering::Relaxed);
    }
}

/// What a GPU failure's message says it was: `"hang"` or `"fault"` (the
/// words [`Shared::count_known`] counts under).
fn failure_kind(what: &str) -> &'static str {
    if what.starts_with("gpu hang") {
        "hang"
    } else {
        "fault"
    }
}

/// A batch hung or faulted: narrow it down in fresh processes and record
/// what was found (see the module doc). A culprit that fails alone and
/// shows a known bug's idiom is counted under that bug, not reduced.
fn narrow(r: &Run, sh: &Shared, prober: &Prober, batch: &[(TestCase, usize, u64)], what: &str) {
    let cases: Vec<TestCase> = batch.iter().map(|b| b.0.clone()).collect();
    let t = Instant::now();
    let until = r.narrow_until();
    // Halving in fresh processes: about 2 log2(batch) probes find the one
    // case that fails alone (the usual finding), where a probe per case
    // took minutes for a batch of 1024 and loaded the machine with as many
    // processes as cores.
    let narrowed = prober.smallest_failing_group(&cases, until);
    sh.found(format!(
        "gpu hang or fault ({what}): {} (narrowed by halving in fresh processes in {:.1} s, deadline {} ms)",
        match &narrowed {
            Some((g, _)) if g.len() == 1 => format!("1 of the batch's {} cases fails alone", cases.len()),
            Some((g, _)) => format!("{} of the batch's {} cases fail together, none alone", g.len(), cases.len()),
            None => format!("the batch of {} cases did not fail again", cases.len()),
        },
        t.elapsed().as_secs_f64(),
        prober.deadline_ms(),
    ));
    let found_at = |job: usize, seed: u64| {
        format!(
            "Found by `warpdiff fuzz --seed {:#x}` (job {job}, case seed {seed:#x}) at {}, {:.1} s into the run.",
            r.seed,
            case::now_utc(),
            r.start.elapsed().as_secs_f64()
        )
    };
    if let Some((group, _)) = narrowed.as_ref().filter(|(g, _)| g.len() == 1) {
        let known = warp_core::idioms::idioms(&cases[group[0]].program);
        if let Some(k) = known.first() {
            sh.count_known(k.name(), failure_kind(what));
            sh.found(format!(
                "gpu {} counted under the known bug `{}` (its culprit shows the idiom; not reduced)",
                failure_kind(what),
                k.name()
            ));
            return;
        }
    }
    sh.divergences.fetch_add(1, Ordering::Relaxed);
    sh.engine_failures.fetch_add(1, Ordering::Relaxed);
    if !r.args.keep_going {
        sh.stop.store(true, Ordering::Relaxed);
    }
    if let Some((group, seen)) = narrowed.as_ref().filter(|(g, _)| g.len() == 1) {
        let i = group[0];
        let (_, job, case_seed) = batch[i];
        let (small, secs) = prober.reduce_failing(&cases[i], case_seed, until);
        let after = match prober.run_alone(&small) {
            hang::Alone::Fails(w) => w,
            hang::Alone::Finishes | hang::Alone::Unknown(_) => seen.clone(),
        };
        let notes = vec![
            found_at(job, case_seed),
            format!(
                "Reduced from {} to {} instructions in {secs:.1} s, each candidate run alone in a fresh process.",
                cases[i].program.insts.len(),
                small.program.insts.len()
            ),
        ];
        let (d, notes) = hang::as_divergence(&after, notes);
        let msg = match case::record(&r.corpus, &small, &d, notes) {
            Ok(w) => sh.wrote(
                w.path(),
                format!(
                "divergence: gpu hang or fault; reduced {} -> {} instructions in {secs:.1} s; {}",
                cases[i].program.insts.len(),
                small.program.insts.len(),
                w.path().display()
            ),
            ),
            Err(e) => format!("divergence: gpu hang or fault; could not write it: {e}"),
        };
        sh.found(msg);
        return;
    }
    match narrowed {
        Some((group, seen)) => {
            let members: Vec<&TestCase> = group.iter().map(|&i| &cases[i]).collect();
            let (_, job, seed) = batch[group[0]];
            let notes = vec![
                found_at(job, seed),
                format!(
                    "Narrowed by halving, in fresh processes, from a batch of {} cases to these {}.",
                    cases.len(),
                    members.len()
                ),
            ];
            let msg = match hang::record_group(&r.corpus, &members, &seen, &notes) {
                Ok(dir) => sh.wrote(&dir, format!(
                    "divergence: gpu hang or fault only as a batch; the smallest failing group has {} of the {} cases; recorded in {}",
                    members.len(),
                    cases.len(),
                    dir.display()
                )),
                Err(e) => format!(
                    "divergence: gpu hang or fault only as a batch ({} cases); could not record the group: {e}",
                    members.len()
                ),
            };
            sh.found(msg);
        }
        None => {
            let saved = save_batch(batch);
            sh.skip(
                "gpu",
                "a hang or fault that did not happen again in a fresh process",
            );
            sh.found(format!(
                "gpu hang or fault: the batch of {} cases did not fail again in a fresh process (asked for {:.1} s); {saved}",
                cases.len(),
                t.elapsed().as_secs_f64()
            ));
        }
    }
}

/// Saves the cases of a batch that hung or faulted but could not be
/// narrowed down, and says where.
fn save_batch(batch: &[(TestCase, usize, u64)]) -> String {
    let dir = std::env::temp_dir().join(format!(
        "warpdiff-gpu-failed-batch-{}-{}",
        std::process::id(),
        std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(0, |d| d.as_secs())
    ));
    if let Err(e) = std::fs::create_dir_all(&dir) {
        return format!("could not save the batch: {}: {e}", dir.display());
    }
    for (i, (case, _, seed)) in batch.iter().enumerate() {
        let text = warp_core::text::print(&case.to_case());
        let path = dir.join(format!("case-{i:05}-seed-{seed:016x}.ptx"));
        if let Err(e) = std::fs::write(&path, text) {
            return format!("could not save the batch: {}: {e}", path.display());
        }
    }
    format!(
        "its {} cases are in {} (`warpdiff gpu-probe --gpu-in-process FILE...` runs them as one batch)",
        batch.len(),
        dir.display()
    )
}
