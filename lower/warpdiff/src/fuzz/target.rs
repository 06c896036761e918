//! The cargo-fuzz targets' logic (`fuzz/fuzz_targets/`): `diff`
//! generates a case from the fuzzer's bytes, checks it on every built-in
//! engine (on several input sets, one compile), and on a divergence
//! reduces, records and panics with it; `parse` feeds arbitrary text to
//! the PTX front ends, which must never panic.

use crate::engines;
use crate::fuzz::case::{
    case_and_read, case_text, corpus_dir, hardware_notes, now_utc, record, reduce, run_case_inputs,
    settle, CaseResult,
};
use crate::fuzz::seen::Seen;
use std::cell::RefCell;
use std::hash::{Hash, Hasher};
use warp_core::engine::Engine;
use warp_core::fxhash::FxHasher;
use warp_core::gen::{Stats, TestCase};

thread_local! {
    /// The `diff` target's memo of checked inputs; `None` when
    /// `WARPDIFF_FUZZ_MEMO=0` turned it off.
    static SEEN: RefCell<Option<Seen>> = RefCell::new(
        std::env::var_os("WARPDIFF_FUZZ_MEMO").is_none_or(|v| v != "0").then(Seen::default),
    );
}

/// Input sets [`diff_target`] checks per case by default: the case's own
/// and sets with its data inputs redrawn ([`input_sets`](crate::fuzz::case::input_sets)), one compile
/// for all of them. `WARPDIFF_FUZZ_INPUTS=K` (1 to 1024) sets it.
pub const DIFF_INPUTS: usize = 8;

thread_local! {
    /// [`DIFF_INPUTS`], or what `WARPDIFF_FUZZ_INPUTS` says (a value that
    /// is not a number from 1 to 1024 stops the run: fuzzing otherwise
    /// than asked would be worse).
    static DIFF_INPUTS_NOW: usize = match std::env::var("WARPDIFF_FUZZ_INPUTS") {
        Err(_) => DIFF_INPUTS,
        Ok(v) => v
            .parse()
            .ok()
            .filter(|k| (1..=1024).contains(k))
            .unwrap_or_else(|| panic!("WARPDIFF_FUZZ_INPUTS={v:?}: not a number from 1 to 1024")),
    };
}

/// What [`diff_target`] did not do again on this thread: inputs it did not
/// generate (their read bytes were an earlier input's), then cases it did
/// not check (an earlier input had made them).
pub fn diff_memo_hits() -> (u64, u64) {
    SEEN.with_borrow(|s| s.as_ref().map_or((0, 0), |s| (s.hits, s.case_hits)))
}

/// [`run_case_inputs`] on `k` input sets of `tc`'s program whose seed is
/// the case's hash, so that the sets depend on the case alone (a case
/// generated again, which [`diff_target`]'s memo skips, would get them
/// again).
fn check_sets(tc: &TestCase, others: &[&dyn Engine], stats: &mut Stats, k: usize) -> CaseResult {
    let mut h = FxHasher::default();
    tc.hash(&mut h);
    run_case_inputs(tc, others, stats, k, h.finish()).0
}

