//! The reference interpreter: one warp of 32 lanes, per-lane values with a
//! *defined* bit, min-PC scheduling, fuel, and undefined behaviour as an
//! outcome of the program.
//!
//! Scheduling is deterministic *min-PC*: among the lanes that have not
//! exited, those with the lowest program counter execute the next
//! instruction together (they are *converged* there); all other non-exited
//! lanes are *inactive*. This reconverges forward branches at their join
//! point and loops with per-lane trip counts after the loop, which is where
//! an H200 was measured to reconverge (`shared/hw/converge-h200.txt`).
//! A guard `@p` that is false makes a converged lane *predicated off*: it
//! does not execute, and moves on with the others.
//!
//! The semantics of each instruction family live in their own file and
//! follow the PTX ISA pages' formulas.

mod activemask;
mod alu;
mod collective;
mod float;
mod matching;
mod redux;
mod shfl;
mod target;
mod ub;
mod vote;

pub use ub::{Ub, UbRule};

use crate::ir::*;
use std::fmt;

/// Default fuel: warp steps (instructions executed by a converged group).
pub const DEFAULT_FUEL: u64 = 1_000_000;

/// The final state of a run.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Outcome {
    /// Final value of every declared register on every lane (bits, masked
    /// to the register's width; `.pred` is 0 or 1).
    pub values: Vec<[u64; WARP]>,
    /// Per register, the mask of lanes whose value is defined.
    pub defined: Vec<u32>,
    /// Per register, the defined lanes whose value is a NaN whose bits PTX
    /// leaves open (see [`Outcome::nan_open`]); another engine matches
    /// there with any NaN. Empty for engines that do not track it.
    pub open: Vec<u32>,
    /// Lanes that executed `exit`.
    pub exited: u32,
    /// Set when the program hit undefined behaviour; then `values` are the
    /// state when it happened and mean nothing.
    pub ub: Option<Ub>,
    /// Warp steps executed.
    pub steps: u64,
    /// Per register and lane, which instruction wrote the final value:
    /// its index in `Program::insts` plus one, or 0 for an input or a
    /// register never written. Empty for engines that do not track it.
    pub writer: Vec<[u32; WARP]>,
}

impl Outcome {
    /// The value of register `r` on `lane`, or `None` where undefined.
    pub fn get(&self, r: Reg, lane: usize) -> Option<u64> {
        (self.defined[r.index()] >> lane & 1 == 1).then_some(self.values[r.index()][lane])
    }

    /// Whether register `r` holds on `lane` a NaN whose bits PTX does not
    /// fix: the result of an f32 `add/sub/mul/min/max/neg/abs` that is NaN,
    /// or a copy of one (`mov`, `selp`, `shfl`). On an H200 such results
    /// were canonical `0x7fffffff` at run time but kept the operand's bits
    /// when `ptxas` folded immediate operands (`abs.f32 %f, 0f7fc00000`
    /// gave `0x7fc00000`), so only "is a NaN" is compared there. The
    /// interpreter computes canonical NaN as their value.
    pub fn nan_open(&self, r: Reg, lane: usize) -> bool {
        self.open.get(r.index()).is_some_and(|m| m >> lane & 1 == 1)
    }
}

/// An interpreter error: the run could not produce an [`Outcome`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum RunError {
    /// The fuel ran out (the program may loop forever).
    OutOfFuel {
        /// Steps executed.
        steps: u64,
        /// Source line of the next instruction to run.
        line: u32,
    },
    /// An engine other than the interpreter could not run the program
    /// (a GPU driver error or hang), with its message.
    Engine(String),
}

impl fmt::Display for RunError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            RunError::OutOfFuel { steps, line } => write!(
                f,
                "out of fuel after {steps} warp steps at line {line} (does the program loop forever?)"
            ),
            RunError::Engine(m) => f.write_str(m),
        }
    }
}

impl std::error::Error for RunError {}

/// The reference interpreter for one program.
#[derive(Clone, Debug)]
pub struct Interp<'p> {
    prog: &'p Program,
    fuel: u64,
}

