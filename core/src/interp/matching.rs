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
//! Definedness, bit by bit: bit `k` of `d` is defined when lanes `l` and
//! `k` certainly match or certainly differ (both `a` fully defined, or
//! their defined bits already differ); `.all` is known as soon as one pair
//! certainly differs.

use super::bits::Val;
use super::collective::{op_of, Rendezvous};
use super::lanes::lanes;
use super::warp::Warp;
use crate::ir::{Match, MatchMode, Op};

/// Whether lanes holding `a` and `b` match on the `width` bits: `Some`
/// when that is known (both fully defined, or the defined bits already
/// differ).
fn same(a: Val, b: Val, width: u64) -> Option<bool> {
    if a.full_under(width) && b.full_under(width) {
        Some((a.v ^ b.v) & width == 0)
    } else if (a.v ^ b.v) & a.d & b.d & width != 0 {
        Some(false)
    } else {
        None
    }
}

/// Runs a completed `match.sync` rendezvous: each participant compares its
/// own instruction's `a` with every participant's.
pub(crate) fn exec(w: &mut Warp, rv: &Rendezvous) {
    let of = |op: &Op| match op {
        Op::Match(x) => *x,
        Op::Shfl(_)
        | Op::Vote(_)
        | Op::Redux(_)
        | Op::Activemask(_)
        | Op::Glue(_)
        | Op::Control(_)
        | Op::LaneOp(_) => {
            unreachable!("a match.sync rendezvous pairs match.sync only")
        }
    };
    let vals: Vec<(usize, Match, Val)> = lanes(rv.lanes)
        .map(|k| {
            let x = of(op_of(w, rv, k));
            (k, x, w.read(x.a, k))
        })
        .collect();
    let mut out = Vec::with_capacity(vals.len());
    for &(l, x, mine) in &vals {
        let width = if x.wide { u64::MAX } else { u32::MAX as u64 };
        let (mut eq, mut unknown) = (0u32, 0u32);
        for &(k, _, theirs) in &vals {
            match same(mine, theirs, width) {
                Some(true) => eq |= 1 << k,
                Some(false) => {}
                None => unknown |= 1 << k,
            }
        }
        let (d, p) = match x.mode {
            MatchMode::Any => (
                Val {
                    v: eq as u64,
                    d: !(unknown as u64),
                },
                None,
            ),
            MatchMode::All => {
                let differs = rv.lanes & !eq & !unknown != 0;
                let all = eq == rv.lanes;
                let known = all || differs;
                (
                    Val::all_or_none(if all { rv.lanes as u64 } else { 0 }, known),
                    Some(Val::bool(all, known)),
                )
            }
        };
        let d = d.only_if(!rv.unsure);
        let p = p.map(|p| p.only_if(!rv.unsure));
        out.push((l, x, d, p));
    }
    for (l, x, d, p) in out {
        w.at(rv.pc[l]);
        w.write(x.d, l, d);
        if let (Some(pd), Some(p)) = (x.p, p) {
            w.write(pd, l, p);
        }
    }
}
