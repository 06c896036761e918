//! The command line, declared with clap: every subcommand answers `--help`,
//! the tool `--version`, and the same option has the same spelling in
//! every subcommand. `WARPDIFF_*` environment variables are read here and
//! nowhere else, as defaults of the flags that name them.
//!
//! Exit statuses (each subcommand's help says which apply): 0 success,
//! 1 a divergence or an `.expect` mismatch, 2 an error (bad arguments,
//! unreadable or invalid input), 3 undefined behaviour (reported, not
//! compared), 141 the output pipe was closed.

use crate::engines::external::Options;
use crate::engines::spec::{parse_engine, parse_engine_list, EngineList, EngineSpec};
use clap::{Args, Parser, Subcommand};
use std::path::PathBuf;
use std::time::Duration;
use warp_core::idioms::Idiom;
use warp_core::interp::DEFAULT_FUEL;
use warp_core::sanitize::Model;
use warp_gpu::config::{Compiler, GpuConfig, SimFault};
use warp_jit::Limits;

/// Run, compare, reduce and fuzz PTX warp-level programs on the reference
/// interpreter, the Cranelift JIT and real GPUs.
#[derive(Debug, Parser)]
#[command(name = "warpdiff", version, propagate_version = true)]
pub struct Cli {
    /// What to do.
    #[command(subcommand)]
    pub command: Command,
}

/// `warpdiff run --help`'s last words: what each exit status means, the
/// same on every engine (docs/command-line.md says it too).
pub const RUN_EXIT_CODES: &str = "\
Exit status (the highest applies when several files run):
  0  every file ran (and matched its .expect, or --expect)
  1  a result differs from .expect or --expect
  2  error: a file that does not parse or cannot be read, a launch that
     does not fit the kernel, a warp out of fuel, an engine that failed
     or cannot run here
  3  undefined behaviour; a kernel's faulty memory access (out of bounds,
     misaligned, a store to read-only memory) is 3 on the interpreter and
     on the JIT alike, printed as FILE:LINE: cta (X,Y,Z) warp W: undefined
     behaviour [RULE] ... naming lane, %tid, instruction and address (the
     GPU checks no access: one the hardware faults on is a CUDA error, 2;
     most stores just past a buffer go unnoticed there)";

/// The subcommands.
#[derive(Debug, Subcommand)]
pub enum Command {
    /// Run .ptx case files on one engine and print every register per lane
    /// (exit: 0 ran and matched .expect, 1 .expect mismatch, 2 error,
    /// 3 undefined behaviour; the highest applies)
    #[command(after_help = RUN_EXIT_CODES)]
    Run(RunArgs),
    /// Check a kernel launch on the reference: every undefined value that
    /// escapes (stored to global memory, used as an address, a guard or a
    /// membermask) with its origin chain, and races between a warp's lanes
    /// (exit: 0 clean, 1 reports, 2 error, 3 undefined behaviour; the
    /// highest applies)
    Check(CheckArgs),
    /// Run files on every engine and compare each with the reference on its
    /// defined lanes, or a kernel launch on its defined bytes (exit:
    /// 1 divergence or an engine failed, else 2 error, else 3 UB, else 0)
    Diff(DiffArgs),
    /// Generate random cases, check them on the engines and reduce each
    /// divergence into the corpus (exit 1 if one was found)
    Fuzz(FuzzArgs),
    /// Reduce a divergent case file by hand (same engine, same form)
    Reduce(ReduceArgs),
    /// Reduce a case the GPU hangs or faults on, each candidate alone in a
    /// fresh process
    ReduceHang(ReduceHangArgs),
    /// Print the PTX module the GPU engine would load for the files
    EmitPtx(EmitPtxArgs),
    /// Cases verified per second on the GPU, end to end, per batch size
    BenchGpu(BenchGpuArgs),
    /// Write a standalone reproducer of a GPU finding: repro.cu (CUDA
    /// driver API, the kernel's PTX and buffers built in), kernel.ptx,
    /// build.sh and NOTES.md (SASS quoted when ptxas and cuobjdump run here)
    Repro(ReproArgs),
    /// (internal) compile PTX requests from stdin: a GPU compile helper
    #[command(hide = true)]
    GpuCompileWorker(WorkerArgs),
    /// (internal) run case files as one GPU batch in this process; the exit
    /// status says how it ended (see `warpdiff::probe`)
    #[command(hide = true)]
    GpuProbe(ProbeArgs),
    /// (internal) run GPU batches sent on stdin in this process, one CUDA
    /// context: a GPU runner of `fuzz` and `bench-gpu`
    #[command(hide = true)]
    GpuRunner(RunnerArgs),
}

