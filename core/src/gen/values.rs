//! Values: the interesting constants of each type, the per-lane patterns of
//! `.lanes` inputs, and the `b`/`c` operands of `shfl` (lane offsets at and
//! beyond 32, full-warp and sub-warp clamp/segment masks).

use crate::ir::{Type, WARP};
use arbitrary::{Result, Unstructured};

/// f32 bit patterns that tell implementations apart: signed zeros, the NaNs
/// (quiet, canonical `0x7fffffff`, negative), infinities, subnormals, the
/// extremes, and a few ordinary numbers.
pub(crate) const F32_SPECIAL: &[u32] = &[
    0x0000_0000, // +0.0
    0x8000_0000, // -0.0
    0x7fc0_0000, // quiet NaN
    0x7fff_ffff, // canonical NaN
    0xffc0_0000, // negative quiet NaN
    0x7f80_0001, // signalling NaN
    0x7f80_0000, // +inf
    0xff80_0000, // -inf
    0x0000_0001, // smallest subnormal
    0x807f_ffff, // largest negative subnormal
    0x0080_0000, // smallest normal
    0x7f7f_ffff, // largest finite
    0xff7f_ffff, // most negative finite
    0x3f80_0000, // 1.0
    0xbf80_0000, // -1.0
    0x3f00_0000, // 0.5
    0x4000_0000, // 2.0
    0x4b80_0000, // 2^24
    0x3eaa_aaab, // 1/3
    0x3fc0_0000, // 1.5: rounds to 2 (nearest even), 1 toward zero
    0x4020_0000, // 2.5: rounds to 2 (nearest even)
    0xbfc0_0000, // -1.5
    0x4f00_0000, // 2^31: one past the largest .s32
    0xcf00_0000, // -2^31: the smallest .s32
    0x4f80_0000, // 2^32: one past the largest .u32
    0x437f_8000, // 255.5: around the .u8 bound
    0x4700_0000, // 32768: one past the largest .s16
    0x5f00_0000, // 2^63
    0x5f80_0000, // 2^64
];

/// f64 bit patterns: those of [`F32_SPECIAL`]'s kinds, the bounds of the
/// integer conversions and values that round differently to f32 under
/// each rounding.
pub(crate) const F64_SPECIAL: &[u64] = &[
    0x0000_0000_0000_0000, // +0.0
    0x8000_0000_0000_0000, // -0.0
    0x7ff8_0000_0000_0000, // quiet NaN
    0xfff8_0000_0000_0000, // negative quiet NaN
    0x7ff0_0000_0000_0001, // signalling NaN
    0x7ff0_0000_0000_0000, // +inf
    0xfff0_0000_0000_0000, // -inf
    0x0000_0000_0000_0001, // smallest subnormal
    0x800f_ffff_ffff_ffff, // largest negative subnormal
    0x0010_0000_0000_0000, // smallest normal
    0x7fef_ffff_ffff_ffff, // largest finite
    0x3ff0_0000_0000_0000, // 1.0
    0xbff0_0000_0000_0000, // -1.0
    0x3fe0_0000_0000_0000, // 0.5
    0x3ff8_0000_0000_0000, // 1.5
    0x4004_0000_0000_0000, // 2.5
    0xbff8_0000_0000_0000, // -1.5
    0x3fd5_5555_5555_5555, // 1/3
    0x3ff0_0000_1000_0000, // 1 + 2^-24: halfway between two f32s
    0x3ff0_0000_1000_0001, // just above it
    0x47ef_ffff_f000_0000, // halfway between f32's largest finite and 2^128
    0x47f0_0000_0000_0000, // 2^128: past f32's range
    0x3690_0000_0000_0000, // 2^-150: half f32's smallest subnormal
    0x3810_0000_0000_0000, // 2^-126: f32's smallest normal
    0x41df_ffff_ffc0_0000, // 2^31 - 1
    0x41e0_0000_0000_0000, // 2^31
    0xc1e0_0000_0000_0000, // -2^31
    0x41f0_0000_0000_0000, // 2^32
    0x43e0_0000_0000_0000, // 2^63
    0xc3e0_0000_0000_0000, // -2^63
    0x43f0_0000_0000_0000, // 2^64
    0x406f_f000_0000_0000, // 255.5
    0x40df_ffc0_0000_0000, // 32767.5
];

