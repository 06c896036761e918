//! Lowering of `shfl.sync` and deprecated `shfl` (see `warp-core`'s
//! `interp/shfl.rs` for the spec's formula, which this file implements
//! again independently: at compile time when `b` and `c` are immediates,
//! in generated code when they are per-lane registers).
//!
//! Results go to scratch arrays first (the destination may be the source),
//! then are blended into `d` and `p` on the executing lanes.

use super::emit::Emitter;
use cranelift_codegen::ir::condcodes::IntCC;
use cranelift_codegen::ir::types::I32;
use cranelift_codegen::ir::{InstBuilder, Value};
use warp_core::ir::{Inst, Op, Operand, ShflMode, WARP};

/// `(j, pval)` for `lane` with immediate `b`, `c`, as the spec computes it.
fn source(mode: ShflMode, lane: i64, b: u64, c: u64) -> (i64, bool) {
    let bval = (b & 31) as i64;
    let cval = (c & 31) as i64;
    let seg = ((c >> 8) & 31) as i64;
    let max_lane = (lane & seg) | (cval & !seg & 31);
    let min_lane = lane & seg;
    let (j, p) = match mode {
        ShflMode::Up => (lane - bval, lane - bval >= max_lane),
        ShflMode::Down => (lane + bval, lane + bval <= max_lane),
        ShflMode::Bfly => (lane ^ bval, (lane ^ bval) <= max_lane),
        ShflMode::Idx => {
            let j = min_lane | (bval & !seg & 31);
            (j, j <= max_lane)
        }
    };
    if p {
        (j, true)
    } else {
        (lane, false)
    }
}

/// `(j, pval)` in generated code for run-time `b`, `c` (i32 values).
fn source_dyn(e: &mut Emitter, mode: ShflMode, lane: usize, b: Value, c: Value) -> (Value, Value) {
    let lane_v = e.b.ins().iconst(I32, lane as i64);
    let bval = e.b.ins().band_imm_s(b, 31);
    let cval = e.b.ins().band_imm_s(c, 31);
    let seg = e.b.ins().ushr_imm_s(c, 8);
    let seg = e.b.ins().band_imm_s(seg, 31);
    let lseg = e.b.ins().band_imm_s(seg, lane as i64);
    let not_seg = e.b.ins().bnot(seg);
    let cpart = e.b.ins().band(cval, not_seg);
    let cpart = e.b.ins().band_imm_s(cpart, 31);
    let max_lane = e.b.ins().bor(lseg, cpart);
    let (j, p) = match mode {
        ShflMode::Up => {
            let j = e.b.ins().isub(lane_v, bval);
            (
                j,
                e.b.ins().icmp(IntCC::SignedGreaterThanOrEqual, j, max_lane),
            )
        }
        ShflMode::Down => {
            let j = e.b.ins().iadd(lane_v, bval);
            (j, e.b.ins().icmp(IntCC::SignedLessThanOrEqual, j, max_lane))
        }
        ShflMode::Bfly => {
            let j = e.b.ins().bxor(lane_v, bval);
            (j, e.b.ins().icmp(IntCC::SignedLessThanOrEqual, j, max_lane))
        }
        ShflMode::Idx => {
            let bpart = e.b.ins().band(bval, not_seg);
            let bpart = e.b.ins().band_imm_s(bpart, 31);
            let j = e.b.ins().bor(lseg, bpart);
            (j, e.b.ins().icmp(IntCC::SignedLessThanOrEqual, j, max_lane))
        }
    };
    let j = e.b.ins().select(p, j, lane_v);
    let p = e.b.ins().uextend(I32, p);
    (j, p)
}

/// Emits a `shfl`.
pub fn emit(e: &mut Emitter, inst: &Inst) {
    let Op::Shfl {
        mode,
        d,
        p,
        a,
        b,
        c,
        ..
    } = inst.op
    else {
        unreachable!("shfl::emit on another instruction")
    };
    let l = e.lanes(inst.guard);
    let (s_d, s_p) = (e.lay.scratch(0), e.lay.scratch(1));
    for lane in 0..WARP {
        let (v, pv) = match (b, c) {
            (Operand::Imm(bi), Operand::Imm(ci)) => {
                let (j, pval) = source(mode, lane as i64, bi, ci);
                (
                    e.read(a, j as usize, 32),
                    e.b.ins().iconst(I32, pval as i64),
                )
            }
            _ => {
                let bv = e.read(b, lane, 32);
                let cv = e.read(c, lane, 32);
                let (j, pv) = source_dyn(e, mode, lane, bv, cv);
                let v = match a {
                    Operand::Reg(r) => {
                        let addr = e.lane_addr(e.lay.regs[r.index()], j, 4);
                        e.b.ins().load(I32, super::emit::mf(), addr, 0)
                    }
                    Operand::Imm(x) => e.b.ins().iconst(I32, x as i64),
                    Operand::LaneId => j,
                    Operand::NotPred(_) => unreachable!("shfl's a is a .b32 value"),
                };
                (v, pv)
            }
        };
        e.store(v, (s_d + 4 * lane as u32) as i32);
        e.store(pv, (s_p + 4 * lane as u32) as i32);
    }
    e.write_from_scratch(d, 0, &l);
    if let Some(p) = p {
        e.write_from_scratch(p, 1, &l);
    }
}
