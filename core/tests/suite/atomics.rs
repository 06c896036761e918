//! `atom`, `red` and fences (issue #37) on the reference interpreter, with
//! expected values computed by hand from the ISA's `atom` page
//! (`inc(r, s) = (r >= s) ? 0 : r+1`, `dec(r, s) = (r==0 || r > s) ? s :
//! r-1`, `cas(r,s,t) = (r == s) ? t : r`) and the definedness rules of
//! `interp/atomic.rs` (old values of contested locations undefined; final
//! values of commutative operations defined).

use std::path::Path;
use warp_core::interp::run_launch;
use warp_core::kernel_corpus::KernelCase;
use warp_core::launch::{Launch, LaunchOutcome};
use warp_core::text::{inst_text, parse_module};

/// A kernel whose `%rd1` points at buffer `a` (the atomics' target),
/// `%rd4` at `b[gtid]` (a word per thread), `%r1` is `%tid.x`, `%r4`
/// the thread's index in the grid; `BODY` follows.
const KERNEL: &str = "\
.version 9.0
.target sm_90
.address_size 64
.visible .entry k(.param .u64 k_param_0, .param .u64 k_param_1)
{
\t.reg .pred %p<8>;
\t.reg .b32 %r<40>;
\t.reg .b64 %rd<20>;
\t.reg .f32 %f<8>;
\t.reg .f64 %fd<8>;
\t.shared .align 4 .b8 bins[32];
\tld.param.u64 %rd1, [k_param_0];
\tcvta.to.global.u64 %rd1, %rd1;
\tld.param.u64 %rd2, [k_param_1];
\tcvta.to.global.u64 %rd2, %rd2;
\tmov.u32 %r1, %tid.x;
\tmov.u32 %r2, %ctaid.x;
\tmov.u32 %r3, %ntid.x;
\tmad.lo.s32 %r4, %r2, %r3, %r1;
\tmul.wide.u32 %rd3, %r4, 4;
\tadd.s64 %rd4, %rd2, %rd3;
BODY
\tret;
}
";

/// Runs `body` with `grid` CTAs of `block` threads, buffer `a` holding
/// `a` (words) and `b` `nb` words of aaaaaaaa.
fn run(body: &str, grid: u32, block: u32, a: &[u32], nb: usize) -> LaunchOutcome {
    let m = parse_module(&KERNEL.replace("BODY", body)).unwrap_or_else(|e| panic!("{e}"));
    let words: Vec<String> = a.iter().map(|w| format!("{w:08x}")).collect();
    let l = Launch::parse(
        &format!(
            "kernel k\ngrid {grid}\nblock {block}\nbuffer a u32 {}\nbuffer b fill aaaaaaaa {nb}\nparam k_param_0 buffer a\nparam k_param_1 buffer b\n",
            words.join(" ")
        ),
        "k.launch",
        Path::new("."),
    )
    .unwrap_or_else(|e| panic!("{e}"));
    run_launch(&m, &l).expect("runs")
}

/// The words of buffer `i` (`________` undefined).
fn words(out: &LaunchOutcome, i: usize) -> Vec<String> {
    assert!(out.ub.is_none(), "{:?}", out.ub);
    out.buffers[i].words()
}

fn hex(v: &[u32]) -> Vec<String> {
    v.iter().map(|w| format!("{w:08x}")).collect()
}

const U: &str = "________";

/// One lane: `atom.global.OP d, [a], b{, c}` stores the old value to
/// `b[0]` and leaves `operation(old, b{, c})` in `a[0]`.
fn one_lane(op: &str, operands: &str, a0: u32) -> (String, String) {
    let body =
        format!("\tatom.global.{op} %r10, [%rd1], {operands};\n\tst.global.u32 [%rd4], %r10;");
    let out = run(&body, 1, 1, &[a0], 1);
    (words(&out, 0)[0].clone(), words(&out, 1)[0].clone())
}

