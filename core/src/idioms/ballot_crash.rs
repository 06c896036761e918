//! LC (N34 of `docs/findings.md`; session 10's candidate, three more
//! findings in session 12's -O1 hunt and three of three instructions in
//! session 13's -O3 hunt, `docs/log/gpu-2026-11-28-m/a/found/engine-failed-*`):
//! a predicate from a `vote` (or a `match.all`'s, or a `setp`), an
//! instruction the compiler implements with a subroutine (`div`, `rem`,
//! `sqrt` other than `.approx`), and a `vote.sync.ballot` of that predicate
//! whose result is unused (discarded, or overwritten unread):
//!
//! ```text
//! vote.uni.pred %p2, %p2;                   // %p2 never written
//! div.rz.f32 _, 0f00000000, 0f00000000;
//! vote.sync.ballot.b32 _, %p2, 0xffffffff;
//! ```
//!
//! The driver's JIT linker (`cuLinkAddData`, a relocatable compile) dies of
//! SIGSEGV on the module from -O1 (the compile helper's death is the
//! `engine-failed` divergence; the reproducer's `--link -O1` to `-O4` die
//! of signal 11); -O0 compiles it and the kernel runs right; `ptxas -c`
//! and the whole-program compile at every level compile it (session 13,
//! `docs/log/gpu-2026-11-28-m/b/repro-lc/`).
//!
//! Session 13's variants (`docs/log/gpu-2026-11-28-m/lc4/`, through the
//! linker at -O0, -O1, -O3, with the found case's ten input registers):
//! the crash stays with the vote's predicate an input, with
//! `vote.sync.uni`, and with `match.all.sync _|%p2, %laneid` for the vote;
//! it goes with no `div`, the `div` after the ballot, `sqrt.approx`,
//! `rem.u32` of immediates, `setp` of two immediates for the vote,
//! `vote.sync.any` for the ballot, no vote — and with eight or five of the
//! ten input registers (`lc4.regs-8`, `lc4.regs-5`), and with one
//! (`docs/log/gpu-2026-11-28-m/lc/`, where every variant compiled): what
//! else the kernel holds decides it too, which no rule on the program's
//! text sees. So the detector is wider than the bug: it takes the shape at
//! any size (the fuzz loop's `--avoid` keeps the shape out, which is what
//! it is for). Session 13's -O2 hunt and the default-level one
//! (`docs/log/gpu-2026-11-28-m/b/found/`, `d/found/`, each dying from -O1)
//! widened the writer to `setp` (`setp.eq.and.b32 _|%p3, 0, 0, %p0`,
//! `setp.gt.s32 %p3, %sd0, 0`), the ballot's result to one overwritten
//! unread (`vote.sync.ballot.b32 %r1, %p3, ...; mov.b32 %r1, 0` after a
//! `rem.s16`), and the subroutine to one after the ballot in its block
//! (`@!%p1 vote.sync.ballot.b32 _, %p3, ...; sqrt.rm.f32 _, 0`), though
//! `lc4.div-after` compiled: the other registers again.

use crate::ir::{Dest, Glue, Match, MatchMode, Op, Operand, Program, Reg, Vote, VoteMode};

/// Whether `x` writes `p` as a `vote.{all,any,uni}.pred`, a `match.all`'s
/// predicate or a `setp` (either destination).
fn writes_voted_predicate(x: &Op, p: Reg) -> bool {
    match x {
        Op::Vote(Vote { mode, d, .. }) => match mode {
            VoteMode::All | VoteMode::Any | VoteMode::Uni => *d == Dest::Reg(p),
            VoteMode::Ballot => false,
        },
        Op::Match(Match { mode, p: q, .. }) => match mode {
            MatchMode::All => *q == Some(Dest::Reg(p)),
            MatchMode::Any => false,
        },
        Op::Glue(Glue::Setp { .. }) => x.written().contains(&p),
        Op::Glue(_)
        | Op::Shfl(_)
        | Op::Redux(_)
        | Op::Activemask(_)
        | Op::Control(_)
        | Op::LaneOp(_) => false,
    }
}

/// Whether `d`, written by instruction `i`, is overwritten before any read
/// (the detectors' `dead_after`, passed in so that this file imports
/// nothing from `idioms.rs`).
pub(super) type DeadAfter = dyn Fn(&Program, usize, Reg) -> bool;

/// The predicate of instruction `k` when it is a `vote.sync.ballot` (of
/// `p` or `!p`) whose result is discarded or overwritten before any read.
pub(super) fn unused_ballot(prog: &Program, k: usize, dead_after: &DeadAfter) -> Option<Reg> {
    let Op::Vote(Vote {
        mode: VoteMode::Ballot,
        d,
        a: Operand::Reg(p) | Operand::NotPred(p),
        membermask: Some(_),
    }) = prog.insts[k].op
    else {
        return None;
    };
    let unused = match d {
        Dest::Sink => true,
        Dest::Reg(d) => dead_after(prog, k, d),
    };
    unused.then_some(p)
}

/// The unused ballot of the shape: a `vote.sync.ballot` of `p` whose
/// result is unused, `p`'s last writer before it in its block a vote,
/// a `match.all` or a `setp`, and a math subroutine in that block (between
/// the writer and the ballot, or after the ballot before the block ends).
/// Its index.
pub(super) fn unused_ballot_of_vote_after_math_call(
    prog: &Program,
    dead_after: &DeadAfter,
) -> Option<usize> {
    let n = prog.insts.len();
    (0..n).find(|&k| {
        let Some(p) = unused_ballot(prog, k, dead_after) else {
            return false;
        };
        let Some(i) = super::shape::straight_writer(prog, p, k) else {
            return false;
        };
        if !writes_voted_predicate(&prog.insts[i].op, p)
            || prog.insts[i..k].iter().any(|x| x.op.is_control_flow())
        {
            return false;
        }
        let after = (k + 1..n).take_while(|&j| {
            !super::shape::labelled(prog, j) && !prog.insts[j].op.is_control_flow()
        });
        (i + 1..k)
            .chain(after)
            .any(|j| super::shape::calls_math_subroutine(&prog.insts[j].op))
    })
}
