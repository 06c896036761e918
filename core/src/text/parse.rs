//! Parser of the `.ptx` case format into a type-checked [`Case`].

use super::lex::{lex, Kind, Token};
use super::value::{parse_value, Place};
use super::ParseError;
use crate::ir::*;

type PResult<T> = Result<T, ParseError>;

/// Parses a whole case file.
///
/// Every error names the line and column where the problem is: unknown
/// opcode or modifier, wrong operand count, undeclared register or label,
/// type mismatch between a register and the instruction, malformed number,
/// `.lanes`/`.expect` with other than 1 or 32 values.
pub fn parse(src: &str) -> Result<Case, ParseError> {
    let (toks, comments) = lex(src)?;
    let first_line = toks.first().map_or(u32::MAX, |t| t.line);
    let header = comments
        .iter()
        .filter(|c| c.line < first_line)
        .map(|c| c.text.clone())
        .collect();
    let mut p = Parser {
        toks,
        pos: 0,
        case: Case {
            header,
            ..Case::default()
        },
        label_uses: Vec::new(),
        eof: (1, 1),
    };
    if let Some(t) = p.toks.last() {
        p.eof = (t.line, t.col + t.text.chars().count() as u32);
    }
    p.file()?;
    Ok(p.case)
}

/// One operand as written, before it is resolved against a type.
#[derive(Clone, Debug)]
struct Raw {
    /// `!` before it.
    neg: bool,
    /// The token (word or number).
    tok: Token,
    /// `a|b`: the second half of a destination pair.
    pair: Option<Token>,
}

struct Parser {
    toks: Vec<Token>,
    pos: usize,
    case: Case,
    /// `(instruction index, label name, token)` of each `bra`, resolved at the end.
    label_uses: Vec<(usize, Token)>,
    /// Line and column just after the last token, where "unexpected end of
    /// file" is reported.
    eof: (u32, u32),
}

fn err<T>(t: &Token, msg: impl Into<String>) -> PResult<T> {
    Err(ParseError::new(t.line, t.col, msg))
}

impl Parser {
    fn peek(&self) -> Option<&Token> {
        self.toks.get(self.pos)
    }

    fn next(&mut self, what: &str) -> PResult<Token> {
        match self.toks.get(self.pos) {
            Some(t) => {
                self.pos += 1;
                Ok(t.clone())
            }
            None => Err(ParseError::new(
                self.eof.0,
                self.eof.1,
                format!("unexpected end of file: expected {what}"),
            )),
        }
    }

    fn is_punct(&self, c: &str) -> bool {
        self.peek()
            .is_some_and(|t| t.kind == Kind::Punct && t.text == c)
    }

    fn expect_punct(&mut self, c: &str) -> PResult<Token> {
        let t = self.next(&format!("`{c}`"))?;
        if t.kind != Kind::Punct || t.text != c {
            return err(&t, format!("expected `{c}`, found `{}`", t.text));
        }
        Ok(t)
    }

    fn eat_punct(&mut self, c: &str) -> bool {
        if self.is_punct(c) {
            self.pos += 1;
            true
        } else {
            false
        }
    }

    fn file(&mut self) -> PResult<()> {
        while let Some(t) = self.peek().cloned() {
            if t.kind == Kind::Word && t.text.starts_with('.') {
                self.directive()?;
            } else if t.kind == Kind::Word
                && !t.text.contains('.')
                && self
                    .toks
                    .get(self.pos + 1)
                    .is_some_and(|n| n.kind == Kind::Punct && n.text == ":")
            {
                self.pos += 2;
                self.label(&t)?;
            } else {
                self.instruction()?;
            }
        }
        for (idx, tok) in std::mem::take(&mut self.label_uses) {
            let Some(l) = self
                .case
                .program
                .labels
                .iter()
                .position(|l| l.name == tok.text)
            else {
                return err(&tok, format!("undefined label `{}`", tok.text));
            };
            match &mut self.case.program.insts[idx].op {
                Op::Bra { target } => *target = LabelId(l as u32),
                _ => unreachable!("label uses are recorded only for `bra`"),
            }
        }
        Ok(())
    }

