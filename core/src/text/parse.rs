//! Parser of the `.ptx` case format into a type-checked [`Case`].

use super::error::ParseError;
use super::lex::{lex, Kind, Token};
use super::scope::Scope;
use super::value::{parse_value, Place};
use crate::ir::*;

pub(super) type PResult<T> = Result<T, ParseError>;

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
        scope: Scope::default(),
        body: Body::Case,
    };
    if let Some(t) = p.toks.last() {
        p.eof = (t.line, t.col + t.text.chars().count() as u32);
    }
    p.file()?;
    Ok(p.case)
}

/// One operand as written, before it is resolved against a type.
#[derive(Clone, Debug)]
pub(super) struct Raw {
    /// `!` before it.
    pub(super) neg: bool,
    /// The token (word or number; `[` for an address, `{` for a group).
    pub(super) tok: Token,
    /// `a|b`: the second half of a destination pair.
    pub(super) pair: Option<Token>,
    /// `[base+offset]` (PTX modules): the base token (register or symbol,
    /// `None` for a plain number) and the offset.
    pub(super) addr: Option<(Option<Token>, i64)>,
    /// `{a, b}` (PTX modules' `mov.b64` packing): the members.
    pub(super) group: Vec<Token>,
}

pub(super) struct Parser {
    pub(super) toks: Vec<Token>,
    pub(super) pos: usize,
    pub(super) case: Case,
    /// `(instruction index, label name, token)` of each `bra`, resolved at the end.
    pub(super) label_uses: Vec<(usize, Token)>,
    /// Line and column just after the last token, where "unexpected end of
    /// file" is reported.
    pub(super) eof: (u32, u32),
    /// The symbols a body may name (a case's: `WARP_SZ` alone).
    pub(super) scope: Scope,
    /// What the instructions are the body of: a case or a module's kernel.
    pub(super) body: Body,
}

/// What a body belongs to. Both read every instruction with the same code
/// ([`Build::body_op`]); a case refuses only what needs memory or a launch.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Body {
    /// A case file: one warp of one CTA, with `.lanes` inputs.
    Case,
    /// A PTX module's `.entry` or `.func`.
    Module,
}

pub(super) fn err<T>(t: &Token, msg: impl Into<String>) -> PResult<T> {
    Err(ParseError::new(t.line, t.col, msg))
}

impl Parser {
    pub(super) fn peek(&self) -> Option<&Token> {
        self.toks.get(self.pos)
    }

    pub(super) fn next(&mut self, what: &str) -> PResult<Token> {
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

    pub(super) fn is_punct(&self, c: &str) -> bool {
        self.peek()
            .is_some_and(|t| t.kind == Kind::Punct && t.text == c)
    }

    pub(super) fn expect_punct(&mut self, c: &str) -> PResult<Token> {
        let t = self.next(&format!("`{c}`"))?;
        if t.kind != Kind::Punct || t.text != c {
            return err(&t, format!("expected `{c}`, found `{}`", t.text));
        }
        Ok(t)
    }

    pub(super) fn eat_punct(&mut self, c: &str) -> bool {
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
        self.resolve_labels()
    }

    /// Points every `bra` at its label, once all labels are known.
    pub(super) fn resolve_labels(&mut self) -> PResult<()> {
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
            // Label uses are recorded only for `bra`, whose target is all it has.
            self.case.program.insts[idx].op = Op::Control(Control::Bra {
                target: LabelId(l as u32),
            });
        }
        Ok(())
    }

