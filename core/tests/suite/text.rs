//! The text format: print → parse gives back the same case for every form,
//! the spec's example code parses as written, and bad input is reported with
//! its line and column.

use warp_core::ir::{Case, Glue, Op, Redux, ReduxOp, Shfl, Signedness, Type, UnOp};
use warp_core::text::{parse, print, ParseError};

/// Every instruction form the IR has, with sinks, `d|p` pairs, `!a`,
/// registers and immediates for b/c/membermask, `%laneid`, guards.
const EVERY_FORM: &str = "\
// every form of the IR
.version 9.1
.target sm_100a
.reg .b32 A, B, C, M, %r<3>;
.reg .u32 U;
.reg .s32 S;
.reg .f32 F, G;
.reg .b64 W, X;
.reg .u64 UW;
.reg .s64 SW;
.reg .pred p, q;
.lanes A = 0 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20 21 22 23 24 25 26 27 28 29 30 31;
.lanes M = 0xffffffff;
.lanes F = 0f3f800000;
.lanes W = 0d0123456789abcdef;
.lanes p = 1;
    shfl.sync.up.b32 B|p, A, 1, 0, 0xffffffff;
    shfl.sync.down.b32 B, A, C, 0x1f, M;
    shfl.sync.bfly.b32 _|q, F, %laneid, 0x1c1f, M;
    shfl.sync.idx.b32 B|_, A, 33, C, 0xffffffff;
    vote.sync.all.pred p, q, M;
    vote.sync.any.pred p, !q, 0xffffffff;
    vote.sync.uni.pred _, p, M;
    vote.sync.ballot.b32 B, !p, M;
    match.any.sync.b32 B, A, M;
    match.all.sync.b32 B|p, A, M;
    match.any.sync.b64 B, W, 0xffffffff;
    match.all.sync.b64 _|p, 0d0000000100000000, M;
    redux.sync.add.u32 U, A, M;
    redux.sync.add.s32 S, S, M;
    redux.sync.min.u32 U, 5, M;
    redux.sync.min.s32 S, -7, M;
    redux.sync.max.u32 U, A, M;
    redux.sync.max.s32 S, A, M;
    redux.sync.and.b32 B, A, M;
    redux.sync.or.b32 B, A, M;
    redux.sync.xor.b32 B, A, M;
    redux.sync.min.f32 F, G, M;
    redux.sync.max.f32 F, -0.0, M;
    redux.sync.min.abs.f32 F, G, M;
    redux.sync.max.NaN.f32 F, G, M;
    redux.sync.min.abs.NaN.f32 F, 0f7fc00000, M;
    activemask.b32 %r0;
@p  activemask.b32 %r1;
    mov.b32 %r2, %laneid;
    mov.pred q, p;
    mov.f32 F, 1.5;
    mov.u64 UW, 0xffffffffffffffff;
    add.u32 U, U, 1;
    add.s64 SW, SW, -1;
    sub.s32 S, S, A;
    add.f32 F, F, G;
    sub.f32 F, F, 0f80000000;
    mul.lo.u32 U, U, 3;
    mul.lo.s64 SW, SW, SW;
    mul.hi.u32 U, U, 0x80000000;
    mul.hi.s32 S, S, -2;
    mul.hi.u64 UW, UW, UW;
    mul.f32 F, F, G;
    min.u32 U, U, A;
    max.s32 S, S, A;
    min.f32 F, F, G;
    max.f32 F, F, G;
    min.u64 UW, UW, 7;
    and.b32 B, B, 0xff;
    or.b64 W, W, X;
    xor.pred p, p, q;
    and.pred p, p, q;
    or.pred q, p, q;
    not.b32 B, B;
    not.pred p, q;
    not.b64 X, W;
    shl.b32 B, B, 33;
    shl.b64 W, W, U;
    shr.u32 U, U, 4;
    shr.s32 S, S, 40;
    shr.b64 W, W, 1;
    popc.b32 U, B;
    popc.b64 U, W;
    neg.f32 F, F;
    abs.f32 G, F;
    setp.eq.u32 p, U, 3;
    setp.ne.b32 p|q, B, A;
    setp.lt.s32 p, S, -1;
    setp.le.f32 p, F, G;
    setp.gt.u64 p, UW, 1;
    setp.ge.and.s32 p, S, 0, q;
    setp.lt.or.f32 p|q, F, 0f00000000, !q;
    setp.eq.xor.b64 p, W, X, p;
    selp.b32 B, A, 1, p;
    selp.f32 F, F, G, q;
    selp.s64 SW, SW, 0, p;
