//! `{ }` blocks in kernel bodies are scopes (issue #37, item 1; PTX ISA
//! 9.7.12.1: "any variable declared within a scope is not available
//! outside the scope"): CUB's inline assembly declares `r0` and `p` in one
//! sibling block after another; an inner name hides an outer one until
//! its `}`; one block declaring a name twice, or a use after the block, is
//! an error at its line and column. Expected values are worked out by hand
//! in each test.

use std::path::Path;
use warp_core::interp::run_launch;
use warp_core::launch::Launch;
use warp_core::text::{parse, parse_module, print_program};

/// A one-buffer launch of kernel `name` (its one parameter points to
/// `words` words pre-filled with aaaaaaaa) on one CTA of `threads` threads.
fn launch(name: &str, param: &str, threads: u32, words: u32) -> Launch {
    Launch::parse(
        &format!(
            "kernel {name}\nblock {threads}\nbuffer out fill aaaaaaaa {words}\nparam {param} buffer out\n"
        ),
        "scopes.launch",
        Path::new("."),
    )
    .expect("a valid launch")
}

/// Runs kernel `name` of `src` and returns its output words.
fn run(src: &str, name: &str, threads: u32, words: u32) -> Vec<String> {
    let m = parse_module(src).unwrap_or_else(|e| panic!("{}", e.with_file("k.ptx")));
    let k = m.kernel(name).expect("the kernel");
    let out = run_launch(&m, &launch(name, &k.params[0].name, threads, words)).expect("runs");
    assert!(out.ub.is_none(), "{:?}", out.ub);
    out.buffers[0].words()
}

/// The register names of kernel `name` of `src`, in declaration order.
fn reg_names(src: &str, name: &str) -> Vec<String> {
    let m = parse_module(src).unwrap_or_else(|e| panic!("{}", e.with_file("k.ptx")));
    let k = m.kernel(name).expect("the kernel");
    k.program.regs.iter().map(|r| r.name.clone()).collect()
}

/// The error of loading `src`, as `line:col: message`.
fn load_error(src: &str) -> String {
    let e = parse_module(src).expect_err("refused");
    format!("{}:{}: {}", e.line, e.col, e.msg)
}

#[test]
fn cubs_sibling_blocks_each_declare_their_own_r0_and_p() {
    let src = std::fs::read_to_string(
        Path::new(env!("CARGO_MANIFEST_DIR")).join("../corpus/kernels/cub_scan_blocks.ptx"),
    )
    .expect("readable");
    // Five blocks, five `r0` and five `p`: the first keeps its name, the
    // others are numbered (a `.` is never in a PTX identifier).
    let names = reg_names(&src, "cub_scan_blocks");
    let inner: Vec<&str> = names
        .iter()
        .map(String::as_str)
        .filter(|n| !n.starts_with('%'))
        .collect();
    assert_eq!(
        inner,
        ["r0", "p", "r0.1", "p.1", "r0.2", "p.2", "r0.3", "p.3", "r0.4", "p.4"]
    );
    // Inclusive scan of lane + 1: lane L holds 1 + ... + (L + 1).
    let words = run(&src, "cub_scan_blocks", 64, 72);
    let mut want: Vec<String> = (0..64u32)
        .map(|i| {
            let l = i % 32;
            format!("{:08x}", (l + 1) * (l + 2) / 2)
        })
        .collect();
    want.extend(std::iter::repeat_n("aaaaaaaa".to_string(), 8));
    assert_eq!(words, want);
    assert_eq!(want[31], "00000210", "lane 31: 32 * 33 / 2 = 528");
}

