//! Which operands each instruction reads and writes, with the type it reads
//! or writes them as and what it uses them for: the one walk over the
//! operands that the reducer, the generator and the PTX emitter share.
//!
//! Sources come in the order the instruction is written (`shfl d, a, b, c,
//! membermask`), destinations as `d` then the second destination (`|p`,
//! `|q`) when there is one. The types are those the parser checks each
//! register against and prints each immediate as.

use super::*;

/// What a source operand is used for.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Role {
    /// A value the instruction computes with.
    Value,
    /// The `membermask` of a collective.
    Membermask,
}

/// A source operand to change, with the type the instruction reads it as
/// and its role.
pub type SourceMut<'a> = (&'a mut Operand, Type, Role);

/// A destination to change, with the type the instruction writes it as.
pub type DestMut<'a> = (&'a mut Dest, Type);

/// `d` written as `ty`, then `p` (if any) written as `.pred`.
fn dest_pair<'a>(d: &'a mut Dest, ty: Type, p: &'a mut Option<Dest>) -> Vec<DestMut<'a>> {
    let mut v = vec![(d, ty)];
    v.extend(p.as_mut().map(|p| (p, Type::Pred)));
    v
}

/// `membermask` (if any) read as `.b32`.
fn membermask(m: Option<&mut Operand>) -> Option<SourceMut<'_>> {
    m.map(|m| (m, Type::B32, Role::Membermask))
}

impl Shfl {
    /// `a`, `b`, `c` (`.b32` values), then `membermask` when present.
    pub fn sources_mut(&mut self) -> Vec<SourceMut<'_>> {
        let mut v = vec![
            (&mut self.a, Type::B32, Role::Value),
            (&mut self.b, Type::B32, Role::Value),
            (&mut self.c, Type::B32, Role::Value),
        ];
        v.extend(membermask(self.membermask.as_mut()));
        v
    }

    /// `d` (`.b32`), then `|p` (`.pred`).
    pub fn dests_mut(&mut self) -> Vec<DestMut<'_>> {
        dest_pair(&mut self.d, Type::B32, &mut self.p)
    }
}

impl Vote {
    /// `a` (`.pred`, maybe `!a`), then `membermask` when present.
    pub fn sources_mut(&mut self) -> Vec<SourceMut<'_>> {
        let mut v = vec![(&mut self.a, Type::Pred, Role::Value)];
        v.extend(membermask(self.membermask.as_mut()));
        v
    }

    /// `d`, of the mode's type ([`VoteMode::ty`]).
    pub fn dests_mut(&mut self) -> Vec<DestMut<'_>> {
        vec![(&mut self.d, self.mode.ty())]
    }
}

impl Match {
    /// `a` (of [`Match::ty`]), then `membermask`.
    pub fn sources_mut(&mut self) -> Vec<SourceMut<'_>> {
        let ty = self.ty();
        vec![
            (&mut self.a, ty, Role::Value),
            (&mut self.membermask, Type::B32, Role::Membermask),
        ]
    }

    /// `d` (`.b32`), then `|p` (`.pred`).
    pub fn dests_mut(&mut self) -> Vec<DestMut<'_>> {
        dest_pair(&mut self.d, Type::B32, &mut self.p)
    }
}

impl Redux {
    /// `a` (of the operation's type, [`ReduxOp::ty`]), then `membermask`.
    pub fn sources_mut(&mut self) -> Vec<SourceMut<'_>> {
        vec![
            (&mut self.a, self.op.ty(), Role::Value),
            (&mut self.membermask, Type::B32, Role::Membermask),
        ]
    }

    /// `d`, of the operation's type.
    pub fn dests_mut(&mut self) -> Vec<DestMut<'_>> {
        vec![(&mut self.d, self.op.ty())]
    }
}

impl Activemask {
    /// None.
    pub fn sources_mut(&mut self) -> Vec<SourceMut<'_>> {
        Vec::new()
    }

    /// `d` (`.b32`).
    pub fn dests_mut(&mut self) -> Vec<DestMut<'_>> {
        vec![(&mut self.d, Type::B32)]
    }
}

