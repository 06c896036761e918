//! The PTX module front end (issue #13): `.version/.target/.address_size`,
//! `.entry`/`.func` with `.param` lists and `{ }` bodies, `.shared`,
//! `.global`, `.const` and `.local` variables, and the directives compilers
//! sprinkle around them (`.loc`, `.file`, `.pragma`, `.reqntid`,
//! `.maxntid`, `.section` ...), accepted and ignored.
//!
//! Bodies reuse the case format's parser ([`super::parse`]): registers,
//! labels, guards and every warp and glue instruction are read by the same
//! code; the lane ops (PTX's thread-level instructions: `ld`, `st`, `cvt`,
//! ...) are read by `lane_ops.rs`. Every error names its line and column.

use super::error::ParseError;
use super::lex::{lex, Kind, Token};
use super::parse::{err, Body, PResult, Parser};
use super::scope::Scope;
use super::value::{parse_value, Place};
use crate::ir::{windows, Case, Kernel, Module, Param, Space, Type, Variable};

/// Parses a whole PTX module.
///
/// Every error names the line and column of what is wrong: an unknown or
/// unsupported directive or instruction names itself ("not supported yet:
/// `call`"), as does an undeclared register or symbol.
pub fn parse_module(src: &str) -> Result<Module, ParseError> {
    let (toks, _) = lex(src)?;
    let eof = toks
        .last()
        .map_or((1, 1), |t| (t.line, t.col + t.text.chars().count() as u32));
    let mut p = Parser {
        toks,
        pos: 0,
        case: Case::default(),
        label_uses: Vec::new(),
        eof,
        scope: Scope::default(),
        body: Body::Module,
    };
    let mut m = Module {
        address_size: 64,
        ..Module::default()
    };
    let mut shared = Vec::new();
    let mut next_global = windows::GLOBAL_VARS;
    let mut next_const = windows::CONST;
    while let Some(t) = p.peek().cloned() {
        match t.text.as_str() {
            ".version" | ".target" => {
                p.directive()?;
                m.version = p.case.program.version;
                m.target = p.case.program.target;
            }
            ".address_size" => {
                p.pos += 1;
                let v = p.next("32 or 64")?;
                m.address_size = match v.text.as_str() {
                    "64" => 64,
                    "32" => 32,
                    _ => return err(&v, "`.address_size` must be 32 or 64"),
                };
                p.eat_punct(";");
            }
            ".visible" | ".extern" | ".weak" | ".common" => p.pos += 1,
            ".entry" | ".func" => {
                let k = kernel(&mut p, &m, &shared)?;
                if t.text == ".entry" {
                    m.kernels.push(k);
                } else {
                    p.scope.funcs.push(k.clone());
                    m.funcs.push(k);
                }
            }
            ".shared" => {
                p.pos += 1;
                let base = shared_end(&shared);
                let mut v = variable(&mut p, &t, base, false)?;
                if v.size == 0 {
                    // `.extern .shared .align 16 .b8 smem[];`: the launch's
                    // dynamic shared memory, after every static variable.
                    v.address = windows::DYNAMIC_SHARED;
                    declare(&mut p, &v, Space::Shared)?;
                } else {
                    declare(&mut p, &v, Space::Shared)?;
                    shared.push(v);
                }
            }
            ".global" | ".const" => {
                p.pos += 1;
                let next = if t.text == ".global" {
                    &mut next_global
                } else {
                    &mut next_const
                };
                let mut v = variable(&mut p, &t, *next, true)?;
                *next = (v.address + v.size + 255) & !255;
                v.init.get_or_insert_with(|| vec![0; v.size as usize]);
                let space = if t.text == ".global" {
                    Space::Global
                } else {
                    Space::Const
                };
                declare(&mut p, &v, space)?;
                m.globals.push(v);
            }
            ".file" => {
                p.pos += 1;
                p.skip_line();
            }
            ".section" => skip_section(&mut p)?,
            ".pragma" => p.skip_statement()?,
            _ => {
                return err(
                    &t,
                    format!("not supported yet at module level: `{}`", t.text),
                )
            }
        }
    }
    Ok(m)
}

