//! `warpdiff repro` without a GPU: the files it writes and what they hold
//! (nothing is compiled here; the GPU machine builds and runs them). The
//! expected words come from the case's `.lanes` and `.expect`, read by
//! hand: `%bd0` starts 1 and ends 0, `%p0` starts 0 and ends 1, no lane
//! exits.

use crate::common;

use common::warpdiff;
use std::path::PathBuf;

const CASE: &str = concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/../../corpus/shl.b64-8b46bd59.ptx"
);

fn tmp(name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("warpdiff-repro-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    d
}

/// The numbers of the C array `name` in `src`.
fn array(src: &str, name: &str) -> Vec<u64> {
    let start = src
        .find(&format!("{name}[] = {{"))
        .unwrap_or_else(|| panic!("array {name}"));
    let body = &src[start..];
    let body = &body[body.find('{').expect("{") + 1..body.find('}').expect("}")];
    body.split(',')
        .map(str::trim)
        .filter(|s| !s.is_empty())
        .map(|s| {
            u64::from_str_radix(s.trim_start_matches("0x").trim_end_matches("ull"), 16)
                .expect("hex")
        })
        .collect()
}

#[test]
fn writes_a_reproducer_with_the_buffers_and_the_expected_words() {
    let d = tmp("shl");
    let (code, out, err) = warpdiff(&["repro", CASE, "-o", d.to_str().expect("utf-8")]);
    assert_eq!(code, 0, "{out}{err}");
    for f in ["case.ptx", "kernel.ptx", "repro.cu", "build.sh", "NOTES.md"] {
        assert!(d.join(f).is_file(), "{f} written");
    }
    let cu = std::fs::read_to_string(d.join("repro.cu")).expect("read");
    let kernel = std::fs::read_to_string(d.join("kernel.ptx")).expect("read");
    // The PTX inside repro.cu is kernel.ptx, line for line.
    for line in kernel
        .lines()
        .filter(|l| !l.contains('"') && !l.contains('\\'))
    {
        assert!(
            cu.contains(&format!("\"{line}\\n\"")),
            "repro.cu lacks `{line}`"
        );
    }
    assert!(cu.contains("static const char KERNEL[] = \"k0\";"));
    // `--link` compiles through the driver's JIT linker (the fuzz loop's
    // compile helpers' path).
    for call in [
        "cuLinkCreate(",
        "cuLinkAddData(st, CU_JIT_INPUT_PTX",
        "cuLinkComplete(",
    ] {
        assert!(cu.contains(call), "repro.cu calls {call}");
    }
    assert!(cu.contains("#define REGS 2"));
    // Registers %bd0 (r0) and %p0 (r1), 32 words each, then 32 status words
    // (the trailing 0 closes the C array).
    let input = array(&cu, "IN");
    assert_eq!(&input[..32], &[1; 32]);
    assert_eq!(&input[32..64], &[0; 32]);
    let expect = array(&cu, "EXPECT");
    let defined = array(&cu, "DEFINED");
    assert_eq!(expect.len(), 96 + 1);
    assert_eq!(&expect[..32], &[0; 32], "%bd0 ends 0");
    assert_eq!(&expect[32..64], &[1; 32], "%p0 ends 1");
    assert_eq!(&expect[64..96], &[0; 32], "no lane exits");
    assert_eq!(&defined[..32], &[u64::MAX; 32], "all 64 bits of %bd0");
    assert_eq!(&defined[32..64], &[1; 32], "the predicate's bit");
    assert_eq!(&defined[64..96], &[1; 32]);
    let build = std::fs::read_to_string(d.join("build.sh")).expect("read");
    for cmd in [
        "nvcc -o repro repro.cu -lcuda",
        "-O0 kernel.ptx",
        "-O3 kernel.ptx",
        "cuobjdump -sass",
        "run -O $o",
        "run --link -O $o",
        "-O3 -c kernel.ptx",
        "timeout 20 ./repro",
    ] {
        assert!(build.contains(cmd), "build.sh runs `{cmd}`");
    }
    let notes = std::fs::read_to_string(d.join("NOTES.md")).expect("read");
    assert!(
        notes.contains("SEL R4, R6, RZ, P0"),
        "the case's explanation is quoted"
    );
    assert!(notes.contains("@!%p0 shl.b64 %bd0, 0, 0;"));
    assert!(
        notes.contains("Not run here"),
        "no GPU sweep without --gpu-sweep"
    );
    // Without --force an existing folder is not written into.
    let (code, _, err) = warpdiff(&["repro", CASE, "-o", d.to_str().expect("utf-8")]);
    assert_eq!(code, 2);
    assert!(err.contains("exists"), "{err}");
}

#[test]
fn a_case_with_undefined_behaviour_has_nothing_to_reproduce() {
    let d = tmp("ub");
    std::fs::create_dir_all(&d).expect("dir");
    let case = d.join("ub.ptx");
    std::fs::write(
        &case,
        ".reg .b32 r;\n    shfl.sync.idx.b32 r, 0, 0, 0x1f, 0x1;\n",
    )
    .expect("write");
    let (code, _, err) = warpdiff(&[
        "repro",
        case.to_str().expect("utf-8"),
        "-o",
        d.join("out").to_str().expect("utf-8"),
    ]);
    assert_eq!(code, 2);
    assert!(err.contains("undefined behaviour"), "{err}");
}

/// A batch of two cases as `fuzz` keeps it: `%r0` 7 then `+ 1` (the mate),
/// `%r0` 5 then `+ 2` (the case that diverged, index `diverged`).
fn two_case_batch(diverged: usize) -> String {
    let mark = |i: usize| {
        if i == diverged {
            format!("// ==== batch case {i} (diverged) ====\n")
        } else {
            format!("// ==== batch case {i} ====\n")
        }
    };
    format!(
        "// warpdiff GPU batch: 2 case(s), run as one batch in this order; case {diverged} diverged.\n\
         {}.version 7.8\n.target sm_90\n.reg .b32 %r0;\n.lanes %r0 = 7;\n    add.u32 %r0, %r0, 1;\n\
         {}.version 7.8\n.target sm_90\n.reg .b32 %r0;\n.lanes %r0 = 5;\n    add.u32 %r0, %r0, 2;\n",
        mark(0),
        mark(1)
    )
}

/// `warpdiff repro` of [`two_case_batch`]`(diverged)` written to a file
/// beside the output folder, with `extra` arguments: the exit code, stdout,
/// stderr and the output folder (the batch file is removed).
fn repro_of_batch(name: &str, diverged: usize, extra: &[&str]) -> (i32, String, String, PathBuf) {
    let d = tmp(name);
    let f = d.with_extension("batch.txt");
    std::fs::write(&f, two_case_batch(diverged)).expect("write");
    let mut args = vec![
        "repro",
        f.to_str().expect("utf-8"),
        "-o",
        d.to_str().expect("utf-8"),
    ];
    args.extend_from_slice(extra);
    let (code, out, err) = warpdiff(&args);
    let _ = std::fs::remove_file(&f);
    (code, out, err, d)
}

#[test]
fn a_batch_file_reproduces_its_diverged_case_after_its_mates() {
    let (code, out, err, d) = repro_of_batch("batch", 1, &[]);
    assert_eq!(code, 0, "{out}{err}");
    assert!(out.contains("batch.txt"), "{out}");
    assert!(d.join("batch.txt").is_file());
    let cu = std::fs::read_to_string(d.join("repro.cu")).expect("read");
    // The checked kernel is the second one; the first runs before it.
    assert!(cu.contains("static const char KERNEL[] = \"k1\";"), "{cu}");
    assert!(cu.contains("#define MATES 1"));
    assert!(cu.contains("static const char *MATE_NAME[] = {\"k0\"};"));
    // `.lanes %r0 = 7` for the mate, 5 for the case, on all 32 lanes.
    assert_eq!(&array(&cu, "MATE_IN0")[..32], &[7; 32]);
    assert_eq!(&array(&cu, "IN")[..32], &[5; 32]);
    // 5 + 2 on every lane, and no lane exits.
    let expect = array(&cu, "EXPECT");
    assert_eq!(&expect[..32], &[7; 32]);
    assert_eq!(&expect[32..64], &[0; 32]);
    let case = std::fs::read_to_string(d.join("case.ptx")).expect("read");
    assert!(case.contains("add.u32 %r0, %r0, 2;"), "{case}");
    assert!(!case.contains("add.u32 %r0, %r0, 1;"), "{case}");
    let notes = std::fs::read_to_string(d.join("NOTES.md")).expect("read");
    assert!(notes.contains("`k0` (batch case 0)"), "{notes}");
    let _ = std::fs::remove_dir_all(&d);
}

#[test]
fn a_batch_whose_first_case_diverged_runs_no_mate() {
    let (code, out, err, d) = repro_of_batch("batch0", 0, &[]);
    assert_eq!(code, 0, "{out}{err}");
    let cu = std::fs::read_to_string(d.join("repro.cu")).expect("read");
    assert!(cu.contains("static const char KERNEL[] = \"k0\";"));
    assert!(cu.contains("#define MATES 0"));
    // 7 + 1 on every lane.
    assert_eq!(&array(&cu, "EXPECT")[..32], &[8; 32]);
    let _ = std::fs::remove_dir_all(&d);
}

#[test]
fn a_batch_cannot_be_swept_alone() {
    let (code, _out, err, _d) = repro_of_batch("batchsweep", 1, &["--gpu-sweep"]);
    assert_eq!(code, 2);
    assert!(err.contains("--gpu-sweep runs one case alone"), "{err}");
}
