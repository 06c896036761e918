//! Target and PTX-version gating: an instruction the program's `.target` or
//! `.version` does not allow makes the whole program undefined (the driver's
//! PTX compiler would reject the module), reported at its first such
//! instruction.
//!
//! From the ISA pages:
//! - `shfl.sync`, `vote.sync`: "Introduced in PTX ISA version 6.0",
//!   "Requires `sm_30` or higher".
//! - `shfl`, `vote` (deprecated): "Not supported in PTX ISA version 6.4 for
//!   .target `sm_70` or higher"; `shfl` "requires `sm_30` or higher".
//! - `match.sync`: PTX 6.0, "Requires `sm_70` or higher".
//! - `redux.sync`: "Introduced in PTX ISA version 7.0", "Requires `sm_80` or
//!   higher"; "`.f32` type requires `sm_100a` and is supported on `sm_100f`
//!   from PTX ISA version 8.8", likewise `.abs` and `.NaN` ("on `sm_100f` or
//!   higher in the same family"); `.f32`, `.abs`, `.NaN` need PTX 8.6.
//! - `activemask`: PTX 6.2, sm_30.

use super::{Ub, UbRule};
use crate::ir::{Op, Program, ReduxOp, Target, Version};
use crate::text::inst_text;

/// Whether `t` may run the f32 forms of `redux.sync` at PTX version `v`.
fn has_redux_f32(t: Target, v: Version) -> bool {
    let sm100_family = (100..110).contains(&t.sm);
    (t.sm == 100 && t.suffix == Some('a'))
        || (sm100_family && t.suffix == Some('f') && v >= Version::new(8, 8))
}

/// What an instruction needs, or `None` when it is allowed.
fn refusal(op: &Op, t: Target, v: Version) -> Option<String> {
    let need = |ver: Version, sm: u32| {
        if v < ver {
            Some(format!(
                "requires PTX ISA {ver} or later (this file is .version {v})"
            ))
        } else if t.sm < sm {
            Some(format!(
                "requires .target sm_{sm} or higher (this file targets {t})"
            ))
        } else {
            None
        }
    };
    let deprecated = || {
        if v >= Version::new(6, 4) && t.sm >= 70 {
            Some(format!(
                "the non-.sync form is not supported from PTX ISA 6.4 on .target sm_70 or higher (this file is .version {v}, {t}); use .version 6.3 or the .sync form"
            ))
        } else {
            need(Version::new(3, 0), 30)
        }
    };
    match op {
        Op::Shfl { membermask, .. } | Op::Vote { membermask, .. } => match membermask {
            Some(_) => need(Version::new(6, 0), 30),
            None => deprecated(),
        },
        Op::Match { .. } => need(Version::new(6, 0), 70),
        Op::Redux { op, .. } => match op {
            ReduxOp::FMin { .. } | ReduxOp::FMax { .. } => need(Version::new(8, 6), 80)
                .or_else(|| {
                    (!has_redux_f32(t, v)).then(|| {
                        format!(
                            "the .f32 form (and .abs/.NaN) requires .target sm_100a, or sm_100f-family with PTX 8.8 (this file targets {t})"
                        )
                    })
                }),
            ReduxOp::Add(_)
            | ReduxOp::Min(_)
            | ReduxOp::Max(_)
            | ReduxOp::And
            | ReduxOp::Or
            | ReduxOp::Xor => need(Version::new(7, 0), 80),
        },
        Op::Activemask { .. } => need(Version::new(6, 2), 30),
        Op::Mov { .. }
        | Op::Bin { .. }
        | Op::Un { .. }
        | Op::Setp { .. }
        | Op::Selp { .. }
        | Op::Bra { .. }
        | Op::Exit => None,
    }
}

/// The first instruction `prog`'s target does not allow, as UB on all lanes.
pub(crate) fn check(prog: &Program) -> Option<Ub> {
    prog.insts.iter().find_map(|inst| {
        refusal(&inst.op, prog.target, prog.version).map(|why| {
            Ub::new(
                UbRule::TargetUnsupported,
                inst,
                u32::MAX,
                format!("`{}`: {why}", inst_text(prog, inst)),
            )
        })
    })
}
