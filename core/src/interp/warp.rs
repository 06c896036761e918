//! The warp's state while the interpreter runs it ([`Warp`]): every
//! register on every lane with its defined bits, each lane's program
//! counter and where it stands ([`Lane`]: running, waiting at a `.sync`
//! collective with its [`Arrival`], at a barrier, done, exited, absent),
//! what is certain about convergence, a kernel's memory and the run's
//! observer ([`Watch`]); and what one warp step sees ([`Step`]) and one
//! completed rendezvous ([`Rendezvous`]). Reading and writing operands go through it.

use super::bits::Val;
use super::converge::{Convergence, Trace};
use super::lanes::{lanes, lanes_where};
use super::memory::Ctx;
use crate::ir::{Dest, Inputs, Inst, Operand, Program, Reg, Target, WARP};
use crate::outcome::{Outcome, Seen};
use crate::ub::Ub;
use std::any::Any;

/// Where a lane stands.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Lane {
    /// It runs when its pc is the lowest.
    Running,
    /// It has arrived at the `.sync` collective at its pc and waits for
    /// the other members.
    Waiting(Arrival),
    /// It ran off the end of the program (without `exit`).
    Done,
    /// It executed `exit`.
    Exited,
    /// It executed `bar.sync` at its pc and waits for the CTA.
    AtBarrier,
    /// It does not exist: a launch whose block is not a multiple of 32
    /// leaves the last warp's upper lanes out. It never runs, is not waited
    /// for, and is not an exited lane.
    Absent,
}

/// A lane's arrival at a `.sync` collective (at its pc).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Arrival {
    /// The collective's qualifiers
    /// ([`Op::rendezvous_key`](crate::ir::Op::rendezvous_key)).
    pub key: u32,
    /// Its `membermask` value (the bits this schedule gives).
    pub mask: u32,
    /// Some bits of the `membermask` were undefined (it came from
    /// `activemask` after a divergence): who takes part depends on the
    /// schedule, so the results are undefined.
    pub unsure: bool,
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
    /// The register type's mask ([`Type::mask`](crate::ir::Type::mask)).
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
    pub(crate) kernel: Option<Box<Ctx>>,
    /// An observer of the run (`warpdiff check`), if any.
    pub(crate) watch: Option<Box<dyn Watch>>,
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

/// The participants of one completed rendezvous (what a `.sync`
/// collective's run sees, as [`Step`] is what a step sees).
pub(crate) struct Rendezvous {
    /// Every participant (the members that had not exited).
    pub lanes: u32,
    /// Each participant's instruction (its pc).
    pub pc: [usize; WARP],
    /// Results are undefined: some `membermask` bits were.
    pub unsure: bool,
}

/// An observer of a run (`warpdiff check`, [`crate::sanitize`]): called
/// before and after each warp step and around each completed `.sync`
/// rendezvous, with read access to the warp (`watch.rs` calls it). It is
/// declared here, with the warp that holds it, so that no file imports
/// one that imports it back.
pub(crate) trait Watch: Send {
    /// The lanes `conv` are about to execute the instruction at `pc`.
    fn before(&mut self, w: &Warp, pc: usize, conv: u32);
    /// The lanes `conv` executed the instruction at `pc` (a `.sync`
    /// collective only arrived there: its results come with
    /// [`Watch::after_rendezvous`]). `ub` says whether the step ended the
    /// run with undefined behaviour.
    fn after(&mut self, w: &Warp, pc: usize, conv: u32, ub: bool);
    /// A rendezvous completed and is about to run.
    fn before_rendezvous(&mut self, w: &Warp, rv: &Rendezvous);
    /// The rendezvous ran: its participants' results are written.
    fn after_rendezvous(&mut self, w: &Warp, rv: &Rendezvous);
    /// The observer, to take back its concrete type at the end.
    fn into_any(self: Box<Self>) -> Box<dyn Any>;
}

impl<'p> Warp<'p> {
    /// The initial state: every lane at the first instruction, nothing
    /// defined, the whole warp certainly converged.
    pub(super) fn new(prog: &'p Program, trace: Trace) -> Self {
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
            watch: None,
        }
    }

    /// Gives the registers of `inputs` their values on every lane, every
    /// bit defined (the start of a run).
    pub(super) fn load(&mut self, inputs: &Inputs) {
        for (r, v) in &inputs.lanes {
            let f = &mut self.regs[r.index()];
            f.vals = v.map(|x| x & f.mask);
            f.vbits = [f.mask; WARP];
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
