//! Checking an [`Outcome`] against a case's `.expect` lines.

use crate::compare::is_nan_bits;
use crate::interp::Outcome;
use crate::ir::{Expect, Program, Reg, WARP};
use crate::text::format_value;
use std::fmt;

/// One lane where a register differs from its `.expect`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Mismatch {
    /// The register.
    pub reg: Reg,
    /// The lane.
    pub lane: usize,
    /// Expected value (`None` = expected undefined).
    pub expected: Option<u64>,
    /// Actual value (`None` = undefined).
    pub actual: Option<u64>,
}

/// Every lane of every `.expect` register where `out` differs: a value
/// differs bit for bit, or one side is undefined and the other is not.
///
/// With `knows_undefined` false (engines other than the interpreter, which
/// report every lane as defined), lanes expected undefined (`_`) are not
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
            if expected.is_none() && !knows_undefined {
                continue;
            }
            let actual = out.get(*reg, lane);
            let open = reference.is_some_and(|r| r.nan_open(*reg, lane));
            let both_nan = matches!((expected, actual), (Some(e), Some(a)) if is_nan_bits(e) && is_nan_bits(a));
            if actual != expected && !(open && both_nan) {
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
            let show = |v: Option<u64>| match v {
                Some(x) => format_value(x, d.ty),
                None => "_".to_string(),
            };
            writeln!(
                f,
                "  {} lane {}: expected {}, got {}",
                d.name,
                m.lane,
                show(m.expected),
                show(m.actual)
            )?;
        }
        Ok(())
    }
}
