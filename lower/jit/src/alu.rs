//! Lowering of the glue (`mov`, arithmetic, logic, shifts, `popc`, `setp`,
//! `selp`, f32 ops) — the semantics of `warp-core`'s `interp/alu.rs`.
//!
//! 32-bit operations with a vector form run as eight i32x4 (or f32x4)
//! operations blended into the destination under the executing-lane mask
//! (per-lane shift amounts too, as multiplies); 64-bit operations,
//! `mul.hi` and 64-bit `popc` run per lane on scalars.

use super::builder::{float_cc, At, Emitter, Lanes};
use super::layout::wide;
use cranelift_codegen::ir::condcodes::{CondCode, FloatCC, IntCC};
use cranelift_codegen::ir::types::{F32, F32X4, I32, I32X4, I64, I64X2};
use cranelift_codegen::ir::{InstBuilder, MemFlagsData, Value};
use warp_core::ir::{BinOp, BoolOp, CmpOp, Dest, Glue, Guard, Operand, Type, UnOp, WARP};

const CANONICAL_NAN: i64 = 0x7fff_ffff;

fn is_signed(ty: Type) -> bool {
    matches!(ty, Type::S32 | Type::S64)
}

/// Whether an instruction runs as 32-bit vectors.
fn vectorizable(g: &Glue) -> bool {
    let narrow = |t: Type| t.bits() != 64;
    match g {
        Glue::Mov { ty, .. } => narrow(*ty),
        // Every 32-bit binary op has a four-lane form (`vector` matches
        // them all).
        Glue::Bin { ty, .. } => narrow(*ty),
        Glue::Un { op, ty, .. } => {
            narrow(*ty)
                && match op {
                    UnOp::Not | UnOp::Neg | UnOp::Abs | UnOp::Popc | UnOp::Cnot => true,
                }
        }
        Glue::Setp { ty, .. } | Glue::Selp { ty, .. } => narrow(*ty),
    }
}

/// Whether a 64-bit instruction runs as sixteen i64x2 operations (two
/// lanes each): `mov`, `add`, `sub`, `and`, `or`, `xor` and shifts by an
/// immediate, on 64-bit registers and immediates (what kernels compute
/// addresses with).
fn pairs(e: &Emitter, g: &Glue) -> bool {
    let src = |o: Operand| match o {
        Operand::Reg(r) => wide(e.reg_type(r)),
        Operand::Imm(_) => true,
        Operand::NotPred(_) | Operand::LaneId => false,
    };
    let dest = |d: Dest| match d {
        Dest::Reg(r) => wide(e.reg_type(r)),
        Dest::Sink => true,
    };
    match *g {
        Glue::Mov { ty, d, a } => ty.bits() == 64 && src(a) && dest(d),
        Glue::Bin {
            op: BinOp::Add | BinOp::Sub | BinOp::And | BinOp::Or | BinOp::Xor,
            ty,
            d,
            a,
            b,
        } => ty.bits() == 64 && ty != Type::F64 && src(a) && src(b) && dest(d),
        Glue::Bin {
            op: BinOp::Shl | BinOp::Shr,
            ty,
            d,
            a,
            b: Operand::Imm(_),
        } => ty.bits() == 64 && ty != Type::F64 && src(a) && dest(d),
        Glue::Bin { .. } | Glue::Un { .. } | Glue::Setp { .. } | Glue::Selp { .. } => false,
    }
}

/// [`pairs`]' instructions on lanes `2j, 2j+1`, for every `j`.
fn vector64(e: &mut Emitter, x: &Glue, l: &mut Lanes) {
    for j in 0..WARP / 2 {
        match *x {
            Glue::Mov { d, a, .. } => {
                let v = e.read_vec64(a, j);
                e.write_vec64(d, j, l, v);
            }
            Glue::Bin { op, ty, d, a, b } => {
                let av = e.read_vec64(a, j);
                let r = match (op, b) {
                    (BinOp::Shl | BinOp::Shr, Operand::Imm(n)) => {
                        // A `.u32` amount, clamped to the width.
                        let n = n as u32;
                        match (op, is_signed(ty)) {
                            (BinOp::Shr, true) => e.b.ins().sshr_imm_s(av, n.min(63) as i64),
                            _ if n >= 64 => {
                                let z = e.b.ins().iconst(I64, 0);
                                e.b.ins().splat(I64X2, z)
                            }
                            (BinOp::Shl, _) => e.b.ins().ishl_imm_s(av, n as i64),
                            _ => e.b.ins().ushr_imm_s(av, n as i64),
                        }
                    }
                    _ => {
                        let bv = e.read_vec64(b, j);
                        match op {
                            BinOp::Add => e.b.ins().iadd(av, bv),
                            BinOp::Sub => e.b.ins().isub(av, bv),
                            BinOp::And => e.b.ins().band(av, bv),
                            BinOp::Or => e.b.ins().bor(av, bv),
                            BinOp::Xor => e.b.ins().bxor(av, bv),
                            _ => unreachable!("not in pairs: {op:?}"),
                        }
                    }
                };
                e.write_vec64(d, j, l, r);
            }
            Glue::Un { .. } | Glue::Setp { .. } | Glue::Selp { .. } => {
                unreachable!("not in pairs")
            }
        }
    }
}

