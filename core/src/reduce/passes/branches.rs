//! Pass 2: simplify control flow. Delete each `bra`, or make it
//! unconditional by dropping its guard; delete labels no `bra` targets (all
//! at once, then one by one); delete each `exit`, or drop its guard.

use crate::ir::{Control, Op, Program};
use crate::reduce::edit::rebuild;
use crate::reduce::search::Search;

/// Runs the pass.
pub(crate) fn run(s: &mut Search<'_, '_>) {
    // Branches and exits, from the end backwards.
    s.each_inst_backwards(|s, i| {
        let prog = &s.cur().program;
        if !prog.insts[i].op.is_control_flow() {
            return;
        }
        let n = prog.insts.len();
        let keep: Vec<bool> = (0..n).map(|j| j != i).collect();
        let keep_label = vec![true; prog.labels.len()];
        if s.try_case(rebuild(s.cur(), &keep, &keep_label)) {
            return;
        }
        if s.cur().program.insts[i].guard.is_some() {
            let mut cand = s.cur().clone();
            cand.program.insts[i].guard = None;
            s.try_case(cand);
        }
    });
    // Unused labels: all together, then one at a time.
    let unused = |prog: &Program| -> Vec<bool> {
        let mut used = vec![false; prog.labels.len()];
        for inst in &prog.insts {
            if let Op::Control(Control::Bra { target }) = inst.op {
                used[target.0 as usize] = true;
            }
        }
        used.iter().map(|u| !u).collect()
    };
    let prog = &s.cur().program;
    let drop = unused(prog);
    if drop.iter().any(|d| *d) {
        let keep: Vec<bool> = drop.iter().map(|d| !d).collect();
        let all = vec![true; prog.insts.len()];
        if s.try_case(rebuild(s.cur(), &all, &keep)) {
            return;
        }
    }
    let mut l = s.cur().program.labels.len();
    while l > 0 && !s.exhausted() {
        l -= 1;
        let prog = &s.cur().program;
        if l >= prog.labels.len() || !unused(prog)[l] {
            continue;
        }
        let keep: Vec<bool> = (0..prog.labels.len()).map(|j| j != l).collect();
        let all = vec![true; prog.insts.len()];
        s.try_case(rebuild(s.cur(), &all, &keep));
    }
}
