//! `call` to a `.func`, inlined where it is written (issue #13: "`call` to
//! `.func` (inlined is fine)").
//!
//! nvcc writes a call as a scope of call-site parameters:
//!
//! ```text
//! { // callseq 0, 0
//! .param .b32 param0;
//! st.param.b32 [param0], %r1;
//! .param .b32 retval0;
//! call.uni (retval0), add_one, (param0);
//! ld.param.b32 %r2, [retval0];
//! }
//! ```
//!
//! The call-site `.param`s are per-thread storage (they live in the
//! thread's local space here). Inlining copies the callee's body with its
//! registers and labels renamed (`add_one.1.%r1`), its `ld.param`/`st.param`
//! of its own parameters and return values redirected to the call site's,
//! and its `ret` turned into a branch to the end of the copy. The callee
//! must be defined before the call (nvcc writes definitions first); a
//! guarded call, a callee with `.local` memory, or an argument count that
//! differs is "not supported yet" or an error, at the call's line and
//! column.

use super::error::ParseError;
use super::lex::{Kind, Token};
use super::parse::{err, PResult, Parser, Raw};
use crate::ir::{Address, Control, Dest, Guard, Inst, Kernel, Label, LabelId, Op, Operand, Reg};
use crate::ir::{LaneOp, LaneOpKind, RegDecl, Space};

impl Parser {
    /// Inlines `call{.uni} (ret...), name, (args...);` at `opt`.
    pub(super) fn inline_call(
        &mut self,
        guard: Option<Guard>,
        opt: &Token,
        raws: &[Raw],
    ) -> PResult<()> {
        if guard.is_some() {
            return err(opt, "not supported yet: a guarded `call`");
        }
        let quals: Vec<&str> = opt.text.split('.').skip(1).collect();
        if quals.iter().any(|q| *q != "uni") {
            return err(opt, format!("not supported yet: `{}`", opt.text));
        }
        // (rets), name, (args) — each list optional.
        let mut it = raws.iter().peekable();
        let rets = match it.peek() {
            Some(r) if r.tok.text == "(" => it.next().map(|r| r.group.clone()),
            _ => None,
        }
        .unwrap_or_default();
        let Some(name) = it.next() else {
            return err(opt, "`call` needs a function name");
        };
        let args = it.next().map(|r| r.group.clone()).unwrap_or_default();
        if let Some(extra) = it.next() {
            return err(&extra.tok, "unexpected operand after the argument list");
        }
        let scope = &self.scope;
        let Some(callee) = scope
            .funcs
            .iter()
            .find(|f| f.name == name.tok.text)
            .cloned()
        else {
            return err(
                &name.tok,
                format!(
                    "not supported yet: `call {}` before its `.func` definition (or no such function)",
                    name.tok.text
                ),
            );
        };
        if callee.local_size > 0 {
            return err(
                &name.tok,
                format!(
                    "not supported yet: inlining `{}`, which has .local memory",
                    callee.name
                ),
            );
        }
        if args.len() != callee.params.len() || rets.len() != callee.returns.len() {
            return err(
                &name.tok,
                format!(
                    "`{}` takes {} argument(s) and {} return value(s); the call gives {} and {}",
                    callee.name,
                    callee.params.len(),
                    callee.returns.len(),
                    args.len(),
                    rets.len()
                ),
            );
        }
        // Where each of the callee's parameters (and return values) is at
        // the call site: the call-site `.param`'s local address.
        let mut map = Vec::new();
        for (p, t) in callee
            .params
            .iter()
            .zip(&args)
            .chain(callee.returns.iter().zip(&rets))
        {
            match self.site_param(t) {
                Ok(addr) => map.push((p.offset, p.size, addr)),
                Err(e) => return Err(e),
            }
        }
        self.copy_body(&callee, &map, opt)
    }

    /// The local address of a call-site `.param` named by `t`.
    fn site_param(&self, t: &Token) -> PResult<u64> {
        match self.scope.symbol(&t.text) {
            Some((Space::Local, a)) if t.kind == Kind::Word => Ok(a),
            _ => err(
                t,
                format!("`{}` is not a `.param` declared at the call site", t.text),
            ),
        }
    }

    /// Appends a renamed copy of `callee`'s body; `map` sends the callee's
    /// parameter-space offsets `[off, off + size)` to local addresses.
    fn copy_body(&mut self, callee: &Kernel, map: &[(u64, u64, u64)], opt: &Token) -> PResult<()> {
        self.scope.calls += 1;
        let tag = format!("{}.{}", callee.name, self.scope.calls);
        let prog = &mut self.case.program;
        let reg0 = prog.regs.len() as u32;
        for r in &callee.program.regs {
            prog.regs.push(RegDecl {
                name: format!("{tag}.{}", r.name),
                ty: r.ty,
            });
        }
        let label0 = prog.labels.len() as u32;
        let at0 = prog.insts.len();
        for l in &callee.program.labels {
            prog.labels.push(Label {
                name: format!("{tag}.{}", l.name),
                at: at0 + l.at,
            });
        }
        let end = LabelId(prog.labels.len() as u32);
        prog.labels.push(Label {
            name: format!("{tag}.return"),
            at: at0 + callee.program.insts.len(),
        });
        let reg = |r: Reg| Reg(r.0 + reg0);
        for inst in &callee.program.insts {
            let mut op = inst.op.clone();
            for (o, _, _) in op.sources_mut() {
                if let Operand::Reg(r) | Operand::NotPred(r) = o {
                    *r = reg(*r);
                }
            }
            for (d, _) in op.dests_mut() {
                if let Dest::Reg(r) = d {
                    *r = reg(*r);
                }
            }
            op = match op {
                Op::Control(Control::Exit) => Op::Control(Control::Bra { target: end }),
                Op::Control(Control::Bra { target }) => Op::Control(Control::Bra {
                    target: LabelId(target.0 + label0),
                }),
                Op::LaneOp(x) => Op::LaneOp(redirect(x, map, reg).map_err(|m| {
                    ParseError::new(
                        opt.line,
                        opt.col,
                        format!("inlining `{}`: {m}", callee.name),
                    )
                })?),
                other => other,
            };
            self.case.program.insts.push(Inst {
                guard: inst.guard.map(|g| Guard {
                    reg: reg(g.reg),
                    negated: g.negated,
                }),
                op,
                line: opt.line,
            });
        }
        Ok(())
    }
}

/// A callee's thread-level instruction with its address register renamed
/// and its `.param` accesses sent to the call site's local storage.
fn redirect(
    mut x: LaneOp,
    map: &[(u64, u64, u64)],
    reg: impl Fn(Reg) -> Reg,
) -> Result<LaneOp, String> {
    let (Some(a), Some((space, load))) = (x.addr, x.access()) else {
        return Ok(x);
    };
    if space != Space::Param {
        x.addr = Some(Address {
            base: a.base.map(&reg),
            offset: a.offset,
        });
        return Ok(x);
    }
    if a.base.is_some() {
        return Err("not supported yet: a .param access through a register".into());
    }
    let off = a.offset as u64;
    let Some(&(p, _, local)) = map.iter().find(|&&(p, size, _)| off >= p && off < p + size) else {
        return Err(format!(
            "a .param access at offset {off} outside every parameter"
        ));
    };
    x.addr = Some(Address {
        base: None,
        offset: (local + (off - p)) as i64,
    });
    x.kind = if load {
        LaneOpKind::Ld(Space::Local)
    } else {
        LaneOpKind::St(Space::Local)
    };
    Ok(x)
}