/// 16-bit integers at the edges: the `.s8`/`.u8` and `.s16`/`.u16`
/// bounds and their neighbours.
pub(crate) const INT16_SPECIAL: &[u16] = &[
    0, 1, 2, 0x7f, 0x80, 0xff, 0x100, 0x7fff, 0x8000, 0x8001, 0xff80, 0xff7f, 0xffff, 0xfffe,
    0x5555, 0xaaaa,
];

/// 32-bit integers at the edges: zero, one, all ones, INT_MIN/INT_MAX, lane
/// counts around 32, alternating bits, half masks.
pub(crate) const INT32_SPECIAL: &[u32] = &[
    0,
    1,
    2,
    3,
    7,
    0x1f,
    32,
    33,
    0x3f,
    0xff,
    0x7fff_ffff,
    0x8000_0000,
    0x8000_0001,
    0xffff_ffff,
    0xffff_fffe,
    0x5555_5555,
    0xaaaa_aaaa,
    0x0000_ffff,
    0xffff_0000,
    0x80,
    0x7fff,
    0x8000,
    0x1_0000,
    0xffff_ff80,
    0xffff_ff7f,
    0xffff_8000,
    0xffff_7fff,
];

/// 64-bit integers at the edges.
pub(crate) const INT64_SPECIAL: &[u64] = &[
    0,
    1,
    0x1f,
    0x3f,
    64,
    0xffff_ffff,
    0x1_0000_0000,
    0x8000_0000,
    0x7fff_ffff_ffff_ffff,
    0x8000_0000_0000_0000,
    0xffff_ffff_ffff_ffff,
    0xffff_ffff_8000_0000,
    0x5555_5555_5555_5555,
    0x7fff_ffff,
    0xffff_ffff_7fff_ffff,
    0x8000,
    0xffff_ffff_ffff_8000,
];

/// One interesting value of type `ty`: a special constant, a small number,
/// or random bits.
pub(crate) fn value(u: &mut Unstructured, ty: Type) -> Result<u64> {
    Ok(match ty {
        Type::Pred => u.int_in_range(0..=1)?,
        Type::F32 => match u.int_in_range(0..=9)? {
            0..=4 => *u.choose(F32_SPECIAL)? as u64,
            5..=6 => (u.int_in_range(-8i32..=40)? as f32).to_bits() as u64,
            _ => u.arbitrary::<u32>()? as u64,
        },
        Type::B32 | Type::U32 | Type::S32 => match u.int_in_range(0..=9)? {
            0..=3 => *u.choose(INT32_SPECIAL)? as u64,
            4..=6 => u.int_in_range(-4i32..=40)? as u32 as u64,
            _ => u.arbitrary::<u32>()? as u64,
        },
        Type::B64 | Type::U64 | Type::S64 => match u.int_in_range(0..=9)? {
            0..=3 => *u.choose(INT64_SPECIAL)?,
            4..=5 => u.int_in_range(-4i64..=40)? as u64,
            6 => u.arbitrary::<u32>()? as u64,
            _ => u.arbitrary::<u64>()?,
        },
        Type::F64 => match u.int_in_range(0..=9)? {
            0..=4 => *u.choose(F64_SPECIAL)?,
            5..=6 => (u.int_in_range(-8i32..=40)? as f64 / 2.0).to_bits(),
            7 => (f32::from_bits(*u.choose(F32_SPECIAL)?) as f64).to_bits(),
            _ => u.arbitrary::<u64>()?,
        },
        Type::B16 | Type::U16 | Type::S16 => match u.int_in_range(0..=9)? {
            0..=3 => *u.choose(INT16_SPECIAL)? as u64,
            4..=6 => u.int_in_range(-4i32..=40)? as u16 as u64,
            _ => u.arbitrary::<u16>()? as u64,
        },
        Type::B8 | Type::U8 | Type::S8 => u.arbitrary::<u8>()? as u64,
    })
}

