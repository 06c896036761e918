//! The kernels of `corpus/kernels/` (issue #13) on the reference
//! interpreter: each `NAME.launch` runs `NAME.ptx`, and every buffer must
//! hold what `NAME.expect` (computed by `expected.py` from what the CUDA
//! source means) or, for the nvcc-built kernels, `NAME.gpu.txt` (what the
//! H200 stored) says.

use std::path::{Path, PathBuf};
use warp_core::interp::run_launch;
use warp_core::kernel_corpus::{launch_files, KernelCase, REFERENCE_STOPS};
use warp_core::launch::Launch;
use warp_core::text::parse_module;

fn corpus() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../corpus/kernels")
}

/// Runs every launch of `dir` on the interpreter against its `ext` file;
/// returns the failures and how many launches there were.
fn check_all(dir: &Path, ext: &str) -> (Vec<String>, usize) {
    let all = launch_files(dir).unwrap_or_else(|e| panic!("{e}"));
    let mut fails = Vec::new();
    for l in &all {
        let case = KernelCase::load(l, ext).unwrap_or_else(|e| panic!("{e}"));
        match run_launch(&case.module, &case.launch) {
            Ok(out) => match &out.ub {
                Some((at, ub)) => fails.push(format!("{}: {at}: {ub}", l.display())),
                None => fails.extend(case.check(&out.buffers)),
            },
            Err(e) => fails.push(format!("{}: {e}", l.display())),
        }
    }
    (fails, all.len())
}

#[test]
fn nvcc_kernels_match_the_h200_on_the_interpreter() {
    let (fails, n) = check_all(&corpus().join("nvcc"), "gpu.txt");
    assert!(n >= 10, "the ten nvcc-built kernels, found {n}");
    assert!(fails.is_empty(), "{}", fails.join("\n"));
}

#[test]
fn hand_written_kernels_match_their_expected_outputs_on_the_interpreter() {
    let (fails, n) = check_all(&corpus(), "expect");
    assert!(n >= 8, "at least 8 kernels, found {n}");
    assert!(fails.is_empty(), "{}", fails.join("\n"));
}

/// A kernel storing `%tid.x` to `out[%tid.x]`: with a 32-word buffer and
/// 40 threads, thread 32 stores past the end.
const OOB: &str = include_str!("../data/oob_store.ptx");

/// The OOB kernel's launch with `threads` threads.
fn oob_launch(threads: u32) -> Launch {
    Launch::parse(
        &format!(
            "kernel oob\nblock {threads}\nbuffer out fill 0 32\nparam oob_param_0 buffer out\n"
        ),
        "oob.launch",
        Path::new("."),
    )
    .expect("a valid launch")
}

#[test]
fn an_out_of_bounds_store_names_lane_thread_instruction_and_address() {
    let m = parse_module(OOB).expect("valid PTX");
    let out = run_launch(&m, &oob_launch(40)).expect("runs");
    let (at, ub) = out.ub.expect("thread 32 stores past the buffer");
    assert_eq!(at, "cta (0,0,0) warp 1");
    assert_eq!(ub.rule.name(), "memory-out-of-bounds");
    assert_eq!(ub.line, 13);
    // Buffer 0 starts at 0x20_0000_0000 (ir::windows::BUFFERS); thread 32
    // stores at byte 4 * 32 = 0x80.
    assert!(
        ub.message
            .contains("lane 0 (%tid (32,0,0)), `st.global.u32 [%rd4], %r1;`")
            && ub.message.contains("address 0x2000000080 (4 bytes)"),
        "{}",
        ub.message
    );
    // With 32 threads every store is in bounds: out[i] = i.
    let out = run_launch(&m, &oob_launch(32)).expect("runs");
    assert!(out.ub.is_none());
    let want: Vec<String> = (0..32).map(|i| format!("{i:08x}")).collect();
    assert_eq!(out.buffers[0].words(), want);
}

