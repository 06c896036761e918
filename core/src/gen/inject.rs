//! Undefined behaviour on purpose: a small share of cases (the config's
//! `ub_ratio`) get one collective with a wrong membermask, inserted into the
//! finished, clean program at a point some lanes reach, so that every
//! engine's UB checks are exercised. The wrong masks, from what the lanes
//! do there:
//!
//! - `not-in-membermask`: the converged lanes less one of them;
//! - `sync-deadlock`: the converged lanes plus one waiting at a forward
//!   label (the others wait for it at the collective; it never arrives);
//! - `membermask-not-uniform`: per lane, the converged lanes from its own
//!   lane up (`shl.b32 M, 0xffffffff, %laneid; and.b32 M, M, CONV;`), which
//!   differ between any two converged lanes;
//! - `membermask-undefined`: a register never written.
//!
//! The case is kept only when the interpreter reports exactly that rule at
//! exactly that instruction.

use super::emit::Gen;
use super::probe::PROBE_FUEL;
use super::values;
use crate::interp::Interp;
use crate::ir::*;
use crate::ub::UbRule;
use arbitrary::Result;

/// Tries a few points of the finished program; returns the rule broken, or
/// `None` (and leaves the program as it was) when no try worked.
pub(crate) fn inject(g: &mut Gen) -> Result<Option<UbRule>> {
    // Points some lane reaches, those inside a divergent region first
    // (where a mask can name a lane waiting elsewhere) half of the time.
    let mut points = Vec::new();
    for _ in 0..6 {
        let at = g.u.int_in_range(0..=g.b.len())?;
        if let Some(s) = g.b.snapshot_at(at).filter(|s| s.conv != 0) {
            points.push((at, s));
        }
    }
    if g.u.ratio(1u8, 2)? {
        points.sort_by_key(|(_, s)| s.parked() == 0);
    }
    for (at, s) in points {
        let lanes = |m: u32| (0..WARP as u32).filter(move |l| m >> l & 1 == 1);
        let mut rules = vec![UbRule::NotInMembermask, UbRule::MembermaskUndefined];
        if s.parked() != 0 {
            rules.push(UbRule::SyncDeadlock);
        }
        if s.conv.count_ones() >= 2 {
            rules.push(UbRule::MembermaskNotUniform);
        }
        // A lane waiting elsewhere is the rarer chance: take it half the time.
        let rule = if s.parked() != 0 && g.u.ratio(1u8, 2)? {
            UbRule::SyncDeadlock
        } else {
            *g.u.choose(&rules)?
        };
        let mut insts: Vec<(Option<Guard>, Op)> = Vec::new();
        let m = g.regs.ub_mask;
        let membermask = match rule {
            UbRule::NotInMembermask => {
                let l = g.u.choose_iter(lanes(s.conv).collect::<Vec<_>>())?;
                Operand::Imm((s.conv & !(1 << l)) as u64)
            }
            UbRule::SyncDeadlock => {
                let l = g.u.choose_iter(lanes(s.parked()).collect::<Vec<_>>())?;
                Operand::Imm((s.conv | 1 << l) as u64)
            }
            UbRule::MembermaskNotUniform => {
                insts.push((
                    None,
                    Op::Glue(Glue::Bin {
                        op: BinOp::Shl,
                        ty: Type::B32,
                        d: Dest::Reg(m),
                        a: Operand::Imm(u32::MAX as u64),
                        b: Operand::LaneId,
                    }),
                ));
                insts.push((
                    None,
                    Op::Glue(Glue::Bin {
                        op: BinOp::And,
                        ty: Type::B32,
                        d: Dest::Reg(m),
                        a: Operand::Reg(m),
                        b: Operand::Imm(s.conv as u64),
                    }),
                ));
                Operand::Reg(m)
            }
            UbRule::MembermaskUndefined
            | UbRule::Sm6xConvergence
            | UbRule::TargetUnsupported
            | UbRule::GuardUndefined => Operand::Reg(m),
            // Kernels' rules: the generator makes warp programs only.
            UbRule::MemoryOutOfBounds
            | UbRule::MemoryMisaligned
            | UbRule::MemoryReadOnly
            | UbRule::MemoryUndefinedAddress
            | UbRule::MemoryRace
            | UbRule::BarrierDeadlock => return Ok(None),
        };
        let op = collective(g, membermask)?;
        insts.push((None, op));
        let n = insts.len();
        g.b.insert(at, insts);
        let run = Interp::new(&g.b.prog)
            .with_fuel(PROBE_FUEL)
            .run(&g.b.inputs);
        g.b.probes += 1;
        let hit = matches!(&run, Ok(out) if out.ub.as_ref().is_some_and(|ub| ub.rule == rule && ub.line as usize == at + n));
        if hit {
            return Ok(Some(rule));
        }
        for _ in 0..n {
            g.b.remove(at);
        }
    }
    Ok(None)
}

/// A `.sync` collective the case's target allows, with this membermask.
fn collective(g: &mut Gen, membermask: Operand) -> Result<Op> {
    let d = Dest::Reg(*g.u.choose(g.regs.of(Type::B32))?);
    let a = Operand::Reg(*g.u.choose(g.regs.of(Type::B32))?);
    // `redux.sync` last: the deprecated flavour's PTX 6.3 has none.
    let kinds = if g.allows(Requirement::REDUX) { 4 } else { 3 };
    Ok(match g.u.int_in_range(0..=kinds - 1)? {
        0 => {
            let (b, _) = values::shfl_b(g.u)?;
            let (c, _) = values::shfl_c(g.u)?;
            Op::Shfl(Shfl {
                mode: *g.u.choose(&ShflMode::ALL)?,
                d,
                p: None,
                a,
                b: Operand::Imm(b),
                c: Operand::Imm(c),
                membermask: Some(membermask),
            })
        }
        1 => Op::Vote(Vote {
            mode: VoteMode::Ballot,
            d,
            a: Operand::Reg(*g.u.choose(g.regs.of(Type::Pred))?),
            membermask: Some(membermask),
        }),
        2 => Op::Match(Match {
            mode: MatchMode::Any,
            wide: false,
            d,
            p: None,
            a,
            membermask,
        }),
        _ => Op::Redux(Redux {
            op: ReduxOp::Add(Signedness::Unsigned),
            d,
            a,
            membermask,
        }),
    })
}
