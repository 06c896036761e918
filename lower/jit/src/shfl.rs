//! Lowering of `shfl.sync` and deprecated `shfl` (see `warp-core`'s
//! `interp/shfl.rs` for the spec's formula, which this file implements
//! again independently: at compile time when `b` and `c` are immediates,
//! in generated code when they are per-lane registers).
//!
//! With immediate `b` and `c` every lane's source is known at compile time
//! and the exchange is a few constant vector shuffles per 4 lanes; with
//! per-lane `b` or `c`, the sources are computed four lanes at a time in
//! generated code and the values loaded lane by lane; all results are made
//! before they are blended into `d` and `p` on the executing lanes (the
//! destination may be the source).

use super::builder::{mf, Emitter};
use super::inject::{self, Bug};
use cranelift_codegen::ir::condcodes::IntCC;
use cranelift_codegen::ir::types::{I32, I32X4};
use cranelift_codegen::ir::{InstBuilder, Value};
use warp_core::ir::{Guard, Operand, Shfl, ShflMode, WARP};

/// `(j, pval)` for `lane` with immediate `b`, `c`, as the spec computes it.
fn source(mode: ShflMode, lane: i64, b: u64, c: u64) -> (i64, bool) {
    let bval = (b & 31) as i64;
    let cval = (c & 31) as i64;
    let seg = ((c >> 8) & 31) as i64;
    let max_lane = (lane & seg) | (cval & !seg & 31);
    let min_lane = lane & seg;
    let (j, p) = match mode {
        ShflMode::Up => (lane - bval, lane - bval >= max_lane),
        ShflMode::Down if inject::on(Bug::ShflDownClamp) => (lane + bval, lane + bval < max_lane),
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

/// `(j, pval)` in generated code for run-time `lane`, `b`, `c`: i32s for
/// one lane, or i32x4s for four; `pval` is 1 or 0 (per lane).
fn source_dyn(e: &mut Emitter, mode: ShflMode, lane: Value, b: Value, c: Value) -> (Value, Value) {
    let vector = e.b.func.dfg.value_type(lane).is_vector();
    let konst = |e: &mut Emitter, v: u32| {
        if vector {
            e.vconst_i32x4([v; 4])
        } else {
            e.b.ins().iconst(I32, v as i64)
        }
    };
    let k31 = konst(e, 31);
    let bval = e.b.ins().band(b, k31);
    let cval = e.b.ins().band(c, k31);
    let seg = e.b.ins().ushr_imm_s(c, 8);
    let seg = e.b.ins().band(seg, k31);
    let lseg = e.b.ins().band(seg, lane);
    // The bits of 0..32 outside the segment mask (`& ~seg & 31`).
    let not_seg = e.b.ins().bxor(seg, k31);
    let cpart = e.b.ins().band(cval, not_seg);
    let max_lane = e.b.ins().bor(lseg, cpart);
    let (j, p) = match mode {
        ShflMode::Up => {
            let j = e.b.ins().isub(lane, bval);
            (
                j,
                e.b.ins().icmp(IntCC::SignedGreaterThanOrEqual, j, max_lane),
            )
        }
        ShflMode::Down => {
            let j = e.b.ins().iadd(lane, bval);
            let cc = if inject::on(Bug::ShflDownClamp) {
                IntCC::SignedLessThan
            } else {
                IntCC::SignedLessThanOrEqual
            };
            (j, e.b.ins().icmp(cc, j, max_lane))
        }
        ShflMode::Bfly => {
            let j = e.b.ins().bxor(lane, bval);
            (j, e.b.ins().icmp(IntCC::SignedLessThanOrEqual, j, max_lane))
        }
        ShflMode::Idx => {
            let bpart = e.b.ins().band(bval, not_seg);
            let j = e.b.ins().bor(lseg, bpart);
            (j, e.b.ins().icmp(IntCC::SignedLessThanOrEqual, j, max_lane))
        }
    };
    if vector {
        let j = e.b.ins().bitselect(p, j, lane);
        let one = konst(e, 1);
        (j, e.b.ins().band(p, one))
    } else {
        let j = e.b.ins().select(p, j, lane);
        (j, e.b.ins().uextend(I32, p))
    }
}

/// Lanes `4k..4k+3` of register `r` gathered from lanes `js` by constant
/// shuffles of the source vectors (one per distinct source vector after
/// the first two).
fn gather(e: &mut Emitter, r: warp_core::ir::Reg, js: [usize; 4]) -> Value {
    let mut chunks: Vec<usize> = Vec::new();
    for j in js {
        if !chunks.contains(&(j / 4)) {
            chunks.push(j / 4);
        }
    }
    let src = |e: &mut Emitter, c: usize| {
        let v = e.load(I32X4, e.reg_off(r, 4 * c));
        e.as_bytes(v)
    };
    // Where each output lane's word currently is: (vector, word index).
    let first = src(e, chunks[0]);
    if chunks.len() == 1 && js.iter().enumerate().all(|(i, j)| j % 4 == i) {
        return e.as_words(first);
    }
    let mut acc = first;
    let mut acc_has: Vec<usize> = vec![chunks[0]];
    let mut placed = [false; 4];
    // Start: the lanes from the first chunk (as a shuffle of acc with
    // itself), then fold in one more chunk per shuffle.
    let mut rest: Vec<usize> = chunks[1..].to_vec();
    let mut mask = [0u8; 16];
    let second = rest.first().copied();
    let b = match second {
        Some(c) => {
            rest.remove(0);
            acc_has.push(c);
            src(e, c)
        }
        None => acc,
    };
    for (i, &j) in js.iter().enumerate() {
        let base = if j / 4 == chunks[0] {
            Some(0)
        } else if Some(j / 4) == second {
            Some(16)
        } else {
            None
        };
        if let Some(base) = base {
            placed[i] = true;
            for k in 0..4 {
                mask[4 * i + k] = (base + 4 * (j % 4) + k) as u8;
            }
        } else {
            for k in 0..4 {
                mask[4 * i + k] = (4 * i + k) as u8;
            }
        }
    }
    acc = e.shuffle_bytes(acc, b, mask);
    for c in rest {
        let v = src(e, c);
        let mut mask = [0u8; 16];
        for (i, &j) in js.iter().enumerate() {
            for k in 0..4 {
                mask[4 * i + k] = if !placed[i] && j / 4 == c {
                    (16 + 4 * (j % 4) + k) as u8
                } else {
                    (4 * i + k) as u8
                };
            }
            if j / 4 == c {
                placed[i] = true;
            }
        }
        acc = e.shuffle_bytes(acc, v, mask);
    }
    debug_assert!(placed.iter().all(|&p| p));
    e.as_words(acc)
}

/// Emits a `shfl`, on the converged lanes that `guard` leaves on.
pub fn emit(e: &mut Emitter, guard: Option<Guard>, x: &Shfl) {
    let Shfl {
        mode,
        d,
        p,
        a,
        b,
        c,
        ..
    } = *x;
    let mut l = e.lanes(guard);
    if let (Operand::Imm(bi), Operand::Imm(ci)) = (b, c) {
        // Every lane's source is known now: constant shuffles. All results
        // are computed before any is written (`d` may be `a`).
        let mut vs = Vec::with_capacity(WARP / 4);
        let mut pvs = Vec::with_capacity(WARP / 4);
        for k in 0..WARP / 4 {
            let mut js = [0usize; 4];
            let mut ps = [0u32; 4];
            for i in 0..4 {
                let (j, pv) = source(mode, (4 * k + i) as i64, bi, ci);
                js[i] = j as usize;
                ps[i] = pv as u32;
            }
            vs.push(match a {
                Operand::Reg(r) => gather(e, r, js),
                Operand::Imm(x) => {
                    let s = e.b.ins().iconst(I32, x as u32 as i64);
                    e.b.ins().splat(I32X4, s)
                }
                Operand::LaneId => e.vconst_i32x4(js.map(|j| j as u32)),
                Operand::NotPred(_) => unreachable!("shfl's a is a .b32 value"),
            });
            pvs.push(ps);
        }
        for (k, v) in vs.into_iter().enumerate() {
            e.write_vec(d, k, &mut l, v);
        }
        if let Some(p) = p {
            for (k, ps) in pvs.into_iter().enumerate() {
                let pv = e.vconst_i32x4(ps);
                e.write_vec(p, k, &mut l, pv);
            }
        }
        return;
    }
    // Per-lane b or c: the sources are computed at run time, and the
    // results go to scratch arrays 0 and 1 first (`d` may be `a`, `b` or
    // `c`).
    let (s_d, s_p) = (e.lay.scratch(0) as i32, e.lay.scratch(1) as i32);
    if e.is_full() {
        // Statically the whole warp runs: four lanes at a time.
        dynamic_vectors(e, x, s_d, s_p);
        e.write_from_scratch(d, 0, &mut l);
        if let Some(p) = p {
            e.write_from_scratch(p, 1, &mut l);
        }
        return;
    }
    // Otherwise a loop over the executing lanes (a group of five lanes
    // completing a rendezvous runs five iterations). (Choosing the
    // four-lane path at run time when more than 8 lanes execute doubled
    // the fast-code tier's compile time of mix200, 142 -> 286 us per
    // instruction, and did not speed up `loop`.)
    let _ = e.vecs(&mut l);
    let exec = e.exec(&mut l);
    e.lane_loop_over(exec, |e, at| {
        let bv = e.read_at(b, at, 32);
        let cv = e.read_at(c, at, 32);
        let (j, pv) = source_dyn(e, mode, at.lane, bv, cv);
        let v = match a {
            Operand::Reg(r) => {
                let addr = e.lane_addr(e.lay.regs[r.index()], j, 4);
                e.b.ins().load(I32, mf(), addr, 0)
            }
            Operand::Imm(x) => e.b.ins().iconst(I32, x as u32 as i64),
            Operand::LaneId => j,
            Operand::NotPred(_) => unreachable!("shfl's a is a .b32 value"),
        };
        e.store_at(v, at.p4, s_d);
        if p.is_some() {
            e.store_at(pv, at.p4, s_p);
        }
    });
    e.write_from_scratch(d, 0, &mut l);
    if let Some(p) = p {
        e.write_from_scratch(p, 1, &mut l);
    }
}

/// The values and `pval`s (1 or 0) of a `shfl` with per-lane `b` or `c`
/// for all 32 lanes, stored at `s_d` and `s_p` (the `pval`s only where
/// the instruction has a `p`): a loop over the eight
/// groups of four lanes computes their sources as a vector and loads the
/// values lane by lane (SSE has no gather). Every source is in 0..32, so
/// lanes that do not execute load harmlessly; the caller writes only the
/// executing ones. (Unrolled, the eight groups' code doubled the fast-code
/// tier's compile time of mix200, 125 -> 265 us per instruction, most of
/// it in Cranelift's register allocator.)
fn dynamic_vectors(e: &mut Emitter, x: &Shfl, s_d: i32, s_p: i32) {
    e.group_loop(|e, off, lane| {
        let at = e.b.ins().iadd(e.state, off);
        let read = |e: &mut Emitter, o: Operand| match o {
            Operand::Reg(r) => {
                let base = e.lay.regs[r.index()] as i32;
                e.b.ins().load(I32X4, mf(), at, base)
            }
            Operand::NotPred(r) => {
                let base = e.lay.regs[r.index()] as i32;
                let v = e.b.ins().load(I32X4, mf(), at, base);
                let one = e.vconst_i32x4([1; 4]);
                e.b.ins().bxor(v, one)
            }
            Operand::Imm(v) => {
                let s = e.b.ins().iconst(I32, v as u32 as i64);
                e.b.ins().splat(I32X4, s)
            }
            Operand::LaneId => lane,
        };
        let (bv, cv) = (read(e, x.b), read(e, x.c));
        let (j, pv) = source_dyn(e, x.mode, lane, bv, cv);
        let v = match x.a {
            Operand::Reg(r) | Operand::NotPred(r) => {
                let base = e.lay.regs[r.index()];
                let mut v = j;
                for i in 0..4u8 {
                    let ji = e.b.ins().extractlane(j, i);
                    let addr = e.lane_addr(base, ji, 4);
                    let x = e.b.ins().load(I32, mf(), addr, 0);
                    v = e.b.ins().insertlane(v, x, i);
                }
                if let Operand::NotPred(_) = x.a {
                    let one = e.vconst_i32x4([1; 4]);
                    v = e.b.ins().bxor(v, one);
                }
                v
            }
            // The source lane's %laneid is the source lane.
            Operand::LaneId => j,
            Operand::Imm(_) => read(e, x.a),
        };
        e.store_at(v, at, s_d);
        if x.p.is_some() {
            e.store_at(pv, at, s_p);
        }
    });
}
