//! The differential oracle: run a case on the reference interpreter first;
//! if it has undefined behaviour, stop there (UB is counted, never
//! compared); otherwise run every other engine and compare each with the
//! reference on its defined lanes.

use crate::blame::first_difference;
use crate::compare::{compare, Diff, DiffReport};
use crate::engine::{CompileError, Compiled, Engine, RunError, Skip};
use crate::gen::control_regs;
use crate::interp::{Interp, OutOfFuel};
use crate::ir::{Case, Expect, Inputs, Program, Reg, WARP};
use crate::outcome::Outcome;
use crate::phases::{timed, Phases};
use crate::ub::Ub;
use std::fmt;

/// The form a divergence is blamed on when an engine failed on a valid
/// program (compile error, driver rejection, panic, hang): the kind
/// `engine-failed`, whatever instructions it holds.
pub const ENGINE_FAILED: &str = "engine-failed";

/// What one engine did that the reference did not.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Disagreement {
    /// Defined lanes (or the exited lanes) differ.
    Values(Vec<Diff>),
    /// The engine stopped where the reference did not (e.g. out of fuel).
    Failed(RunError),
    /// The engine failed on a program the reference runs without UB: it
    /// would not compile it, the driver rejected it, it hung or panicked.
    EngineFailed(String),
}

/// A divergence between the reference and one engine.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Divergence {
    /// The engine that disagreed.
    pub engine: &'static str,
    /// How.
    pub what: Disagreement,
    /// The instruction form blamed: for an engine with bounded runs, the
    /// instruction after which the states first differ ([`crate::blame`]);
    /// otherwise the form of the instruction that wrote the first
    /// differing lane's value in the reference run (`exit` for a differing
    /// exited mask, `input` for an input value, `fuel` for a failed run or
    /// a bounded run that stopped elsewhere).
    pub form: String,
}

impl Divergence {
    /// The identity a reduced case must keep: the same engine and the same
    /// instruction form.
    pub fn signature(&self) -> (&'static str, &str) {
        (self.engine, &self.form)
    }

    /// The lanes concerned, as a mask (all lanes for a failed run).
    pub fn lanes(&self) -> u32 {
        match &self.what {
            Disagreement::Values(ds) => ds.iter().fold(0, |m, d| match d {
                Diff::Lane { lane, .. } => m | 1 << lane,
                Diff::Exited { reference, other } => m | (reference ^ other),
                Diff::Stop { .. } => u32::MAX,
            }),
            Disagreement::Failed(_) | Disagreement::EngineFailed(_) => u32::MAX,
        }
    }
}

/// The result of checking one case.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Verdict {
    /// Every engine that ran agreed with the reference; the others skipped.
    Agree {
        /// Engines that ran and agreed.
        compared: Vec<&'static str>,
        /// Engines that skipped, with why.
        skipped: Vec<(&'static str, Skip)>,
        /// The reference's run (no UB), for engines checked later in
        /// batches.
        reference: Box<Outcome>,
    },
    /// The reference found undefined behaviour: nothing was compared.
    Ub(Ub),
    /// The reference could not run it (out of fuel): nothing was compared.
    Rejected(OutOfFuel),
    /// An engine diverged (the first one found).
    Diverge(Box<Divergence>),
}

/// Runs `program` on `inputs` on the reference and on every engine in
/// `others`, comparing on the reference's defined lanes.
pub fn check(program: &Program, inputs: &Inputs, others: &[&dyn Engine], fuel: u64) -> Verdict {
    check_timed(program, inputs, others, fuel, &mut Phases::default())
}

/// [`check`], adding the time of each phase (interpret, compile, run,
/// compare) to `t`.
pub fn check_timed(
    program: &Program,
    inputs: &Inputs,
    others: &[&dyn Engine],
    fuel: u64,
    t: &mut Phases,
) -> Verdict {
    let mut compiled = no_compiles(others.len());
    let reference = || reference_interp(program, others, fuel).run(inputs);
    check_one(program, inputs, reference, others, &mut compiled, fuel, t)
}

