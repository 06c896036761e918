//! What the program text fixes about a guard predicate, as a compiler can
//! see it: a `setp` whose comparison is constant, and an `exit` block
//! branched around. Read by K5's detector ([`super::Idiom::UnusedCollectiveSplitsWarp`])
//! to take a guarded overwrite of the unused collective's result as an
//! overwrite. Since the triage of 2026-11-28-l
//! (`docs/log/gpu-2026-11-28-l/triage.md`, groups K5S, K5Q, K5X): the
//! guard must be known to the compiler (`k5s.guard-input`,
//! `k5s.down-guard-input`, `k5q.guard-input`, the guard an input true on
//! every lane, agreed on the H200 at every level, while their `.found`,
//! with the guard fixed by the text, went wrong from -O1).

use crate::ir::{Control, Dest, Glue, Inst, Op, Operand, Program, Reg};

/// The value `x` gives predicate `p` on every lane, when `x` is an
/// unguarded `setp` writing `p` (as `p` or as `q`) whose comparison is
/// constant and whose combining predicate, if any, does not change the
/// result: the comparison of two immediates, or of one integer register
/// (or `%laneid`) with itself (not a float: `NaN != NaN`). K5S's guards:
/// `setp.lt.s32 %p2, %laneid, %laneid` (false) and `setp.ge.u32 %p0, %r0,
/// %r0` (true); K5Q's: `%p1` of `setp.le.and.f32 %p0|%p1, 0, 0, %p1`
/// (`!(0 <= 0) && %p1`, false); K5G2's (2026-11-28-k): `%p0` of
/// `setp.gt.and.s32 %p0, 0, 0, %p0` (false).
pub(super) fn setp_known(x: &Inst, p: Reg) -> Option<bool> {
    let Op::Glue(
        g @ Glue::Setp {
            ty,
            p: pd,
            q: qd,
            a,
            b,
            ..
        },
    ) = &x.op
    else {
        return None;
    };
    if x.guard.is_some() {
        return None;
    }
    let (a, b) = match (a, b) {
        (Operand::Imm(a), Operand::Imm(b)) => (*a, *b),
        (Operand::Reg(r), Operand::Reg(s)) if r == s && !ty.is_float() => (0, 0),
        (Operand::LaneId, Operand::LaneId) => (0, 0),
        _ => return None,
    };
    let n = if *pd == Dest::Reg(p) {
        0
    } else if *qd == Some(Dest::Reg(p)) {
        1
    } else {
        return None;
    };
    let with = |c: u64| crate::interp::alu::eval(g, &[a, b, c])[n];
    (with(0) == with(1)).then(|| with(1) == 1)
}

/// Whether `x` is a `setp` whose every result [`setp_known`] fixes: its
/// value does not depend on its combining predicate, so reading a
/// predicate there reads nothing a compiler keeps. Since the triage of
/// 2026-11-28-m (`docs/log/gpu-2026-11-28-m/triage.md`, group K5R): K5's
/// per-lane `vote.sync.all.pred %p2` read only by `setp.ge.and.s32 %p1, 0,
/// 1, %p2` (`0 >= 1` false, so `%p1` false whatever `%p2`), then the
/// full-mask `match.all`: `k5r.found` wrong on the H200 from -O2 as
/// without the `setp` (`k5r.no-reader`); with `setp.ge.or.s32`, whose `%p1`
/// is `%p2`, right at every level (`k5r.reader-uses`).
pub(super) fn setp_ignores_its_predicate(x: &Inst) -> bool {
    let Op::Glue(Glue::Setp { p, q, .. }) = &x.op else {
        return false;
    };
    let fixed = |d: &Dest| match d {
        Dest::Reg(r) => setp_known(x, *r).is_some(),
        Dest::Sink => true,
    };
    fixed(p) && q.as_ref().is_none_or(fixed)
}

/// Where the guard scan may go on before a label at instruction `at`: the
/// index of an unguarded `bra` to `at` that is the only branch there,
/// when the instruction just before `at` is an unguarded `exit` (no lane
/// falls into `at`): `bra L9; L8: exit; L9:`. The lanes at `at` come from
/// that `bra` alone, so what held before it holds at `at` (K5X:
/// `@!%p0 bra L8; bra L9; L8: exit; L9:` fixes `%p0` true at `L9`,
/// `d/found/match.any.sync.b64-49487c2a`, wrong on the H200 from -O1).
pub(super) fn exit_block_before(prog: &Program, at: usize) -> Option<usize> {
    if at < 2 {
        return None;
    }
    let exit = &prog.insts[at - 1];
    let bra = &prog.insts[at - 2];
    let to_at = |x: &Inst| {
        x.op.branch_target()
            .is_some_and(|l| prog.label_target(l) == at)
    };
    let only = prog
        .insts
        .iter()
        .enumerate()
        .all(|(k, x)| k == at - 2 || !to_at(x));
    (exit.guard.is_none()
        && matches!(exit.op, Op::Control(Control::Exit))
        && bra.guard.is_none()
        && to_at(bra)
        && only)
        .then_some(at - 2)
}