/// The libFuzzer target `diff`: generate, check (on [`DIFF_INPUTS`] input
/// sets, one compile); on a divergence reduce
/// it, record it in the corpus, and panic with the reduced case (a valid
/// `.ptx` file: the fuzz artifact becomes a test by copy).
///
/// An input that makes a case this thread has checked already (the same
/// bytes where the generator read, [`crate::fuzz::seen`]) returns at once:
/// `WARPDIFF_FUZZ_MEMO=0` turns that off.
pub fn diff_target(data: &[u8]) {
    if SEEN.with_borrow_mut(|s| s.as_mut().is_some_and(|s| s.contains(data))) {
        return;
    }
    let remember = |read, tc: Option<&TestCase>| {
        SEEN.with_borrow_mut(|s| s.as_mut().map(|s| s.insert(data, read, tc)))
    };
    let mut stats = Stats::default();
    let (tc, read) = case_and_read(data, &mut stats, &[]);
    let Some(tc) = tc else {
        remember(read, None);
        return;
    };
    if SEEN.with_borrow_mut(|s| s.as_mut().is_some_and(|s| s.contains_case(&tc))) {
        remember(read, None);
        return;
    }
    let owned: Vec<Box<dyn Engine>> = engines::spec::ENGINES
        .iter()
        .filter(|n| **n != "interp")
        .filter_map(|n| engines::for_one_run(n))
        .collect();
    let others: Vec<&dyn Engine> = owned.iter().map(|e| e.as_ref()).collect();
    let k = DIFF_INPUTS_NOW.with(|k| *k);
    if let CaseResult::Diverge(tc, d) = check_sets(&tc, &others, &mut stats, k) {
        let seed = warp_core::corpus::fnv1a(&format!("{data:?}"));
        let (small, secs) = reduce(&tc, &d, &others, seed);
        let (small, d2, unstable) = settle(&tc, small, d, &others);
        let mut notes = vec![
            format!("Found by `cargo fuzz run diff` at {}.", now_utc()),
            format!(
                "Reduced from {} to {} instructions in {secs:.2} s.",
                tc.program.insts.len(),
                small.program.insts.len()
            ),
        ];
        notes.extend(unstable);
        notes.extend(hardware_notes(&d2));
        let written = record(&corpus_dir(), &small, &d2, notes.clone());
        panic!(
            "divergence ({} on {}); {}\n{}",
            d2.engine,
            d2.form,
            match written {
                Ok(w) => format!("recorded as {}", w.path().display()),
                Err(e) => format!("could not record it: {e}"),
            },
            case_text(&small, &d2, notes)
        );
    }
    // It agreed (or the reference found UB, or ran out of fuel): the same
    // case would again.
    remember(read, Some(&tc));
}

/// The libFuzzer target `parse`: arbitrary text into the PTX module front
/// end (an error, never a panic) and the case parser; whatever
/// parses must print and parse back to the same case, and run on the
/// interpreter without panicking.
pub fn parse_target(data: &[u8]) {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    // The PTX module front end: any text gives a module or an error.
    let _ = warp_core::text::parse_module(text);
    let Ok(case) = warp_core::text::parse(text) else {
        return;
    };
    let printed = warp_core::text::print(&case);
    let again = warp_core::text::parse(&printed)
        .unwrap_or_else(|e| panic!("printed case does not parse: {e}\n{printed}"));
    assert_eq!(case, again, "print → parse changed the case:\n{printed}");
    let _ = warp_core::interp::Interp::new(&case.program)
        .with_fuel(10_000)
        .run(&case.inputs);
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::fuzz::case::tests::{case, Fault, Faulty};

    #[test]
    fn the_diff_target_checks_redrawn_input_sets() {
        // %a is data (no control flow, participation or membermask reads
        // it), so its values are redrawn.
        let tc = case(".reg .b32 %a, %b;\n.lanes %a = 5;\n    add.u32 %b, %a, 1;\n");
        let engine = Faulty(Fault::OtherInputs(tc.inputs.clone()));
        let others: Vec<&dyn Engine> = vec![&engine];
        let mut stats = Stats::default();
        assert!(matches!(
            check_sets(&tc, &others, &mut stats, 1),
            CaseResult::Agree(..)
        ));
        match check_sets(&tc, &others, &mut stats, DIFF_INPUTS) {
            CaseResult::Diverge(found, _) => {
                assert_eq!(found.program, tc.program);
                assert_ne!(found.inputs, tc.inputs, "found on a redrawn set");
            }
            _ => panic!("the second input set diverges"),
        }
        // The sets depend on the case alone: the same runs again.
        let runs = stats.runs;
        let again = check_sets(&tc, &others, &mut stats, DIFF_INPUTS);
        assert!(matches!(again, CaseResult::Diverge(..)));
        assert_eq!(stats.runs - runs, runs - 1);
    }
}
