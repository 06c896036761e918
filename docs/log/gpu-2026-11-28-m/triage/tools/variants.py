#!/usr/bin/env python3
"""Writes the experiment variants of triage.md (docs/log/gpu-2026-11-28-m/triage/experiments/)
from session 13's -O3 hunt findings (a/found/): each variant is its found case's program (comments,
among them `// gpu-fails:`, and .expect lines dropped) with one change, as (old, new) text
replacements, and PREDICT.txt (NAME and what the hypothesis of its group says the GPU does at the
found case's lowest failing level, -O1 or -O2, the third word of its PREDICT.txt line: `diverges`, `agrees`, `crash` or
`hang` (a hang or a fault)). Run from docs/log/gpu-2026-11-28-m; then tools/expect.py writes each
file's .expect lines from the reference (each then checked by hand, triage.md). (H41's tool of
docs/log/gpu-2026-11-28-l/triage/tools/variants.py, new groups.)"""
import os, sys

def program(found):
    lines = open(f"{found}.ptx.txt").read().splitlines()
    return [l for l in lines if not l.startswith("//") and not l.startswith(".expect")]

V = []  # (name, found, predicted, comment, [(old, new)])
W, A, C, H = "diverges", "agrees", "crash", "hang"

# --- N1S: N1 (a loop's write after an exit hoisted above it) with a sink `mov` before the exit
F = "a/found/setp.gt.s32-a1a57ec2"
V += [
 ("n1s.found", F, W, "the found case: `@%p0 bra L4; mov.b32 _, 0; exit; L4:` in a loop, then `setp.gt.s32 %lp0, %ctr0, 0` (%lp0 no entry value): lanes 8-11 exit on the second trip with %lp0 0, not the first trip's 1", []),
 ("n1s.no-dead-mov", F, W, "the sink `mov.b32 _, 0` removed (N1's detector fired before this branch)", [("    mov.b32 _, 0;\n", "")]),
 ("n1s.lp0-given", F, A, "%lp0 an input 0 on every lane (an entry value)", [(".lanes %p0 = 1;", ".lanes %p0 = 1;\n.lanes %lp0 = 0;")]),
]
# --- K1X: K1 (a guard read after a guarded collective redefines it) with an unreachable exit between
F = "a/found/not.b64-989d5d72"
V += [
 ("k1x.found", F, W, "the found case (lane 30 alone): `@%p3 not.b64 %bd2, 0`, `bra L1; exit; L1:`, then `@%p0 vote.any.pred %p3, !%p3` (0): the not skipped on the GPU, %bd2 0", []),
 ("k1x.no-dead-exit", F, W, "the unreachable `exit` after `bra L1` removed (K1's detector fired before this branch)", [("    bra L1;\n    exit;\n", "    bra L1;\n")]),
 ("k1x.fresh-pred", F, A, "the vote writes a fresh %p4 (the not's guard never redefined)", [(".reg .pred %p0, %p1, %p2, %p3;", ".reg .pred %p0, %p1, %p2, %p3, %p4;"), ("@%p0 vote.any.pred %p3, !%p3;", "@%p0 vote.any.pred %p4, !%p3;")]),
]
# --- LR3: an unused ballot of the guard, an instruction under it, a later rewrite of it (session 11's LR)
F = "a/found/or.b64-6ea83353"
V += [
 ("lr3.found", F, W, "the found case (lane 31 alone): `mov.pred %p1, %p3`, `vote.sync.ballot.b32 _, !%p1, 0x80000000`, `@%p1 or.b64 %bd4, 0, 0`, then past a branch `mov.pred %p3, %p4` (0): the or skipped on the GPU, %bd4 1", []),
 ("lr3.no-vote", F, A, "the ballot removed", [("    vote.sync.ballot.b32 _, !%p1, 0x80000000;\n", "")]),
 ("lr3.rewrite-fresh", F, A, "the late `mov.pred` into a fresh %p5 (%p3, the copy's source, never rewritten)", [(".reg .pred %p0, %p1, %p2, %p3, %p4;", ".reg .pred %p0, %p1, %p2, %p3, %p4, %p5;"), ("mov.pred %p3, %p4;", "mov.pred %p5, %p4;")]),
 ("lr3.no-copy", F, W, "no copy: the ballot and the or read %p3, the rewritten predicate, itself (LR2's form)", [("    mov.pred %p1, %p3;\n", ""), ("!%p1, 0x80000000", "!%p3, 0x80000000"), ("@%p1 or.b64", "@%p3 or.b64")]),
]
F = "a/found/shr.b64-635baa64"
V += [
 ("lr3.shr-found", F, W, "the second found case: `@!%p2 vote.sync.ballot.b32 _, !%p2, 0xffffffff`, `@!%p2 mov.f64 %bd1, 0`, a one-trip loop with `mov.pred %p2, %p0` (1), a never-run mask-0 `shfl.sync.idx`: the mov skipped on the GPU, %bd0 1", []),
 ("lr3.shr-no-shfl", F, A, "the never-run mask-0 `@!%p2 shfl.sync.idx.b32` removed (session 11's LR needed one, session 12's LR2 had none)", [("    @!%p2 shfl.sync.idx.b32 _, 0, 0, 0, 0;\n", "")]),
]
V += [
 ("lr3.mov64-found", "a/found/mov.b64-384b059f", W, "the third found case (-O2): `vote.sync.ballot.b32 _, !%p0, 0xf000000` (the four live lanes), `@%p0 mov.b64 %rd0, 0`, a later loop rewriting %p0 under %p0: %rd0 1 on the GPU", []),
]
# --- N12F: N12 (a narrow cvt into a 32-bit register keeps another register's upper half), new fillers
F = "a/found/cvt.rzi.s8.f32-7d63691e"
V += [
 ("n12f.found", F, W, "the found case (-O2): `@!%p2 mov.s32 %s1, 0xffffffff; @%p2 exit; mul.hi.u64 ...; @!%p2 cvt.rzi.s8.f32 %r2, 0`: %r2 0xffff0000, %s1's upper half", []),
 ("n12f.filler-other", F, W, "%s1's immediate 0x12345678 (the GPU's %r2 should be 0x12340000 if the upper half is %s1's)", [("mov.s32 %s1, 0xffffffff;", "mov.s32 %s1, 0x12345678;")]),
 ("n12f.s32", F, A, "the cvt to .s32 (no narrow destination)", [("cvt.rzi.s8.f32 %r2", "cvt.rzi.s32.f32 %r2")]),
]
F = "a/found/fma.rm.ftz.f32-022d08a2"
V += [
 ("n12g.found", F, W, "the second found case (-O2; lanes 22, 23 live): `@!%p2 cvt.rpi.s8.f32 %b0, 0` then `fma.rm.ftz.f32 %b1, %b0, 0f00000001, 0`: lane 22 -0.0, as if %b0's upper half were 0xd0f3 (negative), the top of the low word of lane 22's %sd0 input 0x32009299d0f3c437", []),
 ("n12g.sd0-positive", F, A, "lane 22's %sd0 input 0x3200929950f3c437 (the low word's sign bit clear: the upper half 0x50f3 positive, the fma +0.0)", [("0x32009299d0f3c437", "0x3200929950f3c437")]),
 ("n12g.sd0-negative-23", F, W, "lane 23's %sd0 input 0x5a4ee5e0e47ca08c (the low word's sign bit set): lane 23 -0.0 too", [("0x5a4ee5e0647ca08c", "0x5a4ee5e0e47ca08c")]),
]
# --- N15I: a merge with a never-written register at a loop's exit whose test is loop-invariant
F = "a/found/input-1e8a4b65"
V += [
 ("n15i.found", F, W, "the found case (-O2): `L4: @%p1 bra L5; mov.f32 %f1, %f2; @%lp0 bra L4; L5:`, %p1 1 (the copy never runs), %f2 and %lp0 never written: %f1 the lane index on the GPU, not its input 0", []),
 ("n15i.f2-given", F, A, "%f2 an input 1.0 (the copied register has a value)", [(".lanes %p1 = 1;", ".lanes %p1 = 1;\n.lanes %f2 = 0f3f800000;")]),
 ("n15i.lp0-given", F, W, "%lp0 an input 0 (the back edge's guard has a value)", [(".lanes %p1 = 1;", ".lanes %p1 = 1;\n.lanes %lp0 = 0;")]),
 ("n15i.no-back-edge", F, A, "the back edge `@%lp0 bra L4` removed (no loop: a plain forward branch over the copy)", [("    @%lp0 bra L4;\n", "")]),
]
# --- K5R: K5 whose unused per-lane vote is read only by a setp whose value does not depend on it
F = "a/found/mov.b32-a90f6e39"
V += [
 ("k5r.found", F, W, "the found case (-O2): `vote.sync.all.pred %p2, %p3, %m0` (%m0 each lane's own bit), read only by `setp.ge.and.s32 %p1, 0, 1, %p2` (false whatever %p2) in a one-trip loop, then the full-mask `match.all.sync.b32 %b0|%p2, 0`: each lane its own bit", []),
 ("k5r.reader-uses", F, A, "`setp.ge.or.s32 %p1, 0, 1, %p2` (%p1 = %p2: the vote's result used)", [("setp.ge.and.s32 %p1, 0, 1, %p2;", "setp.ge.or.s32 %p1, 0, 1, %p2;")]),
 ("k5r.no-reader", F, W, "the `setp.ge.and` removed (K5's detector fires)", [("    setp.ge.and.s32 %p1, 0, 1, %p2;\n", "")]),
 ("k5r.full-mask", F, A, "the vote's membermask 0xffffffff", [("vote.sync.all.pred %p2, %p3, %m0;", "vote.sync.all.pred %p2, %p3, 0xffffffff;")]),
]
# --- K5J: K5 whose overwrite's known guard was written before a join
F = "a/found/vote.sync.ballot-a512961f"
V += [
 ("k5j.found", F, W, "the found case: `setp.lt.f32 %p0, 0, 0` (false), a branch over a never-run mask-0 ballot to L3, `vote.sync.uni.pred %p1, !%p2, %m1` (%m1 each lane's own bit), `@!%p0 mov.pred %p1, %p2`, the full-mask `vote.sync.ballot.b32 %b2`: each lane its own bit", []),
 ("k5j.no-join", F, W, "the branch, the never-run mask-0 ballot and L3 removed (K5's detector fires)", [("    @!%p2 bra L3;\n    vote.sync.ballot.b32 %r4, %p0, 0;\nL3:\n", "")]),
 ("k5j.full-mask", F, A, "the vote's membermask 0xffffffff", [("vote.sync.uni.pred %p1, !%p2, %m1;", "vote.sync.uni.pred %p1, !%p2, 0xffffffff;")]),
]
# --- K1M: a guarded match.any whose guard a later unguarded match.all rewrites, past a join
F = "a/found/match.any.sync.b32-03db89e5"
V += [
 ("k1m.found", F, W, "the found case (lane 29 falls through): `@!%p3 match.any.sync.b32 %r4, 0, 0x20000000` (%p3 0 from the first match.all), then at the join L1 `match.all.sync.b32 _|%p3, 0, 0xffffffff` (1): %r4 3 on the GPU, not 0x20000000", []),
 ("k1m.r4-given", F, W, "%r4 an input 0x55 (if the match is skipped, the GPU gives 0x55)", [(".lanes %b1 = 0;", ".lanes %b1 = 0;\n.lanes %r4 = 0x55;")]),
 ("k1m.fresh-pred", F, A, "the last match.all writes %p0 (the guard %p3 never rewritten)", [("match.all.sync.b32 _|%p3, 0, 0xffffffff;", "match.all.sync.b32 _|%p0, 0, 0xffffffff;")]),
]
# --- MJL: a match.all of an activemask result after lanes leave a loop at different trips
F = "a/found/setp.lt.xor.u64-ce8dce7f"
V += [
 ("mjl.found", F, W, "the found case: a loop of `mov.b32 %s3, 0; @!%p3 activemask.b32 %s3` that lanes 28, 29, 31 leave after one trip (0xfaaaafaa), the others after eight (0x4aaaafaa), then `match.all.sync.b32 _|%p0, %s3, 0x2aaaaaaa` (lane 29 differs: false): true on the GPU (%p0 after the xor 0)", []),
 ("mjl.value-laneid", F, A, "the match.all of %laneid (a value the compiler cannot take as uniform)", [("match.all.sync.b32 _|%p0, %s3, 0x2aaaaaaa;", "match.all.sync.b32 _|%p0, %laneid, 0x2aaaaaaa;")]),
 ("mjl.s3-input", F, A, "%s3 an input with the same values, the loop's `mov` and `activemask` removed", [("    mov.b32 %s3, 0;\n    @!%p3 activemask.b32 %s3;\n", ""), (".lanes %p2 =", ".lanes %s3 = " + " ".join("0xfaaaafaa" if l in (28, 29, 31) else "0x4aaaafaa" for l in range(32)) + ";\n.lanes %p2 =")]),
 ("mjl.match-any", F, W, "`match.any.sync.b32 %r0, %s3, 0x2aaaaaaa` in the match.all's place (%p0 then never written): lane 29 0x20000000, the others 0x0aaaaaaa; the GPU 0x2aaaaaaa everywhere if the value is taken as uniform", [(".reg .s32 %s3;", ".reg .s32 %s3;\n.reg .b32 %r0;"), ("match.all.sync.b32 _|%p0, %s3, 0x2aaaaaaa;", "match.any.sync.b32 %r0, %s3, 0x2aaaaaaa;")]),
]
# --- MJV: a full-mask vote.sync.all at a label two paths join (N27's join, a vote)
F = "a/found/vote.sync.all-21199e11"
V += [
 ("mjv.found", F, W, "the found case (sm_70): lanes 0-27 reach L5 through L4 (`@!%p1 vote.any.pred`), lanes 28-31 by `bra L5`; `vote.sync.all.pred %p0, !%p0, 0xffffffff` (0: lanes 28-31 have !%p0 0) gives lanes 0-27 1", []),
 ("mjv.no-bra", F, A, "the `bra L5` removed: lanes 28-31 fall through L4 too (one path into L5)", [("    bra L5;\n", "")]),
 ("mjv.no-mask0", F, W, "the never-run mask-0 `vote.sync.any.pred` removed", [("    vote.sync.any.pred %p2, !%p3, 0;\n", "")]),
 ("mjv.any", F, W, "`vote.sync.any.pred %p0, !%p0` at the join (1 everywhere; per path lanes 28-31 0)", [("vote.sync.all.pred %p0, !%p0, 0xffffffff;", "vote.sync.any.pred %p0, !%p0, 0xffffffff;")]),
]
# --- S64: a 64-bit signed compare of 0 against the immediate 1 (activemask-e952eef1, setp.le.s64-ba7966a0)
F = "a/found/activemask-e952eef1"
V += [
 ("s64.am-found", F, W, "the found case: `setp.lt.s64 %p6, %bd0, 1` (%bd0 0: true), `@!%p6 bra L7` (L7: exit), `@%p0 activemask.b32 %r4`: %r4 0 on the GPU (and another register's 32 lanes)", []),
 ("s64.am-minus1", F, A, "%bd0 an input -1 (`-1 < 1` true, and `-1 < 0` true too)", [(".lanes %bd0 = 0;", ".lanes %bd0 = 0xffffffffffffffff;")]),
 ("s64.am-p6-input", F, A, "the `setp.lt.s64` removed, %p6 an input 1", [("    setp.lt.s64 %p6, %bd0, 1;\n", ""), (".lanes %p6 = 0;", ".lanes %p6 = 1;")]),
]
F = "a/found/setp.le.s64-ba7966a0"
V += [
 ("s64.le-found", F, W, "the second found case: `setp.le.s64 %p0, 1, %rd0` (%rd0 0: false) after branches around `@%p1 exit`: %p0 1 on the GPU", []),
 ("s64.le-minus1", F, A, "%rd0 an input -1 (`1 <= -1` false, and `-1 >= 0` false too)", [(".lanes %rd0 = 0;", ".lanes %rd0 = 0xffffffffffffffff;")]),
 ("s64.le-s32", F, A, "the compare `setp.le.s32 %p0, 1, %s9` of a 32-bit input 0", [(".reg .s32 %s0, %s1, %s2, %s3, %s4;", ".reg .s32 %s0, %s1, %s2, %s3, %s4, %s9;"), (".lanes %rd0 = 0;", ".lanes %rd0 = 0;\n.lanes %s9 = 0;"), ("setp.le.s64 %p0, 1, %rd0;", "setp.le.s32 %p0, 1, %s9;")]),
 ("s64.le-no-dead-block", F, A, "the never-run `@!%p7 setp.ge.s32 %p2, 0, 0; @%p1 match.any.sync.b32 _, 0, 0` after L12 removed", [("    @!%p7 setp.ge.s32 %p2, 0, 0;\n    @%p1 match.any.sync.b32 _, 0, 0;\n", "")]),
]
# --- K5H4: the hang K5's detector names (an unused match.all.b64 in groups, full-mask collectives after a branch)
F = "a/found/hang-b136f580"
V += [
 ("k5h4.found", F, H, "the found case (sm_70): `match.all.sync.b64 _, 0xdbd757f4bf60649b, %m0` (%m0 five groups, unused), full-mask `match.all.sync.b32`, lanes 30-31 apart, full-mask `match.any.sync.b64`", []),
 ("k5h4.full-mask", F, A, "the unused match's membermask 0xffffffff", [("match.all.sync.b64 _, 0xdbd757f4bf60649b, %m0;", "match.all.sync.b64 _, 0xdbd757f4bf60649b, 0xffffffff;")]),
]
# --- K5HB: a hang with a shfl.sync in groups and a legacy shuffle under a branch (session 12's K5H3)
F = "a/found/hang-64141393"
V += [
 ("k5hb.found", F, H, "the found case (sm_70): `shfl.sync.up.b32 %f3|%p6, ..., %m2` (%m2 eight groups of four lanes), a branch that leaves lane 19 alone at the legacy `@%p3 shfl.idx.b32 %b6|%p0, %s4, 8, 31`, then `vote.sync.ballot.b32 %s3, %p0, %m0` in the same groups", []),
 ("k5hb.full-mask", F, H, "the group shuffle's membermask 0xffffffff (K5H3's `.full-mask` hung on the H200)", [("shfl.sync.up.b32 %f3|%p6, %s5, %laneid, 31, %m2;", "shfl.sync.up.b32 %f3|%p6, %s5, %laneid, 31, 0xffffffff;")]),
 ("k5hb.no-legacy", F, A, "the legacy `@%p3 shfl.idx.b32` removed", [("    @%p3 shfl.idx.b32 %b6|%p0, %s4, 8, 31;\n", "")]),
]

def level(name, found):
    """The level a variant is judged at: its found case's lowest failing level (its
    `// class:` line; for the hangs, which have none, -O3, the level the hunt found and reduced them at)."""
    for l in open(f"{found}.ptx.txt"):
        if l.startswith("// class:") and "lowest failing level" in l:
            return l.split("lowest failing level ")[1].split(")")[0]
    return "-O3"

out = "triage/experiments"
os.makedirs(out, exist_ok=True)
predict = []
for name, found, pred, what, edits in V:
    text = "\n".join(program(found)) + "\n"
    for old, new in edits:
        if text.count(old) != 1:
            sys.exit(f"{name}: {old!r} occurs {text.count(old)} times")
        text = text.replace(old, new)
    head = f"// Experiment {name} (variant of {found}): {what}\n"
    open(f"{out}/{name}.ptx.txt", "w").write(head + text)
    predict.append(f"{name} {pred} {level(name, found)}")
open(f"{out}/PREDICT.txt", "w").write("\n".join(predict) + "\n")
print(len(V), "variants")
