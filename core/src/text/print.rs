//! Printer of the `.ptx` case format: the inverse of [`parse`](super::parse).

use super::value::format_value;
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
        let vals = vals.map(Some);
        let _ = writeln!(s, ".lanes {} = {};", d.name, lane_values(&vals, d.ty));
    }
    print_body(&mut s, prog);
    for (r, vals) in &case.expect.regs {
        let d = prog.decl(*r);
        let _ = writeln!(s, ".expect {} = {};", d.name, lane_values(vals, d.ty));
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

fn print_body(s: &mut String, prog: &Program) {
    for (i, inst) in prog.insts.iter().enumerate() {
        print_labels(s, prog, i);
        let _ = writeln!(s, "    {}", inst_text(prog, inst));
    }
    print_labels(s, prog, prog.insts.len());
}

fn print_labels(s: &mut String, prog: &Program, at: usize) {
    for l in prog.labels.iter().filter(|l| l.at == at) {
        let _ = writeln!(s, "{}:", l.name);
    }
}

/// Lane values: one broadcast value when all 32 agree, else 32; `_` = undefined.
fn lane_values(vals: &[Option<u64>; WARP], ty: Type) -> String {
    let one = |v: &Option<u64>| match v {
        Some(x) => format_value(*x, ty),
        None => "_".to_string(),
    };
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

fn pair(prog: &Program, d: Dest, p: Option<Dest>) -> String {
    match p {
        Some(p) => format!("{}|{}", dest(prog, d), dest(prog, p)),
        None => dest(prog, d),
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

/// The text of one instruction (with its guard, without indentation).
pub fn inst_text(prog: &Program, inst: &Inst) -> String {
    let guard = match inst.guard {
        Some(g) => format!(
            "@{}{} ",
            if g.negated { "!" } else { "" },
            reg_name(prog, g.reg)
        ),
        None => String::new(),
    };
    use Type::*;
    let body = match &inst.op {
        Op::Shfl {
            mode,
            d,
            p,
            a,
            b,
            c,
            membermask,
        } => {
            let sync = if membermask.is_some() { ".sync" } else { "" };
            let mut t = format!(
                "shfl{sync}.{}.b32 {}, {}, {}, {}",
                mode.name(),
                pair(prog, *d, *p),
                src(prog, *a, B32),
                src(prog, *b, B32),
                src(prog, *c, B32)
            );
            if let Some(m) = membermask {
                let _ = write!(t, ", {}", src(prog, *m, B32));
            }
            t
        }
        Op::Vote {
            mode,
            d,
            a,
            membermask,
        } => {
            let sync = if membermask.is_some() { ".sync" } else { "" };
            let ty = match mode {
                VoteMode::Ballot => "b32",
                VoteMode::All | VoteMode::Any | VoteMode::Uni => "pred",
            };
            let m = format!("{}.{ty}", mode.name());
            let mut t = format!("vote{sync}.{m} {}, {}", dest(prog, *d), src(prog, *a, Pred));
            if let Some(mm) = membermask {
                let _ = write!(t, ", {}", src(prog, *mm, B32));
            }
            t
        }
        Op::Match {
            mode,
            wide,
            d,
            p,
            a,
            membermask,
        } => {
            let m = mode.name();
            let ty = if *wide { B64 } else { B32 };
            format!(
                "match.{m}.sync{ty} {}, {}, {}",
                pair(prog, *d, *p),
                src(prog, *a, ty),
                src(prog, *membermask, B32)
            )
        }
        Op::Redux {
            op,
            d,
            a,
            membermask,
        } => {
            let (name, ty) = redux_name(*op);
            format!(
                "redux.sync.{name} {}, {}, {}",
                dest(prog, *d),
                src(prog, *a, ty),
                src(prog, *membermask, B32)
            )
        }
        Op::Activemask { d } => format!("activemask.b32 {}", dest(prog, *d)),
        Op::Mov { ty, d, a } => format!("mov{ty} {}, {}", dest(prog, *d), src(prog, *a, *ty)),
        Op::Bin { op, ty, d, a, b } => {
            let name = op.mnemonic(*ty);
            let bty = op.b_type(*ty);
            format!(
                "{name}{ty} {}, {}, {}",
                dest(prog, *d),
                src(prog, *a, *ty),
                src(prog, *b, bty)
            )
        }
        Op::Un { op, ty, d, a } => {
            let name = op.mnemonic();
            format!("{name}{ty} {}, {}", dest(prog, *d), src(prog, *a, *ty))
        }
        Op::Setp {
            cmp,
            combine,
            ty,
            p,
            q,
            a,
            b,
        } => {
            let c = cmp.name();
            let bo = match combine {
                Some((b, _)) => format!(".{}", b.name()),
                None => String::new(),
            };
            let mut t = format!(
                "setp.{c}{bo}{ty} {}, {}, {}",
                pair(prog, *p, *q),
                src(prog, *a, *ty),
                src(prog, *b, *ty)
            );
            if let Some((_, cc)) = combine {
                let _ = write!(t, ", {}", src(prog, *cc, Pred));
            }
            t
        }
        Op::Selp { ty, d, a, b, c } => format!(
            "selp{ty} {}, {}, {}, {}",
            dest(prog, *d),
            src(prog, *a, *ty),
            src(prog, *b, *ty),
            src(prog, *c, Pred)
        ),
        Op::Bra { target } => format!("bra {}", prog.labels[target.0 as usize].name),
        Op::Exit => "exit".to_string(),
    };
    format!("{guard}{body};")
}

/// The modifiers after `redux.sync.` and the operand type of a redux op.
pub fn redux_name(op: ReduxOp) -> (String, Type) {
    let int = |name: &str, s: Signedness| match s {
        Signedness::Unsigned => (format!("{name}.u32"), Type::U32),
        Signedness::Signed => (format!("{name}.s32"), Type::S32),
    };
    let float = |name: &str, abs: bool, nan: bool| {
        let mut t = name.to_string();
        if abs {
            t.push_str(".abs");
        }
        if nan {
            t.push_str(".NaN");
        }
        t.push_str(".f32");
        (t, Type::F32)
    };
    match op {
        ReduxOp::Add(s) => int("add", s),
        ReduxOp::Min(s) => int("min", s),
        ReduxOp::Max(s) => int("max", s),
        ReduxOp::And => ("and.b32".to_string(), Type::B32),
        ReduxOp::Or => ("or.b32".to_string(), Type::B32),
        ReduxOp::Xor => ("xor.b32".to_string(), Type::B32),
        ReduxOp::FMin { abs, nan } => float("min", abs, nan),
        ReduxOp::FMax { abs, nan } => float("max", abs, nan),
    }
}
