//! Lane masks as sets: iterating over the lanes of a mask ([`lanes`]), and
//! the mask of the lanes where something holds ([`lanes_where`]).

/// Iterates over the lane indices set in `mask`.
pub(crate) fn lanes(mask: u32) -> Lanes {
    Lanes(mask)
}

/// The lane indices set in a mask, lowest first (the order every caller
/// relies on): [`lanes`]. It knows how many are left, so that collecting
/// per-lane results allocates once.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Lanes(u32);

impl Iterator for Lanes {
    type Item = usize;

    #[inline]
    fn next(&mut self) -> Option<usize> {
        if self.0 == 0 {
            return None;
        }
        let l = self.0.trailing_zeros() as usize;
        self.0 &= self.0 - 1;
        Some(l)
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        let n = self.0.count_ones() as usize;
        (n, Some(n))
    }
}

impl ExactSizeIterator for Lanes {}

/// The mask of the lanes of `mask` where `f` holds.
pub(crate) fn lanes_where(mask: u32, mut f: impl FnMut(usize) -> bool) -> u32 {
    lanes(mask).filter(|&l| f(l)).fold(0, |m, l| m | 1 << l)
}
