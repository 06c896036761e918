#!/usr/bin/env python3
"""Writes the experiment variants of triage.md (docs/log/gpu-2026-11-27-h/triage/experiments/)
from the found cases: each variant is its found case's program (comments and .expect lines
dropped) with one change, as (old, new) text replacements. Run from docs/log/gpu-2026-11-27-h;
then tools/expect.py writes each file's .expect lines from the reference."""
import os, sys

def program(found):
    lines = open(f"{found}.ptx.txt").read().splitlines()
    return [l for l in lines if not l.startswith("//") and not l.startswith(".expect")]

V = []  # (name, found, comment, [(old, new)])
A = "found-O2/match.any.sync.b32-b71dc632"
V += [
 ("k5-sink.found", A, "the found case: the match.all's predicate read only by `mov.pred _` (a sink)", []),
 ("k5-sink.no-sink-read", A, "the `mov.pred _, %p0` removed (K5's detector fires today)", [("    mov.pred _, %p0;\n", "")]),
 ("k5-sink.sink-read-value-in-register", A, "the match.all's value an input register (0 on every lane, unknown to the compiler), still read only by the sink",
   [(".reg .b32 %m1;", ".reg .b32 %m1, %b9;\n.lanes %b9 = 0;"), ("match.all.sync.b32 _|%p0, 0, %m1", "match.all.sync.b32 _|%p0, %b9, %m1")]),
 ("k5-sink.read-value-in-register", A, "the match.all's value an input register, its predicate read by a stored selp before the later collective",
   [(".reg .b32 %m1;", ".reg .b32 %m1, %b9, %r9;\n.lanes %b9 = 0;"), ("match.all.sync.b32 _|%p0, 0, %m1", "match.all.sync.b32 _|%p0, %b9, %m1"), ("mov.pred _, %p0;", "selp.b32 %r9, 1, 0, %p0;")]),
 ("k5-sink.read-immediate-value", A, "the predicate read by a stored selp before the later collective; the value still the immediate 0 (the predicate is true whatever the groups)",
   [(".reg .b32 %m1;", ".reg .b32 %m1, %r9;"), ("mov.pred _, %p0;", "selp.b32 %r9, 1, 0, %p0;")]),
 ("k5-sink.sink-read-then-overwrite", A, "the match.all's value an input register, its predicate read only by the sink and overwritten after the later collective (not stored)",
   [(".reg .b32 %m1;", ".reg .b32 %m1, %b9;\n.lanes %b9 = 0;"), ("match.all.sync.b32 _|%p0, 0, %m1", "match.all.sync.b32 _|%p0, %b9, %m1"), ("match.any.sync.b32 %r0, 0, 0xffffffff;\n", "match.any.sync.b32 %r0, 0, 0xffffffff;\n    setp.eq.u32 %p0, %r0, 0;\n")]),
 ("k5-sink.uniform-mask", A, "the membermask of the match.all the full mask on every lane (match.any of an immediate): one group",
   [("match.any.sync.b32 %m1, %laneid, 0xffffffff;", "match.any.sync.b32 %m1, 0, 0xffffffff;")]),
]
B = "found-O2/match.all.sync.b32-767a1584"
V += [
 ("k5-movimm.found", B, "the found case: the later match.all's membermask a register an unguarded mov of 0xffffffff wrote", []),
 ("k5-movimm.immediate", B, "the later membermask the immediate 0xffffffff (K5's detector fires today)",
   [("    mov.b32 %m0, 0xffffffff;\n", ""), ("match.all.sync.b32 %r1, 0, %m0;", "match.all.sync.b32 %r1, 0, 0xffffffff;")]),
 ("k5-movimm.mask-input", B, "the later membermask an input register (0xffffffff on every lane), no mov",
   [("    mov.b32 %m0, 0xffffffff;\n", ""), (".reg .b32 %m0, %m2;", ".reg .b32 %m0, %m2;\n.lanes %m0 = 0xffffffff;")]),
 ("k5-movimm.p1-given", B, "the vote's source %p1 given an entry value (1), so that its result is defined",
   [(".reg .pred %p1;", ".reg .pred %p1;\n.lanes %p1 = 1;")]),
 ("k5-movimm.vote-result-read", B, "as k5-movimm.p1-given, with the vote's result kept in a stored register %p9 (no longer unused)",
   [(".reg .pred %p1;", ".reg .pred %p1, %p9;\n.lanes %p1 = 1;"), ("vote.sync.any.pred _, %p1, %m2;", "vote.sync.any.pred %p9, %p1, %m2;")]),
 ("k5-movimm.groups-whole-warp", B, "the vote's membermask the full mask on every lane (no disjoint groups)",
   [(".lanes %m2 = 255 255", ".lanes %m2 = 0xffffffff;\n// was: 255 255")]),
]
C = "found-O2/max.u64-14f8c882"
V += [
 ("k1-label.found", C, "the found case: a guarded mov, a label no branch targets, then a guarded vote.sync that rewrites the mov's guard", []),
 ("k1-label.no-label", C, "the label L1 removed (K1's detector fires today)", [("L1:\n", "")]),
 ("k1-label.fresh-pred", C, "the vote writes a fresh predicate %p3 (and the ballot reads it): the mov's guard is not rewritten",
   [(".reg .pred %p0, %p1, %p2;", ".reg .pred %p0, %p1, %p2, %p3;"), ("@!%p1 vote.sync.all.pred %p0, %p1, 0xffffffff;", "@!%p1 vote.sync.all.pred %p3, %p1, 0xffffffff;"), ("vote.sync.ballot.b32 _, %p0, 0xffffffff;", "vote.sync.ballot.b32 _, %p3, 0xffffffff;")]),
 ("k1-label.targeted-label", C, "a guarded branch to L1 before the mov (never taken: %p1 is 0): L1 becomes a join",
   [("    @!%p0 mov.u64 %rd0, 0;\n", "    @%p1 bra L1;\n    @!%p0 mov.u64 %rd0, 0;\n")]),
]
D = "found-O1/cvt.rzi.s8.f32-69d939ba"
V += [
 ("narrow-cvt-join.found", D, "the found case: a guarded cvt.rzi.s8.f32 into a .u32 register at a branch target, a never-run mask-0 shfl.sync on the other side", []),
 ("narrow-cvt-join.no-shfl", D, "the mask-0 shfl.sync removed", [("    shfl.sync.bfly.b32 _, 0, 0, 0, 0;\n", "")]),
 ("narrow-cvt-join.unguarded", D, "the cvt unguarded", [("@%p2 cvt.rzi.s8.f32", "cvt.rzi.s8.f32")]),
 ("narrow-cvt-join.cvt-s32", D, "cvt.rzi.s32.f32 (a 32-bit destination type)", [("cvt.rzi.s8.f32", "cvt.rzi.s32.f32")]),
]
E = "found-O2/mov.s64-1a2c1b7d"
V += [
 ("n7-vote.found", E, "the found case: a guarded mov, a ballot, a forward branch, and on its fall-through a legacy vote.uni that rewrites the guard (%p0 has no value)", []),
 ("n7-vote.p0-given", E, "%p0 given the value 1 on every lane (the vote.uni's source defined)",
   [(".lanes %p1 = 0;", ".lanes %p0 = 1;\n.lanes %p1 = 0;")]),
 ("n7-vote.setp-writer", E, "a setp writes the guard in the vote.uni's place (N7's detector fires today)",
   [("vote.uni.pred %p1, %p0;", "setp.eq.u32 %p1, 0, 0;")]),
 ("n7-vote.fresh-pred", E, "the vote.uni writes a fresh predicate %p3 (and the activemask after the join reads it)",
   [(".reg .pred %p0, %p1, %p2;", ".reg .pred %p0, %p1, %p2, %p3;"), ("vote.uni.pred %p1, %p0;", "vote.uni.pred %p3, %p0;"), ("@%p1 activemask.b32 %b2;", "@%p3 activemask.b32 %b2;")]),
]

