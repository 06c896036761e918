//! Reading `atom`, `red`, `membar` and `fence` (issue #37) into
//! [`LaneOpKind::Atom`] and [`LaneOpKind::Fence`] (`ir/atomic.rs` has what
//! they mean).
//!
//! The ISA writes `atom{.sem}{.scope}{.space}.op.type d, [a], b{, c}` and
//! `red{.sem}{.scope}{.space}.op.type [a], b`, and its own examples put the
//! qualifiers in other orders (`atom.global.acquire.sys.inc.u32`,
//! `atom.global.cluster.relaxed.add.u32`), so the qualifiers are read in
//! any order, each at most once. The opcode is kept as written (the
//! printer writes it back). Refused, with the instruction's name: the
//! half-precision, 128-bit and vector forms, `.noftz`, cache hints and
//! `.shared::cluster` ("not supported yet"), an operation on a type the
//! ISA does not give it, `red.cas`/`red.exch`, and any other qualifier.
//! `membar.{cta,gl,sys}` and `fence{.sc,.acq_rel}.{cta,cluster,gpu,sys}`
//! are read; `fence.proxy`, `fence.mbarrier_init` and the like are not
//! supported yet.

use super::parse::{Build, PResult};
use crate::ir::*;

impl Build<'_> {
    /// `atom...` (`returns`) or `red...`.
    pub(super) fn atomic(&self, parts: &[&str], returns: bool) -> PResult<Op> {
        let text = &self.opt.text;
        let mut space = None;
        let mut sem = None;
        let mut scope = None;
        let mut op = None;
        let mut ty = None;
        let twice = |what: &str| self.fail(format!("`{text}`: two {what} qualifiers"));
        for &m in &parts[1..] {
            if let Some(s) = match m {
                "global" => Some(AtomSpace::Global),
                "shared" => Some(AtomSpace::Shared),
                _ => None,
            } {
                if space.replace(s).is_some() {
                    return twice("space");
                }
            } else if let Some(s) = Sem::from_name(m).filter(|s| *s != Sem::Sc) {
                if sem.replace(s).is_some() {
                    return twice("`.sem`");
                }
            } else if let Some(s) = MemScope::from_name(m) {
                if scope.replace(s).is_some() {
                    return twice("scope");
                }
            } else if let Some(o) = AtomOp::from_name(m) {
                if op.replace(o).is_some() {
                    return twice("operation");
                }
            } else if let Some(t) = Type::from_name(m).filter(|t| *t != Type::Pred) {
                if ty.replace(t).is_some() {
                    return twice("type");
                }
            } else if matches!(
                m,
                "noftz" | "f16" | "f16x2" | "bf16" | "bf16x2" | "b16" | "b128" | "v2" | "v4" | "v8"
            ) || m.starts_with("L2")
                || m.starts_with("shared")
            {
                return self.fail(format!("not supported yet: `{text}`"));
            } else {
                return self.fail(format!("`{text}`: unknown qualifier `.{m}`"));
            }
        }
        let Some(op) = op else {
            return self.fail(format!("`{text}`: no operation"));
        };
        let Some(ty) = ty else {
            return self.fail(format!("`{text}`: no type"));
        };
        if !op.takes(ty) {
            return self.fail(format!(
                "`{text}`: `.{}` does not take type {ty}",
                op.name()
            ));
        }
        if !returns && matches!(op, AtomOp::Cas | AtomOp::Exch) {
            return self.fail(format!("`{text}`: `red` has no `.{}`", op.name()));
        }
        let first = usize::from(returns);
        self.count(first + 1 + op.operands())?;
        let space = space.unwrap_or(AtomSpace::Generic);
        let (addr, eff) = self.address(first, space.space())?;
        let space = match eff {
            Space::Global => AtomSpace::Global,
            Space::Shared => AtomSpace::Shared,
            Space::Generic => AtomSpace::Generic,
            Space::Local | Space::Param | Space::Const => {
                return self.fail(format!(
                    "`{text}`: an atomic on .{} memory (only .global, .shared or generic)",
                    eff.name()
                ))
            }
        };
        let dests = if returns {
            vec![(self.dest(0, ty)?, ty)]
        } else {
            Vec::new()
        };
        let mut srcs = Vec::new();
        for i in 0..op.operands() {
            srcs.push((self.src(first + 1 + i, ty)?, ty));
        }
        let kind = LaneOpKind::Atom(Atomic {
            op,
            space,
            returns,
            sem,
            scope,
        });
        self.lane_op(kind, dests, srcs, Some(addr))
    }

    /// `membar.{cta,gl,sys}` or `fence{.sem}.scope`.
    pub(super) fn fence(&self, parts: &[&str]) -> PResult<Op> {
        let text = &self.opt.text;
        let fence = if parts[0] == "membar" {
            let scope = match parts[1..] {
                ["cta"] => MemScope::Cta,
                ["gl"] => MemScope::Gpu,
                ["sys"] => MemScope::Sys,
                _ => return self.fail(format!("`{text}`: expected `membar.{{cta,gl,sys}}`")),
            };
            Fence {
                sem: Sem::Sc,
                scope,
                membar: true,
            }
        } else {
            let (sem, rest) = match parts.get(1).and_then(|m| Sem::from_name(m)) {
                Some(s) if s != Sem::Relaxed => (s, &parts[2..]),
                _ => (Sem::AcqRel, &parts[1..]),
            };
            let scope = match rest {
                [s] => MemScope::from_name(s),
                _ => None,
            };
            let Some(scope) = scope else {
                if parts
                    .get(1)
                    .is_some_and(|m| m.starts_with("proxy") || m.starts_with("mbarrier"))
                {
                    return self.fail(format!("not supported yet: `{text}`"));
                }
                return self.fail(format!(
                    "`{text}`: expected `fence{{.sc,.acq_rel}}.{{cta,cluster,gpu,sys}}`"
                ));
            };
            Fence {
                sem,
                scope,
                membar: false,
            }
        };
        self.count(0)?;
        self.lane_op(LaneOpKind::Fence(fence), Vec::new(), Vec::new(), None)
    }
}
