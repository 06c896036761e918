//! Deliberate bugs for fault-injection runs (test-only).
//!
//! Built only with the `inject-bugs` feature, and then switched on by
//! `WARPDIFF_INJECT=name[,name...]`; in every normal build [`on`] is a
//! constant `false` and the lowering is unchanged.

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
}

impl Bug {
    /// Every bug with its name.
    pub const ALL: [(Bug, &'static str); 5] = [
        (Bug::ShflDownClamp, "shfl-down-clamp"),
        (Bug::VoteUniInverted, "vote-uni-inverted"),
        (Bug::MatchAnyExited, "match-any-exited"),
        (Bug::ReduxFmaxZero, "redux-fmax-zero"),
        (Bug::RejectsPopc, "jit-rejects-popc"),
    ];
}

/// [`Bug::RejectsPopc`]: the compile error it injects, for a program that
/// has a `popc`.
pub(crate) fn compile_error(prog: &warp_core::ir::Program) -> Result<(), super::JitError> {
    if !on(Bug::RejectsPopc) {
        return Ok(());
    }
    match prog
        .insts
        .iter()
        .find(|i| i.op.form_name().starts_with("popc"))
    {
        Some(i) => Err(super::JitError::Failed(format!(
            "injected bug jit-rejects-popc: cannot lower `{}` (line {})",
            warp_core::text::inst_text(prog, i),
            i.line
        ))),
        None => Ok(()),
    }
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
