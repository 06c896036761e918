//! The CPU workers of `warpdiff fuzz`: each generates cases from its own
//! stream of case seeds, checks them on the CPU engines (the reference
//! interpreter first), reports what diverges, and offers the agreeing
//! cases to the external engines' lanes ([`crate::fuzz::external`]) and the
//! GPU queue ([`crate::fuzz::gpu`]). A worker waits for room in the GPU
//! queue while a GPU is on and the run goes on: on a GPU host the CPU side
//! runs at the GPU's pace and leaves the cores to the PTX compilers.
//! Programs showing the idiom of a known bug that hangs or faults go to the
//! known-bug lane instead ([`crate::fuzz::known`]).

use crate::fuzz::case::{self, CaseResult};
use crate::fuzz::external::{ForExt, Lane};
use crate::fuzz::gpu::ForGpu;
use crate::fuzz::known::ForKnown;
use crate::fuzz::run::{report, Run, Shared};
use std::sync::atomic::Ordering;
use std::sync::mpsc::{SyncSender, TrySendError};
use std::time::Duration;
use warp_core::engine::Engine;
use warp_core::gen::{Stats, TestCase};
use warp_core::interp::Interp;
use warp_gpu::batch::Pending;

/// Where a worker sends the cases the GPUs check.
#[derive(Clone)]
pub struct ToGpu {
    /// The batches' queue.
    pub main: SyncSender<ForGpu>,
    /// The known-bug lane, when there is one (batches in runner processes).
    pub known: Option<SyncSender<ForKnown>>,
}

/// Offers a case to the GPU queue, waiting for room: `false` when it was
/// dropped because the GPUs are off or the run is over or stopping.
fn offer(r: &Run, sh: &Shared, tx: &SyncSender<ForGpu>, mut item: ForGpu) -> bool {
    let mut waited = None;
    let sent = loop {
        if sh.gpu_off.load(Ordering::Relaxed) || sh.stop.load(Ordering::Relaxed) || r.over() {
            break false;
        }
        match tx.try_send(item) {
            Ok(()) => break true,
            Err(TrySendError::Disconnected(_)) => break false,
            Err(TrySendError::Full(back)) => {
                item = back;
                waited.get_or_insert_with(std::time::Instant::now);
                std::thread::sleep(Duration::from_millis(2));
            }
        }
    };
    if let Some(t) = waited {
        sh.offer_wait_us
            .fetch_add(t.elapsed().as_micros() as u64, Ordering::Relaxed);
    }
    sent
}