/// Whether `g` runs as vectors (eight i32x4 or sixteen i64x2 operations
/// that read and write through `Emitter::read_vec`/`write_vec` and their
/// 64-bit forms) rather than a loop over the lanes; 16-bit glue is
/// `lane_ops.rs`'s.
pub fn vector_form(e: &Emitter, g: &Glue) -> bool {
    g.ty().bits() != 16 && (vectorizable(g) || pairs(e, g))
}

/// Emits a glue instruction, on the converged lanes that `guard` leaves on.
pub fn emit(e: &mut Emitter, guard: Option<Guard>, x: &Glue) {
    let mut l = e.lanes(guard);
    if vectorizable(x) {
        vector(e, x, &mut l);
    } else if pairs(e, x) {
        vector64(e, x, &mut l);
    } else {
        let exec = e.exec(&mut l);
        e.lane_loop(|e, at| scalar(e, x, at, exec));
    }
}

// ---- vectors ----

/// `popc` of each 32-bit lane of `v` (i32x4): the population count of
/// each byte (`popcnt.i8x16`: one `vpopcntb` with AVX-512 BITALG, else
/// Muła's `pshufb` nibble lookup, about six operations), then adjacent
/// byte counts added into 16-bit lanes and adjacent 16-bit sums into
/// 32-bit lanes (`iadd_pairwise` of the widened halves, which Cranelift
/// lowers to one `pmaddubsw` and one `pmaddwd`). Counts are at most 32, so
/// no sum overflows or sees a sign. SSE has no per-lane 32-bit population
/// count; the bit-slicing of Hacker's Delight 5-1 this replaces took 13
/// operations and a `pmulld`.
fn popc_vec(e: &mut Emitter, v: Value) -> Value {
    let bytes = e.as_bytes(v);
    let counts = e.b.ins().popcnt(bytes);
    let lo = e.b.ins().uwiden_low(counts);
    let hi = e.b.ins().uwiden_high(counts);
    let halves = e.b.ins().iadd_pairwise(lo, hi);
    let lo = e.b.ins().swiden_low(halves);
    let hi = e.b.ins().swiden_high(halves);
    e.b.ins().iadd_pairwise(lo, hi)
}

// ---- f32, scalar or i32x4 alike ----

/// Whether `v` is a vector (i32x4 / f32x4) rather than a scalar.
fn is_vec(e: &Emitter, v: Value) -> bool {
    e.b.func.dfg.value_type(v).is_vector()
}

/// The f32 (or f32x4) view of integer bits `v`.
fn to_float(e: &mut Emitter, v: Value) -> Value {
    let ty = if is_vec(e, v) { F32X4 } else { F32 };
    e.b.ins().bitcast(ty, MemFlagsData::new(), v)
}

/// The integer bits of float `v`.
fn to_bits(e: &mut Emitter, v: Value) -> Value {
    let ty = if is_vec(e, v) { I32X4 } else { I32 };
    e.b.ins().bitcast(ty, MemFlagsData::new(), v)
}

/// `cond ? x : y` for a scalar condition or a vector mask.
fn choose(e: &mut Emitter, cond: Value, x: Value, y: Value) -> Value {
    if is_vec(e, x) {
        e.b.ins().bitselect(cond, x, y)
    } else {
        e.b.ins().select(cond, x, y)
    }
}

/// PTX's canonical NaN, shaped like `like`.
fn canonical_nan(e: &mut Emitter, like: Value) -> Value {
    let c = e.b.ins().iconst(I32, CANONICAL_NAN);
    if is_vec(e, like) {
        e.b.ins().splat(I32X4, c)
    } else {
        c
    }
}

