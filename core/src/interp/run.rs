//! [`Interp`], the reference interpreter of one warp program: its fuel,
//! its two passes (the second knowing which lanes come to an instruction
//! later, see `converge.rs`), and the [`Answers`] a run leaves for runs of
//! the same program on other data.

use super::converge::Trace;
use super::fuel::{OutOfFuel, DEFAULT_FUEL};
use super::warp::Warp;
use super::{schedule, target};
use crate::ir::{Inputs, Program};
use crate::outcome::Outcome;

/// The reference interpreter for one program.
#[derive(Clone, Debug)]
pub struct Interp<'p> {
    prog: &'p Program,
    fuel: u64,
    second_pass: bool,
    spec: bool,
}

impl<'p> Interp<'p> {
    /// An interpreter for `prog` with [`DEFAULT_FUEL`].
    pub fn new(prog: &'p Program) -> Self {
        Interp {
            prog,
            fuel: DEFAULT_FUEL,
            second_pass: true,
            spec: false,
        }
    }

    /// Runs once only: values whose definedness needs the second run
    /// (which lanes come to an instruction later, see `converge.rs`) stay
    /// undefined on those bits. Cheaper; what the generator's probes use,
    /// as they only need the path and a safe view of what is defined.
    pub fn single_pass(mut self) -> Self {
        self.second_pass = false;
        self
    }

    /// Runs in the *spec* convergence model (`Convergence::spec_model`,
    /// `converge.rs`) instead of the observed one: only what the ISA and
    /// the CUDA programming guide promise, "threads that are convergent at
    /// one point need not be at the next", so no lane is certainly with
    /// another without a `.sync` rendezvous. `activemask` is then defined
    /// on the lane's own bit and on lanes certainly exited or absent, and
    /// a non-`.sync` collective reads other lanes as undefined. The
    /// reference for an engine that promises no more than that
    /// ([`crate::engine::Engine::spec_convergence`]: a GPU whose lanes
    /// sleep for different times before each collective).
    pub fn spec_model(mut self) -> Self {
        self.spec = true;
        self
    }

    /// Sets the fuel (maximum warp steps).
    pub fn with_fuel(mut self, fuel: u64) -> Self {
        self.fuel = fuel;
        self
    }

    /// Runs one warp on `inputs`. With [`Inputs::fuel`] the run is bounded
    /// to that many warp steps and stopping is an outcome
    /// ([`Outcome::stop`]); without, the fuel is this interpreter's and
    /// running out is [`OutOfFuel`].
    ///
    /// When the first run leaves values defined only in part for want of
    /// knowing which lanes come to an instruction later (see
    /// `converge.rs`), a second run, taking the same path, knows it (unless
    /// the answers show nothing more certain than the first run assumed).
    pub fn run(&self, inputs: &Inputs) -> Result<Outcome, OutOfFuel> {
        Ok(self.run_keeping(inputs)?.0)
    }

    /// [`Interp::run`], also returning what its second run knew (when the
    /// run had no undefined behaviour), for [`Interp::run_reusing`].
    pub fn run_keeping(&self, inputs: &Inputs) -> Result<(Outcome, Option<Answers>), OutOfFuel> {
        let trace = if self.second_pass {
            Trace::default()
        } else {
            Trace::one_pass()
        };
        let (first, trace) = self.run_once(inputs, trace)?;
        if !self.second_pass || first.ub.is_some() {
            return Ok((first, None));
        }
        let exact = |path| Some(Answers { trace: None, path });
        if !trace.has_questions() {
            return Ok((first, exact(trace.path())));
        }
        let answered = trace.answered();
        if !answered.knows_more() {
            return Ok((first, exact(trace.path())));
        }
        let (second, again) = self.run_once(inputs, answered.share())?;
        let answers = second.ub.is_none().then(|| Answers {
            trace: Some(answered),
            path: again.path(),
        });
        Ok((second, answers))
    }

    /// Runs `inputs` in one pass with the answers of an earlier run of
    /// this program ([`Interp::run_keeping`]) on inputs that agree with
    /// these on every register that can reach control flow, a collective's
    /// participation or a `membermask` ([`crate::gen::control_regs`]): such
    /// runs take the same path for the scheduler, so they ask the same
    /// questions with the same answers. The run's path fingerprint is
    /// checked against the earlier run's; where they differ (inputs that
    /// do not agree after all), the full [`Interp::run`] answers instead.
    pub fn run_reusing(&self, inputs: &Inputs, answers: &Answers) -> Result<Outcome, OutOfFuel> {
        let trace = answers
            .trace
            .as_ref()
            .map_or_else(Trace::default, Trace::share);
        match self.run_once(inputs, trace) {
            Ok((out, t)) if out.ub.is_none() && t.path() == answers.path => Ok(out),
            _ => self.run(inputs),
        }
    }

    fn run_once(&self, inputs: &Inputs, trace: Trace) -> Result<(Outcome, Trace), OutOfFuel> {
        let prog = self.prog;
        let mut w = Warp::new(prog, trace);
        if self.spec {
            w.conv.spec_model();
        }
        w.load(inputs);
        if let Some(ub) = target::check(prog) {
            return Ok(w.finish(Some(ub), 0));
        }
        match inputs.fuel {
            Some(n) => schedule::run(w, n, true),
            None => schedule::run(w, self.fuel, false),
        }
    }
}

/// What a run learnt about which lanes are certainly absent where (see
/// `converge.rs`), with its path fingerprint: [`Interp::run_reusing`] runs
/// the same program on inputs that differ only in data in one pass.
#[derive(Clone, Debug)]
pub struct Answers {
    /// The answered questions, when the run needed its second pass;
    /// `None` when the first pass was exact.
    trace: Option<Trace>,
    /// The fingerprint of the pass whose outcome the run returned.
    path: u64,
}
