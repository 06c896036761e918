//! `warpdiff`: run, compare and fuzz PTX warp-level programs.
//!
//! ```text
//! warpdiff run [--engine interp|jit|gpu] [--json] [--fuel N] FILE...
//! warpdiff diff [--fuel N] FILE...
//! warpdiff fuzz [--seconds N] [--seed S] [--jobs J] [--engines interp,jit] [--corpus DIR] [--keep-going]
//! warpdiff reduce FILE -o OUT [--force]
//! warpdiff reduce-hang FILE -o OUT [--deadline-ms N]
//! warpdiff emit-ptx FILE...
//! warpdiff bench-gpu [--batches 1,64,1024,16384] [--seconds S] [--inputs K] [--threads N]
//! ```

mod bench_gpu;
mod diff;
mod fuzz_cmd;
mod hang;
mod json;
mod reduce_cmd;
mod run;
mod table;

use std::process::ExitCode;

const USAGE: &str = "\
usage: warpdiff run [--engine interp|jit|gpu] [--json] [--fuel N] FILE...
       warpdiff diff [--fuel N] FILE...
       warpdiff fuzz [--seconds N] [--seed S] [--jobs J] [--engines interp,jit,gpu]
                     [--corpus DIR] [--keep-going] [--gpu-batch N] [--gpu-inputs K]
                     [--gpus N]
       warpdiff reduce FILE -o OUT [--force]
       warpdiff reduce-hang FILE -o OUT [--deadline-ms N]
       warpdiff emit-ptx FILE...
       warpdiff bench-gpu [--batches 1,64,1024,16384] [--seconds S] [--inputs K]
                          [--threads N] [--seed S] [--devices N] [--cross-check]

  run      run each .ptx case file and print its final registers per lane
           (a table, or with --json one JSON object per file, one per line);
           files with .expect lines are checked against them
           exit: 0 every file ran (and matched its .expect), 1 an .expect
           mismatch, 3 a file hit undefined behaviour, 2 a file could not
           be read, parsed or finished (or bad arguments)
  diff     run each file on every engine and compare with the reference
           interpreter on its defined lanes, printing each differing lane
           exit: 1 a divergence, else 2 an error, else 3 undefined
           behaviour (not compared), else 0
  fuzz     generate random cases (stable Rust, no libFuzzer), check them
           on the engines, and reduce each divergence into corpus/ (stops at
           the first unless --keep-going); a progress line every second and a
           coverage table at the end; exit 1 if a divergence was found
           with the gpu engine, cases the CPU engines agree on go to the GPU
           in batches of up to --gpu-batch (default 1024), each program with
           --gpu-inputs K input sets (the case's and its lanes rotated), spread
           over every GPU of the host (--gpus N: the first N)
  reduce   reduce a divergent case file by hand (same engine, same form)
  reduce-hang reduce a case the GPU does not finish (each candidate alone
           in a fresh process, with the deadline); fuzz does this itself
  emit-ptx print the PTX module the GPU engine would load for the files
           (one kernel per file; they must share a .version/.target)
  bench-gpu cases verified per second on the GPU, end to end, per batch
           size, and where the time goes (--inputs K: K input sets per
           generated program; --devices N: spread over N GPUs;
           --cross-check: the same cases on every GPU, outcomes compared)
  --engine which engine runs the files: interp (the reference, with
           definedness and UB) or jit (Cranelift, native; every lane shown)
  --json   machine-readable output
  --fuel   maximum warp steps before a run stops (default 1000000)";

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    // Fuzzing and benchmarking compile many PTX modules: do it in helper
    // processes (the driver serialises compiles within one process).
    if matches!(args.first().map(String::as_str), Some("fuzz" | "bench-gpu"))
        && std::env::var_os("WARPDIFF_GPU_IN_PROCESS").is_none()
    {
        if let Ok(exe) = std::env::current_exe() {
            warp_lower::gpu::engine::compile_in_processes(exe);
        }
    }
    match args.first().map(String::as_str) {
        Some("run") => match run::Options::parse(&args[1..]) {
            Ok(opts) => ExitCode::from(run::run(&opts)),
            Err(e) => {
                eprintln!("warpdiff run: {e}\n\n{USAGE}");
                ExitCode::from(2)
            }
        },
        Some("diff") => match run::Options::parse(&args[1..]) {
            Ok(opts) if !opts.json && opts.engine == "interp" => {
                ExitCode::from(diff::diff(&opts.files, opts.fuel))
            }
            Ok(_) => {
                eprintln!("warpdiff diff: --engine and --json do not apply\n\n{USAGE}");
                ExitCode::from(2)
            }
            Err(e) => {
                eprintln!("warpdiff diff: {e}\n\n{USAGE}");
                ExitCode::from(2)
            }
        },
        Some("fuzz") => match fuzz_cmd::FuzzOptions::parse(&args[1..]) {
            Ok(o) => ExitCode::from(fuzz_cmd::fuzz(&o)),
            Err(e) => {
                eprintln!("warpdiff fuzz: {e}\n\n{USAGE}");
                ExitCode::from(2)
            }
        },
        Some("reduce") => ExitCode::from(reduce_cmd::reduce(&args[1..])),
        Some("reduce-hang") => ExitCode::from(reduce_cmd::reduce_hang(&args[1..])),
        Some(warp_lower::gpu::farm::WORKER_COMMAND) => {
            ExitCode::from(warp_lower::gpu::farm::worker_main())
        }
        Some("bench-gpu") => match bench_gpu::BenchOptions::parse(&args[1..]) {
            Ok(o) => ExitCode::from(bench_gpu::bench(&o)),
            Err(e) => {
                eprintln!("warpdiff bench-gpu: {e}\n\n{USAGE}");
                ExitCode::from(2)
            }
        },
        Some("emit-ptx") => ExitCode::from(emit_ptx(&args[1..])),
        Some("-h" | "--help" | "help") => {
            println!("{USAGE}");
            ExitCode::SUCCESS
        }
        Some(other) => {
            eprintln!("warpdiff: unknown command `{other}`\n\n{USAGE}");
            ExitCode::from(2)
        }
        None => {
            eprintln!("{USAGE}");
            ExitCode::from(2)
        }
    }
}

