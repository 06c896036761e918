//! One test per undefined-behaviour rule and per cause of an undefined value.
//! Expected lanes and lines are worked out by hand from the programs below
//! (line numbers count from the first line of each source string).

use warp_core::interp::Interp;
use warp_core::ir::Case;
use warp_core::outcome::Outcome;
use warp_core::text::parse;
use warp_core::ub::{Ub, UbRule};

fn run(src: &str) -> (Case, Outcome) {
    let case = parse(src).unwrap_or_else(|e| panic!("test program does not parse: {e}"));
    let out = Interp::new(&case.program)
        .run(&case.inputs)
        .expect("runs within fuel");
    (case, out)
}

fn ub_of(src: &str) -> Ub {
    let (_, out) = run(src);
    out.ub.expect("the program should hit undefined behaviour")
}

fn assert_ub(src: &str, rule: UbRule, line: u32, lanes: u32, mentions: &str) {
    let ub = ub_of(src);
    assert_eq!(ub.rule, rule, "{ub}");
    assert_eq!(ub.line, line, "{ub}");
    assert_eq!(ub.lanes, lanes, "{ub:}: lanes {:#010x}", ub.lanes);
    assert!(
        ub.message.contains(mentions),
        "message `{}` should name `{mentions}`",
        ub.message
    );
}

/// Lane `l`'s value of register `name`, `None` when undefined.
fn get(case: &Case, out: &Outcome, name: &str, l: usize) -> Option<u64> {
    out.get(case.program.reg(name).expect("declared"), l)
}

#[test]
fn executing_lane_not_in_membermask() {
    // Every lane executes; lane 0 is missing from 0xfffffffe.
    let src = ".reg .b32 Rx, Ry;\n.lanes Rx = 1;\nshfl.sync.up.b32 Ry, Rx, 1, 0, 0xfffffffe;\n";
    assert_ub(
        src,
        UbRule::NotInMembermask,
        3,
        0x1,
        "shfl.sync.up.b32 Ry, Rx, 1, 0, 0xfffffffe",
    );
}

#[test]
fn members_that_finish_without_exiting_deadlock_the_rest() {
    // Lanes 0-15 branch forward to A (the end) and finish without `exit`;
    // lanes 16-31 wait at the full-mask shfl for them for ever.
    let src = "\
.reg .b32 Rx, Ry;
.reg .pred p;
.lanes Rx = 5;
    setp.lt.u32 p, %laneid, 16;
@p  bra A;
    shfl.sync.idx.b32 Ry, Rx, 0, 0x1f, 0xffffffff;
A:
";
    assert_ub(
        src,
        UbRule::SyncDeadlock,
        6,
        0xffff_0000,
        "finished the program without exiting",
    );
}

#[test]
fn membermask_not_uniform_in_one_collective() {
    // Lane 5 says 0x7fffffff, every other lane 0xffffffff: lane 5 is in
    // everybody's group but disagrees, so all 32 lanes are concerned.
    let mut m = vec!["0xffffffff"; 32];
    m[5] = "0x7fffffff";
    let src = format!(
        ".reg .b32 Rx, Ry, M;\n.lanes Rx = 1;\n.lanes M = {};\nredux.sync.add.u32 Ry, Rx, M;\n",
        m.join(" ")
    );
    assert_ub(
        &src,
        UbRule::MembermaskNotUniform,
        4,
        0xffff_ffff,
        "redux.sync.add.u32",
    );
}

#[test]
fn disjoint_groups_with_their_own_masks_are_fine() {
    // Lanes 0-15 use 0x0000ffff and lanes 16-31 0xffff0000: two collectives,
    // each uniform. Sums of laneid: 0+..+15 = 120, 16+..+31 = 376.
    let lo = vec!["0xffff"; 16].join(" ");
    let hi = vec!["0xffff0000"; 16].join(" ");
    let src =
        format!(".reg .u32 Rx, M;\n.lanes M = {lo} {hi};\nredux.sync.add.u32 Rx, %laneid, M;\n");
    let (case, out) = run(&src);
    assert_eq!(out.ub, None);
    for l in 0..32 {
        let want = if l < 16 { 120 } else { 376 };
        assert_eq!(get(&case, &out, "Rx", l), Some(want), "lane {l}");
    }
}

#[test]
fn membermask_undefined() {
    // M is never written.
    let src = ".reg .b32 Rx, M;\n.reg .pred q;\n.lanes Rx = 3;\nmatch.any.sync.b32 Rx, Rx, M;\n";
    assert_ub(
        src,
        UbRule::MembermaskUndefined,
        4,
        0xffff_ffff,
        "match.any.sync.b32",
    );
}

