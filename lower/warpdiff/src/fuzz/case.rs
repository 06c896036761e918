//! The fuzzing loop shared by `cargo fuzz run diff`, `warpdiff fuzz` and the
//! smoke test: bytes → generated case → the oracle (reference interpreter,
//! then every other engine) → on a divergence, reduce it and record it in
//! `corpus/`.

use crate::engines;
use arbitrary::{Arbitrary, Unstructured};
use std::hash::{Hash, Hasher};
use std::path::{Path, PathBuf};
use std::time::Instant;
use warp_core::corpus::{write_case, Written};
use warp_core::engine::Engine;
use warp_core::engine::Skip;
use warp_core::fxhash::{FxHashSet, FxHasher};
use warp_core::gen::{
    control_regs, data_inputs, generate_with_stats, vary_inputs, Config, Stats, TestCase,
};
use warp_core::idioms::Idiom;
use warp_core::ir::Inputs;
use warp_core::oracle::{check, check_inputs, Divergence, DivergenceCase, Verdict};
use warp_core::outcome::Outcome;
use warp_core::reduce::Reducer;
use warp_core::rng::Rng;

/// Fuel for fuzzing runs: generated loops are short.
pub const FUZZ_FUEL: u64 = 100_000;

/// Where regression cases go: `$WARPDIFF_CORPUS`, else the repository's
/// `corpus/` (written without `..`, as the summary prints it).
pub fn corpus_dir() -> PathBuf {
    std::env::var_os("WARPDIFF_CORPUS")
        .map(PathBuf::from)
        .unwrap_or_else(|| {
            let repo = Path::new(env!("CARGO_MANIFEST_DIR"));
            repo.parent()
                .and_then(Path::parent)
                .unwrap_or(repo)
                .join("corpus")
        })
}