@!p bra END;
LOOP:
@q  bra LOOP;
    shfl.up.b32 B|p, A, 1, 0;
    shfl.down.b32 B, A, 2, 0x1f;
    shfl.bfly.b32 B, A, 4, 0x1f;
    shfl.idx.b32 B|q, A, C, 0x181f;
    vote.all.pred p, q;
    vote.any.pred p, !q;
    vote.uni.pred p, q;
    vote.ballot.b32 B, p;
@q  exit;
    exit;
END:
.expect A = _ 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20 21 22 23 24 25 26 27 28 29 30 0xffffffff;
.expect p = 1;
.expect F = 0fffc00000;
";

fn roundtrip(name: &str, src: &str) -> Case {
    let a = parse(src).unwrap_or_else(|e| panic!("{}", e.with_file(name)));
    let printed = print(&a);
    let b = parse(&printed)
        .unwrap_or_else(|e| panic!("{name}: printed text does not parse: {e}\n{printed}"));
    assert_eq!(a, b, "{name}: print → parse changed the case\n{printed}");
    assert_eq!(print(&b), printed, "{name}: printing is not a fixpoint");
    a
}

#[test]
fn every_form_round_trips() {
    let case = roundtrip("every-form", EVERY_FORM);
    assert_eq!(case.program.insts.len(), 88);
    assert_eq!(case.program.regs.len(), 17);
    assert_eq!(case.header, vec!["every form of the IR".to_string()]);
    // Spot-check that operands survive as meant, not just consistently.
    let p = &case.program;
    match &p.insts[3].op {
        Op::Shfl(Shfl { b, .. }) => assert_eq!(*b, warp_core::ir::Operand::Imm(33)),
        other => panic!("{other:?}"),
    }
    match &p.insts[15].op {
        Op::Redux(Redux { a, .. }) => assert_eq!(*a, warp_core::ir::Operand::Imm(0xffff_fff9)),
        other => panic!("{other:?}"),
    }
    match &p.insts[22].op {
        Op::Redux(Redux { a, .. }) => assert_eq!(*a, warp_core::ir::Operand::Imm(0x8000_0000)),
        other => panic!("-0.0 is 0x80000000: {other:?}"),
    }
}

#[test]
fn every_case_file_round_trips() {
    let files = warp_core::replay::case_files(&warp_core::replay::corpus_dir());
    for path in &files {
        let src = std::fs::read_to_string(path).expect("read");
        roundtrip(&path.display().to_string(), &src);
    }
    assert!(files.len() >= 60, "only {} files", files.len());
}

/// The example code of the deprecated-`shfl` page (§9.7.9.5), verbatim.
const SPEC_DEPRECATED_EXAMPLES: &str = "
    // Warp-level INCLUSIVE PLUS SCAN:
    //
    // Assumes input in following registers:
    //     - Rx  = sequence value for this thread
    //
    shfl.up.b32  Ry|p, Rx, 0x1,  0x0;
@p  add.f32      Rx, Ry, Rx;
    shfl.up.b32  Ry|p, Rx, 0x2,  0x0;
@p  add.f32      Rx, Ry, Rx;
    shfl.up.b32  Ry|p, Rx, 0x4,  0x0;