impl<'p> Interp<'p> {
    /// An interpreter for `prog` with [`DEFAULT_FUEL`].
    pub fn new(prog: &'p Program) -> Self {
        Interp {
            prog,
            fuel: DEFAULT_FUEL,
        }
    }

    /// Sets the fuel (maximum warp steps).
    pub fn with_fuel(mut self, fuel: u64) -> Self {
        self.fuel = fuel;
        self
    }

    /// Runs one warp on `inputs`.
    pub fn run(&self, inputs: &Inputs) -> Result<Outcome, RunError> {
        let prog = self.prog;
        let n = prog.regs.len();
        let mut w = Warp {
            prog,
            vals: vec![[0; WARP]; n],
            def: vec![0; n],
            open: vec![0; n],
            pc: [0; WARP],
            exited: 0,
            writer: vec![[0; WARP]; n],
            cur: 0,
            split: false,
        };
        for (r, v) in &inputs.lanes {
            let m = prog.decl(*r).ty.mask();
            w.vals[r.index()] = v.map(|x| x & m);
            w.def[r.index()] = u32::MAX;
        }
        let mut steps = 0;
        let outcome = |w: Warp, ub, steps| Outcome {
            values: w.vals,
            defined: w.def,
            open: w.open,
            exited: w.exited,
            ub,
            steps,
            writer: w.writer,
        };
        if let Some(ub) = target::check(prog) {
            return Ok(outcome(w, Some(ub), 0));
        }
        loop {
            let live = !w.exited;
            let Some(pc) = lanes(live).map(|l| w.pc[l]).min() else {
                break;
            };
            if pc >= prog.insts.len() {
                break;
            }
            if steps == self.fuel {
                return Err(RunError::OutOfFuel {
                    steps,
                    line: prog.insts[pc].line,
                });
            }
            steps += 1;
            let conv = lanes(live)
                .filter(|&l| w.pc[l] == pc)
                .fold(0u32, |m, l| m | 1 << l);
            if let Err(ub) = w.step(pc, conv) {
                return Ok(outcome(w, Some(ub), steps));
            }
        }
        Ok(outcome(w, None, steps))
    }
}

/// Iterates over the lane indices set in `mask`.
pub(crate) fn lanes(mask: u32) -> impl Iterator<Item = usize> {
    (0..WARP).filter(move |l| mask >> l & 1 == 1)
}

/// The mutable state of the warp.
pub(crate) struct Warp<'p> {
    prog: &'p Program,
    vals: Vec<[u64; WARP]>,
    def: Vec<u32>,
    /// Per register, the lanes holding a NaN whose bits PTX leaves open
    /// ([`Outcome::nan_open`]).
    open: Vec<u32>,
    pc: [usize; WARP],
    exited: u32,
    writer: Vec<[u32; WARP]>,
    /// Index of the instruction being executed.
    cur: usize,
    /// Set once a collective ran in disjoint groups: an H200 did not
    /// reconverge the warp after such a collective where min-PC does, so
    /// from then on `activemask` and the participants of the deprecated
    /// forms are undefined.
    pub(crate) split: bool,
}

/// What one step sees: the instruction and which lanes are where.
pub(crate) struct Step<'a> {
    /// The instruction.
    pub inst: &'a Inst,
    /// Lanes converged at this instruction (executing or predicated off).
    pub conv: u32,
    /// Lanes executing it (converged and guard true).
    pub exec: u32,
    /// Lanes that have exited.
    pub exited: u32,
    /// The `.target` of the program.
    pub target: Target,
}

/// A per-lane result: the value and whether it is defined.
pub(crate) type Val = (u64, bool);

