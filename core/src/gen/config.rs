//! The generator's knobs: a [`Config`] of documented ranges, weights and
//! ratios. It is itself [`Arbitrary`], so each fuzzing run can draw its own
//! mix of instructions and shapes (swarm testing, as wasm-smith does); the
//! derived values are drawn from sane ranges, and [`Config::sanitized`]
//! clamps a hand-written one the same way.

use crate::idioms::Idiom;
use arbitrary::{Arbitrary, Result, Unstructured};
use std::ops::RangeInclusive;

/// The most body instructions a case asks for (control structures open
/// when the budget runs out add the few that close them).
pub const MAX_INSTS: usize = 250;

/// A probability written `(numerator, denominator)`, as cranelift-fuzzgen
/// writes its ratios: `(1, 10)` is one case in ten; a numerator of 0 never.
pub type Ratio = (u16, u16);

/// How often each kind of row of the generator's table is picked, relative
/// to the others (0 disables a row; when all are 0, glue is generated).
#[derive(Clone, Debug, PartialEq, Eq, Arbitrary)]
pub struct Weights {
    /// Glue: `mov`, arithmetic, logic, shifts, `popc`, `setp`, `selp`.
    /// Default 40.
    #[arbitrary(with = weight)]
    pub glue: u32,
    /// `shfl.sync` (and the deprecated `shfl` in deprecated-form cases).
    /// Default 12.
    #[arbitrary(with = weight)]
    pub shfl: u32,
    /// `vote.sync` (and the deprecated `vote`). Default 8.
    #[arbitrary(with = weight)]
    pub vote: u32,
    /// `match.any.sync` / `match.all.sync`. Default 6.
    #[arbitrary(with = weight)]
    pub matching: u32,
    /// `redux.sync` (integer, and `.f32` in sm_100a cases). Default 8.
    #[arbitrary(with = weight)]
    pub redux: u32,
    /// `activemask` on its own. Default 3.
    #[arbitrary(with = weight)]
    pub activemask: u32,
    /// The rest of the dialect, each of its forms equally often: the lane
    /// ops (`cvt`, `mul.wide`, `mad`, `div`, `rem`, bit manipulation,
    /// `.f64` and rounded, `.ftz`, `.sat` float arithmetic, special
    /// registers, `mov` packing) and the glue on 16-bit types and `.f64`.
    /// Default 20.
    #[arbitrary(with = weight)]
    pub lane_ops: u32,
    /// A forward `@p bra` over a block (an `if`). Default 5.
    #[arbitrary(with = weight)]
    pub branch: u32,
    /// An if/else diamond. Default 3.
    #[arbitrary(with = weight)]
    pub if_else: u32,
    /// A loop with per-lane trip counts (backward `bra`). Default 3.
    #[arbitrary(with = weight)]
    pub loops: u32,
    /// `exit`, under a guard or at the end of a nested block. Default 2.
    #[arbitrary(with = weight)]
    pub exit: u32,
    /// A forward `@p bra` whose label lands later anywhere PTX allows and
    /// the generator can keep valid: into the arm of a later `if`, out of
    /// loops, past other blocks. Default 3.
    #[arbitrary(with = weight)]
    pub jump: u32,
}

impl Default for Weights {
    fn default() -> Self {
        Weights {
            glue: 40,
            shfl: 12,
            vote: 8,
            matching: 6,
            redux: 8,
            activemask: 3,
            lane_ops: 20,
            branch: 5,
            if_else: 3,
            loops: 3,
            exit: 2,
            jump: 3,
        }
    }
}

impl Weights {
    /// Every weight at most 1000 (so that sums cannot overflow).
    fn clamped(&self) -> Weights {
        let c = |w: u32| w.min(1000);
        Weights {
            glue: c(self.glue),
            shfl: c(self.shfl),
            vote: c(self.vote),
            matching: c(self.matching),
            redux: c(self.redux),
            activemask: c(self.activemask),
            lane_ops: c(self.lane_ops),
            branch: c(self.branch),
            if_else: c(self.if_else),
            loops: c(self.loops),
            exit: c(self.exit),
            jump: c(self.jump),
        }
    }
}

