//! The emitter: a table of rows `(weight, valid here?, emit)`, as in
//! cranelift-fuzzgen and wasm-smith, and the code of each row: glue,
//! collectives, `activemask`, if / if-else blocks, loops and `exit`.
//!
//! Every row emits at least one instruction, so a block always ends. What a
//! row needs to know about the lanes (which are converged, which predicates
//! are defined there, what a guard leaves on) it asks the
//! [`Builder`], which asks the interpreter.

use super::config::{chance, weighted, Config, Weights};
use super::forms::{
    bin_types, redux_ops, setp_types, un_types, BIN_OPS, BOOL_OPS, CMP_OPS, MOV_TYPES, SELP_TYPES,
    UN_OPS,
};
use super::probe::Builder;
use super::regs::{RegFile, ANY32, ANY64, INT32};
use super::stats::Stats;
use super::values::{self, BKind, CKind};
use crate::ir::*;
use arbitrary::{Result, Unstructured};

/// The `.version`/`.target` family of a case, which decides which forms it
/// may use.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Flavor {
    /// `.version 9.1`, `.target sm_90`: every `.sync` form, integer `redux`.
    Modern,
    /// `.version 6.3`, `.target sm_70`: adds the deprecated `shfl`/`vote`;
    /// `redux.sync` needs PTX 7.0, so none.
    Deprecated,
    /// `.version 9.1`, `.target sm_100a`: adds `.f32` `redux.sync`.
    ReduxF32,
}

impl Flavor {
    /// The directives of the flavour.
    pub fn directives(self) -> (Version, Target) {
        match self {
            Flavor::Modern => (Version::new(9, 1), Target::default()),
            Flavor::Deprecated => (
                Version::new(6, 3),
                Target {
                    sm: 70,
                    suffix: None,
                },
            ),
            Flavor::ReduxF32 => (
                Version::new(9, 1),
                Target {
                    sm: 100,
                    suffix: Some('a'),
                },
            ),
        }
    }

    /// Its name in [`Stats::flavors`].
    pub fn name(self) -> &'static str {
        match self {
            Flavor::Modern => "sm_90",
            Flavor::Deprecated => "sm_70 deprecated",
            Flavor::ReduxF32 => "sm_100a",
        }
    }
}

/// The generator's state while it emits one case.
pub(crate) struct Gen<'a, 'u> {
    /// The fuzzer's bytes.
    pub u: &'a mut Unstructured<'u>,
    /// The (sanitized) configuration.
    pub cfg: &'a Config,
    /// The program so far.
    pub b: Builder,
    /// The registers, by role.
    pub regs: RegFile,
    /// The flavour of the case.
    pub flavor: Flavor,
    /// Feature counters.
    pub stats: &'a mut Stats,
    /// Nesting depth of blocks.
    pub depth: usize,
    /// Nesting depth of loops.
    pub loop_depth: usize,
    /// Instructions still to emit.
    pub budget: usize,
    /// Set when the current block ended in an unguarded `exit`.
    ended: bool,
}

/// One row of the table.
struct Row {
    /// What it emits (for readers and debuggers; not read by the code).
    #[allow(dead_code)]
    name: &'static str,
    /// How often it is picked under a config.
    weight: fn(&Weights) -> u32,
    /// Whether it may be emitted at this point.
    valid: fn(&Gen) -> bool,
    /// Emits it.
    emit: fn(&mut Gen) -> Result<()>,
}

