//! The program under construction, and what the reference interpreter says
//! about it at the point of emission.
//!
//! The generator emits in program order. To learn which lanes reach the
//! next instruction together, [`Builder::ensure_flow`] appends a *probe*
//! (`activemask.b32 %probe;`) to the prefix built so far, points every label
//! not yet placed past it, and runs [`Interp`] on the whole prefix: min-PC
//! scheduling runs every lane until it reaches the probe, exits, or waits
//! at a forward label (which lies past the probe), and the probe's
//! result is the set of lanes converged at the emission point, with every
//! register's value and definedness. The answer is cached until control
//! flow changes (a `bra`, an `exit`, a label placed); register values are
//! cached until the register is written.
//!
//! A probe that hits undefined behaviour or runs out of fuel means some
//! earlier choice was wrong after all (a loop body ran again with fewer
//! lanes, a guard became undefined): the offending instruction is removed
//! and the probe retried. That is the generator's *repair* pass; it keeps
//! every prefix valid, and [`Stats::repairs`](super::Stats::repairs) counts
//! how often it was needed.
//!
//! While building, `Inst::line` is the instruction's index plus one, so a
//! diagnostic names the instruction to remove; [`Builder::finish`] renumbers
//! to the lines of the printed case.

use crate::interp::{Interp, OutOfFuel};
use crate::ir::*;
use crate::outcome::Outcome;

/// Fuel of a probe run: far more than any generated program needs (loops
/// are bounded by small trip counts: of 3,000 generated cases the longest
/// ran 4,732 warp steps, the 99.9th percentile 1,273), far less than a
/// hang would take. A probe that runs out means the prefix loops forever
/// (it is repaired), and it costs its whole fuel: at 200,000 such probes
/// stalled a fuzzing job for up to 0.6 s (issue #14).
pub(crate) const PROBE_FUEL: u64 = 20_000;

/// A label's `at` while it is not placed yet.
const PENDING: usize = usize::MAX;

/// What the interpreter says about the emission point.
#[derive(Clone, Debug)]
pub(crate) struct Snapshot {
    /// Lanes converged at the emission point (they run the next instruction).
    pub conv: u32,
    /// Lanes that have exited.
    pub exited: u32,
    /// Every register's value per lane, as the lanes left it.
    pub values: Vec<[u64; WARP]>,
    /// Every register's defined lanes.
    pub defined: Vec<u32>,
    /// The warp may be split (a collective ran in disjoint groups): the
    /// interpreter then leaves `activemask` undefined, so masks must not
    /// come from it.
    pub split: bool,
}

impl Snapshot {
    /// Lanes neither exited nor converged here: they wait at a forward
    /// label further on.
    pub fn parked(&self) -> u32 {
        !self.exited & !self.conv
    }

    /// Lanes of `conv` where the predicate register `p` (negated or not)
    /// is true.
    pub fn pred_true(&self, p: Reg, negated: bool) -> u32 {
        (0..WARP)
            .filter(|&l| self.conv >> l & 1 == 1 && (self.values[p.index()][l] & 1 == 1) != negated)
            .fold(0, |m, l| m | 1 << l)
    }

    /// Whether `r` is defined on every converged lane.
    pub fn defined_on_conv(&self, r: Reg) -> bool {
        self.defined[r.index()] & self.conv == self.conv
    }
}

/// The program under construction.
pub(crate) struct Builder {
    /// The program so far (labels not placed yet have `at == PENDING`).
    pub prog: Program,
    /// Its inputs, fixed before the body is generated.
    pub inputs: Inputs,
    /// The register the probe writes.
    probe: Reg,
    /// The state at the emission point, while still valid.
    snap: Option<Snapshot>,
    /// Registers written since `snap` was taken.
    dirty: Vec<bool>,
    /// Instructions removed by the repair pass.
    pub repairs: u64,
    /// Interpreter runs so far.
    pub probes: u64,
}

impl Builder {
    /// A builder for a program with these directives, registers and inputs.
    pub fn new(
        version: Version,
        target: Target,
        regs: Vec<RegDecl>,
        inputs: Inputs,
        probe: Reg,
    ) -> Self {
        let n = regs.len();
        Builder {
            prog: Program {
                version,
                target,
                regs,
                insts: Vec::new(),
                labels: Vec::new(),
            },
            inputs,
            probe,
            snap: None,
            dirty: vec![false; n],
            repairs: 0,
            probes: 0,
        }
    }

    /// Number of instructions so far.
    pub fn len(&self) -> usize {
        self.prog.insts.len()
    }

    /// Appends an instruction at the emission point.
    pub fn push(&mut self, guard: Option<Guard>, op: Op) {
        for r in op.written() {
            self.dirty[r.index()] = true;
        }
        if op.is_control_flow() {
            self.snap = None;
        }
        let line = self.prog.insts.len() as u32 + 1;
        self.prog.insts.push(Inst { guard, op, line });
    }

