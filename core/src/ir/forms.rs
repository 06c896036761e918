//! The forms of the instruction set: every mode, operation and type each
//! instruction takes (the tables the parser checks against, the generator
//! draws from and [`all_forms`] enumerates, so that none can drift from the
//! others), each instruction's form name, and its opcode as PTX spells it
//! (what the printer writes before the operands).
//!
//! A form is an opcode with the modifiers that change what is computed:
//! `shfl.sync.up`, `shfl.up` (deprecated), `vote.sync.ballot`,
//! `match.all.sync.b64`, `redux.sync.min.f32.abs.NaN`, `activemask`, and for
//! the glue the opcode with its type: `mov.pred`, `mul.lo.s64`, `mul.f32`,
//! `setp.lt.and.s32`, `selp.f32`. Operand kinds (registers or immediates,
//! `d|p`, sinks, guards) are not part of the form; the generator counts them
//! as features ([`Stats::features`](crate::gen::Stats::features)).

use super::*;

impl ShflMode {
    /// Every mode, in a fixed order.
    pub const ALL: [ShflMode; 4] = [ShflMode::Up, ShflMode::Down, ShflMode::Bfly, ShflMode::Idx];
}

impl VoteMode {
    /// Every mode, in a fixed order.
    pub const ALL: [VoteMode; 4] = [
        VoteMode::All,
        VoteMode::Any,
        VoteMode::Uni,
        VoteMode::Ballot,
    ];
}

impl MatchMode {
    /// Every mode, in a fixed order.
    pub const ALL: [MatchMode; 2] = [MatchMode::Any, MatchMode::All];
}

impl ReduxOp {
    /// Every `redux.sync` operation, the integer and bitwise ones first.
    pub const ALL: [ReduxOp; 17] = {
        use Signedness::{Signed, Unsigned};
        [
            ReduxOp::Add(Unsigned),
            ReduxOp::Add(Signed),
            ReduxOp::Min(Unsigned),
            ReduxOp::Min(Signed),
            ReduxOp::Max(Unsigned),
            ReduxOp::Max(Signed),
            ReduxOp::And,
            ReduxOp::Or,
            ReduxOp::Xor,
            ReduxOp::FMin {
                abs: false,
                nan: false,
            },
            ReduxOp::FMax {
                abs: false,
                nan: false,
            },
            ReduxOp::FMin {
                abs: false,
                nan: true,
            },
            ReduxOp::FMax {
                abs: false,
                nan: true,
            },
            ReduxOp::FMin {
                abs: true,
                nan: false,
            },
            ReduxOp::FMax {
                abs: true,
                nan: false,
            },
            ReduxOp::FMin {
                abs: true,
                nan: true,
            },
            ReduxOp::FMax {
                abs: true,
                nan: true,
            },
        ]
    };

    /// The operation's name: `add`, `min`, `max`, `and`, `or`, `xor`.
    fn op_name(self) -> &'static str {
        match self {
            ReduxOp::Add(_) => "add",
            ReduxOp::Min(_) | ReduxOp::FMin { .. } => "min",
            ReduxOp::Max(_) | ReduxOp::FMax { .. } => "max",
            ReduxOp::And => "and",
            ReduxOp::Or => "or",
            ReduxOp::Xor => "xor",
        }
    }

    /// `.abs` and `.NaN` where the operation has them.
    fn qualifiers(self) -> String {
        match self {
            ReduxOp::FMin { abs, nan } | ReduxOp::FMax { abs, nan } => format!(
                "{}{}",
                if abs { ".abs" } else { "" },
                if nan { ".NaN" } else { "" }
            ),
            ReduxOp::Add(_)
            | ReduxOp::Min(_)
            | ReduxOp::Max(_)
            | ReduxOp::And
            | ReduxOp::Or
            | ReduxOp::Xor => String::new(),
        }
    }

    /// The opcode's modifiers after `redux.sync.`, as PTX writes them:
    /// `add.u32`, `and.b32`, `min.abs.NaN.f32`.
    fn modifiers(self) -> String {
        format!("{}{}{}", self.op_name(), self.qualifiers(), self.ty())
    }

    /// The form name's modifiers after `redux.sync.`: `add.u32`,
    /// `and.b32`, `min.f32.abs.NaN` (`.abs`/`.NaN` after the type, unlike
    /// the opcode).
    fn form(self) -> String {
        format!("{}{}{}", self.op_name(), self.ty(), self.qualifiers())
    }
}

