//! The test-case reducer: shrinks a [`TestCase`] while a predicate keeps
//! holding, as `wasm-shrink` does for Wasm modules.
//!
//! ```
//! use warp_core::reduce::Reducer;
//!
//! let case = warp_core::text::parse(
//!     ".reg .b32 Rx, Ry, Rz;\n\
//!      .lanes Rx = 7;\n\
//!      add.u32 Rz, Rx, 1;\n\
//!      shfl.sync.idx.b32 Ry, Rx, 0, 0x1f, 0xffffffff;\n\
//!      xor.b32 Rz, Rz, Ry;\n",
//! )
//! .unwrap();
//! let tc = warp_core::gen::TestCase { program: case.program, inputs: case.inputs };
//! // Interesting: the program still has a `shfl.sync.idx`.
//! let has_shfl = |c: &warp_core::gen::TestCase| {
//!     c.program.insts.iter().any(|i| i.op.form_name() == "shfl.sync.idx")
//! };
//! let small = Reducer::new().seed(1).run(&tc, has_shfl).unwrap();
//! assert_eq!(small.case.program.insts.len(), 1);
//! assert!(small.case.program.regs.is_empty()); // `shfl.sync.idx.b32 _, 0, 0, 0, 0xffffffff;`
//! ```
//!
//! # How it searches
//!
//! [`Reducer::run`] first checks that the input is valid (it prints and
//! parses back to itself, and the reference interpreter runs it within the
//! fuel without undefined behaviour: [`ReduceError::Invalid`] otherwise) and
//! that the predicate holds on it ([`ReduceError::NotInteresting`]
//! otherwise: a predicate that does not consider its own input interesting
//! is a common mistake). Then it tries the empty case, and if that is not
//! interesting, runs the passes in rounds until a whole round makes no
//! progress or the predicate-call budget ([`Reducer::attempts`]) is spent.
//!
//! Every candidate a pass proposes is
//! - skipped unless it is *smaller* than the current case: fewer
//!   instructions, else fewer registers, else simpler `.lanes` inputs
//!   (broadcasts before per-lane lists, small values before large), else a
//!   simpler body (collectives before glue before `mov`, immediates before
//!   `%laneid` before registers, sinks before registers, no guards, 32-bit
//!   before 64-bit, the default directives), so the search always ends and
//!   the result is the smallest interesting case met;
//! - skipped if its printed text was tried before (a hash set);
//! - skipped if invalid: it must print and parse back to an equal case and
//!   run on the interpreter within the fuel with no undefined behaviour;
//! - otherwise given to the predicate (one *attempt*), and kept if it holds.
//!
//! The search is deterministic for a seed (a private xorshift generator
//! orders the passes of later rounds and picks the odd random immediate).
//!
//! # Passes
//!
//! One file each in `passes/`, run in this order in the first round:
//! - `drop_insts`: delete chunks of instructions, halving the chunk size
//!   down to single instructions, from the end backwards (delta
//!   debugging); labels move with the instructions, labels inside a
//!   deleted chunk go with it and so do the `bra`s to them.
//! - `prefix`: delete the instructions before a cut point and make every
//!   register's value there its `.lanes` input (removes whole loops).
//! - `branches`: delete a `bra` or its guard, unused labels, an `exit` or
//!   its guard.
//! - `collectives`: replace a collective (`shfl`, `vote`, `match`,
//!   `redux`, `activemask`) by a `mov` of one of its sources or of an
//!   immediate into its destination; likewise glue by a `mov` of one of
//!   its sources.
//! - `guards`: drop guards `@p`, second destinations `|p` (set to none),
//!   replace destinations by the sink `_`.
//! - `operands`: replace a source register (and `%laneid`) by an
//!   immediate: 0, 1, its lane-0 input value, the value it holds when the
//!   lanes reach the instruction, a random small value; a `membermask`
//!   register by `0xffffffff` or its uniform value there.
//! - `lanes`: clear bits of `membermask` immediates; delete an
//!   instruction and make what it wrote the `.lanes` input of its
//!   destinations; simplify `.lanes` inputs (remove them, broadcast 0, 1
//!   or lane 0's value, lane-id-like values, zero chunks of lanes).
//! - `regs`: drop unused registers (re-indexing every `Reg`), narrow
//!   64-bit registers with the instructions that use them to 32 bits.
//! - `target`: `.version 9.1` / `.target sm_90` instead of other
//!   directives.

mod edit;
mod passes;
mod search;

use crate::gen::TestCase;
use crate::interp::DEFAULT_FUEL;
use crate::ir::{Inputs, Program};
use crate::rng::Rng;
use crate::text;
use search::Search;
use std::fmt;

