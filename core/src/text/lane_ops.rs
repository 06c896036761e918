//! Reading the instructions of a body, a case's or a PTX module's kernel's
//! alike (one dialect): the lane ops (PTX's thread-level instructions,
//! [`LaneOp`]: `ld`, `st`, `cvta`, `cvt`, `mul.wide`, `mad`, `div`, `rem`,
//! `.f64` and rounded float arithmetic, bit manipulation, `mov` of special
//! registers and `{a, b}` groups, `bar`), and the other spellings of the
//! glue (`add.rn.f32` is `add.f32`, `mov.pred %p, -1`, `ret`), before
//! handing the rest to the warp instructions' and the glue's reader. A case
//! refuses only what needs memory or a launch (`ld`, `st`, `cvta`, `bar`,
//! and `atom`, `red`, `membar`, `fence`, whose reading is `atomic.rs`).

use super::lex::{Kind, Token};
use super::parse::{err, needs_module, Body, Build, PResult};
use crate::ir::*;

/// The opcodes this front end knows of but does not implement yet.
const UNSUPPORTED: &[&str] = &[
    "copysign",
    "testp",
    "fns",
    "dp4a",
    "dp2a",
    "tex",
    "tld4",
    "suld",
    "sust",
    "bar.arrive",
    "bar.red",
    "mbarrier",
    "cp",
    "ldu",
    "prefetch",
    "isspacep",
    "set",
    "slct",
    "sad",
    "lop3",
    "nanosleep",
    "trap",
    "brkpt",
    "pmevent",
    "brx",
];

pub(super) fn parse_rounding(s: &str) -> Option<(Rounding, bool)> {
    Some(match s {
        "rn" => (Rounding::Rn, false),
        "rz" => (Rounding::Rz, false),
        "rm" => (Rounding::Rm, false),
        "rp" => (Rounding::Rp, false),
        "rni" => (Rounding::Rn, true),
        "rzi" => (Rounding::Rz, true),
        "rmi" => (Rounding::Rm, true),
        "rpi" => (Rounding::Rp, true),
        _ => return None,
    })
}

