//! Blame by first difference: which instruction made an engine's state
//! leave the reference's.
//!
//! The last writer of a differing register is often innocent (a later
//! `mov` copies the wrong value on, an `activemask` runs where a wrong
//! branch sent the lanes). Engines that stop a run after a given number of
//! warp steps ([`Engine::bounded_runs`](crate::engine::Engine::bounded_runs))
//! are bisected instead: run both engines bounded to `k` steps and compare
//! their states (registers on the reference's defined bits, exited lanes,
//! where they stopped); the smallest `k` at which they differ, after
//! agreeing at `k - 1`, names the instruction the reference ran at step
//! `k`. A later step can hide a difference again (a register overwritten),
//! so what bisection finds is *a* step where agreement turns into
//! difference, the earliest one in the runs that are compared. One
//! refinement: when the other engine after `k` steps is exactly where the
//! reference was after `k - 1` (it ran nothing at step `k`), an earlier
//! step spent its fuel wrongly, and the blame goes to step `k - 1` (the
//! `fuel-in-loops` injected bug: a back edge charged twice).

use crate::compare::compare;
use crate::engine::{Compiled, RunError};
use crate::interp::Interp;
use crate::ir::{Inputs, Program};

/// The step at which the states first differ, and the instruction the
/// reference ran there.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct FirstDifference {
    /// The warp step (1-based) after which the states differ.
    pub step: u64,
    /// Index in `Program::insts` of the instruction run at that step.
    pub pc: usize,
}

/// Bisects the runs of `program` on `inputs` over their first `total`
/// warp steps (the reference's whole run, or its bound): the first step
/// after which `other` differs from the reference, or `None` when they
/// agree after `total` steps, already differ before any step (an input),
/// or the reference has undefined behaviour in a prefix.
pub fn first_difference(
    program: &Program,
    inputs: &Inputs,
    other: &dyn Compiled,
    total: u64,
) -> Option<FirstDifference> {
    let bounded = |k: u64| Inputs {
        lanes: inputs.lanes.clone(),
        fuel: Some(k),
    };
    let reference = |k: u64| Interp::new(program).run(&bounded(k));
    let differs = |k: u64| -> Option<bool> {
        let r = reference(k).ok()?;
        if r.ub.is_some() {
            return None;
        }
        Some(match other.run(&bounded(k)) {
            Ok(o) => !compare(&r, &o).is_empty(),
            Err(RunError::Unavailable(_)) => return None,
            Err(_) => true,
        })
    };
    if !differs(total)? || differs(0)? {
        return None;
    }
    let (mut lo, mut hi) = (0, total);
    while hi - lo > 1 {
        let mid = lo + (hi - lo) / 2;
        if differs(mid)? {
            hi = mid;
        } else {
            lo = mid;
        }
    }
    let pc = reference(lo).ok()?.stop?.pc;
    // When `other` after `hi` steps is where the reference was after `lo`
    // (same state, stopped before the same instruction), step `hi` never
    // ran there: an earlier step spent its fuel wrongly, and the states
    // agreeing up to `lo` leave the last one, step `lo`, to blame.
    if lo > 0 {
        let (r, o) = (reference(lo).ok()?, other.run(&bounded(hi)).ok()?);
        if compare(&r, &o).is_empty() {
            let before = reference(lo - 1).ok()?.stop?.pc;
            return Some(FirstDifference {
                step: lo,
                pc: before,
            });
        }
    }
    Some(FirstDifference { step: hi, pc })
}
