//! The control-flow rows of the generator: `if` and if/else blocks,
//! loops (with one or two back edges, at pc 0, entered from two places),
//! forward jumps that land later (into the arms of other blocks, out of
//! loops), and `exit`. Every shape stays valid by construction: loops
//! count down a counter that nothing else writes, decremented first in
//! each iteration; a jump never lands inside a loop entered after it;
//! what the interpreter's probes find wrong anyway is repaired away.

use super::emit::{Entry, Gen};
use super::regs::INT32;
use super::values;
use crate::ir::*;
use arbitrary::Result;

impl<'a, 'u> Gen<'a, 'u> {
    /// `@p bra SKIP; then-block; SKIP:` or the if/else diamond
    /// `@p bra ELSE; then; bra END; ELSE: else; END:`.
    pub(super) fn branch(&mut self, with_else: bool) -> Result<()> {
        let (p, mut negated) = self.condition()?;
        if !with_else {
            // A then-block that every lane skips would be dead code.
            self.b.ensure_values(&[p]);
            let s = self.b.snap();
            if s.conv != 0 && s.pred_true(p, negated) == s.conv {
                negated = !negated;
            }
        }
        let skip = self.b.label();
        self.emit(
            Some(Guard { reg: p, negated }),
            Op::Control(Control::Bra { target: skip }),
        );
        self.nested()?;
        if with_else {
            self.stats.feature("if-else");
            let end = self.b.label();
            self.emit(None, Op::Control(Control::Bra { target: end }));
            self.b.place(skip);
            self.nested()?;
            self.b.place(end);
        } else {
            self.stats.feature("if");
            self.b.place(skip);
        }
        Ok(())
    }

    /// A predicate defined on every converged lane, and whether to negate
    /// it: one already there, one from `%laneid`, or one from data
    /// registers defined on every converged lane.
    pub(super) fn condition(&mut self) -> Result<(Reg, bool)> {
        self.b.ensure_flow();
        let negated = self.u.ratio(1u8, 2)?;
        let choice = self.u.int_in_range(0..=5)?;
        if choice == 0 {
            let ok = self.usable_preds();
            if !ok.is_empty() {
                self.stats.feature("cond.existing");
                return Ok((*self.u.choose(&ok)?, negated));
            }
        }
        let p = *self.u.choose(self.regs.of(Type::Pred))?;
        if choice >= 3 {
            if let Some(op) = self.data_condition(p)? {
                self.stats.feature("cond.data");
                self.emit(None, op);
                return Ok((p, negated));
            }
        }
        self.stats.feature("cond.lane");
        if self.u.ratio(1u8, 2)? {
            let cmp = *self.u.choose(&CmpOp::ALL)?;
            let k = self.u.int_in_range(0..=31)?;
            self.emit(
                None,
                Op::Glue(Glue::Setp {
                    cmp,
                    combine: None,
                    ty: Type::U32,
                    p: Dest::Reg(p),
                    q: None,
                    a: Operand::LaneId,
                    b: Operand::Imm(k),
                }),
            );
        } else {
            let t = self.regs.pick_among(self.u, &INT32)?;
            let m = self.u.int_in_range(1..=31)?;
            self.emit(
                None,
                Op::Glue(Glue::Bin {
                    op: BinOp::And,
                    ty: Type::B32,
                    d: Dest::Reg(t),
                    a: Operand::LaneId,
                    b: Operand::Imm(m),
                }),
            );
            self.emit(
                None,
                Op::Glue(Glue::Setp {
                    cmp: CmpOp::Ne,
                    combine: None,
                    ty: Type::B32,
                    p: Dest::Reg(p),
                    q: None,
                    a: Operand::Reg(t),
                    b: Operand::Imm(0),
                }),
            );
        }
        Ok((p, negated))
    }

    /// `setp` into `p` over data registers defined on every converged lane
    /// (as the last probe saw them), or `None` when there are none.
    fn data_condition(&mut self, p: Reg) -> Result<Option<Op>> {
        let cmp = *self.u.choose(&CmpOp::ALL)?;
        let ty = *self.u.choose(cmp.types())?;
        let s = self.b.snap();
        let ok: Vec<Reg> = self
            .regs
            .compatible(ty)
            .into_iter()
            .filter(|&r| !self.b.is_dirty(r) && s.defined_on_conv(r))
            .collect();
        if ok.is_empty() {
            return Ok(None);
        }
        let a = Operand::Reg(*self.u.choose(&ok)?);
        let b = if self.u.ratio(1u8, 2)? {
            Operand::Reg(*self.u.choose(&ok)?)
        } else {
            Operand::Imm(values::value(self.u, ty)?)
        };
        Ok(Some(Op::Glue(Glue::Setp {
            cmp,
            combine: None,
            ty,
            p: Dest::Reg(p),
            q: None,
            a,
            b,
        })))
    }

