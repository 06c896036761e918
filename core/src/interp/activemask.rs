//! `activemask.b32 d` — from the spec digest: "Active, predicated-on threads
//! contribute 1; exited, inactive, or predicated-off threads contribute 0."
//! It is not a synchronization point. Under `@p`, only the predicated-on
//! lanes write `d` (seen on the H200: `shared/hw/converge-h200.txt`).
//!
//! Which lanes run together depends on the schedule on sm_70 and later
//! (see [`converge`](super::converge)), so lane `l`'s result is defined on
//! the bits of the lanes certainly executing with it (1 where their guard
//! holds, 0 where it does not) and of the lanes certainly exited (0); its
//! own bit is always a defined 1, and a lane certainly absent (all its
//! executions of this instruction are ordered before or after this one) a
//! defined 0. The value on the other bits is min-PC's.

use super::bits::Val;
use super::lanes::lanes;
use super::warp::{Step, Warp};
use crate::ir::{Activemask, WARP};

/// Executes `x` for the lanes of `s`.
pub(crate) fn exec(w: &mut Warp, s: &Step, x: &Activemask) {
    let Activemask { d } = *x;
    // Every result is made before any is written, in a fixed buffer (this
    // runs at every step: no allocation).
    let mut out = [(0usize, Val { v: 0, d: 0 }); WARP];
    let mut n = 0;
    for l in lanes(s.exec) {
        let with = w.conv.with(l, s.conv);
        let known = if w.conv.lockstep() {
            // Lockstep: the group is the schedule; lanes with an undefined
            // guard may or may not be counted.
            !s.maybe
        } else {
            (with | w.conv.absent(l, s.pc, !with)) & !s.maybe
        };
        out[n] = (
            l,
            Val {
                v: s.exec as u64,
                d: known as u64 | !0xffff_ffffu64,
            },
        );
        n += 1;
    }
    // A lane whose guard is undefined may have executed it.
    w.conv.executed(s.pc, s.exec | s.maybe);
    w.write_all(d, &out[..n]);
}
