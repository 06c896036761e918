//! `warp-core`: the warp IR, the `.ptx` case text format, and the reference
//! interpreter for NVIDIA PTX warp-level instructions (`shfl.sync`,
//! deprecated `shfl`/`vote`, `vote.sync`, `match.sync`, `redux.sync`,
//! `activemask`) with per-lane definedness and undefined behaviour.
//!
//! ```
//! let case = warp_core::text::parse(
//!     ".reg .b32 Rx, Ry;\n\
//!      .lanes Rx = 7;\n\
//!      shfl.sync.idx.b32 Ry, Rx, 0, 0x1f, 0xffffffff;\n",
//! )
//! .unwrap();
//! let out = warp_core::interp::Interp::new(&case.program).run(&case.inputs).unwrap();
//! let ry = case.program.reg("Ry").unwrap();
//! assert_eq!(out.get(ry, 5), Some(7));
//! ```
//!
//! # Modules
//!
//! The vocabulary every engine shares:
//! - [`ir`]: the warp IR (types, registers, instructions, programs, cases,
//!   PTX modules);
//! - [`outcome`]: what a run of one warp produces, whichever engine ran it;
//! - [`ub`]: undefined behaviour, its rules and its diagnostic;
//! - [`engine`]: the `Engine` and `Compiled` traits, skips, compile and
//!   run errors;
//! - [`launch`]: kernel launches (grid, block, buffers, parameters) and what
//!   they leave in the buffers.
//!
//! Text formats:
//! - [`text`]: the `.ptx` case format (parse and print) and the PTX module
//!   front end.
//!
//! The reference:
//! - [`interp`]: the reference interpreter, one warp or a kernel's grid,
//!   with definedness and undefined behaviour;
//! - [`fxhash`]: the fast hasher of the interpreter's and the JIT's tables;
//! - [`sanitize`]: `warpdiff check`, where undefined values escape in a
//!   kernel launch, with their origins, and races between a warp's lanes.
//!
//! Generator and reducer:
//! - [`gen`]: random cases valid by construction, and what they exercised;
//! - [`reduce`]: the test-case reducer;
//! - [`idioms`]: shapes of known GPU-compiler bugs, which the fuzzer can
//!   avoid;
//! - [`rng`]: the one seeded pseudo-random number generator.
//!
//! Oracle and corpus:
//! - [`oracle`]: the differential oracle (the reference first, then every
//!   other engine on its defined lanes);
//! - [`compare`]: an engine's outcome against the reference's;
//! - [`blame`]: the first warp step where a bounded run differs;
//! - [`check`]: an outcome against a case's `.expect` lines;
//! - [`phases`]: where the fuzz loop's time goes;
//! - [`corpus`]: writing regression cases into `corpus/`;
//! - [`kernel_corpus`]: the kernel corpus, `corpus/kernels/`;
//! - `replay` (feature `replay`): the corpus replay harness every engine's
//!   tests run.

#![forbid(unsafe_code)]
#![warn(missing_docs)]

pub mod blame;
pub mod check;
pub mod compare;
pub mod corpus;
pub mod engine;
pub mod fxhash;
pub mod gen;
pub mod idioms;
pub mod interp;
pub mod ir;
pub mod kernel_corpus;
pub mod launch;
pub mod oracle;
pub mod outcome;
pub mod phases;
pub mod reduce;
#[cfg(feature = "replay")]
pub mod replay;
pub mod rng;
pub mod sanitize;
pub mod text;
pub mod ub;
