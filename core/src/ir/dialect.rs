//! The whole dialect's forms (issue #39: one dialect, generated whole):
//! every conversion, integer, float and bit-manipulation form a body may
//! hold outside memory, the special registers and `mov` packing
//! ([`lane_op_forms`]), the glue on 16-bit types and `.f64`
//! ([`dialect_glue_forms`]), each lane op's form name and the opcode PTX
//! spells it with, whatever way it was written, and every form name of
//! the IR ([`all_forms`]; the warp instructions' and the glue's tables are
//! `forms.rs`'s).
//!
//! A form is, as for the warp instructions and the glue, the opcode with
//! the modifiers that change what is computed and its types:
//! `cvt.rzi.ftz.s32.f32`, `cvt.sat.s8.s32`, `mad.wide.s32`,
//! `bfind.shiftamt.u64`, `add.rm.ftz.sat.f32`, `setp.lt.f64`; a special
//! register read by `mov` is the register's name (`%lanemask_lt`), and
//! `mov` packing is `pack.b64.b32` / `unpack.b64.b32`. What the templates
//! hold as operands is a placeholder: sinks and immediate zeros of the
//! right types.

use super::*;

/// The integer types of `cvt`, narrowest first, unsigned before signed.
pub const CVT_INTS: [Type; 8] = {
    use Type::*;
    [U8, S8, U16, S16, U32, S32, U64, S64]
};

/// The four IEEE rounding modifiers, in a fixed order.
pub const ROUNDINGS: [Rounding; 4] = [Rounding::Rn, Rounding::Rz, Rounding::Rm, Rounding::Rp];

/// The 16-bit types a glue operation takes besides `types` (ISA "Integer
/// Arithmetic Instructions": `add.type = { .u16, .u32, .u64, .s16, ...}`;
/// the logic and shift instructions take `.b16`; `setp` and `selp` every
/// 16-bit type): `.b16`, `.u16`, `.s16` wherever `types` has `.b32`,
/// `.u32`, `.s32`.
pub fn narrow_types(types: &[Type]) -> Vec<Type> {
    types
        .iter()
        .filter_map(|t| match t {
            Type::B32 => Some(Type::B16),
            Type::U32 => Some(Type::U16),
            Type::S32 => Some(Type::S16),
            _ => None,
        })
        .collect()
}

/// Whether every value of integer type `a` is a value of integer type
/// `d`: then `cvt.sat.d.a` clamps nothing, and is not a form of its own.
fn holds(d: Type, a: Type) -> bool {
    (d.is_signed() || !a.is_signed()) && d.bits() > a.bits()
}

/// The integer type twice as wide as `t`, of its signedness (`mul.wide`'s
/// and `mad.wide`'s destination).
pub fn wide_type(t: Type) -> Type {
    match (t.bits(), t.is_signed()) {
        (16, true) => Type::S32,
        (16, false) => Type::U32,
        (32, true) => Type::S64,
        (32, false) => Type::U64,
        _ => t,
    }
}

impl IntOp {
    /// Every integer operation with the types it takes (ISA "Integer
    /// Arithmetic Instructions" and "Logic and Shift Instructions").
    pub fn all_with_types() -> Vec<(IntOp, &'static [Type])> {
        use Type::*;
        const HALF: &[Type] = &[U16, S16, U32, S32];
        const ALL: &[Type] = &[U16, S16, U32, S32, U64, S64];
        const SIGNED: &[Type] = &[S16, S32, S64];
        const BITS: &[Type] = &[B32, B64];
        const WORDS: &[Type] = &[U32, S32, U64, S64];
        const B32_ONLY: &[Type] = &[B32];
        let mut v: Vec<(IntOp, &'static [Type])> = vec![
            (IntOp::MulWide, HALF),
            (IntOp::MadLo, ALL),
            (IntOp::MadHi, ALL),
            (IntOp::MadWide, HALF),
            (IntOp::Div, ALL),
            (IntOp::Rem, ALL),
            (IntOp::Neg, SIGNED),
            (IntOp::Abs, SIGNED),
            (IntOp::Brev, BITS),
            (IntOp::Clz, BITS),
            (IntOp::Bfind { shiftamt: false }, WORDS),
            (IntOp::Bfind { shiftamt: true }, WORDS),
            (IntOp::Bfe, WORDS),
            (IntOp::Bfi, BITS),
            (IntOp::Prmt, B32_ONLY),
        ];
        for left in [true, false] {
            for clamp in [true, false] {
                v.push((IntOp::Shf { left, clamp }, B32_ONLY));
            }
            v.push((IntOp::Bmsk { clamp: left }, B32_ONLY));
        }
        v
    }

