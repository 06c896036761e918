//! Instruction forms: the stable name of each form of the IR (for coverage
//! tables), and the tables of which types each glue operation takes, shared
//! by the generator and [`all_forms`] so that the two cannot drift apart.
//!
//! A form is an opcode with the modifiers that change what is computed:
//! `shfl.sync.up`, `shfl.up` (deprecated), `vote.sync.ballot`,
//! `match.all.sync.b64`, `redux.sync.min.f32.abs.NaN`, `activemask`, and for
//! the glue the opcode with its type: `mov.pred`, `mul.lo.s64`, `mul.f32`,
//! `setp.lt.and.s32`, `selp.f32`. Operand kinds (registers or immediates,
//! `d|p`, sinks, guards) are not part of the form; the generator counts them
//! as features ([`Stats::features`](super::Stats::features)).

use crate::ir::*;

/// Every type a `mov` takes: all of them.
pub(crate) const MOV_TYPES: &[Type] = &Type::ALL;

/// Every type a `selp` takes: all but `.pred`, which `Type::ALL` lists last.
pub(crate) const SELP_TYPES: &[Type] = Type::ALL.split_last().expect("non-empty").1;

/// The binary operations, in a fixed order.
pub(crate) const BIN_OPS: &[BinOp] = &[
    BinOp::Add,
    BinOp::Sub,
    BinOp::Mul,
    BinOp::MulHi,
    BinOp::Min,
    BinOp::Max,
    BinOp::And,
    BinOp::Or,
    BinOp::Xor,
    BinOp::Shl,
    BinOp::Shr,
];

/// The unary operations, in a fixed order.
pub(crate) const UN_OPS: &[UnOp] = &[UnOp::Not, UnOp::Neg, UnOp::Abs, UnOp::Popc];

/// The comparisons, in a fixed order.
pub(crate) const CMP_OPS: &[CmpOp] = &[
    CmpOp::Eq,
    CmpOp::Ne,
    CmpOp::Lt,
    CmpOp::Le,
    CmpOp::Gt,
    CmpOp::Ge,
];

/// The `setp` combining operators, `None` for a plain `setp`.
pub(crate) const BOOL_OPS: &[Option<BoolOp>] =
    &[None, Some(BoolOp::And), Some(BoolOp::Or), Some(BoolOp::Xor)];

/// The types a binary operation takes (as the parser admits them).
pub(crate) fn bin_types(op: BinOp) -> &'static [Type] {
    use Type::*;
    match op {
        BinOp::Add | BinOp::Sub | BinOp::Min | BinOp::Max | BinOp::Mul => {
            &[U32, S32, U64, S64, F32]
        }
        BinOp::MulHi => &[U32, S32, U64, S64],
        BinOp::And | BinOp::Or | BinOp::Xor => &[B32, B64, Pred],
        BinOp::Shl => &[B32, B64],
        BinOp::Shr => &[B32, B64, U32, U64, S32, S64],
    }
}

/// The types a unary operation takes.
pub(crate) fn un_types(op: UnOp) -> &'static [Type] {
    use Type::*;
    match op {
        UnOp::Not => &[B32, B64, Pred],
        UnOp::Neg | UnOp::Abs => &[F32],
        UnOp::Popc => &[B32, B64],
    }
}

/// The types a `setp` comparison takes.
pub(crate) fn setp_types(cmp: CmpOp) -> &'static [Type] {
    use Type::*;
    match cmp {
        CmpOp::Eq | CmpOp::Ne => &[B32, B64, U32, S32, U64, S64, F32],
        CmpOp::Lt | CmpOp::Le | CmpOp::Gt | CmpOp::Ge => &[U32, S32, U64, S64, F32],
    }
}

/// Every `redux.sync` operation, integer ones first.
pub(crate) fn redux_ops() -> Vec<ReduxOp> {
    use Signedness::*;
    let mut v = vec![
        ReduxOp::Add(Unsigned),
        ReduxOp::Add(Signed),
        ReduxOp::Min(Unsigned),
        ReduxOp::Min(Signed),
        ReduxOp::Max(Unsigned),
        ReduxOp::Max(Signed),
        ReduxOp::And,
        ReduxOp::Or,
        ReduxOp::Xor,
    ];
    for abs in [false, true] {
        for nan in [false, true] {
            v.push(ReduxOp::FMin { abs, nan });
            v.push(ReduxOp::FMax { abs, nan });
        }
    }
    v
}