/// The bits of float result `r`, any NaN made canonical.
fn canonicalize(e: &mut Emitter, r: Value) -> Value {
    let nan = e.b.ins().fcmp(FloatCC::Unordered, r, r);
    let bits = to_bits(e, r);
    let c = canonical_nan(e, bits);
    choose(e, nan, c, bits)
}

/// f32 min/max on bits: NaN-ignoring, `-0.0 < +0.0`, both NaN →
/// canonical NaN.
pub fn fminmax(e: &mut Emitter, a: Value, b: Value, max: bool) -> Value {
    let (fa, fb) = (to_float(e, a), to_float(e, b));
    let r = if max {
        e.b.ins().fmax(fa, fb)
    } else {
        e.b.ins().fmin(fa, fb)
    };
    let r = to_bits(e, r);
    let na = e.b.ins().fcmp(FloatCC::Unordered, fa, fa);
    let nb = e.b.ins().fcmp(FloatCC::Unordered, fb, fb);
    let r = choose(e, na, b, r);
    let r = choose(e, nb, a, r);
    let both = e.b.ins().band(na, nb);
    let c = canonical_nan(e, r);
    choose(e, both, c, r)
}

/// `op.f32 a, b` on bits.
fn float_bin(e: &mut Emitter, op: BinOp, a: Value, b: Value) -> Value {
    match op {
        BinOp::Min => fminmax(e, a, b, false),
        BinOp::Max => fminmax(e, a, b, true),
        BinOp::Add
        | BinOp::Sub
        | BinOp::Mul
        | BinOp::MulHi
        | BinOp::And
        | BinOp::Or
        | BinOp::Xor
        | BinOp::Shl
        | BinOp::Shr => {
            let r = float_arith(e, op, a, b);
            canonicalize(e, r)
        }
    }
}

/// The float result of `add`, `sub` or `mul` `.f32` on bits, its NaN not
/// made canonical yet.
fn float_arith(e: &mut Emitter, op: BinOp, a: Value, b: Value) -> Value {
    let (fa, fb) = (to_float(e, a), to_float(e, b));
    match op {
        BinOp::Add => e.b.ins().fadd(fa, fb),
        BinOp::Sub => e.b.ins().fsub(fa, fb),
        BinOp::Mul => e.b.ins().fmul(fa, fb),
        BinOp::Min
        | BinOp::Max
        | BinOp::MulHi
        | BinOp::And
        | BinOp::Or
        | BinOp::Xor
        | BinOp::Shl
        | BinOp::Shr => unreachable!("no {op:?}.f32 arithmetic"),
    }
}

/// `neg.f32` / `abs.f32` on bits.
fn float_un(e: &mut Emitter, op: UnOp, a: Value) -> Value {
    let r = float_sign(e, op, a);
    canonicalize(e, r)
}

/// The float result of `neg.f32` / `abs.f32` on bits, its NaN not made
/// canonical yet.
fn float_sign(e: &mut Emitter, op: UnOp, a: Value) -> Value {
    let f = to_float(e, a);
    match op {
        UnOp::Neg => e.b.ins().fneg(f),
        UnOp::Abs => e.b.ins().fabs(f),
        UnOp::Not | UnOp::Popc | UnOp::Cnot => unreachable!("{op:?} is not an f32 op"),
    }
}

/// The bits of f32x4 results, any NaN made canonical. A NaN is rare, and
/// the compare and blend that canonicalise it sat on the critical path of
/// every float operation (bfly.ptx's chain of five `add.f32` ran in 37 ns
/// with them, 21 ns without): here one compare per vector and a branch
/// the CPU predicts, to a cold block that blends only when some lane is
/// NaN (and compares again there, so that the masks are not kept live).
fn canonicalize_vecs(e: &mut Emitter, rs: &[Value]) -> Vec<Value> {
    let mut any: Vec<Value> = rs
        .iter()
        .map(|&r| e.b.ins().fcmp(FloatCC::Unordered, r, r))
        .collect();
    while any.len() > 1 {
        any = any
            .chunks(2)
            .map(|p| match *p {
                [x, y] => e.b.ins().bor(x, y),
                _ => p[0],
            })
            .collect();
    }
    let bits: Vec<Value> = rs.iter().map(|&r| to_bits(e, r)).collect();
    let Some(&any) = any.first() else {
        return bits;
    };
    let any = e.b.ins().vany_true(any);
    e.unless_rare(any, &bits, |e, bits| {
        bits.iter()
            .map(|&v| {
                let f = to_float(e, v);
                canonicalize(e, f)
            })
            .collect()
    })
}