@p  add.f32      Rx, Ry, Rx;
    shfl.up.b32  Ry|p, Rx, 0x8,  0x0;
@p  add.f32      Rx, Ry, Rx;
    shfl.up.b32  Ry|p, Rx, 0x10, 0x0;
@p  add.f32      Rx, Ry, Rx;


    // Warp-level INCLUSIVE PLUS REVERSE-SCAN:
    //
    // Assumes input in following registers:
    //     - Rx  = sequence value for this thread
    //
    shfl.down.b32  Ry|p, Rx, 0x1,  0x1f;
@p  add.f32        Rx, Ry, Rx;
    shfl.down.b32  Ry|p, Rx, 0x2,  0x1f;
@p  add.f32        Rx, Ry, Rx;
    shfl.down.b32  Ry|p, Rx, 0x4,  0x1f;
@p  add.f32        Rx, Ry, Rx;
    shfl.down.b32  Ry|p, Rx, 0x8,  0x1f;
@p  add.f32        Rx, Ry, Rx;
    shfl.down.b32  Ry|p, Rx, 0x10, 0x1f;
@p  add.f32        Rx, Ry, Rx;


    // BUTTERFLY REDUCTION:
    //
    // Assumes input in following registers:
    //     - Rx  = sequence value for this thread
    //
    shfl.bfly.b32  Ry, Rx, 0x10, 0x1f;   // no predicate dest
    add.f32        Rx, Ry, Rx;
    shfl.bfly.b32  Ry, Rx, 0x8,  0x1f;
    add.f32        Rx, Ry, Rx;
    shfl.bfly.b32  Ry, Rx, 0x4,  0x1f;
    add.f32        Rx, Ry, Rx;
    shfl.bfly.b32  Ry, Rx, 0x2,  0x1f;
    add.f32        Rx, Ry, Rx;
    shfl.bfly.b32  Ry, Rx, 0x1,  0x1f;
    add.f32        Rx, Ry, Rx;
    //
    // All threads now hold sum in Rx
";

/// The `.sync` examples of the digest page and of `shfl.sync` (§9.7.9.6).
const SPEC_SYNC_EXAMPLES: &str = "
shfl.sync.up.b32  Ry|p, Rx, 0x1,  0x0, 0xffffffff;
// Butterfly reduction across full warp
shfl.sync.bfly.b32  Ry, Rx, 0x10, 0x1f, 0xffffffff;
add.f32             Rx, Ry, Rx;
shfl.sync.bfly.b32  Ry, Rx, 0x8,  0x1f, 0xffffffff;
add.f32             Rx, Ry, Rx;

// Inclusive prefix scan using .up
shfl.sync.up.b32  Ry|p, Rx, 0x1, 0x0, 0xffffffff;
@p add.f32        Rx, Ry, Rx;
vote.sync.all.pred     p, q, 0xffffffff;
vote.sync.ballot.b32   r1, p, 0xffffffff;
match.any.sync.b32  d, a, 0xffffffff;
match.all.sync.b64  d|p, a64, mask;
redux.sync.add.s32          dst, src, 0xff;
redux.sync.xor.b32          dst, src, mask;
redux.sync.min.abs.NaN.f32  dst, src, mask;
activemask.b32  %r1;
";

#[test]
fn spec_examples_parse_as_written() {
    let legacy = format!(
        ".version 6.3\n.target sm_70\n.reg .f32 Rx, Ry;\n.reg .pred p;\n{SPEC_DEPRECATED_EXAMPLES}"
    );
    let case = roundtrip("spec-deprecated", &legacy);
    assert_eq!(case.program.insts.len(), 30);
    // `a64` stands for the page's 64-bit `a`; `.f32` redux needs sm_100a.
    let sync = format!(
        ".target sm_100a\n.reg .f32 Rx, Ry;\n.reg .pred p, q;\n.reg .b32 r1, d, a, mask, dst, src, %r<2>;\n.reg .b64 a64;\n{}",
        SPEC_SYNC_EXAMPLES.replace("redux.sync.min.abs.NaN.f32  dst, src", "redux.sync.min.abs.NaN.f32  Rx, Ry")
    );
    let case = roundtrip("spec-sync", &sync);
    assert_eq!(case.program.insts.len(), 15);
}

