//! How the GPU backend runs: one [`GpuConfig`] built by its user (the
//! `warpdiff` command line builds it from its flags), never read from the
//! environment inside the library.

use std::path::PathBuf;
use std::time::Duration;

/// Which program turns PTX into machine code.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Compiler {
    /// The driver's own PTX compiler: `cuModuleLoadDataEx` (a whole-program
    /// compile) in this process or a runner, or, in a helper process, its
    /// JIT linker (`cuLinkAddData`: a relocatable compile, which is not
    /// the same code; see `driver::link_ptx`). What an application gets.
    #[default]
    Driver,
    /// The CUDA toolkit's `ptxas` (on `PATH`), run by the helper processes.
    Ptxas,
}

impl Compiler {
    /// `driver` or `ptxas`.
    pub fn name(self) -> &'static str {
        match self {
            Compiler::Driver => "driver",
            Compiler::Ptxas => "ptxas",
        }
    }

    /// Parses `driver` or `ptxas`.
    pub fn from_name(s: &str) -> Option<Compiler> {
        match s {
            "driver" => Some(Compiler::Driver),
            "ptxas" => Some(Compiler::Ptxas),
            _ => None,
        }
    }
}

/// How the simulated GPU fails a batch.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SimStop {
    /// Its kernels are still running at the deadline.
    Hang,
    /// A kernel faults (`CUDA_ERROR_ILLEGAL_INSTRUCTION`).
    Fault,
    /// A driver call never returns: the process that made it must be left
    /// behind or killed.
    Stuck,
}

impl SimStop {
    fn word(self) -> &'static str {
        match self {
            SimStop::Hang => "hang",
            SimStop::Fault => "fault",
            SimStop::Stuck => "stuck",
        }
    }
}

/// A fault the simulated GPU reports (fault-injection builds only; see
/// `sim.rs`). Batches are counted from 1 over a whole run (a runner
/// process is told each batch's number), and from 1 in each fresh probe
/// process.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SimFault {
    /// The `n`-th batch faults (1-based), whatever it holds.
    NthBatch(usize),
    /// A batch faults when one of its programs has an instruction of this
    /// form (so the culprit also faults alone).
    Form(String),
    /// A batch faults when it holds both forms, in different programs or
    /// the same (so no case faults alone when they are apart).
    Pair(String, String),
    /// The `n`-th batch (1-based) never returns: a driver call that hangs
    /// outside every deadline.
    StuckBatch(usize),
    /// Every `n`-th batch fails the given way.
    Every(usize, SimStop),
    /// Every `n`-th batch fails, by turns a hang, a fault and a stuck
    /// driver call.
    Cycle(usize),
    /// A batch hangs when one of its programs shows this known bug's idiom
    /// (`warp_core::idioms`), as the hardware does for the idioms seen to
    /// hang.
    HangIdiom(String),
    /// A wrong value, not a stop: a program with the second form gets a
    /// wrong value when a program with the first form ran before it in the
    /// same batch, at an optimising level (not -O0): it agrees alone
    /// (`sim_wrong.rs`).
    WrongAfter(String, String),
    /// A wrong value: a program with this form gets one when the registers
    /// hold what ran before its batch (a `--gpu-dirty` fill, or an earlier
    /// batch of the same process), at an optimising level: it agrees alone
    /// in a fresh process.
    WrongDirty(String),
    /// A wrong value once: the last job of the `n`-th batch (as the rule
    /// counts batches), when that batch holds more than one job, whatever
    /// it is; never again.
    WrongOnce(usize),
}

impl SimFault {
    /// Parses the `--gpu-simulate` spelling: `fault-batch:N`,
    /// `stuck-batch:N`, `hang-every:N`, `fault-every:N`, `stuck-every:N`,
    /// `fail-every:N`, `fault-form:FORM`, `fault-pair:FORM+FORM`,
    /// `hang-idiom:NAME`, and the wrong values `wrong-after:FORM+FORM`,
    /// `wrong-dirty:FORM`, `wrong-once:N`.
    pub fn parse(s: &str) -> Result<SimFault, String> {
        let bad = || {
            format!(
                "`{s}` is not fault-batch:N, stuck-batch:N, hang-every:N, fault-every:N, stuck-every:N, fail-every:N, fault-form:FORM, fault-pair:FORM+FORM, hang-idiom:NAME, wrong-after:FORM+FORM, wrong-dirty:FORM or wrong-once:N"
            )
        };
        let (kind, arg) = s.split_once(':').ok_or_else(bad)?;
        // A batch number or period, from 1.
        let n = || {
            arg.parse::<usize>()
                .ok()
                .filter(|&n| n >= 1)
                .ok_or_else(bad)
        };
        match kind {
            "fault-batch" => n().map(SimFault::NthBatch),
            "stuck-batch" => n().map(SimFault::StuckBatch),
            "hang-every" => n().map(|n| SimFault::Every(n, SimStop::Hang)),
            "fault-every" => n().map(|n| SimFault::Every(n, SimStop::Fault)),
            "stuck-every" => n().map(|n| SimFault::Every(n, SimStop::Stuck)),
            "fail-every" => n().map(SimFault::Cycle),
            "fault-form" if !arg.is_empty() => Ok(SimFault::Form(arg.to_string())),
            "hang-idiom" if warp_core::idioms::Idiom::from_name(arg).is_some() => {
                Ok(SimFault::HangIdiom(arg.to_string()))
            }
            "fault-pair" => match arg.split_once('+') {
                Some((a, b)) if !a.is_empty() && !b.is_empty() => {
                    Ok(SimFault::Pair(a.to_string(), b.to_string()))
                }
                _ => Err(bad()),
            },
            "wrong-after" => match arg.split_once('+') {
                Some((a, b)) if !a.is_empty() && !b.is_empty() => {
                    Ok(SimFault::WrongAfter(a.to_string(), b.to_string()))
                }
                _ => Err(bad()),
            },
            "wrong-dirty" if !arg.is_empty() => Ok(SimFault::WrongDirty(arg.to_string())),
            "wrong-once" => n().map(SimFault::WrongOnce),
            _ => Err(bad()),
        }
    }