/// Of an f32 operation that canonicalises its NaN (`add`, `sub`, `mul`,
/// `neg`, `abs`): its destination and, per four lanes that may execute
/// (`Emitter::runs_none` tells the others), the f32x4 result, its NaN not
/// made canonical yet. `None` for other instructions.
fn float_vecs(e: &mut Emitter, x: &Glue, l: &mut Lanes) -> Option<(Dest, Vec<(usize, Value)>)> {
    let runs = |e: &mut Emitter, l: &mut Lanes| -> Vec<usize> {
        (0..WARP / 4).filter(|&k| !e.runs_none(l, k)).collect()
    };
    match *x {
        Glue::Bin {
            op: op @ (BinOp::Add | BinOp::Sub | BinOp::Mul),
            ty: Type::F32,
            d,
            a,
            b,
        } => Some((
            d,
            runs(e, l)
                .into_iter()
                .map(|k| {
                    let (av, bv) = (e.read_vec(a, k), e.read_vec(b, k));
                    (k, float_arith(e, op, av, bv))
                })
                .collect(),
        )),
        Glue::Un {
            op: op @ (UnOp::Neg | UnOp::Abs),
            d,
            a,
            ..
        } => Some((
            d,
            runs(e, l)
                .into_iter()
                .map(|k| {
                    let av = e.read_vec(a, k);
                    (k, float_sign(e, op, av))
                })
                .collect(),
        )),
        Glue::Bin { .. }
        | Glue::Un { .. }
        | Glue::Mov { .. }
        | Glue::Setp { .. }
        | Glue::Selp { .. } => None,
    }
}

fn int_cc(cmp: CmpOp, signed: bool) -> IntCC {
    match (cmp, signed) {
        (CmpOp::Eq, _) => IntCC::Equal,
        (CmpOp::Ne, _) => IntCC::NotEqual,
        (CmpOp::Lt, true) => IntCC::SignedLessThan,
        (CmpOp::Le, true) => IntCC::SignedLessThanOrEqual,
        (CmpOp::Gt, true) => IntCC::SignedGreaterThan,
        (CmpOp::Ge, true) => IntCC::SignedGreaterThanOrEqual,
        (CmpOp::Lt, false) => IntCC::UnsignedLessThan,
        (CmpOp::Le, false) => IntCC::UnsignedLessThanOrEqual,
        (CmpOp::Gt, false) => IntCC::UnsignedGreaterThan,
        (CmpOp::Ge, false) => IntCC::UnsignedGreaterThanOrEqual,
    }
}

/// A vector comparison's all-ones/zero lanes: where it holds, or where it
/// does not (`complement`).
struct Cmp {
    vec: Value,
    complement: bool,
}

impl From<Value> for Cmp {
    fn from(vec: Value) -> Cmp {
        Cmp {
            vec,
            complement: false,
        }
    }
}

/// `a cc b` on i32x4 lanes. x86 (SSE4.1) has `pcmpeqd`, `pcmpgtd` and
/// `pminud`/`pmaxud`: equality, the signed orders and the unsigned `<=`
/// and `>=` take one or two operations, but `!=`, unsigned `<` and `>`
/// take two more (the complement, then a `pxor` with a materialised
/// all-ones vector). Those three are compared as their complement, which
/// the caller folds into the mask it applies anyway (`pandn`).
fn icmp_vec(e: &mut Emitter, cc: IntCC, a: Value, b: Value) -> Cmp {
    let complement = matches!(
        cc,
        IntCC::NotEqual | IntCC::UnsignedLessThan | IntCC::UnsignedGreaterThan
    );
    let cc = if complement { cc.complement() } else { cc };
    Cmp {
        vec: e.b.ins().icmp(cc, a, b),
        complement,
    }
}

fn bool_vec(e: &mut Emitter, op: BoolOp, x: Value, c: Value) -> Value {
    match op {
        BoolOp::And => e.b.ins().band(x, c),
        BoolOp::Or => e.b.ins().bor(x, c),
        BoolOp::Xor => e.b.ins().bxor(x, c),
    }
}

