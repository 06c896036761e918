//! `warpdiff diff kernel.ptx --launch F.launch` and `warpdiff run --engine
//! gpu` on kernels (issue #13), end to end, with no GPU whatever the host
//! has: bytes the reference leaves undefined are counted and not compared,
//! the GPU engine is skipped with its reason, undefined behaviour and bad
//! arguments give their exit statuses.

use crate::common;

use common::{warpdiff, write};

/// A scratch directory for test `name`.
fn dir(name: &str) -> std::path::PathBuf {
    common::dir("kdiff", name)
}

/// Every lane stores its %tid.x to word 0 (one store of one instruction:
/// which lane's value lands is the schedule's, so byte 0 is undefined and
/// bytes 1..3, zero in every lane's value, are defined) and to word
/// 1 + %tid.x. With `shfl` the kernel instead runs a `shfl.sync` whose
/// membermask leaves out lanes 1..31: undefined behaviour.
fn kernel(shfl: bool) -> String {
    let body = if shfl {
        "shfl.sync.idx.b32 %r2, %r1, 0, 31, 1;"
    } else {
        "mov.u32 %r2, %r1;"
    };
    format!(
        "
.version 8.0
.target sm_70
.address_size 64

.visible .entry k(.param .u64 k_param_0)
{{
    .reg .b32 %r<4>;
    .reg .b64 %rd<4>;
    ld.param.u64 %rd1, [k_param_0];
    cvta.to.global.u64 %rd2, %rd1;
    mov.u32 %r1, %tid.x;
    {body}
    st.global.u32 [%rd2], %r2;
    mul.wide.u32 %rd3, %r1, 4;
    add.s64 %rd3, %rd2, %rd3;
    st.global.u32 [%rd3+4], %r1;
    ret;
}}
"
    )
}

const LAUNCH: &str =
    "kernel k\nblock 32\nbuffer out fill aaaaaaaa 33\nparam k_param_0 buffer out\n";

#[test]
fn undefined_bytes_are_counted_and_a_missing_gpu_is_a_skip() {
    let d = dir("skip");
    let ptx = write(&d, "race.ptx", &kernel(false));
    let launch = write(&d, "race.launch", LAUNCH);
    let (code, out, err) =
        warpdiff(&["diff", &ptx, "--launch", &launch, "--engines", "interp,gpu"]);
    assert_eq!(code, 0, "{out}{err}");
    assert!(out.contains("131 of 132 bytes defined"), "{out}");
    assert!(
        out.contains("  gpu: skipped (no CUDA driver or GPU: "),
        "{out}"
    );
    // `run` on the GPU cannot skip: it says why it did not run.
    let (code, _, err) = warpdiff(&["run", &ptx, "--launch", &launch, "--engine", "gpu"]);
    assert_eq!(code, 2, "{err}");
    assert!(
        err.contains("gpu cannot run here: no CUDA driver or GPU"),
        "{err}"
    );
}

#[test]
fn reference_ub_is_not_compared_and_bad_arguments_are_errors() {
    let d = dir("ub");
    let ptx = write(&d, "ub.ptx", &kernel(true));
    let launch = write(&d, "ub.launch", LAUNCH);
    let (code, out, err) =
        warpdiff(&["diff", &ptx, "--launch", &launch, "--engines", "interp,gpu"]);
    assert_eq!(code, 3, "{out}{err}");
    assert!(out.contains("[not-in-membermask]"), "{out}");
    assert!(out.contains("not compared"), "{out}");
    let ok = write(&d, "ok.ptx", &kernel(false));
    for (extra, want) in [
        (
            vec!["--param", "nope=1"],
            "kernel `k` has no parameter `nope`",
        ),
        (vec!["--expect", "x.expect"], "--expect and --out belong to"),
        (
            vec!["--engines", "interp,cmd:sim"],
            "external engines do not run PTX modules",
        ),
    ] {
        let mut args = vec!["diff", ok.as_str(), "--launch", launch.as_str()];
        args.extend(extra);
        let (code, out, err) = warpdiff(&args);
        assert_eq!(code, 2, "{args:?}: {out}{err}");
        assert!(err.contains(want), "{args:?}: {err}");
    }
}