#[test]
fn unsupported_instructions_and_directives_name_themselves_with_line_and_column() {
    let atom = OOB.replace(
        "st.global.u32 \t[%rd4], %r1;",
        "atom.global.add.noftz.f16 \t%r2, [%rd4], %r1;",
    );
    let e = parse_module(&atom).expect_err("atom.add.noftz.f16 is not supported");
    assert_eq!((e.line, e.col), (13, 2));
    assert_eq!(e.msg, "not supported yet: `atom.global.add.noftz.f16`");
    // (`rcp.approx` runs since #37; the IEEE `rcp.rn` does not yet.)
    let rcp = OOB.replace("\tret;", "\trcp.rn.f32 \t%f1, %f1;\n\tret;");
    let e = parse_module(&rcp).expect_err("rcp.rn is not supported");
    assert_eq!((e.line, e.col), (14, 2));
    assert!(
        e.msg.starts_with("not supported yet: `rcp.rn.f32`"),
        "{}",
        e.msg
    );
    let alias = format!("{OOB}.alias foo, oob;\n");
    let e = parse_module(&alias).expect_err(".alias is not supported");
    assert_eq!((e.line, e.col), (16, 1));
    assert_eq!(e.msg, "not supported yet at module level: `.alias`");
    let special = OOB.replace("%tid.x;", "%smid;");
    let e = parse_module(&special).expect_err("%smid is not supported");
    assert_eq!((e.line, e.col), (10, 16));
    assert_eq!(e.msg, "not supported yet: special register `%smid`");
}

#[test]
fn a_call_is_inlined_or_refused_at_its_line_and_column() {
    let src = std::fs::read_to_string(corpus().join("call_inline.ptx")).expect("readable");
    let m = parse_module(&src).expect("the call inlines");
    let k = m.kernel("call_inline").expect("the kernel");
    assert!(
        k.program.regs.iter().any(|r| r.name == "_Z7add_onei.1.%r2"),
        "the callee's registers, renamed into the kernel"
    );
    // The callee defined after its caller: refused, at the function name.
    let start = src.find(".func").expect("a .func");
    let end = src.find("\t// .globl").expect("the kernel");
    let moved = format!("{}{}{}", &src[..start], &src[end..], &src[start..end]);
    let e = parse_module(&moved).expect_err("a call before the definition");
    let line = moved[..moved.find("\t_Z7add_onei, ").expect("the call")]
        .lines()
        .count()
        + 1;
    assert_eq!((e.line as usize, e.col), (line, 2));
    assert!(
        e.msg
            .starts_with("not supported yet: `call _Z7add_onei` before its `.func` definition"),
        "{}",
        e.msg
    );
}

/// Every `.ptx` of `corpus/kernels/` and `corpus/kernels/nvcc/`.
fn modules() -> Vec<PathBuf> {
    let mut v = Vec::new();
    for dir in [corpus(), corpus().join("nvcc")] {
        for e in std::fs::read_dir(dir).expect("readable") {
            let p = e.expect("readable").path();
            if p.extension().is_some_and(|x| x == "ptx") {
                v.push(p);
            }
        }
    }
    v.sort();
    v
}

#[test]
fn damaged_modules_give_errors_with_positions_not_panics() {
    // Each corpus module with one line deleted, and cut short at every
    // 5th character: the front end returns a module or an error whose line
    // and column lie in the text (a panic fails the test).
    let mut errors = 0;
    for p in modules() {
        let src = std::fs::read_to_string(&p).expect("readable");
        let lines: Vec<&str> = src.lines().collect();
        let mut variants: Vec<String> = (0..lines.len())
            .map(|i| {
                let mut l = lines.clone();
                l.remove(i);
                l.join("\n")
            })
            .collect();
        variants.extend(
            src.char_indices()
                .step_by(5)
                .map(|(i, _)| src[..i].to_string()),
        );
        for v in variants {
            if let Err(e) = parse_module(&v) {
                errors += 1;
                let n_lines = v.lines().count().max(1) as u32;
                assert!(
                    e.line >= 1 && e.line <= n_lines + 1 && e.col >= 1,
                    "{}: error position {}:{} outside the text: {}",
                    p.display(),
                    e.line,
                    e.col,
                    e.msg
                );
            }
        }
    }
    assert!(errors > 1000, "damage is mostly caught: {errors} errors");
}