/// [`check_timed`] on several input sets of one program, each engine
/// compiling it once (the compile is most of the cost): one verdict per
/// input set, in order, up to and including the first divergence.
///
/// A set that agrees with the first on every input register that can
/// reach control flow ([`control_regs`]; the sets of
/// [`crate::gen::vary_inputs`] do) runs on the reference in one pass,
/// reusing what the first set's run learnt ([`Interp::run_reusing`]).
pub fn check_inputs(
    program: &Program,
    inputs: &[Inputs],
    others: &[&dyn Engine],
    fuel: u64,
    t: &mut Phases,
) -> Vec<Verdict> {
    let mut compiled = no_compiles(others.len());
    let mut out = Vec::with_capacity(inputs.len());
    let interp = reference_interp(program, others, fuel);
    let control = (inputs.len() > 1).then(|| control_regs(program));
    let mut learnt = None;
    for (n, i) in inputs.iter().enumerate() {
        let reference = || match (&learnt, &control) {
            (Some(answers), Some(control)) if same_control(&inputs[0], i, control) => {
                interp.run_reusing(i, answers)
            }
            _ => {
                let (out, answers) = interp.run_keeping(i)?;
                if n == 0 {
                    learnt = answers;
                }
                Ok(out)
            }
        };
        let v = check_one(program, i, reference, others, &mut compiled, fuel, t);
        let diverged = matches!(v, Verdict::Diverge(_));
        out.push(v);
        if diverged {
            break;
        }
    }
    out
}

/// The reference interpreter for comparing `others`: in the spec
/// convergence model when one of them promises no more
/// ([`Engine::spec_convergence`]), else in the observed one.
pub fn reference_interp<'p>(program: &'p Program, others: &[&dyn Engine], fuel: u64) -> Interp<'p> {
    let interp = Interp::new(program).with_fuel(fuel);
    if others.iter().any(|e| e.spec_convergence()) {
        interp.spec_model()
    } else {
        interp
    }
}

/// Whether `a` and `b` give every control register the same lanes (both
/// as inputs with the same values, or neither) and the same fuel.
fn same_control(a: &Inputs, b: &Inputs, control: &[bool]) -> bool {
    let kept = |(r, _): &&(Reg, [u64; WARP])| control[r.index()];
    a.fuel == b.fuel && a.lanes.iter().filter(kept).eq(b.lanes.iter().filter(kept))
}

/// Per engine, its compiled program once it was needed.
type Compiles<'p> = Vec<Option<Result<Box<dyn Compiled + 'p>, CompileError>>>;

/// No engine compiled yet, for `n` engines.
fn no_compiles<'p>(n: usize) -> Compiles<'p> {
    (0..n).map(|_| None).collect()
}