/// The body of CPU worker `job`: generates and checks cases until the run
/// is over or stopping, or its share of `--cases` is done.
pub fn worker(r: &Run, job: usize, sh: &Shared, to_gpu: Option<ToGpu>, lanes: &[Lane]) {
    let spec = warp_gpu::engine::GpuEngine.spec_convergence();
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
    let quota = r
        .args
        .cases
        .map(|n| job_quota(n, r.args.jobs(), job as u64));
    let mut made = 0u64;
    while !r.over() && !sh.stop.load(Ordering::Relaxed) && quota.is_none_or(|q| made < q) {
        let case_seed = seeds.next().expect("an endless stream");
        let Some(tc) = case::case_from_seed(case_seed, &mut buf, &mut stats, &avoid) else {
            continue;
        };
        made += 1;
        sh.programs.fetch_add(1, Ordering::Relaxed);
        sh.execs.fetch_add(1, Ordering::Relaxed);
        let before = (stats.runs, stats.ub_runs, stats.errors);
        sh.digest.fetch_add(case::case_hash(&tc), Ordering::Relaxed);
        // With the GPU the only engine to compare with, a case it cannot
        // run is not worth the reference's run: the CPU time goes to the
        // compilers instead, and the skip counts as the GPU would count it.
        if others.is_empty() && lanes.is_empty() && to_gpu.is_some() {
            if let Some(why) = gpu_cannot_check(&tc) {
                sh.skip("gpu", &why);
                continue;
            }
        }
        let (result, more) = case::run_case_inputs(
            &tc,
            &others,
            &mut stats,
            r.args.inputs() as usize,
            case_seed,
        );
        sh.execs.fetch_add(more, Ordering::Relaxed);
        sh.input_sets
            .fetch_add(stats.runs - before.0, Ordering::Relaxed);
        sh.ub_sets
            .fetch_add(stats.ub_runs - before.1, Ordering::Relaxed);
        sh.refused_sets
            .fetch_add(stats.errors - before.2, Ordering::Relaxed);
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
                let Some(to) = &to_gpu else { continue };
                if sh.gpu_off.load(Ordering::Relaxed) {
                    continue;
                }
                // The GPU's reference: the CPU engines' one, or, for a
                // perturbed schedule, the spec model's
                // (`Engine::spec_convergence`).
                let interp = gpu_reference(&tc.program);
                let reference = match spec {
                    false => *reference,
                    true => match interp.run(&tc.inputs) {
                        Ok(out) if out.ub.is_none() => out,
                        _ => {
                            sh.skip(
                                "gpu",
                                "not checked (undefined in the spec convergence model)",
                            );
                            continue;
                        }
                    },
                };
                // A known bug that hangs or faults runs alone, so that it
                // costs no batch.
                if let Some(known) = &to.known {
                    let stops = warp_core::idioms::idioms(&tc.program)
                        .into_iter()
                        .find(|i| i.may_stop_the_gpu());
                    if let Some(idiom) = stops {
                        let item = ForKnown {
                            item: ForGpu {
                                pending: Pending {
                                    case: tc.clone(),
                                    reference,
                                },
                                job,
                                case_seed,
                                first: true,
                            },
                            idiom,
                        };
                        if known.try_send(item).is_err() {
                            sh.skip("gpu", "not checked (the known-bug lane was busy)");
                        }
                        continue;
                    }
                }
                // More input sets for the same program: one compile
                // serves them all (each checked by the reference).
                let mut items = vec![(tc.inputs.clone(), reference)];
                let sets = case::input_sets(&tc, r.args.gpu_inputs as usize, case_seed);
                for inputs in sets.into_iter().skip(1) {
                    if let Ok(out) = interp.run(&inputs) {
                        if out.ub.is_none() {
                            items.push((inputs, out));
                        }
                    }
                }
                for (n, (inputs, reference)) in items.into_iter().enumerate() {
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
                        first: n == 0,
                    };
                    if !offer(r, sh, &to.main, item) {
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
            CaseResult::Diverge(tc, d) => report(r, sh, job, case_seed, &tc, d, &all, None),
        }
    }
    sh.stats
        .lock()
        .unwrap_or_else(|p| p.into_inner())
        .merge(&stats);
    sh.workers_alive.fetch_sub(1, Ordering::Relaxed);
}

/// Why the GPU would skip `tc` whatever happens on it: a bounded run
/// (`.fuel`), or an instruction sm_90 lacks ([`warp_gpu::emit::module_target`]).
fn gpu_cannot_check(tc: &TestCase) -> Option<String> {
    if let Some(skip) = warp_core::engine::unbounded_only(&tc.inputs) {
        return Some(skip.reason);
    }
    warp_gpu::emit::module_target(&tc.program)
        .err()
        .map(|skip| skip.reason)
}

/// The reference interpreter for the GPU's checks of `program`: in the
/// spec convergence model when the GPU promises no more (a perturbed
/// schedule, [`Engine::spec_convergence`]), else the CPU engines' one.
fn gpu_reference(program: &warp_core::ir::Program) -> Interp<'_> {
    let gpu = warp_gpu::engine::GpuEngine;
    warp_core::oracle::reference_interp(program, &[&gpu], case::FUZZ_FUEL)
}

/// Job `job`'s share of `cases` cases over `jobs` jobs: the first
/// `cases % jobs` jobs take one more.
pub fn job_quota(cases: u64, jobs: u64, job: u64) -> u64 {
    cases / jobs + u64::from(job < cases % jobs)
}
