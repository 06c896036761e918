//! The kernels of `corpus/kernels/` (issue #13) on the JIT: every buffer
//! after the launch must hold what `NAME.expect` (the hand-written kernels,
//! computed by `expected.py`) or `NAME.gpu.txt` (the nvcc-built kernels:
//! what the H200 stored) says, as on the reference interpreter
//! (`core/tests/suite/kernels.rs`).

use std::path::{Path, PathBuf};
use warp_core::kernel_corpus::{launch_files, KernelCase, REFERENCE_STOPS};
use warp_core::launch::Launch;
use warp_core::text::parse_module;

fn corpus() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../corpus/kernels")
}

/// Runs every launch of `dir` on the JIT against its `ext` file; returns
/// the failures and how many launches there were.
fn check_all(dir: &Path, ext: &str) -> (Vec<String>, usize) {
    check_all_in_parts(dir, ext, None)
}

/// [`check_all`] with each kernel compiled in parts of `parts`
/// instructions (`None`: as a launch compiles it).
fn check_all_in_parts(dir: &Path, ext: &str, parts: Option<usize>) -> (Vec<String>, usize) {
    use warp_jit::launch::CompiledKernel;
    let all = launch_files(dir).unwrap_or_else(|e| panic!("{e}"));
    let mut fails = Vec::new();
    for l in &all {
        let case = KernelCase::load(l, ext).unwrap_or_else(|e| panic!("{e}"));
        let (module, launch) = (&case.module, &case.launch);
        let run = match parts {
            None => warp_jit::launch::run_launch(module, launch),
            Some(n) => CompiledKernel::compile_in_parts(module, &launch.kernel, n)
                .and_then(|k| k.launch(launch)),
        };
        match run {
            Ok(out) => fails.extend(case.check(&out.buffers)),
            Err(e) => fails.push(format!("{}: {e}", l.display())),
        }
    }
    (fails, all.len())
}

#[test]
fn nvcc_kernels_match_the_h200_on_the_jit() {
    let (fails, n) = check_all(&corpus().join("nvcc"), "gpu.txt");
    assert!(n >= 10, "the ten nvcc-built kernels, found {n}");
    assert!(fails.is_empty(), "{}", fails.join("\n"));
}

#[test]
fn hand_written_kernels_match_their_expected_outputs_on_the_jit() {
    let (fails, n) = check_all(&corpus(), "expect");
    assert!(n >= 8, "at least 8 kernels, found {n}");
    assert!(fails.is_empty(), "{}", fails.join("\n"));
}

/// Every kernel compiled in parts of 1 and of 3 instructions (every jump
/// between parts, `bar.sync` inside a part, through `parts.rs`'s
/// dispatcher) stores what its expected outputs say, as whole.
#[test]
fn kernels_in_parts_match_on_the_jit() {
    for parts in [1, 3] {
        let (fails, n) = check_all_in_parts(&corpus().join("nvcc"), "gpu.txt", Some(parts));
        assert!(n >= 10, "the ten nvcc-built kernels, found {n}");
        assert!(fails.is_empty(), "parts of {parts}: {}", fails.join("\n"));
        let (fails, n) = check_all_in_parts(&corpus(), "expect", Some(parts));
        assert!(n >= 8, "at least 8 kernels, found {n}");
        assert!(fails.is_empty(), "parts of {parts}: {}", fails.join("\n"));
    }
}

#[test]
fn an_out_of_bounds_store_on_the_jit_names_lane_thread_instruction_and_address() {
    let src = std::fs::read_to_string(corpus().join("nvcc/warp_sum_xor.ptx")).expect("readable");
    let m = parse_module(&src).expect("valid PTX");
    // 64 threads store out[i]; a 40-word `out` ends under thread 40.
    let mut l = Launch::parse(
        &std::fs::read_to_string(corpus().join("nvcc/warp_sum_xor.launch")).expect("readable"),
        "warp_sum_xor.launch",
        Path::new("."),
    )
    .expect("valid");
    l.buffers[1].bytes.truncate(4 * 40);
    let e = warp_jit::launch::run_launch(&m, &l).expect_err("thread 40 stores past `out`");
    // `out` is buffer 1: it starts at 0x21_0000_0000 (ir::windows); thread
    // 40 stores at byte 160 = 0xa0.
    assert!(
        e.to_string().contains("cta (0,0,0) warp 1")
            && e.to_string()
                .contains("lane 8 (%tid (40,0,0)), `st.global.u32 [%rd7], %r22;`")
            && e.to_string()
                .contains("address 0x21000000a0 (4 bytes) is outside"),
        "{}",
        e
    );
}

