//! What is certain about which lanes run together, whatever the schedule.
//!
//! PTX promises no reconvergence on sm_70 and later, and an H200 shows it
//! (`corpus/*-h200.ptx`, from `lower/gpu/experiments/convergence.py`:
//! every kernel launched 20 times at -O0 and -O3, with and without a
//! per-lane `nanosleep` before each collective):
//!
//! - at kernel start the whole warp ran together in every run
//!   (`activemask` = `0xffffffff`);
//! - lanes that branched the same way stayed together on their side of the
//!   branch in every run (the `activemask` inside an if/else arm, or inside
//!   a loop body, was the same in every run);
//! - at a join after a branch, and after a loop whose trip counts differ,
//!   the two sides were together in unperturbed runs (min-PC's answer) but
//!   apart in perturbed ones: a join is *not* a certain reconvergence;
//! - right after a `.sync` collective its participants ran together in
//!   every run of those kernels (`activemask` after a full-mask
//!   `vote.sync` was `0xffffffff` in all 20 runs), but not in general:
//!   `warpdiff fuzz` at -O0 on the H200 (2026-11-23) found
//!   `@%p bra L; L: redux.sync.max.s32 _, 0, 0xffffffff; activemask`
//!   giving `0xf5ffffff` with the branch taken by lanes 25 and 27 alone
//!   (`corpus/cases/activemask-after-sync-apart-h200.ptx`): a rendezvous
//!   waits, it does not reconverge.
//!
//! # Certainly together
//!
//! Each lane `l` carries `cert[l]`: the lanes certainly converged with it.
//! It starts as the whole warp and only ever shrinks: it is split by every
//! branch that splits a converged group (each side keeps its own) and by
//! every completed `.sync` collective (its participants part from the
//! lanes that did not take part). Nothing merges it again: not a join, and
//! not a rendezvous either (see below).
//!
//! # Certainly not together: happens-before
//!
//! A lane `k` outside `cert[l]` may still be certainly *absent* when `l`
//! executes an instruction `X`: when every execution of `X` by `k` is
//! ordered before or after this one. Order comes from running together
//! (lanes certainly converged execute in lockstep) and from rendezvous
//! (every participant's arrival precedes every participant's departure).
//! Each lane keeps a vector clock: `vc[l][k]` = how many of `k`'s steps are
//! known to precede `l`'s next one. So inside a loop whose trip counts
//! differ, a lane that left the loop earlier is certainly absent from the
//! later iterations' `activemask` (its iterations all ran, in lockstep,
//! before), which matches the H200; at the join after an if/else the two
//! sides are unordered, so neither is certain.
//!
//! Whether `k` executes `X` *later* is only known at the end of the run, so
//! the interpreter runs twice when it matters ([`Trace`]): the first run
//! records each query and each execution of the queried instructions with
//! its clock; the second run, which takes exactly the same path (control
//! flow never depends on what is undefined, or the run is UB), uses the
//! answers.
//!
//! For `.target sm_6x` and below the warp runs in lockstep: min-PC is the
//! hardware's schedule, so every converged lane is certain.

use super::lanes::lanes;
use crate::fxhash::FxHashMap as HashMap;
use crate::ir::{FloatOp, IntOp, LaneOp, LaneOpKind, Target, WARP};
use std::sync::Arc;

/// A vector clock: per lane, how many of its steps are known to precede.
type Clock = [u32; WARP];

/// The certainty state of the warp.
///
/// The vector clocks are kept cheaply: lanes certainly together run in
/// lockstep, so `l` knows exactly the steps of every lane in `cert[l]`
/// (`steps[k]`), and its stored `vc[l][k]` matters only for lanes outside
/// it — frozen when they part, raised at a rendezvous. A step then costs
/// one counter per lane; splits and rendezvous cost a row per lane.
///
/// Only a first run that records for a second reads the clocks (each
/// question and each execution of a queried instruction is recorded with
/// its lane's clock); a second run, a run reusing answers and a one-pass
/// run keep none, and their splits and rendezvous update `cert` only.
#[derive(Clone, Debug)]
pub(crate) struct Convergence {
    /// `.target` below sm_70: lockstep, everything converged is certain.
    lockstep: bool,
    /// Whether this run keeps the vector clocks (`steps`, `vc`).
    clocks: bool,
    /// Per lane, the lanes certainly converged with it (itself included).
    cert: [u32; WARP],
    /// Per lane, how many steps it has taken.
    steps: Clock,
    /// Per lane, what it knows of the lanes outside `cert[l]` (empty when
    /// the run keeps no clocks).
    vc: Vec<Clock>,
    /// Queries and executions of queried instructions (first run), or the
    /// answers (second run).
    pub(crate) trace: Trace,
}

