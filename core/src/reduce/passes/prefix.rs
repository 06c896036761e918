//! Pass: replace a prefix of the body by inputs. For each cut point `b`,
//! from the end of the body towards its start, the instructions before `b`
//! are deleted and every register's value when the lanes reach `b` becomes
//! its `.lanes` input: first only the registers defined on every lane
//! there (so definedness is kept), then every register defined on some
//! lane (0 where undefined). This removes whole loops whose results are
//! all that matters, which deleting instructions one by one cannot.

use crate::ir::*;
use crate::reduce::edit::{prefix_outcome, remove_range};
use crate::reduce::search::Search;

/// Runs the pass.
pub(crate) fn run(s: &mut Search<'_, '_>) {
    let mut b = s.cur().program.insts.len();
    while b > 0 && !s.exhausted() {
        let Some(out) = prefix_outcome(s.cur(), b, s.fuel) else {
            b -= 1;
            continue;
        };
        let cut = remove_range(s.cur(), 0, b);
        let mut accepted = false;
        for all_lanes in [true, false] {
            let mut cand = cut.clone();
            cand.inputs.lanes.clear();
            for r in 0..cand.program.regs.len() {
                let def = out.defined[r];
                if def == 0 || (all_lanes && def != u32::MAX) {
                    continue;
                }
                let reg = Reg(r as u32);
                let vals: [u64; WARP] = std::array::from_fn(|l| out.get(reg, l).unwrap_or(0));
                cand.inputs.lanes.push((reg, vals));
            }
            if s.try_case(cand) {
                accepted = true;
                break;
            }
        }
        b = if accepted {
            s.cur().program.insts.len()
        } else {
            b - 1
        };
    }
}