#[test]
fn each_integer_operation_on_one_lane() {
    // (opcode, operands, a before, a after); the old value is `a before`.
    let cases: &[(&str, &str, u32, u32)] = &[
        ("add.u32", "7", 5, 12),
        ("add.u32", "1", 0xffff_ffff, 0),
        ("add.s32", "-3", 2, 0xffff_ffff),
        ("min.s32", "2", 0xffff_fffd, 0xffff_fffd),
        ("max.s32", "2", 0xffff_fffd, 2),
        ("min.u32", "2", 0xffff_fffd, 2),
        ("max.u32", "2", 0xffff_fffd, 0xffff_fffd),
        // inc: (r >= s) ? 0 : r+1 — wraps at s.
        ("inc.u32", "5", 5, 0),
        ("inc.u32", "5", 3, 4),
        ("inc.u32", "5", 9, 0),
        // dec: (r == 0 || r > s) ? s : r-1.
        ("dec.u32", "7", 0, 7),
        ("dec.u32", "7", 9, 7),
        ("dec.u32", "7", 4, 3),
        ("and.b32", "0x0ff0", 0x1234_5678, 0x0000_0670),
        ("or.b32", "0x0ff0", 0x1234_5678, 0x1234_5ff8),
        ("xor.b32", "0x0ff0", 0x1234_5678, 0x1234_5988),
        ("exch.b32", "99", 5, 99),
        // cas: (r == s) ? t : r.
        ("cas.b32", "5, 77", 5, 77),
        ("cas.b32", "6, 77", 5, 5),
    ];
    for &(op, operands, before, after) in cases {
        let (a, old) = one_lane(op, operands, before);
        assert_eq!(
            (a, old),
            (format!("{after:08x}"), format!("{before:08x}")),
            "{op} {operands} on {before:#x}"
        );
    }
}

#[test]
fn float_and_64_bit_operations_on_one_lane() {
    // 1.5 + 2.25 = 3.75 (0x40700000), exact.
    let (a, old) = one_lane("add.f32", "0f40100000", 0x3fc0_0000);
    assert_eq!((a.as_str(), old.as_str()), ("40700000", "3fc00000"));
    // u64: 0x00000000_ffffffff + 1 = 0x00000001_00000000 (a carry into the
    // high word); the old value's low word goes to b[0].
    let body = "\tatom.global.add.u64 %rd10, [%rd1], 1;\n\tcvt.u32.u64 %r10, %rd10;\n\tst.global.u32 [%rd4], %r10;";
    let out = run(body, 1, 1, &[0xffff_ffff, 0], 1);
    assert_eq!(words(&out, 0), hex(&[0, 1]));
    assert_eq!(words(&out, 1), hex(&[0xffff_ffff]));
    // f64: 1.0 (0x3ff00000_00000000) + 0.5 = 1.5 (0x3ff80000_00000000).
    let body = "\tatom.global.add.f64 %fd1, [%rd1], 0d3FE0000000000000;";
    let out = run(body, 1, 1, &[0, 0x3ff0_0000], 1);
    assert_eq!(words(&out, 0), hex(&[0, 0x3ff8_0000]));
    // min.s64: -1 vs 5.
    let body = "\tatom.global.min.s64 %rd10, [%rd1], 5;";
    let out = run(body, 1, 1, &[0xffff_ffff, 0xffff_ffff], 1);
    assert_eq!(words(&out, 0), hex(&[0xffff_ffff, 0xffff_ffff]));
    let body = "\tatom.global.min.u64 %rd10, [%rd1], 5;";
    let out = run(body, 1, 1, &[0xffff_ffff, 0xffff_ffff], 1);
    assert_eq!(words(&out, 0), hex(&[5, 0]));
}