    pub(super) fn label(&mut self, t: &Token) -> PResult<()> {
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

    pub(super) fn directive(&mut self) -> PResult<()> {
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
            ".fuel" => {
                let n = self.count(&t, "a number of warp steps")?;
                if self.case.inputs.fuel.replace(n).is_some() {
                    return err(&t, "`.fuel` given twice");
                }
            }
            ".stop" => {
                let n = self.count(&t, "the line the run stops before")?;
                let Ok(line) = u32::try_from(n) else {
                    return err(&t, format!("`.stop {n}`: no such line"));
                };
                if self.case.expect.stop.replace(line).is_some() {
                    return err(&t, "`.stop` given twice");
                }
            }
            // Debugging and compiler directives, as in a kernel body.
            ".loc" | ".file" => self.skip_line(),
            ".pragma" => self.skip_statement()?,
            other @ (".param" | ".local") => return err(&t, needs_module(other)),
            other @ (".visible" | ".entry" | ".func" | ".extern" | ".weak" | ".global"
            | ".const" | ".shared") => {
                return err(
                    &t,
                    format!(
                        "unknown directive `{other}` in a case file: this looks like a PTX module; \
                         run a kernel of it with --launch FILE or --kernel NAME"
                    ),
                )
            }
            other => return err(&t, format!("unknown directive `{other}`")),
        }
        Ok(())
    }

    /// Skips the tokens left on the current token's line (`.loc 1 5 3`,
    /// `.file 1 "a.cu"`: no `;`).
    pub(super) fn skip_line(&mut self) {
        let line = self
            .toks
            .get(self.pos.saturating_sub(1))
            .map_or(0, |t| t.line);
        while self.peek().is_some_and(|t| t.line == line) {
            self.pos += 1;
        }
    }

    /// Skips up to and including the next `;`.
    pub(super) fn skip_statement(&mut self) -> PResult<()> {
        loop {
            let t = self.next("`;`")?;
            if t.kind == Kind::Punct && t.text == ";" {
                return Ok(());
            }
        }
    }

    /// The decimal count after `.fuel` or `.stop`, and its `;`.
    pub(super) fn count(&mut self, directive: &Token, what: &str) -> PResult<u64> {
        let v = self.next(what)?;
        let n = match v.text.parse::<u64>() {
            Ok(n) if v.kind == Kind::Number => n,
            _ => {
                return err(
                    &v,
                    format!("`{}` takes {what}, not `{}`", directive.text, v.text),
                )
            }
        };
        self.expect_punct(";")?;
        Ok(n)
    }

