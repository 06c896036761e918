//! `warpdiff check`'s checker (`warp_core::sanitize`, issue #38): one small
//! hand-written kernel per origin kind and escape kind, with the report
//! expected by hand (instruction, lanes, origin and its cause), and a
//! fixed twin of each on which nothing is reported; then the bug patterns
//! of `corpus/check/`.

use std::path::{Path, PathBuf};
use warp_core::launch::Launch;
use warp_core::sanitize::{check_launch, Checked, Finding, Model, Options, Report};
use warp_core::text::parse_module;

const HEAD: &str = ".version 9.0\n.target sm_90\n.address_size 64\n";

/// Checks kernel `k` of `ptx` (after [`HEAD`]) with `block` threads, one
/// 64-word buffer `out` as its one parameter `k_param_0`.
fn check_with(ptx: &str, block: u32, model: Model) -> (String, Checked) {
    check_head(HEAD, ptx, block, model)
}

/// [`check_with`] under another `.version`/`.target` header.
fn check_head(head: &str, ptx: &str, block: u32, model: Model) -> (String, Checked) {
    let src = format!("{head}{ptx}");
    let module = parse_module(&src).unwrap_or_else(|e| panic!("{e}"));
    let launch = Launch::parse(
        &format!(
            "kernel k\ngrid 1\nblock {block}\nbuffer out fill aaaaaaaa 64\nparam k_param_0 buffer out\n"
        ),
        "test.launch",
        Path::new("."),
    )
    .expect("a launch");
    let c = check_launch(&module, &launch, Options { model, races: true }).expect("a run");
    (src, c)
}

fn check(ptx: &str, block: u32) -> (String, Checked) {
    check_with(ptx, block, Model::Spec)
}

/// The 1-based line of `src` that holds `text` (once).
fn line_of(src: &str, text: &str) -> u32 {
    let hits: Vec<usize> = src
        .lines()
        .enumerate()
        .filter(|(_, l)| l.contains(text))
        .map(|(i, _)| i)
        .collect();
    assert_eq!(hits.len(), 1, "`{text}` should be on one line");
    hits[0] as u32 + 1
}

/// The one report of `c`.
fn only(c: &Checked) -> &Report {
    assert_eq!(c.reports.len(), 1, "{:#?}", c.reports);
    &c.reports[0]
}

/// Asserts `r` is an escape of `kind` at the line holding `at`, with
/// `lanes`, whose origin is at the line holding `origin` for `cause`, and
/// returns the lines of the instructions that carried it.
fn escape(
    src: &str,
    r: &Report,
    kind: &str,
    at: &str,
    lanes: u32,
    origin: &str,
    cause: &str,
) -> Vec<u32> {
    assert_eq!(r.kind(), kind, "{r:#?}");
    assert_eq!(r.at.line, line_of(src, at), "{r:#?}");
    assert_eq!(r.lanes, lanes, "{r:#?}");
    let Finding::Escape {
        origin: Some(o),
        carried,
        ..
    } = &r.finding
    else {
        panic!("an escape with an origin: {r:#?}")
    };
    assert_eq!(o.at.line, line_of(src, origin), "{r:#?}");
    assert_eq!(o.cause.kind(), cause, "{r:#?}");
    carried.iter().map(|s| s.line).collect()
}

