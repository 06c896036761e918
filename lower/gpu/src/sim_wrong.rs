//! The simulated GPU's wrong values (`inject-bugs` builds): rules that
//! give a program a wrong result without stopping anything, shaped like
//! the GPU findings that agree when run alone, so that what the fuzzer
//! does with those (keep the batch, run it again, run the case alone after
//! register fills: `warpdiff::fuzz::retry`) can be tested without hardware.
//!
//! - `wrong-after:A+B`: a program with form `B` is wrong when a program
//!   with form `A` ran before it in the same batch (a compiled kernel that
//!   reads what its batch mate left), at an optimising level only.
//! - `wrong-dirty:F`: a program with form `F` is wrong when the registers
//!   hold what ran before its batch: a `--gpu-dirty` fill, or an earlier
//!   batch of the same process (a fresh process holds nothing), at an
//!   optimising level only.
//! - `wrong-once:N`: the last job of the `N`-th batch is wrong when that
//!   batch holds more than one job, and nothing else ever is.
//!
//! "Optimising" is every level but -O0 (`None`, the driver's default, is
//! -O4), as for the compiler bugs the hardware shows.

use super::config::SimFault;
use warp_core::ir::Program;
use warp_core::outcome::Outcome;

/// What the simulated GPU knows of a batch it is about to run.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct SimState {
    /// The optimisation level its modules are compiled at.
    pub opt_level: Option<u32>,
    /// The `--gpu-dirty` seed filled in before the batch, if any.
    pub dirty: Option<u32>,
    /// Batches this process (or in-process device) ran before this one.
    pub earlier: usize,
    /// The batch's number as the fault rules count it (from 1).
    pub seq: usize,
}

impl SimState {
    /// Whether the level optimises (every level but -O0).
    fn optimising(&self) -> bool {
        self.opt_level != Some(0)
    }
}

/// Which of `programs` (the batch's jobs in the order they run) get a
/// wrong value under `rule`: one flag per program.
pub fn wrong(rule: &SimFault, state: &SimState, programs: &[&Program]) -> Vec<bool> {
    let has = |p: &Program, form: &str| p.insts.iter().any(|i| i.op.form_name() == form);
    let n = programs.len();
    match rule {
        SimFault::WrongAfter(a, b) => {
            let mut seen_a = false;
            programs
                .iter()
                .map(|p| {
                    let hit = state.optimising() && seen_a && has(p, b);
                    seen_a |= has(p, a);
                    hit
                })
                .collect()
        }
        SimFault::WrongDirty(f) => {
            let dirty = state.dirty.is_some() || state.earlier > 0;
            programs
                .iter()
                .map(|p| state.optimising() && dirty && has(p, f))
                .collect()
        }
        SimFault::WrongOnce(k) => (0..n)
            .map(|i| state.seq == *k && n > 1 && i + 1 == n)
            .collect(),
        SimFault::NthBatch(_)
        | SimFault::Form(_)
        | SimFault::Pair(_, _)
        | SimFault::StuckBatch(_)
        | SimFault::Every(_, _)
        | SimFault::Cycle(_)
        | SimFault::HangIdiom(_) => vec![false; n],
    }
}

/// Makes `out` wrong: the lowest bit of every register flipped on every
/// lane (a bit every width has, `.pred` included), and lane 0's exit
/// flipped (a program may define no register: one that only copies a
/// register it never wrote), so that it differs from the reference.
pub fn spoil(out: &mut Outcome) {
    for lanes in &mut out.values {
        for v in lanes.iter_mut() {
            *v ^= 1;
        }
    }
    out.exited ^= 1;
}

#[cfg(test)]
mod tests {
    use super::{wrong, SimState};
    use crate::config::SimFault;
    use warp_core::text::parse;

    fn program(body: &str) -> warp_core::ir::Program {
        parse(&format!(".reg .b32 r, s;\n.reg .pred p;\n{body}"))
            .expect("parses")
            .program
    }

    #[test]
    fn wrong_after_needs_the_first_form_earlier_and_an_optimising_level() {
        let a = program("popc.b32 r, s;");
        let b = program("brev.b32 r, s;");
        let rule = SimFault::parse("wrong-after:popc.b32+brev.b32").expect("parses");
        let o3 = SimState {
            opt_level: Some(3),
            ..SimState::default()
        };
        assert_eq!(wrong(&rule, &o3, &[&a, &b]), vec![false, true]);
        // Alone, or before its mate: right.
        assert_eq!(wrong(&rule, &o3, &[&b]), vec![false]);
        assert_eq!(wrong(&rule, &o3, &[&b, &a]), vec![false, false]);
        // At -O0: right; at the driver's default (-O4): wrong.
        let o0 = SimState {
            opt_level: Some(0),
            ..o3
        };
        assert_eq!(wrong(&rule, &o0, &[&a, &b]), vec![false, false]);
        let dflt = SimState {
            opt_level: None,
            ..o3
        };
        assert_eq!(wrong(&rule, &dflt, &[&a, &b]), vec![false, true]);
    }

    #[test]
    fn wrong_dirty_needs_a_fill_or_an_earlier_batch() {
        let f = program("brev.b32 r, s;");
        let g = program("popc.b32 r, s;");
        let rule = SimFault::WrongDirty("brev.b32".into());
        let fresh = SimState {
            opt_level: Some(2),
            ..SimState::default()
        };
        assert_eq!(wrong(&rule, &fresh, &[&g, &f]), vec![false, false]);
        let filled = SimState {
            dirty: Some(7),
            ..fresh
        };
        assert_eq!(wrong(&rule, &filled, &[&g, &f]), vec![false, true]);
        let later = SimState {
            earlier: 1,
            ..fresh
        };
        assert_eq!(wrong(&rule, &later, &[&f]), vec![true]);
        let o0 = SimState {
            opt_level: Some(0),
            ..filled
        };
        assert_eq!(wrong(&rule, &o0, &[&f]), vec![false]);
    }

    #[test]
    fn wrong_once_is_the_last_job_of_one_batch_of_several() {
        let f = program("brev.b32 r, s;");
        let rule = SimFault::WrongOnce(3);
        let at = |seq| SimState {
            seq,
            ..SimState::default()
        };
        assert_eq!(
            wrong(&rule, &at(3), &[&f, &f, &f]),
            vec![false, false, true]
        );
        assert_eq!(wrong(&rule, &at(3), &[&f]), vec![false]);
        assert_eq!(wrong(&rule, &at(2), &[&f, &f]), vec![false, false]);
        assert_eq!(wrong(&rule, &at(4), &[&f, &f]), vec![false, false]);
    }
}
