//! The warp IR: a typed program of PTX instructions over declared registers.
//!
//! A [`Program`] is what one warp runs: `.version`/`.target`, the declared
//! registers, and a body of [`Inst`]s with labels between them. Every operand
//! is already resolved (registers are indices into [`Program::regs`], labels are
//! indices into [`Program::labels`]) and type-checked by the parser, so the
//! interpreter and the backends never see a name.
//!
//! This module owns the vocabulary of the instruction set, so that the
//! interpreter, the generator, the reducer and the backends ask it rather
//! than keep copies. It declares the files and re-exports their items:
//!
//! - `ir/types.rs`: the warp's width and the register types;
//! - `ir/regs.rs`: registers, labels, operands, destinations, guards;
//! - `ir/warp_ops.rs`: the warp instructions (`shfl`, `vote`, `match`,
//!   `redux`, `activemask`);
//! - `ir/glue.rs`: `mov`, the ALU operations, `setp`, `selp`;
//! - `ir/atomic.rs`: `atom`/`red` and fences, the payloads of two lane
//!   ops' kinds;
//! - `ir/lane_ops.rs`: the lane-level (PTX's thread-level, non-warp)
//!   instructions of PTX modules;
//! - `ir/inst.rs`: an instruction ([`Op`] by family, [`Inst`]);
//! - `ir/program.rs`: the program, its inputs and expectations, the case;
//! - `ir/module.rs`: PTX modules (kernels, parameters, variables);
//! - `ir/operands.rs`: which operands an instruction reads and writes,
//!   with their types and roles;
//! - `ir/requirement.rs`: which `.version` and `.target` each instruction
//!   needs;
//! - `ir/forms.rs`: the modes, operations and types each instruction
//!   takes, form names and opcodes;
//! - `ir/dialect.rs`: the same for the lane ops and the glue's 16-bit
//!   and `.f64` types, and every form name ([`all_forms`]).
//!
//! Each file imports only those above it in this list (`operands.rs`,
//! `requirement.rs` and `forms.rs` add methods to the instruction types).

mod approx;
mod atomic;
mod dialect;
mod forms;
mod glue;
mod inst;
mod lane_ops;
mod module;
mod operands;
mod program;
mod regs;
mod requirement;
mod types;
mod warp_ops;

pub use approx::ApproxFn;
pub use atomic::{AtomOp, AtomSpace, Atomic, Fence, MemScope, Sem};
pub use dialect::{
    all_forms, dialect_glue_forms, lane_op_forms, narrow_types, wide_type, CVT_INTS, ROUNDINGS,
};
pub use glue::{BinOp, BoolOp, CmpOp, Glue, UnOp};
pub use inst::{Control, Inst, Op};
pub use lane_ops::{Address, Axis, FloatOp, IntOp, LaneOp, LaneOpKind, Rounding, Space, Special};
pub use module::{windows, Kernel, Module, Param, Variable};
pub use operands::{DestMut, Role, SourceMut};
pub use program::{Bits, Case, Expect, Inputs, Program, Target, Version};
pub use regs::{Dest, Guard, Label, LabelId, Operand, Reg, RegDecl};
pub use requirement::{Refusal, Requirement};
pub use types::{Type, WARP};
pub use warp_ops::{
    Activemask, Match, MatchMode, Redux, ReduxOp, Shfl, ShflMode, Signedness, Vote, VoteMode,
};