/// The prologue every small kernel shares: `%rd2` = &out[tid], `%r1` = tid.
const PRO: &str = "
.visible .entry k(.param .u64 k_param_0)
{
	.reg .pred 	%p<4>;
	.reg .b32 	%r<12>;
	.reg .b64 	%rd<6>;
	ld.param.u64 	%rd1, [k_param_0];
	cvta.to.global.u64 	%rd2, %rd1;
	mov.u32 	%r1, %tid.x;
	mul.wide.u32 	%rd3, %r1, 4;
	add.s64 	%rd2, %rd2, %rd3;
";

#[test]
fn a_never_written_register_stored_names_its_first_reader() {
    let (src, c) = check(
        &format!("{PRO}\tadd.s32 \t%r3, %r2, 1;\n\tst.global.u32 \t[%rd2], %r3;\n\tret;\n}}\n"),
        32,
    );
    let carried = escape(
        &src,
        only(&c),
        "global-store",
        "st.global.u32",
        u32::MAX,
        "add.s32 \t%r3, %r2, 1",
        "never-written",
    );
    assert!(carried.is_empty());
    assert!(c.outcome.ub.is_none());
    // Its twin writes %r2 first.
    let (_, c) = check(
        &format!("{PRO}\tmov.u32 \t%r2, 7;\n\tadd.s32 \t%r3, %r2, 1;\n\tst.global.u32 \t[%rd2], %r3;\n\tret;\n}}\n"),
        32,
    );
    assert!(c.reports.is_empty(), "{:#?}", c.reports);
}

#[test]
fn a_shuffle_from_an_exited_lane_is_named_with_both_lanes() {
    let body = |exit: &str| {
        format!(
            "{PRO}\tsetp.gt.u32 \t%p1, %r1, 15;\n\t@%p1 {exit};\n\tshfl.sync.down.b32 \t%r2|%p2, %r1, 16, 31, -1;\n\tst.global.u32 \t[%rd2], %r2;\n$L_end:\n\tret;\n}}\n"
        )
    };
    let (src, c) = check(&body("exit"), 32);
    let carried = escape(
        &src,
        only(&c),
        "global-store",
        "st.global.u32",
        0x0000_ffff,
        "shfl.sync.down",
        "source-exited",
    );
    assert!(carried.is_empty());
    let Finding::Escape {
        origin: Some(o), ..
    } = &only(&c).finding
    else {
        unreachable!()
    };
    assert_eq!(o.cause.describe(), "lane 0 reads lane 16, which has exited");
    // Twin: lanes 16-31 branch around a shuffle whose membermask is the
    // other 16 lanes, which read each other only.
    let (_, c) = check(
        &format!(
            "{PRO}\tsetp.gt.u32 \t%p1, %r1, 15;\n\t@%p1 bra $L_end;\n\tshfl.sync.down.b32 \t%r2|%p2, %r1, 8, 15, 0xffff;\n\tst.global.u32 \t[%rd2], %r2;\n$L_end:\n\tret;\n}}\n"
        ),
        32,
    );
    assert!(c.reports.is_empty(), "{:#?}", c.reports);
}

#[test]
fn a_shuffle_from_a_lane_a_partial_warp_lacks_is_named() {
    let body = |b: u32| {
        format!(
            "{PRO}\tshfl.sync.down.b32 \t%r2|%p2, %r1, {b}, 31, -1;\n\tst.global.u32 \t[%rd2], %r2;\n\tret;\n}}\n"
        )
    };
    // 24 threads: lanes 16-23 read lanes 24-31, which do not exist.
    let (src, c) = check(&body(8), 24);
    escape(
        &src,
        only(&c),
        "global-store",
        "st.global.u32",
        0x00ff_0000,
        "shfl.sync.down",
        "source-absent",
    );
    // A full warp: every source exists.
    let (_, c) = check(&body(8), 32);
    assert!(c.reports.is_empty(), "{:#?}", c.reports);
}

#[test]
fn unwritten_local_memory_is_an_origin() {
    let body = |store: &str| {
        format!(
            "{PRO}\t.local .align 4 .b8 \tbuf[8];\n{store}\tld.local.u32 \t%r2, [buf+4];\n\tadd.s32 \t%r3, %r2, %r1;\n\tst.global.u32 \t[%rd2], %r3;\n\tret;\n}}\n"
        )
    };
    let (src, c) = check(&body(""), 32);
    let carried = escape(
        &src,
        only(&c),
        "global-store",
        "st.global.u32",
        u32::MAX,
        "ld.local.u32",
        "unwritten-memory",
    );
    assert_eq!(carried, vec![line_of(&src, "add.s32 \t%r3")]);
    let (_, c) = check(&body("\tst.local.u32 \t[buf+4], %r1;\n"), 32);
    assert!(c.reports.is_empty(), "{:#?}", c.reports);
}

#[test]
fn lanes_of_one_store_writing_one_byte_differently_are_an_origin_carried_by_the_load() {
    let body = |value: &str| {
        format!(
            "{PRO}\t.shared .align 4 .b8 \ts[4];\n\tst.shared.u32 \t[s], {value};\n\tbar.sync \t0;\n\tld.shared.u32 \t%r2, [s];\n\tst.global.u32 \t[%rd2], %r2;\n\tret;\n}}\n"
        )
    };
    let (src, c) = check(&body("%r1"), 32);
    let carried = escape(
        &src,
        only(&c),
        "global-store",
        "st.global.u32",
        u32::MAX,
        "st.shared.u32",
        "store-clash",
    );
    assert_eq!(carried, vec![line_of(&src, "ld.shared.u32")]);
    // Every lane writes the same value: defined, and no race.
    let (_, c) = check(&body("5"), 32);
    assert!(c.reports.is_empty(), "{:#?}", c.reports);
}

#[test]
fn an_undefined_branch_condition_is_reported_and_is_undefined_behaviour() {
    let (src, c) = check(
        &format!("{PRO}\t@%p3 bra $L_end;\n\tst.global.u32 \t[%rd2], %r1;\n$L_end:\n\tret;\n}}\n"),
        32,
    );
    escape(
        &src,
        only(&c),
        "branch-condition",
        "@%p3 bra",
        u32::MAX,
        "@%p3 bra",
        "never-written",
    );
    assert!(c.outcome.ub.is_some());
}

#[test]
fn undefined_guards_of_a_collective_a_store_and_a_barrier_are_reported() {
    for (inst, kind) in [
        (
            "@%p3 shfl.sync.idx.b32 \t%r2|%p2, %r1, 0, 31, -1;",
            "collective-guard",
        ),
        ("@%p3 st.global.u32 \t[%rd2], %r1;", "store-guard"),
        ("@%p3 bar.sync \t0;", "barrier-guard"),
    ] {
        let (src, c) = check(&format!("{PRO}\t{inst}\n\tret;\n}}\n"), 32);
        escape(
            &src,
            only(&c),
            kind,
            "@%p3",
            u32::MAX,
            "@%p3",
            "never-written",
        );
        assert!(c.outcome.ub.is_some(), "{inst}");
        // With the guard written, nothing.
        let (_, c) = check(
            &format!("{PRO}\tsetp.lt.u32 \t%p3, %r1, 64;\n\t{inst}\n\tret;\n}}\n"),
            32,
        );
        assert!(c.reports.is_empty(), "{inst}: {:#?}", c.reports);
    }
}

#[test]
fn an_undefined_address_names_where_the_address_came_from() {
    let (src, c) = check(
        &format!(
            "{PRO}\t.shared .align 4 .b8 \ts[128];\n\tld.shared.u32 \t%r2, [s+4];\n\tld.shared.u32 \t%r3, [%r2];\n\tst.global.u32 \t[%rd2], %r3;\n\tret;\n}}\n"
        ),
        32,
    );
    escape(
        &src,
        only(&c),
        "address",
        "ld.shared.u32 \t%r3",
        u32::MAX,
        "ld.shared.u32 \t%r2",
        "unwritten-memory",
    );
    assert!(c.outcome.ub.is_some());
}

#[test]
fn activemask_as_membermask_is_undefined_in_the_spec_model_only() {
    let ptx = format!(
        "{PRO}\tactivemask.b32 \t%r2;\n\tshfl.sync.idx.b32 \t%r3|%p1, %r1, 0, 31, %r2;\n\tst.global.u32 \t[%rd2], %r3;\n\tret;\n}}\n"
    );
    let (src, c) = check_with(&ptx, 32, Model::Spec);
    assert_eq!(c.reports.len(), 2, "{:#?}", c.reports);
    escape(
        &src,
        &c.reports[0],
        "membermask",
        "shfl.sync.idx",
        u32::MAX,
        "activemask",
        "activemask-schedule",
    );
    // The shuffle's result is undefined too, charged to the same origin.
    let carried = escape(
        &src,
        &c.reports[1],
        "global-store",
        "st.global.u32",
        u32::MAX,
        "activemask",
        "activemask-schedule",
    );
    assert_eq!(carried, vec![line_of(&src, "shfl.sync.idx")]);
    // What every H200 run showed: the whole warp together at kernel start.
    let (_, c) = check_with(&ptx, 32, Model::Observed);
    assert!(c.reports.is_empty(), "{:#?}", c.reports);
}

/// The deprecated forms need `.version 6.3` on sm_70.
const OLD: &str = ".version 6.3\n.target sm_70\n.address_size 64\n";

#[test]
fn a_deprecated_vote_sees_other_lanes_only_by_the_schedule() {
    let ptx = format!(
        "{PRO}\tsetp.ne.u32 \t%p1, %r1, 99;\n\tvote.ballot.b32 \t%r2, %p1;\n\tst.global.u32 \t[%rd2], %r2;\n\tret;\n}}\n"
    );
    let (src, c) = check_head(OLD, &ptx, 32, Model::Spec);
    escape(
        &src,
        only(&c),
        "global-store",
        "st.global.u32",
        u32::MAX,
        "vote.ballot.b32",
        "deprecated-schedule",
    );
    // Observed: the whole warp runs together at kernel start.
    let (_, c) = check_head(OLD, &ptx, 32, Model::Observed);
    assert!(c.reports.is_empty(), "{:#?}", c.reports);
}

#[test]
fn a_deprecated_shuffle_reads_a_lane_not_certainly_with_it() {
    let ptx = format!(
        "{PRO}\tshfl.down.b32 \t%r2, %r1, 1, 31;\n\tst.global.u32 \t[%rd2], %r2;\n\tret;\n}}\n"
    );
    let (src, c) = check_head(OLD, &ptx, 32, Model::Spec);
    // Lane 31 reads itself (past the clamp): defined.
    escape(
        &src,
        only(&c),
        "global-store",
        "st.global.u32",
        0x7fff_ffff,
        "shfl.down.b32",
        "source-inactive",
    );
    let (_, c) = check_head(OLD, &ptx, 32, Model::Observed);
    assert!(c.reports.is_empty(), "{:#?}", c.reports);
}

#[test]
fn on_a_lockstep_target_a_source_outside_the_membermask_is_named_too() {
    // sm_6x runs the collective at once, with no waiting lanes: lanes
    // 1-31 shuffle with membermask 0xfffffffe and read lane 0.
    let ptx = format!(
        "{PRO}\tsetp.eq.u32 \t%p1, %r1, 0;\n\t@%p1 bra $L_end;\n\tshfl.sync.idx.b32 \t%r2|%p2, %r1, 0, 31, 0xfffffffe;\n\tst.global.u32 \t[%rd2], %r2;\n$L_end:\n\tret;\n}}\n"
    );
    let head = ".version 6.0\n.target sm_60\n.address_size 64\n";
    let (src, c) = check_head(head, &ptx, 32, Model::Spec);
    escape(
        &src,
        only(&c),
        "global-store",
        "st.global.u32",
        0xffff_fffe,
        "shfl.sync.idx",
        "source-outside-membermask",
    );
}

#[test]
fn storing_a_nan_whose_bits_ptx_leaves_open_names_the_register() {
    let body = |x: &str| {
        format!(
            "{PRO}\t.reg .f32 \t%f<4>;\n\tmov.f32 \t%f1, {x};\n\tadd.f32 \t%f2, %f1, %f1;\n\tst.global.f32 \t[%rd2], %f2;\n\tret;\n}}\n"
        )
    };
    // NaN + NaN: a NaN whose payload the ISA does not fix; the store
    // writes its bits.
    let (src, c) = check(&body("0f7FC00000"), 32);
    let carried = escape(
        &src,
        only(&c),
        "global-store",
        "st.global.f32",
        u32::MAX,
        "st.global.f32",
        "open-nan",
    );
    assert!(carried.is_empty());
    // 1.5 + 1.5 = 3.0: nothing open.
    let (_, c) = check(&body("0f3FC00000"), 32);
    assert!(c.reports.is_empty(), "{:#?}", c.reports);
}

#[test]
fn neighbours_reading_each_others_words_race_without_a_warp_barrier() {
    let body = |sync: &str| {
        format!(
            "{PRO}\t.shared .align 4 .b8 \ts[132];\n\tshl.b32 \t%r2, %r1, 2;\n\tmov.u32 \t%r3, s;\n\tadd.s32 \t%r4, %r3, %r2;\n\tst.shared.u32 \t[%r4], %r1;\n{sync}\tld.shared.u32 \t%r5, [%r4+4];\n\tst.global.u32 \t[%rd2], %r5;\n\tret;\n}}\n"
        )
    };
    let (src, c) = check(&body(""), 32);
    // Lane 31 reads s[32], which nobody wrote: that escapes too.
    let races: Vec<&Report> = c
        .reports
        .iter()
        .filter(|r| r.kind() == "warp-race")
        .collect();
    assert_eq!(races.len(), 1, "{:#?}", c.reports);
    let r = races[0];
    assert_eq!(r.at.line, line_of(&src, "st.shared.u32"));
    let Finding::WarpRace {
        first_lane,
        first_write,
        second,
        second_lane,
        second_write,
    } = &r.finding
    else {
        unreachable!()
    };
    assert_eq!(second.line, line_of(&src, "ld.shared.u32"));
    // Lane 1 wrote s[1]; lane 0 reads it.
    assert_eq!((*first_lane, *first_write), (1, true));
    assert_eq!((*second_lane, *second_write), (0, false));
    let escapes: Vec<&Report> = c
        .reports
        .iter()
        .filter(|r| r.kind() != "warp-race")
        .collect();
    assert_eq!(escapes.len(), 1);
    escape(
        &src,
        escapes[0],
        "global-store",
        "st.global.u32",
        1 << 31,
        "ld.shared.u32",
        "unwritten-memory",
    );
    // With `__syncwarp()` between: no race (lane 31's escape stays).
    let (_, c) = check(&body("\tbar.warp.sync \t-1;\n"), 32);
    assert!(
        c.reports.iter().all(|r| r.kind() != "warp-race"),
        "{:#?}",
        c.reports
    );
    assert_eq!(c.reports.len(), 1);
}

// ---- corpus/check: the bug patterns and their fixed twins ----

fn corpus() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../corpus/check/hand")
}

