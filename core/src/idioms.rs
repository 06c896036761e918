//! Named idioms of known GPU-compiler bugs: program shapes that a PTX
//! compiler miscompiled on an H200 (each found by the fuzzer, reduced,
//! and explained from the SASS in its `corpus/` file). Once a bug is known
//! it would be found again thousands of times, so the fuzzer can avoid its
//! idiom (`warpdiff fuzz --avoid NAME`: the generator removes what makes
//! it) and triage recognises it in a divergence (the case is counted as
//! that known bug, not as a new one).
//!
//! Each idiom is recognised from the program text alone — a sufficient
//! shape, not a proof that the compiler fails on it.

use crate::ir::{Control, Guard, Op, Operand, Program, Reg};

/// A known bug's idiom.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Idiom {
    /// A guarded instruction, then (with no label or branch between) a
    /// guarded collective (under any guard) that writes its guard
    /// predicate: the compiler evaluates the earlier guard after the
    /// redefinition. (An unguarded collective writing it is the ISA's own
    /// scan example, which the H200 runs right:
    /// `corpus/scan-up-sync-h200.ptx`.) (`corpus/shl.b64-8b46bd59.ptx`,
    /// `corpus/sub.s64-446c1297.ptx`; under another guard: `@!%p0 add`,
    /// then `@!%p4 vote.sync.uni %p0`, found 2026-11-23.)
    GuardRedefinedByCollective,
    /// `@p exit` (either polarity), or `@p bra L` where `L` is an unguarded
    /// `exit` or the end of the program, then a loop that both writes `p`
    /// and reads it: the compiler folds `p` to its value after the exit
    /// (`corpus/vote.sync.any-6be43972.ptx`, `corpus/sub.f32-27e7f0a1.ptx`).
    GuardFoldedAfterExit,
    /// A `match`, `vote` or `redux` whose result no one reads, with a
    /// membermask that is not the immediate full mask, then a collective
    /// with the full mask: the compiler drops the unused collective but
    /// keeps its `WARPSYNC.EXCLUSIVE` and runs the later collective per
    /// group (`corpus/redux.sync.xor.b32-6c379852.ptx`; with a dropped
    /// `vote.sync.uni` or `redux.sync`, found 2026-11-23).
    UnusedCollectiveSplitsWarp,
    /// A loop whose body has a guarded `exit` and, after it, a write to a
    /// register that nothing writes before the loop: the compiler hoists
    /// the write above the exit, so the exit path sees this iteration's
    /// value instead of the last one (`corpus/setp.gt.s32-7181e72d.ptx`;
    /// with an entry value the H200 runs it right).
    LoopWriteHoistedAboveExit,
    /// A `shfl.sync` of an immediate, then a `shfl.sync` of its result,
    /// where the first can read an exited or non-member lane (an `exit`
    /// comes before it, or its membermask is not the immediate full mask):
    /// the compiler folds the second shuffle to its input as if it were
    /// warp-uniform (`corpus/shfl.sync.down-f8cd95db.ptx`).
    ShuffleOfShuffledImmediate,
}

impl Idiom {
    /// Every idiom.
    pub const ALL: [Idiom; 5] = [
        Idiom::GuardRedefinedByCollective,
        Idiom::GuardFoldedAfterExit,
        Idiom::UnusedCollectiveSplitsWarp,
        Idiom::LoopWriteHoistedAboveExit,
        Idiom::ShuffleOfShuffledImmediate,
    ];

    /// Its name (`--avoid NAME`, corpus headers).
    pub fn name(self) -> &'static str {
        match self {
            Idiom::GuardRedefinedByCollective => "guard-redefined-by-collective",
            Idiom::GuardFoldedAfterExit => "guard-folded-after-exit",
            Idiom::UnusedCollectiveSplitsWarp => "unused-collective-splits-warp",
            Idiom::LoopWriteHoistedAboveExit => "loop-write-hoisted-above-exit",
            Idiom::ShuffleOfShuffledImmediate => "shuffle-of-shuffled-immediate",
        }
    }

    /// The idiom called `name` (also the older name
    /// `unused-match-splits-warp`, which corpus headers written before the
    /// idiom covered `vote` and `redux` use).
    pub fn from_name(name: &str) -> Option<Idiom> {
        if name == "unused-match-splits-warp" {
            return Some(Idiom::UnusedCollectiveSplitsWarp);
        }
        Idiom::ALL.into_iter().find(|i| i.name() == name)
    }

    /// Where `prog` has the idiom: the index of the instruction whose
    /// removal takes it away (the later collective, the write in the loop,
    /// the unused collective, the exit in the loop, the second shuffle),
    /// or `None`.
    pub fn find(self, prog: &Program) -> Option<usize> {
        match self {
            Idiom::GuardRedefinedByCollective => guard_redefined(prog),
            Idiom::GuardFoldedAfterExit => folded_after_exit(prog),
            Idiom::UnusedCollectiveSplitsWarp => unused_collective(prog),
            Idiom::LoopWriteHoistedAboveExit => write_hoisted_above_exit(prog),
            Idiom::ShuffleOfShuffledImmediate => shuffle_of_shuffled_immediate(prog),
        }
    }
}

/// The idioms `prog` has.
pub fn idioms(prog: &Program) -> Vec<Idiom> {
    Idiom::ALL
        .into_iter()
        .filter(|i| i.find(prog).is_some())
        .collect()
}