    /// A loop whose trip count differs per lane, with its own counter,
    /// decremented first thing in every iteration (so a forward jump inside
    /// the body cannot skip it and make the loop endless):
    /// `do { --ctr; body } while (ctr > 0)`, the same with a second back
    /// edge in the middle of the body (`if (ctr > 0 && q) continue;`), or
    /// `while (ctr > 0) { --ctr; body }`.
    ///
    /// As the program's first construct its head is pc 0 and the counter
    /// comes from `.lanes`; otherwise, now and then, the loop is entered
    /// from two places: the counter is set, a forward `@q bra HEAD` skips a
    /// block, and the lanes that ran the block fall into the head.
    pub(super) fn looped(&mut self) -> Result<()> {
        let d = self.loop_depth;
        let (ctr, lp) = (self.regs.ctr[d], self.regs.lp[d]);
        if d > 0 {
            self.stats.feature("loop.nested");
        }
        if self.b.len() == 0 {
            self.stats.feature("loop.at-pc0");
            let t = u64::from(self.cfg.max_trips);
            let mut lanes = [0u64; WARP];
            for x in lanes.iter_mut() {
                *x = self.u.int_in_range(0..=t)?;
            }
            self.b.set_input(ctr, lanes);
        } else {
            self.loop_init(ctr)?;
        }
        let two_entries = self.b.len() > 0 && self.budget >= 8 && self.u.ratio(1u8, 4)?;
        let head = if two_entries {
            self.b.label()
        } else {
            self.b.here()
        };
        if two_entries {
            self.stats.feature("loop.two-entries");
            let (q, negated) = self.condition()?;
            self.emit(
                Some(Guard { reg: q, negated }),
                Op::Control(Control::Bra { target: head }),
            );
            // The skipped block may hold loops of its own, one level down:
            // this loop's counter is already set.
            self.loop_depth += 1;
            let r = self.nested();
            self.loop_depth -= 1;
            r?;
            self.b.place(head);
        }
        let dec = Op::Glue(Glue::Bin {
            op: BinOp::Sub,
            ty: Type::S32,
            d: Dest::Reg(ctr),
            a: Operand::Reg(ctr),
            b: Operand::Imm(1),
        });
        let test = |cmp, combine| {
            Op::Glue(Glue::Setp {
                cmp,
                combine,
                ty: Type::S32,
                p: Dest::Reg(lp),
                q: None,
                a: Operand::Reg(ctr),
                b: Operand::Imm(0),
            })
        };
        let on_lp = Some(Guard {
            reg: lp,
            negated: false,
        });
        let back = Op::Control(Control::Bra { target: head });
        self.enter_loop();
        let r = (|| -> Result<()> {
            match self.u.int_in_range(0..=4)? {
                0..=1 => {
                    self.stats.feature("loop.do-while");
                    self.emit(None, dec);
                    self.nested()?;
                }
                2 => {
                    self.stats.feature("loop.two-back-edges");
                    self.emit(None, dec);
                    self.nested()?;
                    let (q, negated) = self.condition()?;
                    let q = if negated {
                        Operand::NotPred(q)
                    } else {
                        Operand::Reg(q)
                    };
                    self.emit(None, test(CmpOp::Gt, Some((BoolOp::And, q))));
                    self.emit(on_lp, back.clone());
                    self.nested()?;
                }
                _ => {
                    self.stats.feature("loop.while");
                    let end = self.b.label();
                    self.emit(None, test(CmpOp::Le, None));
                    self.emit(on_lp, Op::Control(Control::Bra { target: end }));
                    self.emit(None, dec);
                    self.nested()?;
                    self.emit(None, back.clone());
                    self.b.place(end);
                    return Ok(());
                }
            }
            self.emit(None, test(CmpOp::Gt, None));
            self.emit(on_lp, back.clone());
            Ok(())
        })();
        self.leave_loop();
        r
    }

    /// Marks the emission point as inside a new loop (one level deeper).
    fn enter_loop(&mut self) {
        self.loop_depth += 1;
        self.loops.push(self.next_loop);
        self.next_loop += 1;
    }

    /// Leaves the innermost loop.
    fn leave_loop(&mut self) {
        self.loop_depth -= 1;
        self.loops.pop();
    }

