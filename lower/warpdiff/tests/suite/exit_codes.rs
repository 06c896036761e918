//! `warpdiff run`'s exit statuses mean the same on every engine (issue
//! #41): a kernel's out-of-bounds store is 3, with one line naming lane,
//! `%tid`, instruction and address, on the interpreter and on the JIT; a
//! file that does not parse, a bad `.launch` word and a bad `--buffer`
//! word are 2, each named where it is.

use std::path::PathBuf;
use std::process::{Command, Output};

/// `out[%tid.x] = %tid.x`, written by hand; the store is on line 13.
const OOB: &str = include_str!("../../../../core/tests/data/oob_store.ptx");

/// A fresh directory for this test's files.
fn tmp(name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("warpdiff-exit-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).expect("a temp dir");
    d
}

/// `warpdiff run ARGS`.
fn run(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_warpdiff"))
        .arg("run")
        .args(args)
        .output()
        .expect("warpdiff runs")
}

fn text(o: &Output) -> String {
    format!(
        "{}{}",
        String::from_utf8_lossy(&o.stdout),
        String::from_utf8_lossy(&o.stderr)
    )
}

#[test]
fn an_out_of_bounds_store_is_exit_3_on_the_interpreter_and_the_jit() {
    let d = tmp("oob");
    let ptx = d.join("oob.ptx");
    std::fs::write(&ptx, OOB).expect("written");
    let ptx = ptx.to_str().expect("a UTF-8 path");
    // 40 threads, 32 words: thread 32 (warp 1, lane 0) stores 4 bytes at
    // byte 0x80 of buffer 0, which starts at 0x20_0000_0000.
    let flags = [
        ptx,
        "--kernel",
        "oob",
        "--block",
        "40",
        "--buffer",
        "out=fill:0*32",
        "--param",
        "oob_param_0=buffer:out",
    ];
    let want = format!(
        "{ptx}:13: cta (0,0,0) warp 1: undefined behaviour [memory-out-of-bounds] at line 13, lanes 0x00000001: lane 0 (%tid (32,0,0)), `st.global.u32 [%rd4], %r1;`: address 0x2000000080 (4 bytes) is outside every buffer and .global/.const variable"
    );
    for engine in ["interp", "jit"] {
        let o = run(&[&flags[..], &["--engine", engine]].concat());
        assert_eq!(o.status.code(), Some(3), "{engine}: {}", text(&o));
        let out = String::from_utf8_lossy(&o.stdout);
        assert!(
            out.lines().any(|l| l == want),
            "{engine}: no line `{want}` in:\n{}",
            text(&o)
        );
    }
    // 32 threads store in bounds: exit 0 on both.
    let mut ok = flags.to_vec();
    ok[4] = "32";
    for engine in ["interp", "jit"] {
        let o = run(&[&ok[..], &["--engine", engine]].concat());
        assert_eq!(o.status.code(), Some(0), "{engine}: {}", text(&o));
    }
}

#[test]
fn bad_files_and_flags_are_exit_2_named_where_they_are() {
    let d = tmp("bad");
    // `\tst.global.u33 ...` on line 13: the opcode at column 2 (after a tab).
    let bad = d.join("bad.ptx");
    std::fs::write(&bad, OOB.replace("st.global.u32", "st.global.u33")).expect("written");
    let bad = bad.to_str().expect("a UTF-8 path");
    let good = d.join("oob.ptx");
    std::fs::write(&good, OOB).expect("written");
    let good = good.to_str().expect("a UTF-8 path");
    // `buffer out u32 0 1 zz`: buffer 1-6, out 8-10, u32 12-14, 0 at 16, 1
    // at 18, zz at 20 of line 2.
    let launch = d.join("oob.launch");
    std::fs::write(
        &launch,
        "kernel oob\nbuffer out u32 0 1 zz\nparam oob_param_0 buffer out\n",
    )
    .expect("written");
    let launch = launch.to_str().expect("a UTF-8 path");
    for engine in ["interp", "jit"] {
        let o = run(&[bad, "--kernel", "oob", "--engine", engine]);
        assert_eq!(o.status.code(), Some(2), "{engine}: {}", text(&o));
        assert!(
            text(&o).contains(&format!("{bad}:13:2: ")),
            "{engine}: {}",
            text(&o)
        );
        let o = run(&[good, "--launch", launch, "--engine", engine]);
        assert_eq!(o.status.code(), Some(2), "{engine}: {}", text(&o));
        assert!(
            text(&o).contains(&format!(
                "{launch}:2:20: bad hex word `zz` (word 3 of the list)"
            )),
            "{engine}: {}",
            text(&o)
        );
        let o = run(&[
            good,
            "--kernel",
            "oob",
            "--buffer",
            "out=u32:1,2,zz",
            "--engine",
            engine,
        ]);
        assert_eq!(o.status.code(), Some(2), "{engine}: {}", text(&o));
        assert!(
            text(&o).contains("--buffer `out=u32:1,2,zz`: word 3 `zz` is not a hex 32-bit word"),
            "{engine}: {}",
            text(&o)
        );
    }
}
