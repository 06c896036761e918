//! The GPU oracle for many cases at once: cases the reference interpreter
//! already ran without UB go to the GPU in one batch (one module per chunk,
//! compiled in parallel; see [`super::run`]), and each result is compared
//! with its reference run on the defined lanes.

use super::device::{Device, GpuError, Timing};
use super::emit::Job;
use warp_core::engine::unbounded_only;
use warp_core::gen::TestCase;
use warp_core::oracle::{diverges, Divergence};
use warp_core::outcome::Outcome;

/// A case ready for the GPU: the interpreter ran it without UB.
#[derive(Clone, Debug)]
pub struct Pending {
    /// The program and its inputs.
    pub case: TestCase,
    /// The interpreter's run of it (no UB).
    pub reference: Outcome,
}

impl Pending {
    /// The case as a GPU job.
    pub fn job(&self) -> Job<'_> {
        Job {
            program: &self.case.program,
            inputs: &self.case.inputs,
        }
    }
}

/// What the GPU said about one case.
#[derive(Clone, Debug)]
pub enum Checked {
    /// Every defined lane and the exited lanes agree.
    Agree,
    /// The GPU skipped it (e.g. `.f32` `redux.sync` needs sm_100a): never
    /// counted as agreement.
    Skipped(String),
    /// The GPU could not run it (driver error, hang, switched off).
    Failed(GpuError),
    /// The GPU disagrees with the reference.
    Diverge(Box<Divergence>),
}

/// The class of a skip reason, for counting: the text before the first
/// `:` (`needs sm_100a`).
pub fn skip_class(reason: &str) -> String {
    reason
        .split(':')
        .next()
        .unwrap_or(reason)
        .trim()
        .to_string()
}

/// Runs `cases` on the GPU as one batch and compares each with its
/// reference run. One result per case, in order, and where the time went.
pub fn check_batch(gpu: &dyn Device, cases: &[Pending]) -> (Vec<Checked>, Timing) {
    // Bounded runs (`.fuel`) are not the GPU's to judge: it counts no steps.
    let jobs: Vec<Job> = cases
        .iter()
        .filter(|p| unbounded_only(&p.case.inputs).is_none())
        .map(Pending::job)
        .collect();
    let (results, timing) = gpu.run_batch_timed(&jobs);
    let mut results = results.into_iter();
    let checked = cases
        .iter()
        .map(|p| {
            let r = match unbounded_only(&p.case.inputs) {
                Some(skip) => Err(GpuError::Skip(skip)),
                None => results.next().expect("one result per job"),
            };
            match r {
                Ok(out) => match diverges("gpu", &p.case.program, &p.reference, &out) {
                    Some(d) => Checked::Diverge(d),
                    None => Checked::Agree,
                },
                Err(GpuError::Skip(s)) => Checked::Skipped(s.reason),
                Err(e) => Checked::Failed(e),
            }
        })
        .collect();
    (checked, timing)
}
