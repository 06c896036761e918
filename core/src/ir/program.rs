//! A warp program ([`Program`]: its `.version`, `.target`, registers,
//! body and labels) and the case around it: [`Inputs`], the expected
//! values ([`Expect`], bit by bit as [`Bits`]), the whole [`Case`].

use super::inst::{Control, Inst, Op};
use super::regs::{Label, LabelId, Reg, RegDecl};
use super::types::{Type, WARP};
use std::fmt;

/// A `.target sm_NN[a|f]` directive.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Target {
    /// The architecture number (`90` for `sm_90`).
    pub sm: u32,
    /// `a` (architecture-specific) or `f` (family) suffix, if any.
    pub suffix: Option<char>,
}

impl Default for Target {
    fn default() -> Self {
        Target {
            sm: 90,
            suffix: None,
        }
    }
}

impl fmt::Display for Target {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "sm_{}", self.sm)?;
        if let Some(c) = self.suffix {
            write!(f, "{c}")?;
        }
        Ok(())
    }
}

/// A `.version MAJOR.MINOR` directive.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Version {
    /// Major number.
    pub major: u32,
    /// Minor number.
    pub minor: u32,
}

impl Version {
    /// Builds a version.
    pub const fn new(major: u32, minor: u32) -> Self {
        Version { major, minor }
    }
}

impl Default for Version {
    fn default() -> Self {
        Version::new(9, 1)
    }
}

impl fmt::Display for Version {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}.{}", self.major, self.minor)
    }
}

/// A warp program.
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash)]
pub struct Program {
    /// `.version` (default 9.1).
    pub version: Version,
    /// `.target` (default `sm_90`).
    pub target: Target,
    /// Declared registers, in declaration order.
    pub regs: Vec<RegDecl>,
    /// The body.
    pub insts: Vec<Inst>,
    /// Labels, in the order they appear.
    pub labels: Vec<Label>,
}

impl Program {
    /// Looks a register up by name.
    pub fn reg(&self, name: &str) -> Option<Reg> {
        self.regs
            .iter()
            .position(|r| r.name == name)
            .map(|i| Reg(i as u32))
    }

    /// The declaration of a register.
    pub fn decl(&self, r: Reg) -> &RegDecl {
        &self.regs[r.index()]
    }

    /// The instruction index a label stands before.
    pub fn label_target(&self, l: LabelId) -> usize {
        self.labels[l.0 as usize].at
    }

    /// Where control may go after instruction `i`, for one lane: the next
    /// instruction, a branch's label, both for a guarded branch, nowhere
    /// after an unguarded `exit`. The end of the program is index
    /// `insts.len()`.
    pub fn successors(&self, i: usize) -> Vec<usize> {
        let x = &self.insts[i];
        let guarded = x.guard.is_some();
        match &x.op {
            Op::Control(Control::Bra { target }) => {
                let t = self.label_target(*target);
                if guarded {
                    vec![i + 1, t]
                } else {
                    vec![t]
                }
            }
            Op::Control(Control::Exit) => {
                if guarded {
                    vec![i + 1]
                } else {
                    Vec::new()
                }
            }
            Op::Shfl(_)
            | Op::Vote(_)
            | Op::Match(_)
            | Op::Redux(_)
            | Op::Activemask(_)
            | Op::Glue(_)
            | Op::LaneOp(_) => vec![i + 1],
        }
    }
}

/// Per-lane initial register values (`.lanes`): lanes not given are
/// undefined at the start.
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash)]
pub struct Inputs {
    /// `(register, value of each lane)`, in the order written.
    pub lanes: Vec<(Reg, [u64; WARP])>,
    /// `.fuel N`: the run is *bounded* to `N` warp steps, and running out
    /// is an outcome (the state where it stopped, and the instruction it
    /// stopped before: [`Outcome::stop`](crate::outcome::Outcome::stop)),
    /// compared between engines like any other. `None`: the engine's own
    /// fuel, and running out is an error.
    pub fuel: Option<u64>,
}

impl Inputs {
    /// The initial values of `r`, if given.
    pub fn get(&self, r: Reg) -> Option<&[u64; WARP]> {
        self.lanes.iter().find(|(x, _)| *x == r).map(|(_, v)| v)
    }
}

/// One lane of a register as far as it is known: its value on the bits
/// that are defined. `.expect` writes it as `_` (nothing defined), a plain
/// value (every bit of the register's type defined), or `VALUE:MASK` (only
/// the bits of `MASK` defined, e.g. `activemask` whose other lanes' bits
/// depend on scheduling).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Bits {
    /// The value; bits outside `defined` are 0.
    pub value: u64,
    /// The defined bits.
    pub defined: u64,
}

impl Bits {
    /// Nothing defined (`_`).
    pub const UNDEFINED: Bits = Bits {
        value: 0,
        defined: 0,
    };

    /// `value` on the bits of `defined` (the others cleared).
    pub fn new(value: u64, defined: u64) -> Bits {
        Bits {
            value: value & defined,
            defined,
        }
    }

    /// Every bit of a `ty` value defined.
    pub fn full(value: u64, ty: Type) -> Bits {
        Bits::new(value, ty.mask())
    }

    /// `Some(value)` as [`Bits::full`], `None` as [`Bits::UNDEFINED`].
    pub fn from_option(v: Option<u64>, ty: Type) -> Bits {
        v.map_or(Bits::UNDEFINED, |x| Bits::full(x, ty))
    }

    /// The value when every bit of a `ty` value is defined.
    pub fn as_full(self, ty: Type) -> Option<u64> {
        (self.defined & ty.mask() == ty.mask()).then_some(self.value)
    }

    /// Whether `other` agrees with this on every bit this defines and
    /// defines at least those bits.
    pub fn covers(self, other: Bits) -> bool {
        other.defined & self.defined == self.defined
            && (other.value ^ self.value) & self.defined == 0
    }
}

/// Expected final values (`.expect`), bit by bit where only some bits are
/// defined.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Expect {
    /// `(register, expected value of each lane)`, in the order written.
    pub regs: Vec<(Reg, [Bits; WARP])>,
    /// `.stop LINE`: the bounded run (`.fuel`) runs out of fuel before the
    /// instruction on that line.
    pub stop: Option<u32>,
}

/// A whole test case as a `.ptx` file holds it.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Case {
    /// The `//` comment lines before the first directive, without `//`.
    pub header: Vec<String>,
    /// The program.
    pub program: Program,
    /// Its inputs.
    pub inputs: Inputs,
    /// Expected results, if the file has any.
    pub expect: Expect,
}