/// One lane's question at an instruction: which lanes outside its certain
/// group are certainly absent?
#[derive(Clone, Debug)]
struct Query {
    lane: usize,
    pc: usize,
    /// How many times `lane` asked at `pc` before.
    nth: u32,
    /// Its clock before the step.
    clock: Clock,
    /// The lanes in question.
    open: u32,
}

/// One lane's execution of a queried instruction, with its clock before
/// the step.
#[derive(Clone, Debug)]
struct Execution {
    lane: usize,
    pc: usize,
    clock: Clock,
}

/// Per question (lane, pc, how many times it asked there before), the
/// lanes certainly absent.
type AnswerMap = HashMap<(usize, usize, u32), u32>;

/// What the two runs of a program share (see the module doc).
#[derive(Clone, Debug, Default)]
pub(crate) struct Trace {
    /// First run: the questions asked.
    queries: Vec<Query>,
    /// First run: each execution of a queried instruction.
    runs: Vec<Execution>,
    /// Second run: per (lane, pc, nth), the lanes certainly absent. (The
    /// second run takes the same branches, but a guard defined only there
    /// may let other lanes execute an `activemask`: a question the first
    /// run did not ask is answered "none".)
    answers: Option<Arc<AnswerMap>>,
    /// Either run: how many times each lane asked at each pc so far, at
    /// `pc * WARP + lane`.
    asked: Vec<u32>,
    /// Either run: a fingerprint of every call that moved the certainty
    /// state or asked or recorded something ([`Trace::path`]).
    path: u64,
    /// A first run that will have no second ([`Trace::one_pass`]): it
    /// keeps no questions and no executions, which only a second run
    /// would read (an execution is a clock of 32 counters per lane).
    one_pass: bool,
}

impl Trace {
    /// Whether the first run asked anything that a second run can answer
    /// better.
    pub fn has_questions(&self) -> bool {
        self.answers.is_none() && self.queries.iter().any(|q| q.open != 0)
    }

    /// The answers to the first run's questions, as the trace of a second
    /// run: lane `k` is certainly absent from lane `l`'s step at `X` when
    /// each of `k`'s executions of `X` is ordered before it (`k`'s count
    /// in `l`'s clock covers it) or after it (its clock covers `l`'s step).
    pub fn answered(&self) -> Trace {
        // The executions grouped by (lane, instruction).
        let mut order: Vec<usize> = (0..self.runs.len()).collect();
        order.sort_by_key(|&i| (self.runs[i].lane, self.runs[i].pc));
        let mut ranges: HashMap<(usize, usize), (usize, usize)> = HashMap::default();
        for (n, &i) in order.iter().enumerate() {
            let e = &self.runs[i];
            ranges.entry((e.lane, e.pc)).or_insert((n, n)).1 = n + 1;
        }
        let answers = self
            .queries
            .iter()
            .map(|q| {
                let mine = q.clock[q.lane];
                let mut absent = 0u32;
                for k in lanes(q.open) {
                    let (from, to) = ranges.get(&(k, q.pc)).copied().unwrap_or((0, 0));
                    let ordered = order[from..to].iter().all(|&i| {
                        let c = &self.runs[i].clock;
                        c[k] < q.clock[k] || c[q.lane] > mine
                    });
                    if ordered {
                        absent |= 1 << k;
                    }
                }
                ((q.lane, q.pc, q.nth), absent)
            })
            .collect();
        Trace {
            answers: Some(Arc::new(answers)),
            ..Trace::default()
        }
    }

    /// The trace of a run that will have no second pass
    /// ([`super::Interp::single_pass`], the generator's probes): nothing
    /// is recorded for one, and every question is answered "none" (on a
    /// first run nothing is known yet).
    pub fn one_pass() -> Trace {
        Trace {
            one_pass: true,
            ..Trace::default()
        }
    }

