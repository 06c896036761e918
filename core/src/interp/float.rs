//! f32 bit-pattern helpers used by the f32 glue ops and f32 `redux`.

/// PTX's canonical NaN: every NaN produced by `add/sub/mul/neg/abs.f32` on
/// the H200 was `0x7fffffff` (`shared/hw/f32-glue-h200.txt`), and the
/// `redux.sync` page names canonical NaN as its NaN result.
pub(crate) const CANONICAL_NAN: u32 = 0x7fff_ffff;

/// Whether the bits are a NaN.
pub(crate) fn is_nan(x: u32) -> bool {
    x & 0x7fff_ffff > 0x7f80_0000
}

/// A key that orders non-NaN f32 bit patterns numerically, with
/// `-0.0 < +0.0` (so min picks `-0.0` and max `+0.0`).
pub(crate) fn order_key(x: u32) -> u32 {
    if x >> 31 == 1 {
        !x
    } else {
        x | 0x8000_0000
    }
}