    /// The destination type and the source types of `op.ty` (`bfe`'s and
    /// `bfi`'s position and length, `shf`'s amount are `.u32`; `mul.wide`
    /// writes twice the width; `clz` and `bfind` a `.u32` count).
    pub fn operand_types(self, ty: Type) -> (Type, Vec<Type>) {
        use Type::U32;
        match self {
            IntOp::MulWide => (wide_type(ty), vec![ty, ty]),
            IntOp::MadWide => (wide_type(ty), vec![ty, ty, wide_type(ty)]),
            IntOp::MadLo | IntOp::MadHi => (ty, vec![ty, ty, ty]),
            IntOp::Div | IntOp::Rem => (ty, vec![ty, ty]),
            IntOp::Neg | IntOp::Abs | IntOp::Brev => (ty, vec![ty]),
            IntOp::Clz | IntOp::Bfind { .. } => (U32, vec![ty]),
            IntOp::Bfe => (ty, vec![ty, U32, U32]),
            IntOp::Bfi => (ty, vec![ty, ty, U32, U32]),
            IntOp::Prmt => (ty, vec![ty, ty, ty]),
            IntOp::Shf { .. } => (ty, vec![ty, ty, U32]),
            IntOp::Bmsk { .. } => (ty, vec![ty, ty]),
        }
    }
}

impl LaneOp {
    /// A template of `kind` writing `dtypes` from `stypes` (sinks and
    /// immediate zeros), spelled canonically.
    pub fn template(kind: LaneOpKind, dtypes: &[Type], stypes: &[Type]) -> LaneOp {
        let mut x = LaneOp {
            kind,
            opcode: String::new(),
            dests: dtypes.iter().map(|&t| (Dest::Sink, t)).collect(),
            srcs: stypes.iter().map(|&t| (Operand::Imm(0), t)).collect(),
            addr: None,
        };
        x.opcode = x.canonical_opcode();
        x
    }
}

