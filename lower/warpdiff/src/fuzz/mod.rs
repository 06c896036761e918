//! `warpdiff fuzz`: the fuzzing loop on stable Rust, without libFuzzer.
//!
//! `--jobs` CPU workers generate cases, check them on the CPU engines
//! (the reference interpreter first) and, when a GPU or an external engine
//! is in the run, offer the agreeing ones to queues that one thread per GPU
//! ([`crate::fuzz::gpu`]) and one per external engine
//! ([`crate::fuzz::external`]) drain in batches. Every wait has a way out:
//! workers wait for room in the GPU queue and on an external engine's only
//! while the engine is on and the run goes on, the batch threads take no
//! batch after the run's end, a GPU batch in a runner process is given up
//! [`ABANDON_GRACE`] after it, every request to an external engine has a
//! deadline, and narrowing a failure down and reducing it have a deadline
//! of their own. So the run always ends by
//! `--seconds` (plus that bounded narrowing), with its summary and exit
//! status. Two last resorts keep that true when something below breaks the
//! rules: a thread that panics is caught, named and counted as an internal
//! error (exit status 2 unless a divergence was found) while the rest of
//! the run goes on; and a thread still busy `--stuck-after-s` (180 s) after
//! the run's end (a driver call that never returns) is left behind: the
//! summary is printed and the process exits without waiting for it.
//!
//! Its parts: the CPU workers ([`cpu`]), a few threads per GPU ([`gpu`]),
//! the known-bug lane ([`known`]), one thread per external engine
//! ([`external`]), what they share ([`run`]), the
//! progress line ([`progress`]) and the summary
//! ([`summary`](mod@summary)); GPU hangs narrowed down in fresh processes
//! ([`hang`]) and GPU divergences classified by optimisation level
//! ([`levels`]), those that agree alone kept with their batch
//! ([`batch_file`]) and retried ([`retry`]); the cases themselves ([`case`]), and the cargo-fuzz
//! targets ([`target`]) with their memo ([`seen`]).

pub mod batch_file;
pub mod case;
pub mod cpu;
pub mod external;
pub mod gpu;
pub mod hang;
pub mod known;
pub mod levels;
pub mod progress;
pub mod retry;
pub mod run;
pub mod schedule;
pub mod seen;
pub mod summary;
pub mod target;

use crate::fuzz::cpu::{worker, ToGpu};
use crate::fuzz::external::Lane;
use crate::fuzz::gpu::ForGpu;
use crate::fuzz::progress::{progress_line, Progress};
use crate::fuzz::run::{Run, Shared, MAX_DEVICES};
use crate::fuzz::summary::{exit_status, summary};
use crate::{errln, outln};
use std::sync::atomic::Ordering;
use std::sync::mpsc::sync_channel;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};
use warp_gpu::device::Device;

/// How long after the run's end a GPU batch in a runner process is given
/// up (its runner killed) if it has not answered.
pub const ABANDON_GRACE: Duration = Duration::from_secs(2);

/// Threads per GPU whose batches run in a runner process: they emit and
/// compile batches side by side and take turns with the runner, so the
/// compile helpers stay busy while a batch runs.
pub const STAGES_PER_GPU: usize = 3;