fn vector(e: &mut Emitter, x: &Glue, l: &mut Lanes) {
    if let Some((d, rs)) = float_vecs(e, x, l) {
        let vals: Vec<Value> = rs.iter().map(|&(_, v)| v).collect();
        for ((k, _), v) in rs.into_iter().zip(canonicalize_vecs(e, &vals)) {
            e.write_vec(d, k, l, v);
        }
        return;
    }
    for k in 0..WARP / 4 {
        match *x {
            Glue::Mov { d, a, .. } => {
                let v = e.read_vec(a, k);
                e.write_vec(d, k, l, v);
            }
            Glue::Bin { op, ty, d, a, b } => {
                let av = e.read_vec(a, k);
                let r = match (op, b) {
                    (BinOp::Shl | BinOp::Shr, Operand::Imm(n)) => shift_vec(e, op, ty, av, n),
                    (BinOp::Shl | BinOp::Shr, Operand::LaneId) => {
                        let n = std::array::from_fn(|i| (4 * k + i) as u32);
                        shift_known_vec(e, op == BinOp::Shl, is_signed(ty), a, av, n)
                    }
                    (BinOp::Shl | BinOp::Shr, _) => {
                        let bv = e.read_vec(b, k);
                        shift_lanes_vec(e, op == BinOp::Shl, is_signed(ty), av, bv)
                    }
                    (BinOp::MulHi, _) => {
                        let bv = e.read_vec(b, k);
                        mul_hi_vec(e, is_signed(ty), av, bv)
                    }
                    (
                        BinOp::Add
                        | BinOp::Sub
                        | BinOp::Mul
                        | BinOp::Min
                        | BinOp::Max
                        | BinOp::And
                        | BinOp::Or
                        | BinOp::Xor,
                        _,
                    ) => {
                        let bv = e.read_vec(b, k);
                        bin_vec(e, op, ty, av, bv)
                    }
                };
                e.write_vec(d, k, l, r);
            }
            Glue::Un { op, d, a, .. } => {
                let av = e.read_vec(a, k);
                let r = match op {
                    UnOp::Not => {
                        let mask = match d {
                            warp_core::ir::Dest::Reg(r) if e.reg_type(r) == Type::Pred => 1,
                            _ => -1,
                        };
                        let m = e.b.ins().iconst(I32, mask);
                        let m = e.b.ins().splat(I32X4, m);
                        e.b.ins().bxor(av, m)
                    }
                    UnOp::Neg | UnOp::Abs => float_un(e, op, av),
                    UnOp::Popc => popc_vec(e, av),
                    // `(a == 0) ? 1 : 0`: the all-ones lanes of the
                    // equality, masked to bit 0.
                    UnOp::Cnot => {
                        let zero = e.b.ins().iconst(I32, 0);
                        let z = e.b.ins().splat(I32X4, zero);
                        let m = e.b.ins().icmp(IntCC::Equal, av, z);
                        let one = e.b.ins().iconst(I32, 1);
                        let one = e.b.ins().splat(I32X4, one);
                        e.b.ins().band(m, one)
                    }
                };
                e.write_vec(d, k, l, r);
            }
            Glue::Setp {
                cmp,
                combine,
                ty,
                p,
                q,
                a,
                b,
            } => {
                let (av, bv) = (e.read_vec(a, k), e.read_vec(b, k));
                let t: Cmp = if ty == Type::F32 {
                    let (fa, fb) = (to_float(e, av), to_float(e, bv));
                    if cmp == CmpOp::Ne {
                        // x86 has no vector `one`: ordered and not equal.
                        let ord = e.b.ins().fcmp(FloatCC::Ordered, fa, fb);
                        let ne = e.b.ins().fcmp(FloatCC::NotEqual, fa, fb);
                        e.b.ins().band(ord, ne)
                    } else {
                        e.b.ins().fcmp(float_cc(cmp), fa, fb)
                    }
                    .into()
                } else {
                    icmp_vec(e, int_cc(cmp, is_signed(ty)), av, bv)
                };
                // The predicate (0/1) and its negation.
                let one = e.vconst_i32x4([1; 4]);
                let (yes, no) = (e.b.ins().band(t.vec, one), e.b.ins().band_not(one, t.vec));
                let (t, nt) = if t.complement { (no, yes) } else { (yes, no) };
                let (pv, qv) = match combine {
                    Some((op, c)) => {
                        let cv = e.read_vec(c, k);
                        let cv = e.b.ins().band(cv, one);
                        (bool_vec(e, op, t, cv), bool_vec(e, op, nt, cv))
                    }
                    None => (t, nt),
                };
                e.write_vec(p, k, l, pv);
                if let Some(q) = q {
                    e.write_vec(q, k, l, qv);
                }
            }
            Glue::Selp { d, a, b, c, .. } => {
                let (av, bv, cv) = (e.read_vec(a, k), e.read_vec(b, k), e.read_vec(c, k));
                // `c == 0` picks `b` (x86 compares for equality in one
                // operation, for inequality in three).
                let zero = e.b.ins().iconst(I32, 0);
                let z = e.b.ins().splat(I32X4, zero);
                let m = e.b.ins().icmp(IntCC::Equal, cv, z);
                let r = e.b.ins().bitselect(m, bv, av);
                e.write_vec(d, k, l, r);
            }
        }
    }
}

