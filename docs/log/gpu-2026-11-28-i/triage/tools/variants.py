#!/usr/bin/env python3
"""Writes the experiment variants of triage.md (docs/log/gpu-2026-11-28-i/triage/experiments/)
from the found cases: each variant is its found case's program (comments and .expect lines
dropped) with one change, as (old, new) text replacements. Run from docs/log/gpu-2026-11-28-i;
then tools/expect.py writes each file's .expect lines from the reference. (As H30's tool of
docs/log/gpu-2026-11-27-h/triage/tools/variants.py.)"""
import os, sys

def program(found):
    lines = open(f"{found}.ptx.txt").read().splitlines()
    return [l for l in lines if not l.startswith("//") and not l.startswith(".expect")]

V = []  # (name, found, comment, [(old, new)])

A = "found-default/add.f32-1cfb2faf"
V += [
 ("n6-mov.found", A, "the found case: `mov.f32 %f1, 8.0`, then `add.f32 %f0, %f1, 0fcd20b866` whose exact sum is a tie (N6's sum, one immediate through a mov)", []),
 ("n6-mov.immediates", A, "both operands immediates, no mov (N6's detector fires today)", [("add.f32 %f0, %f1, 0fcd20b866", "add.f32 %f0, 0f41000000, 0fcd20b866")]),
 ("n6-mov.input", A, "%f1 an input (8.0 on every lane), no mov: the compiler cannot fold", [("    mov.f32 %f1, 0f41000000;\n", ""), (".reg .f32 %f0, %f1;", ".reg .f32 %f0, %f1;\n.lanes %f1 = 0f41000000;")]),
 ("n6-mov.no-tie", A, "the mov of 7.0 instead of 8.0: the exact sum is no tie", [("mov.f32 %f1, 0f41000000", "mov.f32 %f1, 0f40e00000")]),
]
B = "found-O3/sub.f32-ed72fc8f"
V += [
 ("n6-neg.found", B, "the found case: `neg.f32` of an immediate, then `sub.f32` of the subnormal 1 and it: the exact difference is a tie", []),
 ("n6-neg.immediates", B, "the sub of two immediates (the neg folded by hand; N6's detector fires today)", [("    neg.f32 %f0, 0f814bf3e0;\n", ""), ("sub.f32 %f1, 0f00000001, %f0", "sub.f32 %f1, 0f00000001, 0f014bf3e0")]),
 ("n6-neg.input", B, "%f0 an input (0f014bf3e0 on every lane), no neg: the compiler cannot fold", [("    neg.f32 %f0, 0f814bf3e0;\n", ""), (".reg .f32 %f0, %f1;", ".reg .f32 %f0, %f1;\n.lanes %f0 = 0f014bf3e0;")]),
 ("n6-neg.no-tie", B, "the subnormal 2 instead of 1: the exact difference is representable (no tie)", [("sub.f32 %f1, 0f00000001, %f0", "sub.f32 %f1, 0f00000002, %f0")]),
]
C = "found-default/mul.hi.s16-b4f77406"
V += [
 ("n18-mulhi.found", C, "the found case: `abs.s16` (0x8000 on lane 26), then `mul.hi.s16` of 1 and it: the high half of a product, 0 for every non-negative abs", []),
 ("n18-mulhi.no-abs", C, "the mul.hi reads %h0 itself (no abs)", [("mul.hi.s16 %rh1, 1, %rh1", "mul.hi.s16 %rh1, 1, %h0")]),
 ("n18-mulhi.by-2", C, "the mul.hi of 2 and the abs (still 0 for every non-negative 16-bit value)", [("mul.hi.s16 %rh1, 1, %rh1", "mul.hi.s16 %rh1, 2, %rh1")]),
 ("n18-mulhi.shr-sign", C, "`shr.s16 %rh1, %rh1, 15` of the abs (its sign, 0 for every non-negative value) in the mul.hi's place", [("mul.hi.s16 %rh1, 1, %rh1", "shr.s16 %rh1, %rh1, 15")]),
 ("n18-mulhi.no-min", C, "lane 26's input 0x8001 instead of 0x8000 (every abs non-negative)", [("0xffff 2 0x8000 1", "0xffff 2 0x8001 1")]),
]
D = "found-O3/cvt.rzi.s8.f32-d5113951"
V += [
 ("n12-match.found", D, "the found case: `@%p2 exit`, a `match.any.sync.b64` of an immediate, then `@!%p2 cvt.rzi.s8.f32` into the .b32 %b1 (upper half 0xdbb7 on the GPU, the immediate's top 16 bits)", []),
 ("n12-match.other-imm", D, "the match's value 0x123456789abcdef0", [("0xdbb7c8c5a7f37dd3", "0x123456789abcdef0")]),
 ("n12-match.no-match", D, "the match.any removed", [("    match.any.sync.b64 %r6, 0xdbb7c8c5a7f37dd3, 0xaaaaaaaa;\n", "")]),
 ("n12-match.shfl", D, "a `shfl.sync.up.b32 _, 0, 0, 0, 0xaaaaaaaa` in the match's place (N12's detector fires today)", [("match.any.sync.b64 %r6, 0xdbb7c8c5a7f37dd3, 0xaaaaaaaa;", "shfl.sync.up.b32 _, 0, 0, 0, 0xaaaaaaaa;")]),
 ("n12-match.unguarded", D, "the cvt unguarded", [("@!%p2 cvt.rzi.s8.f32", "cvt.rzi.s8.f32")]),
 ("n12-match.cvt-s32", D, "cvt.rzi.s32.f32 (a 32-bit destination type)", [("cvt.rzi.s8.f32", "cvt.rzi.s32.f32")]),
]
E = "found-default/cvt.rmi.u16.f32-9e7ef406"
V += [
 ("n12-mov.found", E, "the found case: `@!%p0 exit` (no lane exits), `@%p0 cvt.rmi.u16.f32 %s1, %b1` into a .s32 register, then `mov.b64 %bd1, 0xd289754427374ac9` (upper half 0x2737 on the GPU)", []),
 ("n12-mov.other-imm", E, "the mov.b64's immediate 0x1111222233334444", [("0xd289754427374ac9", "0x1111222233334444")]),
 ("n12-mov.no-exit", E, "the `@!%p0 exit` removed", [("    @!%p0 exit;\n", "")]),
 ("n12-mov.unguarded", E, "the cvt unguarded", [("@%p0 cvt.rmi.u16.f32", "cvt.rmi.u16.f32")]),
 ("n12-mov.no-mov", E, "the mov.b64 of the immediate removed", [("    mov.b64 %bd1, 0xd289754427374ac9;\n", "")]),
]
H = "found-default/hang-2ca99f33"
V += [
 ("hang-vote.found", H, "the found hang: `@%p0 bra L1` over a shfl.sync, then at L1 an unguarded full-mask `vote.sync.all %p0, %p0` (0 on every lane), and `@%p0 bra L5` over a match.any.sync with the mask of the lanes there", []),
 ("hang-vote.fresh-pred", H, "the vote writes a fresh predicate %p3, and the later branch reads it", [(".reg .pred %p0, %p1, %p2;", ".reg .pred %p0, %p1, %p2, %p3;"), ("vote.sync.all.pred %p0, %p0, 0xffffffff;", "vote.sync.all.pred %p3, %p0, 0xffffffff;"), ("@%p0 bra L5;", "@%p3 bra L5;")]),
 ("hang-vote.other-branch-guard", H, "the first branch guarded by a fresh copy %p3 of `%laneid <= 11` (the vote still rewrites %p0, which the first branch no longer reads)", [(".reg .pred %p0, %p1, %p2;", ".reg .pred %p0, %p1, %p2, %p3;"), ("    setp.le.u32 %p0, %laneid, 11;\n    @%p0 bra L1;\n", "    setp.le.u32 %p0, %laneid, 11;\n    setp.le.u32 %p3, %laneid, 11;\n    @%p3 bra L1;\n")]),
]

