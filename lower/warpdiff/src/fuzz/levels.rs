//! Classifying a GPU divergence by the PTX compiler's optimisation level:
//! the case runs again at every level from -O0 to -O4. Agreeing at -O0 and
//! failing at some higher level makes it a **compiler** finding (with the
//! lowest failing level); failing at -O0 too makes it a **semantics** one
//! (a question for the reference or about the hardware, not the
//! optimiser), unless every optimising level agrees: then it is **o0-only**
//! (-O0's own code: a crash of the compiler at -O0, or a schedule only
//! -O0's code takes).
//!
//! The sweep opens one extra device per level, lazily, and compiles the
//! way the run does: in one compile helper of its own per level when the
//! run compiles in helpers (the driver's linker, a relocatable compile
//! whose code is not the whole-program compile's: a case the helpers got
//! wrong, swept through the whole-program compile, agreed at every level
//! and was called `unknown`; 8 of session 8's and 9's 12 `unknown`
//! findings fail alone through a helper, 2026-11-28), else in this process
//! (`Gpu::open_device` with that level; contexts are the device's primary
//! one), one case at a time.

use std::sync::{Arc, OnceLock};
use warp_core::gen::TestCase;
use warp_core::oracle::diverges;
use warp_core::outcome::Outcome;
use warp_gpu::device::{Device, GpuError};
use warp_gpu::emit::Job;
use warp_gpu::GpuConfig;

/// The levels swept, lowest first.
pub const LEVELS: [u32; 5] = [0, 1, 2, 3, 4];

/// What one level did with the case.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum AtLevel {
    /// It agreed with the reference on every defined lane.
    Agrees,
    /// It diverged.
    Differs,
    /// The kernel hung or faulted, or the PTX compiler refused the module or
    /// died on it, on a program the reference runs without UB (an engine
    /// failing on a valid program is a finding), with the error. After a
    /// hang or fault in this process its GPU context is unusable, so the
    /// levels after it cannot run.
    Fails(String),
    /// It could not say (a skip or a driver error), with why.
    Unknown(String),
}

impl AtLevel {
    /// Whether the GPU got it wrong at this level: it differed, hung or
    /// faulted.
    pub fn fails(&self) -> bool {
        match self {
            AtLevel::Differs | AtLevel::Fails(_) => true,
            AtLevel::Agrees | AtLevel::Unknown(_) => false,
        }
    }

    /// A word for a header line: `agrees`, `differs`, `fails`, `unknown`.
    pub fn word(&self) -> &'static str {
        match self {
            AtLevel::Agrees => "agrees",
            AtLevel::Differs => "differs",
            AtLevel::Fails(_) => "fails",
            AtLevel::Unknown(_) => "unknown",
        }
    }
}

/// The class of a GPU divergence.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Class {
    /// Agrees at -O0, fails from `lowest` on: the optimiser.
    Compiler {
        /// The lowest failing level.
        lowest: u32,
    },
    /// Fails at -O0 too: the reference's semantics or the hardware's.
    Semantics,
    /// Fails at -O0 and agrees at every optimising level: -O0's own code
    /// (the driver's JIT died at -O0 on `engine-failed-1613932f` of
    /// 2026-11-27, session 8, and compiled it from -O1; `ptxas -O0` left a
    /// branch over a guarded `activemask` that split the warp), not the
    /// reference's semantics, which every other level shares.
    OnlyAtO0,
    /// Agrees alone at every level, and its batch, run again as it ran
    /// (fresh processes, the run's level and compile path), differs in
    /// `differs` of `reruns` runs and agrees at -O0: the optimiser, on
    /// code that needs its batch mates ([`crate::fuzz::retry`]).
    InBatch {
        /// Reruns of the batch in which the case differed.
        differs: usize,
        /// Reruns of the batch.
        reruns: usize,
    },
    /// Agrees alone at every level, and alone after the GPU's registers
    /// were filled from `seed` (`--gpu-dirty`) differs at the run's level
    /// and agrees at -O0: the optimiser read a register the program never
    /// wrote ([`crate::fuzz::retry`]).
    AfterDirty {
        /// The first register fill it differed after.
        seed: u32,
    },
    /// The sweep could not decide (no GPU, or -O0 could not run), with why.
    Unknown(String),
}