fn error_of(src: &str) -> ParseError {
    match parse(src) {
        Ok(_) => panic!("should not parse:\n{src}"),
        Err(e) => e,
    }
}

fn assert_error(src: &str, line: u32, col: u32, mentions: &str) {
    let e = error_of(src);
    assert_eq!((e.line, e.col), (line, col), "{e}");
    assert!(
        e.msg.contains(mentions),
        "`{}` should mention `{mentions}`",
        e.msg
    );
}

const HEAD: &str = ".reg .b32 Rx, Ry;\n.reg .pred p;\n.reg .u64 W;\n";

#[test]
fn parse_errors_name_line_and_column() {
    // Line 4 is the first line after HEAD; columns count from 1.
    assert_error(
        &format!("{HEAD}    shfl.sync.sideways.b32 Ry, Rx, 1, 0, 0xffffffff;\n"),
        4,
        5,
        "shfl mode",
    );
    assert_error(
        &format!("{HEAD}  frobnicate.b32 Ry, Rx;\n"),
        4,
        3,
        "unknown instruction `frobnicate.b32`",
    );
    // Wrong operand count: too few is reported at the opcode, too many at
    // the first extra operand.
    assert_error(
        &format!("{HEAD}shfl.sync.up.b32 Ry, Rx, 1, 0;\n"),
        4,
        1,
        "takes 5 operands, found 4",
    );
    assert_error(
        &format!("{HEAD}add.u32 Ry, Rx, 1, 2;\n"),
        4,
        20,
        "takes 3 operands, found 4",
    );
    assert_error(
        &format!("{HEAD}add.u32 Ry, Rz, 1;\n"),
        4,
        13,
        "undeclared register `Rz`",
    );
    assert_error(
        &format!("{HEAD}\n@q add.u32 Ry, Rx, 1;\n"),
        5,
        2,
        "undeclared register `q`",
    );
    // Type mismatches: a 64-bit register in a 32-bit slot, a predicate in an
    // integer slot, an integer register in an f32 instruction.
    assert_error(
        &format!("{HEAD}add.u32 Ry, W, 1;\n"),
        4,
        13,
        "type mismatch",
    );
    assert_error(
        &format!("{HEAD}add.u32 Ry, Rx, p;\n"),
        4,
        17,
        "type mismatch",
    );
    assert_error(
        ".reg .u32 U;\n.reg .f32 F;\nadd.f32 F, F, U;\n",
        3,
        15,
        "type mismatch: register `U` is .u32",
    );
    assert_error(
        &format!("{HEAD}vote.sync.ballot.b32 Ry, Rx, 0xffffffff;\n"),
        4,
        26,
        "type mismatch",
    );
    // 31 and 33 `.lanes` values: reported at the register name.
    let n = |k: usize| (0..k).map(|i| i.to_string()).collect::<Vec<_>>().join(" ");
    assert_error(
        &format!("{HEAD}.lanes Rx = {};\n", n(31)),
        4,
        8,
        "has 31 values",
    );
    assert_error(
        &format!("{HEAD}.lanes Rx = {};\n", n(33)),
        4,
        8,
        "has 33 values",
    );
    assert_error(
        &format!("{HEAD}.expect Ry = {};\n", n(2)),
        4,
        9,
        "has 2 values",
    );
    // Bad numbers.
    assert_error(
        &format!("{HEAD}add.u32 Ry, Rx, 0xfffffffff;\n"),
        4,
        17,
        "does not fit in 32 bits",
    );
    assert_error(
        &format!("{HEAD}add.u32 Ry, Rx, 12abc;\n"),
        4,
        17,
        "bad number `12abc`",
    );
    assert_error(
        &format!("{HEAD}.lanes Rx = 0f3f80;\n"),
        4,
        13,
        "8 hex digits",
    );
    assert_error(&format!("{HEAD}.lanes p = 2;\n"), 4, 12, "bad .pred value");
    assert_error(&format!("{HEAD}.lanes Rx = 1.5;\n"), 4, 13, "float literal");
    // Others: sink as a source, `!` where not allowed, missing `;`, unknown
    // label, unknown directive, undefined in `.lanes`.
    assert_error(
        &format!("{HEAD}add.u32 Ry, _, 1;\n"),
        4,
        13,
        "only allowed as a destination",
    );
    assert_error(
        &format!("{HEAD}add.u32 Ry, !p, 1;\n"),
        4,
        14,
        "`!` is only allowed",
    );
    assert_error(
        &format!("{HEAD}add.u32 Ry, Rx, 1\nexit;\n"),
        5,
        1,
        "expected `,` or `;`",
    );
    assert_error(
        &format!("{HEAD}bra NOWHERE;\n"),
        4,
        5,
        "undefined label `NOWHERE`",
    );
    assert_error(
        &format!("{HEAD}.global .b32 g;\n"),
        4,
        1,
        "unknown directive",
    );
    assert_error(
        &format!("{HEAD}.lanes Rx = _;\n"),
        4,
        13,
        "only allowed in `.expect`",
    );
    assert_error(
        &format!("{HEAD}match.all.sync.b32 _|_, Rx, 0xffffffff;\n"),
        4,
        20,
        "only one",
    );
    assert_error(
        &format!("{HEAD}add.u32 Ry, Rx, 1;\nexit\n"),
        5,
        5,
        "unexpected end of file",
    );
    assert_error(
        "shfl.sync.up.b32 Ry, Rx, 1, 0, 0xffffffff;",
        1,
        18,
        "undeclared register `Ry`",
    );
}

