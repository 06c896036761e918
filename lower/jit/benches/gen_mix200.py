#!/usr/bin/env python3
"""Generates the native Rust version of programs/mix200.ptx in native.rs.

The section of native.rs between the lines

    // BEGIN GENERATED mix200 (gen_mix200.py)
    // END GENERATED mix200

is this script's output: the `Mix200` register file (struct, REGS, load,
store), `mix200` and `mix200_observed`, one Rust statement per PTX
instruction with the PTX line as the comment above it. The translation is
textual; the helpers the statements call (`shfl`, `match_all`, `fsetp_ge`,
`sel`, `pmask`, ...) are hand-written above the markers. The output is
already rustfmt-formatted (CI checks formatting), so the check below and
`cargo fmt --check` agree.

    python3 gen_mix200.py          rewrite the section in place (atomically)
    python3 gen_mix200.py --check  exit 1, with a short diff, if the section
                                   is not what the .ptx generates; 0 if it is

lower/jit/tests/suite/mix200_generated.rs runs the check; lower/jit/tests/
bench_programs.rs checks the generated code against the interpreter.
Python 3 standard library only.
"""

import argparse
import difflib
import os
import re
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
PTX = HERE / "programs" / "mix200.ptx"
NATIVE = HERE / "native.rs"
BEGIN = "// BEGIN GENERATED mix200 (gen_mix200.py)\n"
END = "// END GENERATED mix200\n"
REGENERATE = "python3 lower/jit/benches/gen_mix200.py"

# rustfmt's defaults (no rustfmt.toml in the repository).
MAX_WIDTH = 100
SINGLE_LINE_IF_ELSE_MAX_WIDTH = 50
SHORT_ARRAY_ELEMENT_WIDTH_THRESHOLD = 10


class GenError(Exception):
    """A .ptx line this generator does not translate, or a bad native.rs."""


# ---------------------------------------------------------------------------
# Reading the .ptx


class Reg:
    """A declared register: its name, PTX class (b32, f32, b64, pred) and
    index in the register file (declaration order)."""

    def __init__(self, name, cls, index):
        self.name = name
        self.cls = cls
        self.index = index


def parse_ptx(text):
    """The declared registers (in order) and the instruction lines."""
    regs = []
    insts = []
    for number, line in enumerate(text.splitlines(), 1):
        s = line.strip()
        if not s or s.startswith("//"):
            continue
        m = re.fullmatch(r"\.reg\s+\.(b32|f32|b64|pred)\s+(.*);", s)
        if m:
            for name in m.group(2).split(","):
                regs.append(Reg(name.strip(), m.group(1), len(regs)))
            continue
        if s.startswith("."):  # .version, .target, .lanes
            continue
        insts.append((number, s))
    return regs, insts


# ---------------------------------------------------------------------------
# Operands


class Ctx:
    def __init__(self, regs):
        self.regs = {r.name: r for r in regs}

    def reg(self, name, cls=None):
        r = self.regs.get(name)
        if r is None:
            raise GenError(f"unknown register {name!r}")
        if cls is not None and r.cls not in cls:
            raise GenError(f"register {name} is .{r.cls}, expected .{' or .'.join(cls)}")
        return r

    def pred(self, text):
        """A predicate operand (`p`, `!p`) as a lane mask expression."""
        neg = text.startswith("!")
        name = text[1:] if neg else text
        self.reg(name, ("pred",))
        return ("!" if neg else "") + name

    def lane(self, text, bits):
        """A per-lane operand of a `bits`-wide integer (or f32) op: a
        register, %laneid or an immediate, as an expression in `l`."""
        if text == "%laneid":
            if bits != 32:
                raise GenError("%laneid in a 64-bit op")
            return "l as u32"
        if re.fullmatch(r"0[fF][0-9a-fA-F]{8}", text):
            if bits != 32:
                raise GenError(f"f32 immediate {text} in a {bits}-bit op")
            return f"0x{text[2:]}u32"
        if re.fullmatch(r"-?(0[xX][0-9a-fA-F]+|[0-9]+)", text):
            return imm(int(text, 0), bits)
        self.reg(text, ("b32", "f32") if bits == 32 else ("b64",))
        return f"{text}[l]"

    def shift(self, text):
        """A shift amount: always .u32."""
        return self.lane(text, 32)

    def shfl_arg(self, text):
        """shfl's b and c: a closure over the lane."""
        if re.fullmatch(r"0[xX][0-9a-fA-F]+|[0-9]+", text):
            return f"|_| {int(text, 0):#x}"
        self.reg(text, ("b32",))
        return f"|l| {text}[l]"

    def array(self, text, cls=("b32", "f32")):
        """An operand taken whole (`&r1`) by a collective."""
        self.reg(text, cls)
        return "&" + text