/// The rows. Glue comes first: it is the fallback when no row has weight.
const ROWS: &[Row] = &[
    Row {
        name: "glue",
        weight: |w| w.glue,
        valid: |_| true,
        emit: |g| g.glue(),
    },
    Row {
        name: "shfl.sync",
        weight: |w| w.shfl,
        valid: |_| true,
        emit: |g| g.shfl(true),
    },
    Row {
        name: "shfl (deprecated)",
        weight: |w| w.shfl,
        valid: |g| g.flavor == Flavor::Deprecated,
        emit: |g| g.shfl(false),
    },
    Row {
        name: "vote.sync",
        weight: |w| w.vote,
        valid: |_| true,
        emit: |g| g.vote(true),
    },
    Row {
        name: "vote (deprecated)",
        weight: |w| w.vote,
        valid: |g| g.flavor == Flavor::Deprecated,
        emit: |g| g.vote(false),
    },
    Row {
        name: "match.sync",
        weight: |w| w.matching,
        valid: |_| true,
        emit: |g| g.matching(),
    },
    Row {
        name: "redux.sync integer",
        weight: |w| w.redux,
        valid: |g| g.flavor != Flavor::Deprecated,
        emit: |g| g.redux(false),
    },
    Row {
        name: "redux.sync f32",
        weight: |w| w.redux,
        valid: |g| g.flavor == Flavor::ReduxF32,
        emit: |g| g.redux(true),
    },
    Row {
        name: "activemask",
        weight: |w| w.activemask,
        valid: |_| true,
        emit: |g| g.activemask(),
    },
    Row {
        name: "if",
        weight: |w| w.branch,
        valid: |g| g.depth < g.cfg.max_depth && g.budget >= 3,
        emit: |g| g.branch(false),
    },
    Row {
        name: "if-else",
        weight: |w| w.if_else,
        valid: |g| g.depth < g.cfg.max_depth && g.budget >= 4,
        emit: |g| g.branch(true),
    },
    Row {
        name: "loop",
        weight: |w| w.loops,
        valid: |g| {
            g.depth < g.cfg.max_depth && g.loop_depth < g.cfg.max_loop_depth && g.budget >= 5
        },
        emit: |g| g.looped(),
    },
    Row {
        name: "exit",
        weight: |w| w.exit,
        valid: |_| true,
        emit: |g| g.exit(),
    },
];

/// The kinds of glue and their relative weights (`setp` has the most
/// forms, so it comes most often).
#[derive(Clone, Copy)]
enum Glue {
    Mov,
    Bin(BinOp),
    Un(UnOp),
    Setp,
    Selp,
}

impl<'a, 'u> Gen<'a, 'u> {
    /// A generator over an empty body.
    pub fn new(
        u: &'a mut Unstructured<'u>,
        cfg: &'a Config,
        b: Builder,
        regs: RegFile,
        flavor: Flavor,
        stats: &'a mut Stats,
        budget: usize,
    ) -> Self {
        Gen {
            u,
            cfg,
            b,
            regs,
            flavor,
            stats,
            depth: 0,
            loop_depth: 0,
            budget,
            ended: false,
        }
    }

    /// Appends an instruction of the body (counted against the budget).
    pub fn emit(&mut self, guard: Option<Guard>, op: Op) {
        self.budget = self.budget.saturating_sub(1);
        self.b.push(guard, op);
    }

    /// Emits rows until `n` instructions are spent or the block ends in an
    /// `exit`.
    pub fn block(&mut self, n: usize) -> Result<()> {
        let stop = self.budget.saturating_sub(n);
        while self.budget > stop && !self.ended {
            let row = self.pick_row()?;
            (row.emit)(self)?;
        }
        Ok(())
    }

    fn pick_row(&mut self) -> Result<&'static Row> {
        let w = &self.cfg.weights;
        let rows: Vec<(&'static Row, u32)> = ROWS
            .iter()
            .filter(|r| (r.valid)(self))
            .map(|r| (r, (r.weight)(w)))
            .filter(|(_, w)| *w > 0)
            .collect();
        let total: u32 = rows.iter().map(|(_, w)| w).sum();
        if total == 0 {
            return Ok(&ROWS[0]);
        }
        let mut x = self.u.int_in_range(0..=total - 1)?;
        for (r, w) in rows {
            if x < w {
                return Ok(r);
            }
            x -= w;
        }
        unreachable!("x < total")
    }

    /// A nested block of up to 16 instructions, one level deeper.
    fn nested(&mut self, is_loop: bool) -> Result<()> {
        let n = self.u.int_in_range(1..=self.budget.clamp(1, 16))?;
        self.depth += 1;
        self.loop_depth += is_loop as usize;
        let r = self.block(n);
        self.depth -= 1;
        self.loop_depth -= is_loop as usize;
        self.ended = false;
        r
    }