impl Class {
    /// The class from the results of each level of [`LEVELS`], in order.
    pub fn from_sweep(results: &[(u32, AtLevel)]) -> Class {
        match results.first() {
            Some((0, r)) if r.fails() => {
                if results.len() == LEVELS.len()
                    && results[1..].iter().all(|r| r.1 == AtLevel::Agrees)
                {
                    Class::OnlyAtO0
                } else {
                    Class::Semantics
                }
            }
            Some((0, AtLevel::Agrees)) => match results.iter().find(|r| r.1.fails()) {
                Some(&(lowest, _)) => Class::Compiler { lowest },
                None if results.iter().all(|r| r.1 == AtLevel::Agrees) => Class::Unknown(
                    "agrees at every level when run alone (it needs its batch, or is flaky)"
                        .to_string(),
                ),
                None => Class::Unknown(
                    "agrees at every level that could run; the others could not".to_string(),
                ),
            },
            Some((_, AtLevel::Unknown(why))) => Class::Unknown(format!("-O0: {why}")),
            _ => Class::Unknown("no -O0 result".to_string()),
        }
    }

    /// A short name: `compiler`, `semantics`, `o0-only`, `unknown`.
    pub fn name(&self) -> &'static str {
        match self {
            Class::Compiler { .. } | Class::InBatch { .. } | Class::AfterDirty { .. } => "compiler",
            Class::Semantics => "semantics",
            Class::OnlyAtO0 => "o0-only",
            Class::Unknown(_) => "unknown",
        }
    }

    /// The line a recorded case's header gets.
    pub fn header(&self, results: &[(u32, AtLevel)]) -> String {
        let per: Vec<String> = results
            .iter()
            .map(|(o, r)| format!("-O{o} {}", r.word()))
            .collect();
        let what = match self {
            Class::Compiler { lowest } => {
                format!("compiler (agrees at -O0; lowest failing level -O{lowest})")
            }
            Class::Semantics => "semantics (fails at -O0 too)".to_string(),
            Class::OnlyAtO0 => "o0-only (fails at -O0 and agrees at every optimising level: -O0's own code, a compiler crash or a schedule only its code takes)".to_string(),
            Class::InBatch { differs, reruns } => format!(
                "compiler (needs its batch: differs in {differs} of {reruns} reruns)"
            ),
            Class::AfterDirty { seed } => {
                format!("compiler (state-dependent: differs after dirty seed {seed:#x})")
            }
            Class::Unknown(why) => format!("unknown ({why})"),
        };
        format!("class: {what}; {}", per.join(", "))
    }
}

/// The device compiling at `level` (opened on first use; `None` without a
/// GPU).
fn device(level: u32, base: &GpuConfig) -> Option<Arc<dyn Device>> {
    static DEVICES: [OnceLock<Option<Arc<dyn Device>>>; 5] = [
        OnceLock::new(),
        OnceLock::new(),
        OnceLock::new(),
        OnceLock::new(),
        OnceLock::new(),
    ];
    DEVICES[level as usize]
        .get_or_init(|| {
            // The run's compile path at another level: through one
            // compile helper when the run compiles in helpers (the
            // driver's linker: a relocatable compile, whose code differs
            // from the whole-program compile of a runner or this process;
            // `warp_gpu::driver::link_ptx`), else where the run compiles.
            let config = GpuConfig {
                opt_level: Some(level),
                compile_threads: 1,
                ..base.clone()
            };
            // Through a runner process of its own when the run has them,
            // so that a case that hangs at some level costs that runner.
            // (The simulated GPU of a fault-injection build when the run
            // has one.)
            warp_gpu::engine::open_with(0, &config).ok()
        })
        .clone()
}

/// Runs `case` at every level of [`LEVELS`] and compares each run with
/// `reference`; the class and the per-level results.
pub fn sweep(
    case: &TestCase,
    reference: &Outcome,
    base: &GpuConfig,
) -> (Class, Vec<(u32, AtLevel)>) {
    let results: Vec<(u32, AtLevel)> = LEVELS
        .iter()
        .map(|&o| (o, at_level(case, reference, base, o)))
        .collect();
    (Class::from_sweep(&results), results)
}

fn at_level(case: &TestCase, reference: &Outcome, base: &GpuConfig, level: u32) -> AtLevel {
    let Some(gpu) = device(level, base) else {
        return AtLevel::Unknown("no GPU".to_string());
    };
    let job = Job {
        program: &case.program,
        inputs: &case.inputs,
    };
    judge(gpu.as_ref(), &[job], 0, case, reference)
}