/// Runs the fuzzing loop of `r` (engines started, seed and corpus
/// chosen): the workers, GPU and external-engine threads, the progress
/// line, then the summary. Returns the exit status (see
/// [`summary::exit_status`]).
pub fn run_loop(mut r: Run) -> u8 {
    let sh = Shared::default();
    // The GPUs, when asked for and present, check cases in batches: one
    // thread per device, all taking batches from one queue.
    let gpus: Vec<Arc<dyn Device>> = if r.engines.builtin.contains(&"gpu") {
        warp_gpu::engine::gpus(r.args.gpus as usize)
            .into_iter()
            .take(r.args.gpus as usize)
            .collect()
    } else {
        Vec::new()
    };
    if r.args.jobs.is_none() && !gpus.is_empty() {
        // The GPU's pace is the compilers', and they need the cores: the
        // CPU side only has to keep the GPU fed.
        let cores = std::thread::available_parallelism().map_or(1, |n| n.get()) as u64;
        r.args.jobs = Some((cores / 4).max(2));
    }
    if r.args.inputs.is_none() && !gpus.is_empty() {
        // The CPU engines check what the GPU checks: more sets would cost
        // CPU time the compilers need (a program with 8 sets took 25 %
        // longer than with 1 on the CPU side).
        r.args.inputs = Some(r.args.gpu_inputs);
    }
    let a = &r.args;
    sh.gpus_alive.store(gpus.len(), Ordering::Relaxed);
    sh.workers_alive.store(a.jobs() as usize, Ordering::Relaxed);
    outln!(
        "warpdiff fuzz: engines {}, {} job(s) of {} input sets per program, seed {:#x}, {} s, corpus {}{}{}",
        r.engines.names().join(","),
        a.jobs(),
        a.inputs(),
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
    for g in &gpus {
        g.abandon_after(r.end() + ABANDON_GRACE);
    }
    // Known bugs that hang or fault run alone, on a runner of their own.
    let known_gpu = known::open(&gpus);
    if let Some(k) = &known_gpu {
        k.abandon_after(r.end() + ABANDON_GRACE);
    }
    let (known_tx, known_rx) = match &known_gpu {
        Some(_) => {
            let (tx, rx) = sync_channel::<known::ForKnown>(known::QUEUE);
            (Some(tx), Some(Mutex::new(rx)))
        }
        None => (None, None),
    };
    let (tx, rx) = if gpus.is_empty() {
        (None, None)
    } else {
        let (tx, rx) = sync_channel::<ForGpu>(a.gpu_batch as usize * 2);
        (
            Some(ToGpu {
                main: tx,
                known: known_tx,
            }),
            Some(Mutex::new(rx)),
        )
    };
    let progress = Progress::new(a.seconds);
    std::thread::scope(|sc| {
        if let Some(rx) = &rx {
            for g in &gpus {
                let stages = if g.survives_failures() {
                    STAGES_PER_GPU
                } else {
                    1
                };
                for stage in 0..stages {
                    let (r, sh) = (&r, &sh);
                    spawn_guarded(
                        sc,
                        sh,
                        format!("GPU {} thread {stage}", g.ordinal()),
                        move || gpu::gpu_loop(r, sh, g.as_ref(), rx),
                        move || {
                            let d = g.ordinal().min(MAX_DEVICES - 1);
                            if !sh.device_off[d].swap(true, Ordering::Relaxed)
                                && sh.gpus_alive.fetch_sub(1, Ordering::Relaxed) == 1
                            {
                                sh.gpu_off.store(true, Ordering::Relaxed);
                            }
                        },
                    );
                }
            }
        }
        if let (Some(k), Some(krx)) = (&known_gpu, &known_rx) {
            let (r, sh) = (&r, &sh);
            spawn_guarded(
                sc,
                sh,
                "the known-bug lane".to_string(),
                move || known::known_loop(r, sh, k.as_ref(), krx),
                || {},
            );
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
        for job in 0..a.jobs() as usize {
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
                let execs = sh.input_sets.load(Ordering::Relaxed);
                let rate = (execs - last.1) as f64 / dt;
                let gpu_rates: Vec<f64> = gpus
                    .iter()
                    .map(|g| {
                        let i = g.ordinal().min(MAX_DEVICES - 1);
                        let now = sh.programs_per_device[i].load(Ordering::Relaxed);
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
            summary(&r, &sh, &gpus, known_gpu.as_deref(), &lanes);
            let names = sh
                .busy_names
                .lock()
                .map(|n| n.join(", "))
                .unwrap_or_default();
            errln!(
                "warpdiff fuzz: {left} thread(s) still busy {} s after the run was over (a GPU or engine call that does not return: {names}); exiting without waiting for them (the counts above may miss their last cases)",
                stuck_after.as_secs()
            );
            std::process::exit(exit_status(&sh).into());
        }
    });
    progress.finish();
    summary(&r, &sh, &gpus, known_gpu.as_deref(), &lanes);
    exit_status(&sh)
}

/// Decrements [`Shared::busy`] and takes the thread's name out of
/// [`Shared::busy_names`] when a thread ends, by return or by panic.
struct Busy<'a>(&'a Shared, &'a str);

impl Drop for Busy<'_> {
    fn drop(&mut self) {
        if let Ok(mut names) = self.0.busy_names.lock() {
            if let Some(i) = names.iter().position(|n| n == self.1) {
                names.swap_remove(i);
            }
        }
        self.0.busy.fetch_sub(1, Ordering::Relaxed);
    }
}

/// Runs one thread's body `f` (named `what` in messages): counted in
/// [`Shared::busy`] until it ends, and a panic in it is caught, reported
/// and counted, after `on_panic` has run (to give back what the thread
/// held).
fn guarded(sh: &Shared, what: &str, f: impl FnOnce(), on_panic: impl FnOnce()) {
    let _busy = Busy(sh, what);
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
    if let Ok(mut names) = sh.busy_names.lock() {
        names.push(what.clone());
    }
    sc.spawn(move || guarded(sh, &what, f, on_panic));
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
