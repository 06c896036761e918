//! The state of one reduction: the smallest interesting case so far, the
//! predicate, the set of candidates already tried, and the counters.
//! Passes propose candidates through [`Search::try_case`].

use crate::gen::TestCase;
use crate::interp::Interp;
use crate::ir::*;
use crate::rng::Rng;
use crate::text;
use std::collections::hash_map::DefaultHasher;
use std::collections::HashSet;
use std::hash::{Hash, Hasher};

/// The order cases are reduced in, compared field by field: fewer
/// instructions first, then fewer registers, then simpler lane inputs,
/// then a simpler body. Every accepted candidate is strictly smaller, so a
/// reduction always ends.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub(crate) struct Size {
    /// Body instructions.
    pub insts: usize,
    /// Declared registers.
    pub regs: usize,
    /// Complexity of the `.lanes` inputs (see [`inputs_cost`]).
    pub inputs: u64,
    /// Complexity of the body and directives (see [`body_cost`]).
    pub body: u64,
}

impl Size {
    /// The size of `tc`.
    pub(crate) fn of(tc: &TestCase) -> Size {
        Size {
            insts: tc.program.insts.len(),
            regs: tc.program.regs.len(),
            inputs: inputs_cost(&tc.inputs),
            body: body_cost(&tc.program),
        }
    }
}

/// Complexity of one value: its bit length plus its set bits (0 is 0, and
/// clearing any bit makes a value simpler).
pub(crate) fn value_cost(v: u64) -> u64 {
    (64 - v.leading_zeros() + v.count_ones()) as u64
}

/// Complexity of the inputs: 1 for `.fuel`; per `.lanes` line 1, plus the value's cost
/// when all lanes agree, or a large constant plus every lane's cost when
/// they differ (a broadcast is always simpler than a per-lane list).
pub(crate) fn inputs_cost(inputs: &Inputs) -> u64 {
    inputs
        .lanes
        .iter()
        .map(|(_, v)| {
            if v.iter().all(|x| *x == v[0]) {
                1 + value_cost(v[0])
            } else {
                1 + 10_000 + v.iter().map(|x| value_cost(*x)).sum::<u64>()
            }
        })
        .sum::<u64>()
        // A bounded run is the more complex case: `.fuel` costs 1.
        + inputs.fuel.is_some() as u64
}

/// Cost of a source operand: any register costs more than any immediate,
/// `%laneid` more than a small immediate.
fn operand_cost(o: Operand) -> u64 {
    match o {
        Operand::Reg(_) => 200,
        Operand::NotPred(_) => 201,
        Operand::LaneId => 20,
        Operand::Imm(v) => 1 + value_cost(v),
    }
}

/// Cost of a destination: a register more than the sink `_`.
fn dest_cost(d: Dest) -> u64 {
    match d {
        Dest::Reg(_) => 20,
        Dest::Sink => 1,
    }
}

/// 64-bit types cost a little more than 32-bit ones.
fn type_cost(ty: Type) -> u64 {
    match ty.bits() {
        64 => 2,
        _ => 0,
    }
}

/// Complexity of the body: per instruction a base cost by kind
/// (collectives above glue above `mov`), its guard, its operands and
/// destinations and 64-bit types; plus 64-bit registers, and 1 unless the
/// directives are the default `.version 9.1` / `.target sm_90`.
pub(crate) fn body_cost(prog: &Program) -> u64 {
    let mut cost = 0;
    if prog.version != Version::default() || prog.target != Target::default() {
        cost += 1;
    }
    cost += prog.regs.iter().map(|r| type_cost(r.ty)).sum::<u64>();
    cost += prog.labels.len() as u64 * 5;
    for inst in &prog.insts {
        if let Some(g) = inst.guard {
            cost += 30 + g.negated as u64;
        }
        cost += match &inst.op {
            Op::Shfl(Shfl { membermask, .. }) | Op::Vote(Vote { membermask, .. }) => {
                60 + membermask.is_none() as u64
            }
            Op::Match(m) => 60 + 2 * m.wide as u64,
            Op::Redux(_) => 60,
            Op::Activemask(_) => 40,
            Op::Glue(g) => match g {
                Glue::Mov { ty, .. } => 2 + type_cost(*ty),
                Glue::Bin { ty, .. } | Glue::Un { ty, .. } | Glue::Selp { ty, .. } => {
                    8 + type_cost(*ty)
                }
                Glue::Setp { ty, combine, .. } => {
                    10 + type_cost(*ty) + 3 * combine.is_some() as u64
                }
            },
            Op::Control(Control::Bra { .. }) => 10,
            Op::Control(Control::Exit) => 5,
            Op::LaneOp(_) => 20,
        };
        for (o, _, _) in inst.op.sources() {
            cost += operand_cost(o);
        }
        for (d, _) in inst.op.dests() {
            cost += dest_cost(d);
        }
    }
    cost
}

