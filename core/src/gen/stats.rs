//! Counters: what was generated (each instruction form, each feature of
//! operands and control flow, each flavour of case), how much the repair
//! pass had to remove, how many cases were made undefined on purpose, and
//! how many runs were usable. cranelift-fuzzgen learned late that most of
//! its inputs were wasted; these say so from the first run.

use super::forms::all_forms;
use crate::interp::{Outcome, RunError, UbRule};
use crate::ir::Program;
use std::collections::BTreeMap;
use std::fmt;

/// Every feature the generator counts (see [`Stats::features`]).
pub const FEATURES: &[&str] = &[
    // Where a membermask comes from.
    "mask.converged",
    "mask.converged+exited",
    "mask.all-ones",
    "mask.activemask-reg",
    "mask.group-reg",
    "mask.mov-reg",
    "mask.guard-exec",
    "mask.dead-code",
    // Where a collective sits.
    "collective.guarded",
    "collective.divergent",
    "collective.exited-lanes",
    "collective.in-loop",
    // shfl operands.
    "shfl.b.imm",
    "shfl.b.imm>=32",
    "shfl.b.reg",
    "shfl.b.laneid",
    "shfl.c.full",
    "shfl.c.zero",
    "shfl.c.segment",
    "shfl.c.random",
    "shfl.c.reg",
    "shfl.p",
    // vote, match operands.
    "vote.not-a",
    "match.p",
    "match.sink-d",
    "match.sink-p",
    "match.imm",
    // Glue operands.
    "operand.imm",
    "operand.laneid",
    "setp.p|q",
    "guard",
    "guard.negated",
    // Control flow.
    "if",
    "if-else",
    "cond.lane",
    "cond.data",
    "cond.existing",
    "loop.do-while",
    "loop.while",
    "loop.nested",
    "loop.uniform-trips",
    "loop.lane-trips",
    "loop.data-trips",
    "exit.guarded",
    "exit.in-block",
];

/// Counters over many generated cases (and, optionally, their runs).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Stats {
    /// Cases generated.
    pub cases: u64,
    /// Instructions in the finished cases.
    pub insts: u64,
    /// Per form name ([`form_name`](super::form_name)), the instructions of
    /// that form in the finished cases.
    pub forms: BTreeMap<String, u64>,
    /// Per feature ([`FEATURES`]), how often the generator emitted it
    /// (counted at emission, before repairs).
    pub features: BTreeMap<&'static str, u64>,
    /// Cases per flavour: `sm_90`, `sm_70 deprecated` (PTX 6.3, with the
    /// non-`.sync` forms), `sm_100a` (with `.f32` `redux.sync`).
    pub flavors: BTreeMap<&'static str, u64>,
    /// Cases made undefined on purpose (one wrong membermask).
    pub ub_intended: u64,
    /// Per UB rule, the cases made undefined on purpose with it.
    pub ub_rules: BTreeMap<&'static str, u64>,
    /// Instructions the repair pass removed because a probe hit undefined
    /// behaviour or ran out of fuel (should stay rare).
    pub repairs: u64,
    /// Interpreter runs the generator made (probes, validation, UB
    /// injection): its main cost.
    pub probes: u64,
    /// Runs recorded with [`Stats::record_run`].
    pub runs: u64,
    /// Of those, the runs that finished without undefined behaviour.
    pub usable: u64,
    /// Of those, the runs that hit undefined behaviour.
    pub ub_runs: u64,
    /// Of those, the runs that ended in an interpreter error.
    pub errors: u64,
}

impl Stats {
    /// Counts one emitted feature (one of [`FEATURES`]).
    pub(crate) fn feature(&mut self, name: &'static str) {
        debug_assert!(FEATURES.contains(&name), "unknown feature {name}");
        *self.features.entry(name).or_default() += 1;
    }

    /// Counts a finished case.
    pub(crate) fn record_case(
        &mut self,
        prog: &Program,
        flavor: &'static str,
        repairs: u64,
        probes: u64,
        ub: Option<UbRule>,
    ) {
        self.probes += probes;
        self.cases += 1;
        self.insts += prog.insts.len() as u64;
        for inst in &prog.insts {
            *self.forms.entry(super::form_name(&inst.op)).or_default() += 1;
        }
        *self.flavors.entry(flavor).or_default() += 1;
        self.repairs += repairs;
        if let Some(rule) = ub {
            self.ub_intended += 1;
            *self.ub_rules.entry(rule.name()).or_default() += 1;
        }
    }