/// How one input ended.
pub enum CaseResult {
    /// The bytes did not make a case (too short).
    NoCase,
    /// The reference found UB (counted, not compared).
    Ub,
    /// The reference could not finish it (fuel).
    Rejected,
    /// Every engine agreed (or skipped, with why); the reference's run.
    Agree(Box<Outcome>, Vec<(&'static str, Skip)>),
    /// An engine diverged.
    Diverge(TestCase, Box<Divergence>),
}

/// Builds a case from a seed: 64 to 4063 pseudo-random bytes
/// ([`warp_core::rng`]) through [`case_from_bytes`]; `None` when they make
/// no case.
pub fn case_from_seed(
    seed: u64,
    buf: &mut Vec<u8>,
    stats: &mut Stats,
    avoid: &[Idiom],
) -> Option<TestCase> {
    let t = Instant::now();
    let mut r = Rng::new(seed);
    let len = 64 + r.index(4000);
    buf.clear();
    buf.extend(r.bytes(len));
    let tc = case_from_bytes_avoiding(buf, stats, avoid);
    stats.phases.generate += t.elapsed();
    tc
}

/// The case seeds of job `job` of a run seeded `seed`: every (seed, job)
/// pair gives its own stream, so `--seed 2` and `--seed 3` (or jobs 0 and
/// 1 of one run) never generate the same cases.
pub fn case_seeds(seed: u64, job: u64) -> impl Iterator<Item = u64> {
    let mut r = Rng::stream(seed, job);
    std::iter::repeat_with(move || r.next_u64())
}

/// A case's identity for the run's digest: the hash of its program and
/// inputs as the IR holds them (every instruction, label, register and
/// input lane). Printing the case as text to hash that took 2-4 % of
/// `warpdiff fuzz`'s time (perf, issue #14); the IR says the same.
pub fn case_hash(tc: &TestCase) -> u64 {
    let mut h = FxHasher::default();
    tc.hash(&mut h);
    h.finish()
}

/// Up to `k` distinct input sets for `tc`'s program: its own first, then
/// sets whose data inputs are redrawn ([`warp_core::gen::vary_inputs`]:
/// the inputs that cannot reach control flow, participation or a
/// `membermask` keep the case defined). The program's compile is the
/// expensive part, so each engine compiles it once for all of them. The
/// redrawn values come from `seed` (the case's seed), so a run is
/// reproducible. A program with no data input has only its own set.
pub fn input_sets(tc: &TestCase, k: usize, seed: u64) -> Vec<Inputs> {
    let mut sets = vec![tc.inputs.clone()];
    if k <= 1 {
        return sets;
    }
    let control = control_regs(&tc.program);
    if data_inputs(&tc.inputs, &control) == 0 {
        return sets;
    }
    let mut r = Rng::stream(seed, 1);
    let mut bytes = Vec::new();
    // The sets' hashes, so that a new set is compared in full only with
    // the earlier sets when its hash was seen.
    let hash = |v: &Inputs| {
        let mut h = FxHasher::default();
        v.hash(&mut h);
        h.finish()
    };
    let mut seen = FxHashSet::default();
    seen.insert(hash(&sets[0]));
    // A few more tries than sets: a redraw may repeat an earlier set.
    for _ in 0..2 * k {
        if sets.len() == k {
            break;
        }
        bytes.clear();
        bytes.extend(r.bytes(64 * tc.inputs.lanes.len()));
        let v = vary_inputs(
            &tc.program,
            &tc.inputs,
            &control,
            &mut Unstructured::new(&bytes),
        );
        if seen.insert(hash(&v)) || !sets.contains(&v) {
            sets.push(v);
        }
    }
    sets
}

/// Builds a case from bytes: a swarm `Config` first, then the program.
pub fn case_from_bytes(data: &[u8], stats: &mut Stats) -> Option<TestCase> {
    case_from_bytes_avoiding(data, stats, &[])
}

/// [`case_from_bytes`] with the idioms of known compiler bugs `avoid`
/// kept out of the case (`warpdiff fuzz --avoid`).
pub fn case_from_bytes_avoiding(
    data: &[u8],
    stats: &mut Stats,
    avoid: &[Idiom],
) -> Option<TestCase> {
    case_and_read(data, stats, avoid).0
}

/// [`case_from_bytes_avoiding`], and how many of `data`'s bytes the
/// generator read (from the front: the case depends on those only, see
/// [`crate::fuzz::seen`]).
pub fn case_and_read(data: &[u8], stats: &mut Stats, avoid: &[Idiom]) -> (Option<TestCase>, usize) {
    let mut u = Unstructured::new(data);
    let mut cfg = Config::arbitrary(&mut u).unwrap_or_default();
    cfg.avoid = avoid.to_vec();
    let tc = generate_with_stats(&mut u, &cfg, stats).ok();
    (tc, data.len() - u.len())
}

/// Runs one case through the oracle against `others`.
pub fn run_case(tc: &TestCase, others: &[&dyn Engine], stats: &mut Stats) -> CaseResult {
    run_case_inputs(tc, others, stats, 1, 0).0
}

/// [`run_case`] on up to `k` input sets of the case's program, each
/// engine compiling it once: [`input_sets`] from the case's `seed` (each
/// a new (program, inputs) pair). The result is the first input set's, or
/// the first divergence's (with its inputs); the number is how many more
/// input sets agreed.
pub fn run_case_inputs(
    tc: &TestCase,
    others: &[&dyn Engine],
    stats: &mut Stats,
    k: usize,
    seed: u64,
) -> (CaseResult, u64) {
    let t = Instant::now();
    let sets = input_sets(tc, k, seed);
    stats.phases.generate += t.elapsed();
    let verdicts = check_inputs(&tc.program, &sets, others, FUZZ_FUEL, &mut stats.phases);
    stats.record_contexts(
        &tc.program,
        verdicts.iter().filter_map(|v| match v {
            Verdict::Agree { reference, .. } => Some(&**reference),
            Verdict::Ub(_) | Verdict::Rejected(_) | Verdict::Diverge(_) => None,
        }),
    );
    let mut first = None;
    let mut more = 0;
    for (i, v) in verdicts.into_iter().enumerate() {
        stats.runs += 1;
        let r = match v {
            Verdict::Ub(_) => {
                stats.ub_runs += 1;
                CaseResult::Ub
            }
            Verdict::Rejected(_) => {
                stats.errors += 1;
                CaseResult::Rejected
            }
            Verdict::Agree {
                reference, skipped, ..
            } => {
                stats.usable += 1;
                stats.record_definedness(&reference);
                more += (i > 0) as u64;
                CaseResult::Agree(reference, skipped)
            }
            Verdict::Diverge(d) => {
                stats.usable += 1;
                let case = TestCase {
                    program: tc.program.clone(),
                    inputs: sets[i].clone(),
                };
                return (CaseResult::Diverge(case, d), more);
            }
        };
        if i == 0 {
            first = Some(r);
        }
    }
    (first.expect("the case's own inputs are checked"), more)
}

/// Reduces a divergent case to a small one that diverges the same way
/// (same engine, same instruction form). Returns the case and the seconds
/// it took.
pub fn reduce(tc: &TestCase, d: &Divergence, others: &[&dyn Engine], seed: u64) -> (TestCase, f64) {
    reduce_until(tc, d, others, seed, None, &[])
}

/// [`reduce`], giving up at `until` (if given): from then on no candidate
/// counts as interesting, so the smallest case found so far is returned
/// at once. An engine whose every answer waits for a deadline (a hanging
/// external engine) cannot hold a run up for long.
///
/// No candidate may hold an idiom of `avoid` that `tc` does not hold: a
/// hunt that keeps the known compiler bugs out of generation (`fuzz
/// --avoid`) must not have its findings reduced into them either (session
/// 6's reductions made 107 K5 shapes out of cases that held none; the
/// unreduced divergence was something else).
pub fn reduce_until(
    tc: &TestCase,
    d: &Divergence,
    others: &[&dyn Engine],
    seed: u64,
    until: Option<Instant>,
    avoid: &[Idiom],
) -> (TestCase, f64) {
    let t = Instant::now();
    let want = (d.engine, d.form.clone());
    // As `--avoid` does in generation: either reading of the idiom counts.
    let holds = |i: &Idiom, c: &TestCase| {
        i.find(&c.program).is_some() || i.find_in_case(&c.program, &c.inputs).is_some()
    };
    let kept_out: Vec<Idiom> = avoid.iter().copied().filter(|i| !holds(i, tc)).collect();
    let pred = |c: &TestCase| {
        if until.is_some_and(|u| Instant::now() >= u) {
            return false;
        }
        if kept_out.iter().any(|i| holds(i, c)) {
            return false;
        }
        match check(&c.program, &c.inputs, others, FUZZ_FUEL) {
            Verdict::Diverge(d2) => d2.engine == want.0 && d2.form == want.1,
            Verdict::Agree { .. } | Verdict::Ub(_) | Verdict::Rejected(_) => false,
        }
    };
    let reduced = match Reducer::new().seed(seed).run(tc, pred) {
        Ok(r) => r.case,
        Err(_) => tc.clone(),
    };
    (reduced, t.elapsed().as_secs_f64())
}

/// The divergence of `tc` against `others`, if it has one.
pub fn divergence_of(tc: &TestCase, others: &[&dyn Engine]) -> Option<Box<Divergence>> {
    match check(&tc.program, &tc.inputs, others, FUZZ_FUEL) {
        Verdict::Diverge(d) => Some(d),
        Verdict::Agree { .. } | Verdict::Ub(_) | Verdict::Rejected(_) => None,
    }
}

/// The case to record after a reduction, with its divergence: the reduced
/// case `small` checked once more, or, when it no longer diverges (an
/// engine whose answer changes from run to run: a perturbed GPU schedule,
/// a convergence-dependent value), the unreduced `tc` with its own
/// divergence `d` and a note saying so. A divergence is only ever written
/// next to the program it was seen on (its registers index that program).
pub fn settle(
    tc: &TestCase,
    small: TestCase,
    d: Box<Divergence>,
    others: &[&dyn Engine],
) -> (TestCase, Box<Divergence>, Option<String>) {
    match divergence_of(&small, others) {
        Some(d2) => (small, d2, None),
        None => (
            tc.clone(),
            d,
            Some(format!(
                "Not reduced: the reduced case ({} instructions) did not diverge when checked again (an engine whose answer changes from run to run), so this is the case as found.",
                small.program.insts.len()
            )),
        ),
    }
}

/// The `.ptx` text of a divergent case with its comment paragraph.
pub fn case_text(tc: &TestCase, d: &Divergence, notes: Vec<String>) -> String {
    DivergenceCase {
        program: &tc.program,
        inputs: &tc.inputs,
        divergence: d,
        notes,
        fuel: FUZZ_FUEL,
    }
    .to_string()
}

/// Comment lines naming the hardware of a GPU divergence (model,
/// compute capability, CUDA driver); none for other engines.
pub fn hardware_notes(d: &Divergence) -> Vec<String> {
    engines::EngineSet::default().notes(d.engine)
}

/// Writes a divergent case into `dir` as `<form>-<hash>.ptx` (never
/// overwriting).
pub fn record(
    dir: &std::path::Path,
    tc: &TestCase,
    d: &Divergence,
    notes: Vec<String>,
) -> std::io::Result<Written> {
    let key = warp_core::text::print(&tc.to_case());
    write_case(dir, &d.form, &key, &case_text(tc, d, notes))
}

/// Seconds since the Unix epoch, for "found at" notes.
pub fn now_utc() -> String {
    let s = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_secs());
    let (days, rem) = (s / 86_400, s % 86_400);
    // Civil date from days since 1970-01-01 (Howard Hinnant's algorithm).
    let z = days as i64 + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z.rem_euclid(146_097);
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = doy - (153 * mp + 2) / 5 + 1;
    let m = if mp < 10 { mp + 3 } else { mp - 9 };
    let y = yoe + era * 400 + (m <= 2) as i64;
    format!(
        "{y:04}-{m:02}-{d:02} {:02}:{:02}:{:02} UTC",
        rem / 3600,
        rem % 3600 / 60,
        rem % 60
    )
}

#[cfg(test)]
pub(crate) mod tests {
    //! Also used by [`crate::fuzz::target`]'s tests: an engine with a fault.

