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
//!
//! The *value* of every bit, defined or not, is what this run's operands
//! give (the values min-PC computed, as `activemask`'s undefined bits are
//! min-PC's): a result used as a later collective's `membermask` decides
//! whom its lanes wait for by all its bits, so the run must go on as the
//! min-PC schedule does, as the JIT does. Writing 0 there (the reference
//! did until session 13) made lanes 30 and 31 of
//! `docs/log/gpu-2026-11-28-m/b/found/shfl.sync.bfly-3452b615.ptx.txt`
//! complete a `shfl.sync` alone on a `membermask` of 0xc0000000 that
//! min-PC computes as 0xffffffff, where they wait for ever (the JIT's
//! run; the reference now says `sync-deadlock`).

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
        Some(equal(a, b, width))
    } else if (a.v ^ b.v) & a.d & b.d & width != 0 {
        Some(false)
    } else {
        None
    }
}

/// Whether the values this run holds in `a` and `b` match on the `width`
/// bits, defined or not: what the run goes on with. Where [`same`] knows
/// the answer, it is this one.
fn equal(a: Val, b: Val, width: u64) -> bool {
    (a.v ^ b.v) & width == 0
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
        // `eq`: the lanes that certainly match; `unknown`: those whose
        // match is not known; `run`: those whose values match in this run.
        let (mut eq, mut unknown, mut run) = (0u32, 0u32, 0u32);
        for &(k, _, theirs) in &vals {
            match same(mine, theirs, width) {
                Some(true) => eq |= 1 << k,
                Some(false) => {}
                None => unknown |= 1 << k,
            }
            if equal(mine, theirs, width) {
                run |= 1 << k;
            }
        }
        let (d, p) = match x.mode {
            MatchMode::Any => (
                Val {
                    v: run as u64,
                    d: !(unknown as u64),
                },
                None,
            ),
            MatchMode::All => {
                let differs = rv.lanes & !eq & !unknown != 0;
                let known = eq == rv.lanes || differs;
                let all = run == rv.lanes;
                (
                    Val::all_or_none(if all { rv.lanes as u64 } else { 0 }, known),
                    Some(Val::bool(all, known)),
                )
            }
        };
        // Who met whom is not known (an undefined `membermask` bit): the
        // run's values stay, none defined.
        let vague = |v: Val| Val {
            v: v.v,
            d: if rv.unsure { 0 } else { v.d },
        };
        let d = vague(d);
        let p = p.map(vague);
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