impl BinOp {
    /// Every binary operation, in a fixed order.
    pub const ALL: [BinOp; 11] = [
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

    /// The types the operation takes (`mul` on integers is `mul.lo`, see
    /// [`BinOp::mnemonic`]).
    pub fn types(self) -> &'static [Type] {
        use Type::*;
        match self {
            BinOp::Add | BinOp::Sub | BinOp::Min | BinOp::Max | BinOp::Mul => {
                &[U32, S32, U64, S64, F32]
            }
            BinOp::MulHi => &[U32, S32, U64, S64],
            BinOp::And | BinOp::Or | BinOp::Xor => &[B32, B64, Pred],
            BinOp::Shl => &[B32, B64],
            BinOp::Shr => &[B32, B64, U32, U64, S32, S64],
        }
    }
}

impl UnOp {
    /// Every unary operation, in a fixed order.
    pub const ALL: [UnOp; 5] = [UnOp::Not, UnOp::Neg, UnOp::Abs, UnOp::Popc, UnOp::Cnot];

    /// The types the operation takes.
    pub fn types(self) -> &'static [Type] {
        use Type::*;
        match self {
            UnOp::Not => &[B32, B64, Pred],
            UnOp::Neg | UnOp::Abs => &[F32],
            UnOp::Popc | UnOp::Cnot => &[B32, B64],
        }
    }
}

impl CmpOp {
    /// Every comparison, in a fixed order.
    pub const ALL: [CmpOp; 6] = [
        CmpOp::Eq,
        CmpOp::Ne,
        CmpOp::Lt,
        CmpOp::Le,
        CmpOp::Gt,
        CmpOp::Ge,
    ];

    /// The types a `setp` with this comparison takes.
    pub fn types(self) -> &'static [Type] {
        use Type::*;
        match self {
            CmpOp::Eq | CmpOp::Ne => &[B32, B64, U32, S32, U64, S64, F32],
            CmpOp::Lt | CmpOp::Le | CmpOp::Gt | CmpOp::Ge => &[U32, S32, U64, S64, F32],
        }
    }
}

impl BoolOp {
    /// Every combining operator, in a fixed order.
    pub const ALL: [BoolOp; 3] = [BoolOp::And, BoolOp::Or, BoolOp::Xor];

    /// What a `setp` may combine its result with: nothing (`None`), then
    /// each of [`BoolOp::ALL`].
    pub const ALL_OR_NONE: [Option<BoolOp>; 4] = [
        None,
        Some(BoolOp::ALL[0]),
        Some(BoolOp::ALL[1]),
        Some(BoolOp::ALL[2]),
    ];
}

impl Glue {
    /// Every type a `mov` takes: all of them.
    pub const MOV_TYPES: &'static [Type] = &Type::ALL;

    /// Every type a `selp` takes: all but `.pred`, which `Type::ALL` lists
    /// last.
    pub const SELP_TYPES: &'static [Type] = Type::ALL.split_last().expect("non-empty").1;
}

/// `.sync` for the form with a `membermask`, nothing for the deprecated one.
fn sync(membermask: Option<Operand>) -> &'static str {
    if membermask.is_some() {
        ".sync"
    } else {
        ""
    }
}

impl Shfl {
    /// `shfl.sync.MODE`, or `shfl.MODE` for the deprecated form.
    pub fn form_name(&self) -> String {
        format!("shfl{}.{}", sync(self.membermask), self.mode.name())
    }

    /// `shfl[.sync].MODE.b32`.
    pub fn opcode(&self) -> String {
        format!("{}.b32", self.form_name())
    }
}

impl Vote {
    /// `vote.sync.MODE`, or `vote.MODE` for the deprecated form.
    pub fn form_name(&self) -> String {
        format!("vote{}.{}", sync(self.membermask), self.mode.name())
    }

    /// `vote[.sync].MODE.{pred,b32}`.
    pub fn opcode(&self) -> String {
        format!("{}.{}", self.form_name(), self.mode.ty().name())
    }
}

impl Match {
    /// `match.MODE.sync.TYPE`, the opcode.
    pub fn form_name(&self) -> String {
        self.opcode()
    }

    /// `match.MODE.sync.TYPE`.
    pub fn opcode(&self) -> String {
        format!("match.{}.sync.{}", self.mode.name(), self.ty().name())
    }
}

impl Redux {
    /// `redux.sync.OP.TYPE`, with `.abs`/`.NaN` after `.f32`.
    pub fn form_name(&self) -> String {
        format!("redux.sync.{}", self.op.form())
    }

    /// `redux.sync.OP{.abs}{.NaN}.TYPE`.
    pub fn opcode(&self) -> String {
        format!("redux.sync.{}", self.op.modifiers())
    }
}

impl Activemask {
    /// `activemask`.
    pub fn form_name(&self) -> String {
        "activemask".to_string()
    }

    /// `activemask.b32`.
    pub fn opcode(&self) -> String {
        "activemask.b32".to_string()
    }
}

impl Glue {
    /// The opcode (the type is part of the form).
    pub fn form_name(&self) -> String {
        self.opcode()
    }