#[test]
fn two_lanes_on_one_address_leave_old_values_undefined_and_the_sum_defined() {
    let body = "\tatom.global.add.u32 %r10, [%rd1], 1;\n\tst.global.u32 [%rd4], %r10;";
    let out = run(body, 1, 2, &[10], 2);
    assert_eq!(words(&out, 0), hex(&[12]));
    assert_eq!(words(&out, 1), vec![U, U]);
    // One lane: its old value is defined.
    let out = run(body, 1, 1, &[10], 1);
    assert_eq!(words(&out, 1), hex(&[10]));
    // red (nvcc's atomicAdd whose result is unused): the sum is defined.
    let out = run("\tred.global.add.u32 [%rd1], %r1;", 1, 32, &[0], 1);
    assert_eq!(words(&out, 0), hex(&[(0..32).sum()]));
    // Lanes on different addresses are not contested.
    let body = "\tmul.wide.u32 %rd5, %r1, 4;\n\tadd.s64 %rd6, %rd1, %rd5;\n\tatom.global.add.u32 %r10, [%rd6], 100;\n\tst.global.u32 [%rd4], %r10;";
    let out = run(body, 1, 4, &[0, 1, 2, 3], 4);
    assert_eq!(words(&out, 0), hex(&[100, 101, 102, 103]));
    assert_eq!(words(&out, 1), hex(&[0, 1, 2, 3]));
}

#[test]
fn exch_and_cas_results_and_finals_depend_on_the_order() {
    // Two lanes exchange different values: the final value and both old
    // values are undefined.
    let body = "\tatom.global.exch.b32 %r10, [%rd1], %r1;\n\tst.global.u32 [%rd4], %r10;";
    let out = run(body, 1, 2, &[7], 2);
    assert_eq!(words(&out, 0), vec![U]);
    assert_eq!(words(&out, 1), vec![U, U]);
    // The same value from every lane: the final value is that value.
    let body = "\tatom.global.exch.b32 %r10, [%rd1], 42;";
    let out = run(body, 1, 2, &[7], 1);
    assert_eq!(words(&out, 0), hex(&[42]));
    // A mix of add (warp 0) and xor (warp 1) on one word, no barrier
    // between, depends on the order: (0 + 32) ^ 3 ... vs the other way.
    let body = "\tsetp.lt.u32 %p1, %r1, 32;\n\t@%p1 red.global.add.u32 [%rd1], 1;\n\t@!%p1 red.global.xor.b32 [%rd1], 3;";
    let out = run(body, 1, 64, &[0], 1);
    assert_eq!(words(&out, 0), vec![U]);
    // With a barrier between, one order: 32 adds of 1, then 32 xors of 3
    // (an even number: they cancel), 32.
    let body = "\tsetp.lt.u32 %p1, %r1, 32;\n\t@%p1 red.global.add.u32 [%rd1], 1;\n\tbar.sync 0;\n\t@!%p1 red.global.xor.b32 [%rd1], 3;";
    let out = run(body, 1, 64, &[0], 1);
    assert_eq!(words(&out, 0), hex(&[32]));
}

#[test]
fn ordered_by_a_barrier_old_values_stay_defined() {
    // Warp 0 adds, bar.sync, then warp 1 adds: one order only.
    let body = "\
\tsetp.lt.u32 %p1, %r1, 32;
\tsetp.eq.u32 %p2, %r1, 0;
\tsetp.eq.u32 %p3, %r1, 32;
\t@%p2 atom.global.add.u32 %r10, [%rd1], 1;
\t@%p2 st.global.u32 [%rd4], %r10;
\tbar.sync 0;
\t@%p3 atom.global.add.u32 %r11, [%rd1], 1;
\t@%p3 st.global.u32 [%rd4], %r11;";
    let out = run(body, 1, 64, &[5], 64);
    assert_eq!(words(&out, 0), hex(&[7]));
    let b = words(&out, 1);
    assert_eq!((b[0].as_str(), b[32].as_str()), ("00000005", "00000006"));
    // Without the barrier the two warps are unordered.
    let out = run(&body.replace("\tbar.sync 0;\n", ""), 1, 64, &[5], 64);
    let b = words(&out, 1);
    assert_eq!((b[0].as_str(), b[32].as_str()), (U, U));
    assert_eq!(words(&out, 0), hex(&[7]));
}