    use super::*;
    use warp_core::engine::{CompileError, Compiled, RunError};
    use warp_core::interp::InterpEngine;
    use warp_core::ir::{Inputs, Program};
    use warp_core::outcome::Outcome;

    /// Where an engine built on the interpreter reads one more in lane 0.
    #[derive(Clone)]
    pub(crate) enum Fault {
        /// Register 0, on programs of exactly this many instructions: an
        /// engine that diverges on the case as found and agrees on every
        /// smaller one.
        Length(usize),
        /// Register 1, on inputs other than these.
        OtherInputs(Inputs),
        /// Register 0, on programs that hold every one of these
        /// instruction texts (as printed).
        Holds(Vec<&'static str>),
    }

    /// The interpreter with a [`Fault`].
    pub(crate) struct Faulty(pub(crate) Fault);

    struct Run<'p>(Box<dyn Compiled + 'p>, Fault, usize);

    impl Compiled for Run<'_> {
        fn run(&self, inputs: &Inputs) -> Result<Outcome, RunError> {
            let mut out = self.0.run(inputs)?;
            let reg = match &self.1 {
                Fault::Length(n) => (self.2 == *n).then_some(0),
                Fault::OtherInputs(own) => (inputs != own).then_some(1),
                Fault::Holds(_) => (self.2 == 1).then_some(0),
            };
            if let Some(r) = reg {
                out.values[r][0] = out.values[r][0].wrapping_add(1);
            }
            Ok(out)
        }
    }