#[test]
fn sm6x_exited_member_is_ub_but_not_on_sm90() {
    // Lanes 16-31 exit; the rest shuffle with a full mask. On sm_90 the
    // exited lanes are allowed in membermask (their values are undefined
    // sources); on sm_60 every member must execute it in convergence.
    let body = "\
.reg .b32 Rx, Ry;
.reg .pred p;
.lanes Rx = 9;
    setp.ge.u32 p, %laneid, 16;
@p  exit;
    shfl.sync.bfly.b32 Ry, Rx, 1, 0x1f, 0xffffffff;
";
    let sm60 = format!(".version 6.0\n.target sm_60\n{body}");
    assert_ub(&sm60, UbRule::Sm6xConvergence, 8, 0xffff_0000, "sm_60");
    let (case, out) = run(body);
    assert_eq!(out.ub, None);
    assert_eq!(out.exited, 0xffff_0000);
    // bfly 1 stays inside lanes 0-15: every active lane gets its neighbour's 9.
    for l in 0..16 {
        assert_eq!(get(&case, &out, "Ry", l), Some(9), "lane {l}");
    }
}

#[test]
fn sm6x_active_lane_in_no_membermask() {
    // Lanes 16-31 are converged but predicated off and in no membermask.
    let src = "\
.version 6.0
.target sm_60
.reg .b32 Rx, Ry;
.reg .pred p;
.lanes Rx = 9;
    setp.lt.u32 p, %laneid, 16;
@p  shfl.sync.bfly.b32 Ry, Rx, 1, 0x1f, 0xffff;
";
    assert_ub(
        src,
        UbRule::Sm6xConvergence,
        7,
        0xffff_0000,
        "only lanes in some membermask",
    );
    // The same on sm_90 is defined.
    let (_, out) = run(&src
        .replace(".target sm_60", ".target sm_90")
        .replace(".version 6.0", ""));
    assert_eq!(out.ub, None);
}

#[test]
fn instructions_the_target_does_not_allow() {
    let cases: &[(&str, &str, &str)] = &[
        (
            ".target sm_60",
            "match.any.sync.b32 R, R, 0xffffffff;",
            "sm_70",
        ),
        (
            ".target sm_75",
            "redux.sync.add.u32 R, R, 0xffffffff;",
            "sm_80",
        ),
        (
            ".target sm_90",
            "redux.sync.min.f32 R, R, 0xffffffff;",
            "sm_100a",
        ),
        (
            ".target sm_100",
            "redux.sync.max.abs.f32 R, R, 0xffffffff;",
            "sm_100a",
        ),
        (".target sm_90", "shfl.up.b32 R, R, 1, 0;", "PTX ISA 6.4"),
        (
            ".version 6.4\n.target sm_70",
            "vote.ballot.b32 R, 1;",
            "PTX ISA 6.4",
        ),
        (
            ".version 6.1\n.target sm_70",
            "activemask.b32 R;",
            "PTX ISA 6.2",
        ),
        (
            ".version 6.5\n.target sm_80",
            "redux.sync.or.b32 R, R, 0xffffffff;",
            "PTX ISA 7.0",
        ),
    ];
    for (dirs, inst, why) in cases {
        let lines = dirs.lines().count() as u32;
        let src = format!("{dirs}\n.reg .b32 R;\n.reg .pred p;\n.lanes R = 1;\n{inst}\n");
        let src = src.replace("vote.ballot.b32 R, 1;", "vote.ballot.b32 R, p;");
        let ub = ub_of(&src);
        assert_eq!(ub.rule, UbRule::TargetUnsupported, "{src}: {ub}");
        assert_eq!(ub.line, lines + 4, "{src}: {ub}");
        assert_eq!(ub.lanes, u32::MAX);
        assert!(
            ub.message.contains(why),
            "{src}: `{}` should say {why}",
            ub.message
        );
    }
    // And the forms these targets do allow.
    for (dirs, inst) in [
        (
            ".target sm_100a",
            "redux.sync.min.abs.NaN.f32 R, R, 0xffffffff;",
        ),
        (
            ".version 8.8\n.target sm_100f",
            "redux.sync.max.f32 R, R, 0xffffffff;",
        ),
        (".version 6.3\n.target sm_70", "shfl.up.b32 R, R, 1, 0;"),
        (".target sm_70", "match.all.sync.b32 R, R, 0xffffffff;"),
    ] {
        let src = format!("{dirs}\n.reg .b32 R;\n.lanes R = 1;\n{inst}\n");
        assert_eq!(run(&src).1.ub, None, "{src}");
    }
}

