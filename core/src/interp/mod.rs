//! The reference interpreter: one warp of 32 lanes, per-lane values with
//! their *defined bits*, min-PC scheduling, waiting `.sync` collectives,
//! fuel, and undefined behaviour as an outcome of the program.
//!
//! # The execution model (sm_70 and later)
//!
//! Since sm_70 the threads of a warp are scheduled independently and PTX
//! promises no reconvergence. The interpreter runs *one* legal execution —
//! deterministic **min-PC**: among the lanes that can run, those with the
//! lowest program counter execute the next instruction together (they are
//! *converged* there) — and decides with the rules below which programs are
//! legal and which results every legal execution shares. See
//! [`schedule`] for the scheduler and the rendezvous of `.sync`
//! collectives, [`converge`] for what is certain about which lanes run
//! together, and [`bits`] for definedness below the lane.
//!
//! - A `.sync` collective is a **rendezvous**: "`shfl.sync` will cause
//!   executing thread to wait until all non-exited threads corresponding to
//!   `membermask` have executed `shfl.sync` with the same qualifiers and
//!   same `membermask` value before resuming execution" (and likewise the
//!   `vote.sync`, `match.sync` and `redux.sync` pages). The lanes that
//!   reach it wait while the others run on; it executes once every member
//!   has arrived — at this instruction or another with the same qualifiers
//!   and `membermask`, as an H200 does — or exited. Members that can never
//!   arrive are undefined behaviour (`sync-deadlock`).
//! - Values that depend on which lanes happen to run together
//!   (`activemask`, what the deprecated `shfl`/`vote` see of other lanes)
//!   are defined only on the bits every legal schedule agrees on.
//! - A guard `@p` that is false makes a converged lane *predicated off*: it
//!   does not execute, and moves on with the others; at a `.sync`
//!   collective it does not arrive (it may arrive later or exit).
//!
//! For `.target sm_6x` and below, the warp runs in lockstep: min-PC is the
//! hardware's schedule, so convergence-dependent values are defined, and
//! "all threads in `membermask` must execute the same `shfl.sync`
//! instruction in convergence" (no waiting).
//!
//! The semantics of each instruction family live in their own file and
//! follow the PTX ISA pages' formulas.

mod activemask;
pub mod alu;
pub(crate) mod bits;
mod collective;
pub(crate) mod converge;
mod engine;
mod float;
mod fuel;
mod grid;
mod matching;
pub mod memory;
mod redux;
pub(crate) mod schedule;
mod shfl;
mod target;
pub mod thread;
mod vote;

pub use engine::InterpEngine;
pub use fuel::{OutOfFuel, DEFAULT_FUEL};
pub use grid::{prepare, run_launch};

use crate::ir::*;
use crate::outcome::{Outcome, Seen};
use crate::ub::Ub;
use bits::Val;
use converge::{Convergence, Trace};
use schedule::Lane;

/// The reference interpreter for one program.
#[derive(Clone, Debug)]
pub struct Interp<'p> {
    prog: &'p Program,
    fuel: u64,
    second_pass: bool,
}

impl<'p> Interp<'p> {
    /// An interpreter for `prog` with [`DEFAULT_FUEL`].
    pub fn new(prog: &'p Program) -> Self {
        Interp {
            prog,
            fuel: DEFAULT_FUEL,
            second_pass: true,
        }
    }

    /// Runs once only: values whose definedness needs the second run
    /// (which lanes come to an instruction later, see [`converge`]) stay
    /// undefined on those bits. Cheaper; what the generator's probes use,
    /// as they only need the path and a safe view of what is defined.
    pub fn single_pass(mut self) -> Self {
        self.second_pass = false;
        self
    }

    /// Sets the fuel (maximum warp steps).
    pub fn with_fuel(mut self, fuel: u64) -> Self {
        self.fuel = fuel;
        self
    }

    /// Runs one warp on `inputs`. With [`Inputs::fuel`] the run is bounded
    /// to that many warp steps and stopping is an outcome
    /// ([`Outcome::stop`]); without, the fuel is this interpreter's and
    /// running out is [`OutOfFuel`].
    ///
    /// When the first run leaves values defined only in part for want of
    /// knowing which lanes come to an instruction later (see
    /// [`converge`]), a second run, taking the same path, knows it (unless
    /// the answers show nothing more certain than the first run assumed).
    pub fn run(&self, inputs: &Inputs) -> Result<Outcome, OutOfFuel> {
        Ok(self.run_keeping(inputs)?.0)
    }

