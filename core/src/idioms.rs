//! Named idioms of known GPU-compiler bugs: program shapes that a PTX
//! compiler miscompiled on an H200 (each found by the fuzzer, reduced,
//! and explained from the SASS in its `corpus/` file). Once a bug is known
//! it would be found again thousands of times, so the fuzzer can avoid its
//! idiom (`warpdiff fuzz --avoid NAME`: the generator removes what makes
//! it) and triage recognises it in a divergence (the case is counted as
//! that known bug, not as a new one).
//!
//! Each idiom is recognised from the program text alone — a sufficient
//! shape, not a proof that the compiler fails on it. What a bug does to a
//! run ([`Effect`]: a wrong value, a kernel that never finishes, a fault)
//! is recorded per idiom ([`Idiom::effects`]), so that the fuzz loop can
//! count a hang or a fault on a known idiom as that bug.

use crate::ir::{BinOp, Control, Dest, Glue, Guard, Op, Operand, Program, Reg, Type};

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
    /// A `match`, `vote` or `redux` whose result no one reads (a sink, or
    /// a register overwritten before any read), with a register membermask
    /// (per-lane groups) and then a collective with an immediate membermask
    /// (the full mask or a sub-warp one), or with an immediate membermask
    /// that is not the full mask and then one with the full mask: the
    /// compiler drops the unused collective but keeps its
    /// `WARPSYNC.EXCLUSIVE` and runs the later collective per group
    /// (`corpus/redux.sync.xor.b32-6c379852.ptx`; with a dropped
    /// `vote.sync.uni` or `redux.sync`, found 2026-11-23; a sub-warp later
    /// mask and overwritten results in 11 of the H200's findings of
    /// 2026-11-27, `docs/log/gpu-2026-11-27/triage.md`, group G2).
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
    /// A 64-bit `shl`/`shr` whose `.b32` shift amount is a register that
    /// a `mov.f32` writes anywhere in the program: the compiler converts
    /// the register's value as a float to an integer (`F2I.U64.TRUNC`)
    /// instead of shifting by its bits, at every level, -O0 too (S1:
    /// `mov.f32 %b1, 0f00000001; shr.u64 %rd2, 1, %b1` shifts by 0, not 1;
    /// `corpus/shr.u64-fb04d2e7.ptx`, `corpus/repro/s1-f2i-shift-amount/`,
    /// whose ptxas -O0 SASS reads `MOV R4, 0x1`, `F2I.U64.TRUNC R2, R4`).
    /// Only `mov.f32` writers were seen; other `.f32` instructions writing
    /// a `.b32` amount are not recognised until a case shows them.
    ShiftAmountConvertedFromF32,
    /// A guarded `.sync` collective inside a loop (between a label and a
    /// backward `bra` to it) whose guard predicate an instruction of the
    /// loop writes (in `corpus/hang-f7163bc7.ptx` the collective itself),
    /// then a `.sync` collective after the loop that lanes can execute (a
    /// membermask other than the immediate 0, which no lane of a defined
    /// run executes): where lanes leave the loop at different trips, the
    /// kernel never finishes at -O1 to -O4 and finishes right at -O0 (the
    /// lanes still looping and those that left wait in different
    /// collectives). Two hunting runs of 2026-11 (issue #34) hung on this
    /// shape within seconds, one of them with every other idiom avoided.
    /// In `hang-f7163bc7` the loop follows `@!%p1 exit`, so
    /// [`Idiom::GuardFoldedAfterExit`] holds too, and that fold explains
    /// its hang: with the collective's guard folded to true, the reference
    /// itself reports lanes 29 and 31 waiting in the two collectives
    /// (`sync-deadlock`). The unreduced program (its case seed,
    /// regenerated at the commit that found it) holds both idioms as well.
    LoopGuardRewrittenHangs,
    /// A `.sync` collective whose membermask is a register (in the case,
    /// each lane its own bit), then a later `.sync` collective with the
    /// immediate membermask 0, which no lane of a defined run executes (a
    /// lane outside its membermask is undefined behaviour): the kernel
    /// raises `CUDA_ERROR_ILLEGAL_INSTRUCTION` at -O1 to -O4 and finishes
    /// right at -O0 (H100, 2026-11-24; `corpus/hang-7d93fc80.ptx`,
    /// `corpus/repro/h100-fault-7d93fc80/`). Both are needed: without the
    /// mask-0 collective, or without the register-mask one, it agrees. Not
    /// explained yet: at -O3 the register-mask `vote.sync` becomes
    /// `WARPSYNC.EXCLUSIVE R7` before a full-warp `MATCH.ALL`, the mark of
    /// [`Idiom::UnusedCollectiveSplitsWarp`], whose idiom the reduced case
    /// holds too; the unreduced program (87 instructions, generated with
    /// every idiom avoided) read the vote's result, had group masks
    /// (`activemask & %grp`) rather than single bits and no mask-0
    /// collective (its later collectives had the mask 3): the reduction
    /// made both, so this idiom is the reduced shape and its near
    /// relatives, not every program of this bug.
    ZeroMembermaskCollectiveFaults,
}

