//! Running emitted PTX on a real GPU through `cudarc`, with the driver
//! loaded at run time: where no CUDA driver is installed, [`Gpu::open`]
//! says so and nothing else changes.
//!
//! A batch of jobs is grouped by `.version`/`.target` and cut into up to
//! [`GpuConfig::compile_threads`] chunks; each chunk becomes one module (one
//! driver compile, the chunks compiled in parallel threads), one input and
//! one output buffer, and one launch per distinct program (one warp per
//! job). Modules are loaded with `cuModuleLoadDataEx` so that the PTX
//! compiler's error log names what it refused. A batch still running after
//! the deadline is reported as a hang; the GPU is then marked dead and never
//! used again in this process (a hung kernel cannot be stopped; its memory
//! is leaked rather than waited for).

use super::config::{Compiler, GpuConfig};
use super::device::{Device, GpuError, Timing};
use super::driver::{self, NoGpu};
use super::emit::Job;
use super::exec::{self, Stopped};
use super::farm::Farm;
use super::plan::{self, first_lines};
use super::wire::Image;
use cudarc::driver::{CudaContext, CudaStream};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};
use warp_core::outcome::Outcome;

/// An open GPU.
pub struct Gpu {
    ctx: Arc<CudaContext>,
    stream: Arc<CudaStream>,
    /// `NVIDIA H200 (sm_90, CUDA driver 13.0, PTX JIT -O0)`.
    pub description: String,
    /// Compute capability.
    pub cc: (i32, i32),
    /// The device's ordinal (0 for the first GPU).
    pub ordinal: usize,
    config: GpuConfig,
    farm: Option<Farm>,
    /// `ptxas --version` when the helpers run `ptxas`.
    ptxas: Option<String>,
    dead: AtomicBool,
    lock: Mutex<()>,
}

impl Gpu {
    /// Opens device 0 with the default [`GpuConfig`], if a driver and a
    /// device are there.
    pub fn open() -> Result<Gpu, NoGpu> {
        Gpu::open_device(0, &GpuConfig::default())
    }

    /// Opens device `ordinal` (one context and one stream of its own), and
    /// starts its compile helpers when `config.helpers` names an executable
    /// (saying so on stderr if they cannot start: it then compiles in this
    /// process).
    pub fn open_device(ordinal: usize, config: &GpuConfig) -> Result<Gpu, NoGpu> {
        let ctx = driver::open_context(ordinal)?;
        let name = ctx.name().unwrap_or_else(|_| "unknown GPU".into());
        let cc = ctx.compute_capability().unwrap_or((0, 0));
        let stream = ctx.default_stream();
        let mut gpu = Gpu {
            description: format!(
                "{name} (sm_{}{}{}, {})",
                cc.0,
                cc.1,
                driver::driver_version(),
                config.opt_phrase()
            ),
            ordinal,
            ctx,
            stream,
            cc,
            config: GpuConfig {
                compile_threads: config.compile_threads.max(1),
                ..config.clone()
            },
            farm: None,
            ptxas: None,
            dead: AtomicBool::new(false),
            lock: Mutex::new(()),
        };
        if let Some(exe) = &config.helpers {
            match Farm::spawn(exe, gpu.config.compile_threads, config.compiler) {
                Ok(f) => {
                    gpu.farm = Some(f);
                    gpu.ptxas = match config.compiler {
                        Compiler::Ptxas => super::farm::ptxas_version(),
                        Compiler::Driver => None,
                    };
                }
                Err(e) => {
                    eprintln!("warpdiff: cannot start compile helpers ({e}); compiling in-process")
                }
            }
        }
        Ok(gpu)
    }

    /// Sets how long a launch may run before it counts as a hang.
    pub fn with_deadline(mut self, d: Duration) -> Self {
        self.config.deadline = d;
        self
    }

    /// The configuration it runs with.
    pub fn config(&self) -> &GpuConfig {
        &self.config
    }

    /// Whether helper processes compile the PTX.
    pub fn compiles_in_processes(&self) -> bool {
        self.farm.as_ref().is_some_and(|f| f.idle() > 0)
    }