/// Options every command that runs programs shares.
#[derive(Clone, Debug, Args)]
pub struct RunLimits {
    /// Maximum warp steps before a run stops with an error
    #[arg(long, default_value_t = DEFAULT_FUEL)]
    pub fuel: u64,
    /// Programs with more instructions are not compiled by the JIT (a
    /// clear message instead of minutes and gigabytes)
    #[arg(long, default_value_t = Limits::DEFAULT_MAX_INSTS)]
    pub max_insts: usize,
}

impl RunLimits {
    /// The JIT's limits.
    pub fn jit(&self) -> Limits {
        Limits {
            max_insts: self.max_insts,
            ..Limits::default()
        }
    }
}

/// `warpdiff run`.
#[derive(Debug, Args)]
pub struct RunArgs {
    /// Which engine runs the files: interp, jit, gpu or cmd:PROGRAM (an
    /// external engine, docs/engine-protocol.md)
    #[arg(long, default_value = "interp", value_parser = parse_engine, value_name = "ENGINE")]
    pub engine: EngineSpec,
    /// One JSON object per file, one per line (mismatches go to stderr)
    #[arg(long)]
    pub json: bool,
    /// Fuel and size limits
    #[command(flatten)]
    pub limits: RunLimits,
    /// GPU options
    #[command(flatten)]
    pub gpu: GpuArgs,
    /// External engine options
    #[command(flatten)]
    pub ext: ExtArgs,
    /// Kernel launch options (a PTX module instead of case files)
    #[command(flatten)]
    pub kernel: KernelArgs,
    /// The .ptx case files (or one PTX module, with --launch or --kernel)
    #[arg(required = true, value_name = "FILE")]
    pub files: Vec<PathBuf>,
}

/// `warpdiff check`.
#[derive(Debug, Args)]
pub struct CheckArgs {
    /// Which lanes are certainly together: spec (only what the PTX ISA and
    /// the CUDA programming guide promise) or observed (what every H200
    /// experiment showed, the fuzzing reference's model)
    #[arg(long, default_value = "spec", value_parser = parse_model, value_name = "MODEL")]
    pub convergence: Model,
    /// Do not look for races between the lanes of one warp (warp-race)
    #[arg(long)]
    pub no_races: bool,
    /// One JSON object on stdout (for CI)
    #[arg(long)]
    pub json: bool,
    /// Kernel launch options (--expect and --out belong to `run`)
    #[command(flatten)]
    pub kernel: KernelArgs,
    /// The PTX module
    #[arg(required = true, value_name = "FILE")]
    pub files: Vec<PathBuf>,
}

fn parse_model(s: &str) -> Result<Model, String> {
    match s {
        "spec" => Ok(Model::Spec),
        "observed" => Ok(Model::Observed),
        _ => Err(format!("`{s}`: expected spec or observed")),
    }
}

/// How to launch a kernel of a PTX module (`warpdiff run kernel.ptx
/// --launch kernel.launch`, or the same given by flags).
#[derive(Clone, Debug, Default, Args)]
pub struct KernelArgs {
    /// A .launch file: kernel, grid, block, buffers and parameters
    /// (format: warp-core `launch` module docs, docs/kernels.md)
    #[arg(long, value_name = "FILE")]
    pub launch: Option<PathBuf>,
    /// The .entry to run (instead of --launch, or overriding it)
    #[arg(long, value_name = "NAME")]
    pub kernel: Option<String>,
    /// CTAs per dimension
    #[arg(long, value_name = "X[,Y,Z]")]
    pub grid: Option<String>,
    /// Threads per CTA per dimension
    #[arg(long, value_name = "X[,Y,Z]")]
    pub block: Option<String>,
    /// Bytes of dynamic shared memory per CTA (what `.extern .shared`
    /// arrays address)
    #[arg(long, value_name = "BYTES")]
    pub shared: Option<u32>,
    /// A buffer: NAME=u32:W0,W1,... (hex words), NAME=fill:WORD*COUNT or
    /// NAME=file:PATH (raw bytes); repeatable
    #[arg(long = "buffer", value_name = "NAME=...")]
    pub buffers: Vec<String>,
    /// A parameter: NAME=buffer:BUF (its address) or NAME=VALUE; repeatable
    #[arg(long = "param", value_name = "NAME=...")]
    pub params: Vec<String>,
    /// Compare the buffers after the run with this file (`NAME: words`, as
    /// .expect and .gpu.txt files are)
    #[arg(long, value_name = "FILE")]
    pub expect: Option<PathBuf>,
    /// Also write each buffer after the run as DIR/NAME.bin
    #[arg(long, value_name = "DIR")]
    pub out: Option<PathBuf>,
}