fn shift_vec(e: &mut Emitter, op: BinOp, ty: Type, a: Value, n: u64) -> Value {
    if n >= 32 {
        return match (op, is_signed(ty)) {
            (BinOp::Shr, true) => e.b.ins().sshr_imm_s(a, 31),
            _ => {
                let z = e.b.ins().iconst(I32, 0);
                e.b.ins().splat(I32X4, z)
            }
        };
    }
    match (op, is_signed(ty)) {
        (BinOp::Shl, _) => e.b.ins().ishl_imm_s(a, n as i64),
        (_, true) => e.b.ins().sshr_imm_s(a, n as i64),
        (_, false) => e.b.ins().ushr_imm_s(a, n as i64),
    }
}

/// `a << n` (`left`) or `a >> n` on four lanes whose amounts `n` differ
/// (i32x4 of `.u32`), with PTX's rule that amounts "greater than the
/// register width N are clamped to N": 0, or the sign in every bit for
/// `shr.s32`. SSE has no per-lane shift (AVX2's `vpsllvd` is not one that
/// Cranelift emits), so a left shift is a multiply by 2^n and a logical
/// right shift the high half of a 64-bit product with 2^(32-n); an
/// arithmetic one shifts `a ^ sign` logically and flips it back.
fn shift_lanes_vec(e: &mut Emitter, left: bool, signed: bool, a: Value, n: Value) -> Value {
    let width = e.vconst_i32x4([32; 4]);
    let n = e.b.ins().umin(n, width);
    if left {
        let p = pow2_vec(e, n);
        return shift_by_powers(e, true, signed, a, p, None);
    }
    // 2^(32 - n) is 2^32 (0 here) at n = 0, where the result is a itself.
    let up = e.b.ins().isub(width, n);
    let p = pow2_vec(e, up);
    let zero = e.vconst_i32x4([0; 4]);
    let none = e.b.ins().icmp(IntCC::Equal, n, zero);
    shift_by_powers(e, false, signed, a, p, Some(none))
}

/// The shift of `a` given its powers of two: `a * p` (`left`, p = 2^n),
/// or the high half of `a * p` (p = 2^(32-n)) and `a` itself on the lanes
/// of `none` (n = 0); `shr.s32` shifts `a ^ sign` and flips it back.
fn shift_by_powers(
    e: &mut Emitter,
    left: bool,
    signed: bool,
    a: Value,
    p: Value,
    none: Option<Value>,
) -> Value {
    if left {
        return e.b.ins().imul(a, p);
    }
    let sign = signed.then(|| e.b.ins().sshr_imm_s(a, 31));
    let x = match sign {
        Some(s) => e.b.ins().bxor(a, s),
        None => a,
    };
    let hi = mulhi_vec(e, x, p);
    let r = match none {
        Some(m) => e.b.ins().bitselect(m, x, hi),
        None => hi,
    };
    match sign {
        Some(s) => e.b.ins().bxor(r, s),
        None => r,
    }
}

/// [`shift_lanes_vec`] with amounts `n` (each below 32) known when the
/// code is made (`%laneid`): the powers of two are constants, and so is
/// the result when `a` is an immediate (`shl.b32 bit, 1, %laneid`).
fn shift_known_vec(
    e: &mut Emitter,
    left: bool,
    signed: bool,
    a: Operand,
    av: Value,
    n: [u32; 4],
) -> Value {
    if let Operand::Imm(x) = a {
        let x = x as u32;
        return e.vconst_i32x4(n.map(|n| match (left, signed) {
            (true, _) => x << n,
            (false, true) => ((x as i32) >> n) as u32,
            (false, false) => x >> n,
        }));
    }
    if left {
        let p = e.vconst_i32x4(n.map(|n| 1 << n));
        return shift_by_powers(e, true, signed, av, p, None);
    }
    // 2^(32 - n), with 0 where n = 0 (the lane keeps a).
    let p = e.vconst_i32x4(n.map(|n| if n == 0 { 0 } else { 1 << (32 - n) }));
    let none = n
        .contains(&0)
        .then(|| e.vconst_i32x4(n.map(|n| if n == 0 { u32::MAX } else { 0 })));
    shift_by_powers(e, false, signed, av, p, none)
}