#[test]
fn undefined_guard_on_a_branch_is_ub() {
    // p is never written: whether `bra` jumps cannot be known.
    let src = ".reg .b32 Rx;\n.reg .pred p;\n.lanes Rx = 1;\n@p bra L;\nL:\n";
    assert_ub(
        src,
        UbRule::GuardUndefined,
        4,
        0xffff_ffff,
        "decides control flow",
    );
    // Nor whether a lane takes part in a collective.
    let src = ".reg .b32 Rx;\n.reg .pred p;\n.lanes Rx = 1;\n@p vote.sync.ballot.b32 Rx, p, 0xffffffff;\n";
    assert_ub(
        src,
        UbRule::GuardUndefined,
        4,
        0xffff_ffff,
        "who takes part in the collective",
    );
}

#[test]
fn undefined_guard_on_an_alu_op_makes_its_destination_undefined() {
    // p is defined on lanes 0-15 only (true there): those lanes add 1;
    // lanes 16-31 may or may not have, so Rx is undefined there, and the
    // run goes on (Ry = 5 everywhere).
    let src = ".reg .b32 Rx, Ry;\n.reg .pred p, q;\n.lanes Rx = 1;\n\
        setp.lt.u32 q, %laneid, 16;\n@q setp.eq.u32 p, 0, 0;\n@p add.u32 Rx, Rx, 1;\n\
        mov.b32 Ry, 5;\n";
    let (case, out) = run(src);
    assert_eq!(out.ub, None);
    for l in 0..32 {
        let want = if l < 16 { Some(2) } else { None };
        assert_eq!(get(&case, &out, "Rx", l), want, "lane {l}");
        assert_eq!(get(&case, &out, "Ry", l), Some(5), "lane {l}");
    }
}

#[test]
fn ub_is_an_outcome_not_an_error_or_panic() {
    // Interp::run returns Ok with `ub` set; nothing after it runs.
    let src =
        ".reg .b32 Rx, Ry;\n.lanes Rx = 1;\nshfl.sync.up.b32 Ry, Rx, 1, 0, 0;\nmov.b32 Ry, 7;\n";
    let (case, out) = run(src);
    assert!(out.ub.is_some());
    assert_eq!(
        get(&case, &out, "Ry", 0),
        None,
        "the mov after the UB must not run"
    );
}

// ---- undefined values ----

#[test]
fn shfl_from_an_inactive_lane_is_undefined() {
    // Deprecated shfl (participants = the executing lanes). Lanes 16-31
    // branch to B and wait there, inactive, while lanes 0-15 (lower pc) run
    // the two shfls alone.
    let src = "\
.version 6.3
.target sm_70
.reg .b32 Rx, Ry;
.reg .pred p;
.lanes Rx = 0 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20 21 22 23 24 25 26 27 28 29 30 31;
    setp.lt.u32 p, %laneid, 16;
@!p bra B;
    shfl.idx.b32 Ry|p, Rx, 17, 0x1f;
    shfl.idx.b32 Rx, Rx, 3, 0x1f;
B:
    mov.b32 Rx, Rx;
";
    let (case, out) = run(src);
    assert_eq!(out.ub, None);
    for l in 0..16 {
        // j = 17 (in range, p = 1) but lane 17 is inactive: Ry undefined.
        assert_eq!(get(&case, &out, "Ry", l), None, "lane {l}");
        assert_eq!(
            get(&case, &out, "p", l),
            Some(1),
            "p stays defined, lane {l}"
        );
        // j = 3 is active: defined, = 3.
        assert_eq!(get(&case, &out, "Rx", l), Some(3), "lane {l}");
    }
}

#[test]
fn shfl_from_a_predicated_off_lane_is_undefined() {
    // Odd lanes are predicated off; bfly 1 makes even lane 2k source 2k+1.
    let src = "\
.version 6.3
.target sm_70
.reg .b32 Rx, Ry, T;
.reg .pred p;
.lanes Rx = 7;
    and.b32 T, %laneid, 1;
    setp.eq.u32 p, T, 0;
@p  shfl.bfly.b32 Ry, Rx, 1, 0x1f;
";
    let (case, out) = run(src);
    for l in 0..32 {
        assert_eq!(get(&case, &out, "Ry", l), None, "lane {l}");
    }
}