/// `redux.sync.max.{u32,s32}` and `popc` used to be the `_ =>` arms the
/// parser fell back to; they are matched by name now, and a misspelling
/// near them is an error at the opcode's line and column (none was
/// accepted before either: the outer patterns kept it from the fallbacks).
#[test]
fn redux_and_unary_opcodes_are_matched_by_name() {
    let only = |src: &str| {
        let case = parse(&format!("{HEAD}{src}\n")).unwrap_or_else(|e| panic!("{e}"));
        case.program.insts[0].op.clone()
    };
    match only("redux.sync.max.s32 Ry, Rx, 0xffffffff;") {
        Op::Redux(r) => assert_eq!(r.op, ReduxOp::Max(Signedness::Signed)),
        other => panic!("{other:?}"),
    }
    match only("popc.b64 Ry, W;") {
        Op::Glue(Glue::Un { op, ty, .. }) => assert_eq!((op, ty), (UnOp::Popc, Type::B64)),
        other => panic!("{other:?}"),
    }
    for bad in [
        "redux.sync.mul.u32 Ry, Rx, 0xffffffff;",
        "redux.sync.maximum.s32 Ry, Rx, 0xffffffff;",
        "redux.sync.max.u64 Ry, Rx, 0xffffffff;",
    ] {
        let opcode = bad.split(' ').next().unwrap_or_default();
        assert_error(
            &format!("{HEAD}  {bad}\n"),
            4,
            3,
            &format!("`{opcode}`: no such redux form"),
        );
    }
    assert_error(
        &format!("{HEAD}popcnt.b32 Ry, Rx;\n"),
        4,
        1,
        "unknown instruction `popcnt.b32`",
    );
    assert_error(
        &format!("{HEAD}popc.s32 Ry, Rx;\n"),
        4,
        1,
        "`popc.s32`: type `.s32` not allowed here (expected one of .b32 .b64)",
    );
}

