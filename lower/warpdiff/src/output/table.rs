//! The readable per-lane table of `warpdiff run`.

use std::fmt::Write;
use warp_core::ir::{Program, Reg, WARP};
use warp_core::outcome::Outcome;
use warp_core::text::format_bits;

/// One row per lane: its status, then every register (`_` = undefined,
/// `VALUE:MASK` where only the bits of `MASK` are defined, as in `.expect`).
pub fn outcome(prog: &Program, out: &Outcome) -> String {
    let mut cols: Vec<Vec<String>> = Vec::new();
    let mut heads = vec!["lane".to_string(), "status".to_string()];
    cols.push((0..WARP).map(|l| l.to_string()).collect());
    cols.push(
        (0..WARP)
            .map(|l| {
                if out.exited >> l & 1 == 1 {
                    "exited".to_string()
                } else {
                    "done".to_string()
                }
            })
            .collect(),
    );
    for (i, d) in prog.regs.iter().enumerate() {
        heads.push(format!("{}{}", d.name, d.ty));
        cols.push(
            (0..WARP)
                .map(|l| format_bits(out.bits(Reg(i as u32), l), d.ty))
                .collect(),
        );
    }
    let widths: Vec<usize> = heads
        .iter()
        .zip(&cols)
        .map(|(h, c)| c.iter().map(String::len).max().unwrap_or(0).max(h.len()))
        .collect();
    let mut s = String::new();
    for (h, w) in heads.iter().zip(&widths) {
        let _ = write!(s, "{h:>w$}  ");
    }
    s = s.trim_end().to_string();
    s.push('\n');
    for lane in 0..WARP {
        let mut row = String::new();
        for (c, w) in cols.iter().zip(&widths) {
            let _ = write!(row, "{:>w$}  ", c[lane]);
        }
        s.push_str(row.trim_end());
        s.push('\n');
    }
    s
}