/// The most bytes one variable may have (256 MiB): the engines hold it in
/// host memory.
const MAX_VARIABLE: u64 = 1 << 28;

/// The first free offset after the variables of `vars`.
fn shared_end(vars: &[Variable]) -> u64 {
    vars.iter().map(|v| v.address + v.size).max().unwrap_or(0)
}

/// Adds a variable's name to the scope.
fn declare(p: &mut Parser, v: &Variable, space: Space) -> PResult<()> {
    p.scope.symbols.push((v.name.clone(), space, v.address));
    Ok(())
}

/// Skips `.section NAME { ... }` (debug information).
fn skip_section(p: &mut Parser) -> PResult<()> {
    while !p.is_punct("{") {
        p.next("`{`")?;
    }
    let mut depth = 0;
    loop {
        let t = p.next("`}`")?;
        match (t.kind, t.text.as_str()) {
            (Kind::Punct, "{") => depth += 1,
            (Kind::Punct, "}") => {
                depth -= 1;
                if depth == 0 {
                    return Ok(());
                }
            }
            _ => {}
        }
    }
}

/// Rounds `x` up to a multiple of `a`.
fn align_up(x: u64, a: u64) -> u64 {
    x.div_ceil(a.max(1)) * a.max(1)
}

/// A number token as an unsigned count.
fn count(t: &Token, what: &str) -> PResult<u64> {
    match t.text.parse::<u64>() {
        Ok(n) if t.kind == Kind::Number => Ok(n),
        _ => err(t, format!("expected {what}, found `{}`", t.text)),
    }
}

/// `[.align N] .type name[N]? (= init)? ;` after a space directive;
/// `base` is the first free address in the space.
fn variable(p: &mut Parser, dir: &Token, base: u64, init_ok: bool) -> PResult<Variable> {
    let mut align = 0;
    let mut ty = None;
    loop {
        let t = p.next("a type or a name")?;
        if t.kind != Kind::Word {
            return err(&t, format!("expected a type or a name, found `{}`", t.text));
        }
        if t.text == ".align" {
            align = count(&p.next("an alignment")?, "an alignment")?;
        } else if let Some(x) = t.text.strip_prefix('.') {
            match Type::from_name(x) {
                Some(x) => ty = Some(x),
                None if matches!(x, "v2" | "v4") => {
                    return err(
                        &t,
                        format!("not supported yet: vector variable `{}`", t.text),
                    )
                }
                None => {
                    return err(
                        &t,
                        format!("not supported yet: `{}` in a declaration", t.text),
                    )
                }
            }
        } else {
            let Some(ty) = ty else {
                return err(&t, format!("`{}` declared without a type", t.text));
            };
            let elem = (ty.bits() as u64).div_ceil(8);
            let mut n = None;
            let bracket = p.is_punct("[");
            if p.eat_punct("[") {
                if !p.is_punct("]") {
                    n = Some(count(&p.next("an array length")?, "an array length")?);
                }
                p.expect_punct("]")?;
            }
            let mut init = None;
            if p.eat_punct("=") {
                if !init_ok {
                    return err(&t, format!("a {} variable cannot be initialised", dir.text));
                }
                init = Some(initialiser(p, ty)?);
            }
            p.expect_punct(";")?;
            let len = match (n, &init) {
                (Some(n), _) => n,
                (None, Some(v)) => v.len() as u64 / elem,
                // `.extern .shared .b8 smem[];`: sized by the launch.
                (None, None) if bracket => 0,
                (None, None) => 1,
            };
            let size = len.saturating_mul(elem);
            if size > MAX_VARIABLE {
                return err(
                    &t,
                    format!(
                        "`{}` has {size} bytes; the most a variable may have here is {MAX_VARIABLE}",
                        t.text
                    ),
                );
            }
            let mut bytes = init;
            if let Some(b) = bytes.as_mut() {
                if b.len() as u64 > size {
                    return err(
                        &t,
                        format!("`{}`: more initial values than elements", t.text),
                    );
                }
                b.resize(size as usize, 0);
            }
            return Ok(Variable {
                name: t.text.clone(),
                ty,
                size,
                address: align_up(base, align.max(elem)),
                init: bytes,
            });
        }
    }
}