impl KernelArgs {
    /// Whether a kernel launch was asked for.
    pub fn wanted(&self) -> bool {
        self.launch.is_some() || self.kernel.is_some()
    }
}

/// `warpdiff diff`.
#[derive(Debug, Args)]
pub struct DiffArgs {
    /// Engines to compare with the reference (which always runs), as in
    /// `fuzz` [default: interp,jit,gpu]
    #[arg(long, value_parser = parse_engine_list, value_name = "LIST")]
    pub engines: Vec<EngineList>,
    /// Fuel and size limits
    #[command(flatten)]
    pub limits: RunLimits,
    /// GPU options
    #[command(flatten)]
    pub gpu: GpuArgs,
    /// External engine options
    #[command(flatten)]
    pub ext: ExtArgs,
    /// Kernel launch options (a PTX module instead of case files; every
    /// engine's buffers are compared with the reference's on each byte it
    /// defines; --expect and --out belong to `run`)
    #[command(flatten)]
    pub kernel: KernelArgs,
    /// Run a GPU batch kept by `fuzz` next to a finding that agreed alone
    /// (`<form>-<hash>.batch.txt`) again, as one batch in its order, and
    /// compare each case with the reference (`--gpu-helpers`,
    /// `--gpu-opt-level` and `--gpu-dirty` give the run's path)
    #[arg(long, value_name = "FILE", conflicts_with = "files")]
    pub gpu_batch_file: Option<PathBuf>,
    /// With --gpu-batch-file: find which of the batch's other cases the
    /// diverged one needs to differ (its module's cases, those before it,
    /// those after it, then delta debugging, each test a batch in a fresh
    /// GPU process on the same path), and write the smallest batch found as
    /// NAME.min.batch.txt next to FILE (never overwriting)
    #[arg(long, requires = "gpu_batch_file")]
    pub reduce_batch: bool,
    /// With --reduce-batch: no test starts after this many seconds; the
    /// smallest batch found so far is written
    #[arg(
        long,
        default_value_t = 240,
        requires = "reduce_batch",
        value_name = "N"
    )]
    pub seconds: u64,
    /// With --reduce-batch: at most this many tests (GPU batches), the
    /// first, of the whole batch, included; the two re-checks of the
    /// result are not tests
    #[arg(
        long,
        default_value_t = 200,
        requires = "reduce_batch",
        value_name = "N"
    )]
    pub max_tests: usize,
    /// The .ptx case files (or one PTX module, with --launch or --kernel)
    #[arg(required_unless_present = "gpu_batch_file", value_name = "FILE")]
    pub files: Vec<PathBuf>,
}