def imm(value, bits):
    return f"{value & ((1 << bits) - 1):#x}u{bits}"


def paren(e):
    """`e` where a method call or a comparison needs an atom."""
    return f"({e})" if " " in e else e


def signed(e, bits):
    return f"({e} as i{bits})"


# ---------------------------------------------------------------------------
# Instructions


class Stmt:
    """The translation of one instruction.

    kind "lanes": `dst = lanes(|l| expr)` (expr is a str, or a (cond, a, b)
    tuple for selp); "pred": `dst = expr` on lane masks; "setp": the setp
    block; "raw": `dst = expr` as is (collectives, whole-array moves);
    "block": the lines of a `{ ... }` block (the collectives that write two
    registers), unguarded only.
    """

    def __init__(self, kind, dst=None, expr=None, **kw):
        self.kind = kind
        self.dst = dst
        self.expr = expr
        self.__dict__.update(kw)


BITS = {"b32": 32, "u32": 32, "s32": 32, "f32": 32, "b64": 64, "u64": 64, "s64": 64}
CMP = {"eq": "==", "ne": "!=", "lt": "<", "le": "<=", "gt": ">", "ge": ">="}
BOOL = {"and": "&", "or": "|", "xor": "^"}
SHFL = {"up": "Up", "down": "Down", "bfly": "Bfly", "idx": "Idx"}
FULL_MASK = "0xffffffff"


def data_dst(ctx, text, ty):
    r = ctx.reg(text)
    want = ("b64",) if BITS[ty] == 64 else ("b32", "f32")
    if r.cls not in want:
        raise GenError(f"destination {text} is .{r.cls}, not a {ty} register")
    return text