    pub(super) fn reg_decl(&mut self) -> PResult<()> {
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

    /// Declares register `name` (written at `at`). In a module's body it
    /// belongs to the innermost `{ }` block (see [`Scope`]): declared twice
    /// in one block is an error, in another block it is a new register;
    /// a case file has one level, where every name is declared once.
    fn declare(&mut self, at: &Token, name: String, ty: Type) -> PResult<()> {
        if name == "%laneid" {
            return err(at, "`%laneid` is a special register and cannot be declared");
        }
        if self.scope.in_block() {
            if self.scope.reg_here(&name) {
                return err(at, format!("register `{name}` declared twice in one scope"));
            }
        } else if self.case.program.reg(&name).is_some() {
            return err(at, format!("register `{name}` declared twice"));
        }
        if self.case.program.labels.iter().any(|l| l.name == name) {
            return err(at, format!("`{name}` is already a label"));
        }
        let prog = &mut self.case.program;
        let reg = Reg(prog.regs.len() as u32);
        let flat = Scope::flat_name(prog, &name);
        prog.regs.push(RegDecl { name: flat, ty });
        self.scope.bind_reg(&name, reg, at.line);
        Ok(())
    }

    /// The register a name stands for here: in a module's body the
    /// innermost block's declaration of it (see [`Scope`]), in a case file
    /// the one register of that name.
    pub(super) fn lookup(&self, t: &Token) -> PResult<Reg> {
        let found = if self.scope.in_block() {
            self.scope.reg(&t.text)
        } else {
            self.case.program.reg(&t.text)
        };
        match (found, self.scope.ended(&t.text)) {
            (Some(r), _) => Ok(r),
            (None, Some((at, end))) => err(
                t,
                format!(
                    "undeclared register `{}`: the `{}` declared at line {at} belongs to a `{{ }}` block that ended at line {end}",
                    t.text, t.text
                ),
            ),
            (None, None) => err(t, format!("undeclared register `{}`", t.text)),
        }
    }

    /// `.lanes R = v...;` or `.expect R = v...;` (`_` allowed in `.expect`).
    fn lanes(&mut self, dir: &Token, expect: bool) -> PResult<()> {
        let n = self.next("a register name")?;
        let reg = self.lookup(&n)?;
        let ty = self.case.program.decl(reg).ty;
        self.expect_punct("=")?;
        let mut vals: Vec<Bits> = Vec::new();
        loop {
            let v = self.next("a value or `;`")?;
            if v.kind == Kind::Punct && v.text == ";" {
                break;
            }
            if v.kind == Kind::Word && v.text == "_" {
                if !expect {
                    return err(&v, "`_` (undefined) is only allowed in `.expect`");
                }
                vals.push(Bits::UNDEFINED);
                continue;
            }
            if v.kind != Kind::Number {
                return err(&v, format!("expected a value, found `{}`", v.text));
            }
            let x = match parse_value(&v.text, ty, Place::LaneValue) {
                Ok(x) => x,
                Err(m) => return err(&v, m),
            };
            // `VALUE:MASK`: only the bits of MASK are defined.
            if self.is_punct(":") {
                let colon = self.next("`:`")?;
                if !expect {
                    return err(
                        &colon,
                        "`VALUE:MASK` (partly defined) is only allowed in `.expect`",
                    );
                }
                let m = self.next("a mask of defined bits after `:`")?;
                if ty == Type::Pred {
                    return err(&m, "a .pred lane is defined or not (`_`): it has no mask");
                }
                let mask = match (
                    m.kind,
                    parse_value(&m.text, ty.bit_type(), Place::LaneValue),
                ) {
                    (Kind::Number, Ok(mask)) => mask,
                    (Kind::Number, Err(e)) => return err(&m, e),
                    _ => {
                        return err(
                            &m,
                            format!("expected a mask of defined bits, found `{}`", m.text),
                        )
                    }
                };
                if x & !mask != 0 {
                    return err(
                        &v,
                        format!(
                            "`{}:{}` sets bits outside the mask of defined bits",
                            v.text, m.text
                        ),
                    );
                }
                vals.push(Bits::new(x, mask & ty.mask()));
            } else {
                vals.push(Bits::full(x, ty));
            }
        }
        let vals: [Bits; WARP] = match vals.len() {
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
            self.case.inputs.lanes.push((reg, vals.map(|v| v.value)));
        }
        Ok(())
    }

    pub(super) fn instruction(&mut self) -> PResult<()> {
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
        if opt.text.split('.').next() == Some("call") {
            if self.body == Body::Case {
                return err(&opt, needs_module(&opt.text));
            }
            return self.inline_call(guard, &opt, &raws);
        }
        let b = Build {
            p: self,
            opt: &opt,
            raws: &raws,
        };
        let op = b.body_op()?;
        let idx = self.case.program.insts.len();
        if op.branch_target().is_some() {
            self.label_uses.push((idx, raws[0].tok.clone()));
        }
        self.case.program.insts.push(Inst {
            guard,
            op,
            line: start.line,
        });
        Ok(())
    }

    pub(super) fn raw_operand(&mut self) -> PResult<Raw> {
        let neg = self.eat_punct("!");
        if self.is_punct("[") || self.is_punct("{") || self.is_punct("(") {
            return self.raw_bracketed(neg);
        }
        let tok = self.next("an operand")?;
        if tok.kind == Kind::Punct {
            return err(&tok, format!("expected an operand, found `{}`", tok.text));
        }
        let pair = if self.eat_punct("|") {
            Some(self.next("a second destination")?)
        } else {
            None
        };
        Ok(Raw {
            neg,
            tok,
            pair,
            addr: None,
            group: Vec::new(),
        })
    }

    /// `[base+offset]`, `[base]`, `[number]` or `{a, b, ...}`.
    fn raw_bracketed(&mut self, neg: bool) -> PResult<Raw> {
        let open = self.next("`[` or `{`")?;
        let mut raw = Raw {
            neg,
            tok: open.clone(),
            pair: None,
            addr: None,
            group: Vec::new(),
        };
        if open.text == "{" || open.text == "(" {
            let close = if open.text == "{" { "}" } else { ")" };
            if close == ")" && self.eat_punct(")") {
                return Ok(raw);
            }
            loop {
                let t = self.next("a register")?;
                if t.kind != Kind::Word {
                    return err(&t, format!("expected a register, found `{}`", t.text));
                }
                raw.group.push(t);
                if !self.eat_punct(",") {
                    break;
                }
            }
            self.expect_punct(close)?;
            return Ok(raw);
        }
        let first = self.next("an address")?;
        let number = |t: &Token| -> PResult<i64> {
            let v = if let Some(h) = t.text.strip_prefix("0x") {
                i64::from_str_radix(h, 16).ok()
            } else if let Some(h) = t.text.strip_prefix("-0x") {
                i64::from_str_radix(h, 16).ok().map(|v| -v)
            } else {
                t.text.parse::<i64>().ok()
            };
            v.map_or_else(|| err(t, format!("bad address offset `{}`", t.text)), Ok)
        };
        let (base, mut offset) = match first.kind {
            Kind::Number => (None, number(&first)?),
            Kind::Word => (Some(first), 0),
            Kind::Punct | Kind::Str => {
                return err(
                    &first,
                    format!("expected an address, found `{}`", first.text),
                )
            }
        };
        if self.eat_punct("+") {
            let t = self.next("an offset")?;
            if t.kind != Kind::Number {
                return err(&t, format!("expected a number offset, found `{}`", t.text));
            }
            offset += number(&t)?;
        } else if self
            .peek()
            .is_some_and(|t| t.kind == Kind::Number && t.text.starts_with('-'))
        {
            // `[%rd1-4]` lexes as a register and a negative number.
            let t = self.next("an offset")?;
            offset += number(&t)?;
        }
        self.expect_punct("]")?;
        raw.addr = Some((base, offset));
        Ok(raw)
    }
}

/// Why `what` (an instruction or a directive) is refused in a case file:
/// it needs memory or a launch, which a case does not have.
pub(super) fn needs_module(what: &str) -> String {
    format!(
        "`{what}` needs memory or a launch, which a case file does not have: \
         write it in a PTX module and run a kernel with --launch FILE (docs/kernels.md)"
    )
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

/// The item of `all` whose PTX spelling (`name`) is `s`: the parser reads
/// modes and operations by the IR's own names for them.
fn by_name<T: Copy>(all: &[T], name: fn(T) -> &'static str, s: &str) -> Option<T> {
    all.iter().copied().find(|&x| name(x) == s)
}

/// Builds one [`Op`] from an opcode and its raw operands.
pub(super) struct Build<'a> {
    pub(super) p: &'a Parser,
    pub(super) opt: &'a Token,
    pub(super) raws: &'a [Raw],
}

impl Build<'_> {
    pub(super) fn fail<T>(&self, msg: impl Into<String>) -> PResult<T> {
        err(self.opt, msg)
    }

