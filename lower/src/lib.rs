//! `warp-lower`: backends for warp programs. The Cranelift JIT ([`jit`])
//! lowers a [`warp_core::ir::Program`] to native code that emulates the
//! warp on the CPU, bit-exact with the reference interpreter on every
//! defined lane.
//!
//! ```
//! use warp_lower::jit::JitProgram;
//! let case = warp_core::text::parse(
//!     ".reg .b32 Rx, Ry;\n.lanes Rx = 7;\nshfl.sync.idx.b32 Ry, Rx, 0, 0x1f, 0xffffffff;\n",
//! ).unwrap();
//! let jit = JitProgram::compile(&case.program).unwrap();
//! let out = jit.run(&case.inputs).unwrap();
//! assert_eq!(out.values[1][5], 7);
//! ```

#![warn(missing_docs)]

pub mod engines;
pub mod fuzzing;
pub mod gpu;
pub mod jit;