/// What to generate: sizes, nesting, the instruction mix and the ratios of
/// the special kinds of case.
#[derive(Clone, Debug, PartialEq, Eq, Arbitrary)]
pub struct Config {
    /// Instructions in the body (a control structure open when they run
    /// out adds the few that close it). Default `4..=48`; clamped to
    /// `0..=MAX_INSTS`.
    #[arbitrary(with = insts_range)]
    pub insts: RangeInclusive<usize>,
    /// Data registers declared per type (`.b32 .u32 .s32 .f32 .b64 .u64
    /// .s64 .pred`, each drawn on its own). Default `1..=4`; clamped to `1..=8`.
    #[arbitrary(with = regs_range)]
    pub regs_per_type: RangeInclusive<usize>,
    /// Deepest nesting of `if` and loop blocks. Default 3; at most 4.
    #[arbitrary(with = |u: &mut Unstructured| u.int_in_range(0..=4))]
    pub max_depth: usize,
    /// Deepest nesting of loops. Default 2; at most 3.
    #[arbitrary(with = |u: &mut Unstructured| u.int_in_range(0..=3))]
    pub max_loop_depth: usize,
    /// Largest trip count of a generated loop on any lane. Default 4;
    /// clamped to `1..=8`.
    #[arbitrary(with = |u: &mut Unstructured| u.int_in_range(1..=8))]
    pub max_trips: u32,
    /// The instruction mix.
    pub weights: Weights,
    /// Cases that use the deprecated non-`.sync` `shfl`/`vote`; they need
    /// `.version 6.3` + `.target sm_70`, which has no `redux.sync`.
    /// Default `(1, 10)`.
    #[arbitrary(with = |u: &mut Unstructured| ratio(u, 4))]
    pub deprecated_ratio: Ratio,
    /// Cases for `.target sm_100a`, the only ones with `.f32` `redux.sync`
    /// (and `.abs`/`.NaN`). Default `(1, 10)`.
    #[arbitrary(with = |u: &mut Unstructured| ratio(u, 4))]
    pub redux_f32_ratio: Ratio,
    /// Cases made undefined on purpose by one wrong membermask, so that the
    /// UB checks of every engine are exercised. Default `(3, 200)` (1.5 %).
    #[arbitrary(with = |u: &mut Unstructured| ratio(u, 10).map(|(n, _)| (n, 200)))]
    pub ub_ratio: Ratio,
    /// Instructions put under a `@p`/`@!p` guard. Default `(1, 5)`.
    #[arbitrary(with = |u: &mut Unstructured| ratio(u, 8))]
    pub guard_ratio: Ratio,
    /// Data registers given initial `.lanes` values (the others start
    /// undefined). Default `(7, 8)`.
    #[arbitrary(with = |u: &mut Unstructured| ratio(u, 16).map(|(n, d)| (n.max(d / 2), d)))]
    pub input_ratio: Ratio,
    /// Source operands that are immediates or `%laneid` rather than
    /// registers. Default `(1, 5)`.
    #[arbitrary(with = |u: &mut Unstructured| ratio(u, 8))]
    pub imm_ratio: Ratio,
    /// Cases run *bounded* (`.fuel N`) with `N` drawn from the second half
    /// of the warp steps the whole run takes, so that they stop for want
    /// of fuel and engines are compared on where and in what state.
    /// Default `(1, 8)`.
    #[arbitrary(with = |u: &mut Unstructured| ratio(u, 8).map(|(n, d)| (n.min(d / 2), d)))]
    pub bounded_ratio: Ratio,
    /// Idioms of known compiler bugs the cases must not contain
    /// ([`crate::idioms`]): what makes one is removed, as the repair pass
    /// removes what makes undefined behaviour. Never drawn from the bytes
    /// (`warpdiff fuzz --avoid` sets it). Default none.
    #[arbitrary(default)]
    pub avoid: Vec<Idiom>,
}