def translate(ctx, op, args):
    """The Stmt for opcode `op` (dotted parts) with operand texts `args`."""
    name, mods, ty = op[0], op[1:-1], op[-1]

    def want(n):
        if len(args) != n:
            raise GenError(f"{'.'.join(op)} takes {n} operands, got {len(args)}")

    # Collectives.
    if name == "shfl":
        want(5)
        if mods[:1] != ["sync"] or len(mods) != 2 or mods[1] not in SHFL or ty != "b32":
            raise GenError(f"unsupported {'.'.join(op)}")
        if args[4] != FULL_MASK:
            raise GenError("shfl membermask must be 0xffffffff")
        d, _, p = args[0].partition("|")
        data_dst(ctx, d, "b32")
        src = ctx.array(args[1])
        b, c = ctx.shfl_arg(args[2]), ctx.shfl_arg(args[3])
        lines = [f"let (v, {'pv' if p else '_'}) = shfl(Shfl::{SHFL[mods[1]]}, {src}, {b}, {c});"]
        lines.append("let n0 = v;")
        if p:
            ctx.reg(p, ("pred",))
            lines.append("let n1 = pv;")
        lines.append(f"{d} = n0;")
        if p:
            lines.append(f"{p} = n1;")
        return Stmt("block", lines=lines)
    if name == "vote":
        want(3)
        if args[2] != FULL_MASK or mods[:1] != ["sync"] or len(mods) != 2:
            raise GenError(f"unsupported {'.'.join(op)}")
        a = ctx.pred(args[1])
        if mods[1] == "ballot" and ty == "b32":
            data_dst(ctx, args[0], "b32")
            return Stmt("raw", args[0], f"[{a}; WARP]")
        if mods[1] in ("all", "any", "uni") and ty == "pred":
            ctx.reg(args[0], ("pred",))
            return Stmt("raw", args[0], f"vote_{mods[1]}({a})")
        raise GenError(f"unsupported {'.'.join(op)}")
    if name == "match":
        want(3)
        # match.any.sync / match.all.sync: the mode comes before .sync.
        if args[2] != FULL_MASK or mods[1:] != ["sync"] or ty not in ("b32", "b64"):
            raise GenError(f"unsupported {'.'.join(op)}")
        src = ctx.array(args[1], ("b32",) if ty == "b32" else ("b64",))
        if mods[0] == "any":
            data_dst(ctx, args[0], "b32")
            return Stmt("raw", args[0], f"match_any({src})")
        if mods[0] != "all":
            raise GenError(f"unsupported {'.'.join(op)}")
        d, _, p = args[0].partition("|")
        d = "" if d == "_" else d
        p = "" if p == "_" else p
        if not d and not p:
            raise GenError("match.all writes nothing")
        lines = [f"let ({'dv' if d else '_'}, {'pv' if p else '_'}) = match_all({src});"]
        news = []
        if d:
            data_dst(ctx, d, "b32")
            news.append((d, "[dv; WARP]"))
        if p:
            ctx.reg(p, ("pred",))
            news.append((p, "pv"))
        lines += [f"let n{i} = {e};" for i, (_, e) in enumerate(news)]
        lines += [f"{r} = n{i};" for i, (r, _) in enumerate(news)]
        return Stmt("block", lines=lines)
    if name == "redux":
        want(3)
        if args[2] != FULL_MASK or mods[:1] != ["sync"] or len(mods) != 2:
            raise GenError(f"unsupported {'.'.join(op)}")
        ok = {"add": ("u32", "s32"), "min": ("u32", "s32"), "max": ("u32", "s32"),
              "and": ("b32",), "or": ("b32",), "xor": ("b32",)}
        if ty not in ok.get(mods[1], ()):
            raise GenError(f"unsupported {'.'.join(op)}")
        data_dst(ctx, args[0], "b32")
        return Stmt("raw", args[0], f"[redux_{mods[1]}_{ty}({ctx.array(args[1], ('b32',))}); WARP]")
    if name == "activemask":
        want(1)
        data_dst(ctx, args[0], "b32")
        return Stmt("raw", args[0], "[FULL; WARP]")

    # Predicate logic.
    if ty == "pred":
        if name in BOOL and not mods:
            want(3)
            ctx.reg(args[0], ("pred",))
            a, b = ctx.pred(args[1]), ctx.pred(args[2])
            return Stmt("pred", args[0], f"{a} {BOOL[name]} {b}", op=BOOL[name], a=a, b=b)
        if name in ("not", "mov") and not mods:
            want(2)
            ctx.reg(args[0], ("pred",))
            a = ctx.pred(args[1])
            return Stmt("pred", args[0], f"!{a}" if name == "not" else a)
        raise GenError(f"unsupported {'.'.join(op)}")

    # setp.
    if name == "setp":
        if not mods or mods[0] not in CMP or len(mods) > 2 or ty not in BITS:
            raise GenError(f"unsupported {'.'.join(op)}")
        bool_op = mods[1] if len(mods) == 2 else None
        if bool_op is not None and bool_op not in BOOL:
            raise GenError(f"unsupported {'.'.join(op)}")
        want(4 if bool_op else 3)
        p, _, q = args[0].partition("|")
        ctx.reg(p, ("pred",))
        if q:
            ctx.reg(q, ("pred",))
        bits = BITS[ty]
        a, b = ctx.lane(args[1], bits), ctx.lane(args[2], bits)
        if ty == "f32":
            t = f"fsetp_{mods[0]}({a}, {b})"
        elif ty[0] == "s":
            t = f"{signed(a, bits)} {CMP[mods[0]]} {signed(b, bits)}"
        else:
            if ty[0] == "b" and mods[0] not in ("eq", "ne"):
                raise GenError(f"unsupported {'.'.join(op)}")
            t = f"{paren(a)} {CMP[mods[0]]} {paren(b)}"
        c = ctx.pred(args[3]) if bool_op else None
        return Stmt("setp", None, t, p=p, q=q, c=c, bool_op=BOOL.get(bool_op))

    # Per-lane data ops.
    if ty not in BITS:
        raise GenError(f"unsupported {'.'.join(op)}")
    bits = BITS[ty]
    if name == "selp":
        want(4)
        d = data_dst(ctx, args[0], ty)
        a, b = ctx.lane(args[1], bits), ctx.lane(args[2], bits)
        c = ctx.pred(args[3])
        return Stmt("lanes", d, (paren(c), a, b))
    if name == "mov" and not mods:
        want(2)
        d = data_dst(ctx, args[0], ty)
        a = ctx.lane(args[1], bits)
        src = ctx.regs.get(args[1])
        if src is not None and {src.cls, ctx.regs[d].cls} == {"b32", "f32"}:
            # A move between .b32 and .f32 registers copies the bits whole.
            return Stmt("lanes", d, a, whole=args[1])
        return Stmt("lanes", d, a)
    if ty == "f32":
        fops = {"add": 2, "sub": 2, "mul": 2, "min": 2, "max": 2, "abs": 1, "neg": 1}
        if name not in fops or mods:
            raise GenError(f"unsupported {'.'.join(op)}")
        want(1 + fops[name])
        d = data_dst(ctx, args[0], ty)
        xs = [ctx.lane(x, 32) for x in args[1:]]
        return Stmt("lanes", d, f"f{name}({', '.join(xs)})")
    # popc's destination is .u32 whatever its source's width.
    d = data_dst(ctx, args[0], "b32" if name == "popc" else ty)
    u = f"u{bits}"
    if name in ("add", "sub") and not mods and ty[0] in "us":
        want(3)
        a, b = ctx.lane(args[1], bits), ctx.lane(args[2], bits)
        return Stmt("lanes", d, f"{paren(a)}.wrapping_{name}({b})")
    if name == "mul" and mods == ["lo"] and ty[0] in "us":
        want(3)
        a, b = ctx.lane(args[1], bits), ctx.lane(args[2], bits)
        return Stmt("lanes", d, f"{paren(a)}.wrapping_mul({b})")
    if name == "mul" and mods == ["hi"] and ty[0] in "us":
        want(3)
        a, b = ctx.lane(args[1], bits), ctx.lane(args[2], bits)
        return Stmt("lanes", d, f"mulhi_{ty}({a}, {b})")
    if name in ("min", "max") and not mods and ty[0] in "us":
        want(3)
        a, b = ctx.lane(args[1], bits), ctx.lane(args[2], bits)
        if ty[0] == "u":
            return Stmt("lanes", d, f"{paren(a)}.{name}({b})")
        return Stmt("lanes", d, f"{signed(a, bits)}.{name}({b} as i{bits}) as {u}")
    if name in BOOL and not mods and ty[0] == "b":
        want(3)
        a, b = ctx.lane(args[1], bits), ctx.lane(args[2], bits)
        return Stmt("lanes", d, f"{paren(a)} {BOOL[name]} {paren(b)}")
    if name == "not" and not mods and ty[0] == "b":
        want(2)
        return Stmt("lanes", d, f"!{paren(ctx.lane(args[1], bits))}")
    if name == "popc" and not mods and ty[0] == "b":
        want(2)
        return Stmt("lanes", d, f"{paren(ctx.lane(args[1], bits))}.count_ones()")
    if name == "shl" and not mods and ty[0] == "b":
        want(3)
        return Stmt("lanes", d, f"shl{bits}({ctx.lane(args[1], bits)}, {ctx.shift(args[2])})")
    if name == "shr" and not mods:
        want(3)
        kind = "s" if ty[0] == "s" else "u"
        return Stmt("lanes", d,
                    f"shr_{kind}{bits}({ctx.lane(args[1], bits)}, {ctx.shift(args[2])})")
    raise GenError(f"unsupported {'.'.join(op)}")


