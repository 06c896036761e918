//! How the GPU backend runs: one [`GpuConfig`] built by its user (the
//! `warpdiff` command line builds it from its flags), never read from the
//! environment inside the library.

use std::path::PathBuf;
use std::time::Duration;

/// Which program turns PTX into machine code.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Compiler {
    /// The driver's own PTX compiler (`cuModuleLoadDataEx`, or
    /// `cuLinkAddData` in a helper process): what an application gets.
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

/// A fault the simulated GPU reports (fault-injection builds only; see
/// `sim.rs`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SimFault {
    /// Every batch from the `n`-th on faults (1-based), whatever it holds.
    NthBatch(usize),
    /// A batch faults when one of its programs has an instruction of this
    /// form (so the culprit also faults alone).
    Form(String),
    /// A batch faults when it holds both forms, in different programs or
    /// the same (so no case faults alone when they are apart).
    Pair(String, String),
    /// The `n`-th batch (1-based) never returns: a driver call that hangs
    /// outside every deadline, which the fuzz loop must leave behind.
    StuckBatch(usize),
}

/// How the GPU backend compiles, launches and waits.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GpuConfig {
    /// How long a batch may run before it counts as a hang (the GPU is then
    /// switched off for the process).
    pub deadline: Duration,
    /// How many modules of a batch are compiled at once.
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
}

impl GpuConfig {
    /// The default deadline of a batch.
    pub const DEFAULT_DEADLINE: Duration = Duration::from_secs(5);
}

impl Default for GpuConfig {
    fn default() -> Self {
        GpuConfig {
            deadline: Self::DEFAULT_DEADLINE,
            compile_threads: std::thread::available_parallelism().map_or(1, |n| n.get().min(16)),
            // -O0: every GPU divergence the fuzzer found on an H200 at the
            // driver's default (-O4) was the PTX compiler's optimiser (SASS
            // in the corpus cases); at -O0 each one agreed.
            opt_level: Some(0),
            compiler: Compiler::Driver,
            helpers: None,
            dump_dir: None,
            simulate: None,
            perturb: None,
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
