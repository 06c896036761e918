//! Who takes part in a warp collective (`shfl`, `vote`, `match`, `redux`),
//! and the `membermask` rules whose violation is undefined behaviour.
//!
//! From the `.sync` pages: the executing thread must be in `membermask`;
//! each thread waits "until all non-exited threads corresponding to
//! `membermask` have executed [the instruction] with the same qualifiers and
//! same `membermask` value"; for `.target sm_6x` or below, "all threads in
//! `membermask` must execute the same `shfl.sync` instruction in
//! convergence, and only threads belonging to some `membermask` can be
//! active". The deprecated non-`.sync` `shfl`/`vote` have no `membermask`:
//! their participants are the lanes that execute them.
//!
//! Beyond the spec, from the H200 (`lower/src/gpu`'s runs): a collective
//! executed by disjoint groups of lanes leaves the warp split, so after it
//! `activemask` and the deprecated forms (whose participants are "the lanes
//! executing") are undefined; see [`Warp::split`](super::Warp).

use super::{lanes, Step, Ub, UbRule, Warp, WARP};
use crate::ir::Operand;
use crate::text::inst_text;

/// The resolved participants of one collective.
pub(crate) struct Group {
    /// Per lane, its `membermask` (meaningful for executing lanes only).
    pub mask: [u32; WARP],
    /// A deprecated (non-`.sync`) form run after the warp may have split:
    /// its participants ("the lanes executing it") are not known, so its
    /// results are undefined.
    pub unsure: bool,
}

impl Group {
    /// Lanes whose data lane `l`'s result is computed from: the members
    /// that execute the instruction (exited members take no part).
    pub fn sources(&self, s: &Step, l: usize) -> u32 {
        self.mask[l] & s.exec
    }
}

/// Resolves `membermask` (or, for the deprecated forms, the executing lanes)
/// and checks every rule, in the order: defined, executing lane a member,
/// same value across the group, members converged or exited, sm_6x.
pub(crate) fn group(w: &mut Warp, s: &Step, membermask: Option<Operand>) -> Result<Group, Ub> {
    let Some(mm) = membermask else {
        return Ok(Group {
            mask: [s.exec; WARP],
            unsure: w.split,
        });
    };
    let text = || inst_text(w.prog, s.inst);
    let fail = |rule, lanes: u32, what: String| Err(Ub::new(rule, s.inst, lanes, what));
    let mut mask = [0u32; WARP];
    let mut undef = 0;
    for l in lanes(s.exec) {
        let (v, d) = w.read(mm, l);
        mask[l] = v as u32;
        if !d {
            undef |= 1 << l;
        }
    }
    if undef != 0 {
        return fail(
            UbRule::MembermaskUndefined,
            undef,
            format!("`{}`: membermask is undefined on executing lanes", text()),
        );
    }
    let outside = lanes(s.exec)
        .filter(|&l| mask[l] >> l & 1 == 0)
        .fold(0u32, |m, l| m | 1 << l);
    if outside != 0 {
        return fail(
            UbRule::NotInMembermask,
            outside,
            format!("`{}`: executing lanes are not in their membermask", text()),
        );
    }
    let mut differ = 0u32;
    for l in lanes(s.exec) {
        for k in lanes(mask[l] & s.exec) {
            if mask[k] != mask[l] {
                differ |= 1 << l | 1 << k;
            }
        }
    }
    if differ != 0 {
        let shown: Vec<String> = lanes(differ)
            .take(4)
            .map(|l| format!("lane {l}: {:#010x}", mask[l]))
            .collect();
        return fail(
            UbRule::MembermaskNotUniform,
            differ,
            format!(
                "`{}`: lanes of one collective give different membermask values ({}{})",
                text(),
                shown.join(", "),
                if differ.count_ones() > 4 { ", ..." } else { "" }
            ),
        );
    }
    let all_members = lanes(s.exec).fold(0u32, |m, l| m | mask[l]);
    // A member that is converged here but predicated off never executes
    // the instruction either: the others would wait for it forever (an
    // H200 hung or left the warp split on such programs).
    let away = all_members & !s.exited & !s.exec;
    if away != 0 {
        return fail(
            UbRule::MembermaskNotConverged,
            away,
            format!(
                "`{}`: membermask lanes are neither exited nor executing this instruction (inactive or predicated off)",
                text()
            ),
        );
    }
    if s.target.sm < 70 {
        let missing = all_members & (s.exited | (s.conv & !s.exec));
        if missing != 0 {
            return fail(
                UbRule::Sm6xConvergence,
                missing,
                format!(
                    "`{}`: on {} all membermask lanes must execute it in convergence, but these exited or are predicated off",
                    text(),
                    s.target
                ),
            );
        }
        let loose = s.conv & !all_members;
        if loose != 0 {
            return fail(
                UbRule::Sm6xConvergence,
                loose,
                format!(
                    "`{}`: on {} only lanes in some membermask may be active here",
                    text(),
                    s.target
                ),
            );
        }
    }
    // Executing lanes in more than one group: on an H200 the warp stayed
    // split after such a collective (a later `activemask` saw only the
    // lane's group), where min-PC says it reconverges. From here on, what
    // depends on which lanes run together is not known.
    if lanes(s.exec).any(|l| mask[l] & s.exec != s.exec) {
        w.split = true;
    }
    Ok(Group {
        mask,
        unsure: false,
    })
}
