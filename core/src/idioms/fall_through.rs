//! Values a branch fixes: after `setp.ne p, r, K; @p bra L` every lane
//! whose `r` differs from `K` has gone to `L`, so the instructions after the
//! branch that only its fall-through reaches run where `r == K`. Two known
//! bugs (N19 and N20 of docs/findings.md) are the compiler using that
//! equality wrongly; their detectors look for their operation among those
//! instructions.
//!
//! The shape is read from the program text: the `setp` unguarded, integer,
//! `ne` against an immediate; nothing between it and the branch writing `p`
//! or `r`, and no label there (no other path joins); the branch `@p` (not
//! `@!p`) and forward. The fall-through's instructions run from the one
//! after the branch up to the first label (where other paths join) or
//! control-flow instruction, and the one that rewrites `r` is the last of
//! them (it still reads `r == K`).

use super::shape::labelled;
use crate::ir::{CmpOp, Control, Dest, Glue, Guard, Op, Operand, Program, Reg};

/// A value a branch fixes on its fall-through.
pub(super) struct Fixed {
    /// The compared operand: a register or `%laneid`.
    pub(super) what: Operand,
    /// Its value on the fall-through: the `setp`'s immediate `K`, to the
    /// compare's width.
    pub(super) value: u64,
    /// The compare's width in bits.
    pub(super) bits: u32,
    /// The index of the `setp`.
    pub(super) setp: usize,
    /// The index of the branch.
    pub(super) branch: usize,
    /// The instructions that only the fall-through reaches, where `what`
    /// still holds `value` when they read it (empty where the first is
    /// control flow or a label); for the fall-through's own block
    /// (`widened` false) it ends at that block's first control flow, label
    /// or write of `what`.
    pub(super) reach: std::ops::Range<usize>,
    /// Whether `reach` is one of the wider regions of the triage of
    /// 2026-11-28-j (docs/log/gpu-2026-11-28-j/triage.md, group N20W),
    /// which only N20's detector takes: the target of `@!p bra L` where
    /// nothing else enters `L` (`setp.ne.u32 %p1, %laneid, 0; @!%p1 bra
    /// L3; bra L10; L3: xor.b32 ...`, `c/found-default/xor.b32-73aada6f`),
    /// or the fall-through past a guarded branch forward to a label inside
    /// it (`@%p3 bra L16; @!%p1 bra L17; @!%p2 xor.b32 ...; L17: L16:`,
    /// `c/found-default/xor.b32-b2532cf9`).
    pub(super) widened: bool,
}

/// Whether instruction `i` writes the register `what` is (never for
/// `%laneid`).
fn writes(prog: &Program, i: usize, what: Operand) -> bool {
    match what {
        Operand::Reg(r) => prog.insts[i].op.written().contains(&r),
        Operand::NotPred(_) | Operand::Imm(_) | Operand::LaneId => false,
    }
}