/// An outer `r0` = 7, an inner `r0` = 100 that a block nested in the inner
/// one sees too, and the outer `r0` again after the inner block's `}`; an
/// inner `q` of another type (.pred) hiding an outer `.b32 q`.
const SHADOW: &str = "\
.version 9.0
.target sm_90
.address_size 64
.visible .entry shadow(.param .u64 out)
{
\t.reg .b32 \tr0, q, %r<6>;
\t.reg .b64 \t%rd<3>;
\tld.param.u64 \t%rd1, [out];
\tcvta.to.global.u64 \t%rd2, %rd1;
\tmov.u32 \tr0, 7;
\tmov.u32 \tq, 40;
\t{
\t.reg .b32 \tr0;
\t.reg .pred \tq;
\tmov.u32 \tr0, 100;
\tmov.u32 \t%r1, r0;
\t{
\tadd.u32 \t%r2, r0, 1;
\t}
\tsetp.eq.u32 \tq, r0, 100;
\tselp.u32 \t%r3, 1, 2, q;
\t}
\tmov.u32 \t%r4, r0;
\tadd.u32 \t%r5, q, 2;
\tst.global.u32 \t[%rd2], %r1;
\tst.global.u32 \t[%rd2+4], %r2;
\tst.global.u32 \t[%rd2+8], %r3;
\tst.global.u32 \t[%rd2+12], %r4;
\tst.global.u32 \t[%rd2+16], %r5;
\tret;
}
";

#[test]
fn an_inner_name_hides_the_outer_one_until_its_block_ends() {
    // %r1 = inner r0 = 100; %r2 = the inner r0 seen from a nested block,
    // + 1 = 101; %r3 = 1 (the inner .pred q is true); %r4 = the outer r0
    // again = 7; %r5 = the outer .b32 q + 2 = 42.
    assert_eq!(
        run(SHADOW, "shadow", 1, 6),
        ["00000064", "00000065", "00000001", "00000007", "0000002a", "aaaaaaaa"]
    );
    let names = reg_names(SHADOW, "shadow");
    assert_eq!(&names[..2], ["r0", "q"]);
    assert!(names.contains(&"r0.1".to_string()) && names.contains(&"q.1".to_string()));
}

#[test]
fn a_name_declared_twice_in_one_block_is_an_error_at_the_second() {
    let src = SHADOW.replace(
        "\t.reg .pred \tq;\n",
        "\t.reg .pred \tq;\n\t.reg .b32 \tx, r0;\n",
    );
    assert_eq!(
        load_error(&src),
        "15:16: register `r0` declared twice in one scope"
    );
    // In the kernel's own block (the body), as a `%r<N>` range.
    let src = SHADOW.replace(".reg .b64 \t%rd<3>;", ".reg .b64 \t%rd<3>, %r<2>;");
    assert_eq!(
        load_error(&src),
        "7:21: register `%r0` declared twice in one scope"
    );
    // A variable twice in one block is refused at its name; in sibling
    // blocks (nvcc's call sequences reuse `param0`) it is two variables.
    let twice = SHADOW.replace(
        "\t{\n\tadd.u32",
        "\t{\n\t.local .b32 v;\n\t.local .align 4 .b32 v;\n\tadd.u32",
    );
    assert_eq!(load_error(&twice), "19:23: `v` declared twice in one scope");
    let siblings = SHADOW.replace(
        "\t{\n\tadd.u32",
        "\t{ .local .b32 v; }\n\t{ .local .b32 v; }\n\t{\n\tadd.u32",
    );
    let m = parse_module(&siblings).expect("sibling blocks may reuse a name");
    assert_eq!(m.kernel("shadow").expect("the kernel").local.len(), 2);
}

#[test]
fn a_register_used_after_its_block_is_undeclared() {
    let src = SHADOW.replace(
        "\tmov.u32 \t%r4, r0;",
        "\t{ .reg .b32 t; mov.u32 t, 1; }\n\tmov.u32 \t%r4, t;",
    );
    assert_eq!(
        load_error(&src),
        "24:16: undeclared register `t`: the `t` declared at line 23 \
         belongs to a `{ }` block that ended at line 23"
    );
    // A name no block ever declared: the plain message.
    let src = SHADOW.replace("\tmov.u32 \t%r4, r0;", "\tmov.u32 \t%r4, nowhere;");
    assert_eq!(load_error(&src), "23:16: undeclared register `nowhere`");
}

#[test]
fn labels_stay_one_per_kernel_whatever_their_block() {
    // PTX's `{}` scopes variables; these labels are the kernel's, so the
    // same label in two sibling blocks is still refused (as before).
    let src = SHADOW.replace(
        "\tmov.u32 \t%r4, r0;",
        "\t{ L: mov.u32 %r4, 1; }\n\t{ L: mov.u32 %r4, 2; }\n\tmov.u32 \t%r4, r0;",
    );
    assert_eq!(load_error(&src), "24:4: label `L` defined twice");
    // A branch out of a block to a label outside it.
    let src = SHADOW.replace(
        "\tmov.u32 \t%r4, r0;",
        "\t{ .reg .pred t; setp.eq.u32 t, r0, 7; @t bra DONE; }\n\tmov.u32 \tr0, 9;\nDONE:\n\tmov.u32 \t%r4, r0;",
    );
    assert_eq!(run(&src, "shadow", 1, 6)[3], "00000007");
}

