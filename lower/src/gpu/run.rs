//! Running emitted PTX on a real GPU through `cudarc`, with the driver
//! loaded at run time: where no CUDA driver is installed, [`Gpu::open`]
//! says so and nothing else changes.
//!
//! A batch of jobs becomes one module per `.version`/`.target` (one driver
//! compile) and one launch per program (one warp per job). A launch that is
//! still running after the deadline is reported as a hang; the GPU is then
//! marked dead and never used again in this process (a hung kernel cannot
//! be stopped; its memory is leaked rather than waited for).

use super::emit::{decode_outputs, emit_module, encode_inputs, module_target, Job};
use cudarc::driver::{CudaContext, CudaStream, LaunchConfig, PushKernelArg};
use cudarc::nvrtc::Ptx;
use std::collections::BTreeMap;
use std::fmt;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};
use warp_core::engine::Skip;
use warp_core::interp::Outcome;

/// Why a job produced no outcome.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum GpuError {
    /// The GPU cannot run this program (e.g. it needs sm_100a).
    Skip(Skip),
    /// The driver refused or failed (PTX JIT error, launch failure, out of
    /// memory), naming what.
    Driver(String),
    /// The kernel did not finish within the deadline; the GPU is now off.
    Hang(String),
    /// The GPU was switched off earlier (after a hang).
    Dead,
}

impl fmt::Display for GpuError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            GpuError::Skip(s) => write!(f, "gpu skips it: {s}"),
            GpuError::Driver(m) => write!(f, "gpu driver error: {m}"),
            GpuError::Hang(m) => write!(f, "gpu hang: {m}"),
            GpuError::Dead => write!(f, "the gpu is off after an earlier hang"),
        }
    }
}

/// An open GPU.
pub struct Gpu {
    ctx: Arc<CudaContext>,
    stream: Arc<CudaStream>,
    /// `NVIDIA H200 (sm_90, driver 13000)`.
    pub description: String,
    /// Compute capability.
    pub cc: (i32, i32),
    deadline: Duration,
    dead: AtomicBool,
    lock: Mutex<()>,
}

/// Why there is no GPU.
#[derive(Clone, Debug)]
pub struct NoGpu(pub String);

impl fmt::Display for NoGpu {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "no GPU found: {}", self.0)
    }
}

fn driver<T>(what: &str, r: Result<T, cudarc::driver::DriverError>) -> Result<T, GpuError> {
    r.map_err(|e| GpuError::Driver(format!("{what}: {e:?}")))
}

impl Gpu {
    /// Opens device 0, if a driver and a device are there.
    pub fn open() -> Result<Gpu, NoGpu> {
        // SAFETY: `is_culib_present` only tries to load the driver library
        // and reports whether it could; it has no preconditions.
        if !unsafe { cudarc::driver::sys::is_culib_present() } {
            return Err(NoGpu("the CUDA driver library is not installed".into()));
        }
        // cudarc panics in some failure paths; a missing device must be a
        // message, not a crash.
        let ctx = std::panic::catch_unwind(|| CudaContext::new(0))
            .map_err(|_| NoGpu("the CUDA driver could not be initialised".into()))?
            .map_err(|e| NoGpu(format!("{e:?}")))?;
        let name = ctx.name().unwrap_or_else(|_| "unknown GPU".into());
        let cc = ctx.compute_capability().unwrap_or((0, 0));
        let stream = ctx.default_stream();
        let deadline = std::env::var("WARPDIFF_GPU_DEADLINE_MS")
            .ok()
            .and_then(|s| s.parse().ok())
            .map_or(Duration::from_secs(5), Duration::from_millis);
        Ok(Gpu {
            description: format!("{name} (sm_{}{})", cc.0, cc.1),
            ctx,
            stream,
            cc,
            deadline,
            dead: AtomicBool::new(false),
            lock: Mutex::new(()),
        })
    }

    /// Sets how long a launch may run before it counts as a hang.
    pub fn with_deadline(mut self, d: Duration) -> Self {
        self.deadline = d;
        self
    }

    /// Whether a hang switched the GPU off.
    pub fn is_dead(&self) -> bool {
        self.dead.load(Ordering::Relaxed)
    }

    /// Runs every job; one result per job, in order. Only programs the
    /// interpreter ran without undefined behaviour may be sent (UB can hang
    /// a warp forever): the caller's oracle guarantees it.
    pub fn run_batch(&self, jobs: &[Job]) -> Vec<Result<Outcome, GpuError>> {
        self.run_batch_unchecked(jobs)
    }