F = "found-O1/max.f64-ba5bf9cf"
V += [
 ("n7-coll.found", F, "the found case: a guarded max.f64, a forward branch, on its fall-through an unguarded vote.sync.all that rewrites the guard", []),
 ("n7-coll.fresh-pred", F, "the vote.sync.all writes a fresh predicate %p4", [(".reg .pred %p0, %p1, %p2, %p3;", ".reg .pred %p0, %p1, %p2, %p3, %p4;"), ("vote.sync.all.pred %p1, %p3, 0xffffffff;", "vote.sync.all.pred %p4, %p3, 0xffffffff;")]),
 ("n7-coll.setp-writer", F, "a setp of the same value (%p3) writes the guard in the vote's place (N7's detector fires today)", [("vote.sync.all.pred %p1, %p3, 0xffffffff;", "setp.ne.and.u32 %p1, 0, 1, %p3;")]),
]
G = "found-O2/mul.lo.u64-cb4d2f6b"
V += [
 ("n7-taken.found", G, "the found case: a guarded mul.lo.u64, a forward branch, and on its taken side (before the join) a setp that rewrites the guard", []),
 ("n7-taken.fresh-pred", G, "the setp writes a fresh predicate %p4", [(".reg .pred %p1, %p2, %p3;", ".reg .pred %p1, %p2, %p3, %p4;"), ("setp.lt.u32 %p3, 0, 0;", "setp.lt.u32 %p4, 0, 0;")]),
 ("n7-taken.on-fall-through", G, "the setp on the fall-through of `@!%p2 bra L1` instead (N7's detector fires today)", [("    @%p2 bra L0;\n    bra L1;\nL0:\n", "    @!%p2 bra L1;\n")]),
]
H = "found-O1/input-58592b2e"
V += [
 ("k1-branch.found", H, "the found case: a guarded cvt.u8.u64, a forward branch over a vote, and after the join a guarded shfl.sync that rewrites the cvt's guard", []),
 ("k1-branch.fresh-pred", H, "the shfl.sync writes a fresh predicate %p2, 1 on entry (and the last match.any reads it)", [(".reg .pred %p0, %p1;", ".reg .pred %p0, %p1, %p2;\n.lanes %p2 = 1;"), ("_|%p0, 0, %laneid, 31", "_|%p2, 0, %laneid, 31"), ("@%p0 match.any.sync.b32 _, 0, 0xffff;", "@%p2 match.any.sync.b32 _, 0, 0xffff;")]),
 ("k1-branch.no-branch", H, "the branch, the vote it skips and the label removed (K1's detector fires today)", [("    @!%p1 bra L0;\n    vote.sync.ballot.b32 _, %p0, 1;\nL0:\n", "")]),
]
I = "found-O2/setp.ne.b32-ca2e022b"
V += [
 ("n4-vn.found", I, "the found case: the one-sided `and`/`setp` repeated after the join through another register (%b4 for %r3)", []),
 ("n4-vn.p1-given", I, "%p1 given an entry value (0 on every lane)", [(".lanes %p4 = 1;", ".lanes %p1 = 0;\n.lanes %p4 = 1;")]),
 ("n4-vn.other-expression", I, "the repeat's `and` with 9 instead of 8 (not the same expression)", [("and.b32 %b4, %laneid, 8;", "and.b32 %b4, %laneid, 9;")]),
]
J = "found-O1/cvt.rni.s64.f64-2fdb1453"
V += [
 ("never-written-overwrite.found", J, "the found case: cvt.rni.s64.f64 of an input %fd0 that every path later overwrites with abs.f64 of the never-written %fd4", []),
 ("never-written-overwrite.fd4-given", J, "%fd4 given an entry value (1.0)", [(".lanes %p1 = 1;", ".lanes %p1 = 1;\n.lanes %fd4 = 0d3ff0000000000000;")]),
 ("never-written-overwrite.no-tail", J, "everything after the cvt removed", [("    setp.ne.b64 %p1, %rd1, %rd1;\n    @!%p1 bra L2;\n    bra L3;\nL2:\n    abs.f64 %fd0, %fd4;\nL3:\n", "")]),
 ("never-written-overwrite.no-match", J, "the branch over the mask-0 match.any.sync removed", [("    @%p1 bra L0;\n    match.any.sync.b32 _, 0, 0;\nL0:\n", "")]),
]
K = "found-O2/input-66763180"
V += [
 ("n15-input.found", K, "the found case: a loop whose copy of the never-written %p4 into %p2 never runs (every lane exits first), %p2's value an input", []),
 ("n15-input.p4-given", K, "%p4 given an entry value (0)", [(".lanes %p3 = 0;", ".lanes %p3 = 0;\n.lanes %p4 = 0;")]),
 ("n15-input.p2-written-before", K, "%p2 written before the loop by a setp (false on every lane) instead of an input (N15's detector fires today)", [(".lanes %p2 = 0;\n", ""), ("L0:\n    setp.le.s32", "    setp.eq.u32 %p2, %ctr0, 7;\nL0:\n    setp.le.s32")]),
]
L = "found-O1/setp.gt.s32-ef00434d"
V += [
 ("n1-branch.found", L, "the found case: a loop whose exit is an unguarded `exit` skipped by `@!%p2 bra L2`, then a write of %lp0 (no entry value)", []),
 ("n1-branch.lp0-given", L, "%lp0 given an entry value (0)", [(".lanes %p1 = 0;", ".lanes %p1 = 0;\n.lanes %lp0 = 0;")]),
 ("n1-branch.guarded-exit", L, "the branch over the exit written as `@%p2 exit` (N1's detector fires today)", [("    @!%p2 bra L2;\n    exit;\n", "    @%p2 exit;\n")]),
]

