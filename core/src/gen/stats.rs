//! Counters: what was generated (each instruction form, each feature of
//! operands and control flow, each flavour of case), how much the repair
//! pass had to remove, how many cases were made undefined on purpose, and
//! how many runs were usable. cranelift-fuzzgen learned late that most of
//! its inputs were wasted; these say so from the first run.

use super::shapes::{loops, shapes, SHAPES};
use crate::interp::OutOfFuel;
use crate::ir::all_forms;
use crate::ir::{Inputs, Program};
use crate::outcome::{Outcome, Seen};
use crate::phases::Phases;
use crate::ub::UbRule;
use std::collections::BTreeMap;
use std::fmt;
use std::time::Duration;

/// The contexts an executed instruction is counted in for the blind-spot
/// report ([`Stats::blind_spots`]): run with every live lane (`converged`)
/// or without some (`divergent`), inside a loop, after some lane exited,
/// under a `@p` guard. Taken from the reference's run (the first three of
/// the run, the loop from the program's branches).
pub const CONTEXTS: &[&str] = &[
    "converged",
    "divergent",
    "in a loop",
    "after exit",
    "under a guard",
];

/// Every feature the generator counts (see [`Stats::features`]).
pub const FEATURES: &[&str] = &[
    // Where a membermask comes from.
    "mask.converged",
    "mask.converged+exited",
    "mask.all-ones",
    "mask.activemask-reg",
    "mask.group-reg",
    "mask.match-any-reg",
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
    "loop.at-pc0",
    "loop.two-entries",
    "loop.two-back-edges",
    "jump.forward",
    "jump.out-of-loop",
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
    /// Per form name ([`Op::form_name`](crate::ir::Op::form_name)), the instructions of
    /// that form in the finished cases.
    pub forms: BTreeMap<String, u64>,
    /// Per feature ([`FEATURES`]), how often the generator emitted it
    /// (counted at emission, before repairs).
    pub features: BTreeMap<&'static str, u64>,
    /// Per form, the contexts ([`CONTEXTS`], bit `i` for `CONTEXTS[i]`) in
    /// which an instruction of that form was executed in the runs recorded
    /// with [`Stats::record_contexts`].
    pub contexts: BTreeMap<String, u8>,
    /// Per control-flow shape ([`SHAPES`]), the finished cases that have it.
    pub shapes: BTreeMap<&'static str, u64>,
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
    /// Instructions removed because they made an idiom the config avoids.
    pub avoided: u64,
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
    /// Register lanes (declared registers × 32) at the end of the runs
    /// recorded with [`Stats::record_definedness`].
    pub reg_lanes: u64,
    /// Of those, the lanes whose value is defined: how much the reference
    /// lets the other engines be compared on.
    pub defined_lanes: u64,
    /// Where the time went (filled by the fuzz loop).
    pub phases: Phases,
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
        inputs: &Inputs,
        flavor: &'static str,
        repairs: u64,
        probes: u64,
        ub: Option<UbRule>,
    ) {
        self.probes += probes;
        self.cases += 1;
        self.insts += prog.insts.len() as u64;
        for inst in &prog.insts {
            *self.forms.entry(inst.op.form_name()).or_default() += 1;
        }
        for shape in shapes(prog, inputs) {
            *self.shapes.entry(shape).or_default() += 1;
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
    pub fn record_run(&mut self, run: &Result<Outcome, OutOfFuel>) -> bool {
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

    /// Records in which contexts each instruction of `prog` was executed in
    /// the reference's runs `outs` of it (see [`CONTEXTS`]). The runs of
    /// one program (its input sets) are recorded together: the program's
    /// loops and each instruction's form name are worked out once, not
    /// once per run (a fuzzing run checks 8 or 64 input sets a program).
    pub fn record_contexts<'a>(
        &mut self,
        prog: &Program,
        outs: impl IntoIterator<Item = &'a Outcome>,
    ) {
        // The flags of every run, per instruction.
        let mut seen = vec![0u8; prog.insts.len()];
        for out in outs {
            for (s, r) in seen.iter_mut().zip(&out.seen) {
                *s |= r.0;
            }
        }
        if seen.iter().all(|&s| !Seen(s).has(Seen::RAN)) {
            return;
        }
        let loops = loops(prog);
        for (pc, (inst, &seen)) in prog.insts.iter().zip(&seen).enumerate() {
            let seen = Seen(seen);
            if !seen.has(Seen::RAN) {
                continue;
            }
            let flags = [
                seen.has(Seen::CONVERGED),
                seen.has(Seen::DIVERGENT),
                loops.iter().any(|&(h, b)| h <= pc && pc <= b),
                seen.has(Seen::AFTER_EXIT),
                inst.guard.is_some(),
            ];
            let bits = flags
                .iter()
                .enumerate()
                .fold(0u8, |m, (i, &f)| m | (u8::from(f) << i));
            *self.contexts.entry(inst.op.form_name()).or_default() |= bits;
        }
    }

    /// The forms never executed in each context of [`CONTEXTS`] (among
    /// the runs recorded with [`Stats::record_contexts`]).
    pub fn blind_spots(&self) -> Vec<(&'static str, Vec<String>)> {
        let forms = all_forms();
        CONTEXTS
            .iter()
            .enumerate()
            .map(|(i, &c)| {
                let never = forms
                    .iter()
                    .filter(|f| self.contexts.get(*f).is_none_or(|b| b >> i & 1 == 0))
                    .cloned()
                    .collect();
                (c, never)
            })
            .collect()
    }

    /// Counts how much of a finished run's final state is defined.
    pub fn record_definedness(&mut self, out: &Outcome) {
        self.reg_lanes += out.values.len() as u64 * crate::ir::WARP as u64;
        self.defined_lanes += out
            .defined
            .iter()
            .map(|d| d.count_ones() as u64)
            .sum::<u64>();
    }

    /// The share of register lanes that ended defined (1.0 when none were
    /// recorded).
    pub fn defined_share(&self) -> f64 {
        if self.reg_lanes == 0 {
            1.0
        } else {
            self.defined_lanes as f64 / self.reg_lanes as f64
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
        for (k, v) in &o.contexts {
            *self.contexts.entry(k.clone()).or_default() |= v;
        }
        for (k, v) in &o.shapes {
            *self.shapes.entry(k).or_default() += v;
        }
        for (k, v) in &o.flavors {
            *self.flavors.entry(k).or_default() += v;
        }
        self.ub_intended += o.ub_intended;
        for (k, v) in &o.ub_rules {
            *self.ub_rules.entry(k).or_default() += v;
        }
        self.repairs += o.repairs;
        self.avoided += o.avoided;
        self.probes += o.probes;
        self.runs += o.runs;
        self.usable += o.usable;
        self.ub_runs += o.ub_runs;
        self.errors += o.errors;
        self.reg_lanes += o.reg_lanes;
        self.defined_lanes += o.defined_lanes;
        self.phases.add(&o.phases);
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

    /// The shapes of [`SHAPES`] no case had.
    pub fn missing_shapes(&self) -> Vec<&'static str> {
        SHAPES
            .iter()
            .copied()
            .filter(|f| !self.shapes.contains_key(f))
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
            "{} programs, {} instructions ({:.1} per program), {} repaired away, {} removed as avoided idioms, {:.1} interpreter runs per program while generating",
            self.cases,
            self.insts,
            self.insts as f64 / self.cases.max(1) as f64,
            self.repairs,
            self.avoided,
            self.probes as f64 / self.cases.max(1) as f64
        )?;
        if self.runs > 0 {
            writeln!(
                f,
                "input sets: {} compared of {} ({:.2} %), {} with undefined behaviour, {} unfinished; register lanes defined at the end: {:.2} %",
                self.usable,
                self.runs,
                100.0 * self.usable_share(),
                self.ub_runs,
                self.errors,
                100.0 * self.defined_share()
            )?;
        }
        if self.phases.total() > Duration::ZERO {
            writeln!(
                f,
                "time (CPU workers, summed): {}; {:.0} µs per generated program",
                self.phases,
                1e6 * self.phases.total().as_secs_f64() / self.cases.max(1) as f64
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
            "UB on purpose: {} programs ({})",
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
        writeln!(f, "control-flow shapes (programs with each):")?;
        columns(
            f,
            SHAPES
                .iter()
                .map(|n| (*n, self.shapes.get(n).copied().unwrap_or(0))),
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