fn check_corpus(name: &str, model: Model) -> (String, Checked) {
    let dir = corpus();
    let ptx = std::fs::read_to_string(dir.join(format!("{name}.ptx"))).expect("the module");
    let module = parse_module(&ptx).unwrap_or_else(|e| panic!("{name}: {e}"));
    let lf = dir.join(format!("{name}.launch"));
    let text = std::fs::read_to_string(&lf).expect("the launch");
    let launch = Launch::parse(&text, &lf.display().to_string(), &dir).expect("a launch");
    let c = check_launch(&module, &launch, Options { model, races: true }).expect("a run");
    (ptx, c)
}

#[test]
fn reduce7s_final_warp_is_charged_to_its_first_shuffle_outside_the_ballot() {
    let (src, c) = check_corpus("reduce7_final_warp", Model::Spec);
    let r = only(&c);
    assert_eq!(r.kind(), "global-store");
    assert_eq!(r.at.line, line_of(&src, "st.global.f32"));
    assert_eq!(r.lanes, 1);
    let Finding::Escape {
        origin: Some(o), ..
    } = &r.finding
    else {
        panic!("{r:#?}")
    };
    assert_eq!(o.at.line, line_of(&src, "%r23|%p1, %r22, 16, 31, %r18"));
    assert_eq!(
        o.cause.describe(),
        "lane 0 reads lane 16, which is not in the membermask 0x00000001"
    );
    let (_, c) = check_corpus("reduce7_final_warp_fixed", Model::Spec);
    assert!(c.reports.is_empty(), "{:#?}", c.reports);
}