/// Every `setp.ne p, r, K; @p bra L` of `prog` with what its fall-through
/// alone reaches.
pub(super) fn fixed_on_fall_through(prog: &Program) -> Vec<Fixed> {
    let n = prog.insts.len();
    let mut found = Vec::new();
    for (s, x) in prog.insts.iter().enumerate() {
        let Op::Glue(Glue::Setp {
            cmp: CmpOp::Ne,
            combine: None,
            ty,
            p: Dest::Reg(p),
            a,
            b,
            ..
        }) = x.op
        else {
            continue;
        };
        if x.guard.is_some() || ty.is_float() || ty.bits() < 8 {
            continue;
        }
        let (what, k) = match (a, b) {
            (w @ (Operand::Reg(_) | Operand::LaneId), Operand::Imm(k))
            | (Operand::Imm(k), w @ (Operand::Reg(_) | Operand::LaneId)) => (w, k),
            _ => continue,
        };
        // Up to the branch: no label, no control flow, `p` and `r` kept.
        let mut k_at = s + 1;
        while k_at < n
            && !labelled(prog, k_at)
            && !prog.insts[k_at].op.is_control_flow()
            && !prog.insts[k_at].op.written().contains(&p)
            && !writes(prog, k_at, what)
        {
            k_at += 1;
        }
        if k_at >= n || labelled(prog, k_at) {
            continue;
        }
        let bra = &prog.insts[k_at];
        let Some(target) = bra.op.branch_target() else {
            continue;
        };
        let Some(g) = bra.guard.filter(|g| g.reg == p) else {
            continue;
        };
        let t = prog.label_target(target);
        if t <= k_at + 1 {
            continue;
        }
        let value = k & ty.mask();
        let fixed = |reach: std::ops::Range<usize>, widened| Fixed {
            what,
            value,
            bits: ty.bits(),
            setp: s,
            branch: k_at,
            reach,
            widened,
        };
        if g.negated {
            // `@!p bra L`: the lanes at `L` have `r == K` when nothing
            // else enters `L` (no fall-through into it, no other branch).
            if t >= n {
                continue;
            }
            let from = t;
            let first = &prog.insts[from];
            let to = if first.op.is_control_flow() || writes(prog, from, what) {
                from + 1
            } else {
                block_end(prog, from + 1, n, what, false, None)
            };
            if entered_only_from(prog, k_at, t) && to > from {
                found.push(fixed(from..to, true));
            }
            continue;
        }
        // The fall-through's own block, empty too (the first instruction
        // after the branch an `exit`: N20's `xor` before the branch, which
        // reads the range's end).
        let from = k_at + 1;
        let to = block_end(prog, from, t.min(n), what, false, None);
        found.push(fixed(from..to, false));
        let wide = block_end(prog, from, t.min(n), what, true, Some(p));
        if wide > to {
            found.push(fixed(from..wide, true));
        }
    }
    found
}

/// The end of the run of instructions from `from` (before `limit`) up to
/// the first label or control-flow instruction, or just past one that
/// writes `what`; with `past_inner`, a guarded branch forward to a label
/// up to `limit` does not end it, nor (since session 13's default-level
/// hunt, `docs/log/gpu-2026-11-28-m/d/found/xor.b32-b0ad7a54`: `@%p4 bra
/// L1; @%p4 bra L2; xor.b32 ...; L1:`, lane 0 0 where the reference has
/// 0xffffffff, wrong from -O1 in its level sweep) a branch under `@never`,
/// the predicate whose falseness the fall-through holds (no lane there
/// takes it).
fn block_end(
    prog: &Program,
    from: usize,
    limit: usize,
    what: Operand,
    past_inner: bool,
    never: Option<Reg>,
) -> usize {
    let mut to = from;
    while to < limit && !labelled(prog, to) {
        let x = &prog.insts[to];
        if x.op.is_control_flow() {
            let inner = x.guard.is_some()
                && x.op
                    .branch_target()
                    .is_some_and(|l| (to + 1..=limit).contains(&prog.label_target(l)));
            let not_taken = x.op.branch_target().is_some()
                && never.is_some_and(|p| {
                    x.guard
                        == Some(Guard {
                            reg: p,
                            negated: false,
                        })
                });
            if !(past_inner && (inner || not_taken)) {
                break;
            }
        }
        to += 1;
        if writes(prog, to - 1, what) {
            break;
        }
    }
    to
}

/// Whether the only way into instruction `t` is the branch at `b`: the
/// instruction before `t` is an unguarded `bra` or `exit`, and no other
/// branch targets a label at `t`.
fn entered_only_from(prog: &Program, b: usize, t: usize) -> bool {
    let before = &prog.insts[t - 1];
    let no_fall = before.guard.is_none()
        && (matches!(before.op, Op::Control(Control::Exit)) || before.op.branch_target().is_some());
    no_fall
        && prog.insts.iter().enumerate().all(|(k, x)| {
            k == b
                || x.op
                    .branch_target()
                    .is_none_or(|l| prog.label_target(l) != t)
        })
}
