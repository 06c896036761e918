//! `warpdiff`: run, compare, reduce and fuzz PTX warp-level programs. The
//! command line is declared in [`warpdiff::cli`]; each subcommand lives in
//! its own module of the library ([`warpdiff::cmd`]).

use clap::Parser;
use std::process::ExitCode;
use std::time::Duration;
use warpdiff::cli::{Cli, Command, GpuArgs};
use warpdiff::cmd::{bench_gpu, check, diff, emit_ptx, fuzz, gpu_probe, reduce, repro, run};
use warpdiff::errln;

fn main() -> ExitCode {
    let mut cli = Cli::parse();
    // Fuzzing hunts compiler bugs: at the driver's default level unless
    // told otherwise (each divergence is classified by level).
    if let Command::Fuzz(a) = &mut cli.command {
        a.gpu.default_level(None);
    }
    let gpu_args = match &cli.command {
        Command::Run(a) => Some(&a.gpu),
        Command::Diff(a) => Some(&a.gpu),
        Command::Fuzz(a) => Some(&a.gpu),
        Command::Reduce(a) => Some(&a.gpu),
        Command::ReduceHang(a) => Some(&a.gpu),
        Command::BenchGpu(a) => Some(&a.gpu),
        Command::Repro(a) => Some(&a.gpu),
        Command::GpuProbe(a) => Some(&a.gpu),
        Command::EmitPtx(_)
        | Command::Check(_)
        | Command::GpuCompileWorker(_)
        | Command::GpuRunner(_) => None,
    };
    if let Some(g) = gpu_args {
        if let Err(e) = configure_gpu(&cli.command, g) {
            errln!("warpdiff: {e}");
            return ExitCode::from(2);
        }
    }
    ExitCode::from(match cli.command {
        Command::Run(a) => run::run(&a),
        Command::Check(a) => check::check(&a),
        Command::Diff(a) => diff::diff(&a),
        Command::Fuzz(a) => fuzz::fuzz(&a),
        Command::Reduce(a) => reduce::reduce(&a),
        Command::ReduceHang(a) => reduce::reduce_hang(&a),
        Command::EmitPtx(a) => emit_ptx::emit_ptx(&a),
        Command::BenchGpu(a) => bench_gpu::bench(&a),
        Command::Repro(a) => repro::repro(&a),
        Command::GpuCompileWorker(a) => warp_gpu::farm::worker_main(a.compiler, a.device),
        Command::GpuRunner(a) => warp_gpu::runner::runner_main(
            a.device,
            a.gpu_simulate,
            a.gpu_dirty,
            a.sim_opt_level.map_or(Some(0), |o| o.0),
        ),
        Command::GpuProbe(a) => gpu_probe::probe(&a),
    })
}

/// Opens the process's GPUs, when they are first used, as the flags say.
/// Fuzzing and benchmarking compile many modules: in helper processes
/// (the driver serialises compiles inside one process).
fn configure_gpu(command: &Command, g: &GpuArgs) -> Result<(), String> {
    if g.gpu_simulate.is_some() && !cfg!(feature = "inject-bugs") {
        return Err(
            "--gpu-simulate (WARPDIFF_GPU_SIMULATE) needs a build with `--features inject-bugs`"
                .into(),
        );
    }
    let helpers = match command {
        Command::Fuzz(_) | Command::BenchGpu(_) => std::env::current_exe().ok(),
        _ if g.gpu_helpers => std::env::current_exe().ok(),
        _ => None,
    };
    let deadline = match command {
        // A generated program runs for microseconds on a GPU: a fuzz batch
        // still running after the short deadline hangs, and each hang
        // holds the GPU for its deadline.
        Command::ReduceHang(_) | Command::Fuzz(_) => {
            Duration::from_millis(warpdiff::fuzz::hang::DEADLINE_MS)
        }
        _ => warp_gpu::GpuConfig::DEFAULT_DEADLINE,
    };
    warp_gpu::engine::configure(g.config(helpers, deadline));
    Ok(())
}