/// Every lane-op form a case may hold (everything but memory, `cvta` and
/// barriers), as templates, in a fixed order: the conversions, the integer
/// operations, the float operations, `setp.f64`, the special registers
/// (not the volatile `%warpid`/`%nwarpid`, whose values are the
/// hardware's), packing.
pub fn lane_op_forms() -> Vec<LaneOp> {
    use Type::*;
    let mut v = Vec::new();
    let cvt = |rnd: Option<Rounding>, int_round: bool, ftz: bool, sat: bool| LaneOpKind::Cvt {
        rnd,
        int_round,
        ftz,
        sat,
    };
    // Integer to integer, with `.sat` where it may clamp.
    for a in CVT_INTS {
        for d in CVT_INTS {
            if d == a {
                continue;
            }
            v.push(LaneOp::template(cvt(None, false, false, false), &[d], &[a]));
            if !holds(d, a) {
                v.push(LaneOp::template(cvt(None, false, false, true), &[d], &[a]));
            }
        }
    }
    // Integer to float.
    for a in CVT_INTS {
        for d in [F32, F64] {
            for r in ROUNDINGS {
                v.push(LaneOp::template(
                    cvt(Some(r), false, false, false),
                    &[d],
                    &[a],
                ));
            }
        }
    }
    // Float to integer (`.ftz` for an `.f32` source).
    for a in [F32, F64] {
        for d in CVT_INTS {
            for r in ROUNDINGS {
                for ftz in [false, true] {
                    if ftz && a != F32 {
                        continue;
                    }
                    v.push(LaneOp::template(cvt(Some(r), true, ftz, false), &[d], &[a]));
                }
            }
        }
    }
    // Float to float.
    for ftz in [false, true] {
        v.push(LaneOp::template(
            cvt(None, false, ftz, false),
            &[F64],
            &[F32],
        ));
    }
    for r in ROUNDINGS {
        for (ftz, sat) in [(false, false), (true, false), (false, true)] {
            v.push(LaneOp::template(
                cvt(Some(r), false, ftz, sat),
                &[F32],
                &[F64],
            ));
            v.push(LaneOp::template(
                cvt(Some(r), true, ftz, sat),
                &[F32],
                &[F32],
            ));
            if !ftz {
                v.push(LaneOp::template(
                    cvt(Some(r), true, false, sat),
                    &[F64],
                    &[F64],
                ));
            }
        }
    }
    for (op, types) in IntOp::all_with_types() {
        // `bmsk` runs but is not generated: `ptxas` refuses an `.f32`
        // register as its operand ("Arguments mismatch for instruction
        // 'bmsk'", an H200 run of 2026-11-27), where a `.b32` operand takes
        // any 32-bit register in the case grammar.
        if matches!(op, IntOp::Bmsk { .. }) {
            continue;
        }
        for &ty in types {
            let (d, srcs) = op.operand_types(ty);
            v.push(LaneOp::template(LaneOpKind::Int(op), &[d], &srcs));
        }
    }
    let float = |op: FloatOp, rnd: Rounding, ftz: bool, sat: bool, ty: Type| {
        LaneOp::template(
            LaneOpKind::Float { op, rnd, ftz, sat },
            &[ty],
            &vec![ty; op.arity()],
        )
    };
    for op in [FloatOp::Add, FloatOp::Sub, FloatOp::Mul, FloatOp::Fma] {
        for r in ROUNDINGS {
            for ftz in [false, true] {
                for sat in [false, true] {
                    // `add.rn.f32` is the glue's `add.f32`.
                    if op != FloatOp::Fma && r == Rounding::Rn && !ftz && !sat {
                        continue;
                    }
                    v.push(float(op, r, ftz, sat, F32));
                }
            }
        }
    }
    for op in [FloatOp::Div, FloatOp::Sqrt] {
        for r in ROUNDINGS {
            for ftz in [false, true] {
                v.push(float(op, r, ftz, false, F32));
            }
        }
    }
    // Without `.ftz` these are the glue's `.f32` forms.
    for op in [FloatOp::Neg, FloatOp::Abs, FloatOp::Min, FloatOp::Max] {
        v.push(float(op, Rounding::Rn, true, false, F32));
    }
    for op in [
        FloatOp::Add,
        FloatOp::Sub,
        FloatOp::Mul,
        FloatOp::Fma,
        FloatOp::Div,
        FloatOp::Sqrt,
    ] {
        for r in ROUNDINGS {
            v.push(float(op, r, false, false, F64));
        }
    }
    for op in [FloatOp::Neg, FloatOp::Abs, FloatOp::Min, FloatOp::Max] {
        v.push(float(op, Rounding::Rn, false, false, F64));
    }
    for cmp in CmpOp::ALL {
        v.push(LaneOp::template(
            LaneOpKind::FSetp(cmp),
            &[Pred],
            &[F64, F64],
        ));
    }
    for s in Special::ALL {
        if !matches!(s, Special::WarpId | Special::NWarpId) {
            v.push(LaneOp::template(LaneOpKind::Special(s), &[U32], &[]));
        }
    }
    for (whole, parts) in [
        (B64, vec![B32, B32]),
        (B32, vec![B16, B16]),
        (B64, vec![B16; 4]),
    ] {
        v.push(LaneOp::template(LaneOpKind::Pack, &[whole], &parts));
        v.push(LaneOp::template(LaneOpKind::Unpack, &parts, &[whole]));
    }
    v
}