/// Runs `jobs` as one batch on `gpu` and says what it did with job
/// `which`, whose case is `case` and whose reference run is `reference`
/// (the level sweep's rule, also the retries' of [`crate::fuzz::retry`]).
pub fn judge(
    gpu: &dyn Device,
    jobs: &[Job],
    which: usize,
    case: &TestCase,
    reference: &Outcome,
) -> AtLevel {
    if gpu.is_dead() {
        return AtLevel::Unknown("the device was switched off".to_string());
    }
    match gpu.run_batch(jobs).into_iter().nth(which) {
        Some(Ok(out)) => match diverges("gpu", &case.program, reference, &out) {
            Some(_) => AtLevel::Differs,
            None => AtLevel::Agrees,
        },
        Some(Err(GpuError::Skip(s))) => AtLevel::Unknown(s.reason),
        Some(Err(e)) if e.switches_off() => AtLevel::Fails(e.to_string()),
        // The case alone refused or killed the PTX compiler at this level
        // (a compile helper that died of SIGSEGV says so): the engine
        // failing on a valid program, as `fuzz` counts it.
        Some(Err(e @ GpuError::Driver(_))) => AtLevel::Fails(e.to_string()),
        Some(Err(e)) => AtLevel::Unknown(e.to_string()),
        None => AtLevel::Unknown("no result".to_string()),
    }
}

#[cfg(test)]
mod tests {
    use super::{AtLevel, Class};

    fn sweep(r: &[AtLevel]) -> Vec<(u32, AtLevel)> {
        r.iter()
            .cloned()
            .enumerate()
            .map(|(o, a)| (o as u32, a))
            .collect()
    }

    #[test]
    fn classes() {
        use AtLevel::{Agrees as A, Differs as D};
        assert_eq!(
            Class::from_sweep(&sweep(&[A, A, D, D, D])),
            Class::Compiler { lowest: 2 }
        );
        assert_eq!(
            Class::from_sweep(&sweep(&[A, D, A, D, D])),
            Class::Compiler { lowest: 1 }
        );
        assert_eq!(
            Class::from_sweep(&sweep(&[D, D, D, D, D])),
            Class::Semantics
        );
        assert_eq!(Class::from_sweep(&sweep(&[D, A, A, A, A])), Class::OnlyAtO0);
        assert_eq!(
            Class::from_sweep(&sweep(&[D, A, A, D, A])),
            Class::Semantics
        );
        let crashed = sweep(&[AtLevel::Fails("a compile helper failed".into()), A, A, A, A]);
        assert_eq!(Class::from_sweep(&crashed), Class::OnlyAtO0);
        assert!(Class::OnlyAtO0
            .header(&crashed)
            .starts_with("class: o0-only (fails at -O0 and agrees at every optimising level"));
        assert!(matches!(
            Class::from_sweep(&sweep(&[A, A, A, A, A])),
            Class::Unknown(_)
        ));
        assert!(matches!(
            Class::from_sweep(&sweep(&[AtLevel::Unknown("x".into()), D])),
            Class::Unknown(_)
        ));
        // A fault is a failure (hang-7d93fc80 on an H100: agrees at -O0,
        // faults at -O1, and the dead context leaves the rest unknown).
        let fault = || AtLevel::Fails("gpu fault".into());
        let off = || AtLevel::Unknown("the device was switched off".into());
        let faulted = sweep(&[A, fault(), off(), off(), off()]);
        assert_eq!(Class::from_sweep(&faulted), Class::Compiler { lowest: 1 });
        assert_eq!(
            Class::Compiler { lowest: 1 }.header(&faulted),
            "class: compiler (agrees at -O0; lowest failing level -O1); -O0 agrees, -O1 fails, -O2 unknown, -O3 unknown, -O4 unknown"
        );
        assert_eq!(Class::from_sweep(&sweep(&[fault()])), Class::Semantics);
        assert_eq!(
            Class::from_sweep(&sweep(&[A, off(), off()])),
            Class::Unknown("agrees at every level that could run; the others could not".into())
        );
        let h = Class::Compiler { lowest: 2 }.header(&sweep(&[A, A, D]));
        assert_eq!(
            h,
            "class: compiler (agrees at -O0; lowest failing level -O2); -O0 agrees, -O1 agrees, -O2 differs"
        );
    }
}
