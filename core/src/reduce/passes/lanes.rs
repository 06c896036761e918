//! Pass 6: simplify `membermask` immediates and the inputs (`.lanes`,
//! `.fuel`).
//!
//! - A bounded run (`.fuel N`) becomes an unbounded one, when the
//!   divergence does not need the run cut short.
//! - A `membermask` immediate loses bits: all 32, then halves, quarters,
//!   ... down to single bits (most candidates break the membermask rules
//!   and are rejected as undefined behaviour; the others are kept).
//! - Each `.lanes` input (from the last one backwards) is removed (the
//!   register starts undefined), or becomes a broadcast of 0, of 1, of lane
//!   0's value, the lane id (`l`, then `l & 1`), or has chunks of 16, 8 and
//!   4 lanes set to 0.
//! - An instruction is deleted and the values its destination registers
//!   hold after it (the lanes' first time there; 0 where undefined) become
//!   their `.lanes` inputs: one instruction fewer, when nothing before it
//!   needed those registers' old values.

use crate::ir::*;
use crate::reduce::edit::{prefix_outcome, rebuild};
use crate::reduce::search::Search;

/// Drops `.fuel`: the run goes to its end.
fn unbounded(s: &mut Search<'_, '_>) {
    if s.cur().inputs.fuel.is_some() && !s.exhausted() {
        let mut cand = s.cur().clone();
        cand.inputs.fuel = None;
        s.try_case(cand);
    }
}

/// Clears bits of every `membermask` immediate.
fn membermasks(s: &mut Search<'_, '_>) {
    s.each_inst_backwards(|s, i| {
        let n = s.cur().program.insts[i].op.sources().len();
        for k in 0..n {
            for w in [32u32, 16, 8, 4, 2, 1] {
                for start in (0..32).step_by(w as usize) {
                    if s.exhausted() {
                        return;
                    }
                    let (o, _, role) = s.cur().program.insts[i].op.sources()[k];
                    let (Role::Membermask, Operand::Imm(v)) = (role, o) else {
                        break;
                    };
                    let m = (u64::MAX >> (64 - w)) << start;
                    if v & m == 0 {
                        continue;
                    }
                    let mut cand = s.cur().clone();
                    *cand.program.insts[i].op.sources_mut()[k].0 = Operand::Imm(v & !m);
                    s.try_case(cand);
                }
            }
        }
    });
}

/// The simpler values tried for an input of type `ty` holding `v`.
fn lane_patterns(v: &[u64; WARP], ty: Type) -> Vec<[u64; WARP]> {
    let mut out = vec![[0; WARP], [1; WARP], [v[0]; WARP]];
    out.push(std::array::from_fn(|l| l as u64));
    out.push(std::array::from_fn(|l| l as u64 & 1));
    for w in [16, 8, 4] {
        for start in (0..WARP).step_by(w) {
            let mut z = *v;
            z[start..start + w].fill(0);
            out.push(z);
        }
    }
    let m = ty.mask();
    let mut uniq: Vec<[u64; WARP]> = Vec::new();
    for p in out {
        let p = p.map(|x| x & m);
        if p != *v && !uniq.contains(&p) {
            uniq.push(p);
        }
    }
    uniq
}

/// Simplifies the `.lanes` inputs.
fn inputs(s: &mut Search<'_, '_>) {
    let mut j = s.cur().inputs.lanes.len();
    while j > 0 && !s.exhausted() {
        j -= 1;
        let mut cand = s.cur().clone();
        cand.inputs.lanes.remove(j);
        if s.try_case(cand) {
            continue;
        }
        // Take the first simpler pattern that is accepted, then look again.
        'again: loop {
            let (r, v) = s.cur().inputs.lanes[j];
            for p in lane_patterns(&v, s.cur().program.decl(r).ty) {
                if s.exhausted() {
                    return;
                }
                let mut cand = s.cur().clone();
                cand.inputs.lanes[j].1 = p;
                if s.try_case(cand) {
                    continue 'again;
                }
            }
            break;
        }
    }
}

/// Deletes an instruction and makes the values its destinations hold
/// after it (on the lanes' first pass there) their `.lanes` inputs.
fn results_to_inputs(s: &mut Search<'_, '_>) {
    s.each_inst_backwards(|s, i| {
        let dests = s.cur().program.insts[i].op.written();
        if dests.is_empty() {
            return;
        }
        let Some(out) = prefix_outcome(s.cur(), i + 1, s.fuel) else {
            return;
        };
        let prog = &s.cur().program;
        let keep: Vec<bool> = (0..prog.insts.len()).map(|j| j != i).collect();
        let keep_label = vec![true; prog.labels.len()];
        let mut cand = rebuild(s.cur(), &keep, &keep_label);
        for r in dests {
            let vals: [u64; WARP] = std::array::from_fn(|l| out.get(r, l).unwrap_or(0));
            match cand.inputs.lanes.iter_mut().find(|(x, _)| *x == r) {
                Some((_, v)) => *v = vals,
                None => cand.inputs.lanes.push((r, vals)),
            }
        }
        s.try_case(cand);
    });
}

/// Runs the pass.
pub(crate) fn run(s: &mut Search<'_, '_>) {
    unbounded(s);
    membermasks(s);
    results_to_inputs(s);
    inputs(s);
}
