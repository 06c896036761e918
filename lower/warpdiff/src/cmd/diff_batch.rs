//! `warpdiff diff --gpu-batch-file FILE`: runs a GPU batch kept by `fuzz`
//! next to a finding that agreed alone (`<form>-<hash>.batch.txt`,
//! [`crate::fuzz::batch_file`]) again, as one batch on the GPU, in the
//! order it ran, and compares every case with the reference interpreter,
//! saying which one the batch diverged on when it was found. The GPU flags
//! give the path: `--gpu-helpers` for the fuzzer's compile helpers and
//! runner process, `--gpu-opt-level` for its level, `--gpu-dirty` for a
//! register fill first.

use crate::fuzz::batch_file::read_batch;
use crate::fuzz::case::FUZZ_FUEL;
use crate::{errln, outln};
use std::path::Path;
use warp_core::engine::unbounded_only;
use warp_core::gen::TestCase;
use warp_core::oracle::{diverges, reference_interp, Disagreement};
use warp_core::outcome::Outcome;
use warp_gpu::emit::Job;
use warp_gpu::engine::GpuEngine;
use warp_gpu::GpuError;

/// Runs the batch of `file`; returns the exit status: 1 when a case
/// differs or the GPU failed on the batch, 2 on an error (an unreadable
/// file, no GPU), else 0.
pub fn diff_batch(file: &Path) -> u8 {
    let name = file.display().to_string();
    let batch = match read_batch(file) {
        Ok(b) => b,
        Err(m) => {
            errln!("warpdiff diff: {m}");
            return 2;
        }
    };
    let gpu = match warp_gpu::engine::gpu() {
        Ok(g) => g,
        Err(e) => {
            errln!("warpdiff diff: {name}: {e}");
            return 2;
        }
    };
    // Each reference in the model the GPU is compared in (the spec one
    // when its schedule is perturbed), as `fuzz` compared them.
    let mut references = Vec::with_capacity(batch.cases.len());
    for (i, c) in batch.cases.iter().enumerate() {
        match gpu_reference(c) {
            Ok(r) => references.push(r),
            Err(m) => {
                errln!("warpdiff diff: {name}: case {i}: {m}");
                return 2;
            }
        }
    }
    // Bounded runs are not the GPU's (`fuzz` keeps none in a batch; a
    // hand-made file may have one): skipped, as `fuzz` skips them.
    let jobs: Vec<Job> = batch
        .cases
        .iter()
        .filter(|c| unbounded_only(&c.inputs).is_none())
        .map(|c| Job {
            program: &c.program,
            inputs: &c.inputs,
        })
        .collect();
    outln!(
        "{name}: {} case(s) as one batch on {}; case {} diverged when found",
        jobs.len(),
        gpu.description(),
        batch.diverged
    );
    let mut results = gpu.run_batch(&jobs).into_iter();
    let mut bad = false;
    let mut differ = 0;
    for (i, (c, reference)) in batch.cases.iter().zip(&references).enumerate() {
        let r = match unbounded_only(&c.inputs) {
            Some(skip) => Err(GpuError::Skip(skip)),
            None => results.next().unwrap_or(Err(GpuError::Dead)),
        };
        let mark = if i == batch.diverged {
            " (the case that diverged)"
        } else {
            ""
        };
        let what = match r {
            Ok(out) => match diverges("gpu", &c.program, reference, &out) {
                None => "agrees".to_string(),
                Some(d) => {
                    bad = true;
                    differ += 1;
                    match &d.what {
                        Disagreement::Values(diffs) => format!(
                            "DIFFERS on {} register lane(s) (form {})",
                            diffs.len(),
                            d.form
                        ),
                        Disagreement::Failed(e) => format!("FAILED: {e}"),
                        Disagreement::EngineFailed(m) => format!("FAILED: {m}"),
                    }
                }
            },
            Err(GpuError::Skip(s)) => format!("skipped ({})", s.reason),
            Err(e) => {
                bad = true;
                format!("FAILED: {e}")
            }
        };
        outln!("{name}: case {i}{mark}: {what}");
    }
    outln!(
        "{name}: {differ} of {} case(s) differ from the reference",
        batch.cases.len()
    );
    u8::from(bad)
}

/// The reference run of `c` in the model the GPU is compared in (the spec
/// one when its schedule is perturbed), as `fuzz` runs it; an error when
/// the reference meets undefined behaviour or runs out of fuel.
pub(crate) fn gpu_reference(c: &TestCase) -> Result<Outcome, String> {
    match reference_interp(&c.program, &[&GpuEngine], FUZZ_FUEL).run(&c.inputs) {
        Ok(r) => match r.ub {
            None => Ok(r),
            Some(u) => Err(format!("undefined behaviour in the reference: {u}")),
        },
        Err(e) => Err(format!("interp: {e}")),
    }
}