    // ---- operands ---------------------------------------------------

    /// A source operand of type `ty`: a data register, or (`imm_ratio`) an
    /// immediate or `%laneid`. Predicates are always registers.
    pub fn src(&mut self, ty: Type) -> Result<Operand> {
        if ty != Type::Pred && chance(self.u, self.cfg.imm_ratio)? {
            if Type::U32.compatible(ty) && self.u.ratio(1u8, 3)? {
                self.stats.feature("operand.laneid");
                return Ok(Operand::LaneId);
            }
            self.stats.feature("operand.imm");
            return Ok(Operand::Imm(values::value(self.u, ty)?));
        }
        Ok(Operand::Reg(self.regs.pick(self.u, ty)?))
    }

    /// A destination of type `ty` (a data register).
    pub fn dst(&mut self, ty: Type) -> Result<Dest> {
        Ok(Dest::Reg(self.regs.pick(self.u, ty)?))
    }

    /// A destination among the types `tys`.
    fn dst_among(&mut self, tys: &[Type]) -> Result<Dest> {
        Ok(Dest::Reg(self.regs.pick_among(self.u, tys)?))
    }

    /// A predicate source; `!p` when `allow_not`, a third of the time.
    fn pred_src(&mut self, allow_not: bool) -> Result<Operand> {
        let p = *self.u.choose(self.regs.of(Type::Pred))?;
        Ok(if allow_not && self.u.ratio(1u8, 3)? {
            Operand::NotPred(p)
        } else {
            Operand::Reg(p)
        })
    }

    /// A 32-bit source for data movement (`shfl` `a`, `match.b32` `a`).
    fn src32(&mut self) -> Result<Operand> {
        Ok(match self.u.int_in_range(0..=9)? {
            0 => Operand::LaneId,
            1 => Operand::Imm(values::value(self.u, Type::B32)?),
            _ => Operand::Reg(self.regs.pick_among(self.u, &ANY32)?),
        })
    }

    // ---- glue -------------------------------------------------------

    fn glue(&mut self) -> Result<()> {
        let guard = self.maybe_guard()?.map(|(g, _)| g);
        let mut kinds: Vec<(Glue, u32)> = vec![(Glue::Mov, 3), (Glue::Setp, 5), (Glue::Selp, 2)];
        kinds.extend(BIN_OPS.iter().map(|&o| (Glue::Bin(o), 1)));
        kinds.extend(UN_OPS.iter().map(|&o| (Glue::Un(o), 1)));
        let kind = weighted(self.u, &kinds)?;
        let op = match kind {
            Glue::Mov => {
                let ty = *self.u.choose(MOV_TYPES)?;
                Op::Mov {
                    ty,
                    d: self.dst(ty)?,
                    a: self.src(ty)?,
                }
            }
            Glue::Bin(op) => {
                let ty = *self.u.choose(bin_types(op))?;
                // Shift amounts are often immediates (`b` >= the width is
                // interesting); other operands are registers or immediates.
                let b = if matches!(op, BinOp::Shl | BinOp::Shr) && self.u.ratio(1u8, 2)? {
                    Operand::Imm(values::shift_amount(self.u)?)
                } else {
                    self.src(op.b_type(ty))?
                };
                Op::Bin {
                    op,
                    ty,
                    d: self.dst(ty)?,
                    a: self.src(ty)?,
                    b,
                }
            }
            Glue::Un(op) => {
                let ty = *self.u.choose(un_types(op))?;
                let dty = if op == UnOp::Popc { Type::U32 } else { ty };
                Op::Un {
                    op,
                    ty,
                    d: self.dst(dty)?,
                    a: self.src(ty)?,
                }
            }
            Glue::Setp => self.setp()?,
            Glue::Selp => {
                let ty = *self.u.choose(SELP_TYPES)?;
                Op::Selp {
                    ty,
                    d: self.dst(ty)?,
                    a: self.src(ty)?,
                    b: self.src(ty)?,
                    c: self.pred_src(false)?,
                }
            }
        };
        self.emit(guard, op);
        Ok(())
    }

