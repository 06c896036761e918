//! `match.sync`'s result carries, on the bits it leaves undefined, the
//! values of the reference's own run (min-PC), as `activemask` does: a
//! result used as a later collective's `membermask` decides whom its lanes
//! wait for by all its bits, so the reference must go on as min-PC does
//! (the JIT does). Session 13's -O2 hunt found the reference writing 0
//! there: `docs/log/gpu-2026-11-28-m/b/found/shfl.sync.bfly-3452b615.ptx.txt`,
//! every lane exited on the reference and none on the JIT.
//!
//! Expected values worked out by hand from the PTX ISA's `match.sync`
//! ("`d` is set to mask of non-exited threads in `membermask` that have
//! same value of operand `a`"; "`.all`: `d` is set to mask corresponding
//! to non-exited threads in `membermask` if all non-exited threads in
//! `membermask` have same value of operand `a`; otherwise `d` is set to
//! 0"), `activemask` ("Active, predicated-on threads contribute 1") and the
//! `.sync` wait ("wait until all non-exited threads from `membermask` have
//! executed `match.sync` with the same qualifiers and same `membermask`
//! value"), under min-PC, with the definedness rules of docs/semantics.md
//! (lines count from the first line of each source string).

use warp_core::interp::Interp;
use warp_core::ir::Case;
use warp_core::outcome::Outcome;
use warp_core::text::parse;
use warp_core::ub::UbRule;

/// Parses and runs `src` on the reference.
pub fn run(src: &str) -> (Case, Outcome) {
    let case = parse(src).unwrap_or_else(|e| panic!("test program does not parse: {e}"));
    let out = Interp::new(&case.program)
        .run(&case.inputs)
        .expect("runs within fuel");
    (case, out)
}

/// Lane `l`'s raw value of `name` (defined or not) and its defined bits
/// among the low 32.
pub fn raw(case: &Case, out: &Outcome, name: &str, l: usize) -> (u64, u64) {
    let r = case.program.reg(name).expect("declared");
    (
        out.values[r.index()][l],
        out.defined_bits[r.index()][l] & 0xffff_ffff,
    )
}

/// Lane 20 branches to `L` alone; `activemask` there runs with all 32
/// lanes under min-PC (both sides stand at `L`), so `%b0` is 0xffffffff on
/// every lane, defined but for the other side's bits (bit 20 on lanes
/// other than 20, all but bit 20 on lane 20). `%a` is `%b0` on lanes
/// 0..29 and a fully defined 0xffffffff on lanes 30, 31 (`or` with a
/// defined 1).
const PARTLY: &str = "\
.reg .b32 %b0, %a, %k, %m0, %d;
.reg .pred %p1, %q;
.lanes %p1 = LANES20;
.lanes %k = KONES;
    @%p1 bra L;
L:
    activemask.b32 %b0;
    or.b32 %a, %b0, %k;
    match.any.sync.b32 %m0, %a, 0xffffffff;
    match.all.sync.b32 %d|%q, %a, 0xffffffff;
    exit;
";

/// `%p1`: lane 20 only.
const LANES20: &str = "0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 1 0 0 0 0 0 0 0 0 0 0 0";
/// 0xffffffff on lanes 30, 31, else 0.
const KONES: &str =
    "0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0xffffffff 0xffffffff";

#[test]
fn undefined_result_bits_hold_the_runs_comparison() {
    let (case, out) = run(&PARTLY.replace("LANES20", LANES20).replace("KONES", KONES));
    assert!(out.ub.is_none(), "{:?}", out.ub);
    assert_eq!(out.exited, u32::MAX);
    // Lanes 30 and 31 certainly match each other (both fully defined,
    // equal); whether they match lanes 0..29 depends on bit 20 (or, for
    // lane 20, the others' bits), undefined: bits 30, 31 defined. Every
    // lane holds 0xffffffff in this run, so all 32 match: the value is
    // 0xffffffff (the reference wrote 0xc0000000).
    for l in [30, 31] {
        assert_eq!(
            raw(&case, &out, "%m0", l),
            (0xffff_ffff, 0xc000_0000),
            "lane {l}"
        );
    }
    // Lanes 0..29 know no comparison, not even with themselves (their own
    // `a` has an undefined bit); the run's values all match.
    for l in [0, 19, 20, 29] {
        assert_eq!(raw(&case, &out, "%m0", l), (0xffff_ffff, 0), "lane {l}");
    }
    // `.all`: no pair certainly differs and not all certainly match, so
    // `d` and `p` are undefined; in this run all match: `d` is the 32
    // participants, `p` true (the reference wrote 0 and false).
    for l in [0, 20, 30, 31] {
        assert_eq!(raw(&case, &out, "%d", l), (0xffff_ffff, 0), "lane {l}");
        let (q, qd) = raw(&case, &out, "%q", l);
        assert_eq!((q & 1, qd & 1), (1, 0), "lane {l}");
    }
}