/// `warpdiff fuzz`.
#[derive(Clone, Debug, Args)]
pub struct FuzzArgs {
    /// How long to fuzz
    #[arg(long, default_value_t = 60)]
    pub seconds: u64,
    /// Seconds the run waits for its threads once it is over before it
    /// prints the summary and exits without them (tests shorten it)
    #[arg(long, hide = true, default_value_t = 180)]
    pub stuck_after_s: u64,
    /// Milliseconds a GPU or external-engine thread waits for more cases
    /// to fill a batch once it has one (tests that need cases of different
    /// flavours in one batch lengthen it on slow machines)
    #[arg(long, hide = true, default_value_t = 20)]
    pub batch_fill_ms: u64,
    /// Seconds past the run's end that narrowing down or reducing a failure
    /// found before it may go on [default: a tenth of --seconds, 2 to 30]
    #[arg(long, hide = true)]
    pub narrow_grace_s: Option<u64>,
    /// The seed of the run (default: from the clock); each job has its own
    /// stream of it
    #[arg(long, value_parser = parse_u64)]
    pub seed: Option<u64>,
    /// CPU worker threads [default: 1; with a GPU in the run, a quarter
    /// of the cores (at least 2): on a GPU host the cores compile PTX]
    #[arg(long, value_parser = clap::value_parser!(u64).range(1..=256))]
    pub jobs: Option<u64>,
    /// Stop after this many generated cases in all (split evenly over the
    /// jobs, so that a seed and a count name exactly the same cases), or
    /// at `--seconds`, whichever comes first
    #[arg(long, value_name = "N")]
    pub cases: Option<u64>,
    /// Idioms of known compiler bugs the generator keeps out of its cases,
    /// separated by commas (`all` for every one): guard-redefined-by-collective,
    /// guard-folded-after-exit, unused-collective-splits-warp,
    /// loop-write-hoisted-above-exit, shuffle-of-shuffled-immediate
    #[arg(long, value_delimiter = ',', value_parser = parse_idiom, value_name = "NAME,...")]
    pub avoid: Vec<Vec<Idiom>>,
    /// Engines to compare, the reference `interp` first, separated by
    /// commas: interp, jit, gpu, cmd:PROGRAM (an external engine; it takes
    /// the rest of the list, commas included: give --engines again for
    /// another) [default: interp,jit,gpu]
    #[arg(long, value_parser = parse_engine_list, value_name = "LIST")]
    pub engines: Vec<EngineList>,
    /// Where reduced divergences are written (never overwriting)
    #[arg(long, env = "WARPDIFF_CORPUS", value_name = "DIR")]
    pub corpus: Option<PathBuf>,
    /// Go on after a divergence (the first few of each engine and form are
    /// reduced, the rest counted)
    #[arg(long)]
    pub keep_going: bool,
    /// Also print the generator's tables after the run: instruction forms,
    /// control-flow shapes and features generated, where the workers' time
    /// went, the forms never executed in each context, the JIT's helper
    /// cache
    #[arg(long)]
    pub stats: bool,
    /// Input sets per program checked on the CPU engines: the case's own,
    /// then sets with its data inputs redrawn (those that cannot reach
    /// control flow, a collective's participation or a membermask, so each
    /// stays defined). Each engine compiles the program once for all of
    /// them, and each set is a case. A program with no data input has one.
    /// The default amortises generating and compiling a program (~2 ms)
    /// over 64 sets [default: 64; with a GPU in the run, `--gpu-inputs`:
    /// the CPU engines check what the GPU checks, and the CPU side must
    /// keep the GPU fed]
    #[arg(long, value_parser = clap::value_parser!(u64).range(1..=1024))]
    pub inputs: Option<u64>,
    /// Most cases per GPU batch
    #[arg(long, default_value_t = 1024, value_parser = clap::value_parser!(u64).range(1..=65536))]
    pub gpu_batch: u64,
    /// A GPU divergence that agrees at every level alone: how many times
    /// its batch (kept next to the finding as `.batch.txt`) runs again, each
    /// in a fresh process, to see whether it needs its batch
    #[arg(
        long,
        env = "WARPDIFF_GPU_BATCH_RERUNS",
        default_value_t = 3,
        value_name = "N"
    )]
    pub gpu_batch_reruns: usize,
    /// A GPU divergence that agrees at every level alone: under how many
    /// `--gpu-dirty` register fills (seeds drawn from its case seed) it runs
    /// alone again, to see whether it reads a register it never wrote
    #[arg(
        long,
        env = "WARPDIFF_GPU_DIRTY_RETRIES",
        default_value_t = 4,
        value_name = "N"
    )]
    pub gpu_dirty_retries: usize,
    /// Input sets per program sent to the GPU (the case's and sets with
    /// its data inputs redrawn, as for --inputs): one compile serves them
    /// all
    #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u64).range(1..=1024))]
    pub gpu_inputs: u64,
    /// Use at most this many GPUs of the host
    #[arg(long, default_value_t = 16, value_parser = clap::value_parser!(u64).range(1..=16))]
    pub gpus: u64,
    /// Most jobs per request to an external engine
    #[arg(long, default_value_t = 256, value_parser = clap::value_parser!(u64).range(1..=4096))]
    pub ext_batch: u64,
    /// GPU options
    #[command(flatten)]
    pub gpu: GpuArgs,
    /// External engine options
    #[command(flatten)]
    pub ext: ExtArgs,
}