    /// [`Interp::run`], also returning what its second run knew (when the
    /// run had no undefined behaviour), for [`Interp::run_reusing`].
    pub fn run_keeping(&self, inputs: &Inputs) -> Result<(Outcome, Option<Answers>), OutOfFuel> {
        let trace = if self.second_pass {
            Trace::default()
        } else {
            Trace::one_pass()
        };
        let (first, trace) = self.run_once(inputs, trace)?;
        if !self.second_pass || first.ub.is_some() {
            return Ok((first, None));
        }
        let exact = |path| Some(Answers { trace: None, path });
        if !trace.has_questions() {
            return Ok((first, exact(trace.path())));
        }
        let answered = trace.answered();
        if !answered.knows_more() {
            return Ok((first, exact(trace.path())));
        }
        let (second, again) = self.run_once(inputs, answered.share())?;
        let answers = second.ub.is_none().then(|| Answers {
            trace: Some(answered),
            path: again.path(),
        });
        Ok((second, answers))
    }

    /// Runs `inputs` in one pass with the answers of an earlier run of
    /// this program ([`Interp::run_keeping`]) on inputs that agree with
    /// these on every register that can reach control flow, a collective's
    /// participation or a `membermask` ([`crate::gen::control_regs`]): such
    /// runs take the same path for the scheduler, so they ask the same
    /// questions with the same answers. The run's path fingerprint is
    /// checked against the earlier run's; where they differ (inputs that
    /// do not agree after all), the full [`Interp::run`] answers instead.
    pub fn run_reusing(&self, inputs: &Inputs, answers: &Answers) -> Result<Outcome, OutOfFuel> {
        let trace = answers
            .trace
            .as_ref()
            .map_or_else(Trace::default, Trace::share);
        match self.run_once(inputs, trace) {
            Ok((out, t)) if out.ub.is_none() && t.path() == answers.path => Ok(out),
            _ => self.run(inputs),
        }
    }

    fn run_once(&self, inputs: &Inputs, trace: Trace) -> Result<(Outcome, Trace), OutOfFuel> {
        let prog = self.prog;
        let mut w = Warp::new(prog, trace);
        for (r, v) in &inputs.lanes {
            let f = &mut w.regs[r.index()];
            f.vals = v.map(|x| x & f.mask);
            f.vbits = [f.mask; WARP];
        }
        if let Some(ub) = target::check(prog) {
            return Ok(w.finish(Some(ub), 0));
        }
        match inputs.fuel {
            Some(n) => schedule::run(w, n, true),
            None => schedule::run(w, self.fuel, false),
        }
    }
}

/// What a run learnt about which lanes are certainly absent where (see
/// [`converge`]), with its path fingerprint: [`Interp::run_reusing`] runs
/// the same program on inputs that differ only in data in one pass.
#[derive(Clone, Debug)]
pub struct Answers {
    /// The answered questions, when the run needed its second pass;
    /// `None` when the first pass was exact.
    trace: Option<Trace>,
    /// The fingerprint of the pass whose outcome the run returned.
    path: u64,
}

/// Iterates over the lane indices set in `mask`.
pub(crate) fn lanes(mask: u32) -> Lanes {
    Lanes(mask)
}

/// The lane indices set in a mask, lowest first (the order every caller
/// relies on): [`lanes`]. It knows how many are left, so that collecting
/// per-lane results allocates once.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Lanes(u32);

impl Iterator for Lanes {
    type Item = usize;

    #[inline]
    fn next(&mut self) -> Option<usize> {
        if self.0 == 0 {
            return None;
        }
        let l = self.0.trailing_zeros() as usize;
        self.0 &= self.0 - 1;
        Some(l)
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        let n = self.0.count_ones() as usize;
        (n, Some(n))
    }
}

impl ExactSizeIterator for Lanes {}

/// The mask of the lanes of `mask` where `f` holds.
pub(crate) fn lanes_where(mask: u32, mut f: impl FnMut(usize) -> bool) -> u32 {
    lanes(mask).filter(|&l| f(l)).fold(0, |m, l| m | 1 << l)
}

