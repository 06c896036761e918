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
//! undefined when lane `j` does not execute this instruction (inactive,
//! predicated off, exited) or is outside `membermask`. `p` depends only on
//! `b`, `c` and the lane, so it stays defined.

use super::{collective, lanes, Step, Ub, Val, Warp};
use crate::ir::{Op, ShflMode};

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

/// Executes a `shfl` for the lanes of `s`.
pub(crate) fn exec(w: &mut Warp, s: &Step) -> Result<(), Ub> {
    let Op::Shfl {
        mode,
        d,
        p,
        a,
        b,
        c,
        membermask,
    } = s.inst.op
    else {
        unreachable!("shfl::exec called on another instruction")
    };
    let g = collective::group(w, s, membermask)?;
    let mut ds: Vec<(usize, Val, bool)> = Vec::new();
    let mut ps: Vec<(usize, Val)> = Vec::new();
    for l in lanes(s.exec) {
        let (bv, bd) = w.read(b, l);
        let (cv, cd) = w.read(c, l);
        let (j, pval) = source_lane(mode, l as u32, bv as u32, cv as u32);
        let j = j as usize;
        // The data only moves: an open NaN arrives as one.
        let (av, ad) = w.read_keep_nan(a, j);
        let from_member = g.sources(s, l) >> j & 1 == 1;
        let def = ad && bd && cd && from_member && !g.unsure;
        ds.push((l, (av, def), w.is_open(a, j)));
        ps.push((l, (pval as u64, bd && cd)));
    }
    for (l, v, open) in ds {
        w.write_nan(d, l, v, open);
    }
    if let Some(p) = p {
        w.write_all(p, &ps);
    }
    Ok(())
}
