//! `warpdiff run --json` end to end: a normal file, a file with UB and a file
//! with a parse error in one call; exit statuses; `.expect` mismatches.

use crate::common;

use common::{warpdiff, write};

/// A scratch directory for test `name`.
fn dir(name: &str) -> std::path::PathBuf {
    common::dir("cli", name)
}

#[test]
fn json_normal_ub_and_error_in_one_call() {
    let d = dir("json");
    // vote.sync.ballot of (laneid < 3) over the full warp: bits 0..2 = 7.
    // `U` is never written: null on every lane. Lanes 30 and 31 exit first:
    // exited = 0xc0000000 = 3221225472, and they take no part in the ballot.
    let normal = write(
        &d,
        "normal.ptx",
        "\
.reg .b32 B, U;
.reg .pred p, q;
    setp.ge.u32 q, %laneid, 30;
@q  exit;
    setp.lt.u32 p, %laneid, 3;
    vote.sync.ballot.b32 B, p, 0xffffffff;
",
    );
    let ub = write(
        &d,
        "ub.ptx",
        ".reg .b32 Rx, Ry;\n.lanes Rx = 1;\n\n    shfl.sync.up.b32 Ry, Rx, 1, 0, 0x0000fffe;\n",
    );
    let bad = write(&d, "bad.ptx", ".reg .b32 Rx;\n    add.u32 Rx, Rx, Rq;\n");
    let (code, stdout, _) = warpdiff(&["run", "--json", &normal, &ub, &bad]);
    assert_eq!(code, 2, "an error outranks UB: {stdout}");
    let lines: Vec<&str> = stdout.lines().collect();
    assert_eq!(lines.len(), 3, "one object per file:\n{stdout}");

    // Each line is one JSON object (parsed, so spacing does not matter);
    // the values are the ones worked out by hand above.
    let obj = |l: &str| -> serde_json::Value {
        serde_json::from_str(l).unwrap_or_else(|e| panic!("not JSON ({e}): {l}"))
    };
    let lanes = |f: &dyn Fn(usize) -> serde_json::Value| -> serde_json::Value {
        (0..32).map(f).collect::<Vec<_>>().into()
    };
    let null = serde_json::Value::Null;
    let expected = serde_json::json!({
        "file": normal,
        "engine": "interp",
        "regs": {
            "B": lanes(&|l| if l >= 30 { null.clone() } else { 7.into() }),
            "U": lanes(&|_| null.clone()),
            "p": lanes(&|l| match l { 0..=2 => 1.into(), 30 | 31 => null.clone(), _ => 0.into() }),
            "q": lanes(&|l| if l >= 30 { 1.into() } else { 0.into() }),
        },
        "exited": 3221225472u32,
    });
    assert_eq!(obj(lines[0]), expected);
    // Registers in declaration order.
    assert!(
        lines[0].find("\"B\"") < lines[0].find("\"U\""),
        "{}",
        lines[0]
    );

    // Every lane executes; lanes 0 and 16-31 are outside 0x0000fffe.
    let u = obj(lines[1]);
    assert_eq!(u["file"], ub.as_str());
    assert_eq!(u["ub"]["rule"], "not-in-membermask");
    assert_eq!(u["ub"]["line"], 4);
    assert_eq!(u["ub"]["lanes"], 4294901761u32);
    let message = u["ub"]["message"].as_str().expect("a message");
    assert!(
        message.contains("shfl.sync.up.b32 Ry, Rx, 1, 0, 0xfffe"),
        "{message}"
    );
    assert_eq!(
        obj(lines[2]),
        serde_json::json!({"file": bad, "error": format!("{bad}:2:21: undeclared register `Rq`")})
    );
}

