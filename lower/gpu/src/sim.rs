//! A simulated GPU for proving the fault paths without hardware
//! (`inject-bugs` builds only): it "runs" each job on the reference
//! interpreter, reporting every lane as a GPU would, and hangs, faults or
//! gets stuck in a driver call when its [`SimFault`] rule says so.
//!
//! It runs in two places, with one rule ([`decide`]):
//! - in this process ([`SimGpu`], a [`Device`]), for single runs and the
//!   fresh probe processes that narrow a failure down: after a hang or a
//!   fault it is off, as the in-process hardware is;
//! - in a runner process ([`crate::runner`], fed by [`crate::remote`]),
//!   where each batch arrives with its number in the run and its jobs as
//!   case texts ([`run_modules`]): a hang or a fault ends that process, a
//!   stuck call leaves it for the parent to kill.

use super::config::{SimFault, SimStop};
use super::device::{Device, GpuError, Timing};
use super::emit::{encode_outputs, module_target, Job};
use super::sim_wrong::{spoil, wrong, SimState};
use super::wire::{Image, ModuleRun, Reply};
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use warp_core::idioms::Idiom;
use warp_core::interp::{Interp, DEFAULT_FUEL};
use warp_core::ir::Program;
use warp_core::outcome::Outcome;

/// What the rule does to the `n`-th batch (1-based), which holds
/// `programs`: `None` when it runs.
pub fn decide(rule: &SimFault, n: usize, programs: &[&Program]) -> Option<SimStop> {
    let has = |form: &str| {
        programs
            .iter()
            .any(|p| p.insts.iter().any(|i| i.op.form_name() == form))
    };
    match rule {
        SimFault::NthBatch(k) => (n == *k).then_some(SimStop::Fault),
        SimFault::StuckBatch(k) => (n == *k).then_some(SimStop::Stuck),
        SimFault::Every(k, how) => n.is_multiple_of(*k).then_some(*how),
        SimFault::Cycle(k) => n.is_multiple_of(*k).then_some(match (n / k) % 3 {
            1 => SimStop::Hang,
            2 => SimStop::Fault,
            _ => SimStop::Stuck,
        }),
        SimFault::Form(f) => has(f).then_some(SimStop::Fault),
        SimFault::Pair(a, b) => (has(a) && has(b)).then_some(SimStop::Fault),
        SimFault::HangIdiom(name) => {
            let idiom = Idiom::from_name(name)?;
            programs
                .iter()
                .any(|p| idiom.find(p).is_some())
                .then_some(SimStop::Hang)
        }
        // Wrong values, not stops (`sim_wrong`).
        SimFault::WrongAfter(_, _) | SimFault::WrongDirty(_) | SimFault::WrongOnce(_) => None,
    }
}

/// Never returns: a driver call that does not come back.
fn stuck() -> ! {
    loop {
        std::thread::sleep(std::time::Duration::from_secs(1));
    }
}

/// One job on the reference, reported as a GPU would (every lane).
fn run_one(program: &Program, inputs: &warp_core::ir::Inputs) -> Result<Outcome, String> {
    match Interp::new(program).with_fuel(DEFAULT_FUEL).run(inputs) {
        Ok(out) => Ok(Outcome::all_defined(out.values, out.exited)),
        Err(e) => Err(format!("simulated: {e}")),
    }
}

/// The simulated GPU in this process.
pub struct SimGpu {
    ordinal: usize,
    fault: SimFault,
    batches: AtomicUsize,
    dead: AtomicBool,
    opt_level: Option<u32>,
    dirty: Option<u32>,
}

impl SimGpu {
    /// A simulated device that fails as `fault` says, compiling at -O0
    /// with no register fill.
    pub fn new(ordinal: usize, fault: SimFault) -> SimGpu {
        SimGpu {
            ordinal,
            fault,
            batches: AtomicUsize::new(0),
            dead: AtomicBool::new(false),
            opt_level: Some(0),
            dirty: None,
        }
    }

    /// The device compiling at `opt_level` and filling the registers from
    /// `dirty` before each batch (what the wrong-value rules read).
    pub fn with_setup(mut self, opt_level: Option<u32>, dirty: Option<u32>) -> SimGpu {
        self.opt_level = opt_level;
        self.dirty = dirty;
        self
    }
}

impl Device for SimGpu {
    fn description(&self) -> String {
        format!(
            "simulated GPU {} (inject-bugs build; fails as {})",
            self.ordinal,
            self.fault.name()
        )
    }