#[test]
fn thread_level_instructions_on_the_jit_compute_what_the_isa_pages_say() {
    // core/tests/data/thread_ops.txt: instructions with immediate operands
    // and the bits worked out by hand. One kernel runs them all and stores
    // each destination to its own 8-byte slot.
    let table = std::fs::read_to_string(
        Path::new(env!("CARGO_MANIFEST_DIR")).join("../../core/tests/data/thread_ops.txt"),
    )
    .expect("readable");
    let cases: Vec<(&str, Option<u64>)> = table
        .lines()
        .filter(|l| !l.trim().is_empty() && !l.starts_with('#'))
        .map(|l| {
            let (inst, want) = l.split_once(" => ").expect("`inst => bits`");
            (
                inst,
                (want != "-").then(|| u64::from_str_radix(want, 16).expect("hex")),
            )
        })
        .collect();
    let mut body = String::new();
    for (i, (inst, _)) in cases.iter().enumerate() {
        let dest = inst.split_whitespace().nth(1).expect("a destination");
        let dest = dest.trim_end_matches(',');
        body.push_str(&format!("\t{inst};\n"));
        let off = 8 * i;
        body.push_str(&match &dest[..3] {
            "%rd" | "%fd" => format!("\tst.global.b64 \t[%rd9+{off}], {dest};\n"),
            "%p1" => {
                format!("\tselp.b32 \t%r1, 1, 0, %p1;\n\tst.global.b32 \t[%rd9+{off}], %r1;\n")
            }
            _ => format!("\tst.global.b32 \t[%rd9+{off}], {dest};\n"),
        });
    }
    let src = format!(
        ".version 9.0\n.target sm_90\n.address_size 64\n.visible .entry k(.param .u64 k_param_0)\n{{\n\
         \t.reg .pred %p<2>;\n\t.reg .b32 %r<2>;\n\t.reg .f32 %f<2>;\n\
         \t.reg .b64 %rd<10>;\n\t.reg .f64 %fd<2>;\n\tld.param.u64 \t%rd9, [k_param_0];\n{body}\tret;\n}}\n"
    );
    let m = parse_module(&src).unwrap_or_else(|e| panic!("{e}"));
    let l = Launch::parse(
        &format!(
            "kernel k\nblock 1\nbuffer out fill 0 {}\nparam k_param_0 buffer out\n",
            2 * cases.len()
        ),
        "k.launch",
        Path::new("."),
    )
    .expect("valid");
    let out = warp_jit::launch::run_launch(&m, &l).unwrap_or_else(|e| panic!("{e}"));
    let bytes = &out.buffers[0].bytes;
    let mut fails = Vec::new();
    for (i, (inst, want)) in cases.iter().enumerate() {
        let Some(want) = want else { continue };
        let got = u64::from_le_bytes(bytes[8 * i..8 * i + 8].try_into().expect("8 bytes"));
        let is64 = matches!(
            &inst.split_whitespace().nth(1).expect("dest")[..3],
            "%rd" | "%fd"
        );
        let got = if is64 { got } else { got & 0xffff_ffff };
        if got != *want {
            fails.push(format!("`{inst}`: got {got:x}, want {want:x}"));
        }
    }
    assert!(fails.is_empty(), "{}", fails.join("\n"));
}

/// Every kernel of the corpus gives the same bytes on 1, 2, 3 and 8
/// threads, in both tunings (the launch's CTAs spread over the threads).
#[test]
fn a_launch_gives_the_same_bytes_on_any_number_of_threads() {
    use warp_jit::launch::CompiledKernel;
    for dir in [corpus(), corpus().join("nvcc")] {
        for l in launch_files(&dir).unwrap_or_else(|e| panic!("{e}")) {
            let ext = if dir.ends_with("nvcc") {
                "gpu.txt"
            } else {
                "expect"
            };
            let case = KernelCase::load(&l, ext).unwrap_or_else(|e| panic!("{e}"));
            let (module, launch) = (&case.module, &case.launch);
            let fast = CompiledKernel::compile(module, &launch.kernel).expect("compiles");
            let one = fast.launch_on(launch, 1).expect("runs");
            let outline =
                CompiledKernel::compile_in_parts(module, &launch.kernel, 4096).expect("compiles");
            for threads in [1, 2, 3, 8] {
                for k in [&fast, &outline] {
                    let many = k.launch_on(launch, threads).expect("runs");
                    assert!(
                        one.buffers == many.buffers,
                        "{}: 1 thread and {threads} differ",
                        l.display()
                    );
                }
            }
        }
    }
}