#[test]
fn exit_statuses() {
    let d = dir("status");
    let ok = write(
        &d,
        "ok.ptx",
        ".reg .b32 R;\nmov.b32 R, 5;\n.expect R = 5;\n",
    );
    let wrong = write(
        &d,
        "wrong.ptx",
        ".reg .b32 R;\nmov.b32 R, 5;\n.expect R = 6;\n",
    );
    let ub = write(&d, "ub.ptx", ".reg .b32 R;\nmatch.any.sync.b32 R, R, 0;\n");
    let missing = d.join("missing.ptx").display().to_string();
    assert_eq!(warpdiff(&["run", &ok]).0, 0);
    let (code, stdout, stderr) = warpdiff(&["run", "--json", &ok, &wrong]);
    assert_eq!(code, 1);
    assert_eq!(stdout.lines().count(), 2);
    assert!(stderr.contains("R lane 0: expected 6, got 5"), "{stderr}");
    assert_eq!(warpdiff(&["run", &ok, &ub]).0, 3);
    let (code, stdout, _) = warpdiff(&["run", "--json", &missing]);
    assert_eq!(code, 2);
    assert!(stdout.contains("cannot read"), "{stdout}");
    assert_eq!(warpdiff(&["run", "--engine", "nope", &ok]).0, 2);
    assert_eq!(warpdiff(&["frob"]).0, 2);
}

#[test]
fn table_output_shows_lanes_and_expect_differences() {
    let d = dir("table");
    let f = write(
        &d,
        "t.ptx",
        ".reg .b32 R, U;\nmov.b32 R, %laneid;\n.expect R = 0 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20 21 22 23 24 25 26 27 28 29 30 99;\n",
    );
    let (code, stdout, _) = warpdiff(&["run", &f]);
    assert_eq!(code, 1);
    assert!(stdout.contains("lane  status  R.b32  U.b32"), "{stdout}");
    assert!(stdout.contains("  31    done     31      _"), "{stdout}");
    assert!(
        stdout.contains("R lane 31: expected 99, got 31"),
        "{stdout}"
    );
}

#[test]
fn the_corpus_runs_clean() {
    let files: Vec<String> = warp_core::replay::case_files(&warp_core::replay::corpus_dir())
        .iter()
        .map(|p| p.display().to_string())
        .collect();
    let mut args = vec!["run", "--json"];
    args.extend(files.iter().map(String::as_str));
    let (code, stdout, stderr) = warpdiff(&args);
    assert_eq!(code, 0, "{stderr}");
    assert_eq!(stdout.lines().count(), files.len());
}

#[test]
fn jit_engine_and_diff() {
    let d = dir("jit");
    // ballot of (laneid < 3): 7 on every lane; every value is printed.
    let f = write(
        &d,
        "b.ptx",
        ".reg .b32 B;\n.reg .pred p;\n    setp.lt.u32 p, %laneid, 3;\n    vote.sync.ballot.b32 B, p, 0xffffffff;\n.expect B = 7;\n",
    );
    let (code, stdout, _) = warpdiff(&["run", "--engine", "jit", "--json", &f]);
    assert_eq!(code, 0, "{stdout}");
    let v: serde_json::Value = serde_json::from_str(stdout.trim()).expect("one JSON object");
    assert_eq!(v["engine"], "jit");
    assert_eq!(v["regs"]["B"], serde_json::json!(vec![7; 32]));
    let (code, stdout, _) = warpdiff(&["diff", &f]);
    assert_eq!(code, 0, "{stdout}");
    // Where no GPU is present the GPU engine says so and is skipped.
    assert!(
        stdout.starts_with(&format!("{f}: interp = jit")),
        "{stdout}"
    );
    let ub = write(&d, "ub.ptx", ".reg .b32 R;\nmatch.any.sync.b32 R, R, 0;\n");
    let (code, stdout, _) = warpdiff(&["diff", &f, &ub]);
    assert_eq!(code, 3, "{stdout}");
    assert!(
        stdout.contains("not compared: undefined behaviour [not-in-membermask]"),
        "{stdout}"
    );
}

