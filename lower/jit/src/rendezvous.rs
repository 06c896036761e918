//! The rendezvous plan of a program: which `.sync` collectives pair, and
//! how a rendezvous whose members stand at different instructions is run.
//!
//! The `.sync` pages: each executing thread waits "until all non-exited
//! threads corresponding to `membermask` have executed [the instruction]
//! with the same qualifiers and same `membermask` value". `warp-core`'s
//! interpreter (`interp/collective.rs`) does that, and an H200 does too:
//! members at two *different* instructions with the same qualifiers
//! complete one collective together (`corpus/cases/sync-other-instruction-h200.ptx`),
//! each reading its operands from, and writing its result to, its own
//! instruction.
//!
//! So the JIT groups the `.sync` collectives by
//! [`Op::rendezvous_key`]. A group of one instruction runs its family's
//! lowering for the participants. A group of several runs one *mixed*
//! collective on registers of its own (appended to the program, so every
//! original register keeps its place in the state): each participant's
//! operands are copied in from its own instruction, the collective runs,
//! and each participant's results are copied out to its own instruction's
//! destinations.

use warp_core::ir::{Dest, Match, Op, Operand, Program, Redux, Reg, RegDecl, Shfl, Type, Vote};

/// The plan: the program the JIT lowers (the original with the mixed
/// collectives' registers appended) and the groups.
pub struct Plan {
    /// The program with the registers of every [`Mixed`] appended.
    pub prog: Program,
    /// The groups of pairing `.sync` collectives, by first pc.
    pub groups: Vec<Group>,
}

/// The `.sync` collectives of one rendezvous key.
pub struct Group {
    /// Their pcs, ascending.
    pub pcs: Vec<usize>,
    /// For two or more pcs: how a rendezvous is run.
    pub mixed: Option<Mixed>,
}

/// A collective on registers of its own, for a group of several
/// instructions.
pub struct Mixed {
    /// The collective (no guard; its `membermask` is [`Mixed::membermask`]).
    pub op: Op,
    /// The register that receives every waiting lane's membermask.
    pub membermask: Reg,
    /// Per pc of the group: (operand of that instruction, register of the
    /// mixed collective, width in bits) copied in for its participants.
    pub copy_in: Vec<Vec<(Operand, Reg, u32)>>,
    /// Per pc of the group: (register of the mixed collective, destination
    /// of that instruction) copied out for its participants.
    pub copy_out: Vec<Vec<(Reg, Dest)>>,
}

impl Plan {
    /// The plan of `prog`.
    pub fn new(prog: &Program) -> Plan {
        let mut out = prog.clone();
        let mut keys: Vec<(u32, Vec<usize>)> = Vec::new();
        for (pc, inst) in prog.insts.iter().enumerate() {
            if let Some(k) = inst.op.rendezvous_key() {
                match keys.iter_mut().find(|(key, _)| *key == k) {
                    Some((_, pcs)) => pcs.push(pc),
                    None => keys.push((k, vec![pc])),
                }
            }
        }
        let groups = keys
            .into_iter()
            .map(|(_, pcs)| {
                let mixed = (pcs.len() > 1).then(|| mixed(&mut out, prog, &pcs));
                Group { pcs, mixed }
            })
            .collect();
        Plan { prog: out, groups }
    }
}

/// The copies out of a mixed collective with result `d` (and predicate
/// `p`) to an instruction's `xd` (and `xp`).
fn outputs(d: Reg, p: Option<Reg>, xd: Dest, xp: Option<Dest>) -> Vec<(Reg, Dest)> {
    let mut v = vec![(d, xd)];
    if let (Some(pr), Some(xp)) = (p, xp) {
        v.push((pr, xp));
    }
    v
}

/// Appends a register of type `ty` to `prog`.
fn reg(prog: &mut Program, ty: Type) -> Reg {
    let r = Reg(prog.regs.len() as u32);
    prog.regs.push(RegDecl {
        name: format!("%rendezvous{}", r.0),
        ty,
    });
    r
}