    fn setp(&mut self) -> Result<Op> {
        let cmp = *self.u.choose(CMP_OPS)?;
        let ty = *self.u.choose(setp_types(cmp))?;
        let combine = match *self.u.choose(BOOL_OPS)? {
            Some(b) => Some((b, self.pred_src(true)?)),
            None => None,
        };
        let p = self.dst(Type::Pred)?;
        let q = if self.u.ratio(1u8, 3)? {
            let q = self.dst(Type::Pred)?;
            (q != p).then(|| {
                self.stats.feature("setp.p|q");
                q
            })
        } else {
            None
        };
        Ok(Op::Setp {
            cmp,
            combine,
            ty,
            p,
            q,
            a: self.src(ty)?,
            b: self.src(ty)?,
        })
    }

    // ---- collectives ------------------------------------------------

    fn shfl(&mut self, sync: bool) -> Result<()> {
        let guard = self.maybe_guard()?;
        let mode =
            *self
                .u
                .choose(&[ShflMode::Up, ShflMode::Down, ShflMode::Bfly, ShflMode::Idx])?;
        let d = self.dst_among(&ANY32)?;
        let p = if self.u.ratio(1u8, 2)? {
            self.stats.feature("shfl.p");
            Some(self.dst(Type::Pred)?)
        } else {
            None
        };
        let a = self.src32()?;
        let b = match self.u.int_in_range(0..=9)? {
            0..=6 => {
                let (v, k) = values::shfl_b(self.u)?;
                self.stats.feature(match k {
                    BKind::InRange => "shfl.b.imm",
                    BKind::Large => "shfl.b.imm>=32",
                });
                Operand::Imm(v)
            }
            7..=8 => {
                self.stats.feature("shfl.b.reg");
                Operand::Reg(self.regs.pick_among(self.u, &INT32)?)
            }
            _ => {
                self.stats.feature("shfl.b.laneid");
                Operand::LaneId
            }
        };
        let c = if self.u.ratio(1u8, 8)? {
            self.stats.feature("shfl.c.reg");
            Operand::Reg(self.regs.pick_among(self.u, &INT32)?)
        } else {
            let (v, k) = values::shfl_c(self.u)?;
            self.stats.feature(match k {
                CKind::Full => "shfl.c.full",
                CKind::Zero => "shfl.c.zero",
                CKind::Segment => "shfl.c.segment",
                CKind::Random => "shfl.c.random",
            });
            Operand::Imm(v)
        };
        let membermask = if sync {
            Some(self.membermask(guard)?)
        } else {
            None
        };
        let op = Op::Shfl {
            mode,
            d,
            p,
            a,
            b,
            c,
            membermask,
        };
        self.emit(guard.map(|(g, _)| g), op);
        Ok(())
    }

    fn vote(&mut self, sync: bool) -> Result<()> {
        let guard = self.maybe_guard()?;
        let mode = *self.u.choose(&[
            VoteMode::All,
            VoteMode::Any,
            VoteMode::Uni,
            VoteMode::Ballot,
        ])?;
        let d = match mode {
            VoteMode::Ballot => self.dst_among(&INT32)?,
            VoteMode::All | VoteMode::Any | VoteMode::Uni => self.dst(Type::Pred)?,
        };
        let a = self.pred_src(true)?;
        if matches!(a, Operand::NotPred(_)) {
            self.stats.feature("vote.not-a");
        }
        let membermask = if sync {
            Some(self.membermask(guard)?)
        } else {
            None
        };
        let op = Op::Vote {
            mode,
            d,
            a,
            membermask,
        };
        self.emit(guard.map(|(g, _)| g), op);
        Ok(())
    }