M = "found-default/mov.b32-4e8e3807"
V += [
 ("n15-noloop.found", M, "the found case, no loop: `mov.b32 %b0, %b1` (%b1 an input, 0), then on every lane `mov.f32 %b1, %f3` of the never-written %f3 (the GPU's %b0 is not %b1's entry value)", []),
 ("n15-noloop.f3-given", M, "%f3 given an entry value (0f00000000)", [(".lanes %b1 = 0;", ".lanes %b1 = 0;\n.lanes %f3 = 0f00000000;")]),
 ("n15-noloop.imm-copy", M, "`mov.f32 %b1, 0f3f800000` (an immediate) in the copy's place", [("mov.f32 %b1, %f3;", "mov.f32 %b1, 0f3f800000;")]),
]
N = "found-default/input-5bcbe815"
V += [
 ("n15-branch.found", N, "the found case: a loop every lane leaves at once by `@!%p2 bra L3`, before `mov.f32 %f0, %f2` of the never-written %f2 (%f0 an input, 0)", []),
 ("n15-branch.f2-given", N, "%f2 given an entry value (0f00000000)", [(".lanes %f0 = 0f00000000;", ".lanes %f0 = 0f00000000;\n.lanes %f2 = 0f00000000;")]),
 ("n15-branch.no-loop", N, "no back edge (the `@%lp0 bra L0` removed): a forward branch over the copy only", [("    @%lp0 bra L0;\n", "")]),
]
X = "found-O3/sub.rn.f64-a3089df0"
V += [
 ("n15-loopread.found", X, "the found case: in a one-trip loop, `sub.rn.f64 %fd1, %fd1, %bd1` (%bd1 an input, 0), then `mov.b64 %bd1, %bd0` of the never-written %bd0", []),
 ("n15-loopread.bd0-given", X, "%bd0 given an entry value (0)", [(".lanes %bd1 = 0;", ".lanes %bd0 = 0;\n.lanes %bd1 = 0;")]),
 ("n15-loopread.no-loop", X, "no back edge (the `@%lp0 bra L0` removed)", [("    @%lp0 bra L0;\n", "")]),
]

