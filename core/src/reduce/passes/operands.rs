//! Pass 5: replace source operands by immediates.
//!
//! For each instruction (from the end backwards) and each source operand:
//! - a value register (or `%laneid`) by `0`, `1`, the register's lane-0
//!   `.lanes` value, the values it holds when the lanes reach the
//!   instruction (the lowest lane's first), a random small value; a value
//!   register by `%laneid` last;
//! - an immediate by `0` or `1`;
//! - a `membermask` register by `0xffffffff` or the values it holds there
//!   (uniform in a valid case).
//!
//! `.pred` operands have no immediates in PTX and are left alone.

use crate::ir::*;
use crate::outcome::Outcome;
use crate::reduce::edit::{defined_values, prefix_outcome};
use crate::reduce::search::Search;

/// At most this many of the values a register holds are tried.
const HELD_VALUES: usize = 2;

/// The replacements of operand `o` (read as `ty` for `role`) tried at
/// instruction `at`; `held` computes the state there when first needed.
fn replacements(
    s: &mut Search<'_, '_>,
    at: usize,
    o: Operand,
    ty: Type,
    role: Role,
    held: &mut Option<Option<Outcome>>,
) -> Vec<Operand> {
    if ty == Type::Pred {
        return Vec::new();
    }
    let mut vals: Vec<u64> = Vec::new();
    let mut lane_id = false;
    let mut held_vals = |s: &mut Search<'_, '_>, r: Reg| -> Vec<u64> {
        let out = held.get_or_insert_with(|| prefix_outcome(s.cur(), at, s.fuel));
        out.as_ref()
            .map(|out| defined_values(out, r))
            .unwrap_or_default()
    };
    match (role, o) {
        (_, Operand::NotPred(_)) => {}
        (Role::Membermask, Operand::Reg(r)) => {
            vals.push(0xffff_ffff);
            vals.extend(held_vals(s, r).into_iter().take(HELD_VALUES));
        }
        (Role::Membermask, Operand::LaneId) => vals.push(0xffff_ffff),
        (Role::Membermask, Operand::Imm(_)) => {}
        (Role::Value, Operand::Reg(r)) => {
            vals.extend([0, 1]);
            if let Some(v) = s.cur().inputs.get(r) {
                vals.push(v[0]);
            }
            vals.extend(held_vals(s, r).into_iter().take(HELD_VALUES));
            vals.push(2 + s.rng.below(30));
            lane_id = ty.bits() == 32 && Type::U32.compatible(ty);
        }
        (Role::Value, Operand::LaneId) => {
            vals.extend([0, 1]);
            vals.push(2 + s.rng.below(30));
        }
        (Role::Value, Operand::Imm(v)) => vals.extend([0, 1].into_iter().filter(|x| *x < v)),
    }
    let mut out: Vec<Operand> = Vec::new();
    for v in vals {
        let imm = Operand::Imm(v & ty.mask());
        if imm != o && !out.contains(&imm) {
            out.push(imm);
        }
    }
    if lane_id {
        out.push(Operand::LaneId);
    }
    out
}

/// Runs the pass.
pub(crate) fn run(s: &mut Search<'_, '_>) {
    s.each_inst_backwards(|s, i| {
        let mut held = None;
        let n = s.cur().program.insts[i].op.sources().len();
        for k in 0..n {
            let (o, ty, role) = s.cur().program.insts[i].op.sources()[k];
            for new in replacements(s, i, o, ty, role, &mut held) {
                if s.exhausted() {
                    return;
                }
                let mut cand = s.cur().clone();
                *cand.program.insts[i].op.sources_mut()[k].0 = new;
                if s.try_case(cand) {
                    break;
                }
            }
        }
    });
}
