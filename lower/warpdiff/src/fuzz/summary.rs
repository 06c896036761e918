//! What `warpdiff fuzz` ends with: the summary (programs and input sets,
//! undefined behaviour, coverage and blind spots, the digest, divergences
//! by engine and form, skips by reason, each external engine's and GPU's
//! figures, with `--stats` the generator's tables, and last a verdict in
//! words) and the exit status.

use crate::fuzz::external::Lane;
use crate::fuzz::run::{Run, Shared, MAX_DEVICES, REDUCE_PER_FORM};
use crate::outln;
use std::sync::atomic::Ordering;
use std::sync::Arc;
use warp_core::gen::Stats;
use warp_gpu::device::Device;

/// The exit status of a run: 1 if a divergence was found, else 2 if a
/// thread of the run failed (an internal error), else 0.
pub fn exit_status(sh: &Shared) -> u8 {
    if sh.divergences.load(Ordering::Relaxed) > 0 {
        1
    } else if sh.internal_errors.load(Ordering::Relaxed) > 0 {
        2
    } else {
        0
    }
}

/// The blind-spot counts (per context, how many forms no usable case
/// executed there) and, with `named`, the first few of each.
fn blind_spots(stats: &Stats, named: bool) {
    const NAMED: usize = 8;
    let spots = stats.blind_spots();
    let counts: Vec<String> = spots
        .iter()
        .map(|(c, never)| format!("{c} {}", never.len()))
        .collect();
    let missing = stats.missing_forms();
    let all = warp_core::gen::all_forms().len();
    let any = spots.iter().any(|(_, n)| !n.is_empty());
    outln!(
        "forms generated {}/{all}{}; blind spots (forms never executed): {}{}",
        all - missing.len(),
        match missing.len() {
            0 => String::new(),
            n if n <= 8 || named => format!(" (missing: {})", missing.join(", ")),
            n => format!(
                " (missing: {} and {} more: `--stats` names them)",
                missing[..8].join(", "),
                n - 8
            ),
        },
        counts.join(", "),
        if any && !named {
            " (`--stats` names them)"
        } else {
            ""
        }
    );
    if !named {
        return;
    }
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

/// The summary after the run (with `--stats` the generator's tables
/// first): programs and input sets, undefined behaviour, coverage, the
/// digest, findings, skips, the GPU's and external engines' figures, and
/// last the verdict in words.
pub fn summary(
    r: &Run,
    sh: &Shared,
    gpus: &[Arc<dyn Device>],
    known_gpu: Option<&dyn Device>,
    lanes: &[Lane],
) {
    let secs = r.start.elapsed().as_secs_f64();
    let stats = sh.stats.lock().unwrap_or_else(|p| p.into_inner());
    outln!();
    if r.args.stats {
        outln!("{stats}");
        let helpers = warp_jit::outline::stats();
        if helpers.hits + helpers.misses + helpers.inlined > 0 {
            outln!(
                "JIT helpers (fast-compile tier): {} instruction shapes compiled, {} call sites served from the cache, {} lowered inline (cache full)",
                helpers.misses,
                helpers.hits,
                helpers.inlined
            );
        }
    }
    let totals = Totals::of(sh);
    outln!(
        "{} programs ({:.1} instructions each), {} input sets in {secs:.1} s ({:.0} input sets/s): {} compared, {} not compared for undefined behaviour in the reference ({:.1} %){}",
        totals.programs,
        stats.insts as f64 / stats.cases.max(1) as f64,
        totals.sets,
        totals.sets as f64 / secs.max(1e-9),
        totals.compared(),
        totals.ub,
        100.0 * totals.ub as f64 / totals.sets.max(1) as f64,
        if totals.refused > 0 {
            format!(", {} the reference could not finish", totals.refused)
        } else {
            String::new()
        }
    );
    blind_spots(&stats, r.args.stats);
    outln!(
        "programs digest {:016x} (seed {:#x}; the same seed and --cases give the same digest)",
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
    let skipped = sh.skipped.lock().unwrap_or_else(|p| p.into_inner());
    if skipped.is_empty() {
        outln!("skipped (cannot run here): none");
    } else {
        for (reason, n) in skipped.iter() {
            outln!("skipped (cannot run here) {n}: {reason}");
        }
    }
    drop(skipped);
    for lane in lanes {
        outln!("{}", lane_summary(lane, secs));
    }
    if !gpus.is_empty() {
        gpu_summary(r, sh, gpus, known_gpu, secs);
    }
    outln!("{}", verdict(r, sh, &totals, secs, !gpus.is_empty()));
}

/// The counts of the CPU workers' input sets.
pub struct Totals {
    /// Programs generated.
    pub programs: u64,
    /// Input sets run (a program on one set of inputs each).
    pub sets: u64,
    /// Of those, with undefined behaviour in the reference run.
    pub ub: u64,
    /// Of those, that the reference could not finish.
    pub refused: u64,
}

impl Totals {
    /// The counts so far.
    pub fn of(sh: &Shared) -> Totals {
        Totals {
            programs: sh.programs.load(Ordering::Relaxed),
            sets: sh.input_sets.load(Ordering::Relaxed),
            ub: sh.ub_sets.load(Ordering::Relaxed),
            refused: sh.refused_sets.load(Ordering::Relaxed),
        }
    }

    /// The input sets every engine's result was compared on.
    pub fn compared(&self) -> u64 {
        self.sets.saturating_sub(self.ub + self.refused)
    }
}

/// The last line of the summary: what happened, in words, and where the
/// findings went.
fn verdict(r: &Run, sh: &Shared, t: &Totals, secs: f64, gpu_ran: bool) -> String {
    let divergences = sh.divergences.load(Ordering::Relaxed);
    let internal = sh.internal_errors.load(Ordering::Relaxed);
    // The engines that checked something: `gpu` only where one was found.
    let engines = r
        .engines
        .names()
        .into_iter()
        .filter(|n| gpu_ran || n != "gpu")
        .collect::<Vec<_>>()
        .join(", ");
    let gpu = match sh.gpu_programs.load(Ordering::Relaxed) {
        0 => String::new(),
        n => format!("; {n} programs checked on the GPU"),
    };
    let known = match sh.known_hits() {
        0 => String::new(),
        n => format!("; {n} hits of known compiler bugs counted"),
    } + &match sh.schedules.load(Ordering::Relaxed) {
        0 => String::new(),
        n => format!("; {n} GPU result(s) from schedules the ISA allows (not divergences)"),
    };
    if divergences == 0 {
        return format!(
            "verdict: no divergence in {} input sets of {} programs ({engines}), {secs:.1} s{gpu}{known}{}",
            t.compared(),
            t.programs,
            if internal > 0 {
                format!(
                    "; but {internal} internal error(s) (exit status 2): see the messages above"
                )
            } else {
                String::new()
            }
        );
    }
    let written = sh.written.lock().unwrap_or_else(|p| p.into_inner());
    let mut files: Vec<String> = written.iter().map(|p| p.display().to_string()).collect();
    files.sort();
    files.dedup();
    let shown = files.len().min(3);
    format!(
        "verdict: {divergences} divergence(s){} in {} input sets of {} programs ({engines}), {secs:.1} s{gpu}{known}; {}",
        match sh.engine_failures.load(Ordering::Relaxed) {
            0 => String::new(),
            n => format!(" ({n} engine failure(s))"),
        },
        t.compared(),
        t.programs,
        match files.len() {
            0 => "none written to the corpus (see the messages above)".to_string(),
            n => format!(
                "{n} file(s) written to the corpus: {}{}",
                files[..shown].join(", "),
                if n > shown {
                    format!(" and {} more", n - shown)
                } else {
                    String::new()
                }
            ),
        }
    )
}

/// The GPU's part of the summary: per GPU its programs and cases, its
/// runner processes' hangs, faults and kills; per minute the programs
/// checked; the known bugs hit, the new findings, and where the time went.
fn gpu_summary(
    r: &Run,
    sh: &Shared,
    gpus: &[Arc<dyn Device>],
    known_gpu: Option<&dyn Device>,
    secs: f64,
) {
    // Rates are over the time GPU batches were taken: narrowing a failure
    // may run past the run's end, but checks nothing more.
    let secs = secs.min(r.args.seconds as f64).max(1e-9);
    let t = sh.gpu_timing.lock().unwrap_or_else(|p| p.into_inner());
    let level = r
        .args
        .gpu
        .level()
        .map_or("the driver's default level".to_string(), |o| {
            format!("-O{o}")
        });
    outln!("GPU (at {level}):");
    for d in gpus {
        let i = d.ordinal().min(MAX_DEVICES - 1);
        let programs = sh.programs_per_device[i].load(Ordering::Relaxed);
        let runners = match d.runner_counts() {
            Some(c) => format!(
                "; runner processes started {}, batches hung {}, faulted {}, runners killed unanswering {}, compiles killed {}; the runner held the GPU {:.0} % of the run{}",
                c.started,
                c.hangs,
                c.faults,
                c.stuck,
                c.compile_timeouts,
                100.0 * c.runner_busy_us as f64 / 1e6 / secs.max(1e-9),
                if c.helpers > 0 {
                    format!(
                        ", its {} compile helpers were busy {:.0} % of it",
                        c.helpers,
                        100.0 * c.compile_busy_us as f64 / 1e6 / (c.helpers as f64 * secs.max(1e-9))
                    )
                } else {
                    String::new()
                }
            ),
            None => String::new(),
        };
        outln!(
            "  GPU {} ({}): {programs} programs ({:.1}/s), {} cases checked{runners}{}",
            d.ordinal(),
            d.description(),
            programs as f64 / secs.max(1e-9),
            sh.per_device[i].load(Ordering::Relaxed),
            if sh.device_off[i].load(Ordering::Relaxed) || d.is_dead() {
                format!(
                    "; switched off{}",
                    d.why_dead().map_or(String::new(), |w| format!(": {w}"))
                )
            } else {
                String::new()
            }
        );
    }
    if let Some(k) = known_gpu {
        if let Some(c) = k.runner_counts() {
            outln!(
                "  known-bug lane (GPU {}, deadline {} ms): runner processes started {}, hangs {}, faults {}, killed unanswering {}",
                k.ordinal(),
                crate::fuzz::hang::DEADLINE_MS,
                c.started,
                c.hangs,
                c.faults,
                c.stuck
            );
        }
    }
    let programs = sh.gpu_programs.load(Ordering::Relaxed);
    let minutes = sh.per_minute.lock().unwrap_or_else(|p| p.into_inner());
    outln!(
        "  all GPUs: {programs} programs checked ({:.1}/s over the run's {secs:.1} s), {} cases ({} agree); programs per minute: {}",
        programs as f64 / secs.max(1e-9),
        sh.gpu_checked.load(Ordering::Relaxed),
        sh.gpu_agreed.load(Ordering::Relaxed),
        if minutes.is_empty() {
            "none".to_string()
        } else {
            minutes
                .iter()
                .map(|n| n.to_string())
                .collect::<Vec<_>>()
                .join(", ")
        }
    );
    outln!(
        "  schedules the observed convergence model did not predict, which the ISA allows (the spec model leaves each differing bit open; the case agreed when run again alone): {}",
        sh.schedules.load(Ordering::Relaxed)
    );
    let known = sh.known.lock().unwrap_or_else(|p| p.into_inner());
    outln!(
        "  known bugs hit (counted, not reduced): {}",
        if known.is_empty() {
            "none".to_string()
        } else {
            known
                .iter()
                .map(|(k, n)| format!("{k} {n}"))
                .collect::<Vec<_>>()
                .join(", ")
        }
    );
    outln!(
        "  hangs {} and faults {} of batches survived (each narrowed down or saved: see the findings above); narrowing took {:.1} s",
        sh.gpu_hangs.load(Ordering::Relaxed),
        sh.gpu_faults.load(Ordering::Relaxed),
        sh.narrow_us.load(Ordering::Relaxed) as f64 / 1e6
    );
    outln!(
        "  balance: CPU workers waited {:.1} s for room in the GPU queue, GPU threads {:.1} s for cases (summed over threads: the side that waits is the faster one)",
        sh.offer_wait_us.load(Ordering::Relaxed) as f64 / 1e6,
        sh.batch_wait_us.load(Ordering::Relaxed) as f64 / 1e6
    );
    outln!(
        "  {} modules, {} kernels; emit {:.1} s (summed over threads), emit+compile {:.1} s, launch {:.1} s, run and wait {:.1} s, read back {:.1} s (summed over a GPU's threads)",
        t.modules,
        t.kernels,
        t.emit.as_secs_f64(),
        t.load.as_secs_f64(),
        t.launch.as_secs_f64(),
        t.wait.as_secs_f64(),
        t.copy.as_secs_f64()
    );
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