/// A kernel of `body` (with registers `%p<4>`, `%r<10>`, `%rd<6>`; `%rd1`
/// holds buffer `out`) launched on `grid` x `block` threads with `out` of
/// `words` words of 0xaaaaaaaa.
fn small_kernel(
    body: &str,
    grid: u32,
    block: u32,
    words: usize,
) -> (warp_core::ir::Module, Launch) {
    let src = format!(
        ".version 9.0\n.target sm_90\n.address_size 64\n.visible .entry k(.param .u64 k_param_0)\n{{\n\
         \t.reg .pred %p<4>;\n\t.reg .b32 %r<10>;\n\t.reg .b64 %rd<6>;\n\t.shared .align 4 .b8 smem[256];\n\
         \tld.param.u64 %rd1, [k_param_0];\n\tcvta.to.global.u64 %rd1, %rd1;\n{body}\tret;\n}}\n"
    );
    let m = parse_module(&src).unwrap_or_else(|e| panic!("{e}"));
    let l = Launch::parse(
        &format!("kernel k\ngrid {grid}\nblock {block}\nbuffer out fill aaaaaaaa {words}\nparam k_param_0 buffer out\n"),
        "k.launch",
        Path::new("."),
    )
    .expect("valid");
    (m, l)
}

/// A register a warp reads before writing it holds 0, not what a warp
/// of an earlier CTA on the same thread left there: CTA 0 writes `%r5`,
/// every CTA stores it (and `%r6`, which nobody writes), whatever the
/// number of threads.
#[test]
fn registers_read_before_written_are_zero_in_every_cta() {
    let body = "\tmov.u32 %r1, %ctaid.x;\n\tmov.u32 %r2, %tid.x;\n\tsetp.eq.u32 %p1, %r1, 0;\n\
                \t@%p1 mov.u32 %r5, 7;\n\tshl.b32 %r3, %r1, 6;\n\tshl.b32 %r4, %r2, 1;\n\
                \tadd.u32 %r3, %r3, %r4;\n\tmul.wide.u32 %rd2, %r3, 4;\n\tadd.s64 %rd3, %rd1, %rd2;\n\
                \tst.global.u32 [%rd3], %r5;\n\tst.global.u32 [%rd3+4], %r6;\n";
    let (m, l) = small_kernel(body, 16, 32, 16 * 64);
    let k = warp_jit::launch::CompiledKernel::compile(&m, "k").expect("compiles");
    for threads in [1, 2, 5] {
        let out = k.launch_on(&l, threads).expect("runs");
        let w = out.buffers[0].words();
        for (i, w) in w.iter().enumerate() {
            let want = if i < 64 && i % 2 == 0 {
                "00000007"
            } else {
                "00000000"
            };
            assert_eq!(w, want, "word {i} on {threads} threads");
        }
    }
}

/// Whole-warp shared loads at any addresses (`memory_ops.rs`'s gather
/// path): a column of a table (lane `t` reads word `5t mod 64`, so
/// addresses 20 bytes apart that wrap) and one word for every lane, after
/// every thread stored `3t` at word `t`. Hand-computed: `out[t] = 3 (5t mod
/// 64)`, `out[64 + t] = 3 * 2`.
#[test]
fn whole_warp_shared_loads_at_any_addresses() {
    let body = "\tmov.u32 %r1, %tid.x;\n\tmul.lo.u32 %r2, %r1, 3;\n\tshl.b32 %r3, %r1, 2;\n\
                \tmov.u32 %r4, smem;\n\tadd.u32 %r3, %r4, %r3;\n\tst.shared.u32 [%r3], %r2;\n\
                \tbar.sync 0;\n\tmul.lo.u32 %r5, %r1, 5;\n\tand.b32 %r5, %r5, 63;\n\
                \tshl.b32 %r5, %r5, 2;\n\tadd.u32 %r5, %r4, %r5;\n\tld.shared.u32 %r6, [%r5];\n\
                \tmul.wide.u32 %rd2, %r1, 4;\n\tadd.s64 %rd3, %rd1, %rd2;\n\tst.global.u32 [%rd3], %r6;\n\
                \tld.shared.u32 %r7, [%r4+8];\n\tst.global.u32 [%rd3+256], %r7;\n";
    let (m, l) = small_kernel(body, 1, 64, 128);
    let k = warp_jit::launch::CompiledKernel::compile(&m, "k").expect("compiles");
    for threads in [1, 3] {
        let out = k.launch_on(&l, threads).expect("runs");
        let w = out.buffers[0].words();
        for (i, w) in w.iter().enumerate() {
            let want = if i < 64 { 3 * (5 * i % 64) } else { 6 };
            assert_eq!(w, &format!("{want:08x}"), "word {i} on {threads} threads");
        }
    }
}