    /// These answers again, for another run (they are shared, not copied).
    pub fn share(&self) -> Trace {
        Trace {
            answers: self.answers.clone(),
            ..Trace::default()
        }
    }

    /// A fingerprint of the run's certainty path: every split, exit,
    /// rendezvous and step, every question and every execution of a
    /// queried instruction, with its lanes. Two runs with the same answers
    /// and the same fingerprint went the same way for the scheduler, so
    /// they asked the same questions with the same clocks.
    pub fn path(&self) -> u64 {
        self.path
    }

    /// Mixes `x` into the fingerprint.
    fn note(&mut self, x: u64) {
        self.path = (self.path.rotate_left(5) ^ x).wrapping_mul(0x51_7c_c1_b7_27_22_0a_95);
    }

    /// Whether these answers (from [`Trace::answered`]) call some lane
    /// certainly absent. When none does, a second run would answer every
    /// question as the first run did (nothing certain) and take the same
    /// path: its outcome would be the first run's.
    pub fn knows_more(&self) -> bool {
        self.answers
            .as_ref()
            .is_some_and(|a| a.values().any(|&absent| absent != 0))
    }
}

impl Convergence {
    /// At kernel start: the whole warp together, no step taken; `trace` is
    /// empty on a first run and holds the answers on a second.
    pub fn new(target: Target, trace: Trace) -> Self {
        let lockstep = target.sm < 70;
        let clocks = !lockstep && trace.answers.is_none() && !trace.one_pass;
        Convergence {
            lockstep,
            clocks,
            cert: [u32::MAX; WARP],
            steps: [0; WARP],
            vc: if clocks {
                vec![[0; WARP]; WARP]
            } else {
                Vec::new()
            },
            trace,
        }
    }

    /// The *spec* convergence model (`warpdiff check`'s default, issue
    /// #38): only what the ISA and the programming guide promise. No lane
    /// is certainly with another, not even at kernel start ("threads that
    /// are convergent at one point need not be at the next"), and order
    /// comes from rendezvous alone. Lockstep targets keep lockstep.
    pub fn spec_model(&mut self) {
        if !self.lockstep {
            for (l, c) in self.cert.iter_mut().enumerate() {
                *c = 1 << l;
            }
        }
    }

    /// Whether the warp runs in lockstep (`.target` below sm_70).
    pub fn lockstep(&self) -> bool {
        self.lockstep
    }

    /// The lanes certainly executing an instruction together with `l`,
    /// which `conv` (the min-PC group) executes now.
    pub fn with(&self, l: usize, conv: u32) -> u32 {
        if self.lockstep {
            conv
        } else {
            self.cert[l] & conv
        }
    }

    /// `l`'s vector clock: how many steps of each lane precede its next.
    fn clock(&self, l: usize) -> Clock {
        select_lanes(self.cert[l], &self.steps, &self.vc[l])
    }

    /// The lanes certainly *not* executing the instruction at `pc` together
    /// with `l` now, among `open` (the others are certain either way, or
    /// unknown). On the first run nothing is known yet; the second run
    /// knows the answer.
    pub fn absent(&mut self, l: usize, pc: usize, open: u32) -> u32 {
        self.trace.note(1 | (l as u64) << 8 | (pc as u64) << 16);
        self.trace.note(open as u64);
        if self.trace.one_pass {
            // Nothing is known on a first run, and no second run will ask.
            return 0;
        }
        let at = pc * WARP + l;
        if self.trace.asked.len() <= at {
            // Room for the questions of this instruction and the next
            // seven at once: fewer reallocations as the run moves on.
            self.trace
                .asked
                .resize((at + 1).next_multiple_of(8 * WARP), 0);
        }
        let n = self.trace.asked[at];
        self.trace.asked[at] += 1;
        match &self.trace.answers {
            Some(a) => a.get(&(l, pc, n)).copied().unwrap_or(0) & open,
            None => {
                let clock = self.clock(l);
                self.trace.queries.push(Query {
                    lane: l,
                    pc,
                    nth: n,
                    clock,
                    open,
                });
                0
            }
        }
    }

