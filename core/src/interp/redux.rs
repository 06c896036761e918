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
//! Definedness: the result of lane `l` is defined when every member that
//! executes has a defined `src` and no member is predicated off here
//! (the page's summary reduces over "each predicated active thread").

use super::float::{is_nan, order_key, CANONICAL_NAN};
use super::{collective, lanes, Step, Ub, Val, Warp};
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

/// Executes a `redux.sync` for the lanes of `s`.
pub(crate) fn exec(w: &mut Warp, s: &Step) -> Result<(), Ub> {
    let Op::Redux {
        op,
        d,
        a,
        membermask,
    } = s.inst.op
    else {
        unreachable!("redux::exec called on another instruction")
    };
    let g = collective::group(w, s, Some(membermask))?;
    let mut out: Vec<(usize, Val)> = Vec::new();
    for l in lanes(s.exec) {
        let mut defined = !g.unsure;
        let mut xs = Vec::new();
        for k in lanes(g.sources(s, l)) {
            // `.f32` min/max treat every NaN alike; the others use the bits.
            let (v, dk) = if op.is_f32() {
                w.read_keep_nan(a, k)
            } else {
                w.read(a, k)
            };
            defined &= dk;
            xs.push(v as u32);
        }
        out.push((l, (reduce(op, &xs) as u64, defined)));
    }
    w.write_all(d, &out);
    Ok(())
}