#[test]
fn odd_lanes_reading_even_lanes_outside_their_membermask_are_reported() {
    let (src, c) = check_corpus("odd_lanes_shfl", Model::Spec);
    let r = only(&c);
    escape(
        &src,
        r,
        "global-store",
        "st.global.u32",
        0xaaaa_aaaa,
        "shfl.sync.idx",
        "source-outside-membermask",
    );
    let (_, c) = check_corpus("odd_lanes_shfl_fixed", Model::Spec);
    assert!(c.reports.is_empty(), "{:#?}", c.reports);
}

#[test]
fn a_half_written_shared_array_read_back_is_reported() {
    let (src, c) = check_corpus("half_written_shared", Model::Spec);
    escape(
        &src,
        only(&c),
        "global-store",
        "st.global.u32",
        0xffff_0000,
        "ld.shared.u32",
        "unwritten-memory",
    );
    let (_, c) = check_corpus("half_written_shared_fixed", Model::Spec);
    assert!(c.reports.is_empty(), "{:#?}", c.reports);
}

#[test]
fn the_warp_synchronous_reduction_races_without_syncwarp() {
    let (_, c) = check_corpus("warp_sync_reduce", Model::Spec);
    assert!(!c.reports.is_empty());
    assert!(
        c.reports.iter().all(|r| r.kind() == "warp-race"),
        "{:#?}",
        c.reports
    );
    let (_, c) = check_corpus("warp_sync_reduce_fixed", Model::Spec);
    assert!(c.reports.is_empty(), "{:#?}", c.reports);
}