#[test]
fn shfl_from_an_exited_lane_is_undefined_and_p_stays_defined() {
    // Lanes 16-31 exit; bfly 16 makes lane l source l+16 (exited).
    let src = "\
.reg .b32 Rx, Ry;
.reg .pred p, q;
.lanes Rx = 4;
    setp.ge.u32 q, %laneid, 16;
@q  exit;
    shfl.sync.bfly.b32 Ry|p, Rx, 16, 0x1f, 0xffffffff;
";
    let (case, out) = run(src);
    assert_eq!(out.ub, None);
    for l in 0..16 {
        assert_eq!(get(&case, &out, "Ry", l), None, "lane {l}");
        assert_eq!(
            get(&case, &out, "p", l),
            Some(1),
            "lane {l}: j = l^16 <= 31"
        );
    }
}

#[test]
fn shfl_from_a_non_member_lane_is_undefined() {
    // Lanes 16-31 are predicated off and outside membermask 0xffff; idx 20
    // sources lane 20 (j = 20 <= maxLane 31: p = 1).
    let src = "\
.reg .b32 Rx, Ry;
.reg .pred p, q;
.lanes Rx = 6;
    setp.lt.u32 q, %laneid, 16;
@q  shfl.sync.idx.b32 Ry|p, Rx, 20, 0x1f, 0xffff;
";
    let (case, out) = run(src);
    assert_eq!(out.ub, None);
    for l in 0..16 {
        assert_eq!(get(&case, &out, "Ry", l), None, "lane {l}");
        assert_eq!(get(&case, &out, "p", l), Some(1), "lane {l}");
    }
}

#[test]
fn values_computed_from_undefined_values_are_undefined() {
    // U is never written; Ry = Rx + U is undefined; vote over an undefined
    // predicate makes every lane's vote undefined; Rz = Rx + 1 is defined.
    let src = "\
.reg .b32 Rx, Ry, Rz, U;
.reg .pred p, v;
.lanes Rx = 1;
    add.u32 Ry, Rx, U;
    add.u32 Rz, Rx, 1;
    setp.eq.u32 p, U, 0;
    vote.sync.any.pred v, p, 0xffffffff;
";
    let (case, out) = run(src);
    for l in 0..32 {
        assert_eq!(get(&case, &out, "U", l), None, "never written, lane {l}");
        assert_eq!(get(&case, &out, "Ry", l), None, "lane {l}");
        assert_eq!(get(&case, &out, "p", l), None, "lane {l}");
        assert_eq!(get(&case, &out, "v", l), None, "lane {l}");
        assert_eq!(get(&case, &out, "Rz", l), Some(2), "lane {l}");
    }
}

#[test]
fn selp_depends_only_on_the_selected_operand() {
    // U is never written. Where c = 1, d = a (defined); where c = 0, d = U.
    let src = "\
.reg .b32 A, U, D;
.reg .pred c;
.lanes A = 5;
    setp.lt.u32 c, %laneid, 16;
    selp.b32 D, A, U, c;
";
    let (case, out) = run(src);
    for l in 0..32 {
        let want = if l < 16 { Some(5) } else { None };
        assert_eq!(get(&case, &out, "D", l), want, "lane {l}");
    }
}

#[test]
fn predicated_off_members_that_never_come_back_deadlock_the_rest() {
    // Odd lanes are converged but predicated off inside the full
    // membermask: they run on to the end of the program without `exit`,
    // so the even lanes wait at the redux for ever.
    let src = "\
.reg .b32 Rx, T;
.reg .pred p;
.lanes Rx = 1;
    and.b32 T, %laneid, 1;
    setp.eq.u32 p, T, 0;
@p  redux.sync.add.u32 Rx, Rx, 0xffffffff;
";
    assert_ub(
        src,
        UbRule::SyncDeadlock,
        6,
        0x5555_5555,
        "lanes 0xaaaaaaaa, which 0xaaaaaaaa finished the program without exiting",
    );
}

#[test]
fn activemask_after_a_collective_in_disjoint_groups_is_undefined() {
    // Lanes 0-15 and 16-31 run one vote in two groups. On an H200 the warp
    // stayed split afterwards (activemask saw only the lane's group), where
    // min-PC says it reconverged: the later activemask is undefined, the
    // earlier one is not.
    let lo = vec!["0xffff"; 16].join(" ");
    let hi = vec!["0xffff0000"; 16].join(" ");
    let src = format!(
        ".reg .b32 M, A0, A1, B;\n.reg .pred p;\n.lanes M = {lo} {hi};\n.lanes p = 1;\n\
         activemask.b32 A0;\n    vote.sync.ballot.b32 B, p, M;\n    activemask.b32 A1;\n"
    );
    let (case, out) = run(&src);
    assert_eq!(out.ub, None);
    for l in 0..32 {
        assert_eq!(get(&case, &out, "A0", l), Some(0xffff_ffff), "lane {l}");
        let group = if l < 16 { 0xffff } else { 0xffff_0000 };
        assert_eq!(get(&case, &out, "B", l), Some(group), "lane {l}");
        assert_eq!(get(&case, &out, "A1", l), None, "lane {l}");
    }
}

