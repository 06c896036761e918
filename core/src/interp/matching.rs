//! `match.any.sync` and `match.all.sync` (PTX ISA §9.7.13.10).
//!
//! "`.all`: `d` is set to mask corresponding to non-exited threads in
//! `membermask` if all non-exited threads in `membermask` have same value of
//! operand `a`; otherwise `d` is set to 0. Optionally predicate `p` is set to
//! true if all non-exited threads in `membermask` have same value of operand
//! `a`; otherwise `p` is set to false."
//! "`.any`: `d` is set to mask of non-exited threads in `membermask` that
//! have same value of operand `a`."
//!
//! Definedness: the result of lane `l` is defined when every member that
//! executes has a defined `a` and no member is predicated off here.

use super::{collective, lanes, Step, Ub, Val, Warp};
use crate::ir::{MatchMode, Op};

/// Executes a `match.sync` for the lanes of `s`.
pub(crate) fn exec(w: &mut Warp, s: &Step) -> Result<(), Ub> {
    let Op::Match {
        mode,
        wide,
        d,
        p,
        a,
        membermask,
    } = s.inst.op
    else {
        unreachable!("matching::exec called on another instruction")
    };
    let g = collective::group(w, s, Some(membermask))?;
    let width = if wide { u64::MAX } else { u32::MAX as u64 };
    let mut ds: Vec<(usize, Val)> = Vec::new();
    let mut ps: Vec<(usize, Val)> = Vec::new();
    for l in lanes(s.exec) {
        let src = g.sources(s, l);
        let mut defined = !g.unsure;
        let mine = w.read(a, l).0 & width;
        let mut same = 0u32;
        for k in lanes(src) {
            let (v, dk) = w.read(a, k);
            defined &= dk;
            if v & width == mine {
                same |= 1 << k;
            }
        }
        match mode {
            MatchMode::Any => ds.push((l, (same as u64, defined))),
            MatchMode::All => {
                let all = same == src;
                ds.push((l, (if all { src as u64 } else { 0 }, defined)));
                ps.push((l, (all as u64, defined)));
            }
        }
    }
    w.write_all(d, &ds);
    if let Some(p) = p {
        w.write_all(p, &ps);
    }
    Ok(())
}