# ---------------------------------------------------------------------------
# Emitting the Rust


def lanes_closure(expr, indent):
    """`lanes(|l| ...)` for `expr` as the lines of a statement's right-hand
    side: the first line's text (to follow `x = `) and any further lines.
    A selp's if-else goes on one line up to rustfmt's
    single_line_if_else_max_width, in a block over several lines past it."""
    if isinstance(expr, str):
        return [f"lanes(|l| {expr})"]
    cond, a, b = expr
    one = f"if {cond} >> l & 1 == 1 {{ {a} }} else {{ {b} }}"
    if len(one) <= SINGLE_LINE_IF_ELSE_MAX_WIDTH:
        return [f"lanes(|l| {one})"]
    i = " " * indent
    return [
        "lanes(|l| {",
        f"{i}    if {cond} >> l & 1 == 1 {{",
        f"{i}        {a}",
        f"{i}    }} else {{",
        f"{i}        {b}",
        f"{i}    }}",
        f"{i}}})",
    ]


def assign(indent, lhs, rhs_lines):
    i = " " * indent
    out = [f"{i}{lhs}{rhs_lines[0]}"]
    out += rhs_lines[1:]
    out[-1] += ";"
    return out


def emit(stmt, guard):
    """The lines (indented for the body of mix200_observed) of one
    instruction; `guard` is the guard's mask expression or None."""
    if stmt.kind == "block":
        if guard:
            raise GenError("guarded collectives are not supported")
        return ["    {"] + [f"        {x}" for x in stmt.lines] + ["    }"]
    if stmt.kind == "raw":
        if guard:
            raise GenError("guarded collectives are not supported")
        return [f"    {stmt.dst} = {stmt.expr};"]
    if stmt.kind == "lanes":
        if guard is None:
            if getattr(stmt, "whole", None):
                return [f"    {stmt.dst} = {stmt.whole};"]
            return assign(4, f"{stmt.dst} = ", lanes_closure(stmt.expr, 4))
        return (["    {", f"        let g = {guard};"]
                + assign(8, "let n0 = ", lanes_closure(stmt.expr, 8))
                + [f"        {stmt.dst} = sel(g, &n0, &{stmt.dst});", "    }"])
    if stmt.kind == "pred":
        d = stmt.dst
        if guard is None:
            op = getattr(stmt, "op", None)
            # `d = d op x` and, op being commutative, `d = x op d` are
            # written `d op= x` (clippy's assign_op_pattern).
            if op and stmt.a == d:
                return [f"    {d} {op}= {stmt.b};"]
            if op and stmt.b == d:
                return [f"    {d} {op}= {stmt.a};"]
            return [f"    {d} = {stmt.expr};"]
        return ["    {", f"        let g = {guard};", f"        let n0 = {stmt.expr};",
                f"        {d} = (n0 & g) | ({d} & !g);", "    }"]
    if stmt.kind == "setp":
        lines = ["    {"]
        if guard:
            lines.append(f"        let g = {guard};")
        lines.append(f"        let t = pmask(|l| {stmt.expr});")
        if stmt.c:
            lines.append(f"        let c = {stmt.c};")
            news = [f"t {stmt.bool_op} c", f"!t {stmt.bool_op} c"]
        else:
            news = ["t", "!t"]
        dsts = [stmt.p] + ([stmt.q] if stmt.q else [])
        for k in range(len(dsts)):
            lines.append(f"        let n{k} = {news[k]};")
        for k, d in enumerate(dsts):
            if guard:
                lines.append(f"        {d} = (n{k} & g) | ({d} & !g);")
            else:
                lines.append(f"        {d} = n{k};")
        lines.append("    }")
        return lines
    raise AssertionError(stmt.kind)