R = "found-default/redux.sync.add.u32-3c6e0b41"
V += [
 ("redux-count.found", R, "the found case: `bfind.s64 %b0, %rd0` of the never-written %rd0, `redux.sync.add.u32 %r0, 1, 0xffffffff` (32; the GPU 31), `@%p1 mov.f32 %b2, 0` under the never-written %p1", []),
 ("redux-count.no-bfind", R, "the bfind removed", [("    bfind.s64 %b0, %rd0;\n", "")]),
 ("redux-count.no-mov", R, "the guarded mov removed", [("    @%p1 mov.f32 %b2, 0f00000000;\n", "")]),
 ("redux-count.p1-given", R, "%p1 given an entry value (0 on every lane)", [(".lanes %b3 = 0;", ".lanes %b3 = 0;\n.lanes %p1 = 0;")]),
 ("redux-count.rd0-given", R, "%rd0 given an entry value (0)", [(".lanes %b3 = 0;", ".lanes %b3 = 0;\n.lanes %rd0 = 0;")]),
]
J = "found-O3/match.all.sync.b64-66cbd4dc"
V += [
 ("match-join.found", J, "the found case: lane 21 branches to L12, lane 11 falls through to it, and there `match.all.sync.b64 _|%p0, %sd0, 0x200800` of the two (values 21 and 0: %p0 = 0; the GPU 1)", []),
 ("match-join.one-path", J, "lane 21 takes the fall-through too (the first branch's guard `%laneid == 32`, no lane; the second skips every lane but 11 and 21)", [("setp.eq.u32 %p0, %laneid, 21;", "setp.eq.u32 %p0, %laneid, 32;"), ("    setp.ne.u32 %p0, %laneid, 11;\n", "    setp.ne.u32 %p0, %laneid, 11;\n    setp.ne.and.u32 %p0, %laneid, 21, %p0;\n")]),
 ("match-join.same-values", J, "lane 21's value 0, as lane 11's (the match true, %p0 = 1 by the reference)", [("0 20 21 22 23 0", "0 20 0 22 23 0")]),
]

G1 = "found-default/max.f32-b52d6ec1"
V += [
 ("n3-guarded.found", G1, "the found case: in a loop, `max.f32 %f0, 0, %f1` of the never-written %f1, then `@%p1 mov.f32 %f1, 1` (a guarded rewrite, %p1 1 on every lane)", []),
 ("n3-guarded.unguarded", G1, "the rewrite unguarded (N3's detector fires today)", [("@%p1 mov.f32 %f1, 0f00000001;", "mov.f32 %f1, 0f00000001;")]),
 ("n3-guarded.f1-given", G1, "%f1 given an entry value (0f00000000)", [(".lanes %p1 = 1;", ".lanes %p1 = 1;\n.lanes %f1 = 0f00000000;")]),
]
G2 = "found-O3/sub.f32-9c621e46"
V += [
 ("n3-guarded2.found", G2, "the found case: in an 18-trip loop, `sub.f32 %f1, %f0, 0` of the never-written %f0, then `@!%p0 mov.f32 %f0, 1` (%p0 0 on every lane)", []),
 ("n3-guarded2.unguarded", G2, "the rewrite unguarded (N3's detector fires today)", [("@!%p0 mov.f32 %f0, 0f00000001;", "mov.f32 %f0, 0f00000001;")]),
 ("n3-guarded2.f0-given", G2, "%f0 given an entry value (0f00000000)", [(".lanes %p0 = 0;", ".lanes %p0 = 0;\n.lanes %f0 = 0f00000000;")]),
]
I = "found-O3/input-8a0e18c9"
V += [
 ("n15-exit.found", I, "the found case: a loop whose lanes leave by `exit` unless %p3, then `mov.u32 %r5, %r0` of the never-written %r0 (%r5 an input, 0)", []),
 ("n15-exit.r0-given", I, "%r0 given an entry value (0)", [(".lanes %r5 = 0;", ".lanes %r0 = 0;\n.lanes %r5 = 0;")]),
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
