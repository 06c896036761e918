//! The emitter: a table of rows `(weight, valid here?, emit)`, as in
//! cranelift-fuzzgen and wasm-smith, and the code of each row: glue,
//! collectives and `activemask` here; if / if-else blocks, loops, forward
//! jumps and `exit` in `flow.rs`.
//!
//! Every row emits at least one instruction, so a block always ends. What a
//! row needs to know about the lanes (which are converged, which predicates
//! are defined there, what a guard leaves on) it asks the
//! [`Builder`], which asks the interpreter.

use super::config::{chance, weighted, Config, Weights};
use super::probe::Builder;
use super::regs::{RegFile, ANY32, ANY64, INT32};
use super::stats::Stats;
use super::values::{self, BKind, CKind};
use crate::ir::*;
use arbitrary::{Result, Unstructured};

/// The `.version`/`.target` family of a case, which decides which forms it
/// may use: those whose [`Op::requirement`] its directives allow.
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
    pub ended: bool,
    /// The loops around the emission point, outermost first (by id).
    pub loops: Vec<u32>,
    /// Ids handed out to loops so far.
    pub next_loop: u32,
    /// Forward jumps whose label is not placed yet.
    pub entries: Vec<Entry>,
}

/// A forward jump whose target is still to be placed: anywhere later that
/// is not inside a loop entered after the jump (lanes would arrive with
/// that loop's counter unset).
pub(crate) struct Entry {
    /// The label the jump targets.
    pub label: LabelId,
    /// Where the jump is: its label must not be placed right after it.
    pub at: usize,
    /// The loops around the jump.
    pub loops: Vec<u32>,
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
        valid: |g| g.allows(Requirement::collective(true)),
        emit: |g| g.shfl(true),
    },
    Row {
        name: "shfl (deprecated)",
        weight: |w| w.shfl,
        valid: |g| g.allows(Requirement::collective(false)),
        emit: |g| g.shfl(false),
    },
    Row {
        name: "vote.sync",
        weight: |w| w.vote,
        valid: |g| g.allows(Requirement::collective(true)),
        emit: |g| g.vote(true),
    },
    Row {
        name: "vote (deprecated)",
        weight: |w| w.vote,
        valid: |g| g.allows(Requirement::collective(false)),
        emit: |g| g.vote(false),
    },
    Row {
        name: "match.sync",
        weight: |w| w.matching,
        valid: |g| g.allows(Requirement::MATCH),
        emit: |g| g.matching(),
    },
    Row {
        name: "redux.sync integer",
        weight: |w| w.redux,
        valid: |g| g.allows(Requirement::REDUX),
        emit: |g| g.redux(false),
    },
    Row {
        name: "redux.sync f32",
        weight: |w| w.redux,
        valid: |g| g.allows(Requirement::ReduxF32),
        emit: |g| g.redux(true),
    },
    Row {
        name: "activemask",
        weight: |w| w.activemask,
        valid: |g| g.allows(Requirement::ACTIVEMASK),
        emit: |g| g.activemask(),
    },
    Row {
        name: "lane op",
        weight: |w| w.lane_ops,
        valid: |_| true,
        emit: |g| g.dialect(),
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
        name: "goto",
        weight: |w| w.jump,
        valid: |g| g.budget >= 3,
        emit: |g| g.goto(),
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
enum GlueKind {
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
            loops: Vec::new(),
            next_loop: 0,
            entries: Vec::new(),
        }
    }

    /// Whether the case's directives allow instructions that need `req`.
    pub fn allows(&self, req: Requirement) -> bool {
        let (version, target) = self.flavor.directives();
        req.allows(version, target)
    }

    /// Appends an instruction of the body (counted against the budget).
    pub fn emit(&mut self, guard: Option<Guard>, op: Op) {
        self.budget = self.budget.saturating_sub(1);
        self.b.push(guard, op);
    }

    /// Emits rows until `n` instructions are spent or the block ends in an
    /// `exit`. Before each row, a pending forward jump may land here.
    pub fn block(&mut self, n: usize) -> Result<()> {
        let stop = self.budget.saturating_sub(n);
        while self.budget > stop && !self.ended {
            self.land_jumps()?;
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

    /// A nested block of up to 16 instructions, one level deeper (its
    /// loop, if any, is entered by the caller).
    pub fn nested(&mut self) -> Result<()> {
        let n = self.u.int_in_range(1..=self.budget.clamp(1, 16))?;
        self.depth += 1;
        let r = self.block(n);
        self.depth -= 1;
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

    pub(super) fn glue(&mut self) -> Result<()> {
        let guard = self.maybe_guard()?.map(|(g, _)| g);
        let mut kinds: Vec<(GlueKind, u32)> =
            vec![(GlueKind::Mov, 3), (GlueKind::Setp, 5), (GlueKind::Selp, 2)];
        kinds.extend(BinOp::ALL.iter().map(|&o| (GlueKind::Bin(o), 1)));
        kinds.extend(UnOp::ALL.iter().map(|&o| (GlueKind::Un(o), 1)));
        let kind = weighted(self.u, &kinds)?;
        let op = match kind {
            GlueKind::Mov => {
                let ty = *self.u.choose(Glue::MOV_TYPES)?;
                Op::Glue(Glue::Mov {
                    ty,
                    d: self.dst(ty)?,
                    a: self.src(ty)?,
                })
            }
            GlueKind::Bin(op) => {
                let ty = *self.u.choose(op.types())?;
                // Shift amounts are often immediates (`b` >= the width is
                // interesting); other operands are registers or immediates.
                let b = if matches!(op, BinOp::Shl | BinOp::Shr) && self.u.ratio(1u8, 2)? {
                    Operand::Imm(values::shift_amount(self.u)?)
                } else {
                    self.src(op.b_type(ty))?
                };
                Op::Glue(Glue::Bin {
                    op,
                    ty,
                    d: self.dst(ty)?,
                    a: self.src(ty)?,
                    b,
                })
            }
            GlueKind::Un(op) => {
                let ty = *self.u.choose(op.types())?;
                let dty = op.d_type(ty);
                Op::Glue(Glue::Un {
                    op,
                    ty,
                    d: self.dst(dty)?,
                    a: self.src(ty)?,
                })
            }
            GlueKind::Setp => self.setp()?,
            GlueKind::Selp => {
                let ty = *self.u.choose(Glue::SELP_TYPES)?;
                Op::Glue(Glue::Selp {
                    ty,
                    d: self.dst(ty)?,
                    a: self.src(ty)?,
                    b: self.src(ty)?,
                    c: self.pred_src(false)?,
                })
            }
        };
        self.emit(guard, op);
        Ok(())
    }

    fn setp(&mut self) -> Result<Op> {
        let cmp = *self.u.choose(&CmpOp::ALL)?;
        let ty = *self.u.choose(cmp.types())?;
        let combine = match *self.u.choose(&BoolOp::ALL_OR_NONE)? {
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
        Ok(Op::Glue(Glue::Setp {
            cmp,
            combine,
            ty,
            p,
            q,
            a: self.src(ty)?,
            b: self.src(ty)?,
        }))
    }

    // ---- collectives ------------------------------------------------

    fn shfl(&mut self, sync: bool) -> Result<()> {
        let guard = self.maybe_guard()?;
        let mode = *self.u.choose(&ShflMode::ALL)?;
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
        let op = Op::Shfl(Shfl {
            mode,
            d,
            p,
            a,
            b,
            c,
            membermask,
        });
        self.emit(guard.map(|(g, _)| g), op);
        Ok(())
    }

    fn vote(&mut self, sync: bool) -> Result<()> {
        let guard = self.maybe_guard()?;
        let mode = *self.u.choose(&VoteMode::ALL)?;
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
        let op = Op::Vote(Vote {
            mode,
            d,
            a,
            membermask,
        });
        self.emit(guard.map(|(g, _)| g), op);
        Ok(())
    }

    fn matching(&mut self) -> Result<()> {
        let guard = self.maybe_guard()?;
        let mode = *self.u.choose(&MatchMode::ALL)?;
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
        let op = Op::Match(Match {
            mode,
            wide,
            d,
            p,
            a,
            membermask,
        });
        self.emit(guard.map(|(g, _)| g), op);
        Ok(())
    }

    fn redux(&mut self, f32: bool) -> Result<()> {
        let guard = self.maybe_guard()?;
        let ops: Vec<ReduxOp> = ReduxOp::ALL
            .into_iter()
            .filter(|&o| o.is_f32() == f32)
            .collect();
        let op = *self.u.choose(&ops)?;
        let ty = op.ty();
        let d = self.dst(ty)?;
        let a = self.src(ty)?;
        let membermask = self.membermask(guard)?;
        let op = Op::Redux(Redux {
            op,
            d,
            a,
            membermask,
        });
        self.emit(guard.map(|(g, _)| g), op);
        Ok(())
    }

    fn activemask(&mut self) -> Result<()> {
        let guard = self.maybe_guard()?.map(|(g, _)| g);
        let d = self.dst_among(&INT32)?;
        self.emit(guard, Op::Activemask(Activemask { d }));
        Ok(())
    }
}