    pub(super) fn count(&self, n: usize) -> PResult<()> {
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

    pub(super) fn reg_of(&self, t: &Token, want: Type) -> PResult<Reg> {
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

    pub(super) fn dest_tok(&self, t: &Token, want: Type) -> PResult<Dest> {
        if t.kind == Kind::Word && t.text == "_" {
            return Ok(Dest::Sink);
        }
        if t.kind != Kind::Word || t.text == "%laneid" {
            return err(t, format!("`{}` cannot be a destination", t.text));
        }
        Ok(Dest::Reg(self.reg_of(t, want)?))
    }

    /// Operand `i` as a destination without a `|` partner.
    pub(super) fn dest(&self, i: usize, want: Type) -> PResult<Dest> {
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
    pub(super) fn dest_pair(
        &self,
        i: usize,
        want: Type,
        second: Type,
    ) -> PResult<(Dest, Option<Dest>)> {
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
    pub(super) fn src_with(&self, i: usize, want: Type, allow_not: bool) -> PResult<Operand> {
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
            // LLVM writes predicate immediates (`mov.pred %p, -1`,
            // `vote.sync.ballot.b32 %r, 1, -1`); nonzero is true.
            Kind::Number if want == Type::Pred => {
                match parse_value(&t.text, Type::S64, Place::Operand) {
                    Ok(v) => Ok(Operand::Imm((v != 0) as u64)),
                    Err(m) => err(t, m),
                }
            }
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
            Kind::Word => match self.p.scope.constant(&t.text) {
                Some(v) => Ok(Operand::Imm(v & want.mask())),
                None => Ok(Operand::Reg(self.reg_of(t, want)?)),
            },
            Kind::Punct | Kind::Str => err(t, format!("expected an operand, found `{}`", t.text)),
        }
    }

    pub(super) fn src(&self, i: usize, want: Type) -> PResult<Operand> {
        self.src_with(i, want, false)
    }

    /// The instruction type named by a modifier, restricted to `allowed`.
    pub(super) fn ty(&self, m: &str, allowed: &[Type]) -> PResult<Type> {
        match Type::from_name(m) {
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

    /// The type of a glue instruction: one of `allowed`, or its 16-bit
    /// counterpart ([`narrow_types`]: `add.s16`, `setp.lt.u16`,
    /// `selp.b16`).
    pub(super) fn glue_ty(&self, m: &str, allowed: &[Type]) -> PResult<Type> {
        let mut all = allowed.to_vec();
        all.extend(narrow_types(allowed));
        self.ty(m, &all)
    }

    pub(super) fn shape(&self, parts: &[&str], n: usize, form: &str) -> PResult<()> {
        if parts.len() != n {
            return self.fail(format!("`{}`: expected the form `{form}`", self.opt.text));
        }
        Ok(())
    }

    pub(super) fn op(&self) -> PResult<Op> {
        use Type::*;
        let parts: Vec<&str> = self.opt.text.split('.').collect();
        match parts[0] {
            "shfl" => {
                let sync = parts.get(1) == Some(&"sync");
                let m = if sync { &parts[2..] } else { &parts[1..] };
                self.shape(m, 2, "shfl[.sync].{up,down,bfly,idx}.b32")?;
                let Some(mode) = by_name(&ShflMode::ALL, ShflMode::name, m[0]) else {
                    return self.fail(format!("unknown shfl mode `.{}`", m[0]));
                };
                self.ty(m[1], &[B32])?;
                self.count(if sync { 5 } else { 4 })?;
                let (d, p) = self.dest_pair(0, B32, Pred)?;
                Ok(Op::Shfl(Shfl {
                    mode,
                    d,
                    p,
                    a: self.src(1, B32)?,
                    b: self.src(2, B32)?,
                    c: self.src(3, B32)?,
                    membermask: if sync { Some(self.src(4, B32)?) } else { None },
                }))
            }
            "vote" => {
                let sync = parts.get(1) == Some(&"sync");
                let m = if sync { &parts[2..] } else { &parts[1..] };
                self.shape(
                    m,
                    2,
                    "vote[.sync].{all,any,uni}.pred or vote[.sync].ballot.b32",
                )?;
                let Some(mode) = by_name(&VoteMode::ALL, VoteMode::name, m[0]) else {
                    return self.fail(format!("unknown vote mode `.{}`", m[0]));
                };
                let dty = mode.ty();
                self.ty(m[1], &[dty])?;
                self.count(if sync { 3 } else { 2 })?;
                Ok(Op::Vote(Vote {
                    mode,
                    d: self.dest(0, dty)?,
                    a: self.src_with(1, Pred, true)?,
                    membermask: if sync { Some(self.src(2, B32)?) } else { None },
                }))
            }
            "match" => {
                self.shape(&parts, 4, "match.{any,all}.sync.{b32,b64}")?;
                if parts[2] != "sync" {
                    return self.fail(format!(
                        "`{}`: expected `.sync` after the mode",
                        self.opt.text
                    ));
                }
                let Some(mode) = by_name(&MatchMode::ALL, MatchMode::name, parts[1]) else {
                    return self.fail(format!("unknown match mode `.{}`", parts[1]));
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
                Ok(Op::Match(Match {
                    mode,
                    wide: ty == B64,
                    d,
                    p,
                    a: self.src(1, ty)?,
                    membermask: self.src(2, B32)?,
                }))
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
                let signedness = match tname {
                    "u32" => Some(Signedness::Unsigned),
                    "s32" => Some(Signedness::Signed),
                    _ => None,
                };
                let op = match (opname, tname, signedness) {
                    ("add", _, Some(s)) => ReduxOp::Add(s),
                    ("min", _, Some(s)) => ReduxOp::Min(s),
                    ("max", _, Some(s)) => ReduxOp::Max(s),
                    ("and", "b32", _) => ReduxOp::And,
                    ("or", "b32", _) => ReduxOp::Or,
                    ("xor", "b32", _) => ReduxOp::Xor,
                    ("min", "f32", _) => ReduxOp::FMin { abs, nan },
                    ("max", "f32", _) => ReduxOp::FMax { abs, nan },
                    _ => {
                        return self.fail(format!(
                            "`{}`: no such redux form (add/min/max .u32/.s32, and/or/xor .b32, min/max .f32)",
                            self.opt.text
                        ))
                    }
                };
                let ty = op.ty();
                if (abs || nan) && ty != F32 {
                    return self.fail("`.abs` and `.NaN` apply only to `.f32` redux");
                }
                self.count(3)?;
                Ok(Op::Redux(Redux {
                    op,
                    d: self.dest(0, ty)?,
                    a: self.src(1, ty)?,
                    membermask: self.src(2, B32)?,
                }))
            }
            "activemask" => {
                self.shape(&parts, 2, "activemask.b32")?;
                self.ty(parts[1], &[B32])?;
                self.count(1)?;
                Ok(Op::Activemask(Activemask {
                    d: self.dest(0, B32)?,
                }))
            }
            "mov" => {
                self.shape(&parts, 2, "mov.type")?;
                let ty = self.glue_ty(parts[1], Glue::MOV_TYPES)?;
                self.count(2)?;
                Ok(Op::Glue(Glue::Mov {
                    ty,
                    d: self.dest(0, ty)?,
                    a: self.src(1, ty)?,
                }))
            }
            "add" | "sub" | "min" | "max" | "mul" | "and" | "or" | "xor" | "shl" | "shr" => {
                // `mul.lo` on integers, `mul` on f32 (see `BinOp::mnemonic`).
                let mul = |lo: bool| -> Vec<Type> {
                    let types = BinOp::Mul.types().iter().copied();
                    types.filter(|&t| (t != F32) == lo).collect()
                };
                let op_ty = |op: BinOp, t: &str| Ok((op, self.glue_ty(t, op.types())?));
                let (op, ty) = match (parts[0], &parts[1..]) {
                    ("add", [t]) => op_ty(BinOp::Add, t)?,
                    ("sub", [t]) => op_ty(BinOp::Sub, t)?,
                    ("min", [t]) => op_ty(BinOp::Min, t)?,
                    ("max", [t]) => op_ty(BinOp::Max, t)?,
                    ("mul", ["lo", t]) => (BinOp::Mul, self.glue_ty(t, &mul(true))?),
                    ("mul", ["hi", t]) => op_ty(BinOp::MulHi, t)?,
                    ("mul", [t]) => (BinOp::Mul, self.ty(t, &mul(false))?),
                    ("and", [t]) => op_ty(BinOp::And, t)?,
                    ("or", [t]) => op_ty(BinOp::Or, t)?,
                    ("xor", [t]) => op_ty(BinOp::Xor, t)?,
                    ("shl", [t]) => op_ty(BinOp::Shl, t)?,
                    ("shr", [t]) => op_ty(BinOp::Shr, t)?,
                    _ => {
                        return self.fail(format!(
                            "`{}`: unknown form (e.g. add.u32, mul.lo.s32, mul.hi.u32, mul.f32, and.b32, shr.s32)",
                            self.opt.text
                        ))
                    }
                };
                self.count(3)?;
                let bty = op.b_type(ty);
                Ok(Op::Glue(Glue::Bin {
                    op,
                    ty,
                    d: self.dest(0, ty)?,
                    a: self.src(1, ty)?,
                    b: self.src(2, bty)?,
                }))
            }
            "not" | "neg" | "abs" | "popc" | "cnot" => {
                self.shape(&parts, 2, &format!("{}.type", parts[0]))?;
                let Some(op) = by_name(&UnOp::ALL, UnOp::mnemonic, parts[0]) else {
                    return self.fail(format!("unknown unary operation `{}`", parts[0]));
                };
                // `popc` has no 16-bit form.
                let ty = match op {
                    UnOp::Popc => self.ty(parts[1], op.types())?,
                    UnOp::Not | UnOp::Neg | UnOp::Abs | UnOp::Cnot => {
                        self.glue_ty(parts[1], op.types())?
                    }
                };
                self.count(2)?;
                let dty = op.d_type(ty);
                Ok(Op::Glue(Glue::Un {
                    op,
                    ty,
                    d: self.dest(0, dty)?,
                    a: self.src(1, ty)?,
                }))
            }
            "setp" => {
                let form = "setp.cmp{.and,.or,.xor}.type";
                if parts.len() != 3 && parts.len() != 4 {
                    return self.shape(&parts, 3, form).map(|_| unreachable!());
                }
                let Some(cmp) = by_name(&CmpOp::ALL, CmpOp::name, parts[1]) else {
                    return self.fail(format!("unknown comparison `.{}`", parts[1]));
                };
                let bool_op = if parts.len() == 4 {
                    let Some(b) = by_name(&BoolOp::ALL, BoolOp::name, parts[2]) else {
                        return self.fail(format!("unknown boolean operator `.{}`", parts[2]));
                    };
                    Some(b)
                } else {
                    None
                };
                let ty = self.glue_ty(parts[parts.len() - 1], cmp.types())?;
                self.count(if bool_op.is_some() { 4 } else { 3 })?;
                let (p, q) = self.dest_pair(0, Pred, Pred)?;
                let combine = match bool_op {
                    Some(b) => Some((b, self.src_with(3, Pred, true)?)),
                    None => None,
                };
                Ok(Op::Glue(Glue::Setp {
                    cmp,
                    combine,
                    ty,
                    p,
                    q,
                    a: self.src(1, ty)?,
                    b: self.src(2, ty)?,
                }))
            }
            "selp" => {
                self.shape(&parts, 2, "selp.type")?;
                let ty = self.glue_ty(parts[1], Glue::SELP_TYPES)?;
                self.count(4)?;
                Ok(Op::Glue(Glue::Selp {
                    ty,
                    d: self.dest(0, ty)?,
                    a: self.src(1, ty)?,
                    b: self.src(2, ty)?,
                    c: self.src(3, Pred)?,
                }))
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
                Ok(Op::Control(Control::Bra {
                    target: LabelId(u32::MAX),
                }))
            }
            "exit" => {
                self.shape(&parts, 1, "exit")?;
                self.count(0)?;
                Ok(Op::Control(Control::Exit))
            }
            _ => self.fail(format!("unknown instruction `{}`", self.opt.text)),
        }
    }
}