/// `warpdiff emit-ptx FILE...`: the module the GPU engine would load.
fn emit_ptx(files: &[String]) -> u8 {
    use warp_lower::gpu::emit::{emit_module, module_target, Job};
    let mut cases = Vec::new();
    for f in files {
        match std::fs::read_to_string(f)
            .map_err(|e| format!("{f}: cannot read: {e}"))
            .and_then(|s| warp_core::text::parse(&s).map_err(|e| e.with_file(f)))
        {
            Ok(c) => cases.push(c),
            Err(m) => {
                eprintln!("{m}");
                return 2;
            }
        }
    }
    if cases.is_empty() {
        eprintln!("usage: warpdiff emit-ptx FILE...");
        return 2;
    }
    let mut target = None;
    for (c, f) in cases.iter().zip(files) {
        match module_target(&c.program) {
            Ok(t) if target.is_none() || target == Some(t) => target = Some(t),
            Ok(_) => {
                eprintln!("{f}: needs another .version/.target than the files before it");
                return 2;
            }
            Err(s) => {
                eprintln!("{f}: the GPU engine skips it: {s}");
                return 2;
            }
        }
    }
    let (v, t) = target.expect("at least one file");
    let jobs: Vec<Job> = cases
        .iter()
        .map(|c| Job {
            program: &c.program,
            inputs: &c.inputs,
        })
        .collect();
    match emit_module(&jobs, v, t) {
        Ok(m) => {
            print!("{}", m.ptx);
            0
        }
        Err(e) => {
            eprintln!("emit-ptx: {e}");
            2
        }
    }
}
