//! `atom`, `red` and fences (issue #37) on the JIT: real atomic
//! read-modify-writes on the host, so the CTAs that run on different
//! threads lose no update. Every word the reference defines must be the
//! same on the JIT with 1 thread and with 8, and the totals are computed
//! by hand.

use std::path::Path;
use warp_core::kernel_corpus::KernelCase;
use warp_core::launch::{Launch, LaunchOutcome};
use warp_core::text::parse_module;
use warp_jit::launch::CompiledKernel;

/// As `core/tests/suite/atomics.rs`: `%rd1` is buffer `a`, `%rd4` `&b[gtid]`,
/// `%r1` `%tid.x`, `%r4` the thread's index in the grid.
const KERNEL: &str = "\
.version 9.0
.target sm_90
.address_size 64
.global .align 4 .u32 counter;
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

/// The interpreter's outcome, and the JIT's with 1 and 8 threads.
fn runs(body: &str, grid: u32, block: u32, a: &[u32], nb: usize) -> [LaunchOutcome; 3] {
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
    let reference = warp_core::interp::run_launch(&m, &l).expect("runs");
    let k = CompiledKernel::compile(&m, "k").expect("compiles");
    let one = k.launch_on(&l, 1).expect("runs");
    let many = k.launch_on(&l, 8).expect("runs");
    [reference, one, many]
}

/// Asserts that the JIT's runs hold the reference's defined words, and
/// returns the JIT's (8 threads) words of buffer `i`.
fn agree(r: &[LaunchOutcome; 3], i: usize) -> Vec<String> {
    assert!(r[0].ub.is_none(), "{:?}", r[0].ub);
    let want = r[0].buffers[i].words();
    for (n, jit) in [(1, &r[1]), (8, &r[2])] {
        assert!(jit.ub.is_none(), "{n} threads: {:?}", jit.ub);
        let got = jit.buffers[i].words();
        for (k, (w, g)) in want.iter().zip(&got).enumerate() {
            assert!(
                w == "________" || w == g,
                "{n} threads, buffer {i} word {k}: reference {w}, jit {g}"
            );
        }
    }
    r[2].buffers[i].words()
}

#[test]
fn every_operation_on_one_lane_as_the_reference() {
    let cases: &[(&str, &str, u32)] = &[
        ("add.u32", "7", 5),
        ("add.s32", "-3", 2),
        ("min.s32", "2", 0xffff_fffd),
        ("max.s32", "2", 0xffff_fffd),
        ("min.u32", "2", 0xffff_fffd),
        ("max.u32", "2", 0xffff_fffd),
        ("inc.u32", "5", 5),
        ("inc.u32", "5", 3),
        ("dec.u32", "7", 0),
        ("dec.u32", "7", 9),
        ("dec.u32", "7", 4),
        ("and.b32", "0x0ff0", 0x1234_5678),
        ("or.b32", "0x0ff0", 0x1234_5678),
        ("xor.b32", "0x0ff0", 0x1234_5678),
        ("exch.b32", "99", 5),
        ("cas.b32", "5, 77", 5),
        ("cas.b32", "6, 77", 5),
        ("add.f32", "0f40100000", 0x3fc0_0000),
        // A subnormal input flushes to zero on global memory: 1.0 + 2^-130.
        ("add.f32", "0f3F800000", 0x0008_0000),
    ];
    for &(op, operands, a0) in cases {
        let body =
            format!("\tatom.global.{op} %r10, [%rd1], {operands};\n\tst.global.u32 [%rd4], %r10;");
        let r = runs(&body, 1, 1, &[a0], 1);
        agree(&r, 0);
        agree(&r, 1);
    }
    // The subnormal case by hand: 0x00080000 + 1.0 flushed is 1.0.
    let r = runs(
        "\tatom.global.add.f32 %f1, [%rd1], 0f3F800000;",
        1,
        1,
        &[0x0008_0000],
        1,
    );
    assert_eq!(agree(&r, 0), vec!["3f800000"]);
}

#[test]
fn many_ctas_on_many_threads_lose_no_update() {
    // 256 CTAs of 64 threads: a[0] += 1 (red), a[1] += tid (atom, old
    // values undefined), a[2] max= gtid, a[3] += 0.25f (exact: 4096.0),
    // a[4] inc with bound 1000 (16384 incs wrap at 1001: 16384 % 1001 =
    // 368), a[5] ^= 1 (an even count: 0).
    let body = "\
\tred.global.add.u32 [%rd1], 1;
\tatom.global.add.u32 %r10, [%rd1+4], %r1;
\tst.global.u32 [%rd4], %r10;
\tred.global.max.u32 [%rd1+8], %r4;
\tred.global.add.f32 [%rd1+12], 0f3E800000;
\tred.global.inc.u32 [%rd1+16], 1000;
\tred.global.xor.b32 [%rd1+20], 1;";
    let r = runs(body, 256, 64, &[0; 6], 256 * 64);
    let a = agree(&r, 0);
    let tid_sum: u32 = 256 * (0..64).sum::<u32>();
    let want: Vec<String> = [16384, tid_sum, 16383, 0x4580_0000, 368, 0]
        .iter()
        .map(|w| format!("{w:08x}"))
        .collect();
    assert_eq!(a, want);
    assert_eq!(
        r[0].buffers[0].words(),
        want,
        "the reference defines them all"
    );
    assert!(r[0].buffers[1].words().iter().all(|w| w == "________"));
}