/// The glue forms on the types the warp instructions' glue leaves out:
/// the 16-bit types ([`narrow_types`]) and `mov`/`selp` of `.f64`, as
/// templates.
pub fn dialect_glue_forms() -> Vec<Glue> {
    let with_f64 = |types: &[Type]| {
        let mut v = narrow_types(types);
        v.push(Type::F64);
        v
    };
    glue_forms(
        narrow_types,
        &[UnOp::Not, UnOp::Cnot],
        with_f64(Glue::MOV_TYPES),
        with_f64(Glue::SELP_TYPES),
    )
}

/// Glue templates: `mov` on `movs`, each binary op on `types` of its own
/// types, each of `unops` likewise, each comparison (plain and combined)
/// likewise, `selp` on `selps`, in that order.
fn glue_forms(
    types: impl Fn(&[Type]) -> Vec<Type>,
    unops: &[UnOp],
    movs: Vec<Type>,
    selps: Vec<Type>,
) -> Vec<Glue> {
    let (d, r) = (Dest::Sink, Operand::Imm(0));
    let mut v = Vec::new();
    for ty in movs {
        v.push(Glue::Mov { ty, d, a: r });
    }
    for op in BinOp::ALL {
        for ty in types(op.types()) {
            v.push(Glue::Bin {
                op,
                ty,
                d,
                a: r,
                b: r,
            });
        }
    }
    for &op in unops {
        for ty in types(op.types()) {
            v.push(Glue::Un { op, ty, d, a: r });
        }
    }
    for cmp in CmpOp::ALL {
        for b in BoolOp::ALL_OR_NONE {
            for ty in types(cmp.types()) {
                v.push(Glue::Setp {
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
    for ty in selps {
        v.push(Glue::Selp {
            ty,
            d,
            a: r,
            b: r,
            c: r,
        });
    }
    v
}

/// Every form name the IR has, in a fixed order (for coverage tables): the
/// warp instructions', the glue's, the glue's on the other types, the lane
/// ops', `bra` and `exit`.
pub fn all_forms() -> Vec<String> {
    let r = Operand::Imm(0);
    let d = Dest::Sink;
    let mut ops = Vec::new();
    for membermask in [Some(r), None] {
        for mode in ShflMode::ALL {
            ops.push(Op::Shfl(Shfl {
                mode,
                d,
                p: None,
                a: r,
                b: r,
                c: r,
                membermask,
            }));
        }
        for mode in VoteMode::ALL {
            ops.push(Op::Vote(Vote {
                mode,
                d,
                a: r,
                membermask,
            }));
        }
    }
    for mode in MatchMode::ALL {
        for wide in [false, true] {
            ops.push(Op::Match(Match {
                mode,
                wide,
                d,
                p: None,
                a: r,
                membermask: r,
            }));
        }
    }
    for op in ReduxOp::ALL {
        ops.push(Op::Redux(Redux {
            op,
            d,
            a: r,
            membermask: r,
        }));
    }
    ops.push(Op::Activemask(Activemask { d }));
    let mut glue = glue_forms(
        |t| t.to_vec(),
        &UnOp::ALL,
        Glue::MOV_TYPES.to_vec(),
        Glue::SELP_TYPES.to_vec(),
    );
    glue.extend(dialect_glue_forms());
    ops.extend(glue.into_iter().map(Op::Glue));
    ops.extend(lane_op_forms().into_iter().map(Op::LaneOp));
    ops.push(Op::Control(Control::Bra { target: LabelId(0) }));
    ops.push(Op::Control(Control::Exit));
    ops.iter().map(Op::form_name).collect()
}