impl Default for Config {
    fn default() -> Self {
        Config {
            insts: 4..=48,
            regs_per_type: 1..=4,
            max_depth: 3,
            max_loop_depth: 2,
            max_trips: 4,
            weights: Weights::default(),
            deprecated_ratio: (1, 10),
            redux_f32_ratio: (1, 10),
            ub_ratio: (3, 200),
            guard_ratio: (1, 5),
            input_ratio: (7, 8),
            imm_ratio: (1, 5),
            bounded_ratio: (1, 8),
            avoid: Vec::new(),
        }
    }
}

impl Config {
    /// This config with every field brought into its documented range:
    /// ranges clamped and ordered, ratios with a nonzero denominator and a
    /// numerator no larger than it, weights at most 1000.
    /// [`generate`](super::generate) applies it, so any `Config` is safe to
    /// pass.
    pub fn sanitized(&self) -> Config {
        let range = |r: &RangeInclusive<usize>, lo: usize, hi: usize| {
            let a = (*r.start()).clamp(lo, hi);
            let b = (*r.end()).clamp(lo, hi);
            a.min(b)..=a.max(b)
        };
        let ratio = |(n, d): Ratio| {
            let d = d.max(1);
            (n.min(d), d)
        };
        Config {
            insts: range(&self.insts, 0, MAX_INSTS),
            regs_per_type: range(&self.regs_per_type, 1, 8),
            max_depth: self.max_depth.min(4),
            max_loop_depth: self.max_loop_depth.min(3),
            max_trips: self.max_trips.clamp(1, 8),
            weights: self.weights.clamped(),
            deprecated_ratio: ratio(self.deprecated_ratio),
            redux_f32_ratio: ratio(self.redux_f32_ratio),
            ub_ratio: ratio(self.ub_ratio),
            guard_ratio: ratio(self.guard_ratio),
            input_ratio: ratio(self.input_ratio),
            imm_ratio: ratio(self.imm_ratio),
            bounded_ratio: ratio(self.bounded_ratio),
            avoid: self.avoid.clone(),
        }
    }
}

/// A row weight for swarm testing: a quarter of the time 0 (the row is
/// switched off for this run), otherwise 1 to 40.
fn weight(u: &mut Unstructured) -> Result<u32> {
    Ok(if u.ratio(1u8, 4)? {
        0
    } else {
        u.int_in_range(1..=40)?
    })
}

/// `(n, d)` with `d` in `1..=max_den` and `n` in `0..=d`.
fn ratio(u: &mut Unstructured, max_den: u16) -> Result<Ratio> {
    let d = u.int_in_range(1..=max_den.max(1))?;
    Ok((u.int_in_range(0..=d)?, d))
}

fn insts_range(u: &mut Unstructured) -> Result<RangeInclusive<usize>> {
    let lo = u.int_in_range(0..=64)?;
    let hi = u.int_in_range(lo..=(lo + 160).min(MAX_INSTS))?;
    Ok(lo..=hi)
}

fn regs_range(u: &mut Unstructured) -> Result<RangeInclusive<usize>> {
    let lo = u.int_in_range(1..=4)?;
    Ok(lo..=u.int_in_range(lo..=8)?)
}

/// Whether an event of probability `r` happens: never when the numerator
/// is 0 (unlike [`Unstructured::ratio`], which requires it to be positive),
/// and, when the bytes have run out, only if it is certain (so that an
/// exhausted input gives the plainest case, not a deprecated or UB one).
pub(crate) fn chance(u: &mut Unstructured, r: Ratio) -> Result<bool> {
    let (n, d) = r;
    if n == 0 || d == 0 {
        return Ok(false);
    }
    if n >= d {
        return Ok(true);
    }
    Ok(u.int_in_range(0..=d - 1)? >= d - n)
}

/// One of `options`, each chosen with probability proportional to its
/// weight (weights must not all be 0).
pub(crate) fn weighted<T: Copy>(u: &mut Unstructured, options: &[(T, u32)]) -> Result<T> {
    let total: u32 = options.iter().map(|o| o.1).sum();
    let mut x = u.int_in_range(0..=total - 1)?;
    for &(t, w) in options {
        if x < w {
            return Ok(t);
        }
        x -= w;
    }
    unreachable!("x < total")
}
