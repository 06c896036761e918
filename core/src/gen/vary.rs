//! More input sets for one program that keep it valid: the fuzz loop
//! compiles a program once and checks it on many inputs, so new inputs
//! must not make it undefined.
//!
//! The generator made the case defined by construction for *its* inputs:
//! it chose membermasks, guards and loop trip counts by probing the
//! interpreter on them. Any other values of the registers those choices
//! read could break that (a lane outside its `membermask`, a loop that never
//! ends, a guard that becomes undefined). So only the *data* inputs are
//! redrawn: the input registers whose values and definedness cannot reach
//! control flow, a collective's participation or `membermask`, or a memory
//! address. What reaches them is found by a backward closure over the
//! program's data flow ([`control_regs`]); the rest are redrawn from the
//! generator's own lane patterns ([`values::lanes`]), so the new sets have
//! the generator's distribution of values (signed zeros, NaNs, lane
//! patterns, groups of equal values for `match`).
//!
//! The closure is flow-insensitive and conservative: a register is control
//! if any instruction that writes a control register reads it. Each source
//! counts whole, value and definedness, since a destination's definedness
//! may depend on a source's value (a `shfl` from an inactive lane).

use super::values;
use crate::ir::{Inputs, Op, Operand, Program};
use arbitrary::Unstructured;

/// Per register (by index), whether its value or definedness can decide
/// control flow, which lanes take part in a collective or execute
/// `activemask`, or a `membermask`: the registers an input set must keep
/// to stay defined.
///
/// The roots are the guards of `bra`, `exit`, the collectives (`shfl`,
/// `vote`, `match`, `redux`: the guard says who takes part) and
/// `activemask` (who executes it is what the interpreter's certainty
/// questions are about: with these kept, runs on varied inputs ask the
/// same questions, [`crate::interp::Interp::run_reusing`]) and every
/// `membermask`. Then, until nothing changes: every source and the guard
/// of an instruction that writes a control register are control. A
/// program with memory or barriers (only PTX modules have them, the
/// generator never emits one) keeps every register, since memory carries
/// values between its instructions.
pub fn control_regs(program: &Program) -> Vec<bool> {
    let memory = |i: &crate::ir::Inst| match &i.op {
        Op::LaneOp(x) => x.access().is_some() || x.is_barrier(),
        Op::Shfl(_)
        | Op::Vote(_)
        | Op::Match(_)
        | Op::Redux(_)
        | Op::Activemask(_)
        | Op::Glue(_)
        | Op::Control(_) => false,
    };
    if program.insts.iter().any(memory) {
        return vec![true; program.regs.len()];
    }
    let mut control = vec![false; program.regs.len()];
    for inst in &program.insts {
        let guard_is_root = match &inst.op {
            Op::Control(_)
            | Op::Shfl(_)
            | Op::Vote(_)
            | Op::Match(_)
            | Op::Redux(_)
            | Op::Activemask(_) => true,
            Op::Glue(_) | Op::LaneOp(_) => false,
        };
        if let (true, Some(g)) = (guard_is_root, inst.guard) {
            mark(&mut control, Operand::Reg(g.reg));
        }
        if let Some(m) = inst.op.membermask() {
            mark(&mut control, m);
        }
    }
    loop {
        let mut changed = false;
        for inst in &program.insts {
            if !inst.op.written().iter().any(|r| control[r.index()]) {
                continue;
            }
            if let Some(g) = inst.guard {
                changed |= mark(&mut control, Operand::Reg(g.reg));
            }
            for (o, _, _) in inst.op.sources() {
                changed |= mark(&mut control, o);
            }
        }
        if !changed {
            return control;
        }
    }
}

/// Marks the register `o` reads (if any) as control; whether it was not
/// yet.
fn mark(control: &mut [bool], o: Operand) -> bool {
    match o {
        Operand::Reg(r) | Operand::NotPred(r) => !std::mem::replace(&mut control[r.index()], true),
        Operand::Imm(_) | Operand::LaneId => false,
    }
}

/// `inputs` with every data input (an input register that is not in
/// `control`, from [`control_regs`]) redrawn from the generator's lane
/// patterns, reading its choices from `u`; the control inputs and the fuel
/// are kept. With no data input, the same inputs come back.
pub fn vary_inputs(
    program: &Program,
    inputs: &Inputs,
    control: &[bool],
    u: &mut Unstructured,
) -> Inputs {
    let mut out = inputs.clone();
    for (r, lanes) in &mut out.lanes {
        if !control[r.index()] {
            let ty = program.decl(*r).ty;
            // Out of bytes, `lanes` takes its first options: still a
            // value of the type, so the set stays valid.
            if let Ok(v) = values::lanes(u, ty) {
                *lanes = v;
            }
        }
    }
    out
}

/// The number of data inputs of `inputs` (those [`vary_inputs`] redraws).
pub fn data_inputs(inputs: &Inputs, control: &[bool]) -> usize {
    inputs
        .lanes
        .iter()
        .filter(|(r, _)| !control[r.index()])
        .count()
}