impl FuzzArgs {
    /// The CPU workers: `--jobs`, else 1 (the loop resolves the default of
    /// a run with a GPU before it starts).
    pub fn jobs(&self) -> u64 {
        self.jobs.unwrap_or(1)
    }

    /// Input sets per program on the CPU engines: `--inputs`, else 64 (the
    /// loop resolves the default of a run with a GPU before it starts).
    pub fn inputs(&self) -> u64 {
        self.inputs.unwrap_or(64)
    }

    /// The idioms `--avoid` names, each once.
    pub fn avoided(&self) -> Vec<Idiom> {
        let mut v: Vec<Idiom> = self.avoid.iter().flatten().copied().collect();
        v.sort();
        v.dedup();
        v
    }
}

/// An idiom name of `--avoid` (or `all`).
fn parse_idiom(s: &str) -> Result<Vec<Idiom>, String> {
    if s == "all" {
        return Ok(Idiom::ALL.to_vec());
    }
    Idiom::from_name(s).map(|i| vec![i]).ok_or_else(|| {
        let names: Vec<&str> = Idiom::ALL.iter().map(|i| i.name()).collect();
        format!("unknown idiom `{s}`: expected all, {}", names.join(", "))
    })
}

/// `warpdiff reduce`.
#[derive(Debug, Args)]
pub struct ReduceArgs {
    /// The divergent case
    #[arg(value_name = "FILE")]
    pub file: PathBuf,
    /// Where the reduced case goes
    #[arg(short, long, value_name = "OUT")]
    pub output: PathBuf,
    /// Replace OUT if it exists
    #[arg(long)]
    pub force: bool,
    /// Engines to check the case on, as in `fuzz` [default:
    /// interp,jit,gpu]
    #[arg(long, value_parser = parse_engine_list, value_name = "LIST")]
    pub engines: Vec<EngineList>,
    /// GPU options
    #[command(flatten)]
    pub gpu: GpuArgs,
    /// External engine options
    #[command(flatten)]
    pub ext: ExtArgs,
}

/// `warpdiff reduce-hang`.
#[derive(Debug, Args)]
pub struct ReduceHangArgs {
    /// The case the GPU does not finish
    #[arg(value_name = "FILE")]
    pub file: PathBuf,
    /// Where the reduced case goes (never overwritten)
    #[arg(short, long, value_name = "OUT")]
    pub output: PathBuf,
    /// GPU options (`--gpu-deadline-ms` is each candidate's deadline,
    /// default 1500 here)
    #[command(flatten)]
    pub gpu: GpuArgs,
}

/// `warpdiff repro`.
#[derive(Debug, Args)]
pub struct ReproArgs {
    /// The case (a recorded divergence), or a batch file kept by `fuzz`
    /// (`NAME.batch.txt`): then the cases before the diverged one run first
    #[arg(value_name = "FILE")]
    pub file: PathBuf,
    /// The folder to write
    #[arg(short, long, value_name = "DIR")]
    pub output: PathBuf,
    /// Write into DIR even if it exists
    #[arg(long)]
    pub force: bool,
    /// Also run the case on this machine's GPU at every optimisation level
    /// (-O0 to -O4) and record which fail and the class
    #[arg(long)]
    pub gpu_sweep: bool,
    /// GPU options
    #[command(flatten)]
    pub gpu: GpuArgs,
}

/// `warpdiff emit-ptx`.
#[derive(Debug, Args)]
pub struct EmitPtxArgs {
    /// Emit the schedule perturbation of `--gpu-perturb` with this seed
    #[arg(long, value_name = "SEED", value_parser = parse_u32)]
    pub gpu_perturb: Option<u32>,
    /// The .ptx case files (they must share a .version/.target)
    #[arg(required = true, value_name = "FILE")]
    pub files: Vec<PathBuf>,
}

