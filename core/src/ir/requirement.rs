//! Which `.version` and `.target` each instruction needs, from the ISA
//! pages' "PTX ISA Notes" and "Target ISA Notes", and the check of a
//! program's directives against it. The interpreter reports a refusal as
//! undefined behaviour, the generator picks what its directives allow, the
//! reducer keeps directives an instruction needs, and the PTX emitter picks
//! the module's directives from it.
//!
//! From the ISA pages:
//! - `shfl.sync`, `vote.sync`: "Introduced in PTX ISA version 6.0",
//!   "Requires `sm_30` or higher".
//! - `shfl`, `vote` (deprecated): "Not supported in PTX ISA version 6.4 for
//!   .target `sm_70` or higher" (PTX ISA 6.4 release notes: "Support for
//!   `shfl` and `vote` instructions without the `.sync` qualifier has been
//!   removed for `.target sm_70` and higher"); each form otherwise from its
//!   own page: `shfl` "Introduced in PTX ISA version 3.0", "requires `sm_30`
//!   or higher"; `vote` "Introduced in PTX ISA version 1.2", "requires
//!   `sm_12` or higher", and `vote.ballot.b32` "requires `sm_20` or higher"
//!   (PTX ISA 2.0 release notes: "A *vote ballot* instruction,
//!   `vote.ballot.b32`, has been added"). So real compiler output such as
//!   `vote.all.pred` at `.version 2.1` / `.target sm_20` is allowed.
//! - `match.sync`: PTX 6.0, "Requires `sm_70` or higher".
//! - `redux.sync`: "Introduced in PTX ISA version 7.0", "Requires `sm_80` or
//!   higher"; "`.f32` type requires `sm_100a` and is supported on `sm_100f`
//!   from PTX ISA version 8.8", likewise `.abs` and `.NaN` ("on `sm_100f` or
//!   higher in the same family"); `.f32`, `.abs`, `.NaN` need PTX 8.6.
//! - `activemask`: PTX 6.2, sm_30.

use super::*;
use std::fmt;

/// What an instruction needs of the program's `.version` and `.target`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Requirement {
    /// Nothing beyond what every `.version`/`.target` allows (the glue and
    /// control flow).
    Any,
    /// Introduced in PTX ISA `version`; requires `.target sm_{sm}` or
    /// higher.
    Since {
        /// The first PTX ISA version that has it.
        version: Version,
        /// The lowest `.target`.
        sm: u32,
    },
    /// A deprecated non-`.sync` `shfl`/`vote`: introduced in PTX ISA
    /// `version` for `.target sm_{sm}` or higher (each form's own page),
    /// and "not supported in PTX ISA version 6.4 for .target sm_70 or
    /// higher".
    Deprecated {
        /// The first PTX ISA version that has the form.
        version: Version,
        /// The lowest `.target`.
        sm: u32,
    },
    /// An `.f32` `redux.sync` (with or without `.abs`/`.NaN`): PTX 8.6 and
    /// sm_80 like every `redux.sync` form with them, then `.target
    /// sm_100a`, or the sm_100f family from PTX 8.8.
    ReduxF32,
}

/// Why a program's `.version`/`.target` does not allow an instruction.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Refusal {
    /// It needs this PTX ISA version or later.
    Version(Version),
    /// It needs `.target sm_NN` (this number) or higher.
    Target(u32),
    /// A deprecated non-`.sync` form at PTX 6.4 or later on sm_70 or
    /// higher.
    Deprecated,
    /// An `.f32` `redux.sync` on a target that is neither sm_100a nor of
    /// the sm_100f family at PTX 8.8.
    ReduxF32,
}

impl fmt::Display for Refusal {
    /// A short phrase: `needs PTX 7.0`, `needs sm_70`, ...
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Refusal::Version(v) => write!(f, "needs PTX {v}"),
            Refusal::Target(sm) => write!(f, "needs sm_{sm}"),
            Refusal::Deprecated => f.write_str("the non-.sync form needs PTX < 6.4 on sm_70+"),
            Refusal::ReduxF32 => f.write_str("needs sm_100a, or sm_100f-family with PTX 8.8"),
        }
    }
}

impl Requirement {
    /// `shfl.sync`, `vote.sync`.
    pub const SYNC: Requirement = Requirement::Since {
        version: Version::new(6, 0),
        sm: 30,
    };

    /// `match.sync`.
    pub const MATCH: Requirement = Requirement::Since {
        version: Version::new(6, 0),
        sm: 70,
    };

    /// The integer and bitwise `redux.sync`.
    pub const REDUX: Requirement = Requirement::Since {
        version: Version::new(7, 0),
        sm: 80,
    };