/// One register of the warp, on every lane: what is read and written
/// together, in one place (one bounds check and one cache neighbourhood
/// per access: reading and writing registers was a fifth of a fuzzing
/// run's interpretation, issue #14).
struct RegFile {
    /// Per lane, the value's bits (within `mask`).
    vals: [u64; WARP],
    /// Per lane, the defined bits (within `mask`).
    vbits: [u64; WARP],
    /// Per lane, which instruction wrote the value ([`Outcome::writer`]).
    writer: [u32; WARP],
    /// The lanes holding a NaN whose bits PTX leaves open
    /// ([`Outcome::nan_open`]).
    open: u32,
    /// The register type's mask ([`Type::mask`]).
    mask: u64,
}

/// The mutable state of the warp.
pub(crate) struct Warp<'p> {
    prog: &'p Program,
    /// Per register, its lanes.
    regs: Vec<RegFile>,
    /// Each lane's program counter (where it resumes when it waits).
    pub(crate) pc: [usize; WARP],
    /// Each lane's scheduling state.
    pub(crate) lane: [Lane; WARP],
    /// Lanes that have exited.
    pub(crate) exited: u32,
    /// Index of the instruction being executed (for `writer`).
    cur: usize,
    /// What is certain about which lanes run together.
    pub(crate) conv: Convergence,
    /// Per instruction, how it was executed ([`Outcome::seen`]).
    pub(crate) seen: Vec<Seen>,
    /// A kernel's warp: its place in the launch and the memory.
    pub(crate) kernel: Option<Box<memory::Ctx>>,
}

/// What one step sees: the instruction and which lanes are where.
pub(crate) struct Step<'a> {
    /// The instruction.
    pub inst: &'a Inst,
    /// Its index.
    pub pc: usize,
    /// Lanes converged at this instruction (executing or predicated off).
    pub conv: u32,
    /// Lanes executing it (converged and guard true and defined).
    pub exec: u32,
    /// Converged lanes whose guard is undefined: they may or may not
    /// execute it.
    pub maybe: u32,
    /// The `.target` of the program.
    pub target: Target,
}

impl<'p> Warp<'p> {
    /// The initial state: every lane at the first instruction, nothing
    /// defined, the whole warp certainly converged.
    fn new(prog: &'p Program, trace: Trace) -> Self {
        Warp {
            prog,
            regs: prog
                .regs
                .iter()
                .map(|d| RegFile {
                    vals: [0; WARP],
                    vbits: [0; WARP],
                    writer: [0; WARP],
                    open: 0,
                    mask: d.ty.mask(),
                })
                .collect(),
            pc: [0; WARP],
            lane: [Lane::Running; WARP],
            exited: 0,
            cur: 0,
            conv: Convergence::new(prog.target, trace),
            seen: vec![Seen::default(); prog.insts.len()],
            kernel: None,
        }
    }

    /// The run's result, and the trace for a second run.
    pub(crate) fn finish(mut self, ub: Option<Ub>, steps: u64) -> (Outcome, Trace) {
        let trace = std::mem::take(&mut self.conv.trace);
        (self.outcome(ub, steps), trace)
    }

    /// The run's result.
    fn outcome(self, ub: Option<Ub>, steps: u64) -> Outcome {
        let regs = &self.regs;
        Outcome {
            values: regs.iter().map(|f| f.vals).collect(),
            defined: regs
                .iter()
                .map(|f| lanes_where(u32::MAX, |l| f.vbits[l] & f.mask == f.mask))
                .collect(),
            defined_bits: regs.iter().map(|f| f.vbits).collect(),
            open: regs.iter().map(|f| f.open).collect(),
            exited: self.exited,
            ub,
            steps,
            writer: regs.iter().map(|f| f.writer).collect(),
            stop: None,
            seen: self.seen,
        }
    }