/// The stable name of an instruction's form (see the module docs).
///
/// ```
/// use warp_core::gen::form_name;
/// use warp_core::ir::*;
/// let op = Op::Redux {
///     op: ReduxOp::FMin { abs: true, nan: true },
///     d: Dest::Sink,
///     a: Operand::Imm(0),
///     membermask: Operand::Imm(0xffff_ffff),
/// };
/// assert_eq!(form_name(&op), "redux.sync.min.f32.abs.NaN");
/// ```
pub fn form_name(op: &Op) -> String {
    let sync = |m: bool| if m { ".sync" } else { "" };
    match op {
        Op::Shfl {
            mode, membermask, ..
        } => format!("shfl{}.{}", sync(membermask.is_some()), mode.name()),
        Op::Vote {
            mode, membermask, ..
        } => format!("vote{}.{}", sync(membermask.is_some()), mode.name()),
        Op::Match { mode, wide, .. } => {
            let m = mode.name();
            format!("match.{m}.sync.{}", if *wide { "b64" } else { "b32" })
        }
        Op::Redux { op, .. } => {
            let int = |name: &str, s: &Signedness| match s {
                Signedness::Unsigned => format!("redux.sync.{name}.u32"),
                Signedness::Signed => format!("redux.sync.{name}.s32"),
            };
            let float = |name: &str, abs: bool, nan: bool| {
                format!(
                    "redux.sync.{name}.f32{}{}",
                    if abs { ".abs" } else { "" },
                    if nan { ".NaN" } else { "" }
                )
            };
            match op {
                ReduxOp::Add(s) => int("add", s),
                ReduxOp::Min(s) => int("min", s),
                ReduxOp::Max(s) => int("max", s),
                ReduxOp::And => "redux.sync.and.b32".to_string(),
                ReduxOp::Or => "redux.sync.or.b32".to_string(),
                ReduxOp::Xor => "redux.sync.xor.b32".to_string(),
                ReduxOp::FMin { abs, nan } => float("min", *abs, *nan),
                ReduxOp::FMax { abs, nan } => float("max", *abs, *nan),
            }
        }
        Op::Activemask { .. } => "activemask".to_string(),
        Op::Mov { ty, .. } => format!("mov{ty}"),
        Op::Bin { op, ty, .. } => {
            let name = op.mnemonic(*ty);
            format!("{name}{ty}")
        }
        Op::Un { op, ty, .. } => {
            let name = op.mnemonic();
            format!("{name}{ty}")
        }
        Op::Setp {
            cmp, combine, ty, ..
        } => {
            let b = match combine {
                None => String::new(),
                Some((b, _)) => format!(".{}", b.name()),
            };
            format!("setp.{}{b}{ty}", cmp.name())
        }
        Op::Selp { ty, .. } => format!("selp{ty}"),
        Op::Bra { .. } => "bra".to_string(),
        Op::Exit => "exit".to_string(),
    }
}

/// Every form name the IR has, in a fixed order (for coverage tables).
pub fn all_forms() -> Vec<String> {
    let r = Operand::Imm(0);
    let d = Dest::Sink;
    let mut ops = Vec::new();
    for membermask in [Some(r), None] {
        for mode in [ShflMode::Up, ShflMode::Down, ShflMode::Bfly, ShflMode::Idx] {
            ops.push(Op::Shfl {
                mode,
                d,
                p: None,
                a: r,
                b: r,
                c: r,
                membermask,
            });
        }
        for mode in [
            VoteMode::All,
            VoteMode::Any,
            VoteMode::Uni,
            VoteMode::Ballot,
        ] {
            ops.push(Op::Vote {
                mode,
                d,
                a: r,
                membermask,
            });
        }
    }
    for mode in [MatchMode::Any, MatchMode::All] {
        for wide in [false, true] {
            ops.push(Op::Match {
                mode,
                wide,
                d,
                p: None,
                a: r,
                membermask: r,
            });
        }
    }
    for op in redux_ops() {
        ops.push(Op::Redux {
            op,
            d,
            a: r,
            membermask: r,
        });
    }
    ops.push(Op::Activemask { d });
    for &ty in MOV_TYPES {
        ops.push(Op::Mov { ty, d, a: r });
    }
    for &op in BIN_OPS {
        for &ty in bin_types(op) {
            ops.push(Op::Bin {
                op,
                ty,
                d,
                a: r,
                b: r,
            });
        }
    }
    for &op in UN_OPS {
        for &ty in un_types(op) {
            ops.push(Op::Un { op, ty, d, a: r });
        }
    }
    for &cmp in CMP_OPS {
        for &b in BOOL_OPS {
            for &ty in setp_types(cmp) {
                ops.push(Op::Setp {
                    cmp,
                    combine: b.map(|b| (b, r)),
                    ty,
                    p: d,
                    q: None,
                    a: r,
                    b: r,
                });
            }
        }
    }
    for &ty in SELP_TYPES {
        ops.push(Op::Selp {
            ty,
            d,
            a: r,
            b: r,
            c: r,
        });
    }
    ops.push(Op::Bra { target: LabelId(0) });
    ops.push(Op::Exit);
    ops.iter().map(form_name).collect()
}