    /// Its `--gpu-simulate` spelling ([`SimFault::parse`]'s inverse).
    pub fn name(&self) -> String {
        match self {
            SimFault::NthBatch(n) => format!("fault-batch:{n}"),
            SimFault::Form(x) => format!("fault-form:{x}"),
            SimFault::Pair(a, b) => format!("fault-pair:{a}+{b}"),
            SimFault::StuckBatch(n) => format!("stuck-batch:{n}"),
            SimFault::Every(n, how) => format!("{}-every:{n}", how.word()),
            SimFault::Cycle(n) => format!("fail-every:{n}"),
            SimFault::HangIdiom(i) => format!("hang-idiom:{i}"),
            SimFault::WrongAfter(a, b) => format!("wrong-after:{a}+{b}"),
            SimFault::WrongDirty(f) => format!("wrong-dirty:{f}"),
            SimFault::WrongOnce(n) => format!("wrong-once:{n}"),
        }
    }
}

/// How the GPU backend compiles, launches and waits.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GpuConfig {
    /// How long a batch may run before it counts as a hang (the GPU is then
    /// switched off for the process).
    pub deadline: Duration,
    /// How many modules of a batch are compiled at once: per device, or,
    /// for the devices [`crate::engine::gpus`] opens, in all (split evenly
    /// over them). The default is every core: the GPU oracle is bounded by
    /// the host's cores, not its GPUs (one H200 with 32 helpers on a
    /// 32-core host checked 1,690.5 programs/s at -O0, with 16 helpers
    /// 1,352.6, two H200s with 16 each 1,870.7; docs/gpu-oracle.md).
    pub compile_threads: usize,
    /// The PTX compiler's optimisation level, 0–4; `None` is the driver's
    /// default (4).
    pub opt_level: Option<u32>,
    /// Which compiler turns PTX into machine code.
    pub compiler: Compiler,
    /// A `warpdiff` executable whose `gpu-compile-worker` subcommand
    /// compiles in helper processes (the driver serialises compiles inside
    /// one process); `None` compiles in this process.
    pub helpers: Option<PathBuf>,
    /// A folder that receives every module compiled (`module-N.ptx`).
    pub dump_dir: Option<PathBuf>,
    /// Replace the hardware by the simulated GPU that faults as given
    /// (honoured only in `inject-bugs` builds).
    pub simulate: Option<SimFault>,
    /// Perturb the schedule with per-lane sleeps before every collective,
    /// drawn from this seed ([`crate::emit::emit_module_with`]).
    pub perturb: Option<u32>,
    /// Fill every register of the GPU with values drawn from this seed
    /// before each batch ([`crate::dirty`]), so that a register the program
    /// never writes holds them.
    pub dirty: Option<u32>,
    /// A `warpdiff` executable whose `gpu-runner` subcommand runs the
    /// batches in a child process ([`crate::remote`]): a hang, a fault or a
    /// driver call that never returns then costs that process, not the
    /// GPU. `None` runs them in this process.
    pub runner: Option<PathBuf>,
    /// How long past the deadline a runner may take to answer (loading
    /// modules, copies) before it counts as stuck and is killed.
    pub answer_margin: Duration,
    /// How long one module's compile in a helper may take before the
    /// helper is killed (a compiler that does not finish is a finding).
    pub compile_deadline: Duration,
}

impl GpuConfig {
    /// The default deadline of a batch.
    pub const DEFAULT_DEADLINE: Duration = Duration::from_secs(5);
}

impl Default for GpuConfig {
    fn default() -> Self {
        GpuConfig {
            deadline: Self::DEFAULT_DEADLINE,
            compile_threads: std::thread::available_parallelism().map_or(1, |n| n.get()),
            // -O0: every GPU divergence the fuzzer found on an H200 at the
            // driver's default (-O4) was the PTX compiler's optimiser (SASS
            // in the corpus cases); at -O0 each one agreed.
            opt_level: Some(0),
            compiler: Compiler::Driver,
            helpers: None,
            dump_dir: None,
            simulate: None,
            perturb: None,
            dirty: None,
            runner: None,
            answer_margin: Duration::from_secs(10),
            compile_deadline: Duration::from_secs(60),
        }
    }
}

impl GpuConfig {
    /// `PTX JIT -O0` or `PTX JIT at the driver's default level`, for
    /// descriptions.
    pub fn opt_phrase(&self) -> String {
        let opt = match self.opt_level {
            Some(o) => format!("PTX JIT -O{o}"),
            None => "PTX JIT at the driver's default level".to_string(),
        };
        match self.perturb {
            Some(seed) => format!("{opt}, schedule perturbed (seed {seed:#x})"),
            None => opt,
        }
    }
}