/// Register-only blocks (no memory): the kernel's program prints as a case
/// that parses back to the same registers and instructions.
const BLOCKS: &str = "\
.version 9.0
.target sm_90
.visible .entry blocks()
{
\t.reg .b32 \t%r<4>;
\tmov.u32 \t%r1, %laneid;
\t{  .reg .s32 r0;  .reg .pred p;  shfl.sync.up.b32 r0|p, %r1, 1, 0, -1;  @p add.s32 r0, r0, %r1;  mov.s32 %r2, r0;}
\t{  .reg .s32 r0;  .reg .pred p;  shfl.sync.up.b32 r0|p, %r2, 2, 0, -1;  @p add.s32 r0, r0, %r2;  mov.s32 %r3, r0;}
\t.reg .b32 \tr0;
\tmov.u32 \tr0, %r3;
}
";

#[test]
fn a_program_with_scoped_registers_prints_and_parses_back_the_same() {
    let m = parse_module(BLOCKS).expect("loads");
    let prog = &m.kernel("blocks").expect("the kernel").program;
    let names: Vec<&str> = prog.regs.iter().map(|r| r.name.as_str()).collect();
    // The body's `r0`, declared after the blocks, is the third of its name.
    assert_eq!(
        names,
        ["%r0", "%r1", "%r2", "%r3", "r0", "p", "r0.1", "p.1", "r0.2"]
    );
    let printed = print_program(prog);
    assert!(printed.contains(".reg .s32 r0;"), "{printed}");
    let case = parse(&printed).unwrap_or_else(|e| panic!("{}\n{printed}", e.with_file("p.ptx")));
    assert_eq!(case.program.regs, prog.regs);
    let ops = |p: &warp_core::ir::Program| -> Vec<_> {
        p.insts.iter().map(|i| (i.guard, i.op.clone())).collect()
    };
    assert_eq!(ops(&case.program), ops(prog));
    assert_eq!(print_program(&case.program), printed);
}

#[test]
fn a_func_with_blocks_inlines_once_per_call() {
    // `step(x)` = x + 1 through a block of its own; the kernel calls it
    // twice in nvcc's call sequences (sibling blocks, each declaring
    // `param0` and `retval0`): 5 + 1 + 1 = 7.
    let src = "\
.version 9.0
.target sm_90
.address_size 64
.func  (.param .b32 func_retval0) step(
\t.param .b32 step_param_0
)
{
\t.reg .b32 \t%r<3>;
\tld.param.u32 \t%r1, [step_param_0];
\t{ .reg .b32 r0; add.u32 r0, %r1, 1; mov.u32 %r2, r0; }
\tst.param.b32 \t[func_retval0], %r2;
\tret;
}
.visible .entry twice(.param .u64 out)
{
\t.reg .b32 \t%r<4>;
\t.reg .b64 \t%rd<3>;
\tld.param.u64 \t%rd1, [out];
\tcvta.to.global.u64 \t%rd2, %rd1;
\tmov.u32 \t%r1, 5;
\t{ // callseq 0, 0
\t.param .b32 param0;
\tst.param.b32 \t[param0], %r1;
\t.param .b32 retval0;
\tcall.uni (retval0), step, (param0);
\tld.param.b32 \t%r2, [retval0];
\t} // callseq 0
\t{ // callseq 1, 0
\t.param .b32 param0;
\tst.param.b32 \t[param0], %r2;
\t.param .b32 retval0;
\tcall.uni (retval0), step, (param0);
\tld.param.b32 \t%r3, [retval0];
\t} // callseq 1
\tst.global.u32 \t[%rd2], %r3;
\tret;
}
";
    assert_eq!(run(src, "twice", 1, 2), ["00000007", "aaaaaaaa"]);
    let names = reg_names(src, "twice");
    assert!(
        names.contains(&"step.1.r0".to_string()) && names.contains(&"step.2.r0".to_string()),
        "{names:?}"
    );
}