/// Threads 0..31 write `sbuf[t]`; threads 32..63 read `sbuf[t - 32]`
/// (`BARRIER` replaced by `bar.sync 0;` or nothing) and store it.
const HANDOFF: &str = "\
.version 9.0
.target sm_90
.address_size 64
.visible .entry handoff(.param .u64 handoff_param_0)
{
\t.reg .pred \t%p<2>;
\t.reg .b32 \t%r<6>;
\t.reg .b64 \t%rd<4>;
\t.shared .align 4 .b8 sbuf[128];
\tld.param.u64 \t%rd1, [handoff_param_0];
\tcvta.to.global.u64 \t%rd2, %rd1;
\tmov.u32 \t%r1, %tid.x;
\tand.b32 \t%r2, %r1, 31;
\tshl.b32 \t%r3, %r2, 2;
\tmov.u32 \t%r4, sbuf;
\tadd.s32 \t%r5, %r4, %r3;
\tsetp.lt.u32 \t%p1, %r1, 32;
\t@%p1 st.shared.u32 \t[%r5], %r1;
\tBARRIER
\t@%p1 bra \t$L__BB0_2;
\tld.shared.u32 \t%r4, [%r5];
\tmul.wide.u32 \t%rd3, %r2, 4;
\tadd.s64 \t%rd3, %rd2, %rd3;
\tst.global.u32 \t[%rd3], %r4;
$L__BB0_2:
\tret;
}
";

#[test]
fn shared_memory_between_warps_needs_a_barrier_else_it_is_a_race() {
    let l = Launch::parse(
        "kernel handoff\nblock 64\nbuffer out fill aaaaaaaa 32\nparam handoff_param_0 buffer out\n",
        "handoff.launch",
        Path::new("."),
    )
    .expect("valid");
    // With the barrier: thread 32 + i reads what thread i wrote.
    let m = parse_module(&HANDOFF.replace("BARRIER", "bar.sync \t0;")).expect("valid");
    let out = run_launch(&m, &l).expect("runs");
    assert!(out.ub.is_none(), "{:?}", out.ub);
    let want: Vec<String> = (0..32).map(|i| format!("{i:08x}")).collect();
    assert_eq!(out.buffers[0].words(), want);
    // Without it, warp 1 reads bytes warp 0 wrote with nothing between.
    let m = parse_module(&HANDOFF.replace("BARRIER", "")).expect("valid");
    let out = run_launch(&m, &l).expect("runs");
    let (at, ub) = out.ub.expect("a data race");
    assert_eq!(at, "cta (0,0,0) warp 1");
    assert_eq!(ub.rule.name(), "memory-race");
    assert!(
        ub.message.contains("`ld.shared.u32 %r4, [%r5];`"),
        "{}",
        ub.message
    );
}

#[test]
fn predicate_immediates_as_llvm_writes_them_read_nonzero_as_true() {
    // `mov.pred %p, -1` and a vote on an immediate predicate: every lane
    // votes true, so the ballot is the 24 lanes that exist.
    let src = OOB
        .replace(
            "\t.reg .b32 \t%r<3>;",
            "\t.reg .b32 \t%r<3>;\n\t.reg .pred \t%p<3>;",
        )
        .replace(
            "\tmov.u32 \t%r1, %tid.x;",
            "\tmov.pred \t%p1, -1;\n\tvote.sync.ballot.b32 \t%r2, 1, -1;\n\
             \t@%p1 mov.u32 \t%r1, %r2;",
        )
        .replace(
            "mul.wide.u32 \t%rd3, %r1, 4;",
            "mov.u32 \t%r2, %tid.x;\n\tmul.wide.u32 \t%rd3, %r2, 4;",
        );
    let m = parse_module(&src).unwrap_or_else(|e| panic!("{e}"));
    let out = run_launch(&m, &oob_launch(24)).expect("runs");
    assert!(out.ub.is_none(), "{:?}", out.ub);
    let words = out.buffers[0].words();
    assert!(words[..24].iter().all(|w| w == "00ffffff"), "{words:?}");
    assert!(words[24..].iter().all(|w| w == "00000000"), "{words:?}");
}