def instruction(ctx, number, line):
    """The comment and statement lines of the .ptx line `line`."""
    m = re.fullmatch(r"(?:@(!?)(\w+)\s+)?([\w.]+)\s*(.*?)\s*;", line)
    if not m:
        raise GenError(f"mix200.ptx:{number}: cannot read {line!r}")
    neg, guard_reg, opcode, rest = m.groups()
    args = [a.strip() for a in rest.split(",")] if rest else []
    text = " ".join(line.split())
    try:
        guard = None
        if guard_reg:
            guard = ctx.pred(neg + guard_reg)
        stmt = translate(ctx, opcode.split("."), args)
        return [f"    // {text}"] + emit(stmt, guard)
    except GenError as e:
        raise GenError(f"mix200.ptx:{number}: {text}: {e}") from None


RUST_TY = {"b32": "[u32; WARP]", "f32": "[u32; WARP]", "b64": "[u64; WARP]", "pred": "u32"}
GET = {"b32": "get32", "f32": "get32", "b64": "get64", "pred": "get_pred"}
PUT = {"b32": "put32", "f32": "put32", "b64": "put64", "pred": "put_pred"}


def string_array(items, indent, prefix, suffix):
    """rustfmt's layout of an array of short string literals."""
    quoted = [f'"{x}"' for x in items]
    i = " " * indent
    one = f"{i}{prefix}{', '.join(quoted)}{suffix}"
    if len(one) <= MAX_WIDTH:
        return [one]
    out = [f"{i}{prefix}"]
    if any(len(q) > SHORT_ARRAY_ELEMENT_WIDTH_THRESHOLD for q in quoted):
        out += [f"{i}    {q}," for q in quoted]
    else:
        line = ""
        for q in quoted:
            cand = f"{line} {q}," if line else f"{i}    {q},"
            if len(cand) > MAX_WIDTH:
                out.append(line)
                cand = f"{i}    {q},"
            line = cand
        out.append(line)
    out.append(f"{i}{suffix.lstrip()}")
    return out


