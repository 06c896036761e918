//! The `.ptx` case format: PTX instruction syntax verbatim, framed by
//! `.version`, `.target`, `.reg`, `.lanes` and `.expect` directives (and,
//! for a run bounded to `N` warp steps, `.fuel N;` and the line it stops
//! before, `.stop LINE;`).
//!
//! ```text
//! // what this case is
//! .target sm_90
//! .reg .b32 Rx, Ry;  .reg .pred p;
//! .lanes Rx = 0 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20 21 22 23 24 25 26 27 28 29 30 31;
//!     shfl.sync.up.b32  Ry|p, Rx, 0x1, 0x0, 0xffffffff;
//! .expect Ry = _ 0 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20 21 22 23 24 25 26 27 28 29 30;
//! ```
//!
//! [`parse`] reads it into a [`Case`](crate::ir::Case), [`print()`] writes it
//! back; `parse(print(c)) == c` for every case.

mod approx;
mod atomic;
mod error;
mod inline;
mod lane_ops;
mod lex;
mod module;
mod parse;
mod print;
mod scope;
mod value;

pub use error::ParseError;
pub use module::parse_module;
pub use parse::parse;
pub use print::{inst_text, print, print_program};
pub use value::{format_bits, format_value, parse_value};
