//! The row of the rest of the dialect (issue #39): one lane op (a
//! conversion, an integer, float or bit-manipulation instruction, a special
//! register, a packing `mov`) or one glue instruction on a 16-bit type or
//! `.f64`, drawn uniformly from every such form ([`lane_op_forms`],
//! [`dialect_glue_forms`]), its operands filled with registers and with the
//! values at the edges of what it computes: saturation bounds, a zero or
//! `-1` divisor and `MIN` dividend, rounding ties, NaN, infinities and
//! subnormals, shift amounts and bit-field positions and lengths at and
//! past the width (immediates up to 255, the most the ISA allows).
//!
//! Every such form is valid wherever it stands and on any value: none is
//! undefined behaviour (a division by zero, or a bit-field position or
//! length past 255 in a register, gives an undefined *value*, as a `shfl`
//! from an inactive lane does), so nothing here needs a probe.

use super::emit::Gen;
use super::regs::{INT32, NARROW_INTS, TYPES};
use super::values;
use crate::ir::*;
use arbitrary::{Result, Unstructured};
use std::sync::OnceLock;

/// Every form this row draws from, as templates.
fn forms() -> &'static [Op] {
    static FORMS: OnceLock<Vec<Op>> = OnceLock::new();
    FORMS.get_or_init(|| {
        let mut v: Vec<Op> = dialect_glue_forms().into_iter().map(Op::Glue).collect();
        v.extend(lane_op_forms().into_iter().map(Op::LaneOp));
        v
    })
}

/// What a source operand of a form is for, when that decides which values
/// tell implementations apart.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Use {
    /// A value computed with: the type's edge values.
    Value,
    /// A bit position or length (`bfe`, `bfi`): at, past and far past the
    /// width, up to 255. An immediate must be in 0..255 (the parser and
    /// `ptxas` refuse others); a register may hold anything (past 255 the
    /// lane's result is undefined).
    BitField,
    /// A funnel-shift amount (`shf`): clamped to 32 or taken `& 31`.
    Shift,
    /// A byte selector (`prmt`): four nibbles, each with a sign bit.
    Selector,
    /// A divisor (`div`, `rem`): zero and `-1` are the interesting ones.
    Divisor,
}

/// What source `i` of `op` is for.
fn use_of(op: &Op, i: usize) -> Use {
    match op {
        Op::LaneOp(x) => match x.kind {
            LaneOpKind::Int(op) => match op {
                IntOp::Bfe if matches!(i, 1 | 2) => Use::BitField,
                IntOp::Bfi if matches!(i, 2 | 3) => Use::BitField,
                IntOp::Shf { .. } if i == 2 => Use::Shift,
                IntOp::Prmt if i == 2 => Use::Selector,
                // Position and width: values near 32 reach the overflow rules.
                IntOp::Bmsk { .. } => Use::Shift,
                IntOp::Div | IntOp::Rem if i == 1 => Use::Divisor,
                IntOp::Bfe
                | IntOp::Bfi
                | IntOp::Shf { .. }
                | IntOp::Prmt
                | IntOp::Div
                | IntOp::Rem
                | IntOp::MulWide
                | IntOp::MadLo
                | IntOp::MadHi
                | IntOp::MadWide
                | IntOp::Neg
                | IntOp::Abs
                | IntOp::Brev
                | IntOp::Clz
                | IntOp::Bfind { .. } => Use::Value,
            },
            LaneOpKind::Special(_)
            | LaneOpKind::Cvt { .. }
            | LaneOpKind::Float { .. }
            | LaneOpKind::FSetp(_)
            | LaneOpKind::Pack
            | LaneOpKind::Unpack
            | LaneOpKind::Ld(_)
            | LaneOpKind::St(_)
            | LaneOpKind::Cvta { .. }
            | LaneOpKind::Bar
            | LaneOpKind::Atom(_)
            | LaneOpKind::Fence(_) => Use::Value,
        },
        Op::Glue(Glue::Bin {
            op: BinOp::Shl | BinOp::Shr,
            ..
        }) if i == 1 => Use::Shift,
        Op::Glue(_) => Use::Value,
        // Not drawn by this row ([`forms`]): no operand of theirs is chosen
        // here.
        Op::Shfl(_)
        | Op::Vote(_)
        | Op::Match(_)
        | Op::Redux(_)
        | Op::Activemask(_)
        | Op::Control(_) => Use::Value,
    }
}

/// A value for a source used as `how` of type `ty`.
fn edge_value(u: &mut Unstructured, how: Use, ty: Type) -> Result<u64> {
    Ok(match how {
        Use::Value => values::value(u, ty)?,
        // Immediates only (`dialect_src`): 0..=255, as `ptxas` requires.
        // (As many choices and bytes as when 256, 0x108 and any `u32` were
        // drawn, so the cases' other choices stay as they were.)
        Use::BitField => match u.int_in_range(0..=3)? {
            0..=2 => *u.choose(&[
                0u64, 1, 2, 7, 8, 15, 16, 17, 24, 31, 32, 33, 48, 63, 64, 65, 127, 128, 255,
            ])?,
            _ => u.arbitrary::<u32>()? as u64 & 0xff,
        },
        Use::Shift => values::shift_amount(u)?,
        Use::Selector => match u.int_in_range(0..=3)? {
            0 => *u.choose(&[0x3210u64, 0x7654, 0x0123, 0x4567, 0x8888, 0xba98, 0x1111])?,
            1 => u.int_in_range(0..=0xffff)?,
            _ => u.arbitrary::<u32>()? as u64,
        },
        Use::Divisor => match u.int_in_range(0..=4)? {
            0 => 0,
            1 => ty.mask(),
            2 => *u.choose(&[1u64, 2, 3, 7, 10])?,
            _ => values::value(u, ty)?,
        },
    } & ty.mask())
}

