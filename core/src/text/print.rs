//! Printer of the `.ptx` case format: the inverse of [`parse`](super::parse).

use super::value::{format_bits, format_value};
use crate::ir::*;
use std::fmt::Write;

/// Prints a whole case: header comments, directives, `.lanes`, the body and
/// `.expect`. Parsing the result gives back an equal [`Case`].
pub fn print(case: &Case) -> String {
    let mut s = String::new();
    for h in &case.header {
        if h.is_empty() {
            s.push_str("//\n");
        } else {
            let _ = writeln!(s, "// {h}");
        }
    }
    let prog = &case.program;
    print_decls(&mut s, prog);
    for (r, vals) in &case.inputs.lanes {
        let d = prog.decl(*r);
        let vals = vals.map(|v| Bits::full(v, d.ty));
        let _ = writeln!(s, ".lanes {} = {};", d.name, lane_values(&vals, d.ty));
    }
    if let Some(n) = case.inputs.fuel {
        let _ = writeln!(s, ".fuel {n};");
    }
    let printed = print_body(&mut s, prog);
    for (r, vals) in &case.expect.regs {
        let d = prog.decl(*r);
        let _ = writeln!(s, ".expect {} = {};", d.name, lane_values(vals, d.ty));
    }
    if let Some(line) = case.expect.stop {
        // `.stop` names the instruction by its line: the line it is
        // printed on here (a header or other edits may have moved it from
        // the line it had when the run stopped).
        let line = prog
            .insts
            .iter()
            .position(|i| i.line == line)
            .map_or(line, |pc| printed[pc]);
        let _ = writeln!(s, ".stop {line};");
    }
    s
}

/// Prints a program alone (directives and body, no inputs or expectations).
pub fn print_program(prog: &Program) -> String {
    let mut s = String::new();
    print_decls(&mut s, prog);
    print_body(&mut s, prog);
    s
}

fn print_decls(s: &mut String, prog: &Program) {
    let _ = writeln!(s, ".version {}", prog.version);
    let _ = writeln!(s, ".target {}", prog.target);
    // Consecutive registers of one type share a `.reg` line.
    let mut i = 0;
    while i < prog.regs.len() {
        let ty = prog.regs[i].ty;
        let mut names = Vec::new();
        while i < prog.regs.len() && prog.regs[i].ty == ty {
            names.push(prog.regs[i].name.as_str());
            i += 1;
        }
        let _ = writeln!(s, ".reg {ty} {};", names.join(", "));
    }
}

/// Prints the body; returns the line (1-based) each instruction is
/// printed on.
fn print_body(s: &mut String, prog: &Program) -> Vec<u32> {
    let mut line = s.matches('\n').count() as u32;
    let mut lines = Vec::with_capacity(prog.insts.len());
    for (i, inst) in prog.insts.iter().enumerate() {
        line += print_labels(s, prog, i);
        line += 1;
        lines.push(line);
        let _ = writeln!(s, "    {}", inst_text(prog, inst));
    }
    print_labels(s, prog, prog.insts.len());
    lines
}

/// Prints the labels standing before instruction `at`; returns how many.
fn print_labels(s: &mut String, prog: &Program, at: usize) -> u32 {
    let mut n = 0;
    for l in prog.labels.iter().filter(|l| l.at == at) {
        let _ = writeln!(s, "{}:", l.name);
        n += 1;
    }
    n
}

/// Lane values: one broadcast value when all 32 agree, else 32; `_` = undefined.
fn lane_values(vals: &[Bits; WARP], ty: Type) -> String {
    let one = |v: &Bits| format_bits(*v, ty);
    if vals.iter().all(|v| *v == vals[0]) {
        one(&vals[0])
    } else {
        vals.iter().map(one).collect::<Vec<_>>().join(" ")
    }
}

fn reg_name(prog: &Program, r: Reg) -> &str {
    &prog.decl(r).name
}

fn dest(prog: &Program, d: Dest) -> String {
    match d {
        Dest::Reg(r) => reg_name(prog, r).to_string(),
        Dest::Sink => "_".to_string(),
    }
}

