//! Pass 8: the default directives. Tries `.version 9.1` / `.target sm_90`
//! when the case has other ones and no instruction that needs them (the
//! deprecated non-`.sync` `shfl`/`vote`, `.f32` `redux.sync`).

use crate::ir::*;
use crate::reduce::search::Search;

/// Whether `op` needs directives other than the default ones.
fn needs_special_target(op: &Op) -> bool {
    match op {
        Op::Shfl { membermask, .. } | Op::Vote { membermask, .. } => membermask.is_none(),
        Op::Redux { op, .. } => op.is_f32(),
        Op::Match { .. }
        | Op::Activemask { .. }
        | Op::Mov { .. }
        | Op::Bin { .. }
        | Op::Un { .. }
        | Op::Setp { .. }
        | Op::Selp { .. }
        | Op::Bra { .. }
        | Op::Exit => false,
    }
}

/// Runs the pass.
pub(crate) fn run(s: &mut Search<'_, '_>) {
    let prog = &s.cur().program;
    if (prog.version, prog.target) == (Version::default(), Target::default())
        || prog.insts.iter().any(|i| needs_special_target(&i.op))
    {
        return;
    }
    let mut cand = s.cur().clone();
    cand.program.version = Version::default();
    cand.program.target = Target::default();
    s.try_case(cand);
}