    fn ordinal(&self) -> usize {
        self.ordinal
    }

    fn is_dead(&self) -> bool {
        self.dead.load(Ordering::Relaxed)
    }

    fn run_batch_timed(&self, jobs: &[Job]) -> (Vec<Result<Outcome, GpuError>>, Timing) {
        if self.is_dead() {
            return (
                jobs.iter().map(|_| Err(GpuError::Dead)).collect(),
                Timing::default(),
            );
        }
        if jobs.is_empty() {
            // Nothing is launched: not a batch the rule counts.
            return (Vec::new(), Timing::default());
        }
        let n = self.batches.fetch_add(1, Ordering::Relaxed) + 1;
        let programs: Vec<&Program> = jobs.iter().map(|j| j.program).collect();
        let failed = match decide(&self.fault, n, &programs) {
            None => None,
            Some(SimStop::Stuck) => stuck(),
            Some(SimStop::Hang) => Some(GpuError::Hang(format!(
                "simulated: kernels still running at the deadline in batch {n} ({}); the GPU is switched off for this process",
                self.fault.name()
            ))),
            Some(SimStop::Fault) => Some(GpuError::Fault(format!(
                "simulated CUDA_ERROR_ILLEGAL_INSTRUCTION in batch {n} ({}); the GPU is switched off for this process",
                self.fault.name()
            ))),
        };
        if let Some(e) = failed {
            self.dead.store(true, Ordering::Relaxed);
            return (
                jobs.iter().map(|_| Err(e.clone())).collect(),
                Timing::default(),
            );
        }
        let state = SimState {
            opt_level: self.opt_level,
            dirty: self.dirty,
            earlier: n - 1,
            seq: n,
        };
        let spoilt = wrong(&self.fault, &state, &programs);
        let results = jobs
            .iter()
            .zip(spoilt)
            .map(|(j, bad)| {
                if let Err(s) = module_target(j.program) {
                    return Err(GpuError::Skip(s));
                }
                let mut out = run_one(j.program, j.inputs).map_err(GpuError::Hang)?;
                if bad {
                    spoil(&mut out);
                }
                Ok(out)
            })
            .collect();
        (results, Timing::default())
    }
}

/// A runner's batch on the simulated GPU: batch `state.seq` of the run,
/// its modules' jobs as case texts ([`Image::Sim`]), run module by module,
/// kernel by kernel. Never returns when the rule says the batch gets stuck.
pub fn run_modules(rule: &SimFault, state: &SimState, modules: &[ModuleRun]) -> Reply {
    let seq = state.seq;
    let mut programs = Vec::new();
    let mut parsed = Vec::with_capacity(modules.len());
    for m in modules {
        let Image::Sim(cases) = &m.image else {
            parsed.push(Err("the simulated GPU got a real module".to_string()));
            continue;
        };
        let cases: Result<Vec<_>, String> = cases
            .iter()
            .map(|t| warp_core::text::parse(t).map_err(|e| format!("simulated: {e}")))
            .collect();
        parsed.push(cases);
    }
    for cases in parsed.iter().flatten() {
        programs.extend(cases.iter().map(|c| &c.program));
    }
    let mut spoilt = wrong(rule, state, &programs).into_iter();
    match decide(rule, seq, &programs) {
        None => {}
        Some(SimStop::Stuck) => stuck(),
        Some(SimStop::Hang) => {
            return Reply::Hang(format!(
                "simulated: kernels still running at the deadline in batch {seq} ({})",
                rule.name()
            ))
        }
        Some(SimStop::Fault) => {
            return Reply::Fault(format!(
                "simulated CUDA_ERROR_ILLEGAL_INSTRUCTION in batch {seq} ({})",
                rule.name()
            ))
        }
    }
    let results = modules
        .iter()
        .zip(parsed)
        .map(|(m, cases)| {
            let cases = cases?;
            let mut words = vec![0u64; m.out_words as usize];
            let mut next = cases.iter();
            for k in &m.kernels {
                for n in 0..k.warps as u64 {
                    let c = next
                        .next()
                        .ok_or("simulated: fewer cases than blocks".to_string())?;
                    let mut out = run_one(&c.program, &c.inputs)?;
                    if spoilt.next().unwrap_or(false) {
                        spoil(&mut out);
                    }
                    let w = encode_outputs(&c.program, &out);
                    let at = (k.out_off + n * k.out_words) as usize;
                    words[at..at + w.len()].copy_from_slice(&w);
                }
            }
            Ok(words)
        })
        .collect();
    Reply::Ran(results)
}
