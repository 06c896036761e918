//! The scheduler: deterministic min-PC among the lanes that can run, with
//! `.sync` collectives as rendezvous.
//!
//! Each step, the running lanes with the lowest program counter execute
//! the instruction there together (one *warp step*, the unit of fuel). A
//! lane that reaches a `.sync` collective *arrives* there and waits (it is
//! no longer runnable); the others run on. A rendezvous completes — the
//! collective executes once for every arrived member, then they run on
//! together — as soon as every non-exited lane of its `membermask` waits
//! with the same qualifiers and the same `membermask` (see
//! [`super::collective`]); arrivals and exits are when that is checked.
//! Completing costs no step.
//!
//! The run ends when no lane can run: finished if nobody waits, else
//! undefined behaviour `sync-deadlock` (members that finished the program
//! without exiting, or that wait at a collective the others never reach).
//! Running out of fuel is [`OutOfFuel`], unless lanes wait: then
//! the members they wait for spin forever, which is `sync-deadlock` too.

use super::collective::{self, Rendezvous};
use super::converge::{self, Trace};
use super::fuel::OutOfFuel;
use super::lanes::{lanes, lanes_where};
use super::warp::{Lane, Step, Warp};
use super::{activemask, alu, atomic, lane_ops, matching, memory_ops, redux, shfl, vote, watch};
use crate::ir::{Control, LaneOpKind, Op, WARP};
use crate::outcome::{Outcome, Seen, Stop};
use crate::text::inst_text;
use crate::ub::{Ub, UbRule};

/// Where [`advance`] stopped.
pub(crate) enum Advance {
    /// No lane can run any more (with the UB that ends the run, if any).
    Finished(Option<Ub>),
    /// A bounded run's fuel ran out before the instruction at this pc.
    Stopped(usize),
    /// Every lane that can still run waits at `bar.sync`.
    Barrier,
}

/// Runs the warp to its end (or to undefined behaviour, or out of fuel).
/// A `bounded` run that runs out of fuel stops there, as an outcome (lanes
/// waiting at a collective then are no deadlock: the run is cut short).
/// A lone warp's `bar.sync` (a one-warp CTA) completes when every lane
/// that has not exited waits there.
pub(crate) fn run(mut w: Warp, fuel: u64, bounded: bool) -> Result<(Outcome, Trace), OutOfFuel> {
    let mut steps = 0;
    loop {
        match advance(&mut w, &mut steps, fuel, bounded)? {
            Advance::Finished(ub) => return Ok(w.finish(ub, steps)),
            Advance::Stopped(pc) => {
                let line = w.prog().insts[pc].line;
                let (mut out, trace) = w.finish(None, steps);
                out.stop = Some(Stop { pc, line });
                return Ok((out, trace));
            }
            Advance::Barrier => {
                if let Some(ub) = release_barrier(&mut w) {
                    return Ok(w.finish(Some(ub), steps));
                }
            }
        }
    }
}

/// Lanes that wait at `bar.sync`.
pub(crate) fn at_barrier(w: &Warp) -> u32 {
    lanes_where(u32::MAX, |l| w.lane[l] == Lane::AtBarrier)
}

/// Completes the CTA's barrier for this warp: every lane waiting there
/// runs on after it. Lanes waiting at a `.sync` collective then, or that
/// finished without `exit`, never come: `barrier-deadlock`. ("As threads
/// exit, barriers waiting on all threads are checked to see if the exiting
/// threads are the only threads that have not yet made it to a barrier
/// ... the barrier is released": exited threads are not waited for.)
pub(crate) fn release_barrier(w: &mut Warp) -> Option<Ub> {
    let waiting = at_barrier(w);
    let stuck = lanes_where(u32::MAX, |l| {
        matches!(w.lane[l], Lane::Waiting(_) | Lane::Done)
    });
    let first = lanes(waiting).next()?;
    if stuck != 0 {
        let inst = &w.prog().insts[w.pc[first]];
        return Some(Ub::new(
            UbRule::BarrierDeadlock,
            inst,
            stuck,
            format!(
                "lanes {waiting:#010x} wait at `{}` (line {}) for lanes {stuck:#010x}, which wait at a .sync collective or finished without exit",
                inst_text(w.prog(), inst),
                inst.line
            ),
        ));
    }
    for l in lanes(waiting) {
        w.lane[l] = Lane::Running;
        w.pc[l] += 1;
    }
    None
}