/// 2^n in each 32-bit lane for amounts `n` in 0..=32 (2^32 wraps to 0), by
/// bytes: byte j of a lane is `1 << (n - 8j)` where `n - 8j` is in 0..8,
/// else 0 — one byte table lookup (`pshufb`) on `min(n - 8j, 8)`, with
/// `n - 8j` wrapping to 0xe8.. (at least 8) where it is negative.
fn pow2_vec(e: &mut Emitter, n: Value) -> Value {
    let bytes = e.as_bytes(n);
    // Each lane's low byte (n <= 32) in all four of its bytes.
    let spread = e.shuffle_bytes(
        bytes,
        bytes,
        [0, 0, 0, 0, 4, 4, 4, 4, 8, 8, 8, 8, 12, 12, 12, 12],
    );
    let offsets = e.vconst_bytes([0, 8, 16, 24, 0, 8, 16, 24, 0, 8, 16, 24, 0, 8, 16, 24]);
    let d = e.b.ins().isub(spread, offsets);
    let eight = e.vconst_bytes([8; 16]);
    let d = e.b.ins().umin(d, eight);
    let table = e.vconst_bytes([1, 2, 4, 8, 16, 32, 64, 128, 0, 0, 0, 0, 0, 0, 0, 0]);
    let p = e.b.ins().swizzle(table, d);
    e.as_words(p)
}

/// The high 32 bits of the unsigned 64-bit products of the lanes of `a`
/// and `b` (i32x4): two `pmuludq` of lane pairs, then the high words.
fn mulhi_vec(e: &mut Emitter, a: Value, b: Value) -> Value {
    let (al, bl) = (e.b.ins().uwiden_low(a), e.b.ins().uwiden_low(b));
    let lo = e.b.ins().imul(al, bl);
    let (ah, bh) = (e.b.ins().uwiden_high(a), e.b.ins().uwiden_high(b));
    let hi = e.b.ins().imul(ah, bh);
    let (lo, hi) = (e.as_bytes(lo), e.as_bytes(hi));
    let words = e.shuffle_bytes(
        lo,
        hi,
        [4, 5, 6, 7, 12, 13, 14, 15, 20, 21, 22, 23, 28, 29, 30, 31],
    );
    e.as_words(words)
}

/// `mul.hi` on four lanes: the high half of the unsigned product, less
/// `b` where `a` is negative and `a` where `b` is (mod 2^32) for `.s32`
/// (a negative `a` reads as `a + 2^32` unsigned).
fn mul_hi_vec(e: &mut Emitter, signed: bool, a: Value, b: Value) -> Value {
    let hi = mulhi_vec(e, a, b);
    if !signed {
        return hi;
    }
    let a_neg = e.b.ins().sshr_imm_s(a, 31);
    let b_neg = e.b.ins().sshr_imm_s(b, 31);
    let fix_a = e.b.ins().band(a_neg, b);
    let fix_b = e.b.ins().band(b_neg, a);
    let hi = e.b.ins().isub(hi, fix_a);
    e.b.ins().isub(hi, fix_b)
}

fn bin_vec(e: &mut Emitter, op: BinOp, ty: Type, a: Value, b: Value) -> Value {
    if ty == Type::F32 {
        return float_bin(e, op, a, b);
    }
    int_bin(e, op, is_signed(ty), a, b).unwrap_or_else(|| unreachable!("{op:?} runs per lane"))
}

/// The integer operations Cranelift has alike for scalars and `i32x4`.
fn int_bin(e: &mut Emitter, op: BinOp, signed: bool, a: Value, b: Value) -> Option<Value> {
    Some(match op {
        BinOp::Add => e.b.ins().iadd(a, b),
        BinOp::Sub => e.b.ins().isub(a, b),
        BinOp::Mul => e.b.ins().imul(a, b),
        BinOp::Min if signed => e.b.ins().smin(a, b),
        BinOp::Min => e.b.ins().umin(a, b),
        BinOp::Max if signed => e.b.ins().smax(a, b),
        BinOp::Max => e.b.ins().umax(a, b),
        BinOp::And => e.b.ins().band(a, b),
        BinOp::Or => e.b.ins().bor(a, b),
        BinOp::Xor => e.b.ins().bxor(a, b),
        BinOp::Shl | BinOp::Shr | BinOp::MulHi => return None,
    })
}

// ---- scalars ----