    /// Which compiler turns PTX into machine code, as a phrase for
    /// messages and case comments (empty for the driver in this process).
    pub fn compiler(&self) -> String {
        match (&self.farm, &self.ptxas) {
            (Some(_), Some(v)) => format!(", PTX compiled by ptxas ({v}) in helper processes"),
            (Some(_), None) => ", PTX compiled by the driver's linker (cuLink*, a relocatable compile as `ptxas -c`) in helper processes".to_string(),
            (None, _) => String::new(),
        }
    }

    /// Whether a hang or fault switched the GPU off.
    pub fn is_dead(&self) -> bool {
        self.dead.load(Ordering::Relaxed)
    }

    /// Runs every job (see [`Device::run_batch_timed`]).
    fn run_jobs(&self, jobs: &[Job]) -> (Vec<Result<Outcome, GpuError>>, Timing) {
        let _one_at_a_time = self.lock.lock().unwrap_or_else(|p| p.into_inner());
        let mut timing = Timing::default();
        if self.is_dead() {
            return (jobs.iter().map(|_| Err(GpuError::Dead)).collect(), timing);
        }
        // Emit and compile every chunk in parallel: in the helpers when
        // they run (a cubin), else the driver compiles the PTX when the
        // module is loaded.
        let t0 = Instant::now();
        let mut batch = plan::prepare(jobs, self.config.compile_threads, &mut timing, |c| {
            self.prepare(jobs, c)
        });
        let executed = exec::execute(
            &self.ctx,
            &self.stream,
            &batch.modules,
            self.config.deadline,
            self.config.dirty,
        );
        timing.load = t0.elapsed();
        match executed {
            Ok(ex) => {
                timing.load -= ex.launch + ex.wait + ex.copy;
                timing.launch += ex.launch;
                timing.wait += ex.wait;
                timing.copy += ex.copy;
                batch.deliver(ex.results);
            }
            Err(stop) => {
                // A hung kernel cannot be stopped, a fault poisons the
                // context: this process's GPU is off.
                self.dead.store(true, Ordering::Relaxed);
                batch.fail(&match stop {
                    Stopped::Hang(m) => {
                        GpuError::Hang(format!("{m}; the GPU is switched off for this process"))
                    }
                    Stopped::Fault(m) => GpuError::Fault(format!(
                        "{m}; the context is unusable, the GPU is switched off for this process"
                    )),
                });
            }
        }
        (batch.results(), timing)
    }

    /// Emits a chunk and compiles it in a helper when they run (runs on a
    /// compile thread).
    fn prepare(&self, jobs: &[Job], c: &plan::Chunk) -> Result<(plan::Emitted, Image), String> {
        let e = plan::emit(jobs, c, self.config.perturb)?;
        let dumped = self
            .config
            .dump_dir
            .as_ref()
            .map(|dir| super::farm::dump(dir, &e.module.ptx, jobs.len() == 1));
        let image = match self
            .farm
            .as_ref()
            .and_then(|f| f.compile(&e.module.ptx, self.config.opt_level))
        {
            Some(Ok(cubin)) => {
                if let Some(p) = &dumped {
                    super::farm::dump_cubin(p, &cubin);
                }
                Image::Cubin(cubin)
            }
            Some(Err(log)) => {
                return Err(format!(
                    "the PTX compiler refused the module of {} program(s) (first: {}): {log}",
                    e.module.kernels.len(),
                    first_lines(jobs[c.jobs[0]].program)
                ))
            }
            None => Image::Ptx {
                text: e.module.ptx.clone(),
                opt_level: self.config.opt_level,
            },
        };
        Ok((e, image))
    }
}

impl Device for Gpu {
    fn description(&self) -> String {
        format!("{}{}", self.description, self.compiler())
    }

    fn ordinal(&self) -> usize {
        self.ordinal
    }

    fn is_dead(&self) -> bool {
        Gpu::is_dead(self)
    }

    fn run_batch_timed(&self, jobs: &[Job]) -> (Vec<Result<Outcome, GpuError>>, Timing) {
        self.run_jobs(jobs)
    }
}
