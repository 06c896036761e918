//! Reading the approximate float functions (`ex2.approx.ftz.f32`,
//! `rsqrt.approx.f64`, `div.full.f32`, ...: [`ApproxFn`]) of a body, a
//! case's or a kernel's alike, as [`FloatOp::Approx`]. A form the ISA does
//! not have, a 16-bit float type (no `.f16`/`.bf16` registers exist here),
//! the IEEE `rcp.rn`, or a function without `.approx` (the PTX ISA 1.0-1.3
//! spelling) is refused at the opcode, with what was wrong.

use super::lane_ops::parse_rounding;
use super::parse::{Build, PResult};
use crate::ir::*;

impl Build<'_> {
    /// `fn.approx{.ftz}.type d, a{, b}` or `div.full{.ftz}.f32 d, a, b`.
    pub(super) fn approx(&self, parts: &[&str]) -> PResult<Op> {
        let text = self.opt.text.as_str();
        let last = parts[parts.len() - 1];
        if matches!(last, "f16" | "bf16" | "f16x2" | "bf16x2") {
            return self.fail(format!(
                "not supported yet: `{text}` (16-bit float registers, `.f16`/`.bf16`, \
                 do not exist here yet)"
            ));
        }
        // The modifiers between the name and the type (none for a bare
        // `rcp`: then `last` is the name itself).
        let middle = parts.get(1..parts.len().saturating_sub(1)).unwrap_or(&[]);
        let Some(kind) = middle.iter().find(|m| matches!(**m, "approx" | "full")) else {
            if parts[0] == "rcp" && middle.iter().any(|m| parse_rounding(m).is_some()) {
                return self.fail(format!(
                    "not supported yet: `{text}` (the IEEE reciprocal; `rcp.approx` is)"
                ));
            }
            return self.fail(format!(
                "`{text}`: `.approx` is required (PTX ISA 1.4 and later)"
            ));
        };
        let Some(f) = ApproxFn::from_parts(parts[0], kind) else {
            return self.fail(format!("`{text}`: `{}` has no `.{kind}` form", parts[0]));
        };
        let mut ftz = false;
        for m in middle {
            match *m {
                "ftz" => ftz = true,
                "approx" | "full" if m == kind => {}
                _ => return self.fail(format!("`{text}`: unknown modifier `.{m}`")),
            }
        }
        let ty = self.lane_op_type(last)?;
        if !f.takes(ty, ftz) {
            let forms: Vec<String> = ApproxFn::forms()
                .into_iter()
                .filter(|&(g, _, _)| g == f)
                .map(|(_, t, z)| format!("`{}{}{t}`", f.mnemonic(), if z { ".ftz" } else { "" }))
                .collect();
            return self.fail(format!(
                "`{text}`: no such form (the ISA has {})",
                forms.join(", ")
            ));
        }
        self.count(f.arity() + 1)?;
        let srcs = (1..=f.arity())
            .map(|i| Ok((self.src(i, ty)?, ty)))
            .collect::<PResult<Vec<_>>>()?;
        self.lane_op(
            LaneOpKind::Float {
                op: FloatOp::Approx(f),
                rnd: Rounding::Rn,
                ftz,
                sat: false,
            },
            vec![(self.dest(0, ty)?, ty)],
            srcs,
            None,
        )
    }
}