/// An operand; immediates are printed for the operand's type `ty`.
fn src(prog: &Program, o: Operand, ty: Type) -> String {
    match o {
        Operand::Reg(r) => reg_name(prog, r).to_string(),
        Operand::NotPred(r) => format!("!{}", reg_name(prog, r)),
        Operand::Imm(v) => format_value(v, ty),
        Operand::LaneId => "%laneid".to_string(),
    }
}

/// The text of one instruction (with its guard, without indentation): the
/// opcode ([`Op::opcode`]), then the destinations joined by `|`, the
/// sources ([`Op::sources`], immediates printed for the type they are read
/// as) and a `bra`'s label, separated by commas.
pub fn inst_text(prog: &Program, inst: &Inst) -> String {
    let mut t = match inst.guard {
        Some(g) => format!(
            "@{}{} ",
            if g.negated { "!" } else { "" },
            reg_name(prog, g.reg)
        ),
        None => String::new(),
    };
    let op = &inst.op;
    // `bar.warp.sync`, which the parser reads as a `vote` no PTX spells.
    if let Op::Vote(v) = op {
        if let Some(m) = v.warp_sync_mask() {
            let _ = write!(t, "bar.warp.sync {};", src(prog, m, Type::B32));
            return t;
        }
    }
    if let Op::LaneOp(x) = op {
        t.push_str(&lane_op_text(prog, x));
        return t;
    }
    t.push_str(&op.opcode());
    let dests: Vec<String> = op.dests().into_iter().map(|(d, _)| dest(prog, d)).collect();
    let mut operands = Vec::new();
    if !dests.is_empty() {
        operands.push(dests.join("|"));
    }
    operands.extend(op.sources().into_iter().map(|(o, ty, _)| src(prog, o, ty)));
    if let Some(l) = op.branch_target() {
        operands.push(prog.labels[l.0 as usize].name.clone());
    }
    if !operands.is_empty() {
        t.push(' ');
        t.push_str(&operands.join(", "));
    }
    t.push(';');
    t
}

/// A thread-level instruction as PTX writes it: `ld.global.u32 %r5,
/// [%rd5+4];`, `mov.b64 {%r1, %r2}, %fd1;`, `mov.u32 %r1, %tid.x;`.
fn lane_op_text(prog: &Program, x: &LaneOp) -> String {
    let addr = x.addr.map(|a| match a.base {
        Some(r) if a.offset != 0 => format!("[{}+{}]", reg_name(prog, r), a.offset),
        Some(r) => format!("[{}]", reg_name(prog, r)),
        None => format!("[{}]", a.offset),
    });
    let dests: Vec<String> = x.dests.iter().map(|&(d, _)| dest(prog, d)).collect();
    let srcs: Vec<String> = x.srcs.iter().map(|&(o, ty)| src(prog, o, ty)).collect();
    let group = |v: &[String]| format!("{{{}}}", v.join(", "));
    let mut operands = Vec::new();
    match x.kind {
        LaneOpKind::Ld(_) if dests.len() > 1 => {
            operands.extend([group(&dests)].into_iter().chain(addr))
        }
        LaneOpKind::Ld(_) => operands.extend(dests.into_iter().chain(addr)),
        LaneOpKind::St(_) if srcs.len() > 1 => {
            operands.extend(addr.into_iter().chain([group(&srcs)]))
        }
        LaneOpKind::St(_) => operands.extend(addr.into_iter().chain(srcs)),
        LaneOpKind::Unpack => operands.extend([group(&dests)].into_iter().chain(srcs)),
        LaneOpKind::Pack => operands.extend(dests.into_iter().chain([group(&srcs)])),
        LaneOpKind::Special(s) => operands.extend(dests.into_iter().chain([s.name()])),
        // `atom d, [a], b{, c}`; `red [a], b` (no destination).
        LaneOpKind::Atom(_) => operands.extend(dests.into_iter().chain(addr).chain(srcs)),
        LaneOpKind::Fence(_) => {}
        LaneOpKind::Cvta { .. }
        | LaneOpKind::Cvt { .. }
        | LaneOpKind::Int(_)
        | LaneOpKind::Float { .. }
        | LaneOpKind::FSetp(_)
        | LaneOpKind::Bar => operands.extend(dests.into_iter().chain(srcs)),
    }
    if operands.is_empty() {
        format!("{};", x.opcode)
    } else {
        format!("{} {};", x.opcode, operands.join(", "))
    }
}
