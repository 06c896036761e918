//! SP (N32 of `docs/findings.md`; session 8's candidate of
//! `docs/log/gpu-2026-11-27-h/triage.md`, decided by session 12's
//! `docs/log/gpu-2026-11-28-l/triage.md`; narrowed by session 13's, see
//! [`collective_under_out_of_range_shuffle_predicate`]): a `redux.sync`
//! into a register that may have no value there, guarded, in
//! straight-line code, by the predicate of a `shfl.idx` whose source lane is
//! out of range on every lane, or by a `vote` of that predicate, where the
//! guard lets every lane run the collective. At -O1 the GPU does not run
//! it: the collective's destination keeps what it held before (a register
//! nothing wrote reads 3), right at -O0 and -O3.
//!
//! The PTX ISA (§9.7.9.6, `shfl.sync`) defines the predicate: "The optional
//! destination predicate `p` is set to `True` if the computed source lane
//! is in range, and otherwise set to `False`", with
//!
//! ```text
//! bval[4:0] = b[4:0];            // source lane or lane offset (0..31)
//! cval[4:0] = c[4:0];            // clamp value
//! segmask[4:0] = c[12:8];
//! maxLane = (lane[4:0] & segmask[4:0]) | (cval[4:0] & ~segmask[4:0]);
//! minLane = (lane[4:0] & segmask[4:0]);
//! case .idx:   j = minLane  | (bval[4:0] & ~segmask[4:0]);
//!                              pval = (j <= maxLane); break;
//! ```
//!
//! so `shfl.sync.idx.b32 _|%p2, 0, 1, 0` (`c` = 0: every lane's segment
//! is lane 0 alone) gives `%p2` false on every lane. And `vote` (§9.7.13.1)
//! of a predicate false on every member: `.all` and `.any` false, `.uni`
//! true ("true if the source predicate is the same for all non-exited
//! threads in membermask").
//!
//! The hardware (H100 and H200, the driver's JIT, -O0 to -O3): session 8's
//! `found-O1/redux.sync.min.u32-938185ad` (`shfl.sync.idx.b32 _|%p2, 0, 1,
//! 0; @!%p2 redux.sync.min.u32 %r0, 1`: the GPU's `%r0` 3 on every lane,
//! the reference's 1) and session 12's `redux.sync.add.s32-ba615066`
//! (`vote.sync.uni.pred %p7, %p3` of such a `%p3`, then `@%p7
//! redux.sync.add.s32 %b0, 0`: gpu 3, interp 0) are wrong at -O1 only. Their
//! variants say what the shape needs: the shuffle's source lane in range
//! (the predicate true, the collective still run) agrees at every level
//! (`shfl-pred.in-range`, `sp.in-range`); the same guard from a `setp`
//! false on every lane, no shuffle, agrees (`sp.setp-pred`); the predicate
//! stored with no collective guarded by it agrees (`shfl-pred.pred-stored`:
//! the predicate alone is computed right).
//!
//! What the hardware has not decided (the detector takes the shape as
//! seen): only `.idx` shuffles with immediate `b` and `c` were seen (both
//! with `c` = 0, `b` = 1; the detector takes any immediates the ISA's
//! formula puts out of range on every lane); only `redux.sync` was seen
//! guarded (the detector takes any collective); only `vote.uni` between
//! (the detector takes any `.pred` vote whose result the ISA fixes so that
//! the guard holds on every lane); only guards that let the collective run
//! (a guard false on every lane is not taken).

use super::shape::straight_writer;
use super::unwritten::Lazy;
use crate::ir::{Dest, Op, Operand, Program, Reg, ShflMode, Vote, VoteMode};

/// The ISA's `pval` of a `.idx` shuffle on `lane` with `b` and `c`.
fn idx_in_range(lane: u64, b: u64, c: u64) -> bool {
    let bval = b & 0x1f;
    let cval = c & 0x1f;
    let segmask = (c >> 8) & 0x1f;
    let max_lane = (lane & segmask) | (cval & !segmask & 0x1f);
    let min_lane = lane & segmask;
    let j = min_lane | (bval & !segmask & 0x1f);
    j <= max_lane
}

