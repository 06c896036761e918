//! The GPU as an [`Engine`], and the process's GPUs: opened once, on first
//! use, with the [`GpuConfig`] given to [`configure`] (the default one if
//! none was); their absence is said once, on stderr, and the GPU engine
//! then skips every program with that reason.

use super::config::GpuConfig;
use super::device::{Device, GpuError};
use super::driver::{self, NoGpu};
use super::emit::Job;
use super::remote::RemoteGpu;
use super::run::Gpu;
use std::sync::{Arc, OnceLock};
use warp_core::engine::{unbounded_only, CompileError, Compiled, Engine, RunError, Skip};
use warp_core::ir::{Inputs, Program};
use warp_core::outcome::Outcome;

static CONFIG: OnceLock<GpuConfig> = OnceLock::new();

/// Sets the configuration the process's GPUs open with. Returns `false`
/// (and changes nothing) once they are open or a configuration was set.
pub fn configure(config: GpuConfig) -> bool {
    CONFIG.set(config).is_ok()
}

/// The configuration the process's GPUs use.
pub fn config() -> &'static GpuConfig {
    CONFIG.get_or_init(GpuConfig::default)
}

/// Opens device `ordinal` as `config` says, a device of its own (not the
/// process's [`gpu`] or [`gpus`]): through runner processes when it names
/// a runner ([`RemoteGpu`]: the hardware or the simulated GPU, in a
/// child), else in this process (the hardware, or the simulated GPU of a
/// fault-injection build). The level sweep and the retries of a finding
/// open theirs here, each with its own level or register fill.
pub fn open_with(ordinal: usize, config: &GpuConfig) -> Result<Arc<dyn Device>, NoGpu> {
    if let Some(exe) = &config.runner {
        #[cfg(not(feature = "inject-bugs"))]
        if config.simulate.is_some() {
            return Err(NoGpu(
                "the simulated GPU needs a build with `--features inject-bugs`".into(),
            ));
        }
        return RemoteGpu::open(ordinal, config, exe.clone())
            .map(|g| Arc::new(g) as Arc<dyn Device>)
            .map_err(NoGpu);
    }
    #[cfg(feature = "inject-bugs")]
    if let Some(fault) = &config.simulate {
        return Ok(Arc::new(
            super::sim::SimGpu::new(ordinal, fault.clone())
                .with_setup(config.opt_level, config.dirty),
        ));
    }
    Gpu::open_device(ordinal, config).map(|g| Arc::new(g) as Arc<dyn Device>)
}

/// Opens device `ordinal` with the process's configuration.
fn open(ordinal: usize) -> Result<Arc<dyn Device>, NoGpu> {
    open_with(ordinal, config())
}

/// How many devices the configuration gives (the driver's count, or one
/// simulated GPU).
fn count() -> usize {
    #[cfg(feature = "inject-bugs")]
    if config().simulate.is_some() {
        return 1;
    }
    driver::device_count()
}

/// Every GPU of the host, opened once: each with its own context, stream
/// and compile helpers (device 0 is [`gpu`]'s, except with runner
/// processes: then these run the batches and [`gpu`] keeps its own runner
/// for single runs, so that reducing a finding never waits behind a
/// batch). At most `limit` of them (`fuzz --gpus`): one not used is not
/// opened, so its compile helpers take no memory or cores. The compile
/// helpers of [`GpuConfig::compile_threads`] are split evenly over the
/// GPUs opened (in this process, device 0 keeps the whole count). The
/// first call decides; a later one gets the same GPUs. Empty without a GPU.
pub fn gpus(limit: usize) -> Vec<Arc<dyn Device>> {
    static ALL: OnceLock<Vec<Arc<dyn Device>>> = OnceLock::new();
    ALL.get_or_init(|| {
        let Ok(first) = gpu() else {
            return Vec::new();
        };
        // The compile helpers are the host's: split them over the GPUs
        // used (the CPU, not the GPUs, bounds the oracle).
        let used = count().min(limit.max(1)).max(1);
        let each = GpuConfig {
            compile_threads: (config().compile_threads / used).max(1),
            ..config().clone()
        };
        let mut all = Vec::new();
        if config().runner.is_some() {
            match open_with(0, &each) {
                Ok(g) => all.push(g),
                Err(e) => {
                    eprintln!("warpdiff: GPU 0: {e}; not used");
                    return Vec::new();
                }
            }
        } else {
            all.push(first);
        }
        for n in 1..used {
            match open_with(n, &each) {
                Ok(g) => {
                    eprintln!("warpdiff: also using GPU {n}: {}", g.description());
                    all.push(g);
                }
                Err(e) => eprintln!("warpdiff: GPU {n}: {e}; not used"),
            }
        }
        all
    })
    .clone()
}

