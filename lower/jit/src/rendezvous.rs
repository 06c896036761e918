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

use warp_core::ir::{Dest, Op, Operand, Program, Reg, RegDecl, Type};

/// The plan: the program the JIT lowers (the original with the mixed
/// collectives' registers appended) and the groups.
pub struct Plan {
    /// The program with the registers of every [`Mixed`] appended.
    pub prog: Program,
    /// The groups of pairing `.sync` collectives, by first pc.
    pub groups: Vec<Group>,
    /// A kernel's program (`launch.rs`): its registers are no results, so
    /// a value no lane reads again need not reach the state
    /// (`liveness.rs`). `false` for a warp program, whose registers are
    /// its results.
    pub kernel: bool,
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
    /// The collective (no guard): a member's instruction with every source
    /// and destination a register of its own.
    pub op: Op,
    /// Per pc of the group: (operand of that instruction, register of the
    /// mixed collective, width in bits) copied in for its participants,
    /// its `membermask` included.
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
        Plan {
            prog: out,
            groups,
            kernel: false,
        }
    }
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
/// same family and qualifiers, and the same operands in the same order;
/// only the second destination, `|p`, may be missing on some), its
/// registers appended to `out`.
fn mixed(out: &mut Program, prog: &Program, pcs: &[usize]) -> Mixed {
    let ops: Vec<&Op> = pcs.iter().map(|&pc| &prog.insts[pc].op).collect();
    // The member with the most destinations: `|p` where any has it.
    let mut op = (*ops
        .iter()
        .max_by_key(|o| o.dests().len())
        .expect("a group has members"))
    .clone();
    let mut sources = Vec::new();
    for (o, ty, _) in op.sources_mut() {
        let r = reg(out, ty);
        *o = Operand::Reg(r);
        sources.push((r, ty.bits().max(32)));
    }
    let mut dests = Vec::new();
    for (d, ty) in op.dests_mut() {
        let r = reg(out, ty);
        *d = Dest::Reg(r);
        dests.push(r);
    }
    Mixed {
        op,
        copy_in: ops
            .iter()
            .map(|o| {
                o.sources()
                    .into_iter()
                    .zip(&sources)
                    .map(|((operand, _, _), &(r, bits))| (operand, r, bits))
                    .collect()
            })
            .collect(),
        copy_out: ops
            .iter()
            .map(|o| {
                dests
                    .iter()
                    .zip(o.dests())
                    .map(|(&r, (d, _))| (r, d))
                    .collect()
            })
            .collect(),
    }
}