    /// The opcode with its modifiers and type: `mov.pred`, `mul.lo.s64`,
    /// `setp.lt.and.s32`.
    pub fn opcode(&self) -> String {
        match self {
            Glue::Mov { ty, .. } => format!("mov{ty}"),
            Glue::Bin { op, ty, .. } => format!("{}{ty}", op.mnemonic(*ty)),
            Glue::Un { op, ty, .. } => format!("{}{ty}", op.mnemonic()),
            Glue::Setp {
                cmp, combine, ty, ..
            } => {
                let b = match combine {
                    None => String::new(),
                    Some((b, _)) => format!(".{}", b.name()),
                };
                format!("setp.{}{b}{ty}", cmp.name())
            }
            Glue::Selp { ty, .. } => format!("selp{ty}"),
        }
    }
}

impl Control {
    /// `bra` or `exit`, the opcode.
    pub fn form_name(&self) -> String {
        self.opcode()
    }

    /// `bra` or `exit`.
    pub fn opcode(&self) -> String {
        match self {
            Control::Bra { .. } => "bra".to_string(),
            Control::Exit => "exit".to_string(),
        }
    }
}

impl Op {
    /// The PTX opcode with its modifiers and type, as the text format
    /// writes it: `shfl.sync.up.b32`, `vote.ballot.b32`,
    /// `redux.sync.min.abs.NaN.f32`, `activemask.b32`, `mul.lo.s32`,
    /// `bra`.
    pub fn opcode(&self) -> String {
        match self {
            Op::Shfl(x) => x.opcode(),
            Op::Vote(x) => x.opcode(),
            Op::Match(x) => x.opcode(),
            Op::Redux(x) => x.opcode(),
            Op::Activemask(x) => x.opcode(),
            Op::Glue(x) => x.opcode(),
            Op::Control(x) => x.opcode(),
            Op::LaneOp(x) => x.opcode.clone(),
        }
    }
}

impl Op {
    /// The stable name of the instruction's form (see the module docs).
    ///
    /// ```
    /// use warp_core::ir::*;
    /// let op = Op::Redux(Redux {
    ///     op: ReduxOp::FMin { abs: true, nan: true },
    ///     d: Dest::Sink,
    ///     a: Operand::Imm(0),
    ///     membermask: Operand::Imm(0xffff_ffff),
    /// });
    /// assert_eq!(op.form_name(), "redux.sync.min.f32.abs.NaN");
    /// ```
    pub fn form_name(&self) -> String {
        match self {
            Op::Shfl(x) => x.form_name(),
            Op::Vote(x) => x.form_name(),
            Op::Match(x) => x.form_name(),
            Op::Redux(x) => x.form_name(),
            Op::Activemask(x) => x.form_name(),
            Op::Glue(x) => x.form_name(),
            Op::Control(x) => x.form_name(),
            Op::LaneOp(x) => x.form_name(),
        }
    }
}

impl IntOp {
    /// The PTX opcode without its type (`mad.wide`, `bfind.shiftamt`,
    /// `shf.l.clamp`).
    pub fn mnemonic(self) -> &'static str {
        match self {
            IntOp::MulWide => "mul.wide",
            IntOp::MadLo => "mad.lo",
            IntOp::MadHi => "mad.hi",
            IntOp::MadWide => "mad.wide",
            IntOp::Div => "div",
            IntOp::Rem => "rem",
            IntOp::Neg => "neg",
            IntOp::Abs => "abs",
            IntOp::Brev => "brev",
            IntOp::Clz => "clz",
            IntOp::Bfe => "bfe",
            IntOp::Bfi => "bfi",
            IntOp::Prmt => "prmt",
            IntOp::Bmsk { clamp: true } => "bmsk.clamp",
            IntOp::Bmsk { clamp: false } => "bmsk.wrap",
            IntOp::Shf { left, clamp } => match (left, clamp) {
                (true, true) => "shf.l.clamp",
                (true, false) => "shf.l.wrap",
                (false, true) => "shf.r.clamp",
                (false, false) => "shf.r.wrap",
            },
            IntOp::Bfind { shiftamt: false } => "bfind",
            IntOp::Bfind { shiftamt: true } => "bfind.shiftamt",
        }
    }
}