impl Warp<'_> {
    /// Reads operand `o` on `lane` for an instruction that uses its bits: a
    /// NaN whose bits PTX leaves open ([`Outcome::nan_open`]) reads as
    /// undefined, since the result would depend on bits no rule fixes.
    pub(crate) fn read(&self, o: Operand, lane: usize) -> Val {
        let (v, d) = self.read_keep_nan(o, lane);
        (v, d && !self.is_open(o, lane))
    }

    /// Whether operand `o` is, on `lane`, a NaN whose bits PTX leaves open.
    pub(crate) fn is_open(&self, o: Operand, lane: usize) -> bool {
        match o {
            Operand::Reg(r) => self.open[r.index()] >> lane & 1 == 1,
            Operand::NotPred(_) | Operand::Imm(_) | Operand::LaneId => false,
        }
    }

    /// Reads operand `o` on `lane` for an instruction that only copies its
    /// bits or looks at them as an f32 (where every NaN acts alike): an
    /// open NaN stays defined (pair with [`Warp::is_open`]).
    pub(crate) fn read_keep_nan(&self, o: Operand, lane: usize) -> Val {
        match o {
            Operand::Reg(r) => (
                self.vals[r.index()][lane],
                self.def[r.index()] >> lane & 1 == 1,
            ),
            Operand::NotPred(r) => (
                !self.vals[r.index()][lane] & 1,
                self.def[r.index()] >> lane & 1 == 1,
            ),
            Operand::Imm(v) => (v, true),
            Operand::LaneId => (lane as u64, true),
        }
    }

    /// Writes `v` to `d` on `lane` (masked to the register's width).
    pub(crate) fn write(&mut self, d: Dest, lane: usize, v: Val) {
        if let Dest::Reg(r) = d {
            let m = self.prog.decl(r).ty.mask();
            self.vals[r.index()][lane] = v.0 & m;
            self.writer[r.index()][lane] = self.cur as u32 + 1;
            self.open[r.index()] &= !(1 << lane);
            if v.1 {
                self.def[r.index()] |= 1 << lane;
            } else {
                self.def[r.index()] &= !(1 << lane);
            }
        }
    }

    /// [`Warp::write`], marking the value a NaN whose bits PTX leaves open
    /// when `open` (and it is defined).
    pub(crate) fn write_nan(&mut self, d: Dest, lane: usize, v: Val, open: bool) {
        self.write(d, lane, v);
        if let (Dest::Reg(r), true, true) = (d, v.1, open) {
            self.open[r.index()] |= 1 << lane;
        }
    }

    /// Writes per-lane results computed before any write (so that a
    /// destination may alias a source).
    pub(crate) fn write_all(&mut self, d: Dest, results: &[(usize, Val)]) {
        for &(l, v) in results {
            self.write(d, l, v);
        }
    }

    /// Executes the instruction at `pc` for the converged lanes `conv`.
    fn step(&mut self, pc: usize, conv: u32) -> Result<(), Ub> {
        let inst = &self.prog.insts[pc];
        self.cur = pc;
        let exec = match inst.guard {
            None => conv,
            Some(g) => {
                let undef = conv & !self.def[g.reg.index()];
                if undef != 0 {
                    return Err(Ub::new(
                        UbRule::GuardUndefined,
                        inst,
                        undef,
                        format!(
                            "guard predicate `{}` is undefined on the converged lanes",
                            self.prog.decl(g.reg).name
                        ),
                    ));
                }
                lanes(conv)
                    .filter(|&l| (self.vals[g.reg.index()][l] == 1) != g.negated)
                    .fold(0, |m, l| m | 1 << l)
            }
        };
        let s = Step {
            inst,
            conv,
            exec,
            exited: self.exited,
            target: self.prog.target,
        };
        let next = pc + 1;
        match &inst.op {
            Op::Shfl { .. } => shfl::exec(self, &s)?,
            Op::Vote { .. } => vote::exec(self, &s)?,
            Op::Match { .. } => matching::exec(self, &s)?,
            Op::Redux { .. } => redux::exec(self, &s)?,
            Op::Activemask { .. } => activemask::exec(self, &s),
            Op::Mov { .. } | Op::Bin { .. } | Op::Un { .. } | Op::Setp { .. } | Op::Selp { .. } => {
                alu::exec(self, &s)
            }
            Op::Bra { target } => {
                let to = self.prog.label_target(*target);
                for l in lanes(exec) {
                    self.pc[l] = to;
                }
                for l in lanes(conv & !exec) {
                    self.pc[l] = next;
                }
                return Ok(());
            }
            // Exited lanes keep moving with the group; they are never scheduled again.
            Op::Exit => self.exited |= exec,
        }
        for l in lanes(conv) {
            self.pc[l] = next;
        }
        Ok(())
    }
}
