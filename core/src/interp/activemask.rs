//! `activemask.b32 d` — from the spec digest: "Active, predicated-on threads
//! contribute 1; exited, inactive, or predicated-off threads contribute 0."
//! It is not a synchronization point. Under `@p`, only the predicated-on
//! lanes write `d` (seen on the H200: `shared/hw/converge-h200.txt`).

use super::{lanes, Step, Warp};
use crate::ir::Op;

/// Executes `activemask` for the lanes of `s`.
pub(crate) fn exec(w: &mut Warp, s: &Step) {
    let Op::Activemask { d } = s.inst.op else {
        unreachable!("activemask::exec called on another instruction")
    };
    // After a collective left the warp split (see `Warp::split`), which
    // lanes run together is not known.
    let defined = !w.split;
    for l in lanes(s.exec) {
        w.write(d, l, (s.exec as u64, defined));
    }
}
