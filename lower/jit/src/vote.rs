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
    let av = std::array::from_fn(|k| e.read_vec(a, k));
    let ballot = e.nonzero_mask(av);
    let ballot = e.b.ins().band(ballot, exec);
    let zero = e.b.ins().iconst(I32, 0);
    let z = e.b.ins().splat(I32X4, zero);
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
                // 1 where `bs != 0`: x86 compares for equality in one
                // operation, for inequality in three.
                let none = e.b.ins().icmp(IntCC::Equal, bs, z);
                e.b.ins().band_not(one, none)
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