#[test]
fn a_module_given_as_a_case_file_says_how_to_run_it() {
    let e = warp_core::text::parse(OOB).expect_err("a module is not a case file");
    assert_eq!((e.line, e.col), (4, 1));
    assert!(
        e.msg.contains("this looks like a PTX module")
            && e.msg.contains("--launch FILE or --kernel NAME"),
        "{}",
        e.msg
    );
}

#[test]
fn oversized_memory_is_refused_with_its_place_not_allocated() {
    // A 4 GiB variable: an error at its line, no 4 GiB allocation.
    let big = OOB.replace(
        ".visible .entry",
        ".global .align 4 .b8 huge[4294967296];\n.visible .entry",
    );
    let e = parse_module(&big).expect_err("too big");
    assert_eq!((e.line, e.col), (4, 22));
    assert!(e.msg.contains("`huge` has 4294967296 bytes"), "{}", e.msg);
    // 228 KiB of dynamic shared memory: more than an sm_90 CTA has.
    let m = parse_module(OOB).expect("valid");
    let mut l = oob_launch(32);
    l.shared = 228 * 1024;
    let e = run_launch(&m, &l).expect_err("too much shared memory");
    assert!(
        e.to_string()
            .contains("233472 bytes of shared memory per CTA"),
        "{}",
        e
    );
}

#[test]
fn a_bad_word_in_a_launch_or_expect_file_is_named_at_its_column() {
    // Columns counted by hand: `buffer in u32 1 2 zz` puts `zz` at 19.
    let e = Launch::parse(
        "kernel k\nbuffer in u32 1 2 zz\n",
        "k.launch",
        Path::new("."),
    )
    .expect_err("zz is no hex word");
    assert!(
        e.to_string()
            .starts_with("k.launch:2:19: bad hex word `zz` (word 3"),
        "{e}"
    );
    // `grid 4,x` puts the dimensions at 6; `  shared lots` the count at 10.
    let e = Launch::parse("kernel k\ngrid 4,x\n", "k.launch", Path::new(".")).expect_err("x");
    assert!(e.to_string().starts_with("k.launch:2:6: "), "{e}");
    let e =
        Launch::parse("kernel k\n  shared lots\n", "k.launch", Path::new(".")).expect_err("lots");
    assert!(
        e.to_string()
            .starts_with("k.launch:2:10: bad byte count `lots`"),
        "{e}"
    );
    // `out: 00000001 zz` puts `zz` at 15.
    let e = warp_core::launch::parse_expected("out: 00000001 zz\n", "k.expect").expect_err("zz");
    assert!(
        e.to_string().starts_with("k.expect:1:15: bad word `zz`"),
        "{e}"
    );
}