    /// Gives register `r` the input `lanes` (before any instruction reads
    /// it).
    pub fn set_input(&mut self, r: Reg, lanes: [u64; WARP]) {
        self.inputs.lanes.retain(|(x, _)| *x != r);
        self.inputs.lanes.push((r, lanes));
        self.snap = None;
    }

    /// A new label, to be placed later (a forward branch target).
    pub fn label(&mut self) -> LabelId {
        let id = LabelId(self.prog.labels.len() as u32);
        self.prog.labels.push(Label {
            name: format!("L{}", id.0),
            at: PENDING,
        });
        id
    }

    /// Places a forward label at the emission point: the lanes waiting
    /// there join the converged ones.
    pub fn place(&mut self, l: LabelId) {
        self.prog.labels[l.0 as usize].at = self.prog.insts.len();
        self.snap = None;
    }

    /// A label placed at the emission point (a backward branch target).
    /// No lane moves, so what is known stays valid.
    pub fn here(&mut self) -> LabelId {
        let l = self.label();
        self.prog.labels[l.0 as usize].at = self.prog.insts.len();
        l
    }

    /// Whether `r` has been written since the last probe.
    pub fn is_dirty(&self, r: Reg) -> bool {
        self.dirty[r.index()]
    }

    /// Makes sure the snapshot describes the emission point, probing when
    /// control flow changed since the last probe (register values may
    /// still be stale: see [`Builder::is_dirty`]).
    pub fn ensure_flow(&mut self) {
        if self.snap.is_none() {
            self.probe();
        }
    }

    /// Makes sure the snapshot holds the current values of `regs`.
    pub fn ensure_values(&mut self, regs: &[Reg]) {
        if regs.iter().any(|&r| self.dirty[r.index()]) {
            self.snap = None;
        }
        self.ensure_flow();
    }

    /// The snapshot (after [`Builder::ensure_flow`]).
    pub fn snap(&self) -> &Snapshot {
        self.snap.as_ref().expect("ensure_flow before snap")
    }

    /// Runs the prefix with a probe at the emission point, repairing until
    /// it runs cleanly, and caches the snapshot.
    fn probe(&mut self) {
        loop {
            let len = self.prog.insts.len();
            for l in self.prog.labels.iter_mut().filter(|l| l.at == PENDING) {
                l.at = len + 1;
            }
            self.prog.insts.push(Inst {
                guard: None,
                op: Op::Activemask(Activemask {
                    d: Dest::Reg(self.probe),
                }),
                line: len as u32 + 1,
            });
            // One pass: a prefix that runs cleanly with the cautious view of
            // definedness runs cleanly with the precise one.
            let run = Interp::new(&self.prog)
                .with_fuel(PROBE_FUEL)
                .single_pass()
                .run(&self.inputs);
            self.probes += 1;
            self.prog.insts.pop();
            for l in self.prog.labels.iter_mut().filter(|l| l.at == len + 1) {
                l.at = PENDING;
            }
            match run {
                Ok(Outcome {
                    ub: None,
                    values,
                    defined,
                    exited,
                    ..
                }) => {
                    let p = self.probe.index();
                    // Only the lanes that ran the probe wrote it, each with
                    // the mask of those lanes (defined unless the warp may
                    // be split).
                    let conv = values[p].iter().fold(0u32, |m, &v| m | v as u32);
                    let split = conv != 0 && defined[p] == 0;
                    self.snap = Some(Snapshot {
                        conv,
                        exited,
                        values,
                        defined,
                        split,
                    });
                    self.dirty.iter_mut().for_each(|d| *d = false);
                    return;
                }
                Ok(Outcome { ub: Some(ub), .. }) => {
                    self.remove(ub.line as usize - 1);
                    self.repairs += 1;
                }
                Err(OutOfFuel { line, .. }) => {
                    let backward =
                        self.prog
                            .insts
                            .iter()
                            .enumerate()
                            .rev()
                            .find_map(|(i, inst)| {
                                let target = inst.op.branch_target()?;
                                (self.prog.labels[target.0 as usize].at <= i).then_some(i)
                            });
                    self.remove(backward.unwrap_or((line as usize).saturating_sub(1)));
                    self.repairs += 1;
                }
            }
        }
    }

    /// Removes instruction `idx`, keeping labels where they were relative
    /// to the other instructions.
    pub fn remove(&mut self, idx: usize) {
        self.prog.insts.remove(idx);
        for l in self.prog.labels.iter_mut() {
            if l.at != PENDING && l.at > idx {
                l.at -= 1;
            }
        }
        self.renumber_from(idx);
        self.snap = None;
    }

    fn renumber_from(&mut self, idx: usize) {
        for (i, inst) in self.prog.insts.iter_mut().enumerate().skip(idx) {
            inst.line = i as u32 + 1;
        }
    }