/// Runs the warp until no lane can run, a bounded run's fuel runs out, or
/// every lane that can run waits at `bar.sync`.
pub(crate) fn advance(
    w: &mut Warp,
    steps: &mut u64,
    fuel: u64,
    bounded: bool,
) -> Result<Advance, OutOfFuel> {
    let n = w.prog().insts.len();
    loop {
        // One pass over the lanes: who runs (and the lowest pc), who
        // waits, who is live (neither exited, done nor absent).
        // Also the running lanes at the lowest pc, which run next.
        let (mut waiting, mut live, mut conv) = (0u32, 0u32, 0u32);
        let mut lowest = None;
        for l in 0..WARP {
            if w.lane[l] == Lane::Running && w.pc[l] >= n {
                w.lane[l] = Lane::Done;
            }
            match w.lane[l] {
                Lane::Running => {
                    live |= 1 << l;
                    let at = w.pc[l];
                    match lowest {
                        Some(p) if p < at => {}
                        Some(p) if p == at => conv |= 1 << l,
                        _ => {
                            lowest = Some(at);
                            conv = 1 << l;
                        }
                    }
                }
                Lane::Waiting(_) => {
                    waiting |= 1 << l;
                    live |= 1 << l;
                }
                Lane::AtBarrier => live |= 1 << l,
                Lane::Exited | Lane::Done | Lane::Absent => {}
            }
        }
        let Some(pc) = lowest else {
            if at_barrier(w) != 0 {
                return Ok(Advance::Barrier);
            }
            let ub = (waiting != 0).then(|| deadlock(w, waiting, None));
            return Ok(Advance::Finished(ub));
        };
        if *steps == fuel {
            if bounded {
                return Ok(Advance::Stopped(pc));
            }
            if waiting != 0 {
                return Ok(Advance::Finished(Some(deadlock(w, waiting, Some(pc)))));
            }
            return Err(OutOfFuel {
                steps: *steps,
                line: w.prog().insts[pc].line,
            });
        }
        *steps += 1;
        let how = if conv == live {
            Seen::CONVERGED
        } else {
            Seen::DIVERGENT
        };
        let after = if w.exited != 0 { Seen::AFTER_EXIT.0 } else { 0 };
        w.seen[pc].0 |= Seen::RAN.0 | how.0 | after;
        if w.watch.is_some() {
            watch::notify(w, |o, w| o.before(w, pc, conv));
        }
        let r = step(w, pc, conv);
        if w.watch.is_some() {
            let ub = r.is_err();
            watch::notify(w, |o, w| o.after(w, pc, conv, ub));
        }
        w.conv.stepped(conv);
        if let Err(ub) = r {
            return Ok(Advance::Finished(Some(ub)));
        }
    }
}