fn is_collective(op: &Op) -> bool {
    match op {
        Op::Shfl(_) | Op::Vote(_) | Op::Match(_) | Op::Redux(_) => true,
        Op::Activemask(_) | Op::Glue(_) | Op::Control(_) | Op::LaneOp(_) => false,
    }
}

/// Whether a label sits at instruction `i` (it is a join point).
fn labelled(prog: &Program, i: usize) -> bool {
    prog.labels.iter().any(|l| l.at == i)
}

fn guard_redefined(prog: &Program) -> Option<usize> {
    for (i, inst) in prog.insts.iter().enumerate() {
        let Some(Guard { reg: p, .. }) = inst.guard else {
            continue;
        };
        if inst.op.is_control_flow() {
            continue;
        }
        for j in i + 1..prog.insts.len() {
            let later = &prog.insts[j];
            if labelled(prog, j) || later.op.is_control_flow() {
                break;
            }
            if later.guard.is_some() && is_collective(&later.op) && later.op.written().contains(&p)
            {
                return Some(j);
            }
        }
    }
    None
}

/// Whether `inst` reads `p` (as its guard or a source).
fn reads(inst: &crate::ir::Inst, p: Reg) -> bool {
    inst.guard.is_some_and(|g| g.reg == p)
        || inst
            .op
            .sources()
            .iter()
            .any(|(o, _, _)| matches!(o, Operand::Reg(r) | Operand::NotPred(r) if *r == p))
}

/// The loops of `prog`: (head, back edge) of every backward branch.
fn loops(prog: &Program) -> Vec<(usize, usize)> {
    prog.insts
        .iter()
        .enumerate()
        .filter_map(|(b, inst)| {
            let h = prog.labels[inst.op.branch_target()?.0 as usize].at;
            (h <= b).then_some((h, b))
        })
        .collect()
}

/// The guard of `inst` when it is a guarded exit: `@p exit`, or `@p bra L`
/// with an unguarded `exit` at `L` or `L` at the end of the program.
fn guarded_exit(prog: &Program, inst: &crate::ir::Inst) -> Option<Guard> {
    let g = inst.guard?;
    match &inst.op {
        Op::Control(Control::Exit) => Some(g),
        op => {
            let at = prog.labels[op.branch_target()?.0 as usize].at;
            let leaves = prog
                .insts
                .get(at)
                .is_none_or(|x| x.guard.is_none() && matches!(x.op, Op::Control(Control::Exit)));
            leaves.then_some(g)
        }
    }
}

fn folded_after_exit(prog: &Program) -> Option<usize> {
    let loops = loops(prog);
    for (i, inst) in prog.insts.iter().enumerate() {
        let Some(g) = guarded_exit(prog, inst) else {
            continue;
        };
        for &(h, b) in loops.iter().filter(|&&(h, _)| h > i) {
            let body = &prog.insts[h..=b];
            let write = body.iter().position(|x| x.op.written().contains(&g.reg));
            if let (Some(w), true) = (write, body.iter().any(|x| reads(x, g.reg))) {
                return Some(h + w);
            }
        }
    }
    None
}

fn unused_collective(prog: &Program) -> Option<usize> {
    let full = |m: &Operand| matches!(m, Operand::Imm(0xffff_ffff));
    for (i, inst) in prog.insts.iter().enumerate() {
        if !matches!(inst.op, Op::Match(_) | Op::Vote(_) | Op::Redux(_)) {
            continue;
        }
        let Some(mask) = inst.op.membermask() else {
            continue;
        };
        if full(&mask) {
            continue;
        }
        let unread = inst.op.dests().iter().all(|(d, _)| match d {
            crate::ir::Dest::Sink => true,
            crate::ir::Dest::Reg(d) => !prog.insts[i + 1..].iter().any(|x| reads(x, *d)),
        });
        let full_later = prog.insts[i + 1..]
            .iter()
            .any(|x| x.op.membermask().is_some_and(|m| full(&m)));
        if unread && full_later {
            return Some(i);
        }
    }
    None
}

fn write_hoisted_above_exit(prog: &Program) -> Option<usize> {
    for (h, b) in loops(prog) {
        for e in h..b {
            let x = &prog.insts[e];
            if x.guard.is_none() || !matches!(x.op, Op::Control(Control::Exit)) {
                continue;
            }
            let fresh = prog.insts[e + 1..=b].iter().any(|x| {
                x.op.written()
                    .iter()
                    .any(|r| !prog.insts[..h].iter().any(|y| y.op.written().contains(r)))
            });
            if fresh {
                return Some(e);
            }
        }
    }
    None
}

fn shuffle_of_shuffled_immediate(prog: &Program) -> Option<usize> {
    for (i, inst) in prog.insts.iter().enumerate() {
        let Op::Shfl(first) = &inst.op else { continue };
        let (Some(mask), Operand::Imm(_), crate::ir::Dest::Reg(d)) =
            (first.membermask, first.a, first.d)
        else {
            continue;
        };
        let exit_before = prog.insts[..i]
            .iter()
            .any(|x| matches!(x.op, Op::Control(Control::Exit)));
        if mask == Operand::Imm(0xffff_ffff) && !exit_before {
            continue;
        }
        for (j, later) in prog.insts.iter().enumerate().skip(i + 1) {
            if let Op::Shfl(second) = &later.op {
                if second.membermask.is_some() && second.a == Operand::Reg(d) {
                    return Some(j);
                }
            }
            if later.op.written().contains(&d) {
                break;
            }
        }
    }
    None
}
