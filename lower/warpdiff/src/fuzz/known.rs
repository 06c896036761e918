//! The known-bug lane of `warpdiff fuzz`: a program that shows the idiom of
//! a known compiler bug that hangs or faults the GPU
//! ([`Idiom::may_stop_the_gpu`]) runs in small batches on a GPU of its own
//! runner process with a short deadline ([`hang::DEADLINE_MS`]), and alone
//! when its batch hangs or faults, so that the bug costs a few programs and
//! a runner restart, not a batch of a thousand and a narrowing. What it does is counted under the bug (a
//! hang, a fault, a wrong value) and never reduced; a program that runs
//! right is checked like any other.

use crate::fuzz::gpu::{count_checked, ForGpu};
use crate::fuzz::hang;
use crate::fuzz::run::{Run, Shared};
use std::sync::atomic::Ordering;
use std::sync::mpsc::{Receiver, RecvTimeoutError};
use std::sync::{Arc, Mutex};
use std::time::Duration;
use warp_core::idioms::Idiom;
use warp_gpu::batch::{check_batch, Checked};
use warp_gpu::device::{Device, GpuError};
use warp_gpu::remote::RemoteGpu;

/// How many programs may wait for the lane; a worker drops one more
/// (counted as a skip) rather than wait.
pub const QUEUE: usize = 256;

/// A program for the lane, with the bug it shows.
pub struct ForKnown {
    /// The program on its own inputs, with its reference run.
    pub item: ForGpu,
    /// The known bug whose idiom it shows.
    pub idiom: Idiom,
}

/// The lane's GPU: GPU 0 through a runner of its own, when the run's GPUs
/// run their batches in runner processes (`None` otherwise: with
/// `--gpu-in-process` such programs go to the batches, as everything else).
pub fn open(gpus: &[Arc<dyn Device>]) -> Option<Arc<dyn Device>> {
    let first = gpus.first()?;
    if !first.survives_failures() {
        return None;
    }
    let mut config = warp_gpu::engine::config().clone();
    let exe = config.runner.clone()?;
    config.deadline = Duration::from_millis(hang::DEADLINE_MS);
    config.compile_threads = 4;
    // `--gpu-dump` samples the batches' modules (for `ptxas` alone), not
    // the lane's small ones.
    config.dump_dir = None;
    match RemoteGpu::open(first.ordinal(), &config, exe) {
        Ok(g) => Some(Arc::new(g)),
        Err(e) => {
            crate::errln!(
                "warpdiff fuzz: the known-bug lane's GPU runner did not start ({e}); such programs are not checked"
            );
            None
        }
    }
}

/// Programs the lane checks in one batch; a batch that hangs or faults is
/// checked again one program at a time, so each failure is counted under
/// the bug of the program that failed.
pub const BATCH: usize = 16;

/// Checks `items` as one batch and counts what happened; returns the ones
/// to check again alone (the whole batch when it hung or faulted and had
/// more than one program).
fn check(r: &Run, sh: &Shared, gpu: &dyn Device, items: Vec<ForKnown>) -> Vec<ForKnown> {
    let pending: Vec<_> = items.iter().map(|k| k.item.pending.clone()).collect();
    let (checked, timing) = check_batch(gpu, &pending);
    sh.gpu_timing
        .lock()
        .unwrap_or_else(|p| p.into_inner())
        .add(&timing);
    let failed = checked
        .iter()
        .any(|c| matches!(c, Checked::Failed(GpuError::Hang(_) | GpuError::Fault(_))));
    if failed && items.len() > 1 {
        return items;
    }
    for (k, c) in items.iter().zip(checked) {
        let name = k.idiom.name();
        match c {
            Checked::Agree => count_checked(r, sh, gpu, &k.item, true),
            Checked::Diverge(_) => {
                count_checked(r, sh, gpu, &k.item, false);
                sh.count_known(name, "wrong value");
            }
            Checked::Failed(GpuError::Hang(_)) => sh.count_known(name, "hang"),
            Checked::Failed(GpuError::Fault(_)) => sh.count_known(name, "fault"),
            Checked::Failed(GpuError::Abandoned) => {
                sh.skip("gpu", "not checked (the run ended during its batch)")
            }
            Checked::Failed(e) => sh.skip(
                "gpu",
                &format!("not checked (known-bug lane: GPU error): {e}"),
            ),
            Checked::Skipped(reason) => sh.skip("gpu", &reason),
        }
    }
    Vec::new()
}

/// The lane's thread: batches of up to [`BATCH`] programs until the run is
/// over.
pub fn known_loop(r: &Run, sh: &Shared, gpu: &dyn Device, rx: &Mutex<Receiver<ForKnown>>) {
    'run: loop {
        if r.over() || (sh.stop.load(Ordering::Relaxed) && !r.args.keep_going) {
            break;
        }
        let mut batch = Vec::with_capacity(BATCH);
        {
            let rx = rx.lock().unwrap_or_else(|p| p.into_inner());
            match rx.recv_timeout(Duration::from_millis(100)) {
                Ok(k) => batch.push(k),
                Err(RecvTimeoutError::Timeout) => continue,
                Err(RecvTimeoutError::Disconnected) => break,
            }
            while batch.len() < BATCH {
                match rx.try_recv() {
                    Ok(k) => batch.push(k),
                    Err(_) => break,
                }
            }
        }
        for k in check(r, sh, gpu, batch) {
            if r.over() {
                sh.skip("gpu", "not checked (the run ended before its batch)");
                continue;
            }
            check(r, sh, gpu, vec![k]);
            if gpu.is_dead() {
                break;
            }
        }
        if gpu.is_dead() {
            crate::errln!(
                "warpdiff fuzz: the known-bug lane's GPU is off ({}); such programs are not checked any more",
                gpu.why_dead().unwrap_or_default()
            );
            break 'run;
        }
    }
    let rx = rx.lock().unwrap_or_else(|p| p.into_inner());
    while rx.try_recv().is_ok() {
        sh.skip("gpu", "not checked (left in the known-bug lane at the end)");
    }
}