/// `warpdiff bench-gpu`.
#[derive(Debug, Args)]
pub struct BenchGpuArgs {
    /// Batch sizes to measure
    #[arg(long, value_delimiter = ',', default_values_t = [1usize, 64, 1024, 16384], value_parser = clap::value_parser!(usize))]
    pub batches: Vec<usize>,
    /// Seconds per batch size (at least one round each)
    #[arg(long, default_value_t = 10.0)]
    pub seconds: f64,
    /// Input sets per generated program (the case's and sets with its
    /// data inputs redrawn)
    #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u64).range(1..=1024))]
    pub inputs: u64,
    /// Generator threads (default: every core)
    #[arg(long)]
    pub threads: Option<usize>,
    /// The seed of the generated cases
    #[arg(long, default_value_t = 1, value_parser = parse_u64)]
    pub seed: u64,
    /// Spread each batch over this many GPUs
    #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u64).range(1..=16))]
    pub devices: u64,
    /// Run the same cases on every GPU and compare their outcomes
    #[arg(long)]
    pub cross_check: bool,
    /// GPU options
    #[command(flatten)]
    pub gpu: GpuArgs,
}

/// `warpdiff gpu-compile-worker` (internal).
#[derive(Debug, Args)]
pub struct WorkerArgs {
    /// Which compiler the helper runs
    #[arg(long, default_value = "driver", value_parser = parse_compiler)]
    pub compiler: Compiler,
    /// The GPU it compiles for (its context's device)
    #[arg(long, default_value_t = 0)]
    pub device: usize,
}

/// `warpdiff gpu-runner` (internal).
#[derive(Debug, Args)]
pub struct RunnerArgs {
    /// The GPU it runs batches on
    #[arg(long, default_value_t = 0)]
    pub device: usize,
    /// (fault-injection builds) the simulated GPU's rule
    #[arg(long, value_parser = parse_sim)]
    pub gpu_simulate: Option<SimFault>,
    /// Fill the registers with values from this seed before each batch
    #[arg(long, value_parser = parse_u32)]
    pub gpu_dirty: Option<u32>,
    /// (fault-injection builds) the level the parent compiles at, which
    /// the simulated GPU's wrong values depend on
    #[arg(long, value_parser = parse_opt_level)]
    pub sim_opt_level: Option<OptLevel>,
}

/// `warpdiff gpu-probe` (internal).
#[derive(Debug, Args)]
pub struct ProbeArgs {
    /// GPU options
    #[command(flatten)]
    pub gpu: GpuArgs,
    /// The cases, run together as one batch
    #[arg(required = true, value_name = "FILE")]
    pub files: Vec<PathBuf>,
}

/// How the GPU is driven: one set of flags for every subcommand that uses
/// it. Each may also come from the environment variable it names.
#[derive(Clone, Debug, Default, Args)]
pub struct GpuArgs {
    /// Milliseconds a GPU batch may run before it is a hang [default: 1500
    /// for fuzz and reduce-hang, 5000 elsewhere]
    #[arg(long, env = "WARPDIFF_GPU_DEADLINE_MS", value_name = "MS")]
    pub gpu_deadline_ms: Option<u64>,
    /// The PTX compiler's optimisation level: 0-4, or `default` (the
    /// driver's, 4) [default: `default` for fuzz, which hunts compiler
    /// bugs and classifies each divergence by level; 0 elsewhere]
    #[arg(long, env = "WARPDIFF_GPU_JIT_O", value_parser = parse_opt_level)]
    pub gpu_opt_level: Option<OptLevel>,
    /// Which compiler turns PTX into machine code: `driver` or `ptxas`
    #[arg(long, env = "WARPDIFF_GPU_COMPILER", default_value = "driver", value_parser = parse_compiler)]
    pub gpu_compiler: Compiler,
    /// Compile helpers in all, split evenly over the GPUs a run uses: each
    /// GPU compiles its batches as that many modules at once [default:
    /// every core]
    #[arg(long, env = "WARPDIFF_GPU_THREADS", value_name = "N")]
    pub gpu_compile_threads: Option<usize>,
    /// Write every PTX module compiled into this folder
    #[arg(long, env = "WARPDIFF_GPU_DUMP", value_name = "DIR")]
    pub gpu_dump: Option<PathBuf>,
    /// Compile and run in this process instead of helper and runner
    /// processes (fuzz, bench-gpu); then a hang or fault switches the GPU
    /// off for the rest of the run
    #[arg(long, env = "WARPDIFF_GPU_IN_PROCESS")]
    pub gpu_in_process: bool,
    /// Compile in helper processes and run in a runner process, as fuzz
    /// does, in any subcommand (diff, run, gpu-probe): to check a finding
    /// through the path of the run that found it
    #[arg(long, env = "WARPDIFF_GPU_HELPERS", conflicts_with = "gpu_in_process")]
    pub gpu_helpers: bool,
    /// Milliseconds past the deadline a runner process may take to answer
    /// before it counts as stuck in a driver call and is killed
    #[arg(long, hide = true, default_value_t = 10_000, value_name = "MS")]
    pub gpu_answer_margin_ms: u64,
    /// Milliseconds one module's compile in a helper may take before the
    /// helper is killed and the module counts as a compiler failure
    #[arg(long, hide = true, default_value_t = 60_000, value_name = "MS")]
    pub gpu_compile_deadline_ms: u64,
    /// Perturb the schedule: each lane sleeps a delay drawn from this seed
    /// before every collective and activemask, so values the reference
    /// calls defined must hold for other schedules too
    #[arg(long, env = "WARPDIFF_GPU_PERTURB", value_name = "SEED", value_parser = parse_u32)]
    pub gpu_perturb: Option<u32>,
    /// Before each batch, fill every register of the GPU with values drawn
    /// from this seed: a lane the reference defines that changes with the
    /// seed read a register the program never wrote
    #[arg(long, env = "WARPDIFF_GPU_DIRTY", value_name = "SEED", value_parser = parse_u32)]
    pub gpu_dirty: Option<u32>,
    /// (fault-injection builds) a simulated GPU that fails: `fault-batch:N`,
    /// `stuck-batch:N` (the N-th batch never returns), `hang-every:N`,
    /// `fault-every:N`, `stuck-every:N`, `fail-every:N` (by turns),
    /// `fault-form:FORM`,
    /// `fault-pair:FORM+FORM`, `hang-idiom:NAME`; wrong values that agree
    /// alone: `wrong-after:FORM+FORM`, `wrong-dirty:FORM`, `wrong-once:N`
    #[arg(long, env = "WARPDIFF_GPU_SIMULATE", hide = true, value_parser = parse_sim)]
    pub gpu_simulate: Option<SimFault>,
}