#[test]
fn popc_of_activemask_in_a_branch_depends_on_the_model() {
    let (src, c) = check_corpus("popc_activemask", Model::Spec);
    let carried = escape(
        &src,
        only(&c),
        "global-store",
        "st.global.u32",
        // Lanes whose input (7 * lane mod 5) is positive: all but 0, 5,
        // 10, 15, 20, 25, 30.
        !0x4210_8421,
        "activemask.b32",
        "activemask-schedule",
    );
    assert_eq!(carried, vec![line_of(&src, "popc.b32")]);
    let (_, c) = check_corpus("popc_activemask", Model::Observed);
    assert!(c.reports.is_empty(), "{:#?}", c.reports);
    let (_, c) = check_corpus("popc_activemask_fixed", Model::Spec);
    assert!(c.reports.is_empty(), "{:#?}", c.reports);
}

// ---- corpus/check: nvcc 13.0's sm_90 output of the `.cu` patterns, with
// the H200's stored words (three runs each, `.gpu-runs.txt`) ----

fn check_nvcc(name: &str) -> (String, Checked) {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../corpus/check");
    let ptx = std::fs::read_to_string(dir.join(format!("{name}.ptx"))).expect("the module");
    let module = parse_module(&ptx).unwrap_or_else(|e| panic!("{name}: {e}"));
    let lf = dir.join(format!("{name}.launch"));
    let text = std::fs::read_to_string(&lf).expect("the launch");
    let launch = Launch::parse(&text, &lf.display().to_string(), &dir).expect("a launch");
    let c = check_launch(&module, &launch, Options::default()).expect("a run");
    (ptx, c)
}

