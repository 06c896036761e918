//! LR (N31 of `docs/findings.md`; session 11's `input-cc33e847`, triage
//! of 2026-11-28-k, and session 12's `fma.rn.f64-6d56780c`, group LR2 of
//! the triage of 2026-11-28-l): an instruction guarded by a predicate `p`,
//! then a loop whose body writes `p`; before the loop an unused full-mask
//! `vote.sync.ballot` of `p`, and before the guarded instruction a
//! guarded collective (in LR2 the guarded ballot itself). The GPU runs
//! the guarded instruction with the value the loop gives `p` (the lanes
//! whose `p` the loop makes true run it, the others skip it), from -O1
//! through the driver's JIT linker and whole-program; right at -O0.
//!
//! The PTX ISA gives a guarded instruction its guard's value where the
//! instruction stands: `@p` executes it "if ... `isGuardPredicateTrue`"
//! (the `shfl.sync` pseudo-code, `// guard predicate true, else
//! unpredictable`), and a later write cannot change an earlier read. The
//! section on predicated execution is not among the spec pages at hand.
//!
//! What the H200 showed (`docs/log/gpu-2026-11-28-k/f/table.md`,
//! `docs/log/gpu-2026-11-28-l/triage/results/table.md`, at -O0, -O1, -O3
//! through the linker; each found case wrong from -O1, every variant right
//! at -O0):
//!
//! | variant | H200 |
//! |---|---|
//! | `lr.found`: `@%p0 shfl.sync.idx _, .., 0` (never runs), `@%p0 mov`, `vote.sync.ballot _, !%p0, 0xffffffff`, the loop's `setp %p0` | wrong |
//! | `lr.no-shfl`: the shuffle removed (the ballot after the `mov`) | right |
//! | `lr.no-vote`: the ballot removed | right |
//! | `lr.fresh-pred`: the loop writes another predicate | right |
//! | `lr2.found`: `@!%p5 vote.sync.ballot _, !%p2, 0xffffffff`, `@%p2 fma`, the loop's `mov.pred %p2, %p3` | wrong |
//! | `lr2.no-vote`: the ballot removed | right |
//! | `lr2.vote-other-pred`: the ballot of `!%p3` | right |
//! | `lr2.fresh-pred`: the loop writes another predicate | right |
//!
//! Session 13's variants (`docs/log/gpu-2026-11-28-m/lr/`, H200 through
//! the linker at -O0, -O1, -O3; every one right at -O0) decided the rest:
//!
//! | variant | H200 |
//! |---|---|
//! | `lr3.lr-shfl-full-mask`: LR's never-run shuffle with the full mask | wrong |
//! | `lr3.lr2-shfl-before`: LR2's ballot after the `fma`, LR's never-run `@!%p2 shfl.sync` before it | wrong |
//! | `lr3.lr-vote-first`: LR without the shuffle, the (unguarded) ballot before the `mov` | right |
//! | `lr3.lr2-unguarded-vote`: LR2's ballot without its guard `@!%p5` | right |
//! | `lr3.lr-shfl-unguarded`: LR's shuffle unguarded | right |
//! | `lr3.lr-mov-for-shfl`: a never-run guarded `mov` for LR's shuffle | right |
//! | `lr3.lr2-vote-after`: LR2's ballot after the `fma`, nothing before it | right |
//! | `lr3.lr2-vote-any`: a guarded `vote.sync.any` for LR2's ballot | right |
//! | `lr3.lr2-no-loop`: the loop's one trip as straight code | right |
//!
//! So what stands before the guarded instruction must be a **guarded
//! collective** (a shuffle or a ballot, under any predicate, mask 0 or
//! full; not a guarded `mov`, not an unguarded ballot of `p`); the unused
//! full-mask ballot of `p` is needed as well (before or after the guarded
//! instruction; in LR2 the guarded ballot is both parts), a `vote.any` will
//! not do for it; and the rewrite must be in a loop.

use super::ballot_crash::{unused_ballot, DeadAfter};
use super::shape::loops;
use super::shape::{copy_into_itself, mask_value};
use crate::ir::{Op, Operand, Program, Reg, Vote};

/// Whether `op` is a collective (`shfl`, `vote`, `match`, `redux`).
fn collective(op: &Op) -> bool {
    match op {
        Op::Shfl(_) | Op::Vote(_) | Op::Match(_) | Op::Redux(_) => true,
        Op::Activemask(_) | Op::Glue(_) | Op::Control(_) | Op::LaneOp(_) => false,
    }
}

/// Whether instruction `i` is a full-mask `vote.sync.ballot` of `p` (or of
/// `!p`) whose result is unused: a sink, or dead after it.
fn unused_full_ballot_of(prog: &Program, i: usize, p: Reg, dead_after: &DeadAfter) -> bool {
    let Op::Vote(Vote {
        membermask: Some(m),
        ..
    }) = prog.insts[i].op
    else {
        return false;
    };
    let full = matches!(mask_value(prog, i, m), Operand::Imm(0xffff_ffff));
    full && unused_ballot(prog, i, dead_after) == Some(p)
}

/// Whether instruction `g` runs under a guard on `p` and writes a
/// register (not a branch or `exit`, not a collective whose results are
/// all sinks).
fn guarded_write(prog: &Program, g: usize, p: Reg) -> bool {
    let x = &prog.insts[g];
    x.guard.is_some_and(|q| q.reg == p) && !x.op.written().is_empty()
}

/// The unused full-mask ballot of LR's shape: its index (removing it took
/// both findings' wrong value away on the H200).
pub(super) fn ballot_guard_read_after_loop_rewrite(
    prog: &Program,
    dead_after: &DeadAfter,
) -> Option<usize> {
    for (h, b) in loops(prog) {
        for k in h..=b {
            let x = &prog.insts[k];
            // A copy of `p` into itself changes nothing (K5L's rule).
            for p in
                x.op.written()
                    .into_iter()
                    .filter(|&p| !copy_into_itself(x, p))
            {
                // From the last write of `p` before the loop's head (or the
                // entry) to the head: the guard read, the collectives.
                let from = (0..h)
                    .rev()
                    .find(|&j| prog.insts[j].op.written().contains(&p))
                    .map_or(0, |j| j + 1);
                let Some(g) = (from..h).rev().find(|&g| guarded_write(prog, g, p)) else {
                    continue;
                };
                let before = (from..g).any(|c| {
                    let x = &prog.insts[c];
                    collective(&x.op) && x.guard.is_some()
                });
                let ballot = (from..h).find(|&i| unused_full_ballot_of(prog, i, p, dead_after));
                if let (true, Some(i)) = (before, ballot) {
                    return Some(i);
                }
            }
        }
    }
    None
}
