//! Definedness below the lane: every register lane carries, beside its
//! value, a mask of the bits that are *defined* (like memcheck's V-bits).
//! A value that depends on scheduling (`activemask`, the participants of a
//! deprecated `shfl`/`vote`) is often known only in part — a lane's own bit
//! of `activemask` is always 1, an exited lane's bit is 0, the rest may
//! depend on which lanes happen to run together — and the glue carries that
//! through exactly where it can: `and` with a defined 0 gives a defined 0,
//! shifts move the defined bits, the low bits of a sum are defined up to the
//! first undefined input bit, `selp` with an undefined selector keeps the
//! bits where both choices agree. Everything else (f32 arithmetic, `popc`,
//! ordered comparisons, `min`/`max`, `mul.hi`) is defined only when all of
//! its input bits are.
//!
//! Other engines are compared on the defined bits only; a register lane is
//! "defined" in the per-lane API when all of its bits are.

use crate::ir::{BinOp, BoolOp, CmpOp, Type, UnOp};

/// A per-lane value and its defined bits.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Val {
    /// The value (meaningful on the defined bits only).
    pub v: u64,
    /// The defined bits.
    pub d: u64,
}

impl Val {
    /// A fully defined value.
    pub fn known(v: u64) -> Val {
        Val { v, d: u64::MAX }
    }

    /// A value with nothing defined.
    pub fn unknown() -> Val {
        Val { v: 0, d: 0 }
    }

    /// `v`, fully defined when `defined`, else not at all.
    pub fn all_or_none(v: u64, defined: bool) -> Val {
        Val {
            v,
            d: if defined { u64::MAX } else { 0 },
        }
    }

    /// A boolean (bit 0).
    pub fn bool(b: bool, defined: bool) -> Val {
        Val::all_or_none(b as u64, defined)
    }

    /// Whether every bit of a `ty` value is defined.
    pub fn full(self, ty: Type) -> bool {
        self.d & ty.mask() == ty.mask()
    }

    /// Whether every bit under `mask` is defined.
    pub fn full_under(self, mask: u64) -> bool {
        self.d & mask == mask
    }

    /// The same value with its definedness cut to `self`'s when `keep`,
    /// else undefined.
    pub fn only_if(self, keep: bool) -> Val {
        if keep {
            self
        } else {
            Val::unknown()
        }
    }
}

/// The bits strictly below the lowest set bit of `u` (all bits when `u` is
/// 0): what carries cannot reach from an undefined bit in `u`.
fn below_lowest(u: u64) -> u64 {
    if u == 0 {
        u64::MAX
    } else {
        (u & u.wrapping_neg()) - 1
    }
}

/// The defined bits of `op.ty a, b` (integer and bit types; `.f32` and the
/// ops listed in the module doc are all-or-nothing), given the defined
/// inputs' values. `b` is the shift amount for `shl`/`shr`.
pub(crate) fn binary_defined(op: BinOp, ty: Type, a: Val, b: Val) -> u64 {
    let m = ty.mask();
    let both = a.full(ty) && b.full(op.b_type(ty));
    let all = if both { u64::MAX } else { 0 };
    if ty == Type::F32 {
        return all;
    }
    match op {
        // Low bits of a sum or a product depend only on the low bits of
        // the operands.
        BinOp::Add | BinOp::Sub | BinOp::Mul => below_lowest(!(a.d & b.d) & m),
        BinOp::MulHi | BinOp::Min | BinOp::Max => all,
        BinOp::And => (a.d & b.d) | (a.d & !a.v) | (b.d & !b.v),
        BinOp::Or => (a.d & b.d) | (a.d & a.v) | (b.d & b.v),
        BinOp::Xor => a.d & b.d,
        BinOp::Shl | BinOp::Shr => {
            if !b.full(Type::U32) {
                return 0;
            }
            let w = ty.bits();
            let n = b.v as u32;
            // "Signed shifts fill with the sign bit, unsigned and untyped
            // shifts fill with 0" (ISA `shr`): every signed type, `.s16` too.
            let arithmetic = op == BinOp::Shr && ty.is_signed();
            if n >= w && !arithmetic {
                // Everything shifted out: a defined 0.
                return u64::MAX;
            }
            let n = n.min(w - 1);
            match op {
                BinOp::Shl => (a.d << n) | ((1u64 << n) - 1),
                _ => {
                    let moved = (a.d & m) >> n;
                    let filled = !(m >> n) & m;
                    // Arithmetic: the sign bit fills.
                    let fill_defined = !arithmetic || a.d >> (w - 1) & 1 == 1;
                    moved | if fill_defined { filled } else { 0 }
                }
            }
        }
    }
}

/// The defined bits of `op.ty a`.
pub(crate) fn unary_defined(op: UnOp, ty: Type, a: Val) -> u64 {
    match op {
        UnOp::Not => a.d,
        // `cnot` is 0 or 1: the bits above bit 0 are always 0, and bit 0 is
        // known once every bit of `a` is, or once a defined bit is 1.
        UnOp::Cnot if a.full(ty) || a.v & a.d & ty.mask() != 0 => u64::MAX,
        UnOp::Cnot => !1,
        UnOp::Neg | UnOp::Abs | UnOp::Popc => {
            if a.full(ty) {
                u64::MAX
            } else {
                0
            }
        }
    }
}

/// Whether `setp.cmp.ty a, b` is known: both operands fully defined, or,
/// for `eq`/`ne` on an integer or bit type, their defined bits already
/// differ.
pub(crate) fn compare_defined(cmp: CmpOp, ty: Type, a: Val, b: Val) -> bool {
    if a.full(ty) && b.full(ty) {
        return true;
    }
    let differ = (a.v ^ b.v) & a.d & b.d & ty.mask() != 0;
    differ && matches!(cmp, CmpOp::Eq | CmpOp::Ne) && ty != Type::F32
}