    fn matching(&mut self) -> Result<()> {
        let guard = self.maybe_guard()?;
        let mode = *self.u.choose(&[MatchMode::Any, MatchMode::All])?;
        let wide = self.u.ratio(1u8, 2)?;
        let a = if self.u.ratio(1u8, 12)? {
            self.stats.feature("match.imm");
            let ty = if wide { Type::B64 } else { Type::B32 };
            Operand::Imm(values::value(self.u, ty)?)
        } else if wide {
            Operand::Reg(self.regs.pick_among(self.u, &ANY64)?)
        } else {
            self.src32()?
        };
        let (d, p) = match mode {
            MatchMode::Any => (self.dst_among(&INT32)?, None),
            MatchMode::All => match self.u.int_in_range(0..=5)? {
                0..=1 => (self.dst_among(&INT32)?, None),
                2..=3 => {
                    self.stats.feature("match.p");
                    (self.dst_among(&INT32)?, Some(self.dst(Type::Pred)?))
                }
                4 => {
                    self.stats.feature("match.sink-d");
                    (Dest::Sink, Some(self.dst(Type::Pred)?))
                }
                _ => {
                    self.stats.feature("match.sink-p");
                    (self.dst_among(&INT32)?, Some(Dest::Sink))
                }
            },
        };
        let membermask = self.membermask(guard)?;
        let op = Op::Match {
            mode,
            wide,
            d,
            p,
            a,
            membermask,
        };
        self.emit(guard.map(|(g, _)| g), op);
        Ok(())
    }

    fn redux(&mut self, f32: bool) -> Result<()> {
        let guard = self.maybe_guard()?;
        let ops: Vec<ReduxOp> = redux_ops()
            .into_iter()
            .filter(|&o| o.is_f32() == f32)
            .collect();
        let op = *self.u.choose(&ops)?;
        let ty = op.ty();
        let d = self.dst(ty)?;
        let a = self.src(ty)?;
        let membermask = self.membermask(guard)?;
        let op = Op::Redux {
            op,
            d,
            a,
            membermask,
        };
        self.emit(guard.map(|(g, _)| g), op);
        Ok(())
    }

    fn activemask(&mut self) -> Result<()> {
        let guard = self.maybe_guard()?.map(|(g, _)| g);
        let d = self.dst_among(&INT32)?;
        self.emit(guard, Op::Activemask { d });
        Ok(())
    }

    // ---- control flow -----------------------------------------------

