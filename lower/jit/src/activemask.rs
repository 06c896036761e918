//! Lowering of `activemask.b32` (see `warp-core`'s `interp/activemask.rs`):
//! every executing lane writes the mask of executing lanes.

use super::builder::Emitter;
use cranelift_codegen::ir::types::I32X4;
use cranelift_codegen::ir::InstBuilder;
use warp_core::ir::{Activemask, Guard, WARP};

/// Emits `activemask`, on the converged lanes that `guard` leaves on.
pub fn emit(e: &mut Emitter, guard: Option<Guard>, x: &Activemask) {
    let Activemask { d } = *x;
    let mut l = e.lanes(guard);
    let exec = e.exec(&mut l);
    let v = e.b.ins().splat(I32X4, exec);
    for k in 0..WARP / 4 {
        e.write_vec(d, k, &mut l, v);
    }
}
