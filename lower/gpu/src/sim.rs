//! A simulated GPU for proving the fault paths without hardware
//! (`inject-bugs` builds only): it "runs" each job on the reference
//! interpreter, reporting every lane as a GPU would, and reports a kernel
//! fault, switching itself off, when its [`SimFault`] rule says so. Child
//! processes started to narrow a fault down inherit the same rule (through
//! the command line that configures them), so "does this case fault alone"
//! has the same answer there.

use super::config::SimFault;
use super::device::{Device, GpuError, Timing};
use super::emit::{module_target, Job};
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use warp_core::interp::{Interp, DEFAULT_FUEL};
use warp_core::ir::Program;
use warp_core::outcome::Outcome;

/// The simulated GPU.
pub struct SimGpu {
    ordinal: usize,
    fault: SimFault,
    batches: AtomicUsize,
    dead: AtomicBool,
}

impl SimGpu {
    /// A simulated device that faults as `fault` says.
    pub fn new(ordinal: usize, fault: SimFault) -> SimGpu {
        SimGpu {
            ordinal,
            fault,
            batches: AtomicUsize::new(0),
            dead: AtomicBool::new(false),
        }
    }

    /// Whether a batch of these programs faults (`n` is its 1-based index).
    fn faults(&self, n: usize, programs: &[&Program]) -> bool {
        let has = |form: &str| {
            programs
                .iter()
                .any(|p| p.insts.iter().any(|i| i.op.form_name() == form))
        };
        match &self.fault {
            SimFault::NthBatch(k) => n >= *k,
            SimFault::Form(f) => has(f),
            SimFault::Pair(a, b) => has(a) && has(b),
            SimFault::StuckBatch(_) => false,
        }
    }
}

impl Device for SimGpu {
    fn description(&self) -> String {
        format!(
            "simulated GPU {} (inject-bugs build; faults on {:?})",
            self.ordinal, self.fault
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
        let n = self.batches.fetch_add(1, Ordering::Relaxed) + 1;
        if self.fault == SimFault::StuckBatch(n) {
            loop {
                std::thread::sleep(std::time::Duration::from_secs(1));
            }
        }
        let programs: Vec<&Program> = jobs.iter().map(|j| j.program).collect();
        if self.faults(n, &programs) {
            self.dead.store(true, Ordering::Relaxed);
            let e = GpuError::Fault(format!(
                "simulated CUDA_ERROR_ILLEGAL_INSTRUCTION in batch {n} ({:?}); the GPU is switched off for this run",
                self.fault
            ));
            return (
                jobs.iter().map(|_| Err(e.clone())).collect(),
                Timing::default(),
            );
        }
        let results = jobs
            .iter()
            .map(|j| {
                if let Err(s) = module_target(j.program) {
                    return Err(GpuError::Skip(s));
                }
                match Interp::new(j.program).with_fuel(DEFAULT_FUEL).run(j.inputs) {
                    // A GPU reports every lane.
                    Ok(out) => Ok(Outcome::all_defined(out.values, out.exited)),
                    Err(e) => Err(GpuError::Hang(format!("simulated: {e}"))),
                }
            })
            .collect();
        (results, Timing::default())
    }
}
