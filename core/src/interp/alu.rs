//! The glue: `mov`, integer and f32 arithmetic, logic, shifts, `popc`,
//! `setp`, `selp`, and the `.pred` logic ops.
//!
//! Integer results wrap at the type's width. f32 is IEEE binary32 with
//! round-to-nearest-even and no flush-to-zero (PTX `add/sub/mul.f32`
//! without `.ftz`); every NaN result of `add/sub/mul/neg/abs` is the
//! canonical `0x7fffffff`, `min/max` with one NaN operand return the other,
//! and `min(+0,-0) = -0`, `max(+0,-0) = +0` — all as measured on an H200
//! (`shared/hw/f32-glue-h200.txt`). Shift amounts are `.u32` and "greater
//! than the register width N are clamped to N". `setp` on `.f32` uses the
//! ordered comparisons: false when either operand is NaN.
//!
//! Definedness is bit by bit (`bits.rs`): the bit ops, shifts and the low
//! bits of `add`/`sub`/`mul.lo` follow their inputs' defined bits; `selp`
//! with a defined selector copies the chosen operand; everything else is
//! defined when all its input bits are.
//!
//! NaN bits: the ISA pages this project implements fix no NaN bits for the
//! f32 glue, and the H200 showed two answers (canonical `0x7fffffff` at run
//! time, the operand's own bits where `ptxas` folded immediates), so a NaN
//! result of an f32 op is *open* ([`Outcome::nan_open`](crate::outcome::Outcome::nan_open)):
//! computed as canonical NaN, compared as "is a NaN". `mov` and `selp` copy
//! the mark, f32 ops and `setp.f32` read an open NaN as the NaN it is, and
//! any other use of its bits (integer and bit ops, `setp` on a bit type)
//! gives an undefined result.

use super::bits::{binary_defined, combine, compare_defined, select, unary_defined, Val};
use super::float::{is_nan, order_key, CANONICAL_NAN};
use super::lanes::lanes;
use super::warp::{Step, Warp};
use crate::ir::{BinOp, BoolOp, CmpOp, Dest, Glue, Operand, Reg, Type, UnOp};

fn f32_result(x: f32) -> u64 {
    if x.is_nan() {
        CANONICAL_NAN as u64
    } else {
        x.to_bits() as u64
    }
}

fn f(x: u64) -> f32 {
    f32::from_bits(x as u32)
}

/// `x` (a `ty` value's bits) sign-extended from the type's width.
pub(crate) fn signed(x: u64, ty: Type) -> i64 {
    match ty.bits() {
        8 => x as u8 as i8 as i64,
        16 => x as u16 as i16 as i64,
        32 => x as u32 as i32 as i64,
        _ => x as i64,
    }
}

fn is_signed(ty: Type) -> bool {
    ty.is_signed()
}

/// f32 `min`/`max`: NaN-ignoring, `-0.0 < +0.0`.
fn f32_min_max(a: u64, b: u64, max: bool) -> u64 {
    let (a, b) = (a as u32, b as u32);
    let r = match (is_nan(a), is_nan(b)) {
        (true, true) => CANONICAL_NAN,
        (true, false) => b,
        (false, true) => a,
        (false, false) => {
            let a_first = order_key(a) <= order_key(b);
            if a_first != max {
                a
            } else {
                b
            }
        }
    };
    r as u64
}