#[test]
fn across_two_ctas_the_first_ctas_old_value_is_undefined_too() {
    // CTA 0 runs first and cannot know CTA 1 comes: the second pass.
    let body = "\tatom.global.add.u32 %r10, [%rd1], 3;\n\tst.global.u32 [%rd4], %r10;";
    let out = run(body, 2, 1, &[1], 2);
    assert_eq!(words(&out, 0), hex(&[7]));
    assert_eq!(words(&out, 1), vec![U, U]);
    // .cta scope from two CTAs: neither's scope includes the other.
    let body = "\tatom.relaxed.cta.global.add.u32 %r10, [%rd1], 3;";
    let out = run(body, 2, 1, &[1], 2);
    let (at, ub) = out.ub.expect("a race");
    assert_eq!(at, "cta (1,0,0) warp 0");
    assert_eq!(ub.rule.name(), "memory-race");
    // .gpu scope (nvcc's atomicAdd with cuda::memory_order_relaxed).
    let body = "\tatom.relaxed.gpu.global.add.u32 %r10, [%rd1], 3;";
    let out = run(body, 2, 1, &[1], 2);
    assert_eq!(words(&out, 0), hex(&[7]));
}

#[test]
fn float_adds_are_defined_only_when_every_order_rounds_alike() {
    // Lane i adds (i+1)/4 to 0: every partial sum is a multiple of 1/4
    // below 2^24/4, exact in any order: 0.25+0.5+0.75+1 = 2.5.
    let body = "\tadd.s32 %r5, %r1, 1;\n\tcvt.rn.f32.u32 %f1, %r5;\n\tmul.f32 %f2, %f1, 0f3E800000;\n\tred.global.add.f32 [%rd1], %f2;";
    let out = run(body, 1, 4, &[0], 1);
    assert_eq!(words(&out, 0), hex(&[0x4020_0000]));
    // Lane 0 adds 2^24, lanes 1 and 2 add 1.0: (2^24 + 1) + 1 = 2^24 but
    // 1 + 1 + 2^24 = 2^24 + 2: undefined.
    let body = "\tsetp.eq.u32 %p1, %r1, 0;\n\tselp.f32 %f1, 0f4B800000, 0f3F800000, %p1;\n\tred.global.add.f32 [%rd1], %f1;";
    let out = run(body, 1, 3, &[0], 1);
    assert_eq!(words(&out, 0), vec![U]);
    // One lane alone: 2^24 + 1.0 rounds to 2^24 (ties to even), defined.
    let body = "\tatom.global.add.f32 %f3, [%rd1], 0f3F800000;";
    let out = run(body, 1, 1, &[0x4b80_0000], 1);
    assert_eq!(words(&out, 0), hex(&[0x4b80_0000]));
}

#[test]
fn a_shared_memory_histogram() {
    // 64 threads, 8 bins in shared memory: zeroed by threads 0..8,
    // bar.sync, each thread adds 1 to bin tid % 8 (nvcc's form with a
    // 32-bit shared address), bar.sync, threads 0..8 copy the bins out.
    let body = "\
\tsetp.lt.u32 %p1, %r1, 8;
\tmov.u32 %r5, bins;
\tshl.b32 %r6, %r1, 2;
\tadd.s32 %r7, %r5, %r6;
\t@%p1 st.shared.u32 [%r7], 0;
\tbar.sync 0;
\tand.b32 %r8, %r1, 7;
\tshl.b32 %r9, %r8, 2;
\tadd.s32 %r10, %r5, %r9;
\tatom.shared.add.u32 %r11, [%r10], 1;
\tbar.sync 0;
\t@%p1 ld.shared.u32 %r12, [%r7];
\t@%p1 st.global.u32 [%rd4], %r12;";
    let out = run(body, 1, 64, &[0], 8);
    assert_eq!(words(&out, 1), hex(&[8; 8]));
}