/// What a known bug was seen to do to a GPU run of a program with its
/// idiom (the cases named in each [`Idiom`]'s documentation).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Effect {
    /// The kernel finishes, with a value the reference defines wrong in
    /// some lane.
    WrongValue,
    /// The kernel never finishes: lanes wait in a `.sync` collective for
    /// members that never come (the batch's deadline ends it).
    Hang,
    /// The kernel raises a sticky error (`CUDA_ERROR_ILLEGAL_INSTRUCTION`)
    /// that leaves its context unusable.
    Fault,
}

impl Idiom {
    /// Every idiom.
    pub const ALL: [Idiom; 8] = [
        Idiom::GuardRedefinedByCollective,
        Idiom::GuardFoldedAfterExit,
        Idiom::UnusedCollectiveSplitsWarp,
        Idiom::LoopWriteHoistedAboveExit,
        Idiom::ShuffleOfShuffledImmediate,
        Idiom::ShiftAmountConvertedFromF32,
        Idiom::LoopGuardRewrittenHangs,
        Idiom::ZeroMembermaskCollectiveFaults,
    ];

    /// Its name (`--avoid NAME`, corpus headers).
    pub fn name(self) -> &'static str {
        match self {
            Idiom::GuardRedefinedByCollective => "guard-redefined-by-collective",
            Idiom::GuardFoldedAfterExit => "guard-folded-after-exit",
            Idiom::UnusedCollectiveSplitsWarp => "unused-collective-splits-warp",
            Idiom::LoopWriteHoistedAboveExit => "loop-write-hoisted-above-exit",
            Idiom::ShuffleOfShuffledImmediate => "shuffle-of-shuffled-immediate",
            Idiom::ShiftAmountConvertedFromF32 => "shift-amount-converted-from-f32",
            Idiom::LoopGuardRewrittenHangs => "loop-guard-rewritten-hangs",
            Idiom::ZeroMembermaskCollectiveFaults => "zero-membermask-collective-faults",
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
    /// the unused collective, the exit in the loop, the second shuffle,
    /// the `mov.f32` that writes the shift amount, the guarded collective
    /// in the loop, the mask-0 collective), or `None`.
    pub fn find(self, prog: &Program) -> Option<usize> {
        match self {
            Idiom::GuardRedefinedByCollective => guard_redefined(prog),
            Idiom::GuardFoldedAfterExit => folded_after_exit(prog),
            Idiom::UnusedCollectiveSplitsWarp => unused_collective(prog),
            Idiom::LoopWriteHoistedAboveExit => write_hoisted_above_exit(prog),
            Idiom::ShuffleOfShuffledImmediate => shuffle_of_shuffled_immediate(prog),
            Idiom::ShiftAmountConvertedFromF32 => shift_amount_from_f32(prog),
            Idiom::LoopGuardRewrittenHangs => loop_guard_rewritten(prog),
            Idiom::ZeroMembermaskCollectiveFaults => zero_membermask_after_register_mask(prog),
        }
    }

    /// What programs with this idiom were seen to do on the GPU, the most
    /// common first:
    /// - `guard-folded-after-exit` also hangs and faults where the folded
    ///   guard guards a collective: with the fold applied by hand (the
    ///   guard of the loop's collective dropped) the reference reports
    ///   `sync-deadlock` for `corpus/hang-f7163bc7.ptx` (which hangs at
    ///   -O4), and for `corpus/hang-fault-h200.ptx` (which faults at -O4)
    ///   lane 2 executing the final `shfl.sync` with membermask 0 that no
    ///   lane reaches otherwise (`not-in-membermask`). Both hold this
    ///   idiom.
    /// - `guard-redefined-by-collective` gives wrong values only:
    ///   `hang-fault-h200` holds its idiom too, but with its mistake
    ///   applied by hand (the guarded `setp` moved after the collective
    ///   that redefines its guard) the reference runs it cleanly, every
    ///   lane exiting before the mask-0 `shfl.sync`: that fault is the
    ///   fold's.
    /// - `loop-guard-rewritten-hangs` hangs, `zero-membermask-collective-faults`
    ///   faults, and the other idioms give wrong values.
    pub fn effects(self) -> &'static [Effect] {
        match self {
            Idiom::GuardFoldedAfterExit => &[Effect::WrongValue, Effect::Hang, Effect::Fault],
            Idiom::LoopGuardRewrittenHangs => &[Effect::Hang],
            Idiom::ZeroMembermaskCollectiveFaults => &[Effect::Fault],
            Idiom::GuardRedefinedByCollective
            | Idiom::UnusedCollectiveSplitsWarp
            | Idiom::LoopWriteHoistedAboveExit
            | Idiom::ShuffleOfShuffledImmediate
            | Idiom::ShiftAmountConvertedFromF32 => &[Effect::WrongValue],
        }
    }