    /// `@p bra SKIP; then-block; SKIP:` or the if/else diamond
    /// `@p bra ELSE; then; bra END; ELSE: else; END:`.
    fn branch(&mut self, with_else: bool) -> Result<()> {
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
        self.emit(Some(Guard { reg: p, negated }), Op::Bra { target: skip });
        self.nested(false)?;
        if with_else {
            self.stats.feature("if-else");
            let end = self.b.label();
            self.emit(None, Op::Bra { target: end });
            self.b.place(skip);
            self.nested(false)?;
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
    fn condition(&mut self) -> Result<(Reg, bool)> {
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
            let cmp = *self.u.choose(CMP_OPS)?;
            let k = self.u.int_in_range(0..=31)?;
            self.emit(
                None,
                Op::Setp {
                    cmp,
                    combine: None,
                    ty: Type::U32,
                    p: Dest::Reg(p),
                    q: None,
                    a: Operand::LaneId,
                    b: Operand::Imm(k),
                },
            );
        } else {
            let t = self.regs.pick_among(self.u, &INT32)?;
            let m = self.u.int_in_range(1..=31)?;
            self.emit(
                None,
                Op::Bin {
                    op: BinOp::And,
                    ty: Type::B32,
                    d: Dest::Reg(t),
                    a: Operand::LaneId,
                    b: Operand::Imm(m),
                },
            );
            self.emit(
                None,
                Op::Setp {
                    cmp: CmpOp::Ne,
                    combine: None,
                    ty: Type::B32,
                    p: Dest::Reg(p),
                    q: None,
                    a: Operand::Reg(t),
                    b: Operand::Imm(0),
                },
            );
        }
        Ok((p, negated))
    }

    /// `setp` into `p` over data registers defined on every converged lane
    /// (as the last probe saw them), or `None` when there are none.
    fn data_condition(&mut self, p: Reg) -> Result<Option<Op>> {
        let cmp = *self.u.choose(CMP_OPS)?;
        let ty = *self.u.choose(setp_types(cmp))?;
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
        Ok(Some(Op::Setp {
            cmp,
            combine: None,
            ty,
            p: Dest::Reg(p),
            q: None,
            a,
            b,
        }))
    }

    /// A loop whose trip count differs per lane, with its own counter:
    /// `do { body } while (--ctr > 0)` or
    /// `while (ctr > 0) { body; --ctr }`.
    fn looped(&mut self) -> Result<()> {
        let d = self.loop_depth;
        let (ctr, lp) = (self.regs.ctr[d], self.regs.lp[d]);
        if d > 0 {
            self.stats.feature("loop.nested");
        }
        self.loop_init(ctr)?;
        let dec = Op::Bin {
            op: BinOp::Sub,
            ty: Type::S32,
            d: Dest::Reg(ctr),
            a: Operand::Reg(ctr),
            b: Operand::Imm(1),
        };
        let test = |cmp| Op::Setp {
            cmp,
            combine: None,
            ty: Type::S32,
            p: Dest::Reg(lp),
            q: None,
            a: Operand::Reg(ctr),
            b: Operand::Imm(0),
        };
        let on_lp = Some(Guard {
            reg: lp,
            negated: false,
        });
        if self.u.ratio(1u8, 2)? {
            self.stats.feature("loop.do-while");
            let head = self.b.here();
            self.nested(true)?;
            self.emit(None, dec);
            self.emit(None, test(CmpOp::Gt));
            self.emit(on_lp, Op::Bra { target: head });
        } else {
            self.stats.feature("loop.while");
            let head = self.b.here();
            let end = self.b.label();
            self.emit(None, test(CmpOp::Le));
            self.emit(on_lp, Op::Bra { target: end });
            self.nested(true)?;
            self.emit(None, dec);
            self.emit(None, Op::Bra { target: head });
            self.b.place(end);
        }
        Ok(())
    }

    /// Sets a loop counter to at most `max_trips` on every converged lane:
    /// the same on all lanes, from `%laneid`, or from a data register
    /// defined on every converged lane.
    fn loop_init(&mut self, ctr: Reg) -> Result<()> {
        let t = self.cfg.max_trips;
        // The largest 2^k - 1 <= t, and the shift that brings lane ids to <= t.
        let low_mask = (1u64 << (32 - (t + 1).leading_zeros() - 1)) - 1;
        let shift = 5 - (31 - (t + 1).leading_zeros()) as u64;
        let and = |a: Operand| Op::Bin {
            op: BinOp::And,
            ty: Type::B32,
            d: Dest::Reg(ctr),
            a,
            b: Operand::Imm(low_mask),
        };
        let op = match self.u.int_in_range(0..=3)? {
            0 => {
                self.stats.feature("loop.uniform-trips");
                Op::Mov {
                    ty: Type::S32,
                    d: Dest::Reg(ctr),
                    a: Operand::Imm(self.u.int_in_range(1..=t as u64)?),
                }
            }
            1 => {
                self.stats.feature("loop.lane-trips");
                Op::Bin {
                    op: BinOp::Shr,
                    ty: Type::U32,
                    d: Dest::Reg(ctr),
                    a: Operand::LaneId,
                    b: Operand::Imm(shift),
                }
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
    fn exit(&mut self) -> Result<()> {
        self.b.ensure_flow();
        let s = self.b.snap();
        let (conv, live) = (s.conv, !s.exited);
        if self.depth > 0 && conv != live && self.u.ratio(1u8, 3)? {
            self.stats.feature("exit.in-block");
            self.emit(None, Op::Exit);
            self.ended = true;
            return Ok(());
        }
        match self.guard()? {
            Some((g, exec)) if exec != live => {
                self.stats.feature("exit.guarded");
                self.emit(Some(g), Op::Exit);
                Ok(())
            }
            _ => self.glue(),
        }
    }
}
