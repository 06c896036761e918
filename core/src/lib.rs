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
pub mod text;
pub mod ub;
