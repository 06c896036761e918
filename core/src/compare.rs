//! Comparing an engine's [`Outcome`] with the reference interpreter's: every
//! register on every lane, on the bits the reference defines, bit for bit —
//! except where the reference holds a NaN whose bits PTX leaves open
//! ([`Outcome::nan_open`]), which any NaN matches — the exited-lane
//! mask, and where a bounded run (`.fuel`) stopped.

use crate::ir::{Program, Reg};
use crate::outcome::Outcome;
use crate::text::{format_bits, format_value};
use std::fmt;

/// One difference between the reference and another engine.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Diff {
    /// Defined bits of a register lane differ.
    Lane {
        /// The register.
        reg: Reg,
        /// The lane.
        lane: usize,
        /// The reference value.
        reference: u64,
        /// The bits of it the reference defines.
        defined: u64,
        /// The other engine's value.
        other: u64,
    },
    /// The lanes that exited differ.
    Exited {
        /// The reference mask.
        reference: u32,
        /// The other engine's mask.
        other: u32,
    },
    /// A bounded run stopped before a different instruction, or one
    /// stopped and the other ran to its end (`None`).
    Stop {
        /// The line the reference stopped before.
        reference: Option<u32>,
        /// The line the other engine stopped before.
        other: Option<u32>,
    },
}

/// Every difference of `other` from `reference` on the bits the reference
/// defines (empty when they agree). `reference` must be a run without UB.
pub fn compare(reference: &Outcome, other: &Outcome) -> Vec<Diff> {
    let mut v = Vec::new();
    let (rs, os) = (reference.stop.map(|s| s.line), other.stop.map(|s| s.line));
    if rs != os {
        v.push(Diff::Stop {
            reference: rs,
            other: os,
        });
    }
    if reference.exited != other.exited {
        v.push(Diff::Exited {
            reference: reference.exited,
            other: other.exited,
        });
    }
    for (r, vals) in reference.values.iter().enumerate() {
        let reg = Reg(r as u32);
        for (lane, (&a, &b)) in vals.iter().zip(&other.values[r]).enumerate() {
            let defined = reference.bits(reg, lane).defined;
            if defined == 0 {
                continue;
            }
            let differs = if reference.nan_open(reg, lane) {
                !same_kind_nan(a, b)
            } else {
                (a ^ b) & defined != 0
            };
            if differs {
                v.push(Diff::Lane {
                    reg,
                    lane,
                    reference: a,
                    defined,
                    other: b,
                });
            }
        }
    }
    v
}

/// Whether the low 32 bits are an f32 NaN.
pub(crate) fn is_nan_bits(x: u64) -> bool {
    x as u32 & 0x7fff_ffff > 0x7f80_0000
}

/// Whether `other` is a NaN of the width of `nan`, a NaN whose bits PTX
/// leaves open: an f64 NaN (its upper word holds the exponent) where
/// `nan` is one, else an f32 NaN (open NaNs live in `.f32` and `.f64`
/// registers: float results and their copies).
pub(crate) fn same_kind_nan(nan: u64, other: u64) -> bool {
    if nan >> 32 != 0 {
        other & 0x7fff_ffff_ffff_ffff > 0x7ff0_0000_0000_0000
    } else {
        is_nan_bits(other)
    }
}

/// Prints differences one per line, naming registers.
pub struct DiffReport<'a> {
    /// The program (for names and types).
    pub program: &'a Program,
    /// Name of the reference engine.
    pub reference: &'a str,
    /// Name of the other engine.
    pub other: &'a str,
    /// The differences.
    pub diffs: &'a [Diff],
}

impl fmt::Display for DiffReport<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for d in self.diffs {
            match d {
                Diff::Lane {
                    reg,
                    lane,
                    reference,
                    defined,
                    other,
                } => {
                    let decl = self.program.decl(*reg);
                    writeln!(
                        f,
                        "  {} lane {lane}: {} {}, {} {}",
                        decl.name,
                        self.reference,
                        format_bits(crate::ir::Bits::new(*reference, *defined), decl.ty),
                        self.other,
                        format_value(*other, decl.ty)
                    )?;
                }
                Diff::Exited { reference, other } => writeln!(
                    f,
                    "  exited lanes: {} {reference:#010x}, {} {other:#010x}",
                    self.reference, self.other
                )?,
                Diff::Stop { reference, other } => {
                    let at = |s: &Option<u32>| match s {
                        Some(l) => format!("out of fuel before line {l}"),
                        None => "ran to its end".to_string(),
                    };
                    writeln!(
                        f,
                        "  bounded run: {} {}, {} {}",
                        self.reference,
                        at(reference),
                        self.other,
                        at(other)
                    )?
                }
            }
        }
        Ok(())
    }
}
