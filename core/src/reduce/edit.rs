//! Edits of the IR that the passes share: removing instructions (with
//! label fix-ups), labels and registers (re-indexing every `Reg`), and
//! running a prefix of the program. Which operands an instruction has is
//! the IR's to say ([`Op::sources_mut`], [`Op::dests_mut`]).

use crate::gen::TestCase;
use crate::interp::Interp;
use crate::ir::*;
use crate::outcome::Outcome;

/// The case keeping only the instructions with `keep_inst[i]` and the
/// labels with `keep_label[l]`. Labels move with the instructions (a label
/// stands before the first kept instruction at or after its old place); a
/// `bra` to a removed label is removed too.
pub(crate) fn rebuild(tc: &TestCase, keep_inst: &[bool], keep_label: &[bool]) -> TestCase {
    let prog = &tc.program;
    let n = prog.insts.len();
    let mut keep = keep_inst.to_vec();
    for (i, inst) in prog.insts.iter().enumerate() {
        if let Some(target) = inst.op.branch_target() {
            if !keep_label[target.0 as usize] {
                keep[i] = false;
            }
        }
    }
    // new_at[i]: kept instructions before old index i.
    let mut new_at = Vec::with_capacity(n + 1);
    let mut kept = 0;
    for &k in &keep {
        new_at.push(kept);
        kept += k as usize;
    }
    new_at.push(kept);
    let mut label_map = vec![None; prog.labels.len()];
    let mut labels = Vec::new();
    for (j, l) in prog.labels.iter().enumerate() {
        if keep_label[j] {
            label_map[j] = Some(LabelId(labels.len() as u32));
            labels.push(Label {
                name: l.name.clone(),
                at: new_at[l.at],
            });
        }
    }
    let insts = prog
        .insts
        .iter()
        .zip(&keep)
        .filter(|(_, k)| **k)
        .map(|(inst, _)| {
            let mut inst = inst.clone();
            if let Op::Control(Control::Bra { target }) = &mut inst.op {
                *target = label_map[target.0 as usize].expect("bra to a kept label");
            }
            inst
        })
        .collect();
    TestCase {
        program: Program {
            version: prog.version,
            target: prog.target,
            regs: prog.regs.clone(),
            insts,
            labels,
        },
        inputs: tc.inputs.clone(),
    }
}

/// The case without the instructions `from..to`; labels strictly inside
/// the range go with them (and so do the `bra`s to them).
pub(crate) fn remove_range(tc: &TestCase, from: usize, to: usize) -> TestCase {
    let keep: Vec<bool> = (0..tc.program.insts.len())
        .map(|i| i < from || i >= to)
        .collect();
    let keep_label: Vec<bool> = tc
        .program
        .labels
        .iter()
        .map(|l| l.at <= from || l.at >= to)
        .collect();
    rebuild(tc, &keep, &keep_label)
}

/// The case without the registers where `keep[r]` is false (and their
/// `.lanes`), every `Reg` re-indexed; `None` when an instruction still
/// names a removed register.
pub(crate) fn remove_regs(tc: &TestCase, keep: &[bool]) -> Option<TestCase> {
    let mut map = vec![None; keep.len()];
    let mut regs = Vec::new();
    for (i, decl) in tc.program.regs.iter().enumerate() {
        if keep[i] {
            map[i] = Some(Reg(regs.len() as u32));
            regs.push(decl.clone());
        }
    }
    let mut out = tc.clone();
    out.program.regs = regs;
    let mut ok = true;
    for inst in &mut out.program.insts {
        inst.for_each_reg_mut(&mut |r| match map[r.index()] {
            Some(n) => *r = n,
            None => ok = false,
        });
    }
    if !ok {
        return None;
    }
    out.inputs.lanes = tc
        .inputs
        .lanes
        .iter()
        .filter_map(|(r, v)| map[r.index()].map(|n| (n, *v)))
        .collect();
    Some(out)
}

/// The state when the lanes first reach instruction `at` (or finish
/// before it): the program cut just before `at`, labels past the cut
/// moved to its end. `None` on UB or when the fuel runs out.
pub(crate) fn prefix_outcome(tc: &TestCase, at: usize, fuel: u64) -> Option<Outcome> {
    let mut prog = tc.program.clone();
    prog.insts.truncate(at);
    for l in &mut prog.labels {
        l.at = l.at.min(at);
    }
    let out = Interp::new(&prog).with_fuel(fuel).run(&tc.inputs).ok()?;
    out.ub.is_none().then_some(out)
}

/// The distinct defined values of `r` in `out`, lowest lane's first.
pub(crate) fn defined_values(out: &Outcome, r: Reg) -> Vec<u64> {
    let mut v = Vec::new();
    for lane in 0..WARP {
        if let Some(x) = out.get(r, lane) {
            if !v.contains(&x) {
                v.push(x);
            }
        }
    }
    v
}
