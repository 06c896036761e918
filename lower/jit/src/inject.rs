//! Deliberate bugs for fault-injection runs (test-only).
//!
//! Built only with the `inject-bugs` feature, and then switched on by
//! `WARPDIFF_INJECT=name[,name...]`; in every normal build [`on`] is a
//! constant `false` and the lowering is unchanged.

use warp_core::ir::{Dest, Glue, Op, Operand, Program};

/// A bug that can be injected into the JIT.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Bug {
    /// `shfl-down-clamp`: `.down` tests `j < maxLane` instead of `<=`.
    ShflDownClamp,
    /// `vote-uni-inverted`: `vote.uni` returns the opposite.
    VoteUniInverted,
    /// `match-any-exited`: `match.any` counts exited member lanes as if
    /// they took part.
    MatchAnyExited,
    /// `redux-fmax-zero`: f32 `redux.max` treats `-0.0` and `+0.0` as equal.
    ReduxFmaxZero,
    /// `jit-rejects-popc`: compiling a program with a `popc` fails with a
    /// lowering error (a JIT that cannot compile a valid program).
    RejectsPopc,
    /// `label-at-pc0`: the first segment is taken as the whole warp even
    /// when a label stands at pc 0, so a loop back to the start writes
    /// the lanes that did not come back (shows only with a label at pc 0).
    LabelAtPc0,
    /// `fwd-into-loop-head`: lanes taking a forward branch to a loop head
    /// skip the head's first segment (shows only on that shape).
    FwdIntoLoopHead,
    /// `fuel-in-loops`: a taken back edge is charged two steps, so a run
    /// with a loop stops too early (shows in bounded runs with a loop).
    FuelInLoops,
    /// `fuel-refund`: a taken back edge refunds a step, so a one-instruction
    /// loop never runs out of fuel (the runaway bound must end it).
    FuelRefund,
    /// `copy-coalesce`: an ALU operation whose result is copied by a later
    /// `mov` and then redefined (a short live range ending in a copy,
    /// where a coalescing bug would strike) gets its operands swapped
    /// (wrong for `sub`; `add`, `and`... are immune); the wrong value is
    /// seen only through the `mov`.
    CopyCoalesce,
    /// `cvt-sat-bound`: integer `cvt.sat` clamps to one less than the
    /// destination type's largest value.
    CvtSatBound,
    /// `mul-wide-zext`: `mul.wide.s16`/`.s32` zero-extends its operands
    /// instead of sign-extending them.
    MulWideZext,
    /// `bfe-len0`: `bfe` takes a length of 0 as 32.
    BfeLenZero,
    /// `f64-rz-as-rn`: `.f64` arithmetic with `.rz` rounds to nearest.
    F64RzAsRn,
}

impl Bug {
    /// Every bug with its name.
    pub const ALL: [(Bug, &'static str); 14] = [
        (Bug::ShflDownClamp, "shfl-down-clamp"),
        (Bug::VoteUniInverted, "vote-uni-inverted"),
        (Bug::MatchAnyExited, "match-any-exited"),
        (Bug::ReduxFmaxZero, "redux-fmax-zero"),
        (Bug::RejectsPopc, "jit-rejects-popc"),
        (Bug::LabelAtPc0, "label-at-pc0"),
        (Bug::FwdIntoLoopHead, "fwd-into-loop-head"),
        (Bug::FuelInLoops, "fuel-in-loops"),
        (Bug::CopyCoalesce, "copy-coalesce"),
        (Bug::FuelRefund, "fuel-refund"),
        (Bug::CvtSatBound, "cvt-sat-bound"),
        (Bug::MulWideZext, "mul-wide-zext"),
        (Bug::BfeLenZero, "bfe-len0"),
        (Bug::F64RzAsRn, "f64-rz-as-rn"),
    ];
}

/// [`Bug::RejectsPopc`]: the compile error it injects, for a program that
/// has a `popc`.
pub(crate) fn compile_error(prog: &Program) -> Result<(), String> {
    if !on(Bug::RejectsPopc) {
        return Ok(());
    }
    match prog
        .insts
        .iter()
        .find(|i| i.op.form_name().starts_with("popc"))
    {
        Some(i) => Err(format!(
            "injected bug jit-rejects-popc: cannot lower `{}` (line {})",
            warp_core::text::inst_text(prog, i),
            i.line
        )),
        None => Ok(()),
    }
}

/// [`Bug::FwdIntoLoopHead`]: whether pc `at` is a loop head (a `bra` at
/// or after it jumps back to it).
pub(crate) fn is_loop_head(prog: &Program, at: usize) -> bool {
    prog.insts.iter().enumerate().skip(at).any(|(_, i)| {
        i.op.branch_target()
            .is_some_and(|t| prog.label_target(t) == at)
    })
}

/// [`Bug::CopyCoalesce`]: the wrong instruction it lowers at `pc` instead
/// of the right one, where it strikes.
pub(crate) fn rewrite(prog: &Program, pc: usize) -> Option<Op> {
    if !on(Bug::CopyCoalesce) {
        return None;
    }
    let Op::Glue(Glue::Bin { op, ty, d, a, b }) = prog.insts[pc].op else {
        return None;
    };
    let (true, Dest::Reg(r)) = (op.b_type(ty) == ty, d) else {
        return None;
    };
    let later = &prog.insts[pc + 1..];
    let copied = later
        .iter()
        .position(|i| matches!(i.op, Op::Glue(Glue::Mov { a: Operand::Reg(s), .. }) if s == r))?;
    // The operands swapped: wrong wherever their order matters (`sub`,
    // `mul.hi` of mixed signs...).
    later[copied + 1..]
        .iter()
        .any(|i| i.op.written().contains(&r))
        .then_some(Op::Glue(Glue::Bin {
            op,
            ty,
            d,
            a: b,
            b: a,
        }))
}

/// Whether `bug` is switched on.
#[cfg(feature = "inject-bugs")]
pub fn on(bug: Bug) -> bool {
    use std::sync::OnceLock;
    static ON: OnceLock<Vec<Bug>> = OnceLock::new();
    ON.get_or_init(|| {
        let var = std::env::var("WARPDIFF_INJECT").unwrap_or_default();
        Bug::ALL
            .iter()
            .filter(|(_, name)| var.split(',').any(|v| v.trim() == *name))
            .map(|(b, _)| *b)
            .collect()
    })
    .contains(&bug)
}

/// Whether `bug` is switched on: never, without the `inject-bugs` feature.
#[cfg(not(feature = "inject-bugs"))]
pub fn on(_bug: Bug) -> bool {
    false
}