    /// `@p bra L` with `L` placed later ([`Gen::land_jumps`]): lanes skip
    /// ahead, out of blocks and loops or into the arms of later ones.
    pub(super) fn goto(&mut self) -> Result<()> {
        let (p, negated) = self.condition()?;
        let label = self.b.label();
        self.emit(
            Some(Guard { reg: p, negated }),
            Op::Control(Control::Bra { target: label }),
        );
        self.stats.feature("jump.forward");
        self.entries.push(Entry {
            label,
            at: self.b.len(),
            loops: self.loops.clone(),
        });
        Ok(())
    }

    /// Places, each with a chance of one in three, the labels of pending
    /// forward jumps that may land here: not right after their jump, and
    /// not inside a loop entered after it.
    pub(super) fn land_jumps(&mut self) -> Result<()> {
        let mut k = 0;
        while k < self.entries.len() {
            let e = &self.entries[k];
            let may = e.at != self.b.len() && e.loops.starts_with(&self.loops);
            if may && self.u.ratio(1u8, 3)? {
                let e = self.entries.remove(k);
                self.b.place(e.label);
                if e.loops.len() > self.loops.len() {
                    self.stats.feature("jump.out-of-loop");
                }
            } else {
                k += 1;
            }
        }
        Ok(())
    }

    /// Places every pending jump's label at the end of the program.
    pub(super) fn land_all_jumps(&mut self) {
        for e in std::mem::take(&mut self.entries) {
            self.b.place(e.label);
        }
    }

    /// Sets a loop counter to at most `max_trips` on every converged lane:
    /// the same on all lanes, from `%laneid`, or from a data register
    /// defined on every converged lane.
    fn loop_init(&mut self, ctr: Reg) -> Result<()> {
        let t = self.cfg.max_trips;
        // The largest 2^k - 1 <= t, and the shift that brings lane ids to <= t.
        let low_mask = (1u64 << (32 - (t + 1).leading_zeros() - 1)) - 1;
        let shift = 5 - (31 - (t + 1).leading_zeros()) as u64;
        let and = |a: Operand| {
            Op::Glue(Glue::Bin {
                op: BinOp::And,
                ty: Type::B32,
                d: Dest::Reg(ctr),
                a,
                b: Operand::Imm(low_mask),
            })
        };
        let op = match self.u.int_in_range(0..=3)? {
            0 => {
                self.stats.feature("loop.uniform-trips");
                Op::Glue(Glue::Mov {
                    ty: Type::S32,
                    d: Dest::Reg(ctr),
                    a: Operand::Imm(self.u.int_in_range(1..=t as u64)?),
                })
            }
            1 => {
                self.stats.feature("loop.lane-trips");
                Op::Glue(Glue::Bin {
                    op: BinOp::Shr,
                    ty: Type::U32,
                    d: Dest::Reg(ctr),
                    a: Operand::LaneId,
                    b: Operand::Imm(shift),
                })
            }
            choice => {
                self.b.ensure_flow();
                let s = self.b.snap();
                let ok: Vec<Reg> = INT32
                    .iter()
                    .flat_map(|&ty| self.regs.of(ty).iter().copied())
                    .filter(|&r| !self.b.is_dirty(r) && s.defined_on_conv(r))
                    .collect();
                if choice == 3 && !ok.is_empty() {
                    self.stats.feature("loop.data-trips");
                    and(Operand::Reg(*self.u.choose(&ok)?))
                } else {
                    self.stats.feature("loop.lane-trips");
                    and(Operand::LaneId)
                }
            }
        };
        self.emit(None, op);
        Ok(())
    }

    /// `@p exit` (a guard defined on every converged lane, that leaves some
    /// lane running), or an unguarded `exit` ending a nested block that not
    /// every running lane entered. Falls back to glue.
    pub(super) fn exit(&mut self) -> Result<()> {
        self.b.ensure_flow();
        let s = self.b.snap();
        let (conv, live) = (s.conv, !s.exited);
        if self.depth > 0 && conv != live && self.u.ratio(1u8, 3)? {
            self.stats.feature("exit.in-block");
            self.emit(None, Op::Control(Control::Exit));
            self.ended = true;
            return Ok(());
        }
        match self.guard()? {
            Some((g, exec)) if exec != live => {
                self.stats.feature("exit.guarded");
                self.emit(Some(g), Op::Control(Control::Exit));
                Ok(())
            }
            _ => self.glue(),
        }
    }
}