    /// The state just before instruction `at` of the finished program, or
    /// `None` when the prefix does not run cleanly. Labels after `at` are
    /// treated as not placed yet.
    pub fn snapshot_at(&mut self, at: usize) -> Option<Snapshot> {
        self.probes += 1;
        let mut prog = self.prog.clone();
        prog.insts.truncate(at);
        for l in prog.labels.iter_mut() {
            if l.at > at {
                l.at = at + 1;
            }
        }
        prog.insts.push(Inst {
            guard: None,
            op: Op::Activemask(Activemask {
                d: Dest::Reg(self.probe),
            }),
            line: at as u32 + 1,
        });
        let out = Interp::new(&prog)
            .with_fuel(PROBE_FUEL)
            .single_pass()
            .run(&self.inputs)
            .ok()?;
        if out.ub.is_some() {
            return None;
        }
        let p = self.probe.index();
        let conv = out.values[p].iter().fold(0u32, |m, &v| m | v as u32);
        Some(Snapshot {
            conv,
            exited: out.exited,
            split: conv != 0 && out.defined[p] == 0,
            values: out.values,
            defined: out.defined,
        })
    }

    /// Inserts `insts` before instruction `at` (labels at `at` stay before
    /// them).
    pub fn insert(&mut self, at: usize, insts: Vec<(Option<Guard>, Op)>) {
        let n = insts.len();
        for (k, (guard, op)) in insts.into_iter().enumerate() {
            self.prog.insts.insert(at + k, Inst { guard, op, line: 0 });
        }
        for l in self.prog.labels.iter_mut() {
            if l.at != PENDING && l.at > at {
                l.at += n;
            }
        }
        self.renumber_from(at);
        self.snap = None;
    }

    /// Runs the whole program once more and repairs it until it runs
    /// cleanly (every label must be placed).
    pub fn validate(&mut self) {
        debug_assert!(self.prog.labels.iter().all(|l| l.at != PENDING));
        self.snap = None;
        self.probe();
    }

    /// The finished case: unused registers dropped (the probe among them),
    /// and each instruction's `line` set to its line in the text that
    /// [`text::print`](crate::text::print) writes for it after `header`
    /// comment lines.
    pub fn finish(self, header: usize) -> (Program, Inputs) {
        let (mut prog, mut inputs) = (self.prog, self.inputs);
        debug_assert!(prog.labels.iter().all(|l| l.at != PENDING));
        prune(&mut prog, &mut inputs);
        sort_labels(&mut prog);
        renumber_printed(&mut prog, &inputs, header);
        (prog, inputs)
    }
}

/// Drops the registers no instruction names (and their inputs), keeping
/// the order of the others.
fn prune(prog: &mut Program, inputs: &mut Inputs) {
    let mut used = vec![false; prog.regs.len()];
    for inst in prog.insts.iter_mut() {
        inst.for_each_reg_mut(&mut |r| used[r.index()] = true);
    }
    let mut map = vec![None; prog.regs.len()];
    let mut regs = Vec::new();
    for (i, decl) in prog.regs.drain(..).enumerate() {
        if used[i] {
            map[i] = Some(Reg(regs.len() as u32));
            regs.push(decl);
        }
    }
    prog.regs = regs;
    for inst in prog.insts.iter_mut() {
        inst.for_each_reg_mut(&mut |r| *r = map[r.index()].expect("a used register"));
    }
    inputs.lanes = inputs
        .lanes
        .drain(..)
        .filter_map(|(r, v)| map[r.index()].map(|n| (n, v)))
        .collect();
}

/// Puts the labels in the order they appear in the text (as the parser
/// lists them), keeping the order of labels at one place.
fn sort_labels(prog: &mut Program) {
    let mut order: Vec<usize> = (0..prog.labels.len()).collect();
    order.sort_by_key(|&i| prog.labels[i].at);
    let mut map = vec![0u32; order.len()];
    for (new, &old) in order.iter().enumerate() {
        map[old] = new as u32;
    }
    prog.labels = order.iter().map(|&i| prog.labels[i].clone()).collect();
    for inst in prog.insts.iter_mut() {
        if let Op::Control(Control::Bra { target }) = &mut inst.op {
            target.0 = map[target.0 as usize];
        }
    }
}

/// Sets each instruction's `line` to where the printer puts it: after the
/// header comments, `.version`, `.target`, one `.reg` line per run of
/// registers of one type, one `.lanes` line per input, and the labels.
fn renumber_printed(prog: &mut Program, inputs: &Inputs, header: usize) {
    let runs = prog
        .regs
        .iter()
        .enumerate()
        .filter(|(i, r)| *i == 0 || prog.regs[i - 1].ty != r.ty)
        .count();
    let mut line = header + 2 + runs + inputs.lanes.len() + usize::from(inputs.fuel.is_some());
    for i in 0..prog.insts.len() {
        line += prog.labels.iter().filter(|l| l.at == i).count();
        line += 1;
        prog.insts[i].line = line as u32;
    }
}