    impl Engine for Faulty {
        fn name(&self) -> &'static str {
            "jit"
        }
        fn compile<'p>(
            &self,
            prog: &'p Program,
            fuel: u64,
        ) -> Result<Box<dyn Compiled + 'p>, CompileError> {
            let inner = InterpEngine.compile(prog, fuel)?;
            let n = match &self.0 {
                Fault::Holds(texts) => {
                    let printed = warp_core::text::print_program(prog);
                    texts.iter().all(|t| printed.contains(t)) as usize
                }
                Fault::Length(_) | Fault::OtherInputs(_) => prog.insts.len(),
            };
            Ok(Box::new(Run(inner, self.0.clone(), n)))
        }
    }

    pub(crate) fn case(text: &str) -> TestCase {
        let c = warp_core::text::parse(text).expect("the test case parses");
        TestCase {
            program: c.program,
            inputs: c.inputs,
        }
    }

    #[test]
    fn a_reduced_case_that_no_longer_diverges_is_recorded_unreduced() {
        // Found: three registers, three instructions; "reduced": one register,
        // one instruction, on which the engine agrees.
        let found = case(
            ".reg .b32 %a, %b, %c;\n    mov.b32 %a, 1;\n    mov.b32 %b, 2;\n    add.u32 %c, %a, %b;\n",
        );
        let small = case(".reg .b32 %z;\n    mov.b32 %z, 7;\n");
        let engine = Faulty(Fault::Length(3));
        let others: Vec<&dyn Engine> = vec![&engine];
        let d = divergence_of(&found, &others).expect("the engine diverges on the case as found");
        assert!(divergence_of(&small, &others).is_none());
        let (kept, d2, note) = settle(&found, small, d, &others);
        assert_eq!(kept.program.insts.len(), 3, "the case as found is kept");
        assert!(note.expect("a note says why").starts_with("Not reduced"));
        // The divergence names %a (register 0 of the kept program): writing it
        // up must not look registers up in another program.
        let text = case_text(&kept, &d2, vec![]);
        assert!(text.contains("%a lane 0: interp 1, jit 2"), "{text}");
    }

    #[test]
    fn a_reduced_case_that_still_diverges_is_recorded_reduced() {
        let found = case(".reg .b32 %a, %b;\n    mov.b32 %a, 1;\n    mov.b32 %b, 2;\n");
        let small = case(".reg .b32 %z;\n    mov.b32 %z, 7;\n");
        let engine = Faulty(Fault::Length(1));
        let others: Vec<&dyn Engine> = vec![&engine];
        let d = Box::new(Divergence {
            engine: "jit",
            what: warp_core::oracle::Disagreement::Values(vec![]),
            form: "mov.b32".to_string(),
        });
        let (kept, d2, note) = settle(&found, small, d, &others);
        assert_eq!(kept.program.insts.len(), 1);
        assert!(note.is_none());
        let text = case_text(&kept, &d2, vec![]);
        assert!(text.contains("%z lane 0: interp 7, jit 8"), "{text}");
    }

    #[test]
    fn a_reduction_does_not_drift_into_an_avoided_idiom() {
        // The engine diverges on %p0 wherever the `abs.f32` and the `setp`
        // below are both there as written. As found, a `mov` between them rewrites %f1, so the
        // program holds no N17 shape (`abs.f32` straight into an ordered
        // compare against -2.0); the smallest diverging case drops the `mov`
        // and is N17's shape. Avoiding N17 keeps the `mov`.
        let found = case(
            ".reg .pred %p0;\n.reg .f32 %f0, %f1;\n.lanes %f0 = 0f3f800000;\n    abs.f32 %f1, %f0;\n    mov.f32 %f1, 0f40000000;\n    setp.gt.f32 %p0, %f1, 0fc0000000;\n",
        );
        let n17 = Idiom::AbsCompareFoldedIgnoringNan;
        assert!(n17.find(&found.program).is_none());
        let engine = Faulty(Fault::Holds(vec![
            "abs.f32 %f1, %f0;",
            "setp.gt.f32 %p0, %f1, 0fc0000000;",
        ]));
        let others: Vec<&dyn Engine> = vec![&engine];
        let d = divergence_of(&found, &others).expect("the engine diverges on the case as found");
        let (free, _) = reduce_until(&found, &d, &others, 1, None, &[]);
        assert_eq!(free.program.insts.len(), 2, "{free:?}");
        assert!(
            n17.find(&free.program).is_some(),
            "unguarded, it drifts into N17: {}",
            warp_core::text::print_program(&free.program)
        );
        let (kept, _) = reduce_until(&found, &d, &others, 1, None, &[n17]);
        assert!(n17.find(&kept.program).is_none());
        assert!(n17.find_in_case(&kept.program, &kept.inputs).is_none());
        assert_eq!(kept.program.insts.len(), 3, "the `mov` stays: {kept:?}");
        assert!(divergence_of(&kept, &others).is_some());
    }
}
