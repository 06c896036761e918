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
    /// collective under the same guard predicate that writes it: the
    /// compiler evaluates the earlier guard after the redefinition. (An
    /// unguarded collective writing it is the ISA's own scan example,
    /// which the H200 runs right: `corpus/scan-up-sync-h200.ptx`.)
    /// (`corpus/shl.b64-8b46bd59.ptx`, `corpus/sub.s64-446c1297.ptx`).
    GuardRedefinedByCollective,
    /// `@p exit` (either polarity), then a loop that both writes `p` and
    /// reads it: the compiler folds `p` to its value after the exit
    /// (`corpus/vote.sync.any-6be43972.ptx`, `corpus/sub.f32-27e7f0a1.ptx`).
    GuardFoldedAfterExit,
    /// A `match` whose result no one reads, with a membermask that is not
    /// the immediate full mask, then a collective with the full mask: the
    /// compiler keeps the match's `WARPSYNC.EXCLUSIVE` and runs the later
    /// collective per group (`corpus/redux.sync.xor.b32-6c379852.ptx`).
    UnusedMatchSplitsWarp,
}

impl Idiom {
    /// Every idiom.
    pub const ALL: [Idiom; 3] = [
        Idiom::GuardRedefinedByCollective,
        Idiom::GuardFoldedAfterExit,
        Idiom::UnusedMatchSplitsWarp,
    ];

    /// Its name (`--avoid NAME`, corpus headers).
    pub fn name(self) -> &'static str {
        match self {
            Idiom::GuardRedefinedByCollective => "guard-redefined-by-collective",
            Idiom::GuardFoldedAfterExit => "guard-folded-after-exit",
            Idiom::UnusedMatchSplitsWarp => "unused-match-splits-warp",
        }
    }

    /// The idiom called `name`.
    pub fn from_name(name: &str) -> Option<Idiom> {
        Idiom::ALL.into_iter().find(|i| i.name() == name)
    }

    /// Where `prog` has the idiom: the index of the instruction whose
    /// removal takes it away (the later collective, the write in the loop,
    /// the match), or `None`.
    pub fn find(self, prog: &Program) -> Option<usize> {
        match self {
            Idiom::GuardRedefinedByCollective => guard_redefined(prog),
            Idiom::GuardFoldedAfterExit => folded_after_exit(prog),
            Idiom::UnusedMatchSplitsWarp => unused_match(prog),
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
        Op::Activemask(_) | Op::Glue(_) | Op::Control(_) => false,
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
            let same_guard = later.guard.is_some_and(|g| g.reg == p);
            if same_guard && is_collective(&later.op) && later.op.written().contains(&p) {
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

fn folded_after_exit(prog: &Program) -> Option<usize> {
    let loops: Vec<(usize, usize)> = prog
        .insts
        .iter()
        .enumerate()
        .filter_map(|(b, inst)| {
            let h = prog.labels[inst.op.branch_target()?.0 as usize].at;
            (h <= b).then_some((h, b))
        })
        .collect();
    for (i, inst) in prog.insts.iter().enumerate() {
        let (Op::Control(Control::Exit), Some(g)) = (&inst.op, inst.guard) else {
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

fn unused_match(prog: &Program) -> Option<usize> {
    let full = |m: &Operand| matches!(m, Operand::Imm(0xffff_ffff));
    for (i, inst) in prog.insts.iter().enumerate() {
        let Op::Match(m) = &inst.op else { continue };
        if full(&m.membermask) {
            continue;
        }
        let unread = match m.d {
            crate::ir::Dest::Sink => true,
            crate::ir::Dest::Reg(d) => !prog.insts[i + 1..].iter().any(|x| reads(x, d)),
        };
        let full_later = prog.insts[i + 1..].iter().any(|x| {
            let mask = match &x.op {
                Op::Shfl(s) => s.membermask,
                Op::Vote(v) => v.membermask,
                Op::Match(m) => Some(m.membermask),
                Op::Redux(r) => Some(r.membermask),
                Op::Activemask(_) | Op::Glue(_) | Op::Control(_) => None,
            };
            mask.is_some_and(|m| full(&m))
        });
        if unread && full_later {
            return Some(i);
        }
    }
    None
}
