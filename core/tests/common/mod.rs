//! Helpers shared by the integration tests of `warp-core`.

/// A deterministic stream of `n` bytes per seed (the project's one RNG,
/// [`warp_core::rng`]).
pub fn bytes(seed: u64, n: usize) -> Vec<u8> {
    warp_core::rng::Rng::new(seed).bytes(n)
}