/// Checks that `tc` prints and parses back to itself and runs on the
/// reference interpreter within `fuel` without undefined behaviour.
/// Returns the parsed case (whose line numbers match the printed text) and
/// the number of warp steps it ran.
pub(crate) fn validate(tc: &TestCase, text: &str, fuel: u64) -> Result<(TestCase, u64), String> {
    let case = text::parse(text).map_err(|e| format!("does not parse back: {e}"))?;
    if case.program != tc.program || case.inputs != tc.inputs {
        return Err("printing and parsing back gives a different case".to_string());
    }
    let out = Interp::new(&case.program)
        .with_fuel(fuel)
        .run(&case.inputs)
        .map_err(|e| e.to_string())?;
    if let Some(ub) = out.ub {
        return Err(ub.to_string());
    }
    Ok((
        TestCase {
            program: case.program,
            inputs: case.inputs,
        },
        out.steps,
    ))
}

/// The key of a printed candidate in the set of those tried.
fn key(text: &str) -> (u64, usize) {
    let mut h = DefaultHasher::new();
    text.hash(&mut h);
    (h.finish(), text.len())
}

/// The callback told of every new smallest case.
pub(crate) type OnNew<'a> = Box<dyn FnMut(&TestCase) + 'a>;

/// One reduction in progress.
pub(crate) struct Search<'p, 'a> {
    /// The smallest interesting case so far.
    cur: TestCase,
    /// Its size.
    size: Size,
    /// The user's predicate.
    predicate: &'p mut dyn FnMut(&TestCase) -> bool,
    /// Called on every new smallest case.
    on_new: Option<OnNew<'a>>,
    /// Keys of every candidate already printed (valid or not).
    seen: HashSet<(u64, usize)>,
    /// Predicate calls so far.
    pub tried: usize,
    /// Candidates accepted so far.
    pub accepted: usize,
    /// The most predicate calls allowed.
    attempts: usize,
    /// Fuel for validating candidates.
    pub fuel: u64,
    /// The seeded generator.
    pub rng: Rng,
}

impl<'p, 'a> Search<'p, 'a> {
    /// A search from `start`, which must already be valid and interesting
    /// (`tried` predicate calls were spent checking that).
    #[allow(clippy::too_many_arguments)]
    pub(crate) fn new(
        start: TestCase,
        predicate: &'p mut dyn FnMut(&TestCase) -> bool,
        on_new: Option<OnNew<'a>>,
        attempts: usize,
        fuel: u64,
        rng: Rng,
        tried: usize,
    ) -> Self {
        let mut seen = HashSet::new();
        seen.insert(key(&text::print(&start.to_case())));
        Search {
            size: Size::of(&start),
            cur: start,
            predicate,
            on_new,
            seen,
            tried,
            accepted: 0,
            attempts,
            fuel,
            rng,
        }
    }

    /// The smallest interesting case so far.
    pub(crate) fn cur(&self) -> &TestCase {
        &self.cur
    }

    /// The smallest case, consuming the search.
    pub(crate) fn into_case(self) -> TestCase {
        self.cur
    }

    /// Whether the predicate-call budget is spent.
    pub(crate) fn exhausted(&self) -> bool {
        self.tried >= self.attempts
    }

    /// Calls `f` with each instruction index of the current case, from the
    /// last backwards (so deleting instruction `i` leaves the earlier ones
    /// where they were), until the budget is spent; an index that an
    /// accepted deletion left past the end is skipped.
    pub(crate) fn each_inst_backwards(&mut self, mut f: impl FnMut(&mut Self, usize)) {
        let mut i = self.cur().program.insts.len();
        while i > 0 && !self.exhausted() {
            i -= 1;
            if i < self.cur().program.insts.len() {
                f(self, i);
            }
        }
    }

    /// Proposes `cand`. It is skipped (without a predicate call) when the
    /// budget is spent, when it is not smaller than the current case, when
    /// it was tried before, or when it is invalid; otherwise the predicate
    /// decides. Returns whether it became the current case.
    pub(crate) fn try_case(&mut self, cand: TestCase) -> bool {
        if self.exhausted() {
            return false;
        }
        let size = Size::of(&cand);
        if size >= self.size {
            return false;
        }
        let text = text::print(&cand.to_case());
        if !self.seen.insert(key(&text)) {
            return false;
        }
        let Ok((cand, _)) = validate(&cand, &text, self.fuel) else {
            return false;
        };
        self.tried += 1;
        if !(self.predicate)(&cand) {
            return false;
        }
        self.accepted += 1;
        if let Some(f) = &mut self.on_new {
            f(&cand);
        }
        self.cur = cand;
        self.size = size;
        true
    }
}
