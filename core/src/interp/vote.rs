//! `vote.sync` and the deprecated `vote`.
//!
//! From the spec digest: `.all` — "True if `a` is True for all non-exited
//! threads in membermask"; `.any` — "True if `a` is True for any thread in
//! membermask"; `.uni` — "True if `a` has the same value in all non-exited
//! threads in membermask"; `.ballot` — "Bit `i` of `d` = predicate of lane
//! `i`. Non-membermask threads contribute 0." Exited member lanes take no
//! part (they contribute 0 to a ballot). The deprecated forms vote over the
//! lanes that execute them: "An inactive thread in warp will contribute a 0
//! for its entry when participating in `vote.ballot.b32`".
//!
//! Definedness, bit by bit: a ballot bit is defined where the lane's
//! predicate is, or where the lane certainly does not take part; `.all` is
//! a defined false as soon as one participant's predicate is a defined
//! false (whatever the others), `.any` likewise with true, `.uni` as soon as
//! both values are seen; otherwise each is defined when every participant's
//! predicate is (and, for the deprecated forms, every participant is
//! certain). The *value* of every bit, defined or not, is the one min-PC
//! gives (every participant votes with the predicate this run holds), for
//! both forms: a ballot used as a later collective's `membermask` decides
//! by all its bits whom the lanes wait for, so the run must go on as the
//! min-PC schedule does, as the JIT does (`vote.sync` wrote 0 for an
//! undefined predicate until session 13: the same fault as `match.sync`'s,
//! [`super::matching`]).

use super::bits::Val;
use super::collective::{op_of, Rendezvous};
use super::lanes::lanes;
use super::warp::{Step, Warp};
use crate::ir::{Op, Vote, VoteMode};

/// The predicates of `who`, split into defined trues, defined falses and
/// undefined.
struct Tally {
    ones: u32,
    zeros: u32,
    unknown: u32,
}

/// The vote of `mode` on a tally, with the lanes `absent` certainly not
/// taking part (their ballot bits are defined zeros).
fn decide(mode: VoteMode, t: &Tally, absent: u32) -> Val {
    let Tally {
        ones,
        zeros,
        unknown,
    } = *t;
    match mode {
        VoteMode::All => Val::bool(zeros == 0, zeros != 0 || unknown == 0),
        VoteMode::Any => Val::bool(ones != 0, ones != 0 || unknown == 0),
        VoteMode::Uni => Val::bool(
            ones == 0 || zeros == 0,
            (ones != 0 && zeros != 0) || unknown == 0,
        ),
        VoteMode::Ballot => Val {
            v: ones as u64,
            d: (ones | zeros | absent) as u64 | !0xffff_ffffu64,
        },
    }
}

/// Runs a completed `vote.sync` rendezvous: every participant votes with
/// the predicate of its own instruction.
pub(crate) fn exec_sync(w: &mut Warp, rv: &Rendezvous) {
    let vote = |op: &Op| match op {
        Op::Vote(x) => *x,
        Op::Shfl(_)
        | Op::Match(_)
        | Op::Redux(_)
        | Op::Activemask(_)
        | Op::Glue(_)
        | Op::Control(_)
        | Op::LaneOp(_) => {
            unreachable!("a vote.sync rendezvous pairs vote.sync only")
        }
    };
    let mut t = Tally {
        ones: 0,
        zeros: 0,
        unknown: 0,
    };
    // The ballot of the predicates this run holds, defined or not.
    let mut ballot = 0u32;
    for k in lanes(rv.lanes) {
        let a = w.read(vote(op_of(w, rv, k)).a, k);
        ballot |= ((a.v & 1) as u32) << k;
        if a.d & 1 == 0 {
            t.unknown |= 1 << k;
        } else if a.v & 1 == 1 {
            t.ones |= 1 << k;
        } else {
            t.zeros |= 1 << k;
        }
    }
    for l in lanes(rv.lanes) {
        let x = vote(op_of(w, rv, l));
        // Who met whom is not known (an undefined `membermask` bit): the
        // run's value stays, nothing defined.
        let defined = if rv.unsure {
            0
        } else {
            decide(x.mode, &t, !rv.lanes).d
        };
        let v = Val {
            v: voted(x.mode, ballot, rv.lanes),
            d: defined,
        };
        w.at(rv.pc[l]);
        w.write(x.d, l, v);
    }
}

/// The value of a vote of `mode` whose participants `who` hold the
/// predicates `ballot` (the run's values, defined or not; where [`decide`]
/// defines the result, it is this one).
fn voted(mode: VoteMode, ballot: u32, who: u32) -> u64 {
    match mode {
        VoteMode::All => (ballot & who == who) as u64,
        VoteMode::Any => (ballot & who != 0) as u64,
        VoteMode::Uni => (ballot & who == who || ballot & who == 0) as u64,
        VoteMode::Ballot => (ballot & who) as u64,
    }
}

/// Executes a deprecated `vote` for the lanes of `s`: the participants are
/// the lanes executing it, certain only for the lanes certainly converged
/// with the voter ([`Convergence`](super::converge::Convergence)).
pub(crate) fn exec_deprecated(w: &mut Warp, s: &Step, x: &Vote) {
    let mut out = Vec::with_capacity(s.exec.count_ones() as usize);
    for l in lanes(s.exec) {
        let with = w.conv.with(l, s.conv);
        let certain = with & s.exec;
        let absent = if w.conv.lockstep() {
            !s.exec
        } else {
            (with & !s.exec) | w.conv.absent(l, s.pc, !with)
        };
        let mut t = Tally {
            ones: 0,
            zeros: 0,
            unknown: !(certain | absent),
        };
        // The value min-PC gives (every lane executing here votes); the
        // definedness from the certain participants only.
        let mut ballot = 0u32;
        for k in lanes(s.exec) {
            let a = w.read(x.a, k);
            ballot |= ((a.v & 1) as u32) << k;
            if certain >> k & 1 == 0 {
                continue;
            }
            if a.d & 1 == 0 {
                t.unknown |= 1 << k;
            } else if a.v & 1 == 1 {
                t.ones |= 1 << k;
            } else {
                t.zeros |= 1 << k;
            }
        }
        let defined = decide(x.mode, &t, absent).d;
        let value = voted(x.mode, ballot, s.exec);
        out.push((
            l,
            Val {
                v: value,
                d: defined,
            },
        ));
    }
    w.conv.executed(s.pc, s.exec);
    w.write_all(x.d, &out);
}