#[test]
fn generic_atomics_reach_global_and_shared_memory() {
    let body = "\tatom.add.u32 %r10, [%rd1], 2;\n\tst.global.u32 [%rd4], %r10;";
    let out = run(body, 1, 1, &[40], 1);
    assert_eq!((words(&out, 0), words(&out, 1)), (hex(&[42]), hex(&[40])));
    let body = "\
\tmov.u32 %r5, bins;
\tst.shared.u32 [%r5], 9;
\tcvt.u64.u32 %rd5, %r5;
\tcvta.shared.u64 %rd6, %rd5;
\tatom.add.u32 %r10, [%rd6], 2;
\tld.shared.u32 %r11, [%r5];
\tst.global.u32 [%rd4], %r11;";
    let out = run(body, 1, 1, &[0], 1);
    assert_eq!(words(&out, 1), hex(&[11]));
}

#[test]
fn a_cas_loop_runs_and_contested_it_branches_on_an_undefined_value() {
    // atomicMax by a CAS loop: old = *a; do { assumed = old; old =
    // cas(a, assumed, max(assumed, v)) } while (old != assumed).
    let body = "\
\tld.global.u32 %r10, [%rd1];
$L_loop:
\tmov.u32 %r11, %r10;
\tadd.s32 %r12, %r1, 100;
\tmax.u32 %r13, %r11, %r12;
\tatom.global.cas.b32 %r10, [%rd1], %r11, %r13;
\tsetp.ne.s32 %p1, %r10, %r11;
\t@%p1 bra $L_loop;";
    let out = run(body, 1, 1, &[50], 1);
    assert_eq!(words(&out, 0), hex(&[100]));
    let out = run(body, 1, 1, &[500], 1);
    assert_eq!(words(&out, 0), hex(&[500]));
    // Two lanes: each lane's old value is undefined, so the branch is.
    let out = run(body, 1, 2, &[50], 1);
    let (_, ub) = out.ub.expect("an undefined guard");
    assert_eq!(ub.rule.name(), "guard-undefined");
}

#[test]
fn plain_accesses_unordered_with_atomics_are_races() {
    // Warp 1 stores where warp 0 added, no barrier between.
    let body = "\
\tsetp.lt.u32 %p1, %r1, 32;
\t@%p1 red.global.add.u32 [%rd1], 1;
\t@!%p1 st.global.u32 [%rd1], 5;";
    let out = run(body, 1, 64, &[0], 1);
    let (at, ub) = out.ub.expect("a race");
    assert_eq!(at, "cta (0,0,0) warp 1");
    assert_eq!(ub.rule.name(), "memory-race");
    // The same lane's own store after its atomic is ordered.
    let body = "\tred.global.add.u32 [%rd1], 1;\n\tst.global.u32 [%rd1], 5;";
    let out = run(body, 1, 1, &[0], 1);
    assert_eq!(words(&out, 0), hex(&[5]));
}

#[test]
fn faults_name_lane_thread_instruction_and_address() {
    let body = "\tatom.global.add.u32 %r10, [%rd1+2], 1;";
    let out = run(body, 1, 1, &[0, 0], 1);
    let (_, ub) = out.ub.expect("misaligned");
    assert_eq!(ub.rule.name(), "memory-misaligned");
    assert!(
        ub.message
            .contains("lane 0 (%tid (0,0,0)), `atom.global.add.u32 %r10, [%rd1+2], 1;`"),
        "{}",
        ub.message
    );
    let body = "\tatom.global.add.u32 %r10, [%rd1+8], 1;";
    let out = run(body, 1, 1, &[0, 0], 1);
    assert_eq!(out.ub.expect("oob").1.rule.name(), "memory-out-of-bounds");
}

