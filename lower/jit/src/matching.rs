//! Lowering of `match.{any,all}.sync.{b32,b64}` (see `warp-core`'s
//! `interp/matching.rs`): a loop over the executing lanes; each iteration
//! compares a lane's value with all 32 in vector code and masks the equal
//! ones with the lane's membermask and the executing lanes, the answer of
//! every lane with that value and membermask.

use super::builder::{mf, Emitter};
use super::inject::{self, Bug};
use cranelift_codegen::ir::condcodes::IntCC;
use cranelift_codegen::ir::types::{I32, I32X4, I64, I64X2};
use cranelift_codegen::ir::{InstBuilder, Value};
use warp_core::ir::{Guard, Match, MatchMode, Operand, WARP};

/// Emits a `match.sync`, on the converged lanes that `guard` leaves on.
pub fn emit(e: &mut Emitter, guard: Option<Guard>, x: &Match) {
    let Match {
        mode,
        wide,
        d,
        p,
        a,
        membermask,
    } = *x;
    let mut l = e.lanes(guard);
    let exec = e.exec(&mut l);
    let width = if wide { 64 } else { 32 };
    let a_base = e.lanes_base(a, width, 2);
    let m_base = e.lanes_base(membermask, 32, 3);
    let (s_d, s_p) = (e.lay.scratch(0), e.lay.scratch(1));
    let (vty, per, size, sty) = if wide {
        (I64X2, 2, 8, I64)
    } else {
        (I32X4, 4, 4, I32)
    };

    // A loop over the executing lanes not answered yet: the lowest one's
    // value is compared with all 32; every executing lane with the same
    // value (and the same membermask) gets the same answer, so one
    // iteration answers them all (one per distinct value, not per lane).
    e.lane_classes(exec, |e, left, lane| {
        let addr = e.lane_addr(a_base, lane, size);
        let mine = e.b.ins().load(sty, mf(), addr, 0);
        let mine = e.b.ins().splat(vty, mine);
        let cmps: Vec<Value> = (0..WARP / per)
            .map(|k| {
                let v = e.load(vty, (a_base + (k * per) as u32 * size as u32) as i32);
                e.b.ins().icmp(IntCC::Equal, v, mine)
            })
            .collect();
        let eq = if wide {
            let mut eq = e.b.ins().iconst(I32, 0);
            for (k, &c) in cmps.iter().enumerate() {
                let bits = e.b.ins().vhigh_bits(I32, c);
                let bits = e.b.ins().ishl_imm_s(bits, (k * per) as i64);
                eq = e.b.ins().bor(eq, bits);
            }
            eq
        } else {
            e.vecs_to_mask(&cmps)
        };
        let maddr = e.lane_addr(m_base, lane, 4);
        let m = e.b.ins().load(I32, mf(), maddr, 0);
        // The executing lanes with this value and this membermask. (The
        // driver runs a `.sync` collective for whole groups only: one
        // membermask, or several disjoint ones whose groups all arrived
        // together (the fast-code arrival), so lanes with one value and
        // different membermasks meet here only in the latter; the refinement
        // keeps each group's answer its own, as the interpreter's rule is per
        // lane.)
        let alike = match membermask {
            Operand::Imm(_) => eq,
            Operand::Reg(_) | Operand::LaneId | Operand::NotPred(_) => {
                let vecs = std::array::from_fn(|k| e.load(I32X4, (m_base + 16 * k as u32) as i32));
                let same_m = e.lanes_equal(vecs, m);
                e.b.ins().band(eq, same_m)
            }
        };
        let alike = e.b.ins().band(alike, left);
        let s = if mode == MatchMode::Any && inject::on(Bug::MatchAnyExited) {
            m
        } else {
            e.b.ins().band(m, exec)
        };
        let same = e.b.ins().band(eq, s);
        let (dv, pv) = match mode {
            MatchMode::Any => (same, None),
            MatchMode::All => {
                let all = e.b.ins().icmp(IntCC::Equal, same, s);
                let z = e.b.ins().iconst(I32, 0);
                let dv = e.b.ins().select(all, s, z);
                (dv, Some(e.b.ins().uextend(I32, all)))
            }
        };
        e.lane_loop_over(alike, |e, at| {
            e.store_at(dv, at.p4, s_d as i32);
            if let Some(pv) = pv {
                e.store_at(pv, at.p4, s_p as i32);
            }
        });
        alike
    });
    e.write_from_scratch(d, 0, &mut l);
    if let Some(p) = p {
        e.write_from_scratch(p, 1, &mut l);
    }
}