/// Per-lane initial values for a register of type `ty`: broadcast, lane
/// index patterns, a few distinct values (so that `match` groups lanes), a
/// special sprinkled over a base, or a different value on every lane.
pub(crate) fn lanes(u: &mut Unstructured, ty: Type) -> Result<[u64; WARP]> {
    let mask = ty.mask();
    let mut v = [0u64; WARP];
    if ty == Type::Pred {
        let k = u.int_in_range(1..=31)?;
        let bits: u32 = match u.int_in_range(0..=6)? {
            0 => 0,
            1 => u32::MAX,
            2 => 0x5555_5555,
            3 => (1u32 << k) - 1,
            4 => 0x4924_9249, // every third lane
            _ => u.arbitrary()?,
        };
        for (l, x) in v.iter_mut().enumerate() {
            *x = (bits >> l & 1) as u64;
        }
        return Ok(v);
    }
    let float = ty.is_float();
    // `x` as a number of the register's kind.
    let num = |x: f32| match ty {
        Type::F64 => (x as f64).to_bits(),
        _ => x.to_bits() as u64,
    };
    match u.int_in_range(0..=7)? {
        0 => v = [value(u, ty)?; WARP],
        1 => {
            // Lane index, as a number of the register's kind.
            for (l, x) in v.iter_mut().enumerate() {
                *x = if float { num(l as f32) } else { l as u64 };
            }
        }
        2 => {
            // An affine pattern k*lane + c (wrapping), or its float.
            let k = u.int_in_range(-3i64..=37)?;
            let c = value(u, Type::S64)?;
            for (l, x) in v.iter_mut().enumerate() {
                let n = (l as i64).wrapping_mul(k).wrapping_add(c as i64);
                *x = if float {
                    num((n as i32) as f32 / 4.0)
                } else {
                    n as u64 & mask
                };
            }
        }
        3 => {
            // A few distinct values, so that lanes match in groups.
            let n = u.int_in_range(1..=4)?;
            let mut pool = Vec::with_capacity(n);
            for _ in 0..n {
                pool.push(value(u, ty)?);
            }
            for x in v.iter_mut() {
                *x = *u.choose(&pool)?;
            }
        }
        4 => {
            // A base with a few special values sprinkled in.
            v = [value(u, ty)?; WARP];
            for _ in 0..u.int_in_range(1..=4)? {
                let l = u.int_in_range(0..=WARP - 1)?;
                v[l] = value(u, ty)?;
            }
        }
        5 if float => {
            // Signed zeros among non-positive values: where max/min must
            // order -0.0 below +0.0 (and NaNs are skipped or propagate).
            const POOL: [f32; 6] = [0.0, -0.0, -0.0, -1.0, f32::NEG_INFINITY, f32::NAN];
            for x in v.iter_mut() {
                let f = *u.choose(&POOL)?;
                // The negative quiet NaN `0xffc00000` (and its f64).
                *x = if f.is_nan() { num(-f32::NAN) } else { num(f) };
            }
        }
        5 if !float && ty.bits() == 32 => {
            for (l, x) in v.iter_mut().enumerate() {
                *x = 1 << l;
            }
        }
        _ => {
            for x in v.iter_mut() {
                *x = value(u, ty)?;
            }
        }
    }
    Ok(v.map(|x| x & mask))
}

