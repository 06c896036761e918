//! `vote.sync` and the deprecated `vote`.
//!
//! From the spec digest: `.all` — "True if `a` is True for all non-exited
//! threads in membermask"; `.any` — "True if `a` is True for any thread in
//! membermask"; `.uni` — "True if `a` has the same value in all non-exited
//! threads in membermask"; `.ballot` — "Bit `i` of `d` = predicate of lane
//! `i`. Non-membermask threads contribute 0." Exited member lanes take no
//! part (they contribute 0 to a ballot). The deprecated forms vote over the
//! lanes that execute them.
//!
//! Definedness: the result of lane `l` is defined when every member that
//! executes has a defined `a` and no member is predicated off here.

use super::{collective, lanes, Step, Ub, Val, Warp};
use crate::ir::{Op, VoteMode};

/// Executes a `vote` for the lanes of `s`.
pub(crate) fn exec(w: &mut Warp, s: &Step) -> Result<(), Ub> {
    let Op::Vote {
        mode,
        d,
        a,
        membermask,
    } = s.inst.op
    else {
        unreachable!("vote::exec called on another instruction")
    };
    let g = collective::group(w, s, membermask)?;
    let mut out: Vec<(usize, Val)> = Vec::new();
    for l in lanes(s.exec) {
        let src = g.sources(s, l);
        let mut defined = !g.unsure;
        let mut ballot = 0u32;
        for k in lanes(src) {
            let (v, dk) = w.read(a, k);
            defined &= dk;
            ballot |= ((v & 1) as u32) << k;
        }
        let value = match mode {
            VoteMode::All => (ballot == src) as u64,
            VoteMode::Any => (ballot != 0) as u64,
            VoteMode::Uni => (ballot == src || ballot == 0) as u64,
            VoteMode::Ballot => ballot as u64,
        };
        out.push((l, (value, defined)));
    }
    w.write_all(d, &out);
    Ok(())
}
