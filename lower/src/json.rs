//! The JSON lines `warpdiff run --json` prints (hand-written: the format is
//! small and fixed, and `warp-core` stays dependency-free).

use std::fmt::Write;
use warp_core::interp::{Outcome, Ub};
use warp_core::ir::{Program, WARP};

/// A JSON string literal.
pub fn string(s: &str) -> String {
    let mut out = String::with_capacity(s.len() + 2);
    out.push('"');
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            c if (c as u32) < 0x20 => {
                let _ = write!(out, "\\u{:04x}", c as u32);
            }
            c => out.push(c),
        }
    }
    out.push('"');
    out
}

/// `{"file": F, "engine": E, "regs": {...}, "exited": MASK}`: every declared
/// register, each lane's bits as an unsigned integer or `null` where
/// undefined.
pub fn outcome(file: &str, engine: &str, prog: &Program, out: &Outcome) -> String {
    let mut s = format!(
        "{{\"file\": {}, \"engine\": {}, \"regs\": {{",
        string(file),
        string(engine)
    );
    for (i, decl) in prog.regs.iter().enumerate() {
        if i > 0 {
            s.push_str(", ");
        }
        let _ = write!(s, "{}: [", string(&decl.name));
        for lane in 0..WARP {
            if lane > 0 {
                s.push_str(", ");
            }
            match out.get(warp_core::ir::Reg(i as u32), lane) {
                Some(v) => {
                    let _ = write!(s, "{v}");
                }
                None => s.push_str("null"),
            }
        }
        s.push(']');
    }
    let _ = write!(s, "}}, \"exited\": {}}}", out.exited);
    s
}

/// `{"file": F, "ub": {"rule": R, "line": N, "lanes": MASK, "message": M}}`.
pub fn ub(file: &str, ub: &Ub) -> String {
    format!(
        "{{\"file\": {}, \"ub\": {{\"rule\": {}, \"line\": {}, \"lanes\": {}, \"message\": {}}}}}",
        string(file),
        string(ub.rule.name()),
        ub.line,
        ub.lanes,
        string(&ub.message)
    )
}

/// `{"file": F, "error": "F:LINE:COL: ..."}`.
pub fn error(file: &str, msg: &str) -> String {
    format!("{{\"file\": {}, \"error\": {}}}", string(file), string(msg))
}
