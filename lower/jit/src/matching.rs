//! Lowering of `match.{any,all}.sync.{b32,b64}` (see `warp-core`'s
//! `interp/matching.rs`): a loop over the lanes; each iteration compares
//! the lane's value with all 32 in vector code and masks the equal ones
//! with the lane's membermask and the executing lanes.

use super::builder::{mf, Emitter};
use super::inject::{self, Bug};
use cranelift_codegen::ir::condcodes::IntCC;
use cranelift_codegen::ir::types::{I32, I32X4, I64, I64X2};
use cranelift_codegen::ir::InstBuilder;
use warp_core::ir::{Guard, Match, MatchMode, WARP};

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

    let head = e.b.create_block();
    let body = e.b.create_block();
    let done = e.b.create_block();
    e.b.append_block_param(head, I32);
    let zero = e.b.ins().iconst(I32, 0);
    e.b.ins().jump(head, &[zero.into()]);

    e.b.switch_to_block(head);
    let lane = e.b.block_params(head)[0];
    let more =
        e.b.ins()
            .icmp_imm_s(IntCC::UnsignedLessThan, lane, WARP as i64);
    e.b.ins().brif(more, body, &[], done, &[]);

    e.b.switch_to_block(body);
    let addr = e.lane_addr(a_base, lane, size);
    let mine = e.b.ins().load(sty, mf(), addr, 0);
    let mine = e.b.ins().splat(vty, mine);
    let mut eq = e.b.ins().iconst(I32, 0);
    for k in 0..WARP / per {
        let v = e.load(vty, (a_base + (k * per) as u32 * size as u32) as i32);
        let c = e.b.ins().icmp(IntCC::Equal, v, mine);
        let bits = e.b.ins().vhigh_bits(I32, c);
        let bits = e.b.ins().ishl_imm_s(bits, (k * per) as i64);
        eq = e.b.ins().bor(eq, bits);
    }
    let maddr = e.lane_addr(m_base, lane, 4);
    let m = e.b.ins().load(I32, mf(), maddr, 0);
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
    let daddr = e.lane_addr(s_d, lane, 4);
    e.b.ins().store(mf(), dv, daddr, 0);
    if let Some(pv) = pv {
        let paddr = e.lane_addr(s_p, lane, 4);
        e.b.ins().store(mf(), pv, paddr, 0);
    }
    let next = e.b.ins().iadd_imm_s(lane, 1);
    e.b.ins().jump(head, &[next.into()]);

    e.b.switch_to_block(done);
    e.write_from_scratch(d, 0, &mut l);
    if let Some(p) = p {
        e.write_from_scratch(p, 1, &mut l);
    }
}