def generate(ptx_text):
    """The text between the markers."""
    regs, insts = parse_ptx(ptx_text)
    if not regs:
        raise GenError("mix200.ptx declares no registers")
    ctx = Ctx(regs)
    names = [r.name for r in regs]
    o = []
    o += [
        "/// The register file of `mix200.ptx`, in declaration order: `.b32` and `.f32` registers as",
        "/// `[u32; WARP]` (f32 as bits), `.b64` as `[u64; WARP]`, `.pred` as a lane mask.",
        "#[derive(Clone, Copy, Debug, PartialEq, Eq)]",
        "pub struct Mix200 {",
    ]
    o += [f"    pub {r.name}: {RUST_TY[r.cls]}," for r in regs]
    o += [
        "}",
        "",
        "impl Mix200 {",
        "    /// The register names in declaration order (the register file's layout).",
    ]
    o += string_array(names, 4, "pub const REGS: &'static [&'static str] = &[", "];")
    o += [
        "",
        "    /// Reads the registers from a register file in declaration order.",
        "    pub fn load(file: &[[u64; WARP]]) -> Self {",
        "        Mix200 {",
    ]
    o += [f"            {r.name}: {GET[r.cls]}(&file[{r.index}])," for r in regs]
    o += [
        "        }",
        "    }",
        "",
        "    /// Writes every register back into a register file in declaration order.",
        "    pub fn store(&self, file: &mut [[u64; WARP]]) {",
    ]
    for r in regs:
        amp = "" if r.cls == "pred" else "&"
        o.append(f"        {PUT[r.cls]}(&mut file[{r.index}], {amp}self.{r.name});")
    o += [
        "    }",
        "}",
        "",
        f"/// `mix200.ptx`: {len(insts)} straight-line instructions, one statement each (generated with the",
        "/// `.ptx` from seed 0x5eed0200; the PTX line is the comment above its statement). The warp is full",
        "/// and converged, so every collective is the whole-warp helper above; guarded glue keeps the old",
        "/// value on the lanes whose guard is false. The registers live in locals; `s` is read at the",
        "/// start and written at the end.",
        "pub fn mix200(s: &mut Mix200) {",
        "    mix200_observed(s, |_, _| {});",
        "}",
        "",
        "/// [`mix200`], calling `after(k, &registers)` after its `k`-th instruction (1-based; 0 before",
        "/// the first), for tests",
        "/// that check each instruction. With the empty observer of [`mix200`] the snapshots are dead and",
        "/// optimised away.",
        "#[inline(always)]",
        "pub fn mix200_observed(s: &mut Mix200, mut after: impl FnMut(usize, &Mix200)) {",
    ]
    o += [f"    let mut {n} = s.{n};" for n in names]
    o += ["    macro_rules! snapshot {", "        () => {", "            Mix200 {"]
    o += [f"                {n}," for n in names]
    o += ["            }", "        };", "    }", "    after(0, &snapshot!());"]
    for k, (number, line) in enumerate(insts, 1):
        o += instruction(ctx, number, line)
        o.append(f"    after({k}, &snapshot!());")
    o += [f"    s.{n} = {n};" for n in names]
    o.append("}")
    for k, line in enumerate(o):
        if len(line) > MAX_WIDTH and not line.lstrip().startswith("//"):
            raise GenError(f"generated line {k + 1} is longer than {MAX_WIDTH} columns "
                           f"(rustfmt would rewrap it): {line}")
    return "".join(x + "\n" for x in o)