/// Whether instruction `w` is an unguarded `shfl.idx` writing predicate
/// `p` with immediate `b` and `c` that put the source lane out of range
/// on every lane (`p` false on every lane).
fn out_of_range_predicate(prog: &Program, w: usize, p: Reg) -> bool {
    let x = &prog.insts[w];
    let Op::Shfl(s) = &x.op else {
        return false;
    };
    let (Operand::Imm(b), Operand::Imm(c)) = (s.b, s.c) else {
        return false;
    };
    x.guard.is_none()
        && s.mode == ShflMode::Idx
        && s.p == Some(Dest::Reg(p))
        && (0..32).all(|lane| !idx_in_range(lane, b, c))
}

/// The value on every lane of predicate `r` at instruction `at` when its
/// straight-line writer is such a shuffle (false), or an unguarded `.pred`
/// `vote` of such a shuffle's predicate (or its negation), whose result the
/// ISA then fixes; with the shuffle's index.
fn fixed_by_shuffle(prog: &Program, r: Reg, at: usize) -> Option<(bool, usize)> {
    let w = straight_writer(prog, r, at)?;
    if out_of_range_predicate(prog, w, r) {
        return Some((false, w));
    }
    let x = &prog.insts[w];
    let Op::Vote(Vote { mode, d, a, .. }) = x.op else {
        return None;
    };
    let (q, v) = match a {
        Operand::Reg(q) => (q, false),
        Operand::NotPred(q) => (q, true),
        Operand::Imm(_) | Operand::LaneId => return None,
    };
    let s = straight_writer(prog, q, w)?;
    if x.guard.is_some() || d != Dest::Reg(r) || !out_of_range_predicate(prog, s, q) {
        return None;
    }
    match mode {
        VoteMode::All | VoteMode::Any => Some((v, s)),
        VoteMode::Uni => Some((true, s)),
        VoteMode::Ballot => None,
    }
}

/// The first `redux.sync` whose guard an out-of-range `shfl.idx`
/// predicate (or a vote of it) makes true on every lane, with no label or
/// branch between the shuffle and it, and whose destination may have no
/// value there: its index. Session 13's variants with the found case's
/// 31 declared registers (`docs/log/gpu-2026-11-28-m/sp4/`, the H200
/// through the linker, `d/sp4-levels.txt`) decided both parts: a guarded
/// `vote.sync.ballot` or `mov` in the `redux`'s place ran right, and so did
/// the `redux` after a `mov.u32 %r0, 7` (`sp4.written-first`); the found
/// case, `c` = 1 with source lane 2 (`sp4.clamp-1`) and a `vote.any` of
/// the negated predicate (`sp4.vote-any`, also at -O3) went wrong. With
/// fewer declared registers every variant ran right (`c/sp/`): the kernel's
/// register set is part of it, which the text does not show.
pub(super) fn collective_under_out_of_range_shuffle_predicate(
    prog: &Program,
    has_entry: &dyn Fn(Reg) -> bool,
) -> Option<usize> {
    let u = Lazy::new(prog, has_entry);
    (0..prog.insts.len()).find(|&k| {
        let x = &prog.insts[k];
        let Some(g) = x.guard else {
            return false;
        };
        let Op::Redux(r) = &x.op else {
            return false;
        };
        let Some((v, s)) = fixed_by_shuffle(prog, g.reg, k) else {
            return false;
        };
        let straight = !prog.insts[s..k].iter().any(|y| y.op.is_control_flow());
        let unwritten = match r.d {
            Dest::Reg(d) => u.get().may_lack(k, d),
            Dest::Sink => false,
        };
        straight && v != g.negated && unwritten
    })
}