impl Gen<'_, '_> {
    /// Emits one instruction of the rest of the dialect (see the module
    /// docs), maybe under a guard.
    pub(super) fn dialect(&mut self) -> Result<()> {
        let guard = self.maybe_guard()?.map(|(g, _)| g);
        let template = self.u.choose(forms())?.clone();
        let mut op = template.clone();
        let wide = matches!(&op, Op::LaneOp(x) if matches!(x.kind, LaneOpKind::Cvt { .. }));
        // The `{a, b, ...}` of a packing (`true`) or unpacking `mov`: its
        // registers all of one declared type, drawn here, and only registers
        // (ptxas refuses `.u32` with `.f32`; `text::lane_ops`'s `one_type`
        // says what is known; one type is safe).
        let group = match &op {
            Op::LaneOp(x) if x.kind == LaneOpKind::Pack => Some((true, x.srcs[0].1)),
            Op::LaneOp(x) if x.kind == LaneOpKind::Unpack => Some((false, x.dests[0].1)),
            _ => None,
        };
        let group = match group {
            Some((pack, part)) => Some((pack, self.group_type(part)?)),
            None => None,
        };
        let mut taken = Vec::new();
        for (d, ty) in op.dests_mut() {
            *d = match group {
                Some((false, t)) => self.group_dest(t, &taken)?,
                _ => self.dialect_dest(ty, wide, &taken)?,
            };
            if let Dest::Reg(r) = *d {
                taken.push(r);
            }
        }
        let uses: Vec<Use> = (0..template.sources().len())
            .map(|i| use_of(&template, i))
            .collect();
        let mut srcs = Vec::new();
        for (i, (_, ty, _)) in template.sources().into_iter().enumerate() {
            srcs.push(match group {
                Some((true, t)) => Operand::Reg(*self.u.choose(self.regs.of(t))?),
                _ => self.dialect_src(ty, uses[i], wide)?,
            });
        }
        for ((o, _, _), s) in op.sources_mut().into_iter().zip(srcs) {
            *o = s;
        }
        self.emit(guard, op);
        Ok(())
    }

    /// A destination of type `ty`: a register of it (or compatible), of
    /// another integer type at least as wide for a `cvt` (`wide`) to an
    /// 8- or 16-bit type, never one of `taken`; the sink when none is left.
    fn dialect_dest(&mut self, ty: Type, wide: bool, taken: &[Reg]) -> Result<Dest> {
        let mut pool = self.regs.compatible(ty);
        if wide && ty.bits() < 32 {
            pool.extend(self.wider_ints(ty));
        }
        pool.retain(|r| !taken.contains(r));
        if pool.is_empty() {
            return Ok(Dest::Sink);
        }
        Ok(Dest::Reg(*self.u.choose(&pool)?))
    }

    /// The declared type of the registers of one `{a, b, ...}` of parts of
    /// type `part`: one of the types compatible with it (`.b32`, `.u32`,
    /// `.s32`, `.f32` for a `.b32` part) that has registers, each as likely.
    fn group_type(&mut self, part: Type) -> Result<Type> {
        let types: Vec<Type> = TYPES
            .iter()
            .copied()
            .filter(|t| t.compatible(part) && !self.regs.of(*t).is_empty())
            .collect();
        Ok(*self.u.choose(&types)?)
    }

    /// An element of an unpacking `mov`'s `{d0, d1, ...}`: a register of
    /// type `ty`, never one of `taken` (the ISA leaves a vector destination
    /// that names a register twice undefined, §6.4.3); the sink when none
    /// is left.
    fn group_dest(&mut self, ty: Type, taken: &[Reg]) -> Result<Dest> {
        let pool: Vec<Reg> = self
            .regs
            .of(ty)
            .iter()
            .copied()
            .filter(|r| !taken.contains(r))
            .collect();
        if pool.is_empty() {
            return Ok(Dest::Sink);
        }
        Ok(Dest::Reg(*self.u.choose(&pool)?))
    }

    /// The integer registers wider than the 8- or 16-bit `ty`, which a
    /// `cvt` may read or write (ISA "Operand Size Exceeding
    /// Instruction-Type Size").
    fn wider_ints(&self, ty: Type) -> Vec<Reg> {
        let mut v = Vec::new();
        for t in NARROW_INTS.iter().chain(&INT32) {
            if t.bits() >= ty.bits() && t.bits() <= 32 {
                v.extend_from_slice(self.regs.of(*t));
            }
        }
        v
    }

    /// A source of type `ty` used as `how`: an edge value as an immediate
    /// (mostly, for positions, amounts, selectors and divisors), `%laneid`
    /// now and then where a `.u32` fits, else a register.
    fn dialect_src(&mut self, ty: Type, how: Use, wide: bool) -> Result<Operand> {
        if ty == Type::Pred {
            return Ok(Operand::Reg(*self.u.choose(self.regs.of(Type::Pred))?));
        }
        let imm = match how {
            Use::Value => self.u.ratio(1u8, 5)?,
            Use::BitField | Use::Shift | Use::Selector | Use::Divisor => self.u.ratio(3u8, 5)?,
        };
        if imm {
            return Ok(Operand::Imm(edge_value(self.u, how, ty)?));
        }
        if ty.bits() == 32 && Type::U32.compatible(ty) && self.u.ratio(1u8, 16)? {
            return Ok(Operand::LaneId);
        }
        let mut pool = self.regs.compatible(ty);
        if ty.bits() < 16 || (wide && ty.bits() < 32 && self.u.ratio(1u8, 4)?) {
            pool = self.wider_ints(ty);
        }
        Ok(Operand::Reg(*self.u.choose(&pool)?))
    }
}