/// How external engines (`cmd:PROGRAM`) are driven: one set of flags for
/// every subcommand that can use one.
#[derive(Clone, Debug, Args)]
pub struct ExtArgs {
    /// Milliseconds an external engine has for its handshake, and for each
    /// request besides --ext-job-ms per job; past it, it is a hang
    #[arg(
        long,
        env = "WARPDIFF_EXT_DEADLINE_MS",
        default_value_t = 10_000,
        value_name = "MS"
    )]
    pub ext_deadline_ms: u64,
    /// Milliseconds more an external engine has per job of a request
    #[arg(
        long,
        env = "WARPDIFF_EXT_JOB_MS",
        default_value_t = 50,
        value_name = "MS"
    )]
    pub ext_job_ms: u64,
}

impl ExtArgs {
    /// The options these flags give. The child's environment gets
    /// `WARPDIFF_EXE` (this executable, for clients that run warpdiff
    /// themselves, unless the environment already has one) and
    /// `WARPDIFF_PROTOCOL`.
    pub fn options(&self) -> Options {
        let mut env = vec![(
            "WARPDIFF_PROTOCOL".to_string(),
            crate::engines::external::protocol::PROTOCOL.to_string(),
        )];
        if std::env::var_os("WARPDIFF_EXE").is_none() {
            if let Ok(exe) = std::env::current_exe() {
                env.push(("WARPDIFF_EXE".to_string(), exe.display().to_string()));
            }
        }
        Options {
            deadline: Duration::from_millis(self.ext_deadline_ms),
            per_job: Duration::from_millis(self.ext_job_ms),
            env,
        }
    }
}

/// A PTX compiler optimisation level.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct OptLevel(pub Option<u32>);

impl GpuArgs {
    /// The configuration these flags give; `helpers` is the executable
    /// whose compile helpers and runner processes to start (unless
    /// `--gpu-in-process`), and `deadline` the default deadline of the
    /// command.
    pub fn config(&self, helpers: Option<PathBuf>, deadline: Duration) -> GpuConfig {
        let d = GpuConfig::default();
        let helpers = helpers.filter(|_| !self.gpu_in_process);
        GpuConfig {
            runner: helpers.clone(),
            answer_margin: Duration::from_millis(self.gpu_answer_margin_ms),
            compile_deadline: Duration::from_millis(self.gpu_compile_deadline_ms),
            deadline: self.gpu_deadline_ms.map_or(deadline, Duration::from_millis),
            compile_threads: self.gpu_compile_threads.unwrap_or(d.compile_threads),
            opt_level: self.level(),
            compiler: self.gpu_compiler,
            helpers,
            dump_dir: self.gpu_dump.clone(),
            simulate: self.gpu_simulate.clone(),
            perturb: self.gpu_perturb,
            dirty: self.gpu_dirty,
        }
    }

