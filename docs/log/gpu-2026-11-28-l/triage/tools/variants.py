#!/usr/bin/env python3
"""Writes the experiment variants of triage.md (docs/log/gpu-2026-11-28-l/triage/experiments/)
from session 12's -O1 hunt findings (d/found/): each variant is its found case's program (comments,
among them `// gpu-fails:`, and .expect lines dropped) with one change, as (old, new) text
replacements, and PREDICT.txt (NAME and what the hypothesis of its group says the GPU does at -O1:
`diverges`, `agrees`, `crash` (the compile dies) or `hang` (a hang or a fault)). Run from
docs/log/gpu-2026-11-28-l; then tools/expect.py writes each file's .expect lines from the
reference. (H38's tool of docs/log/gpu-2026-11-28-k/triage/tools/variants.py, new groups.)"""
import os, sys

def program(found):
    lines = open(f"{found}.ptx.txt").read().splitlines()
    return [l for l in lines if not l.startswith("//") and not l.startswith(".expect")]

V = []  # (name, found, predicted, comment, [(old, new)])
W, A, C, H = "diverges", "agrees", "crash", "hang"

# --- K5M: K5 whose unused match.all predicate is of a register a `mov` of an immediate wrote
F = "d/found/shfl.sync.idx-a3d7c9b6"
V += [
 ("k5m.found", F, W, "the found case: `mov.s32 %sd2, 0; match.all.sync.b32 _|%p0, %sd2, %m1` (%m1 the odd and the even lanes), %p0 only stored, then the full-mask `shfl.sync.idx.b32 %s1, 1, 0, 0`: odd lanes 0", []),
 ("k5m.full-mask", F, A, "the match's membermask 0xffffffff (no disjoint groups)", [("match.all.sync.b32 _|%p0, %sd2, %m1;", "match.all.sync.b32 _|%p0, %sd2, 0xffffffff;")]),
 ("k5m.value-input", F, A, "the `mov.s32 %sd2, 0` removed and %sd2 an input 0 on every lane (the predicate not known to the compiler; stored, so used)", [(".reg .b32 %m1;", ".reg .b32 %m1;\n.lanes %sd2 = 0;"), ("    mov.s32 %sd2, 0;\n", "")]),
]
F = "d/found/match.all.sync.b64-4950e802"
V += [
 ("k5m.b64-found", F, W, "the second found case: `mov.b32 %b1, 0; match.all.sync.b32 _|%p2, %b1, %m2` (%m2 four groups), %p2 only stored, then the full-mask `match.all.sync.b64 %b1, 0`: each lane its group", []),
]
# --- K5S: K5 whose unused result is overwritten under a guard from a setp of a register with itself
F = "d/found/vote.sync.ballot-71c773b8"
V += [
 ("k5s.found", F, W, "the found case: `match.any.sync.b32 %s4, 0, %m2` (%m2 five groups), then the full-mask `vote.sync.ballot.b32 %b3`, then `@!%p2 mov.s32 %s4, 0` with %p2 = `setp.lt.s32 %laneid, %laneid` (false): each lane its group", []),
 ("k5s.guard-input", F, W, "the overwrite guarded by `@!%p1`, %p1 an input 0 on every lane (a guard the compiler cannot know)", [(".reg .pred %p0, %p2;", ".reg .pred %p0, %p1, %p2;"), (".lanes %p0 = 0;", ".lanes %p0 = 0;\n.lanes %p1 = 0;"), ("@!%p2 mov.s32 %s4, 0;", "@!%p1 mov.s32 %s4, 0;")]),
 ("k5s.full-mask", F, A, "the match's membermask 0xffffffff (no disjoint groups)", [("match.any.sync.b32 %s4, 0, %m2;", "match.any.sync.b32 %s4, 0, 0xffffffff;")]),
]
F = "d/found/shfl.sync.down-76cb7c61"
V += [
 ("k5s.down-found", F, W, "the second found case: `redux.sync.add.s32 %b0, 0, %m1` (%m1 four groups), overwritten by `@%p0 shfl.sync.bfly.b32 %b0` with %p0 = `setp.ge.u32 %r0, %r0`, then `shfl.sync.down.b32 %s1, 1, 1, 1`: lane 0 gets 0", []),
 ("k5s.down-guard-input", F, W, "the overwriting shuffle guarded by `@%p1`, %p1 an input 1 on every lane", [(".reg .pred %p0;", ".reg .pred %p0, %p1;"), (".lanes %r0 = 0;", ".lanes %r0 = 0;\n.lanes %p1 = 1;"), ("@%p0 shfl.sync.bfly.b32 %b0", "@%p1 shfl.sync.bfly.b32 %b0")]),
]
# --- K5Q: K5 whose unused ballot is overwritten under the second destination of a setp
F = "d/found/redux.sync.max.s32-3e418724"
V += [
 ("k5q.found", F, W, "the found case: `setp.le.and.f32 %p0|%p1, 0, 0, %p1` (%p1 false), `vote.sync.ballot.b32 %r5, %p0, %m1` (%m1 five groups), `@!%p1 mov.s32 %r5, 0`, then the full-mask `redux.sync.max.s32 %s1, %laneid`: each lane its group's maximum", []),
 ("k5q.full-mask", F, A, "the ballot's membermask 0xffffffff", [("vote.sync.ballot.b32 %r5, %p0, %m1;", "vote.sync.ballot.b32 %r5, %p0, 0xffffffff;")]),
 ("k5q.guard-input", F, W, "the overwrite guarded by `@!%p2`, %p2 an input 0 on every lane", [(".reg .pred %p0, %p1;", ".reg .pred %p0, %p1, %p2;"), (".lanes %p0 = 0;", ".lanes %p0 = 0;\n.lanes %p2 = 0;"), ("@!%p1 mov.s32 %r5, 0;", "@!%p2 mov.s32 %r5, 0;")]),
]
# --- K5U: K5 whose unused vote is read only by an unreachable instruction
F = "d/found/shfl.sync.up-34bbfcce"
V += [
 ("k5u.found", F, W, "the found case: `vote.sync.all.pred %p0, !%p2, %m0` (%m0 each lane alone), read only by `@!%p0 mov.b32 %m1, 0` after an unguarded `bra L1`, then the full-mask `shfl.sync.up.b32 %b0|%p0`: lanes 1-31 get 0", []),
 ("k5u.no-dead-mov", F, W, "the unreachable `@!%p0 mov.b32 %m1, 0` removed (K5's detector fires)", [("    @!%p0 mov.b32 %m1, 0;\n", "")]),
 ("k5u.full-mask", F, A, "the vote's membermask 0xffffffff", [("vote.sync.all.pred %p0, !%p2, %m0;", "vote.sync.all.pred %p0, !%p2, 0xffffffff;")]),
 ("k5u.reader-reachable", F, A, "the `bra L1` removed: the `mov` under `@!%p0` runs (the vote's result read)", [("    bra L1;\n", "")]),
]
# --- K5X: K5 whose unused ballot is overwritten under a guard an exit on a branch fixes
F = "d/found/match.any.sync.b64-49487c2a"
V += [
 ("k5x.found", F, W, "the found case: `match.any.sync.b32 %m0, %laneid` (each lane alone), `vote.sync.ballot.b32 %b2, %p0, %m0`, the full-mask `@%p0 match.any.sync.b64 %r0, 0`, then `@%p0 mov.f32 %b2, 0f00000000`, with `@!%p0 bra L8; bra L9; L8: exit; L9:` before: each lane its own bit", []),
 ("k5x.full-mask", F, A, "the ballot's membermask 0xffffffff", [("vote.sync.ballot.b32 %b2, %p0, %m0;", "vote.sync.ballot.b32 %b2, %p0, 0xffffffff;")]),
]
# --- K5H: hangs with K5's shape (an unused collective in disjoint groups, later full-mask ones)
F = "d/found/hang-087222ff"
V += [
 ("k5h.found", F, H, "the found case (found as an illegal-instruction fault, reduced to a hang): `vote.sync.any.pred _, %p2, %m1` (%m1 the odd and the even lanes), the full-mask `vote.sync.all.pred %p1`, lane 0 branches to L6, then the full-mask `match.all.sync.b32 _, 0`", []),
 ("k5h.full-mask", F, A, "the unused vote's membermask 0xffffffff", [("vote.sync.any.pred _, %p2, %m1;", "vote.sync.any.pred _, %p2, 0xffffffff;")]),
 ("k5h.no-branch", F, A, "lane 0's branch `@%lp0 bra L6` removed (no divergence before the last match)", [("    @%lp0 bra L6;\n", "")]),
]
F = "d/found/hang-277e34a0"
V += [
 ("k5h2.found", F, H, "the found case: after `@!%p0 exit`, nested loops with the full-mask `redux.sync.min.u32` and `redux.sync.min.s32 %s0, %laneid, %m0` (%m0 = %grp, pairs; %s0 overwritten after the loops), then `match.any.sync` and `redux.sync.max.u32 _, ..., %m2`", []),
 ("k5h2.full-mask", F, A, "the pairwise redux's membermask 0xffffffff", [("redux.sync.min.s32 %s0, %laneid, %m0;", "redux.sync.min.s32 %s0, %laneid, 0xffffffff;")]),
]
F = "d/found/hang-5c5e5d24"
V += [
 ("k5h3.found", F, H, "the found case: `shfl.sync.idx.b32 %b0|%p5, ..., %m0` (%m0 from `match.any.sync %grp`: groups; %b0 rewritten in the loop), `mov.b32 %m0, 0xffffffff`, `vote.sync.all.pred %p4, %p0, %m0`, a six-trip loop with collectives under a branch", []),
 ("k5h3.full-mask", F, A, "that shuffle's membermask 0xffffffff", [("shfl.sync.idx.b32 %b0|%p5, %b3, 0xffffffff, 0x1c03, %m0;", "shfl.sync.idx.b32 %b0|%p5, %b3, 0xffffffff, 0x1c03, 0xffffffff;")]),
]
# --- LR2: a guard read before a loop that rewrites it, a full-mask ballot of the guard before (session 11's LR)
F = "d/found/fma.rn.f64-6d56780c"
V += [
 ("lr2.found", F, W, "the found case: `@!%p5 vote.sync.ballot.b32 _, !%p2`, `@%p2 fma.rn.f64 %fd2, 0, 0, 0` (%p2 1), then a one-trip loop with `mov.pred %p2, %p3` (0): the fma skipped on the GPU (%fd2 keeps its input)", []),
 ("lr2.fresh-pred", F, A, "the loop's copy into a fresh %p6 (the fma's guard never rewritten)", [(".reg .pred %p2, %p3, %p4, %p5;", ".reg .pred %p2, %p3, %p4, %p5, %p6;"), ("mov.pred %p2, %p3;", "mov.pred %p6, %p3;")]),
 ("lr2.no-vote", F, A, "the ballot removed", [("    @!%p5 vote.sync.ballot.b32 _, !%p2, 0xffffffff;\n", "")]),
 ("lr2.vote-other-pred", F, A, "the ballot of `!%p3`, not of the guard `!%p2`", [("vote.sync.ballot.b32 _, !%p2,", "vote.sync.ballot.b32 _, !%p3,")]),
]
# --- N1B: N1 (a loop's write hoisted above an exit) with an unreachable `bra` after the exit
F = "d/found/setp.gt.s32-59a91017"
V += [
 ("n1b.found", F, W, "the found case: `@%p0 bra L2; exit; bra L3; L2:` in a loop, then `setp.gt.s32 %lp0, %ctr0, 0` (%lp0 no entry value): lanes 20-23 exit on the second trip with %lp0 0, not 1", []),
 ("n1b.no-dead-bra", F, W, "the unreachable `bra L3` removed (N1's detector fires)", [("    exit;\n    bra L3;\n", "    exit;\n")]),
 ("n1b.lp0-given", F, A, "%lp0 an input 0 on every lane (an entry value)", [(".lanes %p0 = 1;", ".lanes %p0 = 1;\n.lanes %lp0 = 0;")]),
]
# --- K2L: K2 (a predicate folded to its value after an exit) with a label on the exit
F = "d/found/vote.sync.any-d436cd9b"
V += [
 ("k2l.found", F, W, "the found case: `@!%p0 bra L1; L0: exit; L1:` (lanes 0, 2, 16, 18 stay with %p0 0), then a loop of `vote.sync.any.pred %p1, %p0, 0x50000; not.pred %p0, %p1`: lanes 16, 18 end with %p0 1, %p1 0 (the fold)", []),
 ("k2l.no-label", F, W, "the label `L0:` no branch targets removed (K2's detector fires)", [("L0:\n", "")]),
 ("k2l.loop-writes-other", F, A, "the loop's `not.pred` into a fresh %p2 (the loop no longer writes %p0: the fold is right)", [(".reg .pred %p0, %p1;", ".reg .pred %p0, %p1, %p2;"), ("not.pred %p0, %p1;", "not.pred %p2, %p1;")]),
]
# --- SP: a redux.sync guarded by a vote of an out-of-range shfl.sync.idx predicate (session 8's SP)
F = "d/found/redux.sync.add.s32-ba615066"
V += [
 ("sp.found", F, W, "the found case (-O1 only): `shfl.sync.idx.b32 _|%p3, 0, 1, 0` (lane 1 out of range: %p3 0), `vote.sync.uni.pred %p7, %p3` (1), `@%p7 redux.sync.add.s32 %b0, 0`: the GPU 3", []),
 ("sp.setp-pred", F, A, "%p3 from `setp.ne.u32 %p3, %laneid, %laneid` (0 on every lane, no shuffle)", [("shfl.sync.idx.b32 _|%p3, 0, 1, 0, 0xffffffff;", "setp.ne.u32 %p3, %laneid, %laneid;")]),
 ("sp.in-range", F, A, "the shuffle's source lane 0 (in range: %p3 1, the vote still 1)", [("shfl.sync.idx.b32 _|%p3, 0, 1, 0, 0xffffffff;", "shfl.sync.idx.b32 _|%p3, 0, 0, 0, 0xffffffff;")]),
]
# --- LC: the linker's crash (session 10's LC): an unused full-mask ballot of a vote's predicate with a math subroutine
F = "d/found/engine-failed-c8c4e80d"
V += [
 ("lc.found", F, C, "the found case: `vote.sync.uni.pred %p5, !%p1` (%p1 never written), `div.s64 _, 0, 0`, `vote.sync.ballot.b32 _, %p5` (unused)", []),
 ("lc.no-div", F, A, "the `div.s64` removed", [("    div.s64 _, 0, 0;\n", "")]),
 ("lc.div-used", F, C, "the `div.s64` of inputs with its result stored (`div.s64 %sd0, 7, %sd1`, %sd1 3): kept at every level", [(".reg .pred %p1, %p5;", ".reg .pred %p1, %p5;\n.reg .s64 %sd0, %sd1;\n.lanes %sd1 = 3;"), ("div.s64 _, 0, 0;", "div.s64 %sd0, 7, %sd1;")]),
 ("lc.div-after", F, C, "the `div.s64` after the ballot (as in engine-failed-6140c50b)", [("    div.s64 _, 0, 0;\n    vote.sync.ballot.b32 _, %p5, 0xffffffff;\n", "    vote.sync.ballot.b32 _, %p5, 0xffffffff;\n    div.s64 _, 0, 0;\n")]),
]
V += [
 ("lc.match-found", "d/found/engine-failed-6140c50b", C, "the second found case: `vote.sync.any.pred %p2, %p1`, `@!%p0 match.any.sync.b32 _, 0`, `vote.sync.ballot.b32 _, %p2`, then `div.u64 _, 0, 0`", []),
 ("lc.sqrt-found", "d/found/engine-failed-cee80c9f", C, "the third found case (sm_70): `vote.all.pred %p3, %p4`, `sqrt.rp.f64 _, 0`, `vote.sync.ballot.b32 _, %p3`", []),
]
# --- NL: an input predicate read back wrong after a nested loop (-O1 only; nine predicates)
F = "d/found/and.b32-577d2828"
V += [
 ("nl.found", F, W, "the found case (-O1 only): %p3 (an input 0, never written) reads back 1 on lanes 28-31, the lanes that run the outer loop again; `@!%p3 and.b32 %m2` skipped there", []),
 ("nl.p0-given", F, W, "%p0 (never written, copied by the last `@%p3 mov.pred %p6, %p0`) an input 0", [(".lanes %p2 = 0;", ".lanes %p2 = 0;\n.lanes %p0 = 0;")]),
 ("nl.no-final-mov", F, A, "the last `@%p3 mov.pred %p6, %p0` removed", [("    @%p3 mov.pred %p6, %p0;\n", "")]),
 ("nl.no-p1", F, A, "`setp.ne.b32 %p1, %laneid, 0` removed (one predicate fewer live to the end)", [("    setp.ne.b32 %p1, %laneid, 0;\n", "")]),
 ("nl.one-trip", F, A, "%ctr0 0 on every lane (one trip of the outer loop)", [(".lanes %ctr0 = 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 8 3 5 2;", ".lanes %ctr0 = 0;")]),
]
# --- NZ: neg.f32 of +0.0 read as +0.0 where two guarded writes that do not run follow
F = "d/found/neg.f32-8ef1e843"
V += [
 ("nz.found", F, W, "the found case: `neg.f32 %f1, %f2` (%f2 +0.0), `@%p4 mov.f32 %f1, 0f00000000; @%p4 mov.b32 %f1, %laneid` (%p4 0): the GPU +0.0, not -0.0", []),
 ("nz.dead-mov-one", F, A, "the overwritten guarded `mov.f32` of 1.0, not +0.0", [("@%p4 mov.f32 %f1, 0f00000000;", "@%p4 mov.f32 %f1, 0f3f800000;")]),
 ("nz.f2-one", F, A, "%f2 1.0 (the result -1.0: only a zero's sign can be lost)", [(".lanes %f2 = 0f00000000;", ".lanes %f2 = 0f3f800000;")]),
]

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
    predict.append(f"{name} {pred}")
open(f"{out}/PREDICT.txt", "w").write("\n".join(predict) + "\n")
print(len(V), "variants")