/// `op.ty a, b` on bits.
pub(crate) fn binary(op: BinOp, ty: Type, a: u64, b: u64) -> u64 {
    let m = ty.mask();
    let w = ty.bits();
    if ty == Type::F32 {
        return match op {
            BinOp::Add => f32_result(f(a) + f(b)),
            BinOp::Sub => f32_result(f(a) - f(b)),
            BinOp::Mul => f32_result(f(a) * f(b)),
            BinOp::Min => f32_min_max(a, b, false),
            BinOp::Max => f32_min_max(a, b, true),
            BinOp::MulHi | BinOp::And | BinOp::Or | BinOp::Xor | BinOp::Shl | BinOp::Shr => {
                unreachable!("the parser admits no {op:?}.f32")
            }
        };
    }
    let r = match op {
        BinOp::Add => a.wrapping_add(b),
        BinOp::Sub => a.wrapping_sub(b),
        BinOp::Mul => a.wrapping_mul(b),
        BinOp::MulHi => {
            if is_signed(ty) {
                let p = signed(a, ty) as i128 * signed(b, ty) as i128;
                (p >> w) as u64
            } else {
                let p = a as u128 * b as u128;
                (p >> w) as u64
            }
        }
        BinOp::Min | BinOp::Max => {
            let a_first = if is_signed(ty) {
                signed(a, ty) <= signed(b, ty)
            } else {
                a <= b
            };
            if a_first == (op == BinOp::Min) {
                a
            } else {
                b
            }
        }
        BinOp::And => a & b,
        BinOp::Or => a | b,
        BinOp::Xor => a ^ b,
        BinOp::Shl => {
            let n = b as u32;
            if n >= w {
                0
            } else {
                a << n
            }
        }
        BinOp::Shr => {
            let n = (b as u32).min(w);
            if is_signed(ty) {
                // Arithmetic: clamping to the width fills with the sign.
                (signed(a, ty) >> n.min(63)) as u64
            } else if n >= w {
                0
            } else {
                a >> n
            }
        }
    };
    r & m
}

/// `op.ty a` on bits.
pub(crate) fn unary(op: UnOp, ty: Type, a: u64) -> u64 {
    match op {
        UnOp::Not => !a & ty.mask(),
        UnOp::Neg if is_nan(a as u32) => CANONICAL_NAN as u64,
        UnOp::Neg => (a as u32 ^ 0x8000_0000) as u64,
        UnOp::Abs if is_nan(a as u32) => CANONICAL_NAN as u64,
        UnOp::Abs => (a as u32 & 0x7fff_ffff) as u64,
        UnOp::Popc => (a & ty.mask()).count_ones() as u64,
        UnOp::Cnot => u64::from(a & ty.mask() == 0),
    }
}

/// `setp.cmp.ty a, b` (before combining with `c`).
pub(crate) fn compare(cmp: CmpOp, ty: Type, a: u64, b: u64) -> bool {
    use std::cmp::Ordering;
    let ord = match ty {
        Type::F32 => f(a).partial_cmp(&f(b)),
        Type::F64 => f64::from_bits(a).partial_cmp(&f64::from_bits(b)),
        Type::S8 | Type::S16 | Type::S32 | Type::S64 => Some(signed(a, ty).cmp(&signed(b, ty))),
        Type::U8
        | Type::U16
        | Type::U32
        | Type::U64
        | Type::B8
        | Type::B16
        | Type::B32
        | Type::B64
        | Type::Pred => Some(a.cmp(&b)),
    };
    // `None` (a NaN operand): every ordered comparison is false.
    let Some(o) = ord else { return false };
    match cmp {
        CmpOp::Eq => o == Ordering::Equal,
        CmpOp::Ne => o != Ordering::Equal,
        CmpOp::Lt => o == Ordering::Less,
        CmpOp::Le => o != Ordering::Greater,
        CmpOp::Gt => o == Ordering::Greater,
        CmpOp::Ge => o != Ordering::Less,
    }
}

/// The values one lane computes for glue instruction `g` from its
/// sources' bits (in [`Op::sources`](crate::ir::Op::sources) order), one
/// per destination (`setp`: `p`, then `q`). The reference's semantics, for engines that call it
/// rather than lower a form themselves (the JIT's 16-bit glue).
pub fn eval(g: &Glue, args: &[u64]) -> [u64; 2] {
    let arg = |i: usize| args.get(i).copied().unwrap_or(0);
    match *g {
        Glue::Mov { ty, .. } => [arg(0) & ty.mask(), 0],
        Glue::Bin { op, ty, .. } => [binary(op, ty, arg(0), arg(1)), 0],
        Glue::Un { op, ty, .. } => [unary(op, ty, arg(0)), 0],
        Glue::Setp {
            cmp, combine, ty, ..
        } => {
            let r = compare(cmp, ty, arg(0) & ty.mask(), arg(1) & ty.mask());
            let with = |x: bool| match combine {
                None => x,
                Some((BoolOp::And, _)) => x && arg(2) & 1 == 1,
                Some((BoolOp::Or, _)) => x || arg(2) & 1 == 1,
                Some((BoolOp::Xor, _)) => x ^ (arg(2) & 1 == 1),
            };
            [with(r) as u64, with(!r) as u64]
        }
        Glue::Selp { ty, .. } => [if arg(2) & 1 == 1 { arg(0) } else { arg(1) } & ty.mask(), 0],
    }
}