    /// Counts the interpreter's run of a case; returns whether it was
    /// usable (finished without undefined behaviour).
    pub fn record_run(&mut self, run: &Result<Outcome, RunError>) -> bool {
        self.runs += 1;
        match run {
            Ok(Outcome { ub: None, .. }) => {
                self.usable += 1;
                true
            }
            Ok(Outcome { ub: Some(_), .. }) => {
                self.ub_runs += 1;
                false
            }
            Err(_) => {
                self.errors += 1;
                false
            }
        }
    }

    /// Adds another set of counters (e.g. from another fuzzing thread).
    pub fn merge(&mut self, o: &Stats) {
        self.cases += o.cases;
        self.insts += o.insts;
        for (k, v) in &o.forms {
            *self.forms.entry(k.clone()).or_default() += v;
        }
        for (k, v) in &o.features {
            *self.features.entry(k).or_default() += v;
        }
        for (k, v) in &o.flavors {
            *self.flavors.entry(k).or_default() += v;
        }
        self.ub_intended += o.ub_intended;
        for (k, v) in &o.ub_rules {
            *self.ub_rules.entry(k).or_default() += v;
        }
        self.repairs += o.repairs;
        self.probes += o.probes;
        self.runs += o.runs;
        self.usable += o.usable;
        self.ub_runs += o.ub_runs;
        self.errors += o.errors;
    }

    /// The share of recorded runs that were usable (1.0 when none were).
    pub fn usable_share(&self) -> f64 {
        if self.runs == 0 {
            1.0
        } else {
            self.usable as f64 / self.runs as f64
        }
    }

    /// The forms of [`all_forms`] never generated.
    pub fn missing_forms(&self) -> Vec<String> {
        all_forms()
            .into_iter()
            .filter(|f| !self.forms.contains_key(f))
            .collect()
    }

    /// The features of [`FEATURES`] never emitted.
    pub fn missing_features(&self) -> Vec<&'static str> {
        FEATURES
            .iter()
            .copied()
            .filter(|f| !self.features.contains_key(f))
            .collect()
    }
}

/// Prints `name count` pairs in columns.
fn columns<'a>(
    f: &mut fmt::Formatter<'_>,
    items: impl Iterator<Item = (&'a str, u64)>,
) -> fmt::Result {
    let items: Vec<(&str, u64)> = items.collect();
    for row in items.chunks(3) {
        let cells: Vec<String> = row.iter().map(|(n, c)| format!("{n:<28}{c:>7}")).collect();
        writeln!(f, "  {}", cells.join("   "))?;
    }
    Ok(())
}

impl fmt::Display for Stats {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(
            f,
            "{} cases, {} instructions ({:.1} per case), {} repaired away, {:.1} interpreter runs per case",
            self.cases,
            self.insts,
            self.insts as f64 / self.cases.max(1) as f64,
            self.repairs,
            self.probes as f64 / self.cases.max(1) as f64
        )?;
        if self.runs > 0 {
            writeln!(
                f,
                "runs: {} usable of {} ({:.2} %), {} UB, {} errors",
                self.usable,
                self.runs,
                100.0 * self.usable_share(),
                self.ub_runs,
                self.errors
            )?;
        }
        let flavors: Vec<String> = self
            .flavors
            .iter()
            .map(|(k, v)| format!("{k}: {v}"))
            .collect();
        writeln!(f, "flavours: {}", flavors.join(", "))?;
        let rules: Vec<String> = self
            .ub_rules
            .iter()
            .map(|(k, v)| format!("{k}: {v}"))
            .collect();
        writeln!(
            f,
            "UB on purpose: {} cases ({})",
            self.ub_intended,
            rules.join(", ")
        )?;
        let forms = all_forms();
        writeln!(
            f,
            "forms ({} of {} generated):",
            forms.iter().filter(|n| self.forms.contains_key(*n)).count(),
            forms.len()
        )?;
        columns(
            f,
            forms
                .iter()
                .map(|n| (n.as_str(), self.forms.get(n).copied().unwrap_or(0))),
        )?;
        writeln!(f, "features:")?;
        columns(
            f,
            FEATURES
                .iter()
                .map(|n| (*n, self.features.get(n).copied().unwrap_or(0))),
        )
    }
}