#[test]
fn nvccs_reduce7_is_charged_to_the_first_shuffle_with_the_ballot_as_membermask() {
    let (src, c) = check_nvcc("reduce7_bug");
    let carried = escape(
        &src,
        only(&c),
        "global-store",
        "st.global.f32",
        1,
        "shfl.sync.down.b32 \t%r33|%p10, %r30, %r32, %r31, %r3;",
        "source-outside-membermask",
    );
    // Then the final loop's five adds, which carry it to the store.
    assert_eq!(carried.len(), 6, "{carried:?}");
    // A membermask outside the warp is undefined in either model.
    assert!(!only(&c).spec_only);
    let (_, c) = check_nvcc("reduce7_fixed");
    assert!(c.reports.is_empty(), "{:#?}", c.reports);
}

#[test]
fn nvccs_odd_lanes_shuffle_is_reported_and_its_neighbour_is_not() {
    let (src, c) = check_nvcc("odd_from_even_bug");
    escape(
        &src,
        only(&c),
        "global-store",
        "st.global.u32",
        0xaaaa_aaaa,
        "shfl.sync.idx.b32",
        "source-outside-membermask",
    );
    let (_, c) = check_nvcc("odd_from_even_fixed");
    assert!(c.reports.is_empty(), "{:#?}", c.reports);
}

#[test]
fn nvccs_half_shared_read_is_reported_for_warp_0() {
    let (src, c) = check_nvcc("half_shared_bug");
    // Threads 0-31 read s[63 - t], which threads 32-63 never wrote.
    let r = only(&c);
    escape(
        &src,
        r,
        "global-store",
        "st.global.u32",
        u32::MAX,
        "ld.shared.u32",
        "unwritten-memory",
    );
    assert_eq!(r.warp, 0);
    let (_, c) = check_nvcc("half_shared_fixed");
    assert!(c.reports.is_empty(), "{:#?}", c.reports);
}

#[test]
fn nvccs_warp_synchronous_reduction_races_and_its_syncwarp_twin_does_not() {
    let (_, c) = check_nvcc("warp_sync_reduce_bug");
    assert!(!c.reports.is_empty());
    assert!(
        c.reports
            .iter()
            .all(|r| r.kind() == "warp-race" && r.warp == 0),
        "{:#?}",
        c.reports
    );
    let (_, c) = check_nvcc("warp_sync_reduce_fixed");
    assert!(c.reports.is_empty(), "{:#?}", c.reports);
}

#[test]
fn nvccs_activemask_count_is_charged_to_activemask() {
    let (src, c) = check_nvcc("activemask_count_bug");
    // The lanes whose input (37 * t mod 101 - 50) is positive.
    let positive = (0..32u32)
        .filter(|t| (t * 37 % 101) as i32 - 50 > 0)
        .fold(0u32, |m, t| m | 1 << t);
    let carried = escape(
        &src,
        only(&c),
        "global-store",
        "st.global.u32",
        positive,
        "activemask.b32",
        "activemask-schedule",
    );
    assert_eq!(carried, vec![line_of(&src, "popc.b32")]);
    // The observed model (lanes that branch together stay together) has
    // the count defined.
    assert!(only(&c).spec_only);
    let (_, c) = check_nvcc("activemask_count_fixed");
    assert!(c.reports.is_empty(), "{:#?}", c.reports);
}