/// What nvcc 13 writes for atomics, fences included.
const NVCC_FORMS: &[&str] = &[
    "atom.global.add.u32 %r5, [%rd4], %r4;",
    "red.global.add.u32 [%rd3], %r2;",
    "atom.shared.add.u32 %r3, [%r2], 1;",
    "atom.global.cas.b32 %r1, [%rd1], %r2, %r3;",
    "atom.global.exch.b32 %r1, [%rd1], %r2;",
    "atom.global.add.f32 %f1, [%rd1], %f2;",
    "atom.global.add.f64 %fd1, [%rd1], %fd2;",
    "red.global.add.f32 [%rd1], %f2;",
    "atom.add.u32 %r1, [%rd1], %r2;",
    "atom.global.inc.u32 %r1, [%rd1], %r2;",
    "atom.global.max.s32 %r1, [%rd1], %r2;",
    "atom.relaxed.gpu.global.add.u32 %r1, [%rd1], %r2;",
    "red.release.gpu.global.add.s32 [%rd1], %r2;",
    "atom.acq_rel.gpu.global.cas.b32 %r1, [%rd1], %r2, %r3;",
    "atom.global.acquire.sys.inc.u32 %r1, [%rd1], %r2;",
    "atom.global.add.u64 %rd2, [%rd1], %rd3;",
    "membar.gl;",
    "membar.cta;",
    "membar.sys;",
    "fence.acq_rel.gpu;",
    "fence.sc.gpu;",
    "fence.sc.cta;",
];

fn module_of(line: &str) -> String {
    KERNEL.replace("BODY", &format!("\t{line}"))
}

#[test]
fn nvcc_forms_parse_and_print_back_as_written() {
    for line in NVCC_FORMS {
        let m = parse_module(&module_of(line)).unwrap_or_else(|e| panic!("{line}: {e}"));
        let prog = &m.kernels[0].program;
        let printed: Vec<String> = prog.insts.iter().map(|i| inst_text(prog, i)).collect();
        assert!(printed.iter().any(|p| p == line), "{line}: {printed:?}");
    }
}

#[test]
fn refused_atomics_name_themselves_with_line_and_column() {
    let cases: &[(&str, &str)] = &[
        (
            "atom.global.add.noftz.f16 %r1, [%rd1], %r2;",
            "not supported yet: `atom.global.add.noftz.f16`",
        ),
        (
            "atom.global.inc.u64 %rd2, [%rd1], %rd3;",
            "`atom.global.inc.u64`: `.inc` does not take type .u64",
        ),
        (
            "red.global.cas.b32 [%rd1], %r2, %r3;",
            "`red.global.cas.b32`: `red` has no `.cas`",
        ),
        (
            "atom.local.add.u32 %r1, [%rd1], %r2;",
            "`atom.local.add.u32`: unknown qualifier `.local`",
        ),
        (
            "atom.global.add.u32 %r1, [%rd1];",
            "`atom.global.add.u32` takes 3 operands, found 2",
        ),
        (
            "fence.proxy.async;",
            "not supported yet: `fence.proxy.async`",
        ),
        (
            "membar.warp;",
            "`membar.warp`: expected `membar.{cta,gl,sys}`",
        ),
    ];
    for &(line, msg) in cases {
        let e = parse_module(&module_of(line)).expect_err(line);
        // BODY is line 22 of KERNEL, after a tab.
        assert_eq!((e.line, e.col, e.msg.as_str()), (22, 2, msg), "{line}");
    }
}