/// The mixed collective of the instructions at `pcs` (same key, so the
/// same family and qualifiers), its registers appended to `out`.
fn mixed(out: &mut Program, prog: &Program, pcs: &[usize]) -> Mixed {
    let ops: Vec<&Op> = pcs.iter().map(|&pc| &prog.insts[pc].op).collect();
    let mm = reg(out, Type::B32);
    let membermask = Operand::Reg(mm);
    let with_p = |has: &dyn Fn(&Op) -> bool, out: &mut Program| {
        ops.iter().any(|o| has(o)).then(|| reg(out, Type::Pred))
    };
    match *ops[0] {
        Op::Shfl(first) => {
            let [a, b, c, d] = [(); 4].map(|_| reg(out, Type::B32));
            let p = with_p(&|o| matches!(o, Op::Shfl(x) if x.p.is_some()), out);
            let each = |o: &Op| match o {
                Op::Shfl(x) => *x,
                _ => unreachable!("a group has one key, so one family"),
            };
            Mixed {
                op: Op::Shfl(Shfl {
                    d: Dest::Reg(d),
                    p: p.map(Dest::Reg),
                    a: Operand::Reg(a),
                    b: Operand::Reg(b),
                    c: Operand::Reg(c),
                    membermask: Some(membermask),
                    ..first
                }),
                membermask: mm,
                copy_in: ops
                    .iter()
                    .map(|o| {
                        let x = each(o);
                        vec![(x.a, a, 32), (x.b, b, 32), (x.c, c, 32)]
                    })
                    .collect(),
                copy_out: ops
                    .iter()
                    .map(|o| outputs(d, p, each(o).d, each(o).p))
                    .collect(),
            }
        }
        Op::Vote(first) => {
            let a = reg(out, Type::Pred);
            let d = reg(out, first.mode.ty());
            let each = |o: &Op| match o {
                Op::Vote(x) => *x,
                _ => unreachable!("a group has one key, so one family"),
            };
            Mixed {
                op: Op::Vote(Vote {
                    d: Dest::Reg(d),
                    a: Operand::Reg(a),
                    membermask: Some(membermask),
                    ..first
                }),
                membermask: mm,
                copy_in: ops.iter().map(|o| vec![(each(o).a, a, 32)]).collect(),
                copy_out: ops.iter().map(|o| vec![(d, each(o).d)]).collect(),
            }
        }
        Op::Match(first) => {
            let a = reg(out, first.ty());
            let d = reg(out, Type::B32);
            let p = with_p(&|o| matches!(o, Op::Match(x) if x.p.is_some()), out);
            let width = if first.wide { 64 } else { 32 };
            let each = |o: &Op| match o {
                Op::Match(x) => *x,
                _ => unreachable!("a group has one key, so one family"),
            };
            Mixed {
                op: Op::Match(Match {
                    d: Dest::Reg(d),
                    p: p.map(Dest::Reg),
                    a: Operand::Reg(a),
                    membermask,
                    ..first
                }),
                membermask: mm,
                copy_in: ops.iter().map(|o| vec![(each(o).a, a, width)]).collect(),
                copy_out: ops
                    .iter()
                    .map(|o| outputs(d, p, each(o).d, each(o).p))
                    .collect(),
            }
        }
        Op::Redux(first) => {
            let a = reg(out, first.op.ty());
            let d = reg(out, first.op.ty());
            let each = |o: &Op| match o {
                Op::Redux(x) => *x,
                _ => unreachable!("a group has one key, so one family"),
            };
            Mixed {
                op: Op::Redux(Redux {
                    d: Dest::Reg(d),
                    a: Operand::Reg(a),
                    membermask,
                    ..first
                }),
                membermask: mm,
                copy_in: ops.iter().map(|o| vec![(each(o).a, a, 32)]).collect(),
                copy_out: ops.iter().map(|o| vec![(d, each(o).d)]).collect(),
            }
        }
        Op::Activemask(_) | Op::Glue(_) | Op::Control(_) => {
            unreachable!("only .sync collectives have a rendezvous key")
        }
    }
}
