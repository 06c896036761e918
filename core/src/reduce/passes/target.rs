//! Pass 8: the default directives. Tries `.version 9.1` / `.target sm_90`
//! when the case has other ones and every instruction is allowed under the
//! defaults ([`Op::requirement`]: not so the deprecated non-`.sync`
//! `shfl`/`vote`, nor `.f32` `redux.sync`).

use crate::ir::*;
use crate::reduce::search::Search;

/// Runs the pass.
pub(crate) fn run(s: &mut Search<'_, '_>) {
    let prog = &s.cur().program;
    let (version, target) = (Version::default(), Target::default());
    if (prog.version, prog.target) == (version, target)
        || prog
            .insts
            .iter()
            .any(|i| !i.op.requirement().allows(version, target))
    {
        return;
    }
    let mut cand = s.cur().clone();
    cand.program.version = version;
    cand.program.target = target;
    s.try_case(cand);
}