/// One input set against `others`, its reference run by `reference`,
/// compiling each engine's program on first need into `compiled`.
fn check_one<'p>(
    program: &'p Program,
    inputs: &Inputs,
    reference: impl FnOnce() -> Result<Outcome, OutOfFuel>,
    others: &[&dyn Engine],
    compiled: &mut Compiles<'p>,
    fuel: u64,
    t: &mut Phases,
) -> Verdict {
    let reference = match timed(&mut t.interpret, reference) {
        Ok(r) => r,
        Err(e) => return Verdict::Rejected(e),
    };
    if let Some(ub) = reference.ub.clone() {
        return Verdict::Ub(ub);
    }
    let mut compared = Vec::new();
    let mut skipped = Vec::new();
    for (engine, slot) in others.iter().zip(compiled.iter_mut()) {
        if !engine.bounded_runs() {
            if let Some(skip) = crate::engine::unbounded_only(inputs) {
                skipped.push((engine.name(), skip));
                continue;
            }
        }
        let failed = |m: String| {
            Verdict::Diverge(Box::new(Divergence {
                engine: engine.name(),
                what: Disagreement::EngineFailed(m),
                form: ENGINE_FAILED.to_string(),
            }))
        };
        let made = slot.get_or_insert_with(|| {
            let bounded = inputs.fuel.is_some();
            timed(&mut t.compile, || {
                compile_guarded_for(*engine, program, fuel, bounded)
            })
        });
        let compiled = match made {
            Ok(c) => c,
            Err(CompileError::Skip(s)) => {
                skipped.push((engine.name(), s.clone()));
                continue;
            }
            Err(CompileError::Failed(m)) => return failed(m.clone()),
        };
        let run = timed(&mut t.run, || guarded(|| compiled.run(inputs)));
        let run = match run {
            Ok(r) => r,
            Err(panic) => return failed(format!("panicked while running: {panic}")),
        };
        match run {
            Err(RunError::Unavailable(s)) => skipped.push((engine.name(), s)),
            Err(RunError::Engine(m)) => return failed(m),
            Err(e @ RunError::OutOfFuel { .. }) => {
                return Verdict::Diverge(Box::new(Divergence {
                    engine: engine.name(),
                    what: Disagreement::Failed(e),
                    form: "fuel".to_string(),
                }))
            }
            Ok(out) => {
                let d = timed(&mut t.compare, || {
                    let mut d = diverges(engine.name(), program, &reference, &out)?;
                    if engine.bounded_runs() {
                        let total = reference.steps;
                        if let Some(f) = first_difference(program, inputs, &**compiled, total) {
                            d.form = program.insts[f.pc].op.form_name();
                        }
                    }
                    Some(d)
                });
                if let Some(d) = d {
                    return Verdict::Diverge(d);
                }
                compared.push(engine.name());
            }
        }
    }
    Verdict::Agree {
        compared,
        skipped,
        reference: Box::new(reference),
    }
}

/// Runs `f`, turning a panic into its message: an engine that panics has
/// failed on the program, which is a finding, not a crash of the fuzzer.
fn guarded<T>(f: impl FnOnce() -> T) -> Result<T, String> {
    std::panic::catch_unwind(std::panic::AssertUnwindSafe(f)).map_err(|p| {
        p.downcast_ref::<&str>()
            .map(|s| s.to_string())
            .or_else(|| p.downcast_ref::<String>().cloned())
            .unwrap_or_else(|| "a panic without a message".to_string())
    })
}

/// Compiles `program` on `engine`, a panic counted as a failure.
pub fn compile_guarded<'p>(
    engine: &dyn Engine,
    program: &'p Program,
    fuel: u64,
) -> Result<Box<dyn Compiled + 'p>, CompileError> {
    panic_is_failure(|| engine.compile(program, fuel))
}

/// [`compile_guarded`] for runs that are `bounded` or not
/// ([`Engine::compile_for`]).
pub fn compile_guarded_for<'p>(
    engine: &dyn Engine,
    program: &'p Program,
    fuel: u64,
    bounded: bool,
) -> Result<Box<dyn Compiled + 'p>, CompileError> {
    panic_is_failure(|| engine.compile_for(program, fuel, bounded))
}

/// Runs a compile, a panic counted as a failure.
fn panic_is_failure<'p>(
    compile: impl FnOnce() -> Result<Box<dyn Compiled + 'p>, CompileError>,
) -> Result<Box<dyn Compiled + 'p>, CompileError> {
    match guarded(compile) {
        Ok(r) => r,
        Err(panic) => Err(CompileError::Failed(format!(
            "panicked while compiling: {panic}"
        ))),
    }
}

/// How `other` (the outcome of `engine`) diverges from `reference` (the
/// interpreter's run without UB of the same program and inputs), if it
/// does: for engines that run many cases at once (the GPU's batches).
pub fn diverges(
    engine: &'static str,
    program: &Program,
    reference: &Outcome,
    other: &Outcome,
) -> Option<Box<Divergence>> {
    let diffs = compare(reference, other);
    if diffs.is_empty() {
        return None;
    }
    let form = blame(program, reference, &diffs);
    Some(Box::new(Divergence {
        engine,
        what: Disagreement::Values(diffs),
        form,
    }))
}