/// Stream compaction in nvcc's style (`corpus/kernels/cub/atomic_compact`):
/// each warp's lane 0 takes room for 32 words with `atom.add` on `a[0]`,
/// `shfl.sync.idx` hands the base to the warp, lane `l` stores its `%r4`
/// at `b[base + l]`.
const COMPACT: &str = "\
\tand.b32 %r5, %r1, 31;
\tsetp.eq.u32 %p1, %r5, 0;
\tmov.u32 %r6, 0;
\t@%p1 atom.global.add.u32 %r6, [%rd1], 32;
\tshfl.sync.idx.b32 %r7, %r6, 0, 31, -1;
\tadd.u32 %r8, %r7, %r5;
\tmul.wide.u32 %rd5, %r8, 4;
\tadd.s64 %rd6, %rd2, %rd5;
\tst.global.u32 [%rd6], %r4;";

#[test]
fn a_store_at_an_address_from_a_contested_value_may_write_any_word_of_its_buffer() {
    // One warp: nothing is contested, base 0, b[l] = l; the rest of b
    // keeps its fill.
    let out = run(COMPACT, 1, 32, &[0], 40);
    assert_eq!(words(&out, 0), hex(&[32]));
    let mut want: Vec<u32> = (0..32).collect();
    want.extend([0xaaaa_aaaa; 8]);
    assert_eq!(words(&out, 1), hex(&want));
    // Two warps: which one gets base 0 depends on the order, so the
    // addresses have undefined bits; each store may write any word of
    // `b`, which is undefined throughout (b[64..72], which no order
    // writes, too: the rule is coarse). The count is defined: 64. Not a
    // race, though this run's addresses of the two warps may coincide.
    let out = run(COMPACT, 1, 64, &[0], 72);
    assert_eq!(words(&out, 0), hex(&[64]));
    assert_eq!(words(&out, 1), vec![U; 72]);
    // Across two CTAs the same.
    let out = run(COMPACT, 2, 32, &[0], 72);
    assert_eq!(words(&out, 0), hex(&[64]));
    assert_eq!(words(&out, 1), vec![U; 72]);
    // A store at a defined address after a barrier defines its word again.
    let body = format!("{COMPACT}\n\tbar.sync 0;\n\tst.global.u32 [%rd4], %r1;");
    let out = run(&body, 1, 64, &[0], 72);
    let mut want = hex(&(0..64).collect::<Vec<u32>>());
    want.extend(vec![U.to_string(); 8]);
    assert_eq!(words(&out, 1), want);
    // A load through such an address reads an undefined value.
    let body = format!(
        "{COMPACT}\n\tbar.sync 0;\n\tld.global.u32 %r9, [%rd6];\n\tst.global.u32 [%rd4], %r9;"
    );
    let out = run(&body, 1, 64, &[0], 72);
    assert_eq!(words(&out, 1), vec![U; 72]);
    // Its bounds are checked at this run's address (the undefined bits as
    // this run carries them, 0 where lost): 4096 bytes past `b`'s start
    // is outside its 72 words whatever the base.
    let out = run(&COMPACT.replace("[%rd6]", "[%rd6+4096]"), 1, 64, &[0], 72);
    let (_, ub) = out.ub.expect("out of bounds");
    assert_eq!(ub.rule.name(), "memory-out-of-bounds");
    // An atomic through it: the reference does not follow it.
    let body = format!("{COMPACT}\n\tbar.sync 0;\n\tatom.global.add.u32 %r9, [%rd6], 1;");
    let out = run(&body, 1, 64, &[0], 72);
    let (_, ub) = out.ub.expect("an atomic at an undefined address");
    assert_eq!(ub.rule.name(), "memory-undefined-address");
    assert!(ub.to_string().contains("order-dependent"), "{ub}");
}

/// `atomic_mix`'s CAS loop (`cur = atomicOr(&iw[7], 0)`, then
/// `atomicCAS(&iw[7], prev, prev + 2 * x)` until it succeeds), which the
/// reference stops at (`guard-undefined`), and the one add of `2 * x` it
/// amounts to: the same final `iw[7]`.
const MIX_CAS_LOOP: &str = "\tatom.global.or.b32 \t%r38, [%rd28], 0;
\tshl.b32 \t%r5, %r2, 1;
\tcvta.to.global.u64 \t%rd5, %rd7;

