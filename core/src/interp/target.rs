//! Target and PTX-version gating: an instruction the program's `.target` or
//! `.version` does not allow makes the whole program undefined (the driver's
//! PTX compiler would reject the module), reported at its first such
//! instruction. What each instruction needs is the IR's to say
//! ([`Op::requirement`](crate::ir::Op::requirement)); this file words the
//! diagnostic.

use crate::ir::{Program, Refusal, Target, Version};
use crate::text::inst_text;
use crate::ub::{Ub, UbRule};

/// Why `.version v` / `.target t` refuse an instruction, as a sentence.
fn message(why: Refusal, t: Target, v: Version) -> String {
    match why {
        Refusal::Version(ver) => {
            format!("requires PTX ISA {ver} or later (this file is .version {v})")
        }
        Refusal::Target(sm) => {
            format!("requires .target sm_{sm} or higher (this file targets {t})")
        }
        Refusal::Deprecated => format!(
            "the non-.sync form is not supported from PTX ISA 6.4 on .target sm_70 or higher (this file is .version {v}, {t}); use .version 6.3 or the .sync form"
        ),
        Refusal::ReduxF32 => format!(
            "the .f32 form (and .abs/.NaN) requires .target sm_100a, or sm_100f-family with PTX 8.8 (this file targets {t})"
        ),
    }
}

/// The first instruction `prog`'s target does not allow, as UB on all lanes.
pub(crate) fn check(prog: &Program) -> Option<Ub> {
    let (t, v) = (prog.target, prog.version);
    prog.insts.iter().find_map(|inst| {
        let why = inst.op.requirement().check(v, t).err()?;
        Some(Ub::new(
            UbRule::TargetUnsupported,
            inst,
            u32::MAX,
            format!("`{}`: {}", inst_text(prog, inst), message(why, t, v)),
        ))
    })
}