    fn label(&mut self, t: &Token) -> PResult<()> {
        let prog = &mut self.case.program;
        if prog.labels.iter().any(|l| l.name == t.text) {
            return err(t, format!("label `{}` defined twice", t.text));
        }
        if prog.reg(&t.text).is_some() {
            return err(t, format!("`{}` is a register, not a label", t.text));
        }
        prog.labels.push(Label {
            name: t.text.clone(),
            at: prog.insts.len(),
        });
        Ok(())
    }

    fn directive(&mut self) -> PResult<()> {
        let t = self.next("a directive")?;
        match t.text.as_str() {
            ".version" => {
                let v = self.next("a version like 9.1")?;
                let parsed = v
                    .text
                    .split_once('.')
                    .and_then(|(a, b)| Some(Version::new(a.parse().ok()?, b.parse().ok()?)));
                match parsed {
                    Some(ver) if v.kind == Kind::Number => self.case.program.version = ver,
                    _ => {
                        return err(
                            &v,
                            format!("bad version `{}`: expected MAJOR.MINOR", v.text),
                        )
                    }
                }
                self.eat_punct(";");
            }
            ".target" => {
                let v = self.next("a target like sm_90")?;
                self.case.program.target = parse_target(&v)?;
                // `.target sm_90, texmode_independent` and the like: ignored.
                while self.eat_punct(",") {
                    self.next("a target option")?;
                }
                self.eat_punct(";");
            }
            ".address_size" => {
                let v = self.next("32 or 64")?;
                if v.text != "64" && v.text != "32" {
                    return err(&v, "`.address_size` must be 32 or 64");
                }
                self.eat_punct(";");
            }
            ".reg" => self.reg_decl()?,
            ".lanes" => self.lanes(&t, false)?,
            ".expect" => self.lanes(&t, true)?,
            other => return err(&t, format!("unknown directive `{other}`")),
        }
        Ok(())
    }

    fn reg_decl(&mut self) -> PResult<()> {
        let tt = self.next("a register type like .b32")?;
        let Some(ty) = tt.text.strip_prefix('.').and_then(Type::from_name) else {
            return err(
                &tt,
                format!(
                    "unknown register type `{}`: expected .b32 .u32 .s32 .f32 .b64 .u64 .s64 .pred",
                    tt.text
                ),
            );
        };
        loop {
            let n = self.next("a register name")?;
            if n.kind != Kind::Word || n.text.starts_with('.') || n.text == "_" {
                return err(&n, format!("bad register name `{}`", n.text));
            }
            if self.eat_punct("<") {
                let c = self.next("a register count")?;
                let count: u32 = match c.text.parse() {
                    Ok(k) if c.kind == Kind::Number && (1..=65536).contains(&k) => k,
                    _ => return err(&c, format!("bad register count `{}`", c.text)),
                };
                self.expect_punct(">")?;
                for i in 0..count {
                    self.declare(&n, format!("{}{i}", n.text), ty)?;
                }
            } else {
                self.declare(&n, n.text.clone(), ty)?;
            }
            if !self.eat_punct(",") {
                break;
            }
        }
        self.expect_punct(";")?;
        Ok(())
    }

    fn declare(&mut self, at: &Token, name: String, ty: Type) -> PResult<()> {
        if name == "%laneid" {
            return err(at, "`%laneid` is a special register and cannot be declared");
        }
        if self.case.program.reg(&name).is_some() {
            return err(at, format!("register `{name}` declared twice"));
        }
        if self.case.program.labels.iter().any(|l| l.name == name) {
            return err(at, format!("`{name}` is already a label"));
        }
        self.case.program.regs.push(RegDecl { name, ty });
        Ok(())
    }

    fn lookup(&self, t: &Token) -> PResult<Reg> {
        match self.case.program.reg(&t.text) {
            Some(r) => Ok(r),
            None => err(t, format!("undeclared register `{}`", t.text)),
        }
    }