#[test]
fn a_cas_loop_and_a_module_variable_as_the_reference() {
    // One lane per CTA, 64 CTAs: a CAS loop adding 3 (atomicAdd by CAS),
    // and an atom on the module variable `counter` (through the run
    // time), whose total is copied out by nobody: only a[0] is checked.
    let body = "\
\tsetp.ne.u32 %p2, %r1, 0;
\t@%p2 bra $L_end;
\tld.global.u32 %r10, [%rd1];
$L_loop:
\tmov.u32 %r11, %r10;
\tadd.s32 %r13, %r11, 3;
\tatom.global.cas.b32 %r10, [%rd1], %r11, %r13;
\tsetp.ne.s32 %p1, %r10, %r11;
\t@%p1 bra $L_loop;
\tatom.global.add.u32 %r12, [counter], 1;
$L_end:";
    let m = parse_module(&KERNEL.replace("BODY", body)).unwrap_or_else(|e| panic!("{e}"));
    let l = Launch::parse(
        "kernel k\ngrid 64\nblock 32\nbuffer a u32 00000000\nbuffer b fill aaaaaaaa 1\nparam k_param_0 buffer a\nparam k_param_1 buffer b\n",
        "k.launch",
        Path::new("."),
    )
    .expect("valid");
    let k = CompiledKernel::compile(&m, "k").expect("compiles");
    for threads in [1, 8] {
        let out = k.launch_on(&l, threads).expect("runs");
        assert!(out.ub.is_none(), "{:?}", out.ub);
        assert_eq!(out.buffers[0].words(), vec![format!("{:08x}", 64 * 3)]);
    }
}

#[test]
fn a_shared_histogram_and_generic_atomics_as_the_reference() {
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
\tcvt.u64.u32 %rd5, %r10;
\tcvta.shared.u64 %rd6, %rd5;
\tatom.add.u32 %r11, [%rd6], 1;
\tbar.sync 0;
\t@%p1 ld.shared.u32 %r12, [%r7];
\t@%p1 red.add.u32 [%rd1], %r12;";
    let r = runs(body, 16, 64, &[0], 16 * 64);
    assert_eq!(agree(&r, 0), vec![format!("{:08x}", 16 * 64)]);
}

#[test]
fn faults_name_lane_thread_instruction_and_address() {
    let m = parse_module(&KERNEL.replace("BODY", "\tatom.global.add.u32 %r10, [%rd1+2], 1;"))
        .expect("valid");
    let l = Launch::parse(
        "kernel k\nblock 1\nbuffer a u32 00000000 00000000\nbuffer b fill aaaaaaaa 1\nparam k_param_0 buffer a\nparam k_param_1 buffer b\n",
        "k.launch",
        Path::new("."),
    )
    .expect("valid");
    let e = warp_jit::launch::run_launch(&m, &l).expect_err("misaligned");
    assert!(
        e.to_string().contains("lane 0 (%tid (0,0,0)), `atom.global.add.u32 %r10, [%rd1+2], 1;`: address 0x2000000002 is not aligned"),
        "{}",
        e
    );
}

/// `atomic_mix`'s CAS loop and the one add it amounts to (as
/// `core/tests/suite/atomics.rs`: the reference stops at the loop).
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

/// The real atomic kernels of `corpus/kernels/cub/` on the JIT with 1 and 8
/// threads: every byte the reference defines is the H200's, and the JIT's
/// compaction holds the kept inputs (those above 0, counted by hand from
/// the launch), in some order.
#[test]
fn the_real_atomic_kernels_match_the_h200_on_the_jit() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../corpus/kernels/cub");
    for name in ["atomic_compact", "atomic_hist_match", "atomic_mix"] {
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
        let reference = warp_core::interp::run_launch(&case.module, &case.launch).expect("runs");
        assert!(reference.ub.is_none(), "{name}: {:?}", reference.ub);
        let k = CompiledKernel::compile(&case.module, name).expect("compiles");
        for threads in [1, 8] {
            let jit = k.launch_on(&case.launch, threads).expect("runs");
            assert!(jit.ub.is_none(), "{name}, {threads} threads: {:?}", jit.ub);
            let fails = case.check_against_runs(&jit.buffers, &reference.buffers);
            assert!(fails.is_empty(), "{threads} threads: {}", fails.join("\n"));
            if name != "atomic_compact" {
                continue;
            }
            let input = &case.expected.iter().find(|(b, _)| b == "in").expect("in").1;
            let mut kept: Vec<u32> = input
                .iter()
                .map(|w| w.expect("defined"))
                .filter(|&w| (w as i32) > 0)
                .collect();
            let words = |b: &str| {
                let b = jit.buffers.iter().find(|x| x.name == b).expect("a buffer");
                b.u32s()
                    .into_iter()
                    .map(|w| w.expect("the JIT defines all"))
                    .collect::<Vec<_>>()
            };
            assert_eq!(words("count"), vec![kept.len() as u32]);
            let mut out = words("out")[..kept.len()].to_vec();
            out.sort_unstable();
            kept.sort_unstable();
            assert_eq!(out, kept, "{threads} threads");
        }
    }
}