/// A partition of the warp into disjoint groups, as each lane's group mask
/// (every lane's mask holds itself and exactly the lanes of its group):
/// aligned segments, odd/even lanes, strides, or random colours.
pub(crate) fn groups(u: &mut Unstructured) -> Result<[u64; WARP]> {
    let colour: Box<dyn Fn(usize) -> usize> = match u.int_in_range(0..=3)? {
        0 => {
            let w = 1usize << u.int_in_range(0..=5)?;
            Box::new(move |l| l / w)
        }
        1 => {
            let k = 1usize << u.int_in_range(1..=3)?;
            Box::new(move |l| l % k)
        }
        2 => {
            let k = u.int_in_range(2..=8)?;
            Box::new(move |l| l % k)
        }
        _ => {
            let k = u.int_in_range(2..=5)?;
            let mut c = [0usize; WARP];
            for x in c.iter_mut() {
                *x = u.int_in_range(0..=k - 1)?;
            }
            Box::new(move |l| c[l])
        }
    };
    let mut v = [0u64; WARP];
    for (l, x) in v.iter_mut().enumerate() {
        *x = (0..WARP)
            .filter(|&m| colour(m) == colour(l))
            .fold(0u64, |acc, m| acc | 1 << m);
    }
    Ok(v)
}

/// What a `shfl` `b` immediate is, for the feature counters.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum BKind {
    /// A lane or offset in `0..32`.
    InRange,
    /// `b >= 32`: only `b[4:0]` counts.
    Large,
}

/// A `shfl` `b` immediate: mostly a lane or offset below 32 (powers of two
/// weighted), sometimes 32 or more.
pub(crate) fn shfl_b(u: &mut Unstructured) -> Result<(u64, BKind)> {
    Ok(match u.int_in_range(0..=9)? {
        0..=3 => (1 << u.int_in_range(0..=4)?, BKind::InRange),
        4..=7 => (u.int_in_range(0..=31)?, BKind::InRange),
        _ => (
            *u.choose(&[32u64, 33, 0x3f, 0x100, 0x7fff_ffff, 0xffff_ffff])?,
            BKind::Large,
        ),
    })
}

/// What a `shfl` `c` immediate is, for the feature counters.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum CKind {
    /// `0x1f`: the whole warp, clamp at lane 31.
    Full,
    /// `0x0`: clamp at lane 0 (the `.up` scan idiom).
    Zero,
    /// A sub-warp of width `W`: `segmask = ~(W-1)` in `c[12:8]`.
    Segment,
    /// Anything else (random clamp and segment bits, high bits set).
    Random,
}

/// A `shfl` `c` immediate: full warp, zero, a sub-warp width `W` in
/// `{2, 4, 8, 16}` with `cval = W-1` (or 0, the `.up` idiom, or 0x1f), or
/// random bits.
pub(crate) fn shfl_c(u: &mut Unstructured) -> Result<(u64, CKind)> {
    Ok(match u.int_in_range(0..=9)? {
        0..=2 => (0x1f, CKind::Full),
        3 => (0, CKind::Zero),
        4..=7 => {
            let w: u64 = 1 << u.int_in_range(1..=4)?;
            let seg = !(w - 1) & 0x1f;
            let cval = *u.choose(&[w - 1, w - 1, 0, 0x1f])?;
            (seg << 8 | cval, CKind::Segment)
        }
        8 => (u.int_in_range(0..=0x1fff)?, CKind::Random),
        _ => (u.arbitrary::<u32>()? as u64, CKind::Random),
    })
}

/// A shift amount: 0, small, the width and beyond (clamped by PTX).
pub(crate) fn shift_amount(u: &mut Unstructured) -> Result<u64> {
    Ok(match u.int_in_range(0..=5)? {
        0..=2 => u.int_in_range(0..=31)?,
        3 => *u.choose(&[0u64, 1, 31, 32, 33, 63, 64, 65])?,
        4 => u.int_in_range(32..=70)?,
        _ => u.arbitrary::<u32>()? as u64,
    })
}
