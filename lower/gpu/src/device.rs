//! What the rest of warpdiff sees of a GPU: a [`Device`] that runs a batch
//! of jobs and says, per job, the outcome or why there is none
//! ([`GpuError`]), and where the time went ([`Timing`]). The real hardware
//! ([`crate::run::Gpu`]) and, in fault-injection builds, a simulated GPU
//! (`sim.rs`) implement it.

use crate::emit::Job;
use std::fmt;
use std::time::Duration;
use warp_core::engine::Skip;
use warp_core::outcome::Outcome;

/// Why a job produced no outcome.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum GpuError {
    /// The GPU cannot run this program (e.g. it needs sm_100a).
    Skip(Skip),
    /// The driver refused or failed (PTX compile error, launch failure, out
    /// of memory), naming what.
    Driver(String),
    /// The kernel did not finish within the deadline; the GPU is now off.
    Hang(String),
    /// A kernel faulted (e.g. `CUDA_ERROR_ILLEGAL_INSTRUCTION`): the
    /// context is unusable, so the GPU is now off.
    Fault(String),
    /// The GPU was switched off earlier (after a hang or a fault in this
    /// process, or when no runner process could start any more).
    Dead,
    /// The batch was given up unfinished because the run ended
    /// ([`Device::abandon_after`]): not checked, and no finding.
    Abandoned,
}

impl GpuError {
    /// A hang or a fault: a finding, which switches off a GPU of this
    /// process (not one whose batches run in a runner process, see
    /// [`Device::survives_failures`]).
    pub fn switches_off(&self) -> bool {
        matches!(self, GpuError::Hang(_) | GpuError::Fault(_))
    }
}

impl fmt::Display for GpuError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            GpuError::Skip(s) => write!(f, "gpu skips it: {s}"),
            GpuError::Driver(m) => write!(f, "gpu driver error: {m}"),
            GpuError::Hang(m) => write!(f, "gpu hang: {m}"),
            GpuError::Fault(m) => write!(f, "gpu fault: {m}"),
            GpuError::Dead => write!(f, "the gpu is off after an earlier hang or fault"),
            GpuError::Abandoned => write!(f, "the run ended before the gpu answered"),
        }
    }
}

/// Where the time of one batch went (wall-clock; `emit` is summed over the
/// compile threads, so it can exceed `load`, which includes it).
#[derive(Clone, Copy, Debug, Default)]
pub struct Timing {
    /// PTX emission (summed over threads).
    pub emit: Duration,
    /// Emission plus the driver's PTX compile, all chunks in parallel.
    pub load: Duration,
    /// Input copies and kernel launches (enqueueing).
    pub launch: Duration,
    /// Waiting for the kernels.
    pub wait: Duration,
    /// Reading the results back and decoding them.
    pub copy: Duration,
    /// Modules compiled.
    pub modules: usize,
    /// Kernels (distinct programs) launched.
    pub kernels: usize,
    /// PTX text compiled, in bytes.
    pub ptx_bytes: usize,
}

impl Timing {
    /// Adds `o` into `self`.
    pub fn add(&mut self, o: &Timing) {
        self.emit += o.emit;
        self.load += o.load;
        self.launch += o.launch;
        self.wait += o.wait;
        self.copy += o.copy;
        self.modules += o.modules;
        self.kernels += o.kernels;
        self.ptx_bytes += o.ptx_bytes;
    }
}

/// What happened to the runners, for the run's summary.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct RunnerCounts {
    /// Runners started (the first one included).
    pub started: u64,
    /// Batches whose kernels hung (the runner exited).
    pub hangs: u64,
    /// Batches whose kernels faulted (the runner exited).
    pub faults: u64,
    /// Runners that did not answer in time and were killed.
    pub stuck: u64,
    /// Compiles killed at their deadline.
    pub compile_timeouts: u64,
    /// Compile helpers of the GPU's farm (0 when it has none).
    pub helpers: u64,
    /// Microseconds the helpers spent compiling (summed over helpers; a
    /// helper's share of the run's wall time is how busy it was).
    pub compile_busy_us: u64,
    /// Microseconds a runner held the GPU for a batch (request to answer):
    /// the GPU's own share of the run, the rest is compiling and waiting.
    pub runner_busy_us: u64,
}

/// A GPU that runs batches of jobs.
pub trait Device: Send + Sync {
    /// `NVIDIA H200 (sm_90, CUDA driver 13.0, PTX JIT -O0)` and which
    /// compiler ran, for messages and the cases it writes.
    fn description(&self) -> String;

    /// The device's ordinal (0 for the first GPU).
    fn ordinal(&self) -> usize;

    /// Whether it is off (a hang or fault in this process, or no runner
    /// process can start).
    fn is_dead(&self) -> bool;

    /// Why it is off, when it says more than [`GpuError::Dead`].
    fn why_dead(&self) -> Option<String> {
        None
    }

    /// Whether a hang or a fault costs only its batch (the batches run in
    /// a runner process that is replaced), not the GPU. Default: no.
    fn survives_failures(&self) -> bool {
        false
    }

    /// Gives up waiting for a batch at `at` (the end of a run): the batch
    /// ends with [`GpuError::Abandoned`]. Default: no effect (an
    /// in-process GPU cannot give a driver call up).
    fn abandon_after(&self, at: std::time::Instant) {
        let _ = at;
    }

    /// What happened to its runner processes, for a GPU that has them.
    fn runner_counts(&self) -> Option<RunnerCounts> {
        None
    }

    /// Runs every job; one result per job, in order, and where the time
    /// went. Only programs the interpreter ran without undefined behaviour
    /// should be sent (UB can hang a warp forever); the deadline is what
    /// protects the process when one hangs anyway.
    fn run_batch_timed(&self, jobs: &[Job]) -> (Vec<Result<Outcome, GpuError>>, Timing);

    /// [`Device::run_batch_timed`] without the timing.
    fn run_batch(&self, jobs: &[Job]) -> Vec<Result<Outcome, GpuError>> {
        self.run_batch_timed(jobs).0
    }
}