    /// [`Gpu::run_batch`] without any promise about UB: the hang guard is
    /// what protects the process (used by the hang test).
    pub fn run_batch_unchecked(&self, jobs: &[Job]) -> Vec<Result<Outcome, GpuError>> {
        let _one_at_a_time = self.lock.lock().unwrap_or_else(|p| p.into_inner());
        let mut out: Vec<Option<Result<Outcome, GpuError>>> = vec![None; jobs.len()];
        if self.is_dead() {
            return jobs.iter().map(|_| Err(GpuError::Dead)).collect();
        }
        // Group by the module each program needs.
        let mut groups: BTreeMap<
            String,
            (warp_core::ir::Version, warp_core::ir::Target, Vec<usize>),
        > = BTreeMap::new();
        for (i, j) in jobs.iter().enumerate() {
            match module_target(j.program) {
                Ok((v, t)) => groups
                    .entry(format!("{v} {t}"))
                    .or_insert((v, t, Vec::new()))
                    .2
                    .push(i),
                Err(s) => out[i] = Some(Err(GpuError::Skip(s))),
            }
        }
        for (_, (v, t, idx)) in groups {
            let sub: Vec<Job> = idx.iter().map(|&i| Job { ..jobs[i] }).collect();
            match self.run_module(&sub, v, t) {
                Ok(results) => {
                    for (k, r) in results.into_iter().enumerate() {
                        out[idx[k]] = Some(r);
                    }
                }
                Err(e) => {
                    for &i in &idx {
                        out[i] = Some(Err(e.clone()));
                    }
                }
            }
        }
        out.into_iter()
            .map(|o| o.unwrap_or(Err(GpuError::Dead)))
            .collect()
    }

    fn run_module(
        &self,
        jobs: &[Job],
        v: warp_core::ir::Version,
        t: warp_core::ir::Target,
    ) -> Result<Vec<Result<Outcome, GpuError>>, GpuError> {
        let module = emit_module(jobs, v, t).map_err(|e| GpuError::Driver(format!("emit: {e}")))?;
        let m = driver(
            "loading the PTX module (driver JIT)",
            self.ctx.load_module(Ptx::from_src(module.ptx.clone())),
        )?;
        let mut results: Vec<Option<Result<Outcome, GpuError>>> = vec![None; jobs.len()];
        let mut pending = Vec::new();
        for k in &module.kernels {
            let f = driver(&format!("kernel {}", k.name), m.load_function(&k.name))?;
            let mut input = Vec::with_capacity(k.jobs.len() * k.in_words);
            for &j in &k.jobs {
                let words = encode_inputs(jobs[j].program, jobs[j].inputs);
                debug_assert_eq!(words.len(), k.in_words);
                input.extend(words);
            }
            if input.is_empty() {
                input.push(0);
            }
            let d_in = driver("copying inputs", self.stream.clone_htod(&input))?;
            let d_out = driver(
                "allocating outputs",
                self.stream
                    .alloc_zeros::<u64>((k.jobs.len() * k.out_words).max(1)),
            )?;
            let cfg = LaunchConfig {
                grid_dim: (k.jobs.len() as u32, 1, 1),
                block_dim: (32, 1, 1),
                shared_mem_bytes: 0,
            };
            let mut launch = self.stream.launch_builder(&f);
            launch.arg(&d_in).arg(&d_out);
            // SAFETY: the kernel was emitted by `emit_module` with exactly
            // two `.u64` pointer parameters, reads `in_words` u64 per warp of
            // `d_in` and writes `out_words` u64 per warp of `d_out`, and the
            // grid has one 32-thread block per job, so every access is inside
            // the two buffers sized above.
            driver(&format!("launching {}", k.name), unsafe {
                launch.launch(cfg)
            })?;
            pending.push((k, d_in, d_out));
        }
        // Wait with a deadline.
        let done = driver("recording an event", self.stream.record_event(None))?;
        let start = Instant::now();
        loop {
            match done.try_is_complete() {
                Ok(true) => break,
                Ok(false) if start.elapsed() < self.deadline => {
                    std::thread::sleep(Duration::from_micros(50))
                }
                Ok(false) => {
                    self.dead.store(true, Ordering::Relaxed);
                    // The kernel cannot be stopped: leak everything that
                    // would wait for it on drop.
                    std::mem::forget(pending);
                    std::mem::forget(done);
                    std::mem::forget(m);
                    return Err(GpuError::Hang(format!(
                        "kernels still running after {:?}; the GPU is switched off for this run",
                        self.deadline
                    )));
                }
                Err(e) => return Err(GpuError::Driver(format!("running the kernels: {e:?}"))),
            }
        }
        for (k, _d_in, d_out) in pending {
            let words = driver("copying outputs", self.stream.clone_dtoh(&d_out))?;
            for (n, &j) in k.jobs.iter().enumerate() {
                let w = &words[n * k.out_words..(n + 1) * k.out_words];
                results[j] = Some(Ok(decode_outputs(jobs[j].program, w)));
            }
        }
        Ok(results
            .into_iter()
            .map(|r| r.unwrap_or(Err(GpuError::Dead)))
            .collect())
    }
}
