//! Checking an [`Outcome`] against a case's `.expect` lines.

use crate::compare::same_kind_nan;
use crate::ir::{Bits, Expect, Program, Reg, WARP};
use crate::outcome::Outcome;
use crate::text::format_bits;
use std::fmt;

/// One lane where a register differs from its `.expect`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Mismatch {
    /// The register.
    pub reg: Reg,
    /// The lane.
    pub lane: usize,
    /// Expected value and defined bits (nothing defined = `_`).
    pub expected: Bits,
    /// Actual value and defined bits.
    pub actual: Bits,
}

/// Every lane of every `.expect` register where `out` differs: a defined
/// bit differs, or (for an engine that knows definedness) the defined bits
/// themselves differ.
///
/// With `knows_undefined` false (engines other than the interpreter, which
/// report every bit as defined), only the bits `.expect` defines are
/// checked. Where `reference` (the interpreter's run of the same case)
/// holds a NaN whose bits PTX leaves open ([`Outcome::nan_open`]) and the
/// `.expect` value is a NaN, any NaN matches.
pub fn check_expect(
    expect: &Expect,
    out: &Outcome,
    knows_undefined: bool,
    reference: Option<&Outcome>,
) -> Vec<Mismatch> {
    let mut v = Vec::new();
    for (reg, want) in &expect.regs {
        for (lane, &expected) in want.iter().enumerate().take(WARP) {
            let actual = out.bits(*reg, lane);
            let open = reference.is_some_and(|r| r.nan_open(*reg, lane));
            let both_nan = open
                && expected.defined != 0
                && same_kind_nan(expected.value, expected.value)
                && same_kind_nan(expected.value, actual.value);
            let differs = if knows_undefined {
                expected.defined != actual.defined
                    || (expected.value ^ actual.value) & expected.defined != 0
            } else {
                !expected.covers(Bits::new(actual.value, u64::MAX))
            };
            if differs && !both_nan {
                v.push(Mismatch {
                    reg: *reg,
                    lane,
                    expected,
                    actual,
                });
            }
        }
    }
    v
}

/// Whether a bounded run (`.fuel`) stopped where `.stop` says: `None`
/// when it did (or neither stopped), else what happened instead.
pub fn check_stop(expect: &Expect, out: &Outcome) -> Option<String> {
    match (expect.stop, out.stop) {
        (None, None) => None,
        (Some(want), Some(s)) if s.line == want => None,
        (Some(want), Some(s)) => Some(format!(
            "ran out of fuel before line {}, `.stop` says before line {want}",
            s.line
        )),
        (Some(want), None) => Some(format!(
            "ran to its end, `.stop` says it runs out of fuel before line {want}"
        )),
        (None, Some(s)) => Some(format!(
            "ran out of fuel before line {} (after {} warp steps), and no `.stop` says so",
            s.line, out.steps
        )),
    }
}

/// Prints mismatches one per line: `Ry lane 3: expected 0x5, got _`.
pub struct MismatchReport<'a> {
    /// The program (for register names and types).
    pub program: &'a Program,
    /// The mismatches.
    pub mismatches: &'a [Mismatch],
}

impl fmt::Display for MismatchReport<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for m in self.mismatches {
            let d = self.program.decl(m.reg);
            writeln!(
                f,
                "  {} lane {}: expected {}, got {}",
                d.name,
                m.lane,
                format_bits(m.expected, d.ty),
                format_bits(m.actual, d.ty)
            )?;
        }
        Ok(())
    }
}
