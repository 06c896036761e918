//! `warpdiff check` end to end: exit statuses (0 clean, 1 reports, 2 bad
//! input, 3 undefined behaviour), `--json`, `--convergence`, and the
//! text report's origin line, on `corpus/check/hand/` and small modules.

use crate::common;

use common::{warpdiff, write};

fn hand(name: &str) -> (String, String) {
    let d = concat!(env!("CARGO_MANIFEST_DIR"), "/../../corpus/check/hand");
    (format!("{d}/{name}.ptx"), format!("{d}/{name}.launch"))
}

#[test]
fn a_bug_reports_with_its_origin_and_its_twin_is_clean() {
    let (ptx, launch) = hand("odd_lanes_shfl");
    let (code, out, _) = warpdiff(&["check", &ptx, "--launch", &launch]);
    assert_eq!(code, 1, "{out}");
    assert!(
        out.contains("global-store: cta (0,0,0) warp 0 lanes 0xaaaaaaaa"),
        "{out}"
    );
    assert!(
        out.contains("lane 1 reads lane 0, which is not in the membermask 0xaaaaaaaa"),
        "{out}"
    );
    let (ptx, launch) = hand("odd_lanes_shfl_fixed");
    let (code, out, _) = warpdiff(&["check", &ptx, "--launch", &launch]);
    assert_eq!(code, 0, "{out}");
    assert!(out.contains("0 report(s)"), "{out}");
}

#[test]
fn json_names_the_origin_and_the_chain() {
    let (ptx, launch) = hand("half_written_shared");
    let (code, out, _) = warpdiff(&["check", "--json", &ptx, "--launch", &launch]);
    assert_eq!(code, 1, "{out}");
    let v: serde_json::Value = serde_json::from_str(out.trim()).expect("one JSON object");
    assert_eq!(v["exit"], 1);
    assert_eq!(v["convergence"], "spec");
    let r = &v["reports"][0];
    assert_eq!(r["kind"], "global-store");
    // Threads 16-31 read words nothing wrote.
    assert_eq!(r["lanes"], 0xffff_0000u32);
    assert_eq!(r["origin"]["kind"], "unwritten-memory");
    assert_eq!(r["origin"]["text"], "ld.shared.u32 %r6, [%r4];");
    assert_eq!(r["origin"]["col"], 2);
    assert_eq!(v["reports"].as_array().map(Vec::len), Some(1));
    // Unwritten shared memory is undefined in either model.
    assert_eq!(r["spec_only"], false);
}

#[test]
fn the_model_decides_an_activemask_count() {
    let (ptx, launch) = hand("popc_activemask");
    let (code, out, _) = warpdiff(&["check", &ptx, "--launch", &launch]);
    assert_eq!(code, 1, "{out}");
    assert!(out.contains("origin [activemask-schedule]"), "{out}");
    assert!(out.contains("(spec model only:"), "{out}");
    let (code, out, _) = warpdiff(&[
        "check",
        &ptx,
        "--launch",
        &launch,
        "--convergence",
        "observed",
    ]);
    assert_eq!(code, 0, "{out}");
}

#[test]
fn bad_input_is_2_and_undefined_behaviour_is_3() {
    let d = common::dir("check", "codes");
    let (ptx, _) = hand("odd_lanes_shfl");
    let (code, _, err) = warpdiff(&["check", &ptx, "--kernel", "nope"]);
    assert_eq!(code, 2);
    assert!(err.contains("no kernel `nope`"), "{err}");
    let bad = write(
        &d,
        "bad.ptx",
        ".version 9.0\n.target sm_90\n.address_size 64\n.visible .entry k()\n{\n\tfrobnicate.u32 %r1;\n}\n",
    );
    let (code, _, err) = warpdiff(&["check", &bad, "--kernel", "k"]);
    assert_eq!(code, 2);
    assert!(err.contains("bad.ptx:6:"), "{err}");
    // A branch on a predicate nothing wrote: reported, and UB.
    let ub = write(
        &d,
        "ub.ptx",
        ".version 9.0\n.target sm_90\n.address_size 64\n.visible .entry k()\n{\n\t.reg .pred %p<2>;\n\t@%p1 bra $L;\n$L:\n\tret;\n}\n",
    );
    let (code, out, _) = warpdiff(&["check", &ub, "--kernel", "k", "--block", "32"]);
    assert_eq!(code, 3, "{out}");
    assert!(out.contains("branch-condition"), "{out}");
    assert!(out.contains("origin [never-written]"), "{out}");
}
