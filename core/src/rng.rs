//! The project's one pseudo-random number generator, for everything that
//! must be reproducible from a seed: fuzzing streams, the reducer's pass
//! order, test inputs, benchmark programs.
//!
//! It wraps [`oorandom::Rand64`] (PCG-XSL-RR 128/64): a small crate with no
//! dependencies whose output for a given seed is fixed by the algorithm and
//! does not change between its versions, so a seed printed in a corpus
//! header reproduces the same case later. Cryptographic quality is not
//! needed; speed and reproducibility are.

/// A seeded generator. Different `(seed, stream)` pairs give independent,
/// different sequences ([`Rng::stream`]).
#[derive(Clone, Debug)]
pub struct Rng(oorandom::Rand64);

impl Rng {
    /// The generator for `seed` (any value, 0 included).
    pub fn new(seed: u64) -> Rng {
        Rng::stream(seed, 0)
    }

    /// The generator for `seed` and a stream number (a fuzzing job, a
    /// thread): every pair gives its own sequence.
    pub fn stream(seed: u64, stream: u64) -> Rng {
        Rng(oorandom::Rand64::new(
            (u128::from(stream) << 64) | u128::from(seed),
        ))
    }

    /// The next 64 random bits.
    pub fn next_u64(&mut self) -> u64 {
        self.0.rand_u64()
    }

    /// A number in `0..n` (`n > 0`).
    pub fn below(&mut self, n: u64) -> u64 {
        assert!(n > 0, "Rng::below(0)");
        self.0.rand_range(0..n)
    }

    /// An index in `0..n` (`n > 0`).
    pub fn index(&mut self, n: usize) -> usize {
        self.below(n as u64) as usize
    }

    /// `n` random bytes.
    pub fn bytes(&mut self, n: usize) -> Vec<u8> {
        (0..n).map(|_| (self.next_u64() >> 56) as u8).collect()
    }

    /// Shuffles `v` in place (Fisher–Yates).
    pub fn shuffle<T>(&mut self, v: &mut [T]) {
        for i in (1..v.len()).rev() {
            let j = self.index(i + 1);
            v.swap(i, j);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::Rng;

    #[test]
    fn streams_differ_and_repeat() {
        let take = |mut r: Rng| (0..4).map(|_| r.next_u64()).collect::<Vec<_>>();
        assert_eq!(take(Rng::stream(2, 0)), take(Rng::stream(2, 0)));
        assert_ne!(take(Rng::stream(2, 0)), take(Rng::stream(3, 0)));
        assert_ne!(take(Rng::stream(2, 0)), take(Rng::stream(2, 1)));
        assert_ne!(take(Rng::stream(2, 1)), take(Rng::stream(3, 0)));
    }

    #[test]
    fn below_stays_in_range() {
        let mut r = Rng::new(9);
        assert!((0..1000).all(|_| r.below(7) < 7));
        let mut v: Vec<u32> = (0..50).collect();
        r.shuffle(&mut v);
        v.sort_unstable();
        assert_eq!(v, (0..50).collect::<Vec<_>>());
    }
}