    /// The program.
    pub(crate) fn prog(&self) -> &'p Program {
        self.prog
    }

    /// Reads operand `o` on `lane` for an instruction that uses its bits: a
    /// NaN whose bits PTX leaves open ([`Outcome::nan_open`]) reads as
    /// undefined, since the result would depend on bits no rule fixes.
    #[inline]
    pub(crate) fn read(&self, o: Operand, lane: usize) -> Val {
        let v = self.read_keep_nan(o, lane);
        v.only_if(!self.is_open(o, lane))
    }

    /// Whether operand `o` is, on `lane`, a NaN whose bits PTX leaves open.
    #[inline]
    pub(crate) fn is_open(&self, o: Operand, lane: usize) -> bool {
        match o {
            Operand::Reg(r) => self.regs[r.index()].open >> lane & 1 == 1,
            Operand::NotPred(_) | Operand::Imm(_) | Operand::LaneId => false,
        }
    }

    /// Reads operand `o` on `lane` for an instruction that only copies its
    /// bits or looks at them as an f32 (where every NaN acts alike): an
    /// open NaN stays defined (pair with [`Warp::is_open`]).
    #[inline]
    pub(crate) fn read_keep_nan(&self, o: Operand, lane: usize) -> Val {
        match o {
            Operand::Reg(r) => {
                let f = &self.regs[r.index()];
                Val {
                    v: f.vals[lane],
                    d: f.vbits[lane],
                }
            }
            Operand::NotPred(r) => {
                let f = &self.regs[r.index()];
                Val {
                    v: !f.vals[lane] & 1,
                    d: f.vbits[lane],
                }
            }
            Operand::Imm(v) => Val::known(v),
            Operand::LaneId => Val::known(lane as u64),
        }
    }

    /// Whether `lane` of `r` was never written: no `.lanes` input and no
    /// instruction has written it. The PTX compiler treats such a register
    /// as a fresh unknown at every read (it read one never-written `setp`
    /// operand from two different predicate registers on the H200:
    /// `corpus/cases/never-written-read-twice-h200.ptx`), so what is
    /// computed from it is undefined even where the other operand would
    /// decide the result.
    #[inline]
    pub(crate) fn never_written(&self, r: Reg, lane: usize) -> bool {
        let f = &self.regs[r.index()];
        f.writer[lane] == 0 && f.vbits[lane] == 0
    }

    /// Writes a fully undefined value computed from a never-written
    /// register: it counts as never written itself (see
    /// [`Warp::never_written`]).
    pub(crate) fn write_wild(&mut self, d: Dest, lane: usize) {
        self.write(d, lane, Val::unknown());
        if let Dest::Reg(r) = d {
            self.regs[r.index()].writer[lane] = 0;
        }
    }

    /// Writes `v` to `d` on `lane` (value and defined bits masked to the
    /// register's width).
    #[inline]
    pub(crate) fn write(&mut self, d: Dest, lane: usize, v: Val) {
        if let Dest::Reg(r) = d {
            let writer = self.cur as u32 + 1;
            let f = &mut self.regs[r.index()];
            f.vals[lane] = v.v & f.mask;
            f.vbits[lane] = v.d & f.mask;
            f.writer[lane] = writer;
            f.open &= !(1 << lane);
        }
    }

    /// [`Warp::write`], marking the value a NaN whose bits PTX leaves open
    /// when `open` (and it is fully defined).
    #[inline]
    pub(crate) fn write_nan(&mut self, d: Dest, lane: usize, v: Val, open: bool) {
        self.write(d, lane, v);
        if let (Dest::Reg(r), true) = (d, open) {
            if v.full(self.prog.decl(r).ty) {
                self.regs[r.index()].open |= 1 << lane;
            }
        }
    }

    /// Writes per-lane results computed before any write (so that a
    /// destination may alias a source).
    pub(crate) fn write_all(&mut self, d: Dest, results: &[(usize, Val)]) {
        for &(l, v) in results {
            self.write(d, l, v);
        }
    }

    /// Marks every destination of the instruction at `pc` undefined on
    /// `mask` (a guard that is undefined there: the lane may or may not
    /// have written it).
    pub(crate) fn clobber(&mut self, pc: usize, mask: u32) {
        if mask == 0 {
            return;
        }
        let inst = &self.prog.insts[pc];
        self.cur = pc;
        for (d, _) in inst.op.dests() {
            for l in lanes(mask) {
                self.write(d, l, Val::unknown());
            }
        }
    }

    /// Sets the instruction whose writes follow (for `writer`).
    pub(crate) fn at(&mut self, pc: usize) {
        self.cur = pc;
    }
}