/// `value` or `{v, v, ...}` as little-endian bytes of `ty` elements.
fn initialiser(p: &mut Parser, ty: Type) -> PResult<Vec<u8>> {
    let elem = (ty.bits() as usize).div_ceil(8);
    let mut out = Vec::new();
    let braced = p.eat_punct("{");
    loop {
        let t = p.next("an initial value")?;
        let v = match parse_value(&t.text, ty, Place::LaneValue) {
            Ok(v) if t.kind == Kind::Number => v,
            Ok(_) => return err(&t, format!("expected a number, found `{}`", t.text)),
            Err(m) => return err(&t, m),
        };
        out.extend_from_slice(&v.to_le_bytes()[..elem]);
        if !braced || !p.eat_punct(",") {
            break;
        }
    }
    if braced {
        p.expect_punct("}")?;
    }
    Ok(out)
}

/// `.param [.align N] .type name[N]?` in a parameter list.
fn param(p: &mut Parser, offset: u64) -> PResult<Param> {
    let dir = p.next("`.param`")?;
    if dir.text != ".param" && dir.text != ".reg" {
        return err(&dir, format!("expected `.param`, found `{}`", dir.text));
    }
    let mut align = 0;
    let mut ty = None;
    loop {
        let t = p.next("a parameter")?;
        if t.text == ".align" {
            align = count(&p.next("an alignment")?, "an alignment")?;
        } else if t.text == ".ptr" || Space::from_name(t.text.trim_start_matches('.')).is_some() {
            // `.ptr .global .align 4` (OpenCL-style pointer attributes).
        } else if let Some(x) = t.text.strip_prefix('.') {
            match Type::from_name(x) {
                Some(x) => ty = Some(x),
                None => {
                    return err(
                        &t,
                        format!("not supported yet: `{}` in a parameter", t.text),
                    )
                }
            }
        } else if t.kind == Kind::Word {
            let Some(ty) = ty else {
                return err(&t, format!("parameter `{}` has no type", t.text));
            };
            let elem = (ty.bits() as u64).div_ceil(8);
            let mut len = 1;
            if p.eat_punct("[") {
                len = count(&p.next("an array length")?, "an array length")?;
                p.expect_punct("]")?;
            }
            return Ok(Param {
                name: t.text.clone(),
                ty,
                size: elem * len,
                offset: align_up(offset, align.max(elem)),
            });
        } else {
            return err(&t, format!("expected a parameter, found `{}`", t.text));
        }
    }
}

/// `(param, param, ...)`.
fn param_list(p: &mut Parser) -> PResult<Vec<Param>> {
    p.expect_punct("(")?;
    let mut params: Vec<Param> = Vec::new();
    if p.eat_punct(")") {
        return Ok(params);
    }
    loop {
        let at = params.last().map_or(0, |q| q.offset + q.size);
        params.push(param(p, at)?);
        if !p.eat_punct(",") {
            break;
        }
    }
    p.expect_punct(")")?;
    Ok(params)
}