    /// Notes that `exec` execute the queried instruction at `pc` (before
    /// the step counts).
    pub fn executed(&mut self, pc: usize, exec: u32) {
        self.trace.note(2 | (exec as u64) << 8 | (pc as u64) << 40);
        // Only a recording first run keeps clocks (not a second pass, a
        // run reusing answers, a one-pass run or a lockstep target).
        if !self.clocks {
            return;
        }
        for lane in lanes(exec) {
            let clock = self.clock(lane);
            self.trace.runs.push(Execution { lane, pc, clock });
        }
    }

    /// After a step of the group `conv`: each lane took one.
    pub fn stepped(&mut self, conv: u32) {
        self.trace.note(3 | (conv as u64) << 8);
        if !self.clocks {
            return;
        }
        // Branch-free over every lane, so that it vectorizes (this runs at
        // every step).
        for (l, s) in self.steps.iter_mut().enumerate() {
            *s += conv >> l & 1;
        }
    }

    /// Lane `l` stops being certain of the lanes `leaving`: it remembers
    /// how far they got (when the run keeps clocks).
    fn part(&mut self, l: usize, leaving: u32) {
        if self.clocks {
            for k in lanes(self.cert[l] & leaving) {
                self.vc[l][k] = self.steps[k];
            }
        }
        self.cert[l] &= !leaving;
    }

    /// A group `conv` parts: `taken` goes one way, the rest the other
    /// (a branch, or a guard at a `.sync` collective).
    pub fn split(&mut self, conv: u32, taken: u32) {
        self.trace.note(4 | (conv as u64) << 8);
        self.trace.note(taken as u64);
        if taken == 0 || taken == conv {
            return;
        }
        for l in lanes(taken) {
            self.part(l, !taken);
        }
        for l in lanes(conv & !taken) {
            self.part(l, taken);
        }
    }

    /// The lanes `unsure` of the group `conv` ran an instruction under a
    /// guard that is undefined there: each may or may not have executed
    /// it, and the compiled code may branch on the guard (a predicated
    /// instruction can become a branch around it), so from that
    /// instruction on each is certainly with no other lane of the group,
    /// and no other lane with it (lanes whose guard holds may run it
    /// without them). The H200 at -O0 ran `@!%p1 activemask.b32 _` with `%p1` never
    /// written and then `activemask` gave lane 0 `1` and lanes 1-31
    /// `0xfffffffe` (`corpus/cases/activemask-after-undefined-guard-h200.ptx`).
    pub fn isolate(&mut self, conv: u32, unsure: u32) {
        self.trace.note(7 | (conv as u64) << 8);
        self.trace.note(unsure as u64);
        for l in lanes(conv & unsure) {
            self.part(l, conv & !(1 << l));
        }
        for l in lanes(conv & !unsure) {
            self.part(l, unsure);
        }
    }

    /// The lanes `exec` of the group `conv` ran an instruction whose
    /// machine code branches per lane ([`branches_per_lane`]): from it on
    /// each of them is certainly with no other lane of the group (as after
    /// an undefined guard, [`Convergence::isolate`]); the lanes that did not
    /// run it stay together. A guarded instruction with no side effect
    /// passes the whole group as `exec`: its code may run speculatively on
    /// the lanes whose guard is false.
    pub fn scatter(&mut self, conv: u32, exec: u32) {
        self.isolate(conv, exec);
    }

    /// The lanes `exec` of the group `conv` exit: they leave every group.
    pub fn exit(&mut self, conv: u32, exec: u32) {
        self.trace.note(5 | (conv as u64) << 8);
        self.trace.note(exec as u64);
        for l in lanes(conv & !exec) {
            self.part(l, exec);
        }
    }

