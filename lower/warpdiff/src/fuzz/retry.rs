//! What `warpdiff fuzz` does with a GPU divergence that agrees at every
//! level when run alone (the level sweep's `unknown`,
//! [`crate::fuzz::levels`]): it keeps the batch the case diverged in (a
//! `.batch.txt` file next to the finding, [`crate::fuzz::batch_file`])
//! and tries the two explanations seen on hardware:
//!
//! 1. **Its batch.** The batch runs again as it ran, `--gpu-batch-reruns`
//!    times (default 3), each time in a fresh device (a fresh runner
//!    process and compile helpers when the run has them: what ran before
//!    in a process is not the batch), at the run's level and through its
//!    compile path, and the case that diverged is compared with its
//!    reference. When it differs in any rerun, the batch runs once more at
//!    -O0.
//! 2. **What the registers held.** The case alone runs after a
//!    `--gpu-dirty` register fill, under `--gpu-dirty-retries` seeds
//!    (default 4, drawn from the case seed), at the run's level; the first
//!    seed it differs after is tried at -O0 too.
//!
//! Every attempt is a line of the finding's header (`// retry: ...`), and
//! the class becomes `compiler (needs its batch: differs in k of R
//! reruns)` when the batch differs again and agrees at -O0, else
//! `compiler (state-dependent: differs after dirty seed S)` when a fill
//! makes it differ and -O0 under the same fill agrees, else stays
//! `unknown`, with the retries told. A hang, a fault or a refused compile
//! in an attempt is recorded as `fails` (not a reproduction: the finding
//! was a wrong value); no attempt starts after `until`, and each has the
//! run's compile and launch deadlines.

use crate::fuzz::levels::{judge, AtLevel, Class};
use std::time::Instant;
use warp_core::engine::unbounded_only;
use warp_core::gen::TestCase;
use warp_core::outcome::Outcome;
use warp_gpu::batch::Pending;
use warp_gpu::emit::Job;
use warp_gpu::GpuConfig;

/// A GPU batch as it ran (the cases the GPU ran, in order: bounded runs
/// are not the GPU's), and which of them diverged.
#[derive(Clone, Debug)]
pub struct AsRan {
    /// The cases with their reference runs.
    pub cases: Vec<Pending>,
    /// The index of the case that diverged.
    pub diverged: usize,
}

impl AsRan {
    /// The batch of `cases` as the GPU ran it (without the bounded runs it
    /// skips), where `cases[diverged]` diverged; `None` when that one did
    /// not run.
    pub fn new<'a>(cases: impl Iterator<Item = &'a Pending>, diverged: usize) -> Option<AsRan> {
        let mut ran = Vec::new();
        let mut at = None;
        for (i, p) in cases.enumerate() {
            if unbounded_only(&p.case.inputs).is_some() {
                continue;
            }
            if i == diverged {
                at = Some(ran.len());
            }
            ran.push(p.clone());
        }
        Some(AsRan {
            cases: ran,
            diverged: at?,
        })
    }

    /// Its cases, in order.
    pub fn test_cases(&self) -> Vec<&TestCase> {
        self.cases.iter().map(|p| &p.case).collect()
    }
}

/// How many retries of each kind.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Retries {
    /// Reruns of the batch.
    pub reruns: usize,
    /// Register fills the case runs alone after.
    pub seeds: usize,
}

impl Default for Retries {
    fn default() -> Self {
        Retries {
            reruns: 3,
            seeds: 4,
        }
    }
}

/// The `n`-th dirty seed of a case (from 0): drawn from its case seed, so
/// that the same finding gets the same seeds.
pub fn dirty_seed(case_seed: u64, n: usize) -> u32 {
    let mut rng = warp_core::rng::Rng::stream(case_seed, 0xd127 + n as u64);
    rng.next_u64() as u32
}

/// What the retries did.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Attempts {
    /// Each rerun of the batch (empty without a batch).
    pub batch: Vec<AtLevel>,
    /// The batch at -O0, when a rerun differed.
    pub batch_o0: Option<AtLevel>,
    /// Each register fill: its seed, the case alone at the run's level
    /// after it, and at -O0 after it (when the first differed and no
    /// earlier seed's -O0 run agreed).
    pub dirty: Vec<(u32, AtLevel, Option<AtLevel>)>,
}

/// `-O3`, or `-O4 (the driver's default)`.
fn level_name(level: Option<u32>) -> String {
    match level {
        Some(o) => format!("-O{o}"),
        None => "the driver's default level".to_string(),
    }
}

