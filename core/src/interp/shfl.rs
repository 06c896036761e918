//! `shfl.sync` and the deprecated `shfl` (PTX ISA §9.7.9.6 and §9.7.9.5).
//!
//! The spec's semantics, per executing thread:
//! ```text
//! lane[4:0]  = [Thread].laneid;
//! bval[4:0] = b[4:0];            // source lane or lane offset (0..31)
//! cval[4:0] = c[4:0];            // clamp value
//! segmask[4:0] = c[12:8];
//! maxLane = (lane[4:0] & segmask[4:0]) | (cval[4:0] & ~segmask[4:0]);
//! minLane = (lane[4:0] & segmask[4:0]);
//! case .up:    j = lane - bval; pval = (j >= maxLane); break;
//! case .down:  j = lane + bval; pval = (j <= maxLane); break;
//! case .bfly:  j = lane ^ bval; pval = (j <= maxLane); break;
//! case .idx:   j = minLane  | (bval[4:0] & ~segmask[4:0]); pval = (j <= maxLane); break;
//! if (!pval) j = lane;  // copy from own lane
//! d = SourceA[j];       // copy input a from lane j
//! if (dest predicate selected) p = pval;
//! ```
//! "Note that results are undefined if a thread sources a register from an
//! inactive thread or a thread that is not in `membermask`", and `SourceA`
//! of an inactive or predicated-off thread is "unpredictable": `d` is
//! undefined when lane `j` does not take part (outside `membermask`,
//! exited; for the deprecated form, not certainly executing it with the
//! lane). `p` depends only on `b`, `c` and the lane, so it stays defined.

use super::bits::Val;
use super::collective::{op_of, Rendezvous};
use super::lanes::lanes;
use super::warp::{Step, Warp};
use crate::ir::{Op, Shfl, ShflMode, Type};

/// The source lane `j` and `pval` of the spec's formula for `lane`.
pub(crate) fn source_lane(mode: ShflMode, lane: u32, b: u32, c: u32) -> (u32, bool) {
    let bval = (b & 0x1f) as i64;
    let cval = (c & 0x1f) as i64;
    let segmask = ((c >> 8) & 0x1f) as i64;
    let lane = lane as i64;
    let max_lane = (lane & segmask) | (cval & !segmask & 0x1f);
    let min_lane = lane & segmask;
    let (j, pval) = match mode {
        ShflMode::Up => {
            let j = lane - bval;
            (j, j >= max_lane)
        }
        ShflMode::Down => {
            let j = lane + bval;
            (j, j <= max_lane)
        }
        ShflMode::Bfly => {
            let j = lane ^ bval;
            (j, j <= max_lane)
        }
        ShflMode::Idx => {
            let j = min_lane | (bval & !segmask & 0x1f);
            (j, j <= max_lane)
        }
    };
    if pval {
        (j as u32, true)
    } else {
        (lane as u32, false)
    }
}

/// Runs a completed `shfl.sync` rendezvous: each participant computes `j`
/// from its own `b` and `c` and reads lane `j`'s `a` *at lane `j`'s own
/// instruction* (two `shfl.sync` instructions with the same qualifiers
/// pair; an H200 delivered the other instruction's operand). `d` is
/// undefined when `j` is not a participant (outside `membermask`, or
/// exited: "results are undefined if a thread sources a register from an
/// inactive thread or a thread that is not in `membermask`"), or when the
/// participants themselves are not known ([`Rendezvous::unsure`]).
pub(crate) fn exec_sync(w: &mut Warp, rv: &Rendezvous) {
    let shfl = |op: &Op| match op {
        Op::Shfl(x) => *x,
        Op::Vote(_)
        | Op::Match(_)
        | Op::Redux(_)
        | Op::Activemask(_)
        | Op::Glue(_)
        | Op::Control(_)
        | Op::LaneOp(_) => {
            unreachable!("a shfl.sync rendezvous pairs shfl.sync only")
        }
    };
    let mut out = Vec::with_capacity(rv.lanes.count_ones() as usize);
    for l in lanes(rv.lanes) {
        let x = shfl(op_of(w, rv, l));
        let (b, c) = (w.read(x.b, l), w.read(x.c, l));
        let (j, pval) = source_lane(x.mode, l as u32, b.v as u32, c.v as u32);
        let j = j as usize;
        let known = b.full(Type::B32) && c.full(Type::B32);
        let (a, open) = if rv.lanes >> j & 1 == 1 {
            let xj = shfl(op_of(w, rv, j));
            // The data only moves: an open NaN arrives as one.
            (w.read_keep_nan(xj.a, j), w.is_open(xj.a, j))
        } else {
            (Val::unknown(), false)
        };
        let d = if known && !rv.unsure {
            a
        } else {
            Val::unknown()
        };
        out.push((l, x, d, open, Val::bool(pval, known)));
    }
    for (l, x, d, open, p) in out {
        w.at(rv.pc[l]);
        w.write_nan(x.d, l, d, open);
        if let Some(pd) = x.p {
            w.write(pd, l, p);
        }
    }
}

/// Executes a deprecated `shfl` for the lanes of `s`: its participants are
/// "the lanes executing" it, which on sm_70+ depends on the schedule. Lane
/// `l`'s `d` is defined only when its source lane `j` certainly executes
/// it together with `l` ([`Convergence::with`](super::converge::Convergence::with)).
pub(crate) fn exec_deprecated(w: &mut Warp, s: &Step, x: &Shfl) {
    let n = s.exec.count_ones() as usize;
    let (mut ds, mut ps) = (Vec::with_capacity(n), Vec::with_capacity(n));
    for l in lanes(s.exec) {
        let (b, c) = (w.read(x.b, l), w.read(x.c, l));
        let (j, pval) = source_lane(x.mode, l as u32, b.v as u32, c.v as u32);
        let j = j as usize;
        let known = b.full(Type::B32) && c.full(Type::B32);
        let together = w.conv.with(l, s.conv) & s.exec;
        let a = w.read_keep_nan(x.a, j);
        let d = a.only_if(known && together >> j & 1 == 1);
        ds.push((l, d, w.is_open(x.a, j)));
        ps.push((l, Val::bool(pval, known)));
    }
    for (l, v, open) in ds {
        w.write_nan(x.d, l, v, open);
    }
    if let Some(p) = x.p {
        w.write_all(p, &ps);
    }
}