M = "found-O2/shfl.sync.idx-fcc55c43"
V += [
 ("k5-loop.found", M, "the found case: in a loop, a vote.sync in 2-lane groups whose result the next shfl.sync overwrites (read again only by the next trip's vote, after the overwrite)", []),
 ("k5-loop.p0-given", M, "%p0 given an entry value (0), so the first trip's vote reads a value", [(".reg .pred %lp0;", ".reg .pred %lp0;\n.lanes %p0 = 0;")]),
 ("k5-loop.result-stored", M, "as k5-loop.p0-given, with the vote's result read by a stored selp before the overwrite", [(".reg .pred %lp0;", ".reg .pred %lp0;\n.reg .b32 %r9;\n.lanes %p0 = 0;"), ("    shfl.sync.idx.b32 %b0|%p0", "    selp.b32 %r9, 1, 0, %p0;\n    shfl.sync.idx.b32 %b0|%p0")]),
]

N = "found-O1/redux.sync.min.u32-938185ad"
V += [
 ("shfl-pred.found", N, "the found case: `shfl.sync.idx _|%p2, 0, 1, 0` (lane 1 of a clamp of 0: out of range, %p2 false on every lane), then `@!%p2 redux.sync.min.u32 %r0, 1`", []),
 ("shfl-pred.pred-stored", N, "the redux removed: %p2 stored", [("    @!%p2 redux.sync.min.u32 %r0, 1, 0xffffffff;\n", "")]),
 ("shfl-pred.in-range", N, "the source lane 0 (in range: %p2 true), the redux guarded by %p2 so that it runs", [("shfl.sync.idx.b32 _|%p2, 0, 1, 0,", "shfl.sync.idx.b32 _|%p2, 0, 0, 0,"), ("@!%p2 redux", "@%p2 redux")]),
]
O = "found-O1/vote.ballot-ea6b6639"
V += [
 ("k2-branch.found", O, "the found case: `@%p0 bra L1; exit; L1:` (an exit for the lanes without %p0), then a loop that reads %p0 (the vote.ballot) and writes it (not.pred)", []),
 ("k2-branch.guarded-exit", O, "the branch over the exit written as `@!%p0 exit` (K2's detector fires today)", [("    @%p0 bra L1;\n    exit;\n", "    @!%p0 exit;\n")]),
 ("k2-branch.loop-writes-other", O, "the loop writes %p1 instead of %p0 (%p0 no longer rewritten in the loop)", [("not.pred %p0, %p2;", "not.pred %p1, %p2;")]),
]


Q = "found-O1/match.any.sync.b64-637d4239"
V += [
 ("k5-undef.found", Q, "the found case (-O1 only): in a one-trip loop, `match.all.sync.b32 %r1, %r1, %m0` (each lane's own bit) of the never-written %r1, read only by itself on the next trip; after the loop %r1 rewritten and a `match.any.sync.b64` with an immediate mask", []),
 ("k5-undef.r1-given", Q, "%r1 given an entry value (0), so the match.all's value is defined", [(".lanes %p0 =", ".lanes %r1 = 0;\n.lanes %p0 =")]),
]

os.makedirs("triage/experiments", exist_ok=True)
for name, found, what, edits in V:
    text = "\n".join(program(found)) + "\n"
    for old, new in edits:
        if text.count(old) != 1:
            sys.exit(f"{name}: {old!r} occurs {text.count(old)} times")
        text = text.replace(old, new)
    head = f"// Experiment {name} (variant of {found}): {what}\n"
    open(f"triage/experiments/{name}.ptx.txt", "w").write(head + text)
    print(name)