/// How an attempt went, for a header line.
fn told(r: &AtLevel) -> String {
    match r {
        AtLevel::Agrees | AtLevel::Differs => r.word().to_string(),
        AtLevel::Fails(why) | AtLevel::Unknown(why) => format!("{} ({why})", r.word()),
    }
}

impl Attempts {
    /// The header lines: one per attempt, `retry: ...`.
    pub fn lines(&self, level: Option<u32>, batch_len: Option<usize>) -> Vec<String> {
        let lv = level_name(level);
        let mut v = Vec::new();
        match batch_len {
            Some(n) => {
                let r = self.batch.len();
                for (i, a) in self.batch.iter().enumerate() {
                    v.push(format!(
                        "retry: batch {}/{r} {} (its {n} cases in a fresh process, {lv})",
                        i + 1,
                        told(a)
                    ));
                }
                if let Some(a) = &self.batch_o0 {
                    v.push(format!("retry: batch at -O0 {}", told(a)));
                }
            }
            None => v.push("retry: no batch (the case was not found in a batch)".to_string()),
        }
        for (seed, a, o0) in &self.dirty {
            v.push(format!(
                "retry: alone, dirty seed {seed:#010x} {} ({lv})",
                told(a)
            ));
            if let Some(o) = o0 {
                v.push(format!(
                    "retry: alone, dirty seed {seed:#010x} at -O0 {}",
                    told(o)
                ));
            }
        }
        v
    }

    /// The class after the retries of a case the sweep called unknown for
    /// `why`: the batch first, then the register fills, else unknown with
    /// the retries told.
    pub fn class(&self, why: &str) -> Class {
        let differs = self
            .batch
            .iter()
            .filter(|a| **a == AtLevel::Differs)
            .count();
        if differs > 0 && self.batch_o0 == Some(AtLevel::Agrees) {
            return Class::InBatch {
                differs,
                reruns: self.batch.len(),
            };
        }
        let after = self
            .dirty
            .iter()
            .find(|(_, a, o0)| *a == AtLevel::Differs && *o0 == Some(AtLevel::Agrees));
        if let Some((seed, _, _)) = after {
            return Class::AfterDirty { seed: *seed };
        }
        let dirty_differ = self
            .dirty
            .iter()
            .filter(|(_, a, _)| *a == AtLevel::Differs)
            .count();
        let o0 = match &self.batch_o0 {
            Some(a) => format!(", at -O0 {}", a.word()),
            None => String::new(),
        };
        let dirty_o0 = match self
            .dirty
            .iter()
            .find_map(|(s, _, o)| o.as_ref().map(|o| (s, o)))
        {
            Some((s, o)) => format!(", at -O0 after {s:#010x} {}", o.word()),
            None => String::new(),
        };
        Class::Unknown(format!(
            "{why}; retries: the batch differs in {differs} of {} reruns{o0}; alone, {dirty_differ} of {} dirty seeds differ{dirty_o0}",
            self.batch.len(),
            self.dirty.len()
        ))
    }
}

/// Where the retries run: devices of their own opened as `base` says
/// (the run's GPU configuration), with `per_gpu` compile threads for the
/// batch (the run's split: the same modules); nothing starts after
/// `until`.
#[derive(Clone, Copy, Debug)]
pub struct On<'a> {
    /// The run's GPU configuration.
    pub base: &'a GpuConfig,
    /// The compile threads of each of the run's GPUs.
    pub per_gpu: usize,
    /// When no more attempts start.
    pub until: Instant,
}