# ---------------------------------------------------------------------------
# native.rs


def split_native(text):
    """native.rs as (before and BEGIN line, section, END line and after)."""
    if text.count(BEGIN) != 1 or text.count(END) != 1:
        raise GenError(f"{NATIVE}: expected exactly one {BEGIN.strip()!r} and one "
                       f"{END.strip()!r} line")
    b = text.index(BEGIN) + len(BEGIN)
    e = text.index(END)
    if e < b:
        raise GenError(f"{NATIVE}: the END marker comes before the BEGIN marker")
    return text[:b], text[b:e], text[e:]


def read(path):
    with open(path, encoding="utf-8", newline="") as f:
        return f.read()


def write_atomically(path, text):
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp")
    try:
        with os.fdopen(fd, "w", encoding="utf-8", newline="") as f:
            f.write(text)
            f.flush()
            os.fsync(f.fileno())
        os.chmod(tmp, os.stat(path).st_mode & 0o7777)
        os.replace(tmp, path)
    except BaseException:
        try:
            os.unlink(tmp)
        except FileNotFoundError:
            pass
        raise


def short_diff(old, new, limit=40):
    diff = list(difflib.unified_diff(
        old.splitlines(keepends=True), new.splitlines(keepends=True),
        "native.rs (current section)", "native.rs (generated from mix200.ptx)", n=1))
    shown = "".join(diff[:limit])
    if not shown.endswith("\n"):
        shown += "\n"
    if len(diff) > limit:
        shown += f"... ({len(diff) - limit} more diff lines)\n"
    return shown


def main(argv):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--check", action="store_true",
                    help="exit 1 with a diff if native.rs is not up to date; write nothing")
    args = ap.parse_args(argv)
    try:
        section = generate(read(PTX))
        native = read(NATIVE)
        head, old, tail = split_native(native)
    except (GenError, OSError) as e:
        print(f"gen_mix200.py: error: {e}", file=sys.stderr)
        return 2
    if args.check:
        if old == section:
            print("gen_mix200.py: the mix200 section of native.rs is up to date")
            return 0
        print("gen_mix200.py: the generated mix200 section of lower/jit/benches/native.rs "
              "is out of date with lower/jit/benches/programs/mix200.ptx (or was edited by "
              f"hand); regenerate it, from the repository root, with\n\n    {REGENERATE}\n",
              file=sys.stderr)
        sys.stderr.write(short_diff(old, section))
        return 1
    if old == section:
        print("gen_mix200.py: native.rs is already up to date")
        return 0
    write_atomically(NATIVE, head + section + tail)
    print(f"gen_mix200.py: rewrote the mix200 section of {NATIVE}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
