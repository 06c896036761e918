//! The JSON lines `warpdiff run --json` prints, one object per file,
//! through serde:
//!
//! ```text
//! {"file":F,"engine":"interp","regs":{"Ry":[v0,...,v31],...},"exited":MASK}
//! {"file":F,"ub":{"rule":R,"line":N,"lanes":MASK,"message":M}}
//! {"file":F,"error":"F:LINE:COL: ..."}
//! ```
//!
//! Values are the unsigned integer of the register's bits, or `null` where
//! undefined; `regs` lists every declared register in declaration order.

use serde::ser::{SerializeMap, Serializer};
use serde::Serialize;
use warp_core::ir::{Program, Reg, WARP};
use warp_core::outcome::Outcome;
use warp_core::ub::Ub;

/// Every register of a run, in declaration order.
struct Regs<'a> {
    prog: &'a Program,
    out: &'a Outcome,
}

impl Serialize for Regs<'_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let mut m = s.serialize_map(Some(self.prog.regs.len()))?;
        for (i, decl) in self.prog.regs.iter().enumerate() {
            let lanes: Vec<Option<u64>> =
                (0..WARP).map(|l| self.out.get(Reg(i as u32), l)).collect();
            m.serialize_entry(&decl.name, &lanes)?;
        }
        m.end()
    }
}

#[derive(Serialize)]
struct OutcomeLine<'a> {
    file: &'a str,
    engine: &'a str,
    regs: Regs<'a>,
    exited: u32,
    /// The line a bounded run (`.fuel`) stopped before; omitted when it
    /// ran to its end.
    #[serde(skip_serializing_if = "Option::is_none")]
    stop: Option<u32>,
}

#[derive(Serialize)]
struct UbBody<'a> {
    rule: &'a str,
    line: u32,
    lanes: u32,
    message: &'a str,
}

#[derive(Serialize)]
struct UbLine<'a> {
    file: &'a str,
    ub: UbBody<'a>,
}

#[derive(Serialize)]
struct ErrorLine<'a> {
    file: &'a str,
    error: &'a str,
}

fn line(v: &impl Serialize) -> String {
    serde_json::to_string(v).unwrap_or_else(|e| format!("{{\"error\":\"json: {e}\"}}"))
}

/// The object for a finished run.
pub fn outcome(file: &str, engine: &str, prog: &Program, out: &Outcome) -> String {
    line(&OutcomeLine {
        file,
        engine,
        regs: Regs { prog, out },
        exited: out.exited,
        stop: out.stop.map(|s| s.line),
    })
}

/// The object for a run that hit undefined behaviour.
pub fn ub(file: &str, ub: &Ub) -> String {
    line(&UbLine {
        file,
        ub: UbBody {
            rule: ub.rule.name(),
            line: ub.line,
            lanes: ub.lanes,
            message: &ub.message,
        },
    })
}

/// The object for a file that could not be read, parsed or run.
pub fn error(file: &str, msg: &str) -> String {
    line(&ErrorLine { file, error: msg })
}