/// Runs the retries (see the module doc) of `small`, whose reference run
/// is `reference`, found in `batch` (when it was found in one), `counts`
/// of them, `on` devices of their own.
pub fn retry(
    batch: Option<&AsRan>,
    small: &TestCase,
    reference: &Outcome,
    case_seed: u64,
    counts: Retries,
    on: On,
) -> Attempts {
    let On {
        base,
        per_gpu,
        until,
    } = on;
    let late = || AtLevel::Unknown("not run: the run's time and grace were over".to_string());
    // A device of its own for each attempt, so that what ran before it in
    // a process is never the batch's doing.
    let attempt = |config: GpuConfig, jobs: &[Job], which: usize, case: &TestCase, r: &Outcome| {
        if Instant::now() >= until {
            return late();
        }
        match warp_gpu::engine::open_with(0, &config) {
            Ok(gpu) => judge(gpu.as_ref(), jobs, which, case, r),
            Err(e) => AtLevel::Unknown(format!("no device: {e}")),
        }
    };
    let mut out = Attempts::default();
    if let Some(b) = batch {
        let jobs: Vec<Job> = b.cases.iter().map(Pending::job).collect();
        let d = &b.cases[b.diverged];
        let as_ran = GpuConfig {
            compile_threads: per_gpu.max(1),
            ..base.clone()
        };
        for _ in 0..counts.reruns {
            out.batch.push(attempt(
                as_ran.clone(),
                &jobs,
                b.diverged,
                &d.case,
                &d.reference,
            ));
        }
        if out.batch.contains(&AtLevel::Differs) {
            let o0 = GpuConfig {
                opt_level: Some(0),
                ..as_ran
            };
            out.batch_o0 = Some(attempt(o0, &jobs, b.diverged, &d.case, &d.reference));
        }
    }
    let alone = [Job {
        program: &small.program,
        inputs: &small.inputs,
    }];
    let mut explained = false;
    for n in 0..counts.seeds {
        let seed = dirty_seed(case_seed, n);
        let filled = GpuConfig {
            compile_threads: 1,
            dirty: Some(seed),
            ..base.clone()
        };
        let a = attempt(filled.clone(), &alone, 0, small, reference);
        let o0 = (a == AtLevel::Differs && !explained).then(|| {
            let o0 = GpuConfig {
                opt_level: Some(0),
                ..filled
            };
            attempt(o0, &alone, 0, small, reference)
        });
        explained |= o0 == Some(AtLevel::Agrees);
        out.dirty.push((seed, a, o0));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::{dirty_seed, Attempts};
    use crate::fuzz::levels::{AtLevel, Class};
    use AtLevel::{Agrees as A, Differs as D};

    #[test]
    fn the_batch_explains_first_then_a_register_fill() {
        let batch = Attempts {
            batch: vec![D, A, D],
            batch_o0: Some(A),
            dirty: vec![(5, D, Some(A))],
        };
        assert_eq!(
            batch.class("x"),
            Class::InBatch {
                differs: 2,
                reruns: 3
            }
        );
        // The batch differs at -O0 too: not the optimiser's, so the fill.
        let o0_too = Attempts {
            batch_o0: Some(D),
            ..batch.clone()
        };
        assert_eq!(o0_too.class("x"), Class::AfterDirty { seed: 5 });
        let dirty = Attempts {
            batch: vec![A, A, A],
            batch_o0: None,
            dirty: vec![(1, A, None), (9, D, Some(A)), (3, D, None)],
        };
        assert_eq!(dirty.class("x"), Class::AfterDirty { seed: 9 });
        assert_eq!(
            Class::AfterDirty { seed: 9 }.header(&[]),
            "class: compiler (state-dependent: differs after dirty seed 0x9); "
        );
    }

    #[test]
    fn nothing_reproduced_stays_unknown_with_the_retries_told() {
        let none = Attempts {
            batch: vec![A, AtLevel::Fails("gpu hang".into()), A],
            batch_o0: None,
            dirty: vec![(1, A, None), (2, D, Some(D))],
        };
        assert_eq!(
            none.class("agrees alone"),
            Class::Unknown(
                "agrees alone; retries: the batch differs in 0 of 3 reruns; alone, 1 of 2 dirty seeds differ, at -O0 after 0x00000002 differs".into()
            )
        );
        let lines = none.lines(Some(3), Some(16));
        assert_eq!(
            lines[0],
            "retry: batch 1/3 agrees (its 16 cases in a fresh process, -O3)"
        );
        assert_eq!(
            lines[1],
            "retry: batch 2/3 fails (gpu hang) (its 16 cases in a fresh process, -O3)"
        );
        assert_eq!(lines[3], "retry: alone, dirty seed 0x00000001 agrees (-O3)");
        assert_eq!(
            lines[5],
            "retry: alone, dirty seed 0x00000002 at -O0 differs"
        );
        assert_eq!(lines.len(), 6);
    }

    #[test]
    fn the_seeds_are_the_case_seeds_and_differ() {
        let s: Vec<u32> = (0..4).map(|n| dirty_seed(0x1234, n)).collect();
        assert_eq!(s, (0..4).map(|n| dirty_seed(0x1234, n)).collect::<Vec<_>>());
        for i in 0..4 {
            for j in 0..i {
                assert_ne!(s[i], s[j]);
            }
        }
        assert_ne!(dirty_seed(0x1234, 0), dirty_seed(0x1235, 0));
    }
}