impl FloatOp {
    /// The PTX opcode without modifiers (`fma`, `sqrt`; an approximate
    /// function with its `.approx`/`.full`: `ex2.approx`).
    pub fn mnemonic(self) -> &'static str {
        match self {
            FloatOp::Add => "add",
            FloatOp::Sub => "sub",
            FloatOp::Mul => "mul",
            FloatOp::Fma => "fma",
            FloatOp::Div => "div",
            FloatOp::Neg => "neg",
            FloatOp::Abs => "abs",
            FloatOp::Min => "min",
            FloatOp::Max => "max",
            FloatOp::Sqrt => "sqrt",
            FloatOp::Approx(f) => f.mnemonic(),
        }
    }

    /// How many sources it reads.
    pub fn arity(self) -> usize {
        match self {
            FloatOp::Neg | FloatOp::Abs | FloatOp::Sqrt => 1,
            FloatOp::Add | FloatOp::Sub | FloatOp::Mul | FloatOp::Div => 2,
            FloatOp::Min | FloatOp::Max => 2,
            FloatOp::Fma => 3,
            FloatOp::Approx(f) => f.arity(),
        }
    }

    /// Whether it rounds (and its opcode names the rounding): not `neg`,
    /// `abs`, `min`, `max`, which are exact.
    pub fn rounds(self) -> bool {
        match self {
            FloatOp::Add
            | FloatOp::Sub
            | FloatOp::Mul
            | FloatOp::Fma
            | FloatOp::Div
            | FloatOp::Sqrt => true,
            FloatOp::Neg | FloatOp::Abs | FloatOp::Min | FloatOp::Max => false,
            // `.approx`/`.full` take no rounding modifier.
            FloatOp::Approx(_) => false,
        }
    }
}

impl LaneOp {
    /// The opcode PTX spells this instruction with, whatever way it was
    /// written: every modifier that changes the result, in the ISA's
    /// order, and the rounding of `add`/`sub`/`mul`/`fma`/`div`/`sqrt`
    /// always written (so that `ptxas` may not contract them, and `div`
    /// and `sqrt` are the IEEE ones): `cvt.rzi.ftz.s32.f32`,
    /// `mad.wide.s32`, `add.rn.ftz.f32`, `mov.u32` (a special register),
    /// `mov.b64` (packing). The memory instructions, `cvta` and `bar`
    /// keep the opcode they were written with.
    pub fn canonical_opcode(&self) -> String {
        match self.kind {
            LaneOpKind::Cvt {
                rnd,
                int_round,
                ftz,
                sat,
            } => {
                let mut s = "cvt".to_string();
                if let Some(r) = rnd {
                    s.push('.');
                    s.push_str(r.name());
                    if int_round {
                        s.push('i');
                    }
                }
                push_ftz_sat(&mut s, ftz, sat);
                format!("{s}{}{}", self.dests[0].1, self.srcs[0].1)
            }
            LaneOpKind::Int(op) => format!("{}{}", op.mnemonic(), self.srcs[0].1),
            LaneOpKind::Float { op, rnd, ftz, sat } => {
                let mut s = op.mnemonic().to_string();
                if op.rounds() {
                    s.push('.');
                    s.push_str(rnd.name());
                }
                push_ftz_sat(&mut s, ftz, sat);
                format!("{s}{}", self.dests[0].1)
            }
            LaneOpKind::FSetp(cmp) => format!("setp.{}.f64", cmp.name()),
            LaneOpKind::Special(_) | LaneOpKind::Pack => format!("mov{}", self.dests[0].1),
            LaneOpKind::Unpack => format!("mov{}", self.srcs[0].1),
            LaneOpKind::Atom(a) => a.opcode(self.srcs[0].1),
            LaneOpKind::Fence(f) => f.opcode(),
            LaneOpKind::Ld(_) | LaneOpKind::St(_) | LaneOpKind::Cvta { .. } | LaneOpKind::Bar => {
                self.opcode.clone()
            }
        }
    }

    /// The stable name of its form (see the module docs): the canonical
    /// opcode ([`LaneOp::canonical_opcode`]), a special register's name,
    /// `pack.b64.b32` for `mov.b64 d, {a, b}` and `unpack.b64.b32` for
    /// its inverse.
    pub fn form_name(&self) -> String {
        match self.kind {
            LaneOpKind::Special(s) => s.name(),
            LaneOpKind::Pack => format!("pack{}{}", self.dests[0].1, self.srcs[0].1),
            LaneOpKind::Unpack => format!("unpack{}{}", self.srcs[0].1, self.dests[0].1),
            LaneOpKind::Cvt { .. }
            | LaneOpKind::Int(_)
            | LaneOpKind::Float { .. }
            | LaneOpKind::FSetp(_)
            | LaneOpKind::Ld(_)
            | LaneOpKind::St(_)
            | LaneOpKind::Cvta { .. }
            | LaneOpKind::Bar
            | LaneOpKind::Atom(_)
            | LaneOpKind::Fence(_) => self.canonical_opcode(),
        }
    }
}

/// Appends `.ftz` and `.sat` where set, in the ISA's order.
fn push_ftz_sat(s: &mut String, ftz: bool, sat: bool) {
    if ftz {
        s.push_str(".ftz");
    }
    if sat {
        s.push_str(".sat");
    }
}
