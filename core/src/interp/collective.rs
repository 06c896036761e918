//! `.sync` collectives (`shfl.sync`, `vote.sync`, `match.sync`,
//! `redux.sync`): the `membermask` rules, and the rendezvous.
//!
//! From the `.sync` pages: each executing thread waits "until all
//! non-exited threads corresponding to `membermask` have executed
//! [the instruction] with the same qualifiers and same `membermask` value";
//! "the behavior ... is undefined if the executing thread is not in the
//! `membermask`"; "for .target `sm_6x` or below, all threads in
//! `membermask` must execute the same `shfl.sync` instruction in
//! convergence, and only threads belonging to some `membermask` can be
//! active when the `shfl.sync` instruction is executed".
//!
//! On sm_70 and later a lane that executes one *arrives* and waits; the
//! rendezvous completes when every non-exited member waits with the same
//! qualifiers (the form: `shfl.sync.idx`, `vote.sync.ballot`,
//! `match.any.sync.b64`, `redux.sync.add.u32`...) and the same
//! `membermask` — at any instruction. An H200 does exactly that
//! (`corpus/*-h200.ptx` from `lower/gpu/experiments/convergence.py`):
//! lanes 0-15 and 16-31 at two different `vote.sync.ballot` instructions
//! completed one ballot together, and at two `shfl.sync.idx` instructions
//! each read the other's operand; a member branching around a full-mask
//! `vote.sync` and exiting after a long loop let the others complete
//! without it; a converged member predicated off at a full-mask `vote.sync`
//! that came back to it in the next loop iteration completed the others'
//! first pass with its second (and one that exited instead let them
//! complete without it). So a predicated-off member is simply a member
//! that has not arrived. Two instructions with *different* qualifiers never
//! pair: at -O3 that program hung.
//!
//! The collective then runs once over its participants (every non-exited
//! member), each reading its operands from, and writing its result to, its
//! own instruction.
//!
//! This is the mechanism only: the families' files (`shfl.rs`, `vote.rs`,
//! `matching.rs`, `redux.rs`) compute a completed [`Rendezvous`], and the
//! scheduler, which knows them, says which one runs it ([`RunFamily`]).

use super::lanes::{lanes, lanes_where};
pub(crate) use super::warp::Rendezvous;
use super::warp::{Arrival, Lane, Step, Warp};
use crate::ir::{Op, WARP};
use crate::text::inst_text;
use crate::ub::{Ub, UbRule};

/// Runs the collective of a completed rendezvous: its family's semantics,
/// given by the scheduler.
pub(crate) type RunFamily = fn(&mut Warp, &Rendezvous);

