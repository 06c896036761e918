//! Pass 3: replace an instruction by a `mov` into its destination.
//!
//! A collective (`shfl`, `vote`, `match`, `redux`, `activemask`) becomes a
//! `mov` of one of its sources or of an immediate (its second destination
//! `|p` is no longer written); `vote.{all,any,uni}` of `!a` becomes
//! `not.pred`. Glue (`add`, `selp`, `popc`, ...) becomes a `mov` of one of
//! its sources; a lane op with one destination (`cvt`, `mad`, `bfe`,
//! `add.rz.f64`, a special register ...) a `mov` of its first source or of
//! zero. Candidates whose types do not fit are rejected by the round-trip
//! check.

use crate::ir::*;
use crate::reduce::search::Search;

/// `mov.ty d, a`.
fn mov(ty: Type, d: Dest, a: Operand) -> Op {
    Op::Glue(Glue::Mov { ty, d, a })
}

/// The replacements tried for `op`, simplest first.
fn replacements(op: &Op) -> Vec<Op> {
    use Type::*;
    let all = Operand::Imm(0xffff_ffff);
    let zero = Operand::Imm(0);
    match *op {
        Op::Shfl(Shfl {
            d, a, membermask, ..
        }) => {
            let mut v = vec![mov(B32, d, a), mov(B32, d, zero)];
            v.extend(membermask.map(|m| mov(B32, d, m)));
            v
        }
        Op::Vote(Vote {
            mode,
            d,
            a,
            membermask,
        }) => match mode {
            VoteMode::Ballot => {
                let mut v = vec![mov(B32, d, zero), mov(B32, d, all)];
                v.extend(membermask.map(|m| mov(B32, d, m)));
                v
            }
            VoteMode::All | VoteMode::Any | VoteMode::Uni => match a {
                Operand::NotPred(r) => vec![Op::Glue(Glue::Un {
                    op: UnOp::Not,
                    ty: Pred,
                    d,
                    a: Operand::Reg(r),
                })],
                Operand::Reg(_) | Operand::Imm(_) | Operand::LaneId => vec![mov(Pred, d, a)],
            },
        },
        Op::Match(Match {
            wide,
            d,
            a,
            membermask,
            ..
        }) => {
            let mut v = vec![mov(B32, d, membermask), mov(B32, d, all), mov(B32, d, zero)];
            if !wide {
                v.push(mov(B32, d, a));
            }
            v
        }
        Op::Redux(Redux { op, d, a, .. }) => {
            let ty = op.ty();
            vec![mov(ty, d, a), mov(ty, d, zero)]
        }
        Op::Activemask(Activemask { d }) => vec![mov(B32, d, all), mov(B32, d, zero)],
        Op::Glue(Glue::Mov { .. }) => vec![],
        Op::LaneOp(ref x) => match (x.dests.as_slice(), x.access(), x.is_barrier()) {
            (&[(d, dty)], None, false) => {
                let mut v: Vec<Op> = x
                    .srcs
                    .first()
                    .filter(|&&(_, aty)| aty.compatible(dty))
                    .map(|&(a, _)| mov(dty, d, a))
                    .into_iter()
                    .collect();
                v.push(mov(dty, d, zero));
                v
            }
            _ => vec![],
        },
        Op::Glue(Glue::Bin { op, ty, d, a, b }) => {
            let mut v = vec![mov(ty, d, a)];
            if !matches!(op, BinOp::Shl | BinOp::Shr) {
                v.push(mov(ty, d, b));
            }
            v
        }
        Op::Glue(Glue::Un { op, ty, d, a }) => match op {
            UnOp::Popc => vec![mov(U32, d, zero)],
            UnOp::Cnot => vec![mov(ty, d, zero)],
            UnOp::Not | UnOp::Neg | UnOp::Abs => vec![mov(ty, d, a)],
        },
        Op::Glue(Glue::Setp { combine, p, .. }) => match combine {
            Some((_, c @ Operand::Reg(_))) => vec![mov(Pred, p, c)],
            Some((BoolOp::And | BoolOp::Or | BoolOp::Xor, _)) | None => vec![],
        },
        Op::Glue(Glue::Selp { ty, d, a, b, .. }) => vec![mov(ty, d, a), mov(ty, d, b)],
        Op::Control(_) => vec![],
    }
}

/// Runs the pass, from the last instruction backwards.
pub(crate) fn run(s: &mut Search<'_, '_>) {
    s.each_inst_backwards(|s, i| {
        for op in replacements(&s.cur().program.insts[i].op) {
            let mut cand = s.cur().clone();
            cand.program.insts[i].op = op;
            if s.try_case(cand) {
                break;
            }
        }
    });
}