impl Glue {
    /// `a` and `b` of the instruction type (`b` of `shl`/`shr` is a `.u32`
    /// amount, [`BinOp::b_type`]), then the `.pred` `c` of `setp` and
    /// `selp`.
    pub fn sources_mut(&mut self) -> Vec<SourceMut<'_>> {
        use Role::Value;
        match self {
            Glue::Mov { ty, a, .. } | Glue::Un { ty, a, .. } => vec![(a, *ty, Value)],
            Glue::Bin { op, ty, a, b, .. } => {
                vec![(a, *ty, Value), (b, op.b_type(*ty), Value)]
            }
            Glue::Setp {
                combine, ty, a, b, ..
            } => {
                let mut v = vec![(a, *ty, Value), (b, *ty, Value)];
                if let Some((_, c)) = combine {
                    v.push((c, Type::Pred, Value));
                }
                v
            }
            Glue::Selp { ty, a, b, c, .. } => {
                vec![(a, *ty, Value), (b, *ty, Value), (c, Type::Pred, Value)]
            }
        }
    }

    /// `d` of the instruction type (`popc` writes `.u32`,
    /// [`UnOp::d_type`]); `setp` writes `p`, then `|q`, as `.pred`.
    pub fn dests_mut(&mut self) -> Vec<DestMut<'_>> {
        match self {
            Glue::Mov { ty, d, .. } | Glue::Bin { ty, d, .. } | Glue::Selp { ty, d, .. } => {
                vec![(d, *ty)]
            }
            Glue::Un { op, ty, d, .. } => vec![(d, op.d_type(*ty))],
            Glue::Setp { p, q, .. } => dest_pair(p, Type::Pred, q),
        }
    }
}

impl Op {
    /// Every source operand, with the type the instruction reads it as and
    /// its role, in the order the instruction is written.
    pub fn sources_mut(&mut self) -> Vec<SourceMut<'_>> {
        match self {
            Op::Shfl(x) => x.sources_mut(),
            Op::Vote(x) => x.sources_mut(),
            Op::Match(x) => x.sources_mut(),
            Op::Redux(x) => x.sources_mut(),
            Op::Activemask(x) => x.sources_mut(),
            Op::Glue(x) => x.sources_mut(),
            Op::Control(_) => Vec::new(),
            Op::LaneOp(x) => x
                .srcs
                .iter_mut()
                .map(|(o, t)| (o, *t, Role::Value))
                .collect(),
        }
    }

    /// [`Op::sources_mut`] by value.
    pub fn sources(&self) -> Vec<(Operand, Type, Role)> {
        let mut op = self.clone();
        op.sources_mut()
            .into_iter()
            .map(|(o, t, r)| (*o, t, r))
            .collect()
    }

    /// Every destination with the type the instruction writes it as: `d`,
    /// then the second destination (`|p`, `|q`) when there is one.
    pub fn dests_mut(&mut self) -> Vec<DestMut<'_>> {
        match self {
            Op::Shfl(x) => x.dests_mut(),
            Op::Vote(x) => x.dests_mut(),
            Op::Match(x) => x.dests_mut(),
            Op::Redux(x) => x.dests_mut(),
            Op::Activemask(x) => x.dests_mut(),
            Op::Glue(x) => x.dests_mut(),
            Op::Control(_) => Vec::new(),
            Op::LaneOp(x) => x.dests.iter_mut().map(|(d, t)| (d, *t)).collect(),
        }
    }

    /// [`Op::dests_mut`] by value.
    pub fn dests(&self) -> Vec<(Dest, Type)> {
        let mut op = self.clone();
        op.dests_mut().into_iter().map(|(d, t)| (*d, t)).collect()
    }

    /// The registers the instruction reads as sources (`!p` included; a
    /// guard and a memory operand's base are not sources).
    pub fn source_regs(&self) -> Vec<Reg> {
        self.sources()
            .into_iter()
            .filter_map(|(o, _, _)| match o {
                Operand::Reg(r) | Operand::NotPred(r) => Some(r),
                Operand::Imm(_) | Operand::LaneId => None,
            })
            .collect()
    }

    /// The registers the instruction writes (its destinations but the
    /// sinks).
    pub fn written(&self) -> Vec<Reg> {
        self.dests()
            .into_iter()
            .filter_map(|(d, _)| match d {
                Dest::Reg(r) => Some(r),
                Dest::Sink => None,
            })
            .collect()
    }
}

impl Inst {
    /// Calls `f` on every register the instruction names: its guard, its
    /// sources (`!p` included), then its destinations.
    pub fn for_each_reg_mut(&mut self, f: &mut dyn FnMut(&mut Reg)) {
        if let Some(g) = &mut self.guard {
            f(&mut g.reg);
        }
        for (o, _, _) in self.op.sources_mut() {
            match o {
                Operand::Reg(r) | Operand::NotPred(r) => f(r),
                Operand::Imm(_) | Operand::LaneId => {}
            }
        }
        for (d, _) in self.op.dests_mut() {
            match d {
                Dest::Reg(r) => f(r),
                Dest::Sink => {}
            }
        }
    }

    /// The registers the instruction names (guard, sources, destinations),
    /// in the order of [`Inst::for_each_reg_mut`].
    pub fn regs(&self) -> Vec<Reg> {
        let mut inst = self.clone();
        let mut v = Vec::new();
        inst.for_each_reg_mut(&mut |r| v.push(*r));
        v
    }
}