/// The lanes of `s.exec` execute the `.sync` collective at `pc`: checks
/// the `membermask` rules, then (sm_70+) records their arrival, moves the
/// predicated-off lanes on and completes every rendezvous that can; on
/// sm_6x and below it runs at once over the converged members. `run`
/// runs a completed rendezvous.
pub(crate) fn arrive(w: &mut Warp, s: &Step, pc: usize, run: RunFamily) -> Result<(), Ub> {
    let prog = w.prog();
    let text = || inst_text(prog, s.inst);
    let fail = |rule, lanes: u32, what: String| Err(Ub::new(rule, s.inst, lanes, what));
    let mm = s
        .inst
        .op
        .membermask()
        .expect("a .sync collective has a membermask");
    let mut mask = [0u32; WARP];
    let mut unsure = 0u32;
    let (mut undef, mut outside) = (0u32, 0u32);
    for l in lanes(s.exec) {
        let v = w.read(mm, l);
        mask[l] = v.v as u32;
        if v.d >> l & 1 == 0 {
            undef |= 1 << l;
        } else if mask[l] >> l & 1 == 0 {
            outside |= 1 << l;
        }
        if v.d & 0xffff_ffff != 0xffff_ffff {
            unsure |= 1 << l;
        }
    }
    if undef != 0 {
        return fail(
            UbRule::MembermaskUndefined,
            undef,
            format!(
                "`{}`: whether the executing lane is in its own membermask is undefined",
                text()
            ),
        );
    }
    if outside != 0 {
        return fail(
            UbRule::NotInMembermask,
            outside,
            format!("`{}`: executing lanes are not in their membermask", text()),
        );
    }
    let mut differ = 0u32;
    // Usually every executing lane gives the same mask: nothing differs.
    let first = lanes(s.exec).next().map(|l| mask[l]);
    if lanes(s.exec).any(|l| Some(mask[l]) != first) {
        for l in lanes(s.exec) {
            for k in lanes(mask[l] & s.exec) {
                if mask[k] != mask[l] {
                    differ |= 1 << l | 1 << k;
                }
            }
        }
    }
    if differ != 0 {
        let shown: Vec<String> = lanes(differ)
            .take(4)
            .map(|l| format!("lane {l}: {:#010x}", mask[l]))
            .collect();
        return fail(
            UbRule::MembermaskNotUniform,
            differ,
            format!(
                "`{}`: lanes of one collective give different membermask values ({}{})",
                text(),
                shown.join(", "),
                if differ.count_ones() > 4 { ", ..." } else { "" }
            ),
        );
    }
    let next = pc + 1;
    if s.target.sm < 70 {
        let all_members = lanes(s.exec).fold(0u32, |m, l| m | mask[l]);
        let missing = all_members & !s.exec;
        if missing != 0 {
            return fail(
                UbRule::Sm6xConvergence,
                missing,
                format!(
                    "`{}`: on {} all membermask lanes must execute it in convergence, but these exited, are predicated off or are elsewhere",
                    text(),
                    s.target
                ),
            );
        }
        let loose = s.conv & !all_members;
        if loose != 0 {
            return fail(
                UbRule::Sm6xConvergence,
                loose,
                format!(
                    "`{}`: on {} only lanes in some membermask may be active here",
                    text(),
                    s.target
                ),
            );
        }
        run(
            w,
            &Rendezvous {
                lanes: s.exec,
                pc: [pc; WARP],
                unsure: unsure != 0,
            },
        );
        for l in lanes(s.conv) {
            w.pc[l] = next;
        }
        return Ok(());
    }
    let key = s.inst.op.rendezvous_key().expect("a .sync collective");
    for l in lanes(s.exec) {
        w.lane[l] = Lane::Waiting(Arrival {
            key,
            mask: mask[l],
            unsure: unsure >> l & 1 == 1,
        });
    }
    // Predicated off: not arriving; they move on without the others.
    for l in lanes(s.conv & !s.exec) {
        w.pc[l] = next;
    }
    w.conv.split(s.conv, s.exec);
    complete_ready(w, run)
}

/// Completes every rendezvous whose members have all arrived or exited,
/// each run by `run`.
pub(crate) fn complete_ready(w: &mut Warp, run: RunFamily) -> Result<(), Ub> {
    // Lanes that do not exist (a partial warp) are not waited for, as
    // exited ones are not. One pass over the lanes finds them and the
    // waiting ones (this runs after every arrival and exit).
    let (mut absent, mut waiting) = (0u32, 0u32);
    for (l, lane) in w.lane.iter().enumerate() {
        match lane {
            Lane::Absent => absent |= 1 << l,
            Lane::Waiting(_) => waiting |= 1 << l,
            Lane::Running | Lane::Done | Lane::Exited | Lane::AtBarrier => {}
        }
    }
    let gone = w.exited | absent;
    loop {
        // Lowest waiting lane first; the lanes waiting with the same
        // qualifiers and membermask give the same answer, so each such
        // group is checked once: ready when every member that has not
        // gone is among them.
        let mut unchecked = waiting;
        let mut ready = None;
        while let Some(l) = lanes(unchecked).next() {
            let Lane::Waiting(a) = w.lane[l] else {
                unreachable!("a waiting lane")
            };
            let same = lanes_where(
                unchecked,
                |k| matches!(w.lane[k], Lane::Waiting(b) if b.key == a.key && b.mask == a.mask),
            );
            unchecked &= !same;
            let required = a.mask & !gone;
            if required & !same == 0 {
                ready = Some(required);
                break;
            }
        }
        let Some(participants) = ready else {
            return Ok(());
        };
        let unsure = lanes(participants).any(|l| matches!(w.lane[l], Lane::Waiting(a) if a.unsure));
        let mut pc = [0usize; WARP];
        for l in lanes(participants) {
            pc[l] = w.pc[l];
        }
        run(
            w,
            &Rendezvous {
                lanes: participants,
                pc,
                unsure,
            },
        );
        for l in lanes(participants) {
            w.lane[l] = Lane::Running;
            w.pc[l] = pc[l] + 1;
        }
        // Running the collective moves no other lane.
        waiting &= !participants;
        w.conv.synced(participants, unsure);
    }
}

/// Lane `l`'s instruction's operation in a rendezvous.
pub(crate) fn op_of<'p>(w: &Warp<'p>, rv: &Rendezvous, l: usize) -> &'p Op {
    &w.prog().insts[rv.pc[l]].op
}