    /// `.lanes R = v...;` or `.expect R = v...;` (`_` allowed in `.expect`).
    fn lanes(&mut self, dir: &Token, expect: bool) -> PResult<()> {
        let n = self.next("a register name")?;
        let reg = self.lookup(&n)?;
        let ty = self.case.program.decl(reg).ty;
        self.expect_punct("=")?;
        let mut vals: Vec<Option<u64>> = Vec::new();
        loop {
            let v = self.next("a value or `;`")?;
            if v.kind == Kind::Punct && v.text == ";" {
                break;
            }
            if v.kind == Kind::Word && v.text == "_" {
                if !expect {
                    return err(&v, "`_` (undefined) is only allowed in `.expect`");
                }
                vals.push(None);
                continue;
            }
            if v.kind != Kind::Number {
                return err(&v, format!("expected a value, found `{}`", v.text));
            }
            match parse_value(&v.text, ty, Place::LaneValue) {
                Ok(x) => vals.push(Some(x)),
                Err(m) => return err(&v, m),
            }
        }
        let vals: [Option<u64>; WARP] = match vals.len() {
            1 => [vals[0]; WARP],
            WARP => vals.try_into().expect("length checked"),
            k => {
                return err(
                    &n,
                    format!(
                        "`{} {}` has {k} values: give 32 (one per lane) or 1 (broadcast)",
                        dir.text, n.text
                    ),
                )
            }
        };
        if expect {
            if self.case.expect.regs.iter().any(|(r, _)| *r == reg) {
                return err(&n, format!("`.expect {}` given twice", n.text));
            }
            self.case.expect.regs.push((reg, vals));
        } else {
            if self.case.inputs.get(reg).is_some() {
                return err(&n, format!("`.lanes {}` given twice", n.text));
            }
            self.case
                .inputs
                .lanes
                .push((reg, vals.map(|v| v.expect("no `_` in .lanes"))));
        }
        Ok(())
    }

    fn instruction(&mut self) -> PResult<()> {
        let mut guard = None;
        let start = self.peek().cloned().expect("called with a token");
        if self.eat_punct("@") {
            let negated = self.eat_punct("!");
            let g = self.next("a guard predicate")?;
            let reg = self.lookup(&g)?;
            if self.case.program.decl(reg).ty != Type::Pred {
                return err(&g, format!("guard `{}` is not a .pred register", g.text));
            }
            guard = Some(Guard { reg, negated });
        }
        let opt = self.next("an instruction")?;
        if opt.kind != Kind::Word || opt.text.starts_with('.') {
            return err(
                &opt,
                format!("expected an instruction, found `{}`", opt.text),
            );
        }
        let mut raws = Vec::new();
        if !self.is_punct(";") {
            loop {
                raws.push(self.raw_operand()?);
                if !self.eat_punct(",") {
                    break;
                }
            }
        }
        let semi = self.next("`;`")?;
        if semi.kind != Kind::Punct || semi.text != ";" {
            return err(&semi, format!("expected `,` or `;`, found `{}`", semi.text));
        }
        let op = Build {
            p: self,
            opt: &opt,
            raws: &raws,
        }
        .op()?;
        let idx = self.case.program.insts.len();
        if let Op::Bra { .. } = op {
            self.label_uses.push((idx, raws[0].tok.clone()));
        }
        self.case.program.insts.push(Inst {
            guard,
            op,
            line: start.line,
        });
        Ok(())
    }

    fn raw_operand(&mut self) -> PResult<Raw> {
        let neg = self.eat_punct("!");
        let tok = self.next("an operand")?;
        if tok.kind == Kind::Punct {
            return err(&tok, format!("expected an operand, found `{}`", tok.text));
        }
        let pair = if self.eat_punct("|") {
            Some(self.next("a second destination")?)
        } else {
            None
        };
        Ok(Raw { neg, tok, pair })
    }
}

fn parse_target(v: &Token) -> PResult<Target> {
    let bad = || {
        err(
            v,
            format!("bad target `{}`: expected sm_NN, sm_NNa or sm_NNf", v.text),
        )
    };
    let Some(rest) = v.text.strip_prefix("sm_") else {
        return bad();
    };
    let (num, suffix) = match rest.chars().last() {
        Some(c @ ('a' | 'f')) => (&rest[..rest.len() - 1], Some(c)),
        _ => (rest, None),
    };
    match num.parse::<u32>() {
        Ok(sm) if !num.is_empty() && sm >= 10 => Ok(Target { sm, suffix }),
        _ => bad(),
    }
}