#[test]
fn a_rendezvous_with_an_undefined_membermask_bit_keeps_the_runs_values() {
    // `%mm`: 0xffffffff, defined, on lanes 0..29 (`or` with a defined
    // 0xffffffff); on lanes 30, 31 `%m0` (0xffffffff in this run, bits 30
    // and 31 defined). Every lane gives 0xffffffff, its own bit defined:
    // one rendezvous of all 32, whose membermask has undefined bits, so its
    // results are undefined (docs/semantics.md; `interp/converge.rs`,
    // `synced`); every `a` is 5, so the run's value is 0xffffffff. (The
    // reference read 0xc0000000 on lanes 30, 31 and called the masks not
    // uniform. A schedule that ran lane 20 apart at `activemask` would
    // give lanes 30, 31 the mask 0xc0000000 and leave lanes 0..29 waiting:
    // the reference follows min-PC only.)
    let src = "\
.reg .b32 %b0, %a, %k, %k2, %m0, %mm, %m1;
.reg .pred %p1;
.lanes %p1 = 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 1 0 0 0 0 0 0 0 0 0 0 0;
.lanes %k = 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0xffffffff 0xffffffff;
.lanes %k2 = 0xffffffff 0xffffffff 0xffffffff 0xffffffff 0xffffffff 0xffffffff 0xffffffff 0xffffffff 0xffffffff 0xffffffff 0xffffffff 0xffffffff 0xffffffff 0xffffffff 0xffffffff 0xffffffff 0xffffffff 0xffffffff 0xffffffff 0xffffffff 0xffffffff 0xffffffff 0xffffffff 0xffffffff 0xffffffff 0xffffffff 0xffffffff 0xffffffff 0xffffffff 0xffffffff 0 0;
    @%p1 bra L;
L:
    activemask.b32 %b0;
    or.b32 %a, %b0, %k;
    match.any.sync.b32 %m0, %a, 0xffffffff;
    or.b32 %mm, %m0, %k2;
    match.any.sync.b32 %m1, 5, %mm;
    exit;
";
    let (case, out) = run(src);
    assert!(out.ub.is_none(), "{:?}", out.ub);
    assert_eq!(out.exited, u32::MAX);
    assert_eq!(raw(&case, &out, "%mm", 30), (0xffff_ffff, 0xc000_0000));
    for l in [0, 20, 30, 31] {
        assert_eq!(raw(&case, &out, "%m1", l), (0xffff_ffff, 0), "lane {l}");
    }
}

#[test]
fn the_found_program_deadlocks_under_min_pc() {
    // The finding, verbatim. Under min-PC: all 32 lanes run `activemask`
    // together (lane 20's branch lands where the others stand): `%b0` =
    // 0xffffffff everywhere. Lanes 30, 31 arrive at line 9; lanes 0..29
    // are predicated off at lines 9 and 10 and arrive at line 11, the same
    // qualifiers and membermask: one rendezvous of all 32. Lanes 30, 31
    // compare 0xffffffff with 0xffffffff everywhere: `%m0` = 0xffffffff.
    // Then lanes 30, 31 wait at line 10's `shfl.sync.bfly` for lanes
    // 0..29, which wait at line 12's `match.any.sync` for them: different
    // qualifiers, nobody exits: `sync-deadlock` (the JIT's run: every lane
    // left waiting). The reference had `%m0` = 0xc0000000 and let lanes
    // 30, 31 complete the `shfl.sync` alone.
    let src = "\
.reg .b32 %b0;
.reg .pred %p1, %p2;
.reg .b32 %m0;
.lanes %p1 = 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 1 0 0 0 0 0 0 0 0 0 0 0;
.lanes %p2 = 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 1 1;
    @%p1 bra L2;
L2:
    activemask.b32 %b0;
    @%p2 match.any.sync.b32 %m0, 0xffffffff, 0xffffffff;
    @%p2 shfl.sync.bfly.b32 _, 0, 0, 0, %m0;
    match.any.sync.b32 _, %b0, 0xffffffff;
    match.any.sync.b32 _, 0, 0xffffffff;
    exit;
";
    let (case, out) = run(src);
    assert_deadlock(
        &out,
        12,
        &[
            "lanes 0x3fffffff wait at `match.any.sync.b32 _, 0, 0xffffffff;` (line 12)",
            "lanes 0xc0000000 wait at `@%p2 shfl.sync.bfly.b32 _, 0, 0, 0, %m0;` (line 10)",
        ],
    );
    assert_eq!(raw(&case, &out, "%m0", 30), (0xffff_ffff, 0xc000_0000));
    assert_eq!(out.exited, 0);
}

/// Asserts that the run ended in `sync-deadlock` of every lane reported at
/// `line`, its message naming each of `waits`.
pub fn assert_deadlock(out: &Outcome, line: u32, waits: &[&str]) {
    let ub = out.ub.as_ref().expect("a deadlock");
    assert_eq!(ub.rule, UbRule::SyncDeadlock, "{ub}");
    assert_eq!(ub.line, line, "{ub}");
    assert_eq!(ub.lanes, u32::MAX, "{ub}");
    for want in waits {
        assert!(
            ub.message.contains(want),
            "`{}` should say `{want}`",
            ub.message
        );
    }
}
