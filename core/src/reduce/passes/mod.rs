//! The reduction passes, one file each, and the loop that runs them in
//! rounds. A pass reads [`Search::cur`] and proposes candidates with
//! [`Search::try_case`], re-reading the current case after each one (an
//! accepted candidate replaces it); it stops early once
//! [`Search::exhausted`].

mod branches;
mod collectives;
mod drop_insts;
mod guards;
mod lanes;
mod operands;
mod prefix;
mod regs;
mod target;

use super::search::Search;

/// A pass: proposes candidates derived from the current case.
type Pass = fn(&mut Search<'_, '_>);

/// Every pass with its name, in the order of the first round (big
/// deletions first, then simplifications that enable more deletions).
const PASSES: &[(&str, Pass)] = &[
    ("drop-insts", drop_insts::run),
    ("prefix", prefix::run),
    ("branches", branches::run),
    ("collectives", collectives::run),
    ("guards", guards::run),
    ("operands", operands::run),
    ("lanes", lanes::run),
    ("regs", regs::run),
    ("target", target::run),
];

/// Runs the passes in rounds until a round accepts nothing or the budget
/// is spent. The first round runs them in [`PASSES`] order; later rounds
/// start with `drop-insts` and shuffle the others with the seeded generator.
pub(crate) fn run_rounds(s: &mut Search<'_, '_>) {
    let mut order: Vec<usize> = (0..PASSES.len()).collect();
    loop {
        let before = s.accepted;
        for &i in &order {
            if s.exhausted() {
                return;
            }
            (PASSES[i].1)(s);
        }
        if s.accepted == before || s.exhausted() {
            return;
        }
        let mut rest: Vec<usize> = (1..PASSES.len()).collect();
        s.rng.shuffle(&mut rest);
        order = std::iter::once(0).chain(rest).collect();
    }
}