/// Builds one [`Op`] from an opcode and its raw operands.
struct Build<'a> {
    p: &'a Parser,
    opt: &'a Token,
    raws: &'a [Raw],
}

impl Build<'_> {
    fn fail<T>(&self, msg: impl Into<String>) -> PResult<T> {
        err(self.opt, msg)
    }

    fn count(&self, n: usize) -> PResult<()> {
        if self.raws.len() != n {
            let at = if self.raws.len() > n {
                &self.raws[n].tok
            } else {
                self.opt
            };
            return err(
                at,
                format!(
                    "`{}` takes {n} operand{}, found {}",
                    self.opt.text,
                    if n == 1 { "" } else { "s" },
                    self.raws.len()
                ),
            );
        }
        for r in self.raws.iter().skip(1) {
            if let Some(t) = &r.pair {
                return err(t, "`|` is only allowed in the destination operand");
            }
        }
        Ok(())
    }

    fn reg_of(&self, t: &Token, want: Type) -> PResult<Reg> {
        let r = self.p.lookup(t)?;
        let have = self.p.case.program.decl(r).ty;
        if !have.compatible(want) {
            return err(
                t,
                format!(
                    "type mismatch: register `{}` is {have} but `{}` needs a {want} operand here",
                    t.text, self.opt.text
                ),
            );
        }
        Ok(r)
    }

    fn dest_tok(&self, t: &Token, want: Type) -> PResult<Dest> {
        if t.kind == Kind::Word && t.text == "_" {
            return Ok(Dest::Sink);
        }
        if t.kind != Kind::Word || t.text == "%laneid" {
            return err(t, format!("`{}` cannot be a destination", t.text));
        }
        Ok(Dest::Reg(self.reg_of(t, want)?))
    }

    /// Operand `i` as a destination without a `|` partner.
    fn dest(&self, i: usize, want: Type) -> PResult<Dest> {
        let r = &self.raws[i];
        if r.neg {
            return err(&r.tok, "`!` is not allowed on a destination");
        }
        if let Some(t) = &r.pair {
            return err(t, format!("`{}` has no second destination", self.opt.text));
        }
        self.dest_tok(&r.tok, want)
    }

    /// Operand `i` as `d[|p]`.
    fn dest_pair(&self, i: usize, want: Type, second: Type) -> PResult<(Dest, Option<Dest>)> {
        let r = &self.raws[i];
        if r.neg {
            return err(&r.tok, "`!` is not allowed on a destination");
        }
        let d = self.dest_tok(&r.tok, want)?;
        let p = match &r.pair {
            Some(t) => Some(self.dest_tok(t, second)?),
            None => None,
        };
        Ok((d, p))
    }

    /// Operand `i` as a source of type `want`; `allow_not` permits `!p`.
    fn src_with(&self, i: usize, want: Type, allow_not: bool) -> PResult<Operand> {
        let r = &self.raws[i];
        let t = &r.tok;
        if r.neg {
            if !allow_not {
                return err(
                    t,
                    "`!` is only allowed on the predicate source of vote and setp",
                );
            }
            if t.kind != Kind::Word {
                return err(t, "`!` needs a .pred register");
            }
            return Ok(Operand::NotPred(self.reg_of(t, Type::Pred)?));
        }
        match t.kind {
            Kind::Number => match parse_value(&t.text, want, Place::Operand) {
                Ok(v) => Ok(Operand::Imm(v)),
                Err(m) => err(t, m),
            },
            Kind::Word if t.text == "%laneid" => {
                if !Type::U32.compatible(want) {
                    return err(
                        t,
                        format!("type mismatch: `%laneid` is .u32 but a {want} operand is needed"),
                    );
                }
                Ok(Operand::LaneId)
            }
            Kind::Word if t.text == "_" => err(t, "the sink `_` is only allowed as a destination"),
            Kind::Word => Ok(Operand::Reg(self.reg_of(t, want)?)),
            Kind::Punct => err(t, format!("expected an operand, found `{}`", t.text)),
        }
    }

    fn src(&self, i: usize, want: Type) -> PResult<Operand> {
        self.src_with(i, want, false)
    }

    /// The instruction type named by a modifier, restricted to `allowed`.
    fn ty(&self, m: &str, allowed: &[Type]) -> PResult<Type> {
        match m.strip_prefix("").and_then(Type::from_name) {
            Some(t) if allowed.contains(&t) => Ok(t),
            _ => {
                let names: Vec<String> = allowed.iter().map(|t| t.to_string()).collect();
                self.fail(format!(
                    "`{}`: type `.{m}` not allowed here (expected one of {})",
                    self.opt.text,
                    names.join(" ")
                ))
            }
        }
    }

    fn shape(&self, parts: &[&str], n: usize, form: &str) -> PResult<()> {
        if parts.len() != n {
            return self.fail(format!("`{}`: expected the form `{form}`", self.opt.text));
        }
        Ok(())
    }

    fn op(&self) -> PResult<Op> {
        use Type::*;
        let parts: Vec<&str> = self.opt.text.split('.').collect();
        let ints = [U32, S32, U64, S64];
        match parts[0] {
            "shfl" => {
                let sync = parts.get(1) == Some(&"sync");
                let m = if sync { &parts[2..] } else { &parts[1..] };
                self.shape(m, 2, "shfl[.sync].{up,down,bfly,idx}.b32")?;
                let mode = match m[0] {
                    "up" => ShflMode::Up,
                    "down" => ShflMode::Down,
                    "bfly" => ShflMode::Bfly,
                    "idx" => ShflMode::Idx,
                    other => return self.fail(format!("unknown shfl mode `.{other}`")),
                };
                self.ty(m[1], &[B32])?;
                self.count(if sync { 5 } else { 4 })?;
                let (d, p) = self.dest_pair(0, B32, Pred)?;
                Ok(Op::Shfl {
                    mode,
                    d,
                    p,
                    a: self.src(1, B32)?,
                    b: self.src(2, B32)?,
                    c: self.src(3, B32)?,
                    membermask: if sync { Some(self.src(4, B32)?) } else { None },
                })
            }
            "vote" => {
                let sync = parts.get(1) == Some(&"sync");
                let m = if sync { &parts[2..] } else { &parts[1..] };
                self.shape(
                    m,
                    2,
                    "vote[.sync].{all,any,uni}.pred or vote[.sync].ballot.b32",
                )?;
                let (mode, dty) = match m[0] {
                    "all" => (VoteMode::All, Pred),
                    "any" => (VoteMode::Any, Pred),
                    "uni" => (VoteMode::Uni, Pred),
                    "ballot" => (VoteMode::Ballot, B32),
                    other => return self.fail(format!("unknown vote mode `.{other}`")),
                };
                self.ty(m[1], &[dty])?;
                self.count(if sync { 3 } else { 2 })?;
                Ok(Op::Vote {
                    mode,
                    d: self.dest(0, dty)?,
                    a: self.src_with(1, Pred, true)?,
                    membermask: if sync { Some(self.src(2, B32)?) } else { None },
                })
            }
            "match" => {
                self.shape(&parts, 4, "match.{any,all}.sync.{b32,b64}")?;
                if parts[2] != "sync" {
                    return self.fail(format!(
                        "`{}`: expected `.sync` after the mode",
                        self.opt.text
                    ));
                }
                let mode = match parts[1] {
                    "any" => MatchMode::Any,
                    "all" => MatchMode::All,
                    other => return self.fail(format!("unknown match mode `.{other}`")),
                };
                let ty = self.ty(parts[3], &[B32, B64])?;
                self.count(3)?;
                let (d, p) = match mode {
                    MatchMode::All => self.dest_pair(0, B32, Pred)?,
                    MatchMode::Any => (self.dest(0, B32)?, None),
                };
                if d == Dest::Sink && p == Some(Dest::Sink) {
                    return err(
                        &self.raws[0].tok,
                        "the sink `_` may replace only one of `d|p`",
                    );
                }
                Ok(Op::Match {
                    mode,
                    wide: ty == B64,
                    d,
                    p,
                    a: self.src(1, ty)?,
                    membermask: self.src(2, B32)?,
                })
            }
            "redux" => {
                if parts.get(1) != Some(&"sync") || parts.len() < 4 {
                    return self.fail(format!(
                        "`{}`: expected the form `redux.sync.op{{.abs}}{{.NaN}}.type`",
                        self.opt.text
                    ));
                }
                let opname = parts[2];
                let quals = &parts[3..parts.len() - 1];
                let tname = parts[parts.len() - 1];
                let abs = quals.contains(&"abs");
                let nan = quals.contains(&"NaN");
                let known = (abs as usize) + (nan as usize);
                if known != quals.len() || (quals.len() == 2 && quals != ["abs", "NaN"]) {
                    return self.fail(format!(
                        "`{}`: unknown or misplaced qualifier (only `.abs` then `.NaN`, for .f32)",
                        self.opt.text
                    ));
                }
                let (op, ty) = match (opname, tname) {
                    ("add" | "min" | "max", "u32" | "s32") => {
                        let s = if tname == "u32" {
                            Signedness::Unsigned
                        } else {
                            Signedness::Signed
                        };
                        let op = match opname {
                            "add" => ReduxOp::Add(s),
                            "min" => ReduxOp::Min(s),
                            _ => ReduxOp::Max(s),
                        };
                        (op, if tname == "u32" { U32 } else { S32 })
                    }
                    ("and", "b32") => (ReduxOp::And, B32),
                    ("or", "b32") => (ReduxOp::Or, B32),
                    ("xor", "b32") => (ReduxOp::Xor, B32),
                    ("min", "f32") => (ReduxOp::FMin { abs, nan }, F32),
                    ("max", "f32") => (ReduxOp::FMax { abs, nan }, F32),
                    _ => {
                        return self.fail(format!(
                            "`{}`: no such redux form (add/min/max .u32/.s32, and/or/xor .b32, min/max .f32)",
                            self.opt.text
                        ))
                    }
                };
                if (abs || nan) && ty != F32 {
                    return self.fail("`.abs` and `.NaN` apply only to `.f32` redux");
                }
                self.count(3)?;
                Ok(Op::Redux {
                    op,
                    d: self.dest(0, ty)?,
                    a: self.src(1, ty)?,
                    membermask: self.src(2, B32)?,
                })
            }
            "activemask" => {
                self.shape(&parts, 2, "activemask.b32")?;
                self.ty(parts[1], &[B32])?;
                self.count(1)?;
                Ok(Op::Activemask {
                    d: self.dest(0, B32)?,
                })
            }
            "mov" => {
                self.shape(&parts, 2, "mov.type")?;
                let ty = self.ty(parts[1], &[B32, U32, S32, F32, B64, U64, S64, Pred])?;
                self.count(2)?;
                Ok(Op::Mov {
                    ty,
                    d: self.dest(0, ty)?,
                    a: self.src(1, ty)?,
                })
            }
            "add" | "sub" | "min" | "max" | "mul" | "and" | "or" | "xor" | "shl" | "shr" => {
                let (op, ty) = match (parts[0], &parts[1..]) {
                    ("add", [t]) => (BinOp::Add, self.ty(t, &[U32, S32, U64, S64, F32])?),
                    ("sub", [t]) => (BinOp::Sub, self.ty(t, &[U32, S32, U64, S64, F32])?),
                    ("min", [t]) => (BinOp::Min, self.ty(t, &[U32, S32, U64, S64, F32])?),
                    ("max", [t]) => (BinOp::Max, self.ty(t, &[U32, S32, U64, S64, F32])?),
                    ("mul", ["lo", t]) => (BinOp::Mul, self.ty(t, &ints)?),
                    ("mul", ["hi", t]) => (BinOp::MulHi, self.ty(t, &ints)?),
                    ("mul", [t]) => (BinOp::Mul, self.ty(t, &[F32])?),
                    ("and", [t]) => (BinOp::And, self.ty(t, &[B32, B64, Pred])?),
                    ("or", [t]) => (BinOp::Or, self.ty(t, &[B32, B64, Pred])?),
                    ("xor", [t]) => (BinOp::Xor, self.ty(t, &[B32, B64, Pred])?),
                    ("shl", [t]) => (BinOp::Shl, self.ty(t, &[B32, B64])?),
                    ("shr", [t]) => (BinOp::Shr, self.ty(t, &[B32, B64, U32, U64, S32, S64])?),
                    _ => {
                        return self.fail(format!(
                            "`{}`: unknown form (e.g. add.u32, mul.lo.s32, mul.hi.u32, mul.f32, and.b32, shr.s32)",
                            self.opt.text
                        ))
                    }
                };
                self.count(3)?;
                let bty = op.b_type(ty);
                Ok(Op::Bin {
                    op,
                    ty,
                    d: self.dest(0, ty)?,
                    a: self.src(1, ty)?,
                    b: self.src(2, bty)?,
                })
            }
            "not" | "neg" | "abs" | "popc" => {
                self.shape(&parts, 2, &format!("{}.type", parts[0]))?;
                let (op, ty) = match parts[0] {
                    "not" => (UnOp::Not, self.ty(parts[1], &[B32, B64, Pred])?),
                    "neg" => (UnOp::Neg, self.ty(parts[1], &[F32])?),
                    "abs" => (UnOp::Abs, self.ty(parts[1], &[F32])?),
                    _ => (UnOp::Popc, self.ty(parts[1], &[B32, B64])?),
                };
                self.count(2)?;
                let dty = if op == UnOp::Popc { U32 } else { ty };
                Ok(Op::Un {
                    op,
                    ty,
                    d: self.dest(0, dty)?,
                    a: self.src(1, ty)?,
                })
            }
            "setp" => {
                let form = "setp.cmp{.and,.or,.xor}.type";
                if parts.len() != 3 && parts.len() != 4 {
                    return self.shape(&parts, 3, form).map(|_| unreachable!());
                }
                let cmp = match parts[1] {
                    "eq" => CmpOp::Eq,
                    "ne" => CmpOp::Ne,
                    "lt" => CmpOp::Lt,
                    "le" => CmpOp::Le,
                    "gt" => CmpOp::Gt,
                    "ge" => CmpOp::Ge,
                    other => return self.fail(format!("unknown comparison `.{other}`")),
                };
                let bool_op = if parts.len() == 4 {
                    Some(match parts[2] {
                        "and" => BoolOp::And,
                        "or" => BoolOp::Or,
                        "xor" => BoolOp::Xor,
                        other => return self.fail(format!("unknown boolean operator `.{other}`")),
                    })
                } else {
                    None
                };
                let allowed: &[Type] = match cmp {
                    CmpOp::Eq | CmpOp::Ne => &[B32, B64, U32, S32, U64, S64, F32],
                    CmpOp::Lt | CmpOp::Le | CmpOp::Gt | CmpOp::Ge => &[U32, S32, U64, S64, F32],
                };
                let ty = self.ty(parts[parts.len() - 1], allowed)?;
                self.count(if bool_op.is_some() { 4 } else { 3 })?;
                let (p, q) = self.dest_pair(0, Pred, Pred)?;
                let combine = match bool_op {
                    Some(b) => Some((b, self.src_with(3, Pred, true)?)),
                    None => None,
                };
                Ok(Op::Setp {
                    cmp,
                    combine,
                    ty,
                    p,
                    q,
                    a: self.src(1, ty)?,
                    b: self.src(2, ty)?,
                })
            }
            "selp" => {
                self.shape(&parts, 2, "selp.type")?;
                let ty = self.ty(parts[1], &[B32, U32, S32, F32, B64, U64, S64])?;
                self.count(4)?;
                Ok(Op::Selp {
                    ty,
                    d: self.dest(0, ty)?,
                    a: self.src(1, ty)?,
                    b: self.src(2, ty)?,
                    c: self.src(3, Pred)?,
                })
            }
            "bra" => {
                if parts.len() > 2 || (parts.len() == 2 && parts[1] != "uni") {
                    return self.fail(format!("`{}`: expected `bra LABEL;`", self.opt.text));
                }
                self.count(1)?;
                let r = &self.raws[0];
                if r.neg || r.tok.kind != Kind::Word {
                    return err(&r.tok, "`bra` needs a label name");
                }
                // Resolved once every label is known.
                Ok(Op::Bra {
                    target: LabelId(u32::MAX),
                })
            }
            "exit" => {
                self.shape(&parts, 1, "exit")?;
                self.count(0)?;
                Ok(Op::Exit)
            }
            _ => self.fail(format!("unknown instruction `{}`", self.opt.text)),
        }
    }
}
