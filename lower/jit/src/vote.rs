//! Lowering of `vote.sync` and deprecated `vote` (see `warp-core`'s
//! `interp/vote.rs`): the ballot `B` of `a` over the executing lanes is
//! computed once; each lane's result then compares `B` with its own
//! membermask in vector code.

use super::builder::Emitter;
use super::inject::{self, Bug};
use cranelift_codegen::ir::condcodes::IntCC;
use cranelift_codegen::ir::types::{I32, I32X4};
use cranelift_codegen::ir::InstBuilder;
use warp_core::ir::{Guard, Vote, VoteMode, WARP};

/// Emits a `vote`, on the converged lanes that `guard` leaves on.
pub fn emit(e: &mut Emitter, guard: Option<Guard>, x: &Vote) {
    let Vote {
        mode,
        d,
        a,
        membermask,
    } = *x;
    let mut l = e.lanes(guard);
    let exec = e.exec(&mut l);
    let zero = e.b.ins().iconst(I32, 0);
    let z = e.b.ins().splat(I32X4, zero);
    let mut on = Vec::with_capacity(8);
    for k in 0..WARP / 4 {
        let v = e.read_vec(a, k);
        on.push(e.b.ins().icmp(IntCC::NotEqual, v, z));
    }
    let ballot = e.vecs_to_mask(&on);
    let ballot = e.b.ins().band(ballot, exec);
    let bv = e.b.ins().splat(I32X4, ballot);
    let ev = e.b.ins().splat(I32X4, exec);
    let one = e.vconst_i32x4([1; 4]);
    for k in 0..WARP / 4 {
        let m = match membermask {
            Some(mm) => e.read_vec(mm, k),
            None => ev,
        };
        let s = e.b.ins().band(m, ev);
        let bs = e.b.ins().band(m, bv);
        let r = match mode {
            VoteMode::Ballot => bs,
            VoteMode::Any => {
                let t = e.b.ins().icmp(IntCC::NotEqual, bs, z);
                e.b.ins().band(t, one)
            }
            VoteMode::All => {
                let t = e.b.ins().icmp(IntCC::Equal, bs, s);
                e.b.ins().band(t, one)
            }
            VoteMode::Uni => {
                let all = e.b.ins().icmp(IntCC::Equal, bs, s);
                let none = e.b.ins().icmp(IntCC::Equal, bs, z);
                let t = e.b.ins().bor(all, none);
                let t = e.b.ins().band(t, one);
                if inject::on(Bug::VoteUniInverted) {
                    e.b.ins().bxor(t, one)
                } else {
                    t
                }
            }
        };
        e.write_vec(d, k, &mut l, r);
    }
}
