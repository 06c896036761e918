//! Lowering of `activemask.b32` (see `warp-core`'s `interp/activemask.rs`):
//! every executing lane writes the mask of executing lanes.

use super::emit::Emitter;
use cranelift_codegen::ir::types::I32X4;
use cranelift_codegen::ir::InstBuilder;
use warp_core::ir::{Inst, Op, WARP};

/// Emits `activemask`.
pub fn emit(e: &mut Emitter, inst: &Inst) {
    let Op::Activemask { d } = inst.op else {
        unreachable!("activemask::emit on another instruction")
    };
    let mut l = e.lanes(inst.guard);
    let exec = e.exec(&mut l);
    let v = e.b.ins().splat(I32X4, exec);
    for k in 0..WARP / 4 {
        e.write_vec(d, k, &mut l, v);
    }
}