$L__BB0_5:
\tadd.s32 \t%r37, %r38, %r5;
\tatom.global.cas.b32 \t%r7, [%rd28], %r38, %r37;
\tsetp.ne.s32 \t%p3, %r7, %r38;
\tmov.u32 \t%r38, %r7;
\t@%p3 bra \t$L__BB0_5;
";
const MIX_AS_ADD: &str = "\tshl.b32 \t%r5, %r2, 1;
\tcvta.to.global.u64 \t%rd5, %rd7;
\tred.global.add.u32 \t[%rd28], %r5;
";

/// The warp-aggregated atomics of `corpus/kernels/cub/` (nvcc 13.0's PTX,
/// three H200 runs), `atomic_mix` with its CAS loop as one add: what the
/// reference defines equals the H200's first run, and the words that
/// differed between runs are undefined.
fn real_atomic_kernel(name: &str) -> (KernelCase, LaunchOutcome) {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../corpus/kernels/cub");
    let mut case = KernelCase::load(&dir.join(format!("{name}.launch")), "gpu.txt")
        .unwrap_or_else(|e| panic!("{e}"));
    if name == "atomic_mix" {
        assert!(
            case.ptx.contains(MIX_CAS_LOOP),
            "atomic_mix.ptx has its CAS loop"
        );
        case.ptx = case.ptx.replace(MIX_CAS_LOOP, MIX_AS_ADD);
        case.module = parse_module(&case.ptx).unwrap_or_else(|e| panic!("{e}"));
    }
    let out = run_launch(&case.module, &case.launch).expect("runs");
    assert!(out.ub.is_none(), "{name}: {:?}", out.ub);
    let fails = case.check_against_runs(&out.buffers, &out.buffers);
    assert!(fails.is_empty(), "{}", fails.join("\n"));
    (case, out)
}

/// Buffer `name`'s words of `out` (`________` undefined).
fn buffer(out: &LaunchOutcome, name: &str) -> Vec<String> {
    out.buffers
        .iter()
        .find(|b| b.name == name)
        .expect("a buffer")
        .words()
}

#[test]
fn the_real_atomic_kernels_match_the_h200() {
    // Stream compaction: the count is defined (the H200's 250), `out`
    // undefined (its runs differed in 62 words).
    let (_, out) = real_atomic_kernel("atomic_compact");
    assert_eq!(buffer(&out, "count"), hex(&[250]));
    assert_eq!(buffer(&out, "out"), vec![U; 512]);
    // The warp-aggregated histogram: every bin defined.
    let (_, out) = real_atomic_kernel("atomic_hist_match");
    assert!(buffer(&out, "hist").iter().all(|w| w != U));
    // atomic_mix: the shared histogram flushed to uw[0..8], max, min, or,
    // xor, and, inc, dec, the add whose old values are stored, the CAS
    // loop's sum, the exact float add and the double add are defined;
    // the exchange's final value, the old values and the order-dependent
    // float sum are not.
    let (case, out) = real_atomic_kernel("atomic_mix");
    let iw = buffer(&out, "iw");
    let defined: Vec<bool> = iw.iter().map(|w| w != U).collect();
    assert_eq!(
        defined[..8],
        [true, true, true, true, true, true, false, true]
    );
    assert!(buffer(&out, "uw")[..10].iter().all(|w| w != U));
    let fw = buffer(&out, "fw");
    assert_eq!((fw[0].as_str(), fw[1] != U), (U, true));
    assert!(buffer(&out, "dw")[0] != U);
    assert!(buffer(&out, "old").iter().all(|w| w == U));
    assert!(case.expected.iter().any(|(b, _)| b == "iw"));
}