fn bin_scalar(e: &mut Emitter, op: BinOp, ty: Type, a: Value, b: Value) -> Value {
    if ty == Type::F32 {
        return float_bin(e, op, a, b);
    }
    let s = is_signed(ty);
    let w = ty.bits() as i64;
    let wt = if w == 64 { I64 } else { I32 };
    match op {
        BinOp::MulHi if s => e.b.ins().smulhi(a, b),
        BinOp::MulHi => e.b.ins().umulhi(a, b),
        BinOp::Add
        | BinOp::Sub
        | BinOp::Mul
        | BinOp::Min
        | BinOp::Max
        | BinOp::And
        | BinOp::Or
        | BinOp::Xor => int_bin(e, op, s, a, b).expect("a common integer op"),
        BinOp::Shl | BinOp::Shr => {
            // `b` is a u32 amount, clamped to the width.
            let n = if w == 64 {
                e.b.ins().uextend(I64, b)
            } else {
                b
            };
            let big =
                e.b.ins()
                    .icmp_imm_s(IntCC::UnsignedGreaterThanOrEqual, n, w);
            if op == BinOp::Shr && s {
                let lim = e.b.ins().iconst(wt, w - 1);
                let n = e.b.ins().umin(n, lim);
                e.b.ins().sshr(a, n)
            } else {
                let r = if op == BinOp::Shl {
                    e.b.ins().ishl(a, n)
                } else {
                    e.b.ins().ushr(a, n)
                };
                let z = e.b.ins().iconst(wt, 0);
                e.b.ins().select(big, z, r)
            }
        }
    }
}

fn scalar(e: &mut Emitter, x: &Glue, at: At, exec: Value) {
    {
        match *x {
            Glue::Mov { ty, d, a } => {
                let v = e.read_at(a, at, ty.bits());
                e.write_at(d, at, exec, v);
            }
            Glue::Bin { op, ty, d, a, b } => {
                let av = e.read_at(a, at, ty.bits());
                let bw = op.b_type(ty).bits();
                let bv = e.read_at(b, at, bw);
                let r = bin_scalar(e, op, ty, av, bv);
                e.write_at(d, at, exec, r);
            }
            Glue::Un { op, ty, d, a } => {
                let av = e.read_at(a, at, ty.bits());
                let r = match op {
                    UnOp::Not if ty == Type::Pred => e.b.ins().bxor_imm_s(av, 1),
                    UnOp::Not => e.b.ins().bnot(av),
                    UnOp::Neg | UnOp::Abs => float_un(e, op, av),
                    UnOp::Cnot => {
                        let z = e.b.ins().icmp_imm_u(IntCC::Equal, av, 0);
                        e.b.ins()
                            .uextend(if ty.bits() == 64 { I64 } else { I32 }, z)
                    }
                    UnOp::Popc => {
                        let c = e.b.ins().popcnt(av);
                        if ty.bits() == 64 {
                            e.b.ins().ireduce(I32, c)
                        } else {
                            c
                        }
                    }
                };
                e.write_at(d, at, exec, r);
            }
            Glue::Setp {
                cmp,
                combine,
                ty,
                p,
                q,
                a,
                b,
            } => {
                let (av, bv) = (e.read_at(a, at, ty.bits()), e.read_at(b, at, ty.bits()));
                let t = if ty == Type::F32 {
                    let (fa, fb) = (to_float(e, av), to_float(e, bv));
                    e.b.ins().fcmp(float_cc(cmp), fa, fb)
                } else {
                    e.b.ins().icmp(int_cc(cmp, is_signed(ty)), av, bv)
                };
                let t = e.b.ins().uextend(I32, t);
                let nt = e.b.ins().bxor_imm_s(t, 1);
                let (pv, qv) = match combine {
                    Some((op, c)) => {
                        let cv = e.read_at(c, at, 32);
                        let cv = e.b.ins().band_imm_s(cv, 1);
                        (bool_vec(e, op, t, cv), bool_vec(e, op, nt, cv))
                    }
                    None => (t, nt),
                };
                e.write_at(p, at, exec, pv);
                if let Some(q) = q {
                    e.write_at(q, at, exec, qv);
                }
            }
            Glue::Selp { ty, d, a, b, c } => {
                let (av, bv) = (e.read_at(a, at, ty.bits()), e.read_at(b, at, ty.bits()));
                let cv = e.read_at(c, at, 32);
                let r = e.b.ins().select(cv, av, bv);
                e.write_at(d, at, exec, r);
            }
        }
    }
}