    /// `bmsk` ("PTX ISA 7.6, sm_70"; `ptxas`: "Feature 'bmsk' requires PTX
    /// ISA .version 7.6 or later").
    pub const BMSK: Requirement = Requirement::Since {
        version: Version::new(7, 6),
        sm: 70,
    };

    /// `activemask`.
    pub const ACTIVEMASK: Requirement = Requirement::Since {
        version: Version::new(6, 2),
        sm: 30,
    };

    /// The deprecated `shfl`: PTX 3.0, sm_30.
    pub const DEPRECATED_SHFL: Requirement = Requirement::Deprecated {
        version: Version::new(3, 0),
        sm: 30,
    };

    /// The deprecated `vote.{all,any,uni}.pred`: PTX 1.2, sm_12.
    pub const DEPRECATED_VOTE: Requirement = Requirement::Deprecated {
        version: Version::new(1, 2),
        sm: 12,
    };

    /// The deprecated `vote.ballot.b32`: PTX 2.0, sm_20.
    pub const DEPRECATED_BALLOT: Requirement = Requirement::Deprecated {
        version: Version::new(2, 0),
        sm: 20,
    };

    /// What a `shfl` needs: [`Requirement::SYNC`] with a `membermask`,
    /// [`Requirement::DEPRECATED_SHFL`] without.
    pub fn collective(sync: bool) -> Requirement {
        if sync {
            Requirement::SYNC
        } else {
            Requirement::DEPRECATED_SHFL
        }
    }

    /// What a `vote` of `mode` needs: [`Requirement::SYNC`] with a
    /// `membermask`, else its deprecated form's own gate.
    pub fn vote(mode: VoteMode, sync: bool) -> Requirement {
        match (sync, mode) {
            (true, _) => Requirement::SYNC,
            (false, VoteMode::Ballot) => Requirement::DEPRECATED_BALLOT,
            (false, VoteMode::All | VoteMode::Any | VoteMode::Uni) => Requirement::DEPRECATED_VOTE,
        }
    }

    /// Whether `.version v` and `.target t` allow it, and if not, the
    /// first reason in the order: version, target, deprecation, sm_100.
    pub fn check(self, v: Version, t: Target) -> Result<(), Refusal> {
        let since = |version: Version, sm: u32| {
            if v < version {
                Err(Refusal::Version(version))
            } else if t.sm < sm {
                Err(Refusal::Target(sm))
            } else {
                Ok(())
            }
        };
        match self {
            Requirement::Any => Ok(()),
            Requirement::Since { version, sm } => since(version, sm),
            Requirement::Deprecated { version, sm } => {
                if v >= Version::new(6, 4) && t.sm >= 70 {
                    Err(Refusal::Deprecated)
                } else {
                    since(version, sm)
                }
            }
            Requirement::ReduxF32 => {
                since(Version::new(8, 6), 80)?;
                let sm100_family = (100..110).contains(&t.sm);
                let ok = (t.sm == 100 && t.suffix == Some('a'))
                    || (sm100_family && t.suffix == Some('f') && v >= Version::new(8, 8));
                if ok {
                    Ok(())
                } else {
                    Err(Refusal::ReduxF32)
                }
            }
        }
    }

    /// Whether `.version v` and `.target t` allow it.
    pub fn allows(self, v: Version, t: Target) -> bool {
        self.check(v, t).is_ok()
    }
}

impl ReduxOp {
    /// What `redux.sync` with this operation needs.
    pub fn requirement(self) -> Requirement {
        match self {
            ReduxOp::FMin { .. } | ReduxOp::FMax { .. } => Requirement::ReduxF32,
            ReduxOp::Add(_)
            | ReduxOp::Min(_)
            | ReduxOp::Max(_)
            | ReduxOp::And
            | ReduxOp::Or
            | ReduxOp::Xor => Requirement::REDUX,
        }
    }
}

impl Op {
    /// What the instruction needs of the program's `.version`/`.target`.
    pub fn requirement(&self) -> Requirement {
        match self {
            Op::Shfl(x) => Requirement::collective(x.membermask.is_some()),
            Op::Vote(x) => Requirement::vote(x.mode, x.membermask.is_some()),
            Op::Match(_) => Requirement::MATCH,
            Op::Redux(x) => x.op.requirement(),
            Op::Activemask(_) => Requirement::ACTIVEMASK,
            Op::LaneOp(x) if matches!(x.kind, LaneOpKind::Int(IntOp::Bmsk { .. })) => {
                Requirement::BMSK
            }
            Op::Glue(_) | Op::Control(_) | Op::LaneOp(_) => Requirement::Any,
        }
    }
}