    /// Whether programs with this idiom were seen to hang or fault: a
    /// batch holding one may lose its process or context on the GPU.
    pub fn may_stop_the_gpu(self) -> bool {
        self.effects()
            .iter()
            .any(|e| matches!(e, Effect::Hang | Effect::Fault))
    }
}

/// The idioms `prog` has.
pub fn idioms(prog: &Program) -> Vec<Idiom> {
    Idiom::ALL
        .into_iter()
        .filter(|i| i.find(prog).is_some())
        .collect()
}

/// The idioms `prog` has that were seen to have `effect` ([`Idiom::effects`]):
/// the known bugs a GPU finding of that kind on `prog` may be, in
/// [`Idiom::ALL`]'s order; empty when it is none of them.
pub fn known_for(prog: &Program, effect: Effect) -> Vec<Idiom> {
    idioms(prog)
        .into_iter()
        .filter(|i| i.effects().contains(&effect))
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
    // An immediate membermask other than 0: the later collective whose
    // groups the dropped one leaves behind (a mask of 0 no lane can run is
    // the fault shape's, not this).
    let immediate = |m: &Operand| matches!(m, Operand::Imm(v) if *v != 0);
    for (i, inst) in prog.insts.iter().enumerate() {
        if !matches!(inst.op, Op::Match(_) | Op::Vote(_) | Op::Redux(_)) {
            continue;
        }
        // With a register membermask (per-lane groups: the
        // `WARPSYNC.EXCLUSIVE` left behind), any later immediate mask runs
        // per group; with an immediate one that is not the full mask, a
        // later full mask does.
        let splits: &dyn Fn(&Operand) -> bool = match inst.op.membermask() {
            Some(Operand::Reg(_)) => &immediate,
            Some(m) if !full(&m) => &full,
            _ => continue,
        };
        let unread = inst.op.dests().iter().all(|(d, _)| match d {
            crate::ir::Dest::Sink => true,
            crate::ir::Dest::Reg(d) => dead_after(prog, i, *d),
        });
        let later = prog.insts[i + 1..]
            .iter()
            .any(|x| x.op.membermask().is_some_and(|m| splits(&m)));
        if unread && later {
            return Some(i);
        }
    }
    None
}

/// Whether the value instruction `i` writes to `d` is never read: going
/// forward, an unguarded write of `d` comes before any read, or nothing
/// reads it at all; a loop around `i` that reads `d` anywhere keeps it
/// alive (the next trip may read it before the write).
fn dead_after(prog: &Program, i: usize, d: Reg) -> bool {
    if loops(prog)
        .iter()
        .any(|&(h, b)| h <= i && i <= b && prog.insts[h..=b].iter().any(|x| reads(x, d)))
    {
        return false;
    }
    for x in &prog.insts[i + 1..] {
        if reads(x, d) {
            return false;
        }
        if x.guard.is_none() && x.op.written().contains(&d) {
            return true;
        }
    }
    true
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

/// A `.sync` collective (one with a membermask).
fn is_sync_collective(op: &Op) -> bool {
    op.membermask().is_some()
}

fn shift_amount_from_f32(prog: &Program) -> Option<usize> {
    for inst in &prog.insts {
        let Op::Glue(Glue::Bin {
            op: BinOp::Shl | BinOp::Shr,
            ty,
            b: Operand::Reg(amount),
            ..
        }) = inst.op
        else {
            continue;
        };
        if ty.bits() != 64 {
            continue;
        }
        let f32_write = prog.insts.iter().position(|x| {
            matches!(x.op, Op::Glue(Glue::Mov { ty: Type::F32, d: Dest::Reg(d), .. }) if d == amount)
        });
        if f32_write.is_some() {
            return f32_write;
        }
    }
    None
}

fn loop_guard_rewritten(prog: &Program) -> Option<usize> {
    let waits_after = |b: usize| {
        prog.insts[b + 1..]
            .iter()
            .any(|x| x.op.membermask().is_some_and(|m| m != Operand::Imm(0)))
    };
    for (h, b) in loops(prog) {
        if !waits_after(b) {
            continue;
        }
        let body = &prog.insts[h..=b];
        for (k, x) in body.iter().enumerate() {
            let Some(g) = x.guard else { continue };
            if is_sync_collective(&x.op) && body.iter().any(|y| y.op.written().contains(&g.reg)) {
                return Some(h + k);
            }
        }
    }
    None
}

fn zero_membermask_after_register_mask(prog: &Program) -> Option<usize> {
    let first = prog
        .insts
        .iter()
        .position(|x| matches!(x.op.membermask(), Some(Operand::Reg(_))))?;
    prog.insts
        .iter()
        .enumerate()
        .skip(first + 1)
        .find(|(_, x)| x.op.membermask() == Some(Operand::Imm(0)))
        .map(|(j, _)| j)
}
