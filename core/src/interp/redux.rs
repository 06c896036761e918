//! `redux.sync` (PTX ISA §9.7.13.12).
//!
//! "`redux.sync` performs a reduction operation `.op` of the 32 bit source
//! register `src` across all non-exited threads in the `membermask`."
//! "For the `.add` operation result is truncated to 32 bits."
//! For `.f32`: "if the input value is 0.0 then +0.0 > -0.0"; "If `.abs`
//! qualifier is specified, then the absolute value of the input is
//! considered"; "If the `.NaN` qualifier is specified, then the result of the
//! reduction operation is canonical NaN if the input to the reduction
//! operation from any participating thread is NaN"; "In the absence of
//! `.NaN` qualifier, only non-NaN values are considered for the reduction
//! operation and the result will be canonical NaN when all inputs are NaNs."
//! Canonical NaN is `0x7fffffff` in PTX.
//!
//! The participants are the non-exited members (the rendezvous makes every
//! member arrive or exit first).

use super::bits::Val;
use super::collective::{op_of, Rendezvous};
use super::float::{is_nan, order_key, CANONICAL_NAN};
use super::lanes::lanes;
use super::warp::Warp;
use crate::ir::{Op, ReduxOp, Signedness};

/// The f32 min or max of `xs` per the page's rules.
fn f32_reduce(xs: &[u32], max: bool, abs: bool, nan: bool) -> u32 {
    let xs: Vec<u32> = xs
        .iter()
        .map(|&x| if abs { x & 0x7fff_ffff } else { x })
        .collect();
    if nan && xs.iter().any(|&x| is_nan(x)) {
        return CANONICAL_NAN;
    }
    let numbers = xs.iter().copied().filter(|&x| !is_nan(x));
    let best = if max {
        numbers.max_by_key(|&x| order_key(x))
    } else {
        numbers.min_by_key(|&x| order_key(x))
    };
    best.unwrap_or(CANONICAL_NAN)
}

/// Reduces the 32-bit inputs `xs` (never empty) with `op`.
pub(crate) fn reduce(op: ReduxOp, xs: &[u32]) -> u32 {
    let int = |s: Signedness, pick_max: bool| {
        let key = |x: &u32| match s {
            Signedness::Unsigned => *x as i64,
            Signedness::Signed => *x as i32 as i64,
        };
        let it = xs.iter().copied();
        if pick_max {
            it.max_by_key(key)
        } else {
            it.min_by_key(key)
        }
        .expect("a collective has at least the executing lane")
    };
    match op {
        ReduxOp::Add(_) => xs.iter().fold(0u32, |acc, &x| acc.wrapping_add(x)),
        ReduxOp::Min(s) => int(s, false),
        ReduxOp::Max(s) => int(s, true),
        ReduxOp::And => xs.iter().fold(u32::MAX, |acc, &x| acc & x),
        ReduxOp::Or => xs.iter().fold(0, |acc, &x| acc | x),
        ReduxOp::Xor => xs.iter().fold(0, |acc, &x| acc ^ x),
        ReduxOp::FMin { abs, nan } => f32_reduce(xs, false, abs, nan),
        ReduxOp::FMax { abs, nan } => f32_reduce(xs, true, abs, nan),
    }
}

/// Runs a completed `redux.sync` rendezvous over the participants' `a`
/// (each from its own instruction). `and`/`or`/`xor` are defined bit by
/// bit (a defined 0 decides an `and` bit, a defined 1 an `or` bit);
/// the others are defined when every participant's `a` is.
pub(crate) fn exec(w: &mut Warp, rv: &Rendezvous) {
    let of = |op: &Op| match op {
        Op::Redux(x) => *x,
        Op::Shfl(_)
        | Op::Vote(_)
        | Op::Match(_)
        | Op::Activemask(_)
        | Op::Glue(_)
        | Op::Control(_)
        | Op::LaneOp(_) => {
            unreachable!("a redux.sync rendezvous pairs redux.sync only")
        }
    };
    let first = lanes(rv.lanes).next().expect("a participant");
    let op = of(op_of(w, rv, first)).op;
    let ins: Vec<Val> = lanes(rv.lanes)
        .map(|k| {
            let a = of(op_of(w, rv, k)).a;
            // `.f32` min/max treat every NaN alike; the others use the bits.
            if op.is_f32() {
                w.read_keep_nan(a, k)
            } else {
                w.read(a, k)
            }
        })
        .collect();
    let xs: Vec<u32> = ins.iter().map(|v| v.v as u32).collect();
    let value = reduce(op, &xs) as u64;
    let low = 0xffff_ffffu64;
    let all = ins.iter().all(|v| v.full_under(low));
    let defined = match op {
        ReduxOp::And => {
            ins.iter().fold(0u64, |z, v| z | (v.d & !v.v))
                | ins.iter().fold(u64::MAX, |d, v| d & v.d)
        }
        ReduxOp::Or => {
            ins.iter().fold(0u64, |o, v| o | (v.d & v.v))
                | ins.iter().fold(u64::MAX, |d, v| d & v.d)
        }
        ReduxOp::Xor => ins.iter().fold(u64::MAX, |d, v| d & v.d),
        ReduxOp::Add(_)
        | ReduxOp::Min(_)
        | ReduxOp::Max(_)
        | ReduxOp::FMin { .. }
        | ReduxOp::FMax { .. } => {
            if all {
                u64::MAX
            } else {
                0
            }
        }
    };
    let v = Val {
        v: value,
        d: if rv.unsure { 0 } else { defined },
    };
    for l in lanes(rv.lanes) {
        let x = of(op_of(w, rv, l));
        w.at(rv.pc[l]);
        w.write(x.d, l, v);
    }
}