#[test]
fn a_launch_built_in_code_runs_as_its_launch_file_does() {
    // saxpy on 64 threads, n = 40, a = 2.5, x[i] = i, y[i] = 1: by hand,
    // y[i] = 2.5 i + 1 below 40 (exact in f32) and 1 above.
    let src = std::fs::read_to_string(
        Path::new(env!("CARGO_MANIFEST_DIR")).join("../corpus/kernels/nvcc/saxpy.ptx"),
    )
    .expect("saxpy.ptx");
    let m = parse_module(&src).expect("valid");
    let xs: Vec<f32> = (0..64).map(|i| i as f32).collect();
    let built = Launch::new("saxpy")
        .block([64, 1, 1])
        .buffer_f32("x", &xs)
        .buffer_f32("y", &[1.0; 64])
        .param_value("saxpy_param_0", 40)
        .param_value("saxpy_param_1", 2.5f32.to_bits() as u64)
        .param_buffer("saxpy_param_2", "x")
        .param_buffer("saxpy_param_3", "y");
    let out = run_launch(&m, &built).expect("runs");
    let want: Vec<Option<f32>> = (0..64)
        .map(|i| Some(if i < 40 { 2.5 * i as f32 + 1.0 } else { 1.0 }))
        .collect();
    assert_eq!(out.buffers[1].f32s(), want);
    // A parameter naming a buffer the launch lacks is an error that says so.
    let lacking = Launch::new("saxpy")
        .block([64, 1, 1])
        .param_value("saxpy_param_0", 40)
        .param_value("saxpy_param_1", 0)
        .param_buffer("saxpy_param_2", "x")
        .param_buffer("saxpy_param_3", "y");
    let e = run_launch(&m, &lacking).expect_err("no buffer x");
    assert!(
        e.to_string()
            .contains("names a buffer the launch does not have"),
        "{e}"
    );
}

/// The real CUDA kernels of `corpus/kernels/cub/` (issue #37: CUB's warp
/// and block primitives, cooperative groups, warp-aggregated atomics,
/// approximate math and common kernels, nvcc 13.0's PTX verbatim, each run
/// three times on an H200 by `h200run.py`): every byte the interpreter
/// defines equals what the H200 stored, every bit that differed between the
/// H200's runs is one it leaves undefined, and each kernel's results are
/// not all undefined (a word the kernel wrote is defined); the kernels of
/// `REFERENCE_STOPS` stop with the undefined behaviour it names.
#[test]
fn real_cuda_kernels_match_the_h200_on_the_interpreter() {
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
        match run_launch(&case.module, &case.launch) {
            Ok(out) => {
                let name = l.file_stem().and_then(|s| s.to_str()).unwrap_or("");
                let stops = REFERENCE_STOPS.iter().find(|(k, _)| *k == name);
                match (&out.ub, stops) {
                    (Some((at, ub)), Some((_, class))) => {
                        let said = format!("{at}: {ub}");
                        if !said.contains(class) {
                            fails.push(format!("{}: expected {class}, got {said}", l.display()));
                        }
                        continue;
                    }
                    (Some((at, ub)), None) => {
                        fails.push(format!("{}: {at}: {ub}", l.display()));
                        continue;
                    }
                    (None, Some((_, class))) => fails.push(format!(
                        "{}: runs now (REFERENCE_STOPS says it stops with {class}): take it off the list",
                        l.display()
                    )),
                    (None, None) => {}
                }
                fails.extend(case.check_against_runs(&out.buffers, &out.buffers));
                if defined_written_words(&case, &out.buffers) == 0 {
                    fails.push(format!(
                        "{}: the reference defines none of the words the kernel wrote",
                        l.display()
                    ));
                }
            }
            Err(e) => fails.push(format!("{}: {e}", l.display())),
        }
    }
    assert!(fails.is_empty(), "{}", fails.join("\n"));
}

/// How many words the GPU wrote (not the launch's `aaaaaaaa` fill) that
/// the reference's `buffers` define.
fn defined_written_words(case: &KernelCase, buffers: &[warp_core::launch::BufferOut]) -> usize {
    let mut n = 0;
    for (buf, want) in &case.expected {
        let Some(b) = buffers.iter().find(|b| &b.name == buf) else {
            continue;
        };
        let words = b.u32s();
        for (i, w) in want.iter().enumerate() {
            if *w != Some(0xaaaa_aaaa) && words.get(i).copied().flatten().is_some() {
                n += 1;
            }
        }
    }
    n
}