impl Build<'_> {
    /// One instruction of a body.
    pub(super) fn body_op(&self) -> PResult<Op> {
        let text = self.opt.text.as_str();
        let parts: Vec<&str> = text.split('.').collect();
        let memory = matches!(
            parts[0],
            "ld" | "st" | "cvta" | "barrier" | "atom" | "red" | "membar" | "fence"
        ) || (parts[0] == "bar" && parts[1..] != ["warp", "sync"]);
        if memory && self.p.body == Body::Case {
            return self.fail(needs_module(text));
        }
        let unsupported = UNSUPPORTED
            .iter()
            .any(|u| text == *u || text.starts_with(&format!("{u}.")));
        if unsupported {
            return self.fail(format!("not supported yet: `{text}`"));
        }
        let floats = parts.contains(&"f64")
            || parts
                .iter()
                .any(|m| matches!(*m, "rz" | "rm" | "rp" | "ftz" | "sat"));
        match parts[0] {
            "ld" | "st" => self.memory(&parts),
            "cvta" => self.cvta(&parts),
            "atom" | "red" => self.atomic(&parts, parts[0] == "atom"),
            "membar" | "fence" => self.fence(&parts),
            "cvt" => self.cvt(&parts),
            "bar" if parts[1..] == ["warp", "sync"] => self.warp_sync(),
            "bar" | "barrier" => self.bar(&parts),
            "ret" => {
                self.shape(&parts, 1, "ret")?;
                self.count(0)?;
                Ok(Op::Control(Control::Exit))
            }
            "mov" => self.mov(&parts),
            "ex2" | "lg2" | "rcp" | "rsqrt" | "sin" | "cos" | "tanh" => self.approx(&parts),
            "div" | "sqrt" if parts.iter().any(|m| matches!(*m, "approx" | "full")) => {
                self.approx(&parts)
            }
            "mul" if parts.get(1) == Some(&"wide") => self.int(&parts[2..], IntOp::MulWide),
            "mad" => match parts.get(1) {
                Some(&"lo") => self.int(&parts[2..], IntOp::MadLo),
                Some(&"hi") => self.int(&parts[2..], IntOp::MadHi),
                Some(&"wide") => self.int(&parts[2..], IntOp::MadWide),
                _ => self.float(&parts, FloatOp::Fma),
            },
            "div" | "rem" if !floats && parts.last().is_some_and(|t| *t != "f32") => self.int(
                &parts[1..],
                if parts[0] == "div" {
                    IntOp::Div
                } else {
                    IntOp::Rem
                },
            ),
            "neg" | "abs"
                if parts
                    .last()
                    .and_then(|t| Type::from_name(t))
                    .is_some_and(|t| !t.is_float()) =>
            {
                let op = if parts[0] == "neg" {
                    IntOp::Neg
                } else {
                    IntOp::Abs
                };
                self.int(&parts[1..], op)
            }
            "brev" => self.int(&parts[1..], IntOp::Brev),
            "bfe" => self.int(&parts[1..], IntOp::Bfe),
            "shf"
                if parts.len() == 4
                    && matches!(parts[1], "l" | "r")
                    && matches!(parts[2], "clamp" | "wrap") =>
            {
                self.int(
                    &parts[3..],
                    IntOp::Shf {
                        left: parts[1] == "l",
                        clamp: parts[2] == "clamp",
                    },
                )
            }
            "bmsk" if parts.len() == 3 && matches!(parts[1], "clamp" | "wrap") => self.int(
                &parts[2..],
                IntOp::Bmsk {
                    clamp: parts[1] == "clamp",
                },
            ),
            "bfi" => self.int(&parts[1..], IntOp::Bfi),
            "prmt" if parts.len() == 2 => self.int(&parts[1..], IntOp::Prmt),
            "prmt" => self.fail(format!("not supported yet: `{text}` (prmt modes)")),
            "clz" => self.int(&parts[1..], IntOp::Clz),
            "bfind" => {
                let shiftamt = parts.get(1) == Some(&"shiftamt");
                let rest = if shiftamt { &parts[2..] } else { &parts[1..] };
                self.int(rest, IntOp::Bfind { shiftamt })
            }
            "fma" => self.float(&parts, FloatOp::Fma),
            "sqrt" => self.float(&parts, FloatOp::Sqrt),
            "div" => self.float(&parts, FloatOp::Div),
            "add" | "sub" | "mul" | "min" | "max" | "neg" | "abs" if floats => {
                let op = match parts[0] {
                    "add" => FloatOp::Add,
                    "sub" => FloatOp::Sub,
                    "mul" => FloatOp::Mul,
                    "min" => FloatOp::Min,
                    "max" => FloatOp::Max,
                    "neg" => FloatOp::Neg,
                    "abs" => FloatOp::Abs,
                    other => unreachable!("the arm admits no `{other}`"),
                };
                self.float(&parts, op)
            }
            "setp" if parts.last() == Some(&"f64") => self.fsetp(&parts),
            "add" | "sub" | "mul" if parts.get(1) == Some(&"rn") => {
                // `.rn` is what the glue's f32 arithmetic does.
                let mut t = self.opt.clone();
                t.text = text.replacen(".rn", "", 1);
                self.retyped(&t)
            }
            "selp" if parts.get(1) == Some(&"f64") => self.selp_f64(&parts),
            _ => self.op(),
        }
    }

    /// The case format's reader on another opcode spelling.
    fn retyped(&self, t: &Token) -> PResult<Op> {
        Build {
            p: self.p,
            opt: t,
            raws: self.raws,
        }
        .op()
    }

    /// `selp.f64` (the case format's glue takes the eight fuzzed types).
    fn selp_f64(&self, parts: &[&str]) -> PResult<Op> {
        self.shape(parts, 2, "selp.type")?;
        let ty = self.lane_op_type(parts[1])?;
        self.count(4)?;
        Ok(Op::Glue(Glue::Selp {
            ty,
            d: self.dest(0, ty)?,
            a: self.src(1, ty)?,
            b: self.src(2, ty)?,
            c: self.src(3, Type::Pred)?,
        }))
    }

    /// Any PTX type by name (the thread instructions take all of them).
    pub(super) fn lane_op_type(&self, m: &str) -> PResult<Type> {
        match Type::from_name(m) {
            Some(t) if t != Type::Pred => Ok(t),
            _ => self.fail(format!("`{}`: unknown type `.{m}`", self.opt.text)),
        }
    }

    pub(super) fn lane_op(
        &self,
        kind: LaneOpKind,
        dests: Vec<(Dest, Type)>,
        srcs: Vec<(Operand, Type)>,
        addr: Option<Address>,
    ) -> PResult<Op> {
        Ok(Op::LaneOp(LaneOp {
            kind,
            opcode: self.opt.text.clone(),
            dests,
            srcs,
            addr,
        }))
    }

    /// `ld.space{.volatile,.relaxed...}.type d, [a];` / `st... [a], b;`
    fn memory(&self, parts: &[&str]) -> PResult<Op> {
        let ld = parts[0] == "ld";
        let mut space = Space::Generic;
        let mut ty = None;
        let mut n = 1;
        for m in &parts[1..] {
            if let Some(s) = Space::from_name(m) {
                space = s;
            } else if let Some(t) = Type::from_name(m) {
                ty = Some(t);
            } else if matches!(
                *m,
                "volatile"
                    | "relaxed"
                    | "weak"
                    | "cta"
                    | "gpu"
                    | "sys"
                    | "nc"
                    | "ca"
                    | "cg"
                    | "cs"
                    | "lu"
                    | "cv"
                    | "wb"
                    | "wt"
            ) {
                // Memory-order and cache hints: one thread's view of its
                // own accesses does not change.
            } else if matches!(*m, "v2" | "v4") {
                n = if *m == "v2" { 2 } else { 4 };
            } else if *m == "v8" {
                return self.fail(format!(
                    "not supported yet: vector access `{}`",
                    self.opt.text
                ));
            } else {
                return self.fail(format!("`{}`: unknown qualifier `.{m}`", self.opt.text));
            }
        }
        let Some(ty) = ty.filter(|t| *t != Type::Pred) else {
            return self.fail(format!("`{}`: no type", self.opt.text));
        };
        self.count(2)?;
        let (ai, vi) = if ld { (1, 0) } else { (0, 1) };
        let (addr, space) = self.address(ai, space)?;
        if n > 1 {
            // `ld.v4.u32 {a, b, c, d}, [x]`: element k at byte k * size.
            let r = &self.raws[vi];
            if r.group.len() != n {
                return err(
                    &r.tok,
                    format!("`{}` takes a group of {n} registers", self.opt.text),
                );
            }
            let mut regs = Vec::new();
            for t in &r.group {
                regs.push(match self.dest_tok(t, ty)? {
                    Dest::Reg(x) => (Dest::Reg(x), Operand::Reg(x)),
                    Dest::Sink => (Dest::Sink, Operand::Imm(0)),
                });
            }
            let kind = if ld {
                LaneOpKind::Ld(space)
            } else {
                LaneOpKind::St(space)
            };
            return if ld {
                let dests = regs.iter().map(|&(d, _)| (d, ty)).collect();
                self.lane_op(kind, dests, Vec::new(), Some(addr))
            } else {
                let srcs = regs.iter().map(|&(_, o)| (o, ty)).collect();
                self.lane_op(kind, Vec::new(), srcs, Some(addr))
            };
        }
        if ld {
            let d = self.wide_dest(vi, ty)?;
            self.lane_op(LaneOpKind::Ld(space), vec![(d, ty)], Vec::new(), Some(addr))
        } else {
            let a = self.wide_src(vi, ty)?;
            self.lane_op(LaneOpKind::St(space), Vec::new(), vec![(a, ty)], Some(addr))
        }
    }

    /// A destination of a memory or conversion type: the register may be
    /// wider than the type (`ld.global.u8 %r1` into a `.b32`), as PTX allows.
    fn wide_dest(&self, i: usize, ty: Type) -> PResult<Dest> {
        let r = &self.raws[i];
        if r.tok.kind == Kind::Word && ty.bits() < 32 {
            if let Ok(reg) = self.p.lookup(&r.tok) {
                if self.p.case.program.decl(reg).ty.bits() >= ty.bits() {
                    return Ok(Dest::Reg(reg));
                }
            }
        }
        self.dest(i, ty)
    }

    /// A source register wider than the instruction type (`st.global.u8
    /// [a], %r1`, `st.global.u32 [a], %rd1`): PTX's relaxed type-checking
    /// lets an integer or bit-type instruction read its low bits.
    fn wide_src(&self, i: usize, ty: Type) -> PResult<Operand> {
        let r = &self.raws[i];
        if r.tok.kind == Kind::Word && !ty.is_float() && !r.neg {
            if let Ok(reg) = self.p.lookup(&r.tok) {
                let have = self.p.case.program.decl(reg).ty;
                if have != Type::Pred && !have.is_float() && have.bits() >= ty.bits() {
                    return Ok(Operand::Reg(reg));
                }
            }
        }
        self.src(i, ty)
    }

    /// `bar.warp.sync membermask;` (nvcc's `__syncwarp()`): "wait until all
    /// threads corresponding to membermask have executed a bar.warp.sync
    /// with the same membermask value", undefined if the executing thread
    /// is not in it. That is the wait of a `.sync` collective with no
    /// result, so it is read as `vote.sync.any.pred _, 1, membermask` (its
    /// diagnostics print that form).
    fn warp_sync(&self) -> PResult<Op> {
        self.count(1)?;
        Ok(Op::Vote(Vote {
            mode: VoteMode::Any,
            d: Dest::Sink,
            a: Operand::Imm(1),
            membermask: Some(self.src(0, Type::B32)?),
        }))
    }

    /// Operand `i` as `[base+offset]` in `space`, and the space the
    /// access really goes to: a call site's `.param` (`st.param [param0]`)
    /// is per-thread storage, so its accesses go to `.local`.
    pub(super) fn address(&self, i: usize, space: Space) -> PResult<(Address, Space)> {
        let r = &self.raws[i];
        let Some((base, offset)) = &r.addr else {
            return err(
                &r.tok,
                format!("expected an address `[...]`, found `{}`", r.tok.text),
            );
        };
        let Some(base) = base else {
            let a = Address {
                base: None,
                offset: *offset,
            };
            return Ok((a, space));
        };
        if let Some((s, a)) = self.p.scope.symbol(&base.text) {
            let effective = match (s, space) {
                (s, sp) if s == sp => s,
                (Space::Global | Space::Const, Space::Generic) => Space::Generic,
                (Space::Local, Space::Param) => Space::Local,
                _ => {
                    return err(
                        base,
                        format!(
                            "`{}` is a .{} symbol, used in a .{} access",
                            base.text,
                            s.name(),
                            space.name()
                        ),
                    )
                }
            };
            let a = Address {
                base: None,
                offset: a as i64 + offset,
            };
            return Ok((a, effective));
        }
        let reg = self.p.lookup(base)?;
        let ty = self.p.case.program.decl(reg).ty;
        if ty.bits() < 32 || ty == Type::Pred || ty.is_float() {
            return err(base, format!("address register `{}` is {ty}", base.text));
        }
        let a = Address {
            base: Some(reg),
            offset: *offset,
        };
        Ok((a, space))
    }

    /// `cvta{.to}.space.size d, a;`
    fn cvta(&self, parts: &[&str]) -> PResult<Op> {
        let to = parts.get(1) == Some(&"to");
        let rest = if to { &parts[2..] } else { &parts[1..] };
        let (Some(space), Some(ty)) = (
            rest.first().and_then(|s| Space::from_name(s)),
            rest.get(1).and_then(|t| Type::from_name(t)),
        ) else {
            return self.fail(format!(
                "`{}`: expected cvta{{.to}}.space.u64",
                self.opt.text
            ));
        };
        if rest.len() != 2 || !matches!(ty, Type::U32 | Type::U64) || space == Space::Param {
            return self.fail(format!(
                "`{}`: expected cvta{{.to}}.{{global,shared,local,const}}.{{u32,u64}}",
                self.opt.text
            ));
        }
        self.count(2)?;
        self.lane_op(
            LaneOpKind::Cvta { space, to },
            vec![(self.dest(0, ty)?, ty)],
            vec![(self.src(1, ty)?, ty)],
            None,
        )
    }

    /// `cvt{.rnd}{.ftz}{.sat}.dtype.atype d, a;`
    fn cvt(&self, parts: &[&str]) -> PResult<Op> {
        let n = parts.len();
        if n < 3 {
            return self.fail(format!(
                "`{}`: expected cvt{{.rnd}}{{.ftz}}{{.sat}}.dtype.atype",
                self.opt.text
            ));
        }
        let dty = self.lane_op_type(parts[n - 2])?;
        let aty = self.lane_op_type(parts[n - 1])?;
        let (mut rnd, mut int_round, mut ftz, mut sat) = (None, false, false, false);
        for m in &parts[1..n - 2] {
            if let Some((r, i)) = parse_rounding(m) {
                rnd = Some(r);
                int_round = i;
            } else if *m == "ftz" {
                ftz = true;
            } else if *m == "sat" {
                sat = true;
            } else {
                return self.fail(format!("`{}`: unknown modifier `.{m}`", self.opt.text));
            }
        }
        let f2i = aty.is_float() && !dty.is_float();
        let to_float = dty.is_float() && (!aty.is_float() || dty.bits() < aty.bits());
        // ISA `cvt`: a rounding modifier is required for float→integer
        // (`.rni`...), int→float and narrowing float→float (`.rn`...), and
        // float→float of the same size takes only the integer ones.
        match (rnd, int_round) {
            (None, _) if f2i || to_float => {
                return self.fail(format!(
                    "`{}`: this conversion needs a rounding modifier",
                    self.opt.text
                ))
            }
            (Some(_), false) if f2i => {
                return self.fail(format!(
                    "`{}`: float→integer takes .rni/.rzi/.rmi/.rpi",
                    self.opt.text
                ))
            }
            (Some(_), true) if !aty.is_float() => {
                return self.fail(format!(
                    "`{}`: .rni/.rzi/.rmi/.rpi need a float source",
                    self.opt.text
                ))
            }
            (Some(_), _) if !aty.is_float() && !dty.is_float() => {
                return self.fail(format!(
                    "`{}`: integer conversions take no rounding",
                    self.opt.text
                ))
            }
            _ => {}
        }
        self.count(2)?;
        self.lane_op(
            LaneOpKind::Cvt {
                rnd,
                int_round,
                ftz,
                sat,
            },
            vec![(self.wide_dest(0, dty)?, dty)],
            vec![(self.wide_src(1, aty)?, aty)],
            None,
        )
    }

    /// `bar{.cta}.sync a{, b};`, `barrier{.cta}.sync{.aligned} a{, b};`
    fn bar(&self, parts: &[&str]) -> PResult<Op> {
        let quals: Vec<&str> = parts[1..]
            .iter()
            .copied()
            .filter(|m| !matches!(*m, "cta" | "aligned"))
            .collect();
        if quals != ["sync"] {
            return self.fail(format!(
                "not supported yet: `{}` (only bar.sync / barrier.sync)",
                self.opt.text
            ));
        }
        if self.raws.len() == 2 {
            return err(
                &self.raws[1].tok,
                format!("not supported yet: `{}` with a thread count", self.opt.text),
            );
        }
        self.count(1)?;
        self.lane_op(
            LaneOpKind::Bar,
            Vec::new(),
            vec![(self.src(0, Type::U32)?, Type::U32)],
            None,
        )
    }

    /// `mov`: special registers, `{a, b}` packing, `.pred` immediates and
    /// every type; the rest as the glue's `mov`.
    fn mov(&self, parts: &[&str]) -> PResult<Op> {
        self.shape(parts, 2, "mov.type")?;
        let ty = match Type::from_name(parts[1]) {
            Some(t) => t,
            None => return self.fail(format!("`{}`: unknown type `.{}`", self.opt.text, parts[1])),
        };
        self.count(2)?;
        let (d, a) = (&self.raws[0], &self.raws[1]);
        if !d.group.is_empty() {
            let srcs = vec![(self.src(1, ty)?, ty)];
            let dests = self.group(&d.group, ty)?;
            // ISA `mov` (vector): "the sink symbol `_` may be used for one
            // or more elements provided that at least one element is a
            // scalar register".
            if dests.iter().all(|&(d, _)| d == Dest::Sink) {
                return err(
                    &d.group[0],
                    "a `mov` vector destination needs a register: `_` may stand for some \
                     of its elements, not all",
                );
            }
            return self.lane_op(LaneOpKind::Unpack, dests, srcs, None);
        }
        if !a.group.is_empty() {
            let parts = self.group(&a.group, ty)?;
            let srcs = parts
                .into_iter()
                .map(|(d, t)| match d {
                    Dest::Reg(r) => (Operand::Reg(r), t),
                    Dest::Sink => (Operand::Imm(0), t),
                })
                .collect();
            return self.lane_op(LaneOpKind::Pack, vec![(self.dest(0, ty)?, ty)], srcs, None);
        }
        if a.tok.kind == Kind::Word {
            if let Some(s) = Special::ALL.iter().find(|s| s.name() == a.tok.text) {
                return self.lane_op(
                    LaneOpKind::Special(*s),
                    vec![(self.dest(0, ty)?, ty)],
                    Vec::new(),
                    None,
                );
            }
            if a.tok.text.starts_with('%') && a.tok.text.contains('.')
                || a.tok.text.starts_with("%lanemask")
                || matches!(
                    a.tok.text.as_str(),
                    "%smid" | "%nsmid" | "%gridid" | "%clock" | "%clock64" | "%globaltimer"
                )
            {
                return err(
                    &a.tok,
                    format!("not supported yet: special register `{}`", a.tok.text),
                );
            }
        }
        Ok(Op::Glue(Glue::Mov {
            ty,
            d: self.dest(0, ty)?,
            a: self.src(1, ty)?,
        }))
    }

    /// The members of `{a, b, ...}` for `mov.ty`: each a register of
    /// `ty`'s width divided by the count (or `_`).
    fn group(&self, toks: &[Token], ty: Type) -> PResult<Vec<(Dest, Type)>> {
        let n = toks.len() as u32;
        let part = match (ty.bits() / n.max(1), n) {
            (32, 2) => Type::B32,
            (16, 2) | (16, 4) => Type::B16,
            (8, 4) => Type::B8,
            _ => {
                return err(
                    &toks[0],
                    format!("`{}` cannot be split into {n} parts", self.opt.text),
                )
            }
        };
        let elems = toks
            .iter()
            .map(|t| Ok((self.dest_tok(t, part)?, part)))
            .collect::<PResult<Vec<_>>>()?;
        self.one_type(toks, &elems)?;
        Ok(elems)
    }

    /// Refuses a `{a, b, ...}` group whose registers are not all of one
    /// type, at the first element that differs from the first register;
    /// the integer and bit-size types of a size count as one type here, a
    /// float type as itself, and the sink `_` has no type.
    ///
    /// The PTX ISA's `mov` (vector) reads the group as a *vector register*
    /// ("Write scalar register d with the packed value of vector register
    /// a, or write vector register d with the unpacked values from scalar
    /// register a"), and its examples give each group one type ("`mov.b32
    /// %r1,{a,b};` // a,b have type .u16", "`mov.b64 {lo,hi}, %x;` // %x is
    /// a double; lo,hi are .u32"); §6.4.3 "Vectors as Operands" calls a
    /// brace-enclosed list one "of similarly typed scalars". It does not
    /// say how alike is alike enough. `ptxas` 13.0 refuses `.u32` or
    /// `.s32` with `.f32` ("Vector with elements of different types are
    /// not allowed in mov instruction"; every `engine-failed` case of
    /// `docs/log/gpu-2026-11-27-d/found/`), and the driver then the whole
    /// module; it compiled `mov.b64 %rd2, {%rh0, %rh0, %h0, %sh0}` (`.u16`,
    /// `.b16`, `.s16`; `corpus/cases/activemask-after-sqrt-h200.ptx` ran on
    /// the H200), so integer and bit-size types mix. Whether `.b32` mixes
    /// with `.f32` is not known: refused, to be safe.
    fn one_type(&self, toks: &[Token], elems: &[(Dest, Type)]) -> PResult<()> {
        // A float type is its own kind; the integer and bit-size types
        // (of the one size the group's parts have) are one.
        let kind = |t: Type| t.is_float().then_some(t);
        let prog = &self.p.case.program;
        let mut first: Option<(&Token, Type)> = None;
        for (t, (d, _)) in toks.iter().zip(elems) {
            let Dest::Reg(r) = *d else { continue };
            let ty = prog.decl(r).ty;
            match first {
                None => first = Some((t, ty)),
                Some((f, fty)) if kind(fty) != kind(ty) => {
                    return err(
                        t,
                        format!(
                            "the elements of a `mov` vector must have one type (integer and \
                             bit-size types count as one): `{}` is {fty}, `{}` is {ty}",
                            f.text, t.text
                        ),
                    )
                }
                Some(_) => {}
            }
        }
        Ok(())
    }

    /// An integer instruction `op.ty d, a{, b{, c}}`: its types as
    /// [`IntOp::all_with_types`] lists them, its operands'
    /// [`IntOp::operand_types`].
    fn int(&self, rest: &[&str], op: IntOp) -> PResult<Op> {
        if rest.len() != 1 {
            return self.fail(format!("`{}`: expected one type", self.opt.text));
        }
        let ty = self.lane_op_type(rest[0])?;
        let forms = IntOp::all_with_types();
        let types = forms
            .iter()
            .find(|(o, _)| *o == op)
            .map_or(&[][..], |(_, t)| *t);
        if !types.contains(&ty) {
            let names: Vec<String> = types.iter().map(|t| t.to_string()).collect();
            return self.fail(format!(
                "`{}`: no such form (`{}` takes {})",
                self.opt.text,
                op.mnemonic(),
                names.join(" ")
            ));
        }
        let (dty, stypes) = op.operand_types(ty);
        self.count(stypes.len() + 1)?;
        let srcs = stypes
            .iter()
            .enumerate()
            .map(|(i, &t)| Ok((self.src(i + 1, t)?, t)))
            .collect::<PResult<Vec<_>>>()?;
        self.bit_field_range(op, &srcs)?;
        self.lane_op(
            LaneOpKind::Int(op),
            vec![(self.dest(0, dty)?, dty)],
            srcs,
            None,
        )
    }

    /// Refuses a `bfe`/`bfi` position or length given as an immediate
    /// outside 0..255, at its operand: "Operands b and c are type .u32, but
    /// are restricted to the 8-bit value range 0..255" (ISA `bfe`; `bfi`:
    /// "Operands c and d"), and `ptxas` refuses such a program ("value
    /// '1796237040' out of range, expected to be in range [0..255]"), which
    /// makes the driver refuse the whole batch it is in. In a register
    /// the value is the lane's own, and its result undefined
    /// (`interp::lane_ops`'s `bit_field`).
    fn bit_field_range(&self, op: IntOp, srcs: &[(Operand, Type)]) -> PResult<()> {
        let first = match op {
            IntOp::Bfe => 1,
            IntOp::Bfi => 2,
            IntOp::MulWide
            | IntOp::MadLo
            | IntOp::MadHi
            | IntOp::MadWide
            | IntOp::Div
            | IntOp::Rem
            | IntOp::Neg
            | IntOp::Abs
            | IntOp::Brev
            | IntOp::Clz
            | IntOp::Bfind { .. }
            | IntOp::Prmt
            | IntOp::Bmsk { .. }
            | IntOp::Shf { .. } => return Ok(()),
        };
        for (k, what) in ["position", "length"].into_iter().enumerate() {
            if let (Operand::Imm(v), _) = srcs[first + k] {
                if v > 0xff {
                    return err(
                        &self.raws[first + k + 1].tok,
                        format!(
                            "`{}`'s {what} must be in 0..255, not {v} (the PTX ISA \
                             restricts it to the 8-bit value range 0..255)",
                            op.mnemonic()
                        ),
                    );
                }
            }
        }
        Ok(())
    }

    /// A float instruction `op{.rnd}{.ftz}{.sat}.ty d, a{, b{, c}}`.
    fn float(&self, parts: &[&str], op: FloatOp) -> PResult<Op> {
        let n = op.arity() + 1;
        let ty = self.lane_op_type(parts[parts.len() - 1])?;
        if !ty.is_float() {
            return self.fail(format!("`{}`: a float type is needed", self.opt.text));
        }
        let (mut rnd, mut ftz, mut sat) = (Rounding::Rn, false, false);
        for m in &parts[1..parts.len() - 1] {
            match (*m, parse_rounding(m)) {
                (_, Some((r, false))) => rnd = r,
                ("ftz", _) => ftz = true,
                ("sat", _) => sat = true,
                ("approx" | "full", _) => {
                    return self.fail(format!("not supported yet: `{}`", self.opt.text))
                }
                _ => return self.fail(format!("`{}`: unknown modifier `.{m}`", self.opt.text)),
            }
        }
        self.count(n)?;
        let srcs = (1..n)
            .map(|i| Ok((self.src(i, ty)?, ty)))
            .collect::<PResult<Vec<_>>>()?;
        self.lane_op(
            LaneOpKind::Float { op, rnd, ftz, sat },
            vec![(self.dest(0, ty)?, ty)],
            srcs,
            None,
        )
    }

    /// `setp.cmp.f64 p, a, b;`
    fn fsetp(&self, parts: &[&str]) -> PResult<Op> {
        if parts.len() != 3 {
            return self.fail(format!(
                "not supported yet: `{}` (setp.cmp.f64 only)",
                self.opt.text
            ));
        }
        let Some(cmp) = CmpOp::ALL.iter().copied().find(|c| c.name() == parts[1]) else {
            return self.fail(format!("not supported yet: comparison `.{}`", parts[1]));
        };
        self.count(3)?;
        self.lane_op(
            LaneOpKind::FSetp(cmp),
            vec![(self.dest(0, Type::Pred)?, Type::Pred)],
            vec![
                (self.src(1, Type::F64)?, Type::F64),
                (self.src(2, Type::F64)?, Type::F64),
            ],
            None,
        )
    }
}