/// `bar.sync` that the lanes of a warp reach at different instructions
/// (the upper half after storing to shared memory, the lower half at a
/// `bar.sync` of its own): the CTA's barrier completes when every lane of
/// both warps waits, and the lower half then reads what the other warp's
/// upper half stored, as on the interpreter.
#[test]
fn a_barrier_lanes_reach_at_different_instructions() {
    let body = "\tmov.u32 %r1, %tid.x;\n\tand.b32 %r2, %r1, 31;\n\tsetp.lt.u32 %p1, %r2, 16;\n\
                \tshl.b32 %r3, %r1, 2;\n\tmov.u32 %r4, smem;\n\tadd.u32 %r5, %r4, %r3;\n\
                \t@%p1 bra $LOW;\n\tmul.lo.u32 %r6, %r1, 3;\n\tst.shared.u32 [%r5], %r6;\n\
                \tbar.sync 0;\n\tbra $OUT;\n$LOW:\n\tbar.sync 0;\n\
                \txor.b32 %r7, %r3, 128;\n\tadd.u32 %r7, %r7, 64;\n\tadd.u32 %r8, %r4, %r7;\n\
                \tld.shared.u32 %r6, [%r8];\n$OUT:\n\tmul.wide.u32 %rd2, %r1, 4;\n\
                \tadd.s64 %rd3, %rd1, %rd2;\n\tst.global.u32 [%rd3], %r6;\n";
    let (m, l) = small_kernel(body, 1, 64, 64);
    let reference = warp_core::interp::run_launch(&m, &l).expect("runs");
    assert!(reference.ub.is_none(), "{:?}", reference.ub);
    let want = reference.buffers[0].words();
    assert!(want.iter().all(|w| w != "________"), "{want:?}");
    for threads in [1, 2] {
        let out = warp_jit::launch::CompiledKernel::compile(&m, "k")
            .expect("compiles")
            .launch_on(&l, threads)
            .expect("runs");
        assert_eq!(out.buffers[0].words(), want, "{threads} threads");
    }
    // Lane 0 of warp 0 read thread 48's value (tid 48 * 3 = 144 = 0x90).
    assert_eq!(want[0], "00000090");
}