    /// A `.sync` collective completed: its participants know each other's
    /// arrival (and everything any of them knew). It parts them from the
    /// lanes that did not take part (the H200 kept the groups of a
    /// collective run in disjoint groups apart afterwards:
    /// `corpus/activemask-split-after-groups-h200.ptx`), and it does *not*
    /// make them run together: the spec promises only the wait, and the
    /// H200 at -O0 ran the two sides of an earlier branch apart right after
    /// a full-mask `redux.sync`
    /// (`corpus/cases/activemask-after-sync-apart-h200.ptx`). So `cert`
    /// only shrinks here.
    ///
    /// When `unsure` (some `membermask` bit was undefined: a mask read
    /// from `activemask` after a divergence), who met whom at this
    /// rendezvous is the schedule's choice, so it orders nothing: the
    /// H200 at -O0 paired lanes 17 and 29 of
    /// `corpus/cases/activemask-unsure-rendezvous-orders-nothing-h200.ptx`
    /// at another iteration than min-PC did, and `activemask` saw lane 17
    /// where the clocks raised here had called it certainly absent.
    pub fn synced(&mut self, participants: u32, unsure: bool) {
        self.trace
            .note(6 | (unsure as u64) << 4 | (participants as u64) << 8);
        // The join of the participants' clocks (when the run keeps them). `clock(l)[k]` is
        // `steps[k]` for `k` in `cert[l]`, else `vc[l][k]`, which never
        // exceeds `steps[k]` (it is a count of `k`'s steps taken then): so
        // the join is `steps[k]` where some participant is certain of `k`,
        // else the largest `vc[l][k]` — computed without building each
        // clock (this was the interpreter's hottest function).
        let join = self.clocks.then(|| {
            let mut certain = 0u32;
            let mut m = [0u32; WARP];
            for l in lanes(participants) {
                certain |= self.cert[l];
                for (x, y) in m.iter_mut().zip(self.vc[l].iter()) {
                    *x = (*x).max(*y);
                }
            }
            select_lanes(certain, &self.steps, &m)
        });
        for l in 0..WARP {
            if participants >> l & 1 == 0 {
                self.part(l, participants);
            } else if let (false, Some(m)) = (unsure, join) {
                // Parting would freeze `vc[l]` on the leaving lanes, but it
                // is replaced by the join whole.
                self.cert[l] &= participants;
                self.vc[l] = m;
            } else {
                self.part(l, !participants);
            }
        }
    }
}

/// Per lane `k`: `a[k]` where bit `k` of `mask` is set, else `b[k]`
/// (branch-free, so that it vectorizes).
fn select_lanes(mask: u32, a: &Clock, b: &Clock) -> Clock {
    let mut c = [0u32; WARP];
    for k in 0..WARP {
        let m = 0u32.wrapping_sub(mask >> k & 1);
        c[k] = (a[k] & m) | (b[k] & !m);
    }
    c
}

/// Whether the PTX compilers implement `lane_op` with a routine of their
/// own, a slow path behind a per-lane test: the IEEE `div` and `sqrt`
/// (`.rn`/`.rz`/`.rm`/`.rp`, `.f32` and `.f64`) and integer `div`/`rem`.
/// In the relocatable compile of the driver's JIT linker (`ptxas -c`) it is
/// a `CALL.ABS.NOINC` (2026-11-28, H200: `sqrt.rz.ftz.f32`, `sqrt.rn.f32`,
/// `sqrt.rm.f64`, `div.rp.f32`, `rem.s16`), which is where bug N26 of
/// `docs/findings.md` loses a predicate.
pub fn calls_math_routine(lane_op: &LaneOp) -> bool {
    match lane_op.kind {
        LaneOpKind::Float { op, .. } => match op {
            FloatOp::Div | FloatOp::Sqrt => true,
            FloatOp::Approx(_)
            | FloatOp::Add
            | FloatOp::Sub
            | FloatOp::Mul
            | FloatOp::Fma
            | FloatOp::Neg
            | FloatOp::Abs
            | FloatOp::Min
            | FloatOp::Max => false,
        },
        LaneOpKind::Int(op) => match op {
            IntOp::Div | IntOp::Rem => true,
            IntOp::Bfind { .. }
            | IntOp::MulWide
            | IntOp::MadLo
            | IntOp::MadHi
            | IntOp::MadWide
            | IntOp::Neg
            | IntOp::Abs
            | IntOp::Brev
            | IntOp::Clz
            | IntOp::Bfe
            | IntOp::Bfi
            | IntOp::Prmt
            | IntOp::Bmsk { .. }
            | IntOp::Shf { .. } => false,
        },
        LaneOpKind::Special(_)
        | LaneOpKind::Cvt { .. }
        | LaneOpKind::FSetp(_)
        | LaneOpKind::Pack
        | LaneOpKind::Unpack
        | LaneOpKind::Ld(_)
        | LaneOpKind::St(_)
        | LaneOpKind::Cvta { .. }
        | LaneOpKind::Bar
        | LaneOpKind::Fence(_)
        | LaneOpKind::Atom(_) => false,
    }
}