/// `.entry NAME (params) directives { body }` or a `.func`.
fn kernel(p: &mut Parser, m: &Module, module_shared: &[Variable]) -> PResult<Kernel> {
    let dir = p.next("`.entry`")?;
    let mut returns = Vec::new();
    if dir.text == ".func" && p.is_punct("(") {
        returns = param_list(p)?;
    }
    let name = p.next("a kernel name")?;
    if name.kind != Kind::Word || name.text.starts_with('.') {
        return err(&name, format!("bad kernel name `{}`", name.text));
    }
    let params = if p.is_punct("(") {
        param_list(p)?
    } else {
        Vec::new()
    };
    // Performance directives (`.maxntid 256, 1, 1`, `.reqntid`,
    // `.minnctapersm`, `.maxnreg`, `.noreturn`, `.pragma`) until the body.
    while !p.is_punct("{") {
        let t = p.next("`{`")?;
        if t.kind == Kind::Punct && t.text == ";" && dir.text == ".func" {
            // A prototype without a body.
            return Ok(Kernel {
                name: name.text,
                line: dir.line,
                params,
                returns,
                param_size: 0,
                program: Default::default(),
                shared: Vec::new(),
                shared_size: 0,
                local: Vec::new(),
                local_size: 0,
            });
        }
    }
    // Return values go after the parameters in the function's param space.
    let base = align_up(params.last().map_or(0, |q| q.offset + q.size), 8);
    for r in &mut returns {
        r.offset += base;
    }
    let saved = p.scope.clone();
    for q in params.iter().chain(&returns) {
        p.scope
            .symbols
            .push((q.name.clone(), Space::Param, q.offset));
    }
    p.case.program = crate::ir::Program {
        version: m.version,
        target: m.target,
        ..Default::default()
    };
    let mut shared = module_shared.to_vec();
    let mut local = Vec::new();
    body(p, &mut shared, &mut local)?;
    p.resolve_labels()?;
    // Keep what the body added to the module scope (inlined calls' count);
    // drop its own symbols.
    let calls = p.scope.calls;
    p.scope = saved;
    p.scope.calls = calls;
    let param_size = params.last().map_or(0, |q| q.offset + q.size);
    Ok(Kernel {
        name: name.text,
        line: dir.line,
        params,
        returns,
        param_size,
        program: std::mem::take(&mut p.case.program),
        shared_size: shared_end(&shared),
        shared,
        local_size: shared_end(&local),
        local,
    })
}

/// `{ statements }`, with nested `{ }` blocks as scopes ([`Scope`]): a
/// `.reg`, `.shared`, `.local` or call-site `.param` declared in a block
/// names it to the block's `}`, hiding an enclosing block's of the same
/// name. A variable's storage is the kernel's whatever its block (each
/// declaration its own, never shared with a sibling block's); labels are
/// the kernel's, one of a name per kernel, whatever their block.
fn body(p: &mut Parser, shared: &mut Vec<Variable>, local: &mut Vec<Variable>) -> PResult<()> {
    p.expect_punct("{")?;
    p.scope.open_block();
    let mut depth = 1;
    while depth > 0 {
        let Some(t) = p.peek().cloned() else {
            p.next("`}`")?;
            unreachable!("next fails at the end");
        };
        match (t.kind, t.text.as_str()) {
            (Kind::Punct, "{") => {
                p.pos += 1;
                depth += 1;
                p.scope.open_block();
            }
            (Kind::Punct, "}") => {
                p.pos += 1;
                depth -= 1;
                p.scope.close_block(t.line);
            }
            (Kind::Word, ".reg") => {
                p.pos += 1;
                p.reg_decl()?;
            }
            // A call site's `.param`s are per-thread storage: local.
            (Kind::Word, ".shared") | (Kind::Word, ".local") | (Kind::Word, ".param") => {
                p.pos += 1;
                let (list, space) = if t.text == ".shared" {
                    (&mut *shared, Space::Shared)
                } else {
                    (&mut *local, Space::Local)
                };
                let from = p.pos;
                let v = variable(p, &t, shared_end(list), false)?;
                if p.scope.variable_here(&v.name) {
                    let at = p.toks[from..p.pos].iter().find(|x| x.text == v.name);
                    return err(
                        at.unwrap_or(&t),
                        format!("`{}` declared twice in one scope", v.name),
                    );
                }
                declare(p, &v, space)?;
                list.push(v);
            }
            (Kind::Word, ".loc") | (Kind::Word, ".file") => {
                p.pos += 1;
                p.skip_line();
            }
            (Kind::Word, ".pragma") => p.skip_statement()?,
            (Kind::Word, w) if w.starts_with('.') => {
                return err(&t, format!("not supported yet in a body: `{w}`"));
            }
            (Kind::Word, _)
                if p.toks
                    .get(p.pos + 1)
                    .is_some_and(|n| n.kind == Kind::Punct && n.text == ":") =>
            {
                p.pos += 2;
                p.label(&t)?;
            }
            _ => p.instruction()?,
        }
    }
    Ok(())
}