/// Default [`Reducer::attempts`]: at most this many predicate calls.
pub const DEFAULT_ATTEMPTS: usize = 10_000;

/// A reducer, configured builder-style:
/// `Reducer::new().seed(7).attempts(1000).run(&case, predicate)`.
pub struct Reducer<'a> {
    seed: u64,
    attempts: usize,
    fuel: Option<u64>,
    on_new_smallest: Option<search::OnNew<'a>>,
}

impl Default for Reducer<'_> {
    fn default() -> Self {
        Self::new()
    }
}

impl fmt::Debug for Reducer<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Reducer")
            .field("seed", &self.seed)
            .field("attempts", &self.attempts)
            .field("fuel", &self.fuel)
            .field("on_new_smallest", &self.on_new_smallest.is_some())
            .finish()
    }
}

impl<'a> Reducer<'a> {
    /// A reducer with seed 0, [`DEFAULT_ATTEMPTS`] and the default fuel.
    pub fn new() -> Self {
        Reducer {
            seed: 0,
            attempts: DEFAULT_ATTEMPTS,
            fuel: None,
            on_new_smallest: None,
        }
    }

    /// The seed of the reducer's random choices; the same seed, input and
    /// predicate give the same result.
    pub fn seed(mut self, seed: u64) -> Self {
        self.seed = seed;
        self
    }

    /// The most times the predicate is called (the checks on the input and
    /// on the empty case included); invalid and repeated candidates do not
    /// count. Default [`DEFAULT_ATTEMPTS`].
    pub fn attempts(mut self, attempts: usize) -> Self {
        self.attempts = attempts;
        self
    }

    /// The interpreter fuel (warp steps) a candidate may use; one that runs
    /// out is invalid. Default: four times what the input takes plus 1,000,
    /// at most [`DEFAULT_FUEL`] (a candidate that loops forever costs little).
    pub fn fuel(mut self, fuel: u64) -> Self {
        self.fuel = Some(fuel);
        self
    }

    /// Called with every new smallest interesting case as it is found (to
    /// save progress, or print it).
    pub fn on_new_smallest(mut self, f: impl FnMut(&TestCase) + 'a) -> Self {
        self.on_new_smallest = Some(Box::new(f));
        self
    }

    /// Reduces `tc` while `predicate` holds. Errors when `tc` itself is not
    /// valid or not interesting; otherwise returns the smallest interesting
    /// case found.
    pub fn run(
        self,
        tc: &TestCase,
        mut predicate: impl FnMut(&TestCase) -> bool,
    ) -> Result<Reduced, ReduceError> {
        let text = text::print(&tc.to_case());
        let fuel = self.fuel.unwrap_or(DEFAULT_FUEL);
        let (start, steps) = search::validate(tc, &text, fuel).map_err(ReduceError::Invalid)?;
        let fuel = self.fuel.unwrap_or_else(|| {
            steps
                .saturating_mul(4)
                .saturating_add(1000)
                .min(DEFAULT_FUEL)
        });
        if self.attempts == 0 {
            return Ok(Reduced {
                case: start,
                tried: 0,
                accepted: 0,
            });
        }
        if !predicate(&start) {
            return Err(ReduceError::NotInteresting);
        }
        let mut s = Search::new(
            start,
            &mut predicate,
            self.on_new_smallest,
            self.attempts,
            fuel,
            Rng::new(self.seed),
            1,
        );
        let empty = TestCase {
            program: Program::default(),
            inputs: Inputs::default(),
        };
        if !s.try_case(empty) {
            passes::run_rounds(&mut s);
        }
        Ok(Reduced {
            tried: s.tried,
            accepted: s.accepted,
            case: s.into_case(),
        })
    }
}

/// The result of a reduction.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Reduced {
    /// The smallest interesting case found (the input itself when nothing
    /// smaller was). Its instructions' `line`s match its printed text.
    pub case: TestCase,
    /// Predicate calls made, the one on the input included.
    pub tried: usize,
    /// Candidates the predicate accepted (each smaller than the last).
    pub accepted: usize,
}

/// Why a reduction could not start.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ReduceError {
    /// The predicate is false on the input.
    NotInteresting,
    /// The input is not a valid case: it has undefined behaviour, runs out
    /// of fuel, or does not print and parse back to itself. The message
    /// says which.
    Invalid(String),
}

impl fmt::Display for ReduceError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ReduceError::NotInteresting => {
                f.write_str("the predicate does not consider the input interesting")
            }
            ReduceError::Invalid(why) => write!(f, "the input is not a valid case: {why}"),
        }
    }
}

impl std::error::Error for ReduceError {}
