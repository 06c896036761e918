//! `vote.sync`'s result carries, where it is undefined, the value of the
//! reference's own run (min-PC), as the deprecated `vote`'s and
//! `match.sync`'s do (`match_run_values.rs`): a ballot used as a later
//! collective's `membermask` decides whom its lanes wait for by all its
//! bits. The reference wrote 0 for a ballot bit of an undefined predicate
//! (and `false` for `.any`), and let lanes complete a `shfl.sync` alone
//! that the JIT's run, like min-PC, leaves waiting for ever.
//!
//! Expected values worked out by hand from the PTX ISA's `vote.sync`
//! (`.all` "True if `a` is True for all non-exited threads in membermask",
//! `.any` "True if `a` is True for any thread in membermask", `.uni` "True
//! if `a` has the same value in all non-exited threads in membermask",
//! `.ballot` "Bit `i` of `d` = predicate of lane `i`"), `activemask`
//! ("Active, predicated-on threads contribute 1") and the `.sync` wait,
//! under min-PC, with the definedness rules of docs/semantics.md (lines
//! count from the first line of each source string).

use crate::match_run_values::{raw, run};

#[test]
fn undefined_votes_hold_the_runs_values() {
    // Lane 20 branches to `L` alone; `activemask` there runs with all 32
    // lanes under min-PC: `%b0` = 0xffffffff on every lane, each lane's
    // bits of the other side undefined, so `%q` (`%b0` == 0xffffffff) is
    // true in this run and undefined on every lane. Every vote then has
    // only undefined predicates: nothing defined; in this run every
    // predicate is true: ballot 0xffffffff, `.all`, `.any`, `.uni` true
    // (the reference wrote a ballot of 0 and `.any` false).
    let src = "\
.reg .b32 %b0, %m0;
.reg .pred %p1, %q, %a, %n, %u;
.lanes %p1 = 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 1 0 0 0 0 0 0 0 0 0 0 0;
    @%p1 bra L;
L:
    activemask.b32 %b0;
    setp.eq.u32 %q, %b0, 0xffffffff;
    vote.sync.ballot.b32 %m0, %q, 0xffffffff;
    vote.sync.all.pred %a, %q, 0xffffffff;
    vote.sync.any.pred %n, %q, 0xffffffff;
    vote.sync.uni.pred %u, %q, 0xffffffff;
    exit;
";
    let (case, out) = run(src);
    assert!(out.ub.is_none(), "{:?}", out.ub);
    assert_eq!(out.exited, u32::MAX);
    for l in [0, 20, 31] {
        assert_eq!(raw(&case, &out, "%q", l).0 & 1, 1, "lane {l}");
        assert_eq!(raw(&case, &out, "%q", l).1 & 1, 0, "lane {l}");
        assert_eq!(raw(&case, &out, "%m0", l), (0xffff_ffff, 0), "lane {l}");
        for p in ["%a", "%n", "%u"] {
            let (v, d) = raw(&case, &out, p, l);
            assert_eq!((v & 1, d & 1), (1, 0), "{p} lane {l}");
        }
    }
}

#[test]
fn a_ballot_of_undefined_predicates_as_membermask_deadlocks_under_min_pc() {
    // As `match_run_values.rs`'s finding, with a ballot: `%q` is true in
    // this run on every lane (above). Lanes 30, 31 arrive at line 10;
    // lanes 0..29, predicated off at lines 10..12, arrive at line 13: one
    // rendezvous of all 32, every predicate true: `%m0` = 0xffffffff on
    // lanes 30, 31, `%mm` = 0xffffffff (bits 30, 31 defined by the `or`).
    // Lanes 30, 31 then wait at line 12's `shfl.sync.bfly` for lanes 0..29,
    // which wait at line 14's `vote.sync.ballot` for them: `sync-deadlock`
    // (the JIT's run leaves every lane waiting). The reference had `%m0` =
    // 0 and let lanes 30, 31 complete the `shfl.sync` alone on 0xc0000000.
    let src = "\
.reg .b32 %b0, %m0, %mm;
.reg .pred %p1, %p2, %q, %z;
.lanes %p1 = 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 1 0 0 0 0 0 0 0 0 0 0 0;
.lanes %p2 = 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 1 1;
.lanes %z = 0;
    @%p1 bra L2;
L2:
    activemask.b32 %b0;
    setp.eq.u32 %q, %b0, 0xffffffff;
    @%p2 vote.sync.ballot.b32 %m0, %q, 0xffffffff;
    @%p2 or.b32 %mm, %m0, 0xc0000000;
    @%p2 shfl.sync.bfly.b32 _, 0, 0, 0, %mm;
    vote.sync.ballot.b32 _, %q, 0xffffffff;
    vote.sync.ballot.b32 _, %z, 0xffffffff;
    exit;
";
    let (case, out) = run(src);
    crate::match_run_values::assert_deadlock(
        &out,
        14,
        &[
            "lanes 0x3fffffff wait at `vote.sync.ballot.b32 _, %z, 0xffffffff;` (line 14)",
            "lanes 0xc0000000 wait at `@%p2 shfl.sync.bfly.b32 _, 0, 0, 0, %mm;` (line 12)",
        ],
    );
    assert_eq!(raw(&case, &out, "%mm", 30), (0xffff_ffff, 0xc000_0000));
    assert_eq!(out.exited, 0);
}