/// The form of the instruction blamed for `diffs`: of the instructions
/// that wrote a differing lane's final value in the reference run, the
/// earliest in the program (later ones usually just carry the wrong value
/// on); `exit` when only the exited lanes differ.
fn blame(program: &Program, reference: &Outcome, diffs: &[Diff]) -> String {
    let writers: Vec<u32> = diffs
        .iter()
        .filter_map(|d| match d {
            Diff::Lane { reg, lane, .. } => {
                Some(reference.writer.get(reg.index()).map_or(0, |w| w[*lane]))
            }
            Diff::Exited { .. } | Diff::Stop { .. } => None,
        })
        .collect();
    if diffs.iter().any(|d| matches!(d, Diff::Stop { .. })) {
        return "fuel".to_string();
    }
    match writers.iter().filter(|&&w| w > 0).min() {
        Some(&i) => program.insts[i as usize - 1].op.form_name(),
        None if writers.is_empty() => "exit".to_string(),
        None => "input".to_string(),
    }
}

/// The `.expect` of the reference run: every register with at least one
/// defined bit, `_` on undefined lanes, `VALUE:MASK` on partly defined
/// ones.
pub fn reference_expect(program: &Program, reference: &Outcome) -> Expect {
    let regs = (0..program.regs.len())
        .map(|r| Reg(r as u32))
        .filter(|&r| (0..WARP).any(|l| reference.bits(r, l).defined != 0))
        .map(|r| (r, std::array::from_fn(|l| reference.bits(r, l))))
        .collect();
    Expect {
        regs,
        stop: reference.stop.map(|s| s.line),
    }
}

/// A divergence written up as a ready-to-run `.ptx` case: a comment
/// paragraph naming the engines, lanes and differing values, then the
/// program, its inputs and the reference's `.expect`. Copying it into
/// `corpus/` makes it a regression test.
pub struct DivergenceCase<'a> {
    /// The program.
    pub program: &'a Program,
    /// Its inputs.
    pub inputs: &'a Inputs,
    /// The divergence.
    pub divergence: &'a Divergence,
    /// Extra comment lines (where and when it was found).
    pub notes: Vec<String>,
    /// The fuel used.
    pub fuel: u64,
}

impl DivergenceCase<'_> {
    /// The case, with the reference's results as `.expect`.
    pub fn case(&self) -> Case {
        let d = self.divergence;
        let mut header = vec![match &d.what {
            Disagreement::EngineFailed(_) => format!(
                "Divergence: {} failed on a program the reference interpreter runs ({}).",
                d.engine, d.form
            ),
            Disagreement::Values(_) | Disagreement::Failed(_) => format!(
                "Divergence: {} disagrees with the reference interpreter ({} form), lanes {:#010x}.",
                d.engine,
                d.form,
                d.lanes()
            ),
        }];
        match &d.what {
            Disagreement::Values(diffs) => {
                let report = DiffReport {
                    program: self.program,
                    reference: "interp",
                    other: d.engine,
                    diffs,
                };
                header.extend(
                    report
                        .to_string()
                        .lines()
                        .take(16)
                        .map(|l| l.trim().to_string()),
                );
                if diffs.len() > 16 {
                    header.push(format!("... {} differing lanes in all", diffs.len()));
                }
            }
            Disagreement::Failed(e) => header.push(format!("{} failed: {e}", d.engine)),
            Disagreement::EngineFailed(m) => header.push(format!("{}: {m}", d.engine)),
        }
        header.extend(self.notes.iter().cloned());
        header.push("The .expect lines are the reference interpreter's results.".to_string());
        // A message of several lines (ptxas's error and its `ptxas fatal`
        // line) becomes several comment lines: a line break inside one
        // would end the comment and leave text the parser refuses.
        let header: Vec<String> = header
            .iter()
            .flat_map(|h| h.lines().map(str::to_string))
            .collect();
        let expect = match Interp::new(self.program)
            .with_fuel(self.fuel)
            .run(self.inputs)
        {
            Ok(r) => reference_expect(self.program, &r),
            Err(_) => Expect::default(),
        };
        Case {
            header,
            program: self.program.clone(),
            inputs: self.inputs.clone(),
            expect,
        }
    }
}

impl fmt::Display for DivergenceCase<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&crate::text::print(&self.case()))
    }
}