/// Faulty accesses that the inline fast paths see first (issue #36) end
/// the launch as the run time always reported them: the first faulty
/// lane of the lowest CTA in the grid's order, its `%tid`, the
/// instruction and the address, whatever the number of threads, in the
/// reference's words.
#[test]
fn faulty_accesses_name_lane_thread_instruction_and_address_on_any_number_of_threads() {
    // (body, grid, words of `out`, what the error must say)
    let cases: [(&str, u32, usize, &[&str]); 4] = [
        // A shared load of every lane 8 bytes apart (no four lanes
        // consecutive): `smem` (256 bytes) ends under thread 32, lane 0
        // of warp 1.
        (
            "\tmov.u32 %r1, %tid.x;\n\tshl.b32 %r2, %r1, 3;\n\tmov.u32 %r3, smem;\n\
             \tadd.u32 %r4, %r3, %r2;\n\tld.shared.u32 %r5, [%r4];\n\
             \tmul.wide.u32 %rd2, %r1, 4;\n\tadd.s64 %rd3, %rd1, %rd2;\n\tst.global.u32 [%rd3], %r5;\n",
            1,
            64,
            &[
                "cta (0,0,0) warp 1",
                "lane 0 (%tid (32,0,0)), `ld.shared.u32 %r5, [%r4];`",
                "(4 bytes)",
            ],
        ),
        // A shared load four lanes at a time whose group 12..15 crosses
        // the end of `smem` (256 bytes) at lane 14.
        (
            "\tmov.u32 %r1, %tid.x;\n\tshl.b32 %r2, %r1, 2;\n\tmov.u32 %r3, smem;\n\
             \tadd.u32 %r4, %r3, %r2;\n\tld.shared.u32 %r5, [%r4+200];\n\
             \tmul.wide.u32 %rd2, %r1, 4;\n\tadd.s64 %rd3, %rd1, %rd2;\n\tst.global.u32 [%rd3], %r5;\n",
            1,
            64,
            &[
                "cta (0,0,0) warp 0",
                "lane 14 (%tid (14,0,0)), `ld.shared.u32 %r5, [%r4+200];`",
                "(4 bytes)",
            ],
        ),
        // A misaligned global load on every lane: lane 0 is named.
        (
            "\tmov.u32 %r1, %tid.x;\n\tmul.wide.u32 %rd2, %r1, 4;\n\tadd.s64 %rd3, %rd1, %rd2;\n\
             \tld.global.u32 %r5, [%rd3+2];\n\tst.global.u32 [%rd3], %r5;\n",
            1,
            64,
            &[
                "cta (0,0,0) warp 0",
                "lane 0 (%tid (0,0,0)), `ld.global.u32 %r5, [%rd3+2];`",
                "address 0x2000000002 is not aligned",
            ],
        ),
        // CTA c stores out[64c + tid]: `out` holds 5 CTAs' words, CTAs 5
        // to 15 store past it, and CTA 5 is the one named.
        (
            "\tmov.u32 %r1, %tid.x;\n\tmov.u32 %r2, %ctaid.x;\n\tshl.b32 %r3, %r2, 6;\n\
             \tadd.u32 %r3, %r3, %r1;\n\tmul.wide.u32 %rd2, %r3, 4;\n\tadd.s64 %rd3, %rd1, %rd2;\n\
             \tst.global.u32 [%rd3], %r3;\n",
            16,
            5 * 64,
            &[
                "cta (5,0,0) warp 0",
                "lane 0 (%tid (0,0,0)), `st.global.u32 [%rd3], %r3;`",
                "address 0x2000000500",
            ],
        ),
    ];
    for (body, grid, words, want) in cases {
        let (m, l) = small_kernel(body, grid, 64, words);
        let reference = warp_core::interp::run_launch(&m, &l).expect("runs");
        let ub = reference
            .ub
            .expect("the reference calls it undefined behaviour");
        let k = warp_jit::launch::CompiledKernel::compile(&m, "k").expect("compiles");
        for threads in [1, 2, 4] {
            let e = k.launch_on(&l, threads).expect_err("faults");
            // What the reference says, and where.
            let reference = format!("{}: line {}: {}", ub.0, ub.1.line, ub.1.message);
            for w in want.iter().chain([&reference.as_str()]) {
                assert!(
                    e.to_string().contains(w),
                    "{threads} threads: `{}` lacks `{w}` (the reference: {ub:?})",
                    e
                );
            }
        }
    }
}

/// The real CUDA kernels of `corpus/kernels/cub/` (issue #37) on the JIT:
/// every byte the reference interpreter defines equals what the H200
/// stored, and every bit that differed between the H200's runs is one the
/// reference leaves undefined (the JIT computes every byte; which ones
/// mean something is the reference's call).
#[test]
fn real_cuda_kernels_match_the_h200_on_the_jit() {
    let dir = corpus().join("cub");
    let all = launch_files(&dir).unwrap_or_else(|e| panic!("{e}"));
    assert!(
        all.len() >= 12,
        "at least 12 real kernels, found {}",
        all.len()
    );
    let mut fails = Vec::new();
    for l in &all {
        let case = match KernelCase::load(l, "gpu.txt") {
            Ok(c) => c,
            Err(e) => {
                fails.push(e);
                continue;
            }
        };
        let reference = match warp_core::interp::run_launch(&case.module, &case.launch) {
            Ok(r) => r,
            Err(e) => {
                fails.push(format!("{}: the reference: {e}", l.display()));
                continue;
            }
        };
        // A reference that stopped at undefined behaviour defines what its
        // first pass had written, not what the launch leaves: nothing to
        // compare the JIT's bytes on. The interpreter's test checks that
        // exactly the kernels of `REFERENCE_STOPS` stop; any other is a
        // failure here too.
        if let Some((at, ub)) = &reference.ub {
            let name = l.file_stem().and_then(|s| s.to_str()).unwrap_or("");
            if !REFERENCE_STOPS.iter().any(|(k, _)| *k == name) {
                fails.push(format!("{}: the reference: {at}: {ub}", l.display()));
            }
            continue;
        }
        match warp_jit::launch::run_launch(&case.module, &case.launch) {
            Ok(out) => fails.extend(case.check_against_runs(&out.buffers, &reference.buffers)),
            Err(e) => fails.push(format!("{}: {e}", l.display())),
        }
    }
    assert!(fails.is_empty(), "{}", fails.join("\n"));
}
