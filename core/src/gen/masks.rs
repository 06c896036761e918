//! Guards and membermasks, drawn from what the lanes are doing at the point
//! of emission.
//!
//! A guard is a data predicate defined on every converged lane (otherwise
//! the guard itself is undefined behaviour). A membermask is one of:
//! the lanes that execute (all converged lanes, or those a guard leaves on),
//! as an immediate; that plus some exited lanes; `0xffffffff` where every
//! lane is converged or exited; a register written by `activemask` just
//! before, under the same guard (the only kind used inside loops, where the
//! converged lanes change from one iteration to the next); that register
//! ANDed with a per-lane partition of the warp (disjoint groups, each with
//! its own mask); the answer of a `match.any.sync` of the group masks just
//! before, under the same guard (the same partition, as warp-aggregating
//! code makes it: each lane's group of the lanes with its key); a register
//! set by `mov`. (Under a guard, converged but
//! predicated-off lanes are never members: that is undefined behaviour.)

use super::config::{chance, weighted};
use super::emit::Gen;
use crate::ir::*;
use arbitrary::Result;

/// Where a membermask comes from.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Source {
    Activemask,
    Group,
    MatchAny,
    Exec,
    ExecExited,
    AllOnes,
    MovReg,
}

impl Gen<'_, '_> {
    /// The data predicates whose current value the snapshot knows and that
    /// are defined on every converged lane.
    pub(super) fn usable_preds(&self) -> Vec<Reg> {
        let s = self.b.snap();
        self.regs
            .of(Type::Pred)
            .iter()
            .copied()
            .filter(|&p| !self.b.is_dirty(p) && s.defined_on_conv(p))
            .collect()
    }

    /// A guard with probability `guard_ratio`, with the lanes it leaves on.
    pub(super) fn maybe_guard(&mut self) -> Result<Option<(Guard, u32)>> {
        if !chance(self.u, self.cfg.guard_ratio)? {
            return Ok(None);
        }
        self.guard()
    }

    /// A guard on a predicate defined on every converged lane, with the
    /// converged lanes it leaves on, or `None` when no predicate qualifies.
    pub(super) fn guard(&mut self) -> Result<Option<(Guard, u32)>> {
        self.b.ensure_flow();
        let mut ok = self.usable_preds();
        let preds = self.regs.of(Type::Pred).to_vec();
        if ok.is_empty() && preds.iter().any(|&p| self.b.is_dirty(p)) && self.u.ratio(1u8, 2)? {
            self.b.ensure_values(&preds);
            ok = self.usable_preds();
        }
        if ok.is_empty() {
            return Ok(None);
        }
        let reg = *self.u.choose(&ok)?;
        let mut negated = self.u.ratio(1u8, 3)?;
        let s = self.b.snap();
        if s.pred_true(reg, negated) == 0 {
            // A guard that leaves no lane on would make the instruction dead.
            negated = !negated;
        }
        let exec = s.pred_true(reg, negated);
        self.stats.feature("guard");
        if negated {
            self.stats.feature("guard.negated");
        }
        Ok(Some((Guard { reg, negated }, exec)))
    }

    /// A membermask for a collective about to be emitted under `guard`
    /// (with the lanes it leaves on); emits the instructions a register
    /// mask needs.
    pub(super) fn membermask(&mut self, guard: Option<(Guard, u32)>) -> Result<Operand> {
        self.b.ensure_flow();
        let s = self.b.snap();
        let (conv, exited, parked, split) = (s.conv, s.exited, s.parked(), s.split);
        let in_loop = self.loop_depth > 0;
        if guard.is_some() {
            self.stats.feature("collective.guarded");
        }
        if parked != 0 {
            self.stats.feature("collective.divergent");
        }
        if exited != 0 {
            self.stats.feature("collective.exited-lanes");
        }
        if in_loop {
            self.stats.feature("collective.in-loop");
        }
        if conv == 0 && !in_loop {
            // No lane ever gets here.
            self.stats.feature("mask.dead-code");
            return Ok(Operand::Imm(u32::MAX as u64));
        }
        let exec = guard.map_or(conv, |(_, e)| e);
        let g = guard.map(|(g, _)| g);
        let mut opts = if split {
            Vec::new()
        } else {
            vec![(Source::Activemask, 3), (Source::Group, 2)]
        };
        if !in_loop || opts.is_empty() {
            opts.push((Source::Exec, 6));
            opts.push((Source::MovReg, 1));
            opts.push((Source::MatchAny, 2));
            if exited != 0 {
                opts.push((Source::ExecExited, 2));
            }
            if guard.is_none() && conv | exited == u32::MAX {
                opts.push((Source::AllOnes, 4));
            }
        }
        let source = weighted(self.u, &opts)?;
        // Every lane converged or exited: the whole warp may be named.
        let whole = guard.is_none() && conv | exited == u32::MAX;
        let masks = self.regs.masks.clone();
        Ok(match source {
            Source::Activemask => {
                self.stats.feature("mask.activemask-reg");
                let m = *self.u.choose(&masks)?;
                self.emit(g, Op::Activemask(Activemask { d: Dest::Reg(m) }));
                Operand::Reg(m)
            }
            Source::Group => {
                self.stats.feature("mask.group-reg");
                let i = self.u.int_in_range(0..=masks.len() - 1)?;
                let (m, m2) = (masks[i], masks[(i + 1) % masks.len()]);
                self.emit(g, Op::Activemask(Activemask { d: Dest::Reg(m) }));
                self.emit(
                    g,
                    Op::Glue(Glue::Bin {
                        op: BinOp::And,
                        ty: Type::B32,
                        d: Dest::Reg(m2),
                        a: Operand::Reg(m),
                        b: Operand::Reg(self.regs.group),
                    }),
                );
                Operand::Reg(m2)
            }
            Source::MatchAny => {
                // Each executing lane gets the executing lanes with its
                // group mask: their membermask, the same on all of them.
                self.stats.feature("mask.match-any-reg");
                let m = *self.u.choose(&masks)?;
                let over = if whole { u32::MAX } else { exec };
                self.emit(
                    g,
                    Op::Match(Match {
                        mode: MatchMode::Any,
                        wide: false,
                        d: Dest::Reg(m),
                        p: None,
                        a: Operand::Reg(self.regs.group),
                        membermask: Operand::Imm(over as u64),
                    }),
                );
                Operand::Reg(m)
            }
            Source::Exec => {
                self.stats.feature(if guard.is_some() {
                    "mask.guard-exec"
                } else {
                    "mask.converged"
                });
                Operand::Imm(exec as u64)
            }
            Source::ExecExited => {
                self.stats.feature("mask.converged+exited");
                let some = exited & self.u.arbitrary::<u32>()?;
                let extra = if some == 0 { exited } else { some };
                Operand::Imm((exec | extra) as u64)
            }
            Source::AllOnes => {
                self.stats.feature("mask.all-ones");
                Operand::Imm(u32::MAX as u64)
            }
            Source::MovReg => {
                self.stats.feature("mask.mov-reg");
                let m = *self.u.choose(&masks)?;
                self.emit(
                    None,
                    Op::Glue(Glue::Mov {
                        ty: Type::B32,
                        d: Dest::Reg(m),
                        a: Operand::Imm(exec as u64),
                    }),
                );
                Operand::Reg(m)
            }
        })
    }
}