/// The process's GPU (device 0) for single runs (the GPU engine, reducing
/// a finding), opened once. With runner processes it has a runner and two
/// compile helpers of its own.
pub fn gpu() -> Result<Arc<dyn Device>, NoGpu> {
    static GPU: OnceLock<Result<Arc<dyn Device>, NoGpu>> = OnceLock::new();
    GPU.get_or_init(|| {
        let g = match config().runner {
            Some(_) => open_with(
                0,
                &GpuConfig {
                    compile_threads: config().compile_threads.min(2),
                    ..config().clone()
                },
            ),
            None => open(0),
        };
        match &g {
            Ok(g) => eprintln!("warpdiff: using {}", g.description()),
            Err(e) => eprintln!("warpdiff: {e}; the GPU engine is not used"),
        }
        g
    })
    .clone()
}

/// The GPU engine: each run is a batch of one job on the process's GPU.
#[derive(Clone, Copy, Debug, Default)]
pub struct GpuEngine;

struct OnGpu<'p> {
    gpu: Arc<dyn Device>,
    program: &'p Program,
}

impl OnGpu<'_> {
    /// Keeps the program that switched the GPU off, and says where.
    fn save(&self, inputs: &Inputs, e: &GpuError) -> String {
        let path =
            std::env::temp_dir().join(format!("warpdiff-gpu-failed-{}.ptx", std::process::id()));
        let case = warp_core::ir::Case {
            header: vec![format!("This case switched the GPU off: {e}")],
            program: self.program.clone(),
            inputs: inputs.clone(),
            expect: Default::default(),
        };
        match std::fs::write(&path, warp_core::text::print(&case)) {
            Ok(()) => format!(
                " (the program is in {}; `warpdiff reduce-hang` reduces it)",
                path.display()
            ),
            Err(_) => String::new(),
        }
    }
}

impl Compiled for OnGpu<'_> {
    fn run(&self, inputs: &Inputs) -> Result<Outcome, RunError> {
        if let Some(skip) = unbounded_only(inputs) {
            return Err(RunError::Unavailable(skip));
        }
        let job = Job {
            program: self.program,
            inputs,
        };
        match self.gpu.run_batch(&[job]).pop() {
            Some(Ok(o)) => Ok(o),
            Some(Err(e)) if e.switches_off() => {
                let saved = self.save(inputs, &e);
                eprintln!("warpdiff: {e}{saved}");
                Err(RunError::Engine(e.to_string()))
            }
            Some(Err(GpuError::Skip(s))) => Err(RunError::Unavailable(s)),
            Some(Err(e @ (GpuError::Dead | GpuError::Abandoned))) => {
                Err(RunError::Unavailable(Skip {
                    reason: e.to_string(),
                }))
            }
            Some(Err(e)) => Err(RunError::Engine(e.to_string())),
            None => Err(RunError::Engine("the GPU returned no result".into())),
        }
    }
}

impl Engine for GpuEngine {
    fn name(&self) -> &'static str {
        "gpu"
    }

    /// Yes when the schedule is perturbed ([`GpuConfig::perturb`]): lanes
    /// sleeping for different times before a collective or `activemask`
    /// part on the H200 where unperturbed runs kept them together
    /// (`docs/log/gpu-2026-11-27-e/triage.md`, `p-activemask-79c52614`:
    /// an `activemask` that fails at -O0 only when perturbed), which the
    /// ISA allows.
    fn spec_convergence(&self) -> bool {
        config().perturb.is_some()
    }

    fn compile<'p>(
        &self,
        prog: &'p Program,
        _fuel: u64,
    ) -> Result<Box<dyn Compiled + 'p>, CompileError> {
        let gpu = gpu().map_err(|e| Skip {
            reason: e.to_string(),
        })?;
        if gpu.is_dead() {
            return Err(CompileError::Skip(Skip {
                reason: GpuError::Dead.to_string(),
            }));
        }
        super::emit::module_target(prog)?;
        Ok(Box::new(OnGpu { gpu, program: prog }))
    }
}