/// The operands `x` reads and the destinations it writes (what
/// [`crate::ir::Op::sources`] and [`crate::ir::Op::dests`] list, in their
/// order), in arrays.
fn operands(x: &Glue) -> ([Option<Operand>; 3], [Option<Dest>; 2]) {
    match *x {
        Glue::Mov { d, a, .. } | Glue::Un { d, a, .. } => ([Some(a), None, None], [Some(d), None]),
        Glue::Bin { d, a, b, .. } => ([Some(a), Some(b), None], [Some(d), None]),
        Glue::Setp {
            combine,
            p,
            q,
            a,
            b,
            ..
        } => ([Some(a), Some(b), combine.map(|(_, c)| c)], [Some(p), q]),
        Glue::Selp { d, a, b, c, .. } => ([Some(a), Some(b), Some(c)], [Some(d), None]),
    }
}

/// Executes `x` for the lanes of `s`.
pub(crate) fn exec(w: &mut Warp, s: &Step, x: &Glue) {
    // The registers read and the destinations, without allocating (this
    // runs at every step): a glue instruction reads at most three
    // (`selp`'s and `setp`'s a, b, c) and writes at most two (`setp`'s p|q).
    let (sources, dests) = operands(x);
    let mut read = [Reg(0); 3];
    let mut n_read = 0;
    for o in sources.into_iter().flatten() {
        if let Operand::Reg(r) | Operand::NotPred(r) = o {
            read[n_read] = r;
            n_read += 1;
        }
    }
    let read = &read[..n_read];
    for l in lanes(s.exec) {
        // A never-written source is a fresh unknown at every read: no bit
        // of the result is certain, not even by absorption (`0 AND x`).
        // `selp` is the exception: it reads one operand or the other, and
        // an unselected never-written operand does not matter.
        // What is computed from it is as wild (the compiler propagates its
        // `undef` through copies and arithmetic), so it stays never-written.
        if !matches!(x, Glue::Selp { .. }) && read.iter().any(|&r| w.never_written(r, l)) {
            for d in dests.into_iter().flatten() {
                w.write_wild(d, l);
            }
            continue;
        }
        match *x {
            Glue::Mov { d, a, .. } => {
                let v = w.read_keep_nan(a, l);
                let open = w.is_open(a, l);
                w.write_nan(d, l, v, open);
            }
            Glue::Bin { op, ty, d, a, b } if ty == Type::F32 => {
                let (av, bv) = (w.read_keep_nan(a, l), w.read_keep_nan(b, l));
                let r = binary(op, ty, av.v, bv.v);
                let v = Val {
                    v: r,
                    d: binary_defined(op, ty, av, bv),
                };
                w.write_nan(d, l, v, is_nan(r as u32));
            }
            Glue::Bin { op, ty, d, a, b } => {
                let (av, bv) = (w.read(a, l), w.read(b, l));
                let v = Val {
                    v: binary(op, ty, av.v, bv.v),
                    d: binary_defined(op, ty, av, bv),
                };
                w.write(d, l, v);
            }
            Glue::Un {
                op: op @ (UnOp::Neg | UnOp::Abs),
                ty,
                d,
                a,
            } => {
                let av = w.read_keep_nan(a, l);
                let r = unary(op, ty, av.v);
                let v = Val {
                    v: r,
                    d: unary_defined(op, ty, av),
                };
                w.write_nan(d, l, v, is_nan(r as u32));
            }
            Glue::Un { op, ty, d, a } => {
                let av = w.read(a, l);
                let v = Val {
                    v: unary(op, ty, av.v),
                    d: unary_defined(op, ty, av),
                };
                w.write(d, l, v);
            }
            Glue::Setp {
                cmp,
                combine: comb,
                ty,
                p,
                q,
                a,
                b,
            } => {
                // Every NaN compares alike: an open NaN is as good as any.
                let read = |o| match ty {
                    Type::F32 => w.read_keep_nan(o, l),
                    _ => w.read(o, l),
                };
                let (av, bv) = (read(a), read(b));
                let t = Val::bool(
                    compare(cmp, ty, av.v, bv.v),
                    compare_defined(cmp, ty, av, bv),
                );
                let not_t = Val::bool(t.v & 1 == 0, t.d & 1 == 1);
                let (pv, qv) = match comb {
                    Some((op, c)) => {
                        let c = w.read(c, l);
                        (combine(op, t, c), combine(op, not_t, c))
                    }
                    None => (t, not_t),
                };
                w.write(p, l, pv);
                if let Some(q) = q {
                    w.write(q, l, qv);
                }
            }
            Glue::Selp { d, a, b, c, .. } => {
                let cv = w.read(c, l);
                let (av, bv) = (w.read_keep_nan(a, l), w.read_keep_nan(b, l));
                let (a_open, b_open) = (w.is_open(a, l), w.is_open(b, l));
                // The NaN mark follows the selected operand when `c` is
                // known; with an unknown `c` both must carry it, and when
                // only one does, no bit is certain: an open NaN's bits are
                // any NaN's, not the canonical ones it is computed as (the
                // H200 selected `abs.f32 0f7f800001` = 0x7fc00001 against 22:
                // `corpus/cases/selp-open-nan-unknown-selector-h200.ptx`).
                let (v, open) = if cv.d & 1 == 1 {
                    let v = select(cv, av, bv);
                    (v, if cv.v & 1 == 1 { a_open } else { b_open })
                } else if a_open != b_open {
                    (Val::unknown(), false)
                } else if a_open {
                    // Both an open NaN: a NaN whichever is selected, and any
                    // NaN's bits will do; their canonical bits may differ in
                    // the sign (`neg` of a NaN), which must not leave the
                    // sign undefined and the rest compared bit by bit (the
                    // H200 gave 0xffc00001 for `mul.rz.ftz.f32 0, NaN`
                    // against `neg.f32 0f7f800001` under an unknown `c`:
                    // `corpus/cases/selp-two-open-nans-unknown-selector-h200.ptx`).
                    (av, true)
                } else {
                    (select(cv, av, bv), false)
                };
                w.write_nan(d, l, v, open);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::operands;
    use crate::ir::{BinOp, BoolOp, CmpOp, Dest, Glue, Op, Operand, Reg, Type, UnOp};

    /// `operands` lists what the IR's own `Op::sources` / `Op::dests` do,
    /// for every glue form (with and without `setp`'s `q` and combining
    /// operand), in the same order.
    #[test]
    fn operands_match_the_irs_lists() {
        let (r, d) = (|i| Operand::Reg(Reg(i)), |i| Dest::Reg(Reg(i)));
        let forms = [
            Glue::Mov {
                ty: Type::B32,
                d: d(0),
                a: r(1),
            },
            Glue::Bin {
                op: BinOp::Add,
                ty: Type::U32,
                d: d(0),
                a: r(1),
                b: Operand::Imm(5),
            },
            Glue::Un {
                op: UnOp::Popc,
                ty: Type::B32,
                d: Dest::Sink,
                a: Operand::LaneId,
            },
            Glue::Setp {
                cmp: CmpOp::Lt,
                combine: None,
                ty: Type::S32,
                p: d(2),
                q: None,
                a: r(0),
                b: r(1),
            },
            Glue::Setp {
                cmp: CmpOp::Ge,
                combine: Some((BoolOp::Xor, Operand::NotPred(Reg(3)))),
                ty: Type::F32,
                p: d(2),
                q: Some(d(4)),
                a: r(0),
                b: r(1),
            },
            Glue::Selp {
                ty: Type::B32,
                d: d(0),
                a: r(1),
                b: r(2),
                c: r(3),
            },
        ];
        for g in forms {
            let (sources, dests) = operands(&g);
            let ir = Op::Glue(g);
            let want_s: Vec<Operand> = ir.sources().into_iter().map(|(o, _, _)| o).collect();
            let want_d: Vec<Dest> = ir.dests().into_iter().map(|(d, _)| d).collect();
            let got_s: Vec<Operand> = sources.into_iter().flatten().collect();
            let got_d: Vec<Dest> = dests.into_iter().flatten().collect();
            assert_eq!(got_s, want_s, "{g:?}");
            assert_eq!(got_d, want_d, "{g:?}");
        }
    }
}
