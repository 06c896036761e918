//! Pass 4: drop guards and destinations. For each instruction, from the
//! end backwards: drop its guard `@p`/`@!p`; drop its second destination
//! `|p` (or `|q` of `setp`); replace each destination register by the
//! sink `_` (the parser refuses `_|_` on `match.all`, so that candidate is
//! rejected by the round-trip check).

use crate::ir::*;
use crate::reduce::search::Search;

/// `op` without its second destination, if it has one.
fn without_second(op: &Op) -> Option<Op> {
    let mut op = op.clone();
    let had = match &mut op {
        Op::Shfl(Shfl { p, .. }) | Op::Match(Match { p, .. }) => p.take().is_some(),
        Op::Glue(g) => match g {
            Glue::Setp { q, .. } => q.take().is_some(),
            Glue::Mov { .. } | Glue::Bin { .. } | Glue::Un { .. } | Glue::Selp { .. } => false,
        },
        Op::Vote(_) | Op::Redux(_) | Op::Activemask(_) | Op::Control(_) | Op::LaneOp(_) => false,
    };
    had.then_some(op)
}

/// Runs the pass.
pub(crate) fn run(s: &mut Search<'_, '_>) {
    s.each_inst_backwards(|s, i| {
        if s.cur().program.insts[i].guard.is_some() {
            let mut cand = s.cur().clone();
            cand.program.insts[i].guard = None;
            s.try_case(cand);
        }
        if let Some(op) = without_second(&s.cur().program.insts[i].op) {
            let mut cand = s.cur().clone();
            cand.program.insts[i].op = op;
            s.try_case(cand);
        }
        let ndests = s.cur().program.insts[i].op.dests().len();
        for k in 0..ndests {
            let mut cand = s.cur().clone();
            let mut changed = false;
            if let Some((d, _)) = cand.program.insts[i].op.dests_mut().into_iter().nth(k) {
                if *d != Dest::Sink {
                    *d = Dest::Sink;
                    changed = true;
                }
            }
            if changed {
                s.try_case(cand);
            }
        }
    });
}