    /// The optimisation level given, else -O0 (see
    /// [`GpuArgs::default_level`]); `None` is the driver's default.
    pub fn level(&self) -> Option<u32> {
        self.gpu_opt_level.unwrap_or(OptLevel(Some(0))).0
    }

    /// Sets the level to `level` unless one was given.
    pub fn default_level(&mut self, level: Option<u32>) {
        self.gpu_opt_level.get_or_insert(OptLevel(level));
    }

    /// The flags that give a child process the same GPU settings (with
    /// `deadline_ms` as its deadline), for `gpu-probe`.
    pub fn child_args(&self, deadline_ms: u64) -> Vec<String> {
        let mut v = vec![
            format!("--gpu-deadline-ms={deadline_ms}"),
            format!(
                "--gpu-opt-level={}",
                self.level()
                    .map_or("default".to_string(), |o| o.to_string())
            ),
            format!("--gpu-compiler={}", self.gpu_compiler.name()),
        ];
        if let Some(seed) = self.gpu_perturb {
            v.push(format!("--gpu-perturb={seed:#x}"));
        }
        if let Some(s) = &self.gpu_simulate {
            v.push(format!("--gpu-simulate={}", sim_name(s)));
        }
        v
    }
}

/// A number, decimal or `0x` hex.
pub fn parse_u64(s: &str) -> Result<u64, String> {
    match s.strip_prefix("0x") {
        Some(h) => u64::from_str_radix(h, 16),
        None => s.parse(),
    }
    .map_err(|_| format!("`{s}` is not a number (decimal or 0x hex)"))
}

fn parse_u32(s: &str) -> Result<u32, String> {
    let v = parse_u64(s)?;
    u32::try_from(v).map_err(|_| format!("`{s}` does not fit in 32 bits"))
}

fn parse_opt_level(s: &str) -> Result<OptLevel, String> {
    match s {
        "default" => Ok(OptLevel(None)),
        _ => match s.parse::<u32>() {
            Ok(n) if n <= 4 => Ok(OptLevel(Some(n))),
            _ => Err(format!("`{s}` is not 0, 1, 2, 3, 4 or `default`")),
        },
    }
}

fn parse_compiler(s: &str) -> Result<Compiler, String> {
    Compiler::from_name(s).ok_or_else(|| format!("`{s}` is not `driver` or `ptxas`"))
}

fn parse_sim(s: &str) -> Result<SimFault, String> {
    SimFault::parse(s)
}

/// The `--gpu-simulate` spelling of a fault.
fn sim_name(f: &SimFault) -> String {
    f.name()
}

#[cfg(test)]
mod tests {
    use super::*;
    use clap::CommandFactory;

    #[test]
    fn the_command_line_is_consistent() {
        Cli::command().debug_assert();
    }

    #[test]
    fn simulated_faults_round_trip() {
        for s in [
            "fault-batch:2",
            "fault-form:popc.b32",
            "fault-pair:a+b",
            "stuck-batch:1",
            "hang-every:3",
            "fault-every:5",
            "stuck-every:7",
            "fail-every:4",
            "hang-idiom:guard-redefined-by-collective",
            "wrong-after:activemask+match.any.sync.b32",
            "wrong-dirty:brev.b32",
            "wrong-once:2",
        ] {
            assert_eq!(sim_name(&parse_sim(s).unwrap()), s);
        }
        assert!(parse_sim("fault-batch:0").is_err());
        assert!(parse_sim("fault-pair:a").is_err());
        assert!(parse_sim("hang-every:0").is_err());
        assert!(parse_sim("hang-idiom:no-such-bug").is_err());
        assert!(parse_sim("wrong-after:a").is_err());
        assert!(parse_sim("wrong-dirty:").is_err());
        assert!(parse_sim("wrong-once:0").is_err());
    }
}
