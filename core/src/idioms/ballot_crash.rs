//! LC (N34 of `docs/findings.md`; session 10's candidate, three more
//! findings in session 12's -O1 hunt and three of three instructions in
//! session 13's -O3 hunt, `docs/log/gpu-2026-11-28-m/a/found/engine-failed-*`):
//! a `vote` whose predicate was never written, then an instruction the
//! compiler implements with a subroutine (`div`, `rem`, `sqrt` other than
//! `.approx`), then a `vote.sync.ballot` of the vote's result whose result
//! is unused:
//!
//! ```text
//! vote.uni.pred %p2, %p2;                   // %p2 never written
//! div.rz.f32 _, 0f00000000, 0f00000000;
//! vote.sync.ballot.b32 _, %p2, 0xffffffff;
//! ```
//!
//! The driver's JIT linker (`cuLinkAddData`, a relocatable compile) dies of
//! SIGSEGV on the module from -O1 (the compile helper's death is the
//! `engine-failed` divergence); -O0 compiles it and the kernel runs right.
//! Session 10's variants (`docs/log/gpu-2026-11-28-j/c/variants.txt`,
//! `d/variants.txt`) compiled without the subroutine, with the ballot's
//! result used, with `vote.any` for the ballot, and with the vote's
//! predicate an input; session 12's (`docs/log/gpu-2026-11-28-l/triage.md`,
//! group LC) with the division after the ballot.

use super::unwritten::Lazy;
use crate::ir::{Dest, Operand, Program, Reg, VoteMode};
use crate::ir::{Op, Vote};

/// The predicate `x` votes on and the one it writes, when it is a
/// `vote.{all,any,uni}.pred` with a destination.
fn pred_vote(x: &Op) -> Option<(Reg, Reg)> {
    let Op::Vote(Vote {
        mode: VoteMode::All | VoteMode::Any | VoteMode::Uni,
        d: Dest::Reg(d),
        a: Operand::Reg(a) | Operand::NotPred(a),
        ..
    }) = x
    else {
        return None;
    };
    Some((*a, *d))
}

/// Whether `x` is a `vote.sync.ballot.b32 _, p, ...` (or of `!p`): a
/// ballot of `p` whose result is discarded.
fn unused_ballot_of(x: &Op, p: Reg) -> bool {
    matches!(
        x,
        Op::Vote(Vote {
            mode: VoteMode::Ballot,
            d: Dest::Sink,
            a: Operand::Reg(a) | Operand::NotPred(a),
            membermask: Some(_),
        }) if *a == p
    )
}

/// The unused ballot of the shape: a vote of a predicate that may lack a
/// value there into `p`, later (no label between, `p` not rewritten) a
/// math subroutine, then the unused `vote.sync.ballot` of `p`. Its index.
pub(super) fn unused_ballot_of_unwritten_vote_after_math_call(
    prog: &Program,
    has_entry: &dyn Fn(Reg) -> bool,
) -> Option<usize> {
    let u = Lazy::new(prog, has_entry);
    let n = prog.insts.len();
    (0..n).find_map(|i| {
        let (a, p) = pred_vote(&prog.insts[i].op)?;
        let mut call = false;
        for k in i + 1..n {
            if super::shape::labelled(prog, k) {
                return None;
            }
            let op = &prog.insts[k].op;
            if call && unused_ballot_of(op, p) {
                return u.get().may_lack(i, a).then_some(k);
            }
            if op.written().contains(&p) || op.is_control_flow() {
                return None;
            }
            call |= super::calls_math_subroutine(op);
        }
        None
    })
}