#[test]
fn fuel_stops_an_endless_loop() {
    let src = ".reg .b32 Rx;\n.lanes Rx = 0;\nTOP:\n    add.u32 Rx, Rx, 1;\n    bra TOP;\n";
    let case = parse(src).expect("parses");
    let err = Interp::new(&case.program)
        .with_fuel(1000)
        .run(&case.inputs)
        .expect_err("must run out of fuel");
    assert_eq!(
        err,
        warp_core::interp::OutOfFuel {
            steps: 1000,
            line: 4
        }
    );
}

#[test]
fn two_collectives_with_different_qualifiers_deadlock() {
    // Lanes 0-15 reach a full-mask vote.sync.any, lanes 16-31 a full-mask
    // vote.sync.all: different qualifiers never pair (an H200 hung on this
    // at -O3: lower/gpu/experiments/convergence.py, kernel `other_qual`).
    // Min-PC: lanes 16-31 (fall-through, line 5) arrive first and wait;
    // lanes 0-15 arrive at line 8 and wait; nobody can run. The
    // diagnostic stands at lane 0's collective.
    let src = "\
.reg .pred p, q, r;
.lanes p = 1;
    setp.lt.u32 q, %laneid, 16;
@q  bra A;
    vote.sync.all.pred r, p, 0xffffffff;
    bra J;
A:
    vote.sync.any.pred r, p, 0xffffffff;
J:
";
    let ub = ub_of(src);
    assert_eq!(ub.rule, UbRule::SyncDeadlock, "{ub}");
    assert_eq!(ub.lanes, 0xffff_ffff, "{ub}");
    assert_eq!(ub.line, 8, "{ub}");
    for part in [
        "lanes 0x0000ffff wait at `vote.sync.any.pred r, p, 0xffffffff;` (line 8) for lanes 0xffff0000, which 0xffff0000 wait at `vote.sync.all.pred r, p, 0xffffffff;` (line 5) with other qualifiers or another membermask",
        "lanes 0xffff0000 wait at `vote.sync.all.pred r, p, 0xffffffff;` (line 5) for lanes 0x0000ffff",
    ] {
        assert!(ub.message.contains(part), "{} lacks `{part}`", ub.message);
    }
}

#[test]
fn members_spinning_until_the_fuel_runs_out_deadlock_the_rest() {
    // Lane 0 spins for ever while lanes 1-31 wait for it at the redux.
    let src = "\
.reg .b32 R;
.reg .pred s;
.lanes R = 1;
    setp.eq.u32 s, %laneid, 0;
@s  bra SPIN;
    redux.sync.add.u32 R, R, 0xffffffff;
    exit;
SPIN:
    bra SPIN;
";
    let case = parse(src).expect("parses");
    let out = Interp::new(&case.program)
        .with_fuel(500)
        .run(&case.inputs)
        .expect("a deadlock is UB, not a fuel error");
    let ub = out.ub.expect("UB");
    assert_eq!(ub.rule, UbRule::SyncDeadlock, "{ub}");
    assert_eq!(ub.lanes, 0xffff_fffe, "{ub}");
    assert!(
        ub.message
            .contains("0x00000001 still run (the fuel ran out at line 9)"),
        "{ub}"
    );
}

#[test]
fn deprecated_vote_forms_have_their_own_gates() {
    // PTX 1.4 / sm_13: `vote.all` is there (PTX 1.2, sm_12), the ballot is
    // not (PTX 2.0, sm_20).
    let ok =
        ".version 1.4\n.target sm_13\n.reg .pred p, a;\n.lanes p = 1;\n    vote.all.pred a, p;\n";
    let (case, out) = run(ok);
    assert_eq!(out.ub, None);
    assert_eq!(get(&case, &out, "a", 0), Some(1));
    let ballot =
        ".version 1.4\n.target sm_13\n.reg .pred p;\n.reg .b32 B;\n.lanes p = 1;\n    vote.ballot.b32 B, p;\n";
    assert_ub(
        ballot,
        UbRule::TargetUnsupported,
        6,
        0xffff_ffff,
        "requires PTX ISA 2.0 or later",
    );
    let old =
        ".version 1.1\n.target sm_12\n.reg .pred p, a;\n.lanes p = 1;\n    vote.all.pred a, p;\n";
    assert_ub(
        old,
        UbRule::TargetUnsupported,
        5,
        0xffff_ffff,
        "requires PTX ISA 1.2 or later",
    );
}