/// Without a GPU (CI): the GPU commands say so once and the CPU engines go
/// on. On a machine with a GPU this checks nothing GPU-specific and says so.
#[test]
fn gpu_commands_without_a_gpu() {
    let (code, out, err) = warpdiff(&["bench-gpu", "--batches", "1", "--seconds", "0"]);
    if !out.contains("no GPU found") {
        eprintln!("a GPU is present: this test checks the no-GPU path only ({out})");
        return;
    }
    assert_eq!(code, 0, "{out}{err}");
    let d = dir("nogpu");
    let corpus = d.join("corpus");
    let (code, out, err) = warpdiff(&[
        "fuzz",
        "--engines",
        "interp,jit,gpu",
        "--seconds",
        "1",
        "--seed",
        "3",
        "--corpus",
        corpus.to_str().expect("utf-8 path"),
    ]);
    assert_eq!(code, 0, "{out}{err}");
    assert_eq!(err.matches("no GPU found").count(), 1, "said once: {err}");
    assert!(out.contains("forms generated"), "{out}");
    // A case the GPU cannot run alone: reduce-hang explains instead of guessing.
    let f = write(
        &d,
        "one.ptx",
        ".reg .b32 R;\n.lanes R = 1;\n    add.u32 R, R, 1;\n",
    );
    let (code, _, err) = warpdiff(&[
        "reduce-hang",
        &f,
        "-o",
        d.join("out.ptx").to_str().expect("utf-8"),
    ]);
    assert_eq!(code, 2);
    assert!(
        err.contains("cannot tell whether it hangs: no GPU found"),
        "{err}"
    );
}

#[test]
fn a_bad_word_given_to_buffer_is_named_with_its_place() {
    // The buffer is read before the module is run: the module's name is
    // enough, its kernel never starts.
    let root = concat!(env!("CARGO_MANIFEST_DIR"), "/../../corpus/kernels/nvcc/");
    let module = format!("{root}saxpy.ptx");
    let (code, out, err) = warpdiff(&[
        "run",
        &module,
        "--kernel",
        "saxpy",
        "--grid",
        "1",
        "--block",
        "32",
        "--buffer",
        "in=u32:1,2,zz",
    ]);
    assert_eq!(code, 2, "{out}{err}");
    assert!(
        err.contains("--buffer `in=u32:1,2,zz`: word 3 `zz` is not a hex 32-bit word"),
        "{err}"
    );
    let (code, _, err) = warpdiff(&[
        "run",
        &module,
        "--kernel",
        "saxpy",
        "--buffer",
        "in=fill:1*many",
    ]);
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("`many` is not a word count"), "{err}");
}

/// Issue #39: `emit-ptx` writes the module for a case's own `.target`
/// even when no GPU here runs it (`sm_100a`; the test process sees no GPU
/// at all), with the dialect's lane ops written as PTX spells them; and
/// the reference runs the same case (ISA `cvt`: ".sat limits the result
/// to MININT..MAXINT for the size of the operation", so 300 is 127 as an
/// `.s8`; `mul.wide.s32` of 300 and -2 is -600 as an `.s64`).
#[test]
fn emit_ptx_of_an_sm_100a_case_needs_no_gpu() {
    let d = dir("emit-sm100a");
    let f = write(
        &d,
        "sm100a.ptx",
        "\
.version 9.1
.target sm_100a
.reg .f32 F, M;
.reg .s32 A;
.reg .s16 H;
.reg .s64 W;
.lanes F = 1.5;
.lanes A = 300;
    redux.sync.max.f32 M, F, 0xffffffff;
    cvt.sat.s8.s32 H, A;
    mul.wide.s32 W, A, -2;
.expect M = 1.5;
.expect H = 127;
.expect W = -600;
",
    );
    let (code, out, err) = warpdiff(&["emit-ptx", &f]);
    assert_eq!(code, 0, "{err}");
    assert!(out.contains(".target sm_100a"), "{out}");
    for line in ["redux.sync.max.f32 ", "cvt.sat.s8.s32 ", "mul.wide.s32 "] {
        assert!(out.contains(line), "no `{line}`:\n{out}");
    }
    let (code, out, err) = warpdiff(&["run", &f]);
    assert_eq!(code, 0, "{out}{err}");
}
