//! `warpdiff`: the differential fuzzer and its command-line tool. The
//! reference interpreter (`warp-core`) judges every run of the Cranelift
//! JIT (`warp-jit`), of real GPUs (`warp-gpu`) and of external engines
//! (child processes that speak the engine protocol, [`external`]); this
//! crate holds what ties them together: the engines by name, the fuzzing
//! loop that the
//! cargo-fuzz targets call ([`fuzzing`]), and each `warpdiff` subcommand
//! (declared in [`cli`]).
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

pub mod output;

pub mod cli;
pub mod cmd;
pub mod engines;
pub mod fuzz;
