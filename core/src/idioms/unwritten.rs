//! Which registers may hold no value where: the static side of "a read of
//! a register that nothing wrote", which four known bugs need (N3, N4,
//! N15, N16 of docs/findings.md).
//!
//! A register gets a value at the start of a run only from the case's
//! inputs: a `.lanes` line (`Inputs::lanes`, which the interpreter loads
//! with every bit defined, `interp/warp.rs`, `Warp::load`); any other
//! register is *never written* until an instruction writes it, and the
//! reference treats a read of it as a fresh unknown whose result is as
//! wild (`Warp::never_written`, `Warp::write_wild`): what is computed from
//! it counts as never written too. The analysis here is that rule on the
//! control-flow graph, over every path rather than one run: a register
//! *may lack a value* before an instruction when some path from the
//! program's entry reaches it with the register never written, or last
//! written from one that may lack a value. An instruction writes its
//! destinations with a value when none of its register sources (guard
//! aside) may lack one; a guarded instruction may not run, so it only
//! adds; `exit` ends a path, `bra` goes to its label (and on, when
//! guarded). `selp` is taken as reading both operands, where the
//! interpreter reads only the selected one: an over-approximation, as is
//! every path being taken as possible whatever the guards hold.

use crate::ir::{Program, Reg};

/// For each instruction (and the end of the program, at index
/// `insts.len()`), the registers that may lack a value just before it.
pub(super) struct Unwritten {
    /// `before[i][r]`: register `r` may lack a value before instruction
    /// `i`. An instruction no path reaches has none.
    before: Vec<Vec<bool>>,
}

impl Unwritten {
    /// The analysis of `prog`, where the registers `has_entry` is true
    /// for start with a value (those of the case's `.lanes` lines) and all
    /// the others with none.
    pub(super) fn of(prog: &Program, has_entry: &dyn Fn(Reg) -> bool) -> Unwritten {
        let n = prog.insts.len();
        let nregs = prog.regs.len();
        let steps: Vec<Step> = prog.insts.iter().map(Step::of).collect();
        let mut before: Vec<Option<Vec<bool>>> = vec![None; n + 1];
        before[0] = Some((0..nregs).map(|r| !has_entry(Reg(r as u32))).collect());
        let mut work = vec![0usize];
        while let Some(i) = work.pop() {
            if i >= n {
                continue;
            }
            let Some(mut out) = before[i].clone() else {
                continue;
            };
            steps[i].apply(&mut out);
            for s in prog.successors(i) {
                let changed = match &mut before[s] {
                    slot @ None => {
                        *slot = Some(out.clone());
                        true
                    }
                    Some(have) => {
                        let mut grew = false;
                        for (h, o) in have.iter_mut().zip(&out) {
                            if *o && !*h {
                                *h = true;
                                grew = true;
                            }
                        }
                        grew
                    }
                };
                if changed {
                    work.push(s);
                }
            }
        }
        Unwritten {
            before: before
                .into_iter()
                .map(|b| b.unwrap_or_else(|| vec![false; nregs]))
                .collect(),
        }
    }

    /// Whether `r` may lack a value just before instruction `i`.
    pub(super) fn may_lack(&self, i: usize, r: Reg) -> bool {
        self.before
            .get(i)
            .and_then(|b| b.get(r.index()))
            .copied()
            .unwrap_or(false)
    }

    /// Whether instruction `i` of `prog` reads (as a source; its guard
    /// aside) a register that may lack a value there.
    pub(super) fn reads_lacking(&self, prog: &Program, i: usize) -> bool {
        prog.insts[i]
            .op
            .source_regs()
            .into_iter()
            .any(|r| self.may_lack(i, r))
    }
}

/// [`Unwritten`] computed on first use: the detectors check the shape's
/// structure first and ask which registers may lack a value only for a
/// candidate (`--avoid` runs them again after every removal).
pub(super) struct Lazy<'a> {
    prog: &'a Program,
    has_entry: &'a dyn Fn(Reg) -> bool,
    cell: std::cell::OnceCell<Unwritten>,
}

impl<'a> Lazy<'a> {
    /// The analysis of `prog` with the entry values of `has_entry`, not
    /// computed yet.
    pub(super) fn new(prog: &'a Program, has_entry: &'a dyn Fn(Reg) -> bool) -> Lazy<'a> {
        Lazy {
            prog,
            has_entry,
            cell: std::cell::OnceCell::new(),
        }
    }

    /// The analysis, computed the first time.
    pub(super) fn get(&self) -> &Unwritten {
        self.cell
            .get_or_init(|| Unwritten::of(self.prog, self.has_entry))
    }
}

/// What one instruction does to the set: its register sources, what it
/// writes, whether it is guarded.
struct Step {
    sources: Vec<Reg>,
    written: Vec<Reg>,
    guarded: bool,
}

impl Step {
    fn of(x: &crate::ir::Inst) -> Step {
        Step {
            sources: x.op.source_regs(),
            written: x.op.written(),
            guarded: x.guard.is_some(),
        }
    }

    /// `lacking` before the instruction becomes the set after it.
    fn apply(&self, lacking: &mut [bool]) {
        let wild = self.sources.iter().any(|r| lacking[r.index()]);
        for d in &self.written {
            if wild {
                lacking[d.index()] = true;
            } else if !self.guarded {
                lacking[d.index()] = false;
            }
        }
    }
}
