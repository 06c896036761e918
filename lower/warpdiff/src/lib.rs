//! `warpdiff`: the differential fuzzer and its command-line tool. The
//! reference interpreter (`warp-core`) judges every run of the Cranelift
//! JIT (`warp-jit`), of real GPUs (`warp-gpu`) and of external engines
//! (child processes that speak the engine protocol,
//! [`engines::external`]); this crate holds what ties them together: the
//! engines by name, the fuzzing loop that the cargo-fuzz targets call
//! ([`fuzz::target`]), and each `warpdiff` subcommand (declared in
//! [`cli`]).
//!
//! The modules, one line each. Imports go one way: `main` → [`cmd`] →
//! [`fuzz`] → [`engines`] → [`output`] (and [`cli`], which the commands
//! and the fuzz loop read, uses [`engines`] only); inside [`fuzz`], the
//! loop's entry → its parts → [`fuzz::run`], never back.
//!
//! - [`cli`]: the command line's clap declarations.
//! - [`cmd`]: one module per subcommand, each returning the exit status:
//!   - [`cmd::run`]: `warpdiff run` (and [`cmd::run_kernel`] for `--launch`/`--kernel`);
//!   - [`cmd::check`]: `warpdiff check` (undefined values that escape, with their origins; warp-race);
//!   - [`cmd::diff`]: `warpdiff diff` (and [`cmd::diff_kernel`] for kernel launches);
//!   - [`cmd::fuzz`]: `warpdiff fuzz`: arguments → [`fuzz::run::Run`] → the loop;
//!   - [`cmd::reduce`]: `warpdiff reduce` and `warpdiff reduce-hang`;
//!   - [`cmd::repro`]: `warpdiff repro` (a GPU finding's bug report, runnable with no Rust);
//!   - [`cmd::emit_ptx`]: `warpdiff emit-ptx` (the PTX module the GPU engine would load);
//!   - [`cmd::bench_gpu`]: `warpdiff bench-gpu` (cases verified per second on the GPU);
//!   - [`cmd::gpu_probe`]: `warpdiff gpu-probe` (internal: one batch in a fresh process).
//! - [`fuzz`]: the fuzz loop's entry ([`fuzz::run_loop`]) and its parts:
//!   - [`fuzz::run`]: what the parts share (settings, counters, reporting a finding);
//!   - [`fuzz::cpu`]: the CPU workers;
//!   - [`fuzz::gpu`]: one thread per GPU, checking batches;
//!   - [`fuzz::external`]: one thread per external engine, sending batches;
//!   - [`fuzz::hang`]: GPU hangs and faults, asked of fresh `gpu-probe` processes;
//!   - [`fuzz::levels`]: a GPU divergence classified by optimisation level;
//!   - [`fuzz::progress`]: the progress bar or line;
//!   - [`fuzz::summary`]: the summary and exit status at the end;
//!   - [`fuzz::case`]: one case: bytes or seed → case → oracle → reduce → record;
//!   - [`fuzz::target`]: the cargo-fuzz targets `diff` and `parse`;
//!   - [`fuzz::seen`]: the `diff` target's memo of inputs already checked.
//! - [`engines`]: the built-in engines by name and the set a command runs:
//!   - [`engines::spec`]: engines as the command line names them;
//!   - [`engines::kernel`]: the engines that run kernel launches;
//!   - [`engines::external`]: external engines (child processes), with
//!     [`child`](engines::external::child), [`command`](engines::external::command)
//!     and [`protocol`](engines::external::protocol).
//! - [`output`]: everything printed (`outln!`, `errln!`, the progress bar's
//!   slot), with the `run` table ([`output::table`]) and JSON lines ([`output::json`]).
//!
//! ```
//! let mut stats = warp_core::gen::Stats::default();
//! let bytes: Vec<u8> = (0..512u32).map(|i| (i * 37 % 251) as u8).collect();
//! let tc = warpdiff::fuzz::case::case_from_bytes(&bytes, &mut stats).unwrap();
//! let jit = warpdiff::engines::for_one_run("jit").unwrap();
//! let verdict = warp_core::oracle::check(&tc.program, &tc.inputs, &[jit.as_ref()], 100_000);
//! # let _ = verdict;
//! ```

#![forbid(unsafe_code)]
#![warn(missing_docs)]
// Every line printed goes through `output` (closed pipes end quietly).
#![deny(clippy::print_stdout, clippy::print_stderr)]

pub mod cli;
pub mod cmd;
pub mod engines;
pub mod fuzz;
pub mod output;