/// `x BOOL c` on booleans with definedness: a defined `false` decides an
/// `and`, a defined `true` an `or`.
pub(crate) fn combine(op: BoolOp, x: Val, c: Val) -> Val {
    let (xv, xd) = (x.v & 1 == 1, x.d & 1 == 1);
    let (cv, cd) = (c.v & 1 == 1, c.d & 1 == 1);
    let (v, d) = match op {
        BoolOp::And => (xv && cv, (xd && (cd || !xv)) || (cd && !cv)),
        BoolOp::Or => (xv || cv, (xd && (cd || xv)) || (cd && cv)),
        BoolOp::Xor => (xv ^ cv, xd && cd),
    };
    Val::bool(v, d)
}

/// `c ? a : b` with definedness: a defined selector picks its operand; an
/// undefined one keeps the bits where both choices agree.
pub(crate) fn select(c: Val, a: Val, b: Val) -> Val {
    if c.d & 1 == 1 {
        if c.v & 1 == 1 {
            a
        } else {
            b
        }
    } else {
        Val {
            v: a.v,
            d: a.d & b.d & !(a.v ^ b.v),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Worked by hand: bit 4 of `a` is undefined.
    #[test]
    fn carries_and_masks() {
        let a = Val { v: 0x20, d: !0x10 };
        let one = Val::known(1);
        // a + 1: bits 0..3 cannot be reached by a carry from bit 4.
        assert_eq!(binary_defined(BinOp::Add, Type::U32, a, one), 0xf);
        // a & 0xf: bits 4.. are a defined 0 from the constant.
        assert_eq!(
            binary_defined(BinOp::And, Type::B32, a, Val::known(0xf)) & 0xffff_ffff,
            0xffff_ffff
        );
        // a | 0x10: bit 4 is a defined 1 from the constant.
        assert_eq!(
            binary_defined(BinOp::Or, Type::B32, a, Val::known(0x10)) & 0xffff_ffff,
            0xffff_ffff
        );
        // a >> 5 (u32): bit 4 is shifted out; the top 5 bits are zeros.
        assert_eq!(
            binary_defined(BinOp::Shr, Type::U32, a, Val::known(5)) & 0xffff_ffff,
            0xffff_ffff
        );
        // a << 1: bit 4 moves to bit 5, bit 0 is a defined 0.
        assert_eq!(
            binary_defined(BinOp::Shl, Type::B32, a, one) & 0xffff_ffff,
            !0x20 & 0xffff_ffff
        );
        // eq against 0: the defined bit 5 of a is 1, so they differ.
        assert!(compare_defined(CmpOp::Ne, Type::U32, a, Val::known(0)));
        assert!(!compare_defined(CmpOp::Lt, Type::U32, a, Val::known(0)));
    }

    /// ISA `shr`: "Signed shifts fill with the sign bit, unsigned and
    /// untyped shifts fill with 0", amounts past the width "clamped to N".
    /// So on every signed type, `.s16` as `.s32`, the filled bits are as
    /// defined as the sign bit. Worked by hand on 16 bits.
    #[test]
    fn signed_shifts_fill_with_the_sign_bit_at_every_width() {
        let low16 = |d: u64| d & 0xffff;
        // Nothing defined: no bit of the result either, bit 15 included.
        let none = Val {
            v: 0xe0c7,
            d: !0xffff,
        };
        for n in [1, 4, 15, 16, 20] {
            let d = binary_defined(BinOp::Shr, Type::S16, none, Val::known(n));
            assert_eq!(low16(d), 0, "shr.s16 by {n}");
        }
        // Unsigned: the top `n` bits are zeros, defined.
        let d = binary_defined(BinOp::Shr, Type::U16, none, Val::known(1));
        assert_eq!(low16(d), 0x8000);
        assert_eq!(
            low16(binary_defined(BinOp::Shr, Type::B16, none, Val::known(16))),
            0xffff
        );
        // Only the sign bit undefined: by 4, bits 0..10 come from the
        // defined bits 4..14, bits 11..15 from the sign.
        let sign = Val { v: 0, d: !0x8000 };
        let d = binary_defined(BinOp::Shr, Type::S16, sign, Val::known(4));
        assert_eq!(low16(d), 0x07ff);
        let d = binary_defined(BinOp::Shr, Type::U16, sign, Val::known(4));
        assert_eq!(low16(d), 0xf7ff);
        // Only bit 0 undefined: by 16 every bit is the (defined) sign.
        let low = Val { v: 0, d: !1 };
        let d = binary_defined(BinOp::Shr, Type::S16, low, Val::known(16));
        assert_eq!(low16(d), 0xffff);
        // And `.s32` as before: an undefined bit 31 leaves bits 28..31.
        let sign32 = Val {
            v: 0,
            d: !0x8000_0000,
        };
        let d = binary_defined(BinOp::Shr, Type::S32, sign32, Val::known(3));
        assert_eq!(d & 0xffff_ffff, 0x0fff_ffff);
    }

    #[test]
    fn booleans_and_selects() {
        let f = Val::bool(false, true);
        let u = Val::unknown();
        assert_eq!(combine(BoolOp::And, u, f), Val::bool(false, true));
        assert_eq!(combine(BoolOp::Or, u, f).d & 1, 0);
        assert_eq!(
            combine(BoolOp::Or, u, Val::bool(true, true)),
            Val::bool(true, true)
        );
        let s = select(u, Val::known(0b1100), Val::known(0b1010));
        assert_eq!(s.d & 0xf, 0b1001);
        assert_eq!(s.v & s.d & 0xf, 0b1000);
    }
}