/// Executes the instruction at `pc` for the converged lanes `conv`.
fn step(w: &mut Warp, pc: usize, conv: u32) -> Result<(), Ub> {
    let prog = w.prog();
    let inst = &prog.insts[pc];
    w.at(pc);
    let (exec, maybe) = match inst.guard {
        None => (conv, 0),
        Some(g) => {
            let (mut exec, mut maybe) = (0, 0);
            for l in lanes(conv) {
                let p = w.read_keep_nan(crate::ir::Operand::Reg(g.reg), l);
                if p.d & 1 == 0 {
                    maybe |= 1 << l;
                } else if (p.v & 1 == 1) != g.negated {
                    exec |= 1 << l;
                }
            }
            (exec, maybe)
        }
    };
    let s = Step {
        inst,
        pc,
        conv,
        exec,
        maybe,
        target: prog.target,
    };
    let next = pc + 1;
    // A guard that may or may not hold decides control flow or who takes
    // part in a collective: which lanes do cannot be known.
    // A `st` or `bar.sync` under an undefined guard is treated alike: what
    // memory holds, or who waits, could not be known.
    let decides = match &inst.op {
        Op::Glue(_) | Op::Activemask(_) => false,
        Op::LaneOp(x) => matches!(
            x.kind,
            LaneOpKind::St(_) | LaneOpKind::Bar | LaneOpKind::Atom(_)
        ),
        Op::Shfl(_) | Op::Vote(_) | Op::Match(_) | Op::Redux(_) | Op::Control(_) => true,
    };
    if decides && maybe != 0 {
        let g = inst.guard.expect("an undefined guard");
        return Err(Ub::new(
            UbRule::GuardUndefined,
            inst,
            maybe,
            format!(
                "`{}`: guard predicate `{}` is undefined on converged lanes, and it decides {}",
                inst_text(prog, inst),
                prog.decl(g.reg).name,
                match &inst.op {
                    Op::Control(_) => "control flow",
                    Op::LaneOp(x) if x.kind == LaneOpKind::Bar => "who waits at the barrier",
                    Op::LaneOp(_) => "what memory holds",
                    _ => "who takes part in the collective",
                }
            ),
        ));
    }
    // Lanes whose guard is undefined may or may not have run it: the
    // compiled code may branch on it, so after it they are certainly with
    // no other lane (`Convergence::isolate`). (Where the guard decides
    // control flow, a collective or memory, it is UB above.)
    if maybe != 0 {
        w.conv.isolate(conv, maybe);
    }
    match &inst.op {
        Op::Glue(x) => {
            alu::exec(w, &s, x);
            w.clobber(pc, maybe);
        }
        Op::LaneOp(x) => match x.kind {
            LaneOpKind::Ld(_) | LaneOpKind::St(_) | LaneOpKind::Cvta { .. } => {
                memory_ops::exec(w, &s, x)?;
                w.clobber(pc, maybe);
            }
            LaneOpKind::Atom(_) | LaneOpKind::Fence(_) => {
                atomic::exec(w, &s, x)?;
                w.clobber(pc, maybe);
                if converge::branches_per_lane(x) {
                    w.conv.scatter(conv, exec);
                }
            }
            LaneOpKind::Bar => {
                for l in lanes(exec) {
                    w.lane[l] = Lane::AtBarrier;
                }
                for l in lanes(conv & !exec) {
                    w.pc[l] = next;
                }
                w.conv.split(conv, exec);
                return Ok(());
            }
            LaneOpKind::Special(_)
            | LaneOpKind::Cvt { .. }
            | LaneOpKind::Int(_)
            | LaneOpKind::Float { .. }
            | LaneOpKind::FSetp(_)
            | LaneOpKind::Pack
            | LaneOpKind::Unpack => {
                lane_ops::exec(w, &s, x);
                w.clobber(pc, maybe);
                if converge::branches_per_lane(x) {
                    // With no side effect, its code may run on the lanes
                    // whose guard is false too (speculated, its result
                    // dropped), branching on their values: an H100 gave
                    // `activemask` 0xf9ffffff after `@%p2 sqrt.rn.f32 _,
                    // %f3` with `%p2` false on every lane, at -O0 and -O1
                    // (-O2 removes the dead `sqrt`;
                    // `corpus/cases/activemask-after-guarded-off-sqrt-h100.ptx`).
                    w.conv
                        .scatter(conv, if inst.guard.is_some() { conv } else { exec });
                }
            }
        },
        Op::Activemask(x) => {
            activemask::exec(w, &s, x);
            w.clobber(pc, maybe);
            // A guard that parts the group at an `activemask` may be a
            // branch around it in the compiled code, with nothing after it
            // that joins the two sides: ptxas -O0 compiled `@%p2
            // activemask.b32` (the guard a deprecated `shfl`'s predicate)
            // to `@!P0 BRA` over `VOTE.ANY` with no `BSSY`, and the next
            // `activemask` gave lane 0 `1` and lanes 1..31 `0xfffffffe` on
            // an H100 and an H200
            // (`corpus/cases/activemask-after-guarded-activemask-h100.ptx`).
            // The ISA promises no reconvergence, so the two sides are not
            // known to be together from here on.
            if inst.guard.is_some() {
                w.conv.split(conv, exec);
            }
        }
        Op::Shfl(x) if x.membermask.is_none() => {
            shfl::exec_deprecated(w, &s, x);
            // A guard that splits the group at a collective is a branch in
            // the compiled code (an H200 did not reconverge the warp after a
            // guarded deprecated `shfl.idx`: corpus/mov.u32-ca8785ed.ptx).
            w.conv.split(conv, exec);
        }
        Op::Vote(x) if x.membermask.is_none() => {
            vote::exec_deprecated(w, &s, x);
            w.conv.split(conv, exec);
        }
        Op::Shfl(_) | Op::Vote(_) | Op::Match(_) | Op::Redux(_) => {
            // Arrivals wait; predicated-off lanes move on (done there).
            return collective::arrive(w, &s, pc, run_collective);
        }
        Op::Control(Control::Bra { target }) => {
            let to = prog.label_target(*target);
            for l in lanes(exec) {
                w.pc[l] = to;
            }
            for l in lanes(conv & !exec) {
                w.pc[l] = next;
            }
            w.conv.split(conv, exec);
            return Ok(());
        }
        Op::Control(Control::Exit) => {
            w.exited |= exec;
            for l in lanes(exec) {
                w.lane[l] = Lane::Exited;
            }
            w.conv.exit(conv, exec);
            for l in lanes(conv & !exec) {
                w.pc[l] = next;
            }
            // Lanes waiting for these members may go on now.
            return collective::complete_ready(w, run_collective);
        }
    }
    for l in lanes(conv) {
        w.pc[l] = next;
    }
    Ok(())
}