/// Whether the machine code of a lane op may branch on each lane's values,
/// so that lanes that ran it together need not run on together: IEEE
/// division and square root have no single SASS instruction (the compiler
/// emits a reciprocal or reciprocal square root estimate, a refinement and
/// a check that branches to a slow path for the lanes whose operands need
/// it: zeros, infinities, subnormals, huge quotients), and integer division
/// and remainder call a routine with a fast path for small operands.
/// Under independent thread scheduling nothing makes the lanes converge
/// again after such a branch (the ISA promises no reconvergence): an H200
/// at -O0 gave `activemask` values of a subset of the lanes after
/// `sqrt.rn.f64`, `sqrt.rp.ftz.f32`, `div.rn.ftz.f32` and `div.rz.ftz.f32`
/// where the reference said every lane that ran them together was still
/// there (`warpdiff fuzz --gpu-opt-level 0` and `--gpu-perturb 7`, seeds
/// 0x3501 and 0x3502, 2026-11-27; `corpus/cases/activemask-after-sqrt-h200.ptx`).
/// A 64-bit `bfind` too: `ptxas` finds the high word's most significant
/// bit and branches per lane to the low word's where the high word is
/// zero (or all sign bits), at -O0 and at -O3 (`BSSY B0`, `@P0 BRA`,
/// `BSYNC B0` around the second `FLO.U32`; a 32-bit `bfind` is one `FLO`).
/// An H100 at -O0 gave `activemask` after `bfind.shiftamt.u64` of values
/// whose high words differ the two sides apart (0x5fffffff and
/// 0xa0000000) where the reference said the whole warp (`warpdiff fuzz
/// --gpu-opt-level 0 --seed 0x3709`, 2026-11-27;
/// `corpus/cases/activemask-after-bfind64-h100.ptx`, the SASS in
/// `docs/log/gpu-2026-11-27-g/`).
/// Everything else the lane ops do is one instruction or straight-line
/// code.
pub fn branches_per_lane(lane_op: &LaneOp) -> bool {
    if calls_math_routine(lane_op) {
        return true;
    }
    match lane_op.kind {
        LaneOpKind::Float { op, .. } => match op {
            // `ptxas` may expand an approximate function into a range
            // check and a slow path (`div.full`, `rsqrt.approx.f64` "is
            // emulated in software", subnormal scaling): as `div`.
            FloatOp::Approx(_) => true,
            FloatOp::Div
            | FloatOp::Sqrt
            | FloatOp::Add
            | FloatOp::Sub
            | FloatOp::Mul
            | FloatOp::Fma
            | FloatOp::Neg
            | FloatOp::Abs
            | FloatOp::Min
            | FloatOp::Max => false,
        },
        LaneOpKind::Int(op) => match op {
            IntOp::Bfind { .. } => lane_op.srcs.first().is_some_and(|(_, ty)| ty.bits() == 64),
            IntOp::Div
            | IntOp::Rem
            | IntOp::MulWide
            | IntOp::MadLo
            | IntOp::MadHi
            | IntOp::MadWide
            | IntOp::Neg
            | IntOp::Abs
            | IntOp::Brev
            | IntOp::Clz
            | IntOp::Bfe
            | IntOp::Bfi
            | IntOp::Prmt
            | IntOp::Bmsk { .. }
            | IntOp::Shf { .. } => false,
        },
        LaneOpKind::Special(_)
        | LaneOpKind::Cvt { .. }
        | LaneOpKind::FSetp(_)
        | LaneOpKind::Pack
        | LaneOpKind::Unpack
        | LaneOpKind::Ld(_)
        | LaneOpKind::St(_)
        | LaneOpKind::Cvta { .. }
        | LaneOpKind::Bar
        | LaneOpKind::Fence(_) => false,
        // ptxas may make an atomic a loop (a CAS loop for a float add on
        // shared memory) or a branch on the generic window: lanes may come
        // out of it apart.
        LaneOpKind::Atom(_) => true,
    }
}