#[test]
fn error_text_carries_the_file_name() {
    let e = error_of(&format!("{HEAD}add.u32 Ry, Rz, 1;\n"));
    assert_eq!(e.with_file("x.ptx"), "x.ptx:4:13: undeclared register `Rz`");
}

/// A divergence case whose engine message has several lines (ptxas's
/// error, then its `ptxas fatal` line) keeps every line a comment: the
/// written case parses (found on an H200, where such cases were written
/// with a bare `ptxas fatal` line that the parser refused).
#[test]
fn a_multi_line_engine_message_stays_in_comments() {
    use warp_core::oracle::{Disagreement, Divergence, DivergenceCase};
    let case = parse(".reg .b32 %r0;\n    mov.b32 %r0, 1;\n").expect("parses");
    let d = Divergence {
        engine: "gpu",
        what: Disagreement::EngineFailed(
            "ptxas application ptx input, line 27; error   : Argument 2 of instruction 'bfe'\nptxas fatal   : Ptx assembly aborted due to errors".to_string(),
        ),
        form: "engine-failed".to_string(),
    };
    let written = DivergenceCase {
        program: &case.program,
        inputs: &case.inputs,
        divergence: &d,
        notes: vec!["class: unknown (first line\nsecond line)".to_string()],
        fuel: 1000,
    }
    .case();
    let text = print(&written);
    assert!(
        text.contains("// ptxas fatal   : Ptx assembly aborted"),
        "{text}"
    );
    assert!(text.contains("// second line)"), "{text}");
    let again = parse(&text).unwrap_or_else(|e| panic!("{e}\n{text}"));
    assert_eq!(again.program, case.program);
}

/// An approximate function's name with no modifiers and no type (`rcp`,
/// `ex2` alone) is an error at the opcode, not a panic: the `parse` fuzz
/// target of `.ci/run` found `rcp` slicing its modifiers out of range
/// (2026-11-28).
#[test]
fn a_bare_approximate_function_name_is_an_error() {
    for op in ["rcp", "ex2", "lg2", "rsqrt", "sin", "cos", "tanh"] {
        assert_error(&format!("{HEAD}    {op} Ry, Rx;\n"), 4, 5, ".approx");
    }
    // `div` and `sqrt` alone are read as the IEEE forms: an error too.
    for op in ["div", "sqrt"] {
        assert_eq!(error_of(&format!("{HEAD}    {op} Ry, Rx;\n")).line, 4);
    }
}

/// `bar.warp.sync membermask;` is read as `vote.sync.any.pred _, 1,
/// membermask` (the parser's `warp_sync` says why) and printed back as
/// `bar.warp.sync`, so a reduced case holding it stays PTX that ptxas
/// takes: the GPU engine failed on it before (session 9, N24's variant
/// `y11`: "an immediate where PTX needs a .pred register").
#[test]
fn bar_warp_sync_prints_back_as_bar_warp_sync() {
    let src = ".reg .b32 m;\n.reg .pred p;\n.lanes m = 0xffffffff;\nbar.warp.sync 0xffffffff;\n@!p bar.warp.sync m;\n";
    let case = roundtrip("bar.warp.sync", src);
    let printed = print(&case);
    assert!(
        printed.contains("\n    bar.warp.sync 0xffffffff;\n"),
        "{printed}"
    );
    assert!(
        printed.contains("\n    @!p bar.warp.sync m;\n"),
        "{printed}"
    );
    assert!(!printed.contains("vote"), "{printed}");
    // A `vote` a program spells out stays a `vote`.
    let v = roundtrip(
        "vote with a predicate immediate",
        ".reg .pred q;\nvote.sync.any.pred q, 1, 0xffffffff;\n",
    );
    assert!(
        print(&v).contains("vote.sync.any.pred q, 1, 0xffffffff;"),
        "{}",
        print(&v)
    );
}