/// Runs the collective of a completed rendezvous (its family from any
/// participant's instruction: they share the qualifiers).
fn run_collective(w: &mut Warp, rv: &Rendezvous) {
    let first = lanes(rv.lanes)
        .next()
        .expect("a rendezvous has a participant");
    if w.watch.is_some() {
        watch::notify(w, |o, w| o.before_rendezvous(w, rv));
    }
    match &w.prog().insts[rv.pc[first]].op {
        Op::Shfl(_) => shfl::exec_sync(w, rv),
        Op::Vote(_) => vote::exec_sync(w, rv),
        Op::Match(_) => matching::exec(w, rv),
        Op::Redux(_) => redux::exec(w, rv),
        Op::Activemask(_) | Op::Glue(_) | Op::Control(_) | Op::LaneOp(_) => {
            unreachable!("only .sync collectives arrive")
        }
    }
    if w.watch.is_some() {
        watch::notify(w, |o, w| o.after_rendezvous(w, rv));
    }
}

/// The `sync-deadlock` diagnostic: who waits where, for whom, and why
/// those never come. `fuel_at` is the pc the run was at when the fuel ran
/// out, if it did.
fn deadlock(w: &Warp, waiting: u32, fuel_at: Option<usize>) -> Ub {
    let prog = w.prog();
    let first = lanes(waiting).next().expect("somebody waits");
    let inst = &prog.insts[w.pc[first]];
    let mut parts = Vec::new();
    let mut seen = 0u32;
    for l in lanes(waiting) {
        if seen >> l & 1 == 1 {
            continue;
        }
        let Lane::Waiting(a) = w.lane[l] else {
            continue;
        };
        let here = lanes_where(waiting, |k| w.lane[k] == w.lane[l] && w.pc[k] == w.pc[l]);
        seen |= here;
        let missing = a.mask & !w.exited & !lanes_where(waiting, |k| w.lane[k] == w.lane[l]);
        let why = describe(w, missing, fuel_at);
        let at = &prog.insts[w.pc[l]];
        parts.push(format!(
            "lanes {here:#010x} wait at `{}` (line {}) for lanes {missing:#010x}, which {why}",
            inst_text(prog, at),
            at.line
        ));
    }
    Ub::new(
        UbRule::SyncDeadlock,
        inst,
        waiting,
        format!(
            "members of a .sync collective never arrive: {}",
            parts.join("; ")
        ),
    )
}

/// Why the lanes `missing` never arrive, as a phrase.
fn describe(w: &Warp, missing: u32, fuel_at: Option<usize>) -> String {
    let prog = w.prog();
    let mut why = Vec::new();
    let done = lanes_where(missing, |k| w.lane[k] == Lane::Done);
    if done != 0 {
        why.push(format!("{done:#010x} finished the program without exiting"));
    }
    let mut told = 0u32;
    for k in lanes(missing) {
        if told >> k & 1 == 1 || !matches!(w.lane[k], Lane::Waiting(_)) {
            continue;
        }
        let there = lanes_where(missing, |j| {
            matches!(w.lane[j], Lane::Waiting(_)) && w.pc[j] == w.pc[k]
        });
        told |= there;
        let at = &prog.insts[w.pc[k]];
        why.push(format!(
            "{there:#010x} wait at `{}` (line {}) with other qualifiers or another membermask",
            inst_text(prog, at),
            at.line
        ));
    }
    let running = lanes_where(missing, |k| w.lane[k] == Lane::Running);
    if let (true, Some(pc)) = (running != 0, fuel_at) {
        why.push(format!(
            "{running:#010x} still run (the fuel ran out at line {})",
            prog.insts[pc].line
        ));
    }
    if why.is_empty() {
        "never come".to_string()
    } else {
        why.join(", ")
    }
}
