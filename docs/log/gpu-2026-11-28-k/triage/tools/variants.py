#!/usr/bin/env python3
"""Writes the experiment variants of triage.md (docs/log/gpu-2026-11-28-k/triage/experiments/s11f/)
from session 11's found cases (c/found/): each variant is its found case's program (comments and
.expect lines dropped) with one change, as (old, new) text replacements, and PREDICT.txt (NAME and
what the hypothesis of its group says the GPU does at -O3: `diverges` or `agrees`). Run from
docs/log/gpu-2026-11-28-k; then tools/expect.py writes each file's .expect lines from the
reference. (H33's tool of docs/log/gpu-2026-11-28-j/triage/tools/variants.py, new groups.)"""
import os, sys

def program(found):
    lines = open(f"{found}.ptx.txt").read().splitlines()
    return [l for l in lines if not l.startswith("//") and not l.startswith(".expect")]

V = []  # (name, found, predicted, comment, [(old, new)])
W, A = "diverges", "agrees"

# --- K1D: K1 (guard read after a later collective redefined it), K1's scan stopped by a dead instruction
F = "c/found/cvt.rzi.f64.f64-91e96a1d"
V += [
 ("k1d.found", F, W, "the found case: `@!%p0 cvt.rzi.f64.f64 %bd0` then `@!%p1 shfl.sync.down.b32 _|%p0`; between `exit` and `bra L5` the unreachable `setp.gt.s32 _, 0, 0`", []),
 ("k1d.no-dead-setp", F, W, "the unreachable `setp.gt.s32 _, 0, 0` removed: session 10's cvt.rzi.f64.f64-8aa07dfe, which K1's detector names (k1-exit.found, wrong from -O1 on the H100)", [("    setp.gt.s32 _, 0, 0;\n", "")]),
 ("k1d.fresh-pred", F, A, "the shuffle's predicate into a fresh %p2, and the mask-0 vote after it guarded and reading %p2 (the cvt's guard not redefined)", [(".reg .pred %p0, %p1;", ".reg .pred %p0, %p1, %p2;"), ("shfl.sync.down.b32 _|%p0", "shfl.sync.down.b32 _|%p2"), ("@!%p0 vote.sync.ballot.b32 _, %p0, 0", "@!%p2 vote.sync.ballot.b32 _, %p2, 0")]),
]
# --- K1U: K1 with an unguarded collective redefining the guard, past a self-loop
F = "c/found/add.u64-a4f1f484"
V += [
 ("k1u.found", F, W, "the found case: `@!%p2 add.u64 %rd1, 0, 0`, a self-loop `L6: @%lp0 bra L6`, then the unguarded `shfl.sync.bfly.b32 _|%p2` (lane 0's %p2 becomes 1)", []),
 ("k1u.fresh-pred", F, A, "the shuffle's predicate into a fresh %p4 (and the ballot reads it): the add's guard never redefined", [(".reg .pred %p0, %p1, %p2, %p3, %lp0;", ".reg .pred %p0, %p1, %p2, %p3, %p4, %lp0;"), ("shfl.sync.bfly.b32 _|%p2", "shfl.sync.bfly.b32 _|%p4"), ("vote.sync.ballot.b32 _, !%p2", "vote.sync.ballot.b32 _, !%p4")]),
 ("k1u.no-self-loop", F, W, "the never-taken self-loop `L6: @%lp0 bra L6` removed (K1's scan need not cross a loop)", [("L6:\n    @%lp0 bra L6;\n", "")]),
 ("k1u.guarded-shfl", F, W, "the shuffle guarded by `@!%p1` (0 on every lane: it still runs), K1's own shape of a guarded collective", [("    shfl.sync.bfly.b32 _|%p2", "    @!%p1 shfl.sync.bfly.b32 _|%p2")]),
]
# --- K5L: K5 whose vote's result is read only by a self-copy in a loop, then overwritten
F = "c/found/match.all.sync.b32-0032ab61"
V += [
 ("k5l.found", F, W, "the found case: `vote.sync.all.pred %p0, !%p0, %m1` (per-lane groups), read only by `mov.pred %p0, %p0` in a loop, then overwritten by the full-mask `match.all.sync.b32 %r1|%p0`", []),
 ("k5l.no-copy", F, W, "the self-copy `mov.pred %p0, %p0` removed (the vote's result plainly unused: K5 today)", [("    mov.pred %p0, %p0;\n", "")]),
 ("k5l.copy-kept", F, A, "the copy into a fresh %p1 that nothing overwrites (stored: the vote's result used)", [(".reg .pred %p0;", ".reg .pred %p0, %p1;"), ("mov.pred %p0, %p0;", "mov.pred %p1, %p0;")]),
]
# --- K5G: K5's unused result overwritten by a guarded write whose guard is known (H33's K5G)
F = "c/found/redux.sync.min.s32-3969421d"
V += [
 ("k5g2.found", F, W, "the found case: `vote.sync.uni.pred %p3, %p1, %m1` (%m1 six disjoint groups), the full-mask `redux.sync.min.s32 %s4, %laneid`, then `@!%p0 mov.pred %p3, %p1` with %p0 from `setp.gt.and.s32 %p0, 0, 0, %p0` (false)", []),
 ("k5g2.unguarded", F, W, "the overwrite unguarded (K5's detector fires)", [("@!%p0 mov.pred %p3, %p1;", "mov.pred %p3, %p1;")]),
 ("k5g2.no-vote", F, A, "the per-group vote removed (no unused collective before the full-mask redux)", [("    vote.sync.uni.pred %p3, %p1, %m1;\n", "")]),
 ("k5g2.full-mask-vote", F, A, "the vote's mask 0xffffffff (no disjoint groups)", [("vote.sync.uni.pred %p3, %p1, %m1;", "vote.sync.uni.pred %p3, %p1, 0xffffffff;")]),
]
F = "c/found/redux.sync.xor.b32-2e34239e"
V += [
 ("k5g3.found", F, W, "the found case: `redux.sync.min.u32 %r1, %laneid, %m1` (%m1 from `match.any.sync %laneid`: each lane alone), `@!%p1 mov.u32 %r1, 0` with %p1 = `setp.ne.s32 %rd1, %rd1` (false), then the full-mask `redux.sync.xor.b32`; the first redux skipped by a branch", []),
 ("k5g3.unguarded", F, W, "the overwrite unguarded (K5's detector fires)", [("@!%p1 mov.u32 %r1, 0;", "mov.u32 %r1, 0;")]),
 ("k5g3.full-mask-redux", F, A, "the per-lane redux's mask 0xffffffff (no disjoint groups)", [("redux.sync.min.u32 %r1, %laneid, %m1;", "redux.sync.min.u32 %r1, %laneid, 0xffffffff;")]),
 ("k5g3.no-late-setp", F, W, "the last `setp.eq.and.b32 %p1, 0, %b0, %p1` (after the overwrite) removed", [("    setp.eq.and.b32 %p1, 0, %b0, %p1;\n", "")]),
]
# --- N2W: a shuffle of a shuffled warp-uniform value folded to the lane's own input (N2)
F = "c/found/shfl.bfly-49dad52c"
V += [
 ("n2w.found", F, W, "the found case: `shfl.sync.idx.b32 %r2|%p3, 1, ...` (an immediate), then the non-.sync `shfl.bfly.b32 %f0, %r2, 16, 31`: lane 25 reads lane 9's 1, the GPU 0 (lane 25's own %r2 is undefined)", []),
 ("n2w.value-laneid", F, A, "the first shuffle of %laneid, not the immediate 1 (not warp-uniform: no fold)", [("shfl.sync.idx.b32 %r2|%p3, 1,", "shfl.sync.idx.b32 %r2|%p3, %laneid,")]),
 ("n2w.value-input", F, A, "the first shuffle of an input register %r0 (1 on every lane, not known to the compiler)", [(".reg .u32 %r2;", ".reg .u32 %r0, %r2;\n.lanes %r0 = 1;"), ("shfl.sync.idx.b32 %r2|%p3, 1,", "shfl.sync.idx.b32 %r2|%p3, %r0,")]),
]
F = "c/found/shfl.sync.bfly-be64e508"
V += [
 ("n2a.found", F, W, "the found case (also session 10's, H33's K5S): `shfl.sync.bfly.b32 %b5, %s0, 5, ...` of activemask's %s0 (warp-uniform), then `shfl.sync.bfly.b32 %r1, %b5, 1, 0x1807, ...`: lane 5 gets 0 where lane 4's %b5 is 0xb6db6db6 (lane 5's own %b5 undefined)", []),
 ("n2a.value-laneid", F, A, "the first bfly of %laneid, not activemask's value", [("shfl.sync.bfly.b32 %b5, %s0, 5,", "shfl.sync.bfly.b32 %b5, %laneid, 5,")]),
 ("n2a.no-down-no-match", F, W, "the unused `shfl.sync.down` and `match.all.sync` (K5's parts) removed: N2 needs neither", [("    shfl.sync.down.b32 _, 0, 0, 0, %m2;\n", ""), ("    match.all.sync.b32 _, 0, 0xffffffff;\n", "")]),
]
# --- N15L: a loop's merge of an entry value with a never-written register, read before the copy
F = "c/found/min.f32-519968fc"
V += [
 ("n15l.found", F, W, "the found case: `L9: min.f32 %f2, %f1, %f2; mov.f32 %f1, %f0; @%lp0 bra L9` (one trip, %f0 never written): the min reads %f1's entry value, the GPU 0", []),
 ("n15l.f0-given", F, A, "%f0 an input (1.0 on every lane)", [(".lanes %f1 = 0fe853505e;", ".lanes %f1 = 0fe853505e;\n.lanes %f0 = 0f3f800000;")]),
 ("n15l.no-loop", F, A, "the back edge `@%lp0 bra L9` removed (straight line)", [("    @%lp0 bra L9;\n", "")]),
]
F = "c/found/cvt.rp.f64.u32-4210d0ff"
V += [
 ("n15p.found", F, W, "the found case (also session 10's; H33's n15-pred.found, wrong at -O3 only on the H100): `L1: @%p2 cvt.rp.f64.u32 %fd2, 0; mov.pred %p2, %p0; @%lp0 bra L1`, %p0 never written", []),
 ("n15p.p0-given", F, A, "%p0 an input (1 on every lane)", [(".lanes %p2 = 1;", ".lanes %p2 = 1;\n.lanes %p0 = 1;")]),
]
# --- N12E: a guarded narrow cvt keeps the destination's old upper half, no shuffle (an exit after)
F = "c/found/cvt.rmi.s16.f32-e8443cfc"
V += [
 ("n12e.found", F, W, "the found case: on the fall-through of `@!%p0 bra L6`, `@%p0 cvt.rmi.s16.f32 %s0, 0` into the .s32 %s0, then `@%p1 exit`: lanes 28, 30 keep %s0's upper half", []),
 ("n12e.unguarded", F, A, "the cvt unguarded", [("@%p0 cvt.rmi.s16.f32", "cvt.rmi.s16.f32")]),
 ("n12e.cvt-s32", F, A, "`cvt.rmi.s32.f32` (a full-width destination type)", [("cvt.rmi.s16.f32", "cvt.rmi.s32.f32")]),
 ("n12e.no-exit", F, W, "the `@%p1 exit` removed", [("    @%p1 exit;\n", "")]),
 ("n12e.no-branch", F, A, "the branch `@!%p0 bra L6` removed (the guard not fixed by a branch)", [("    @!%p0 bra L6;\n", "")]),
]
# --- N23A: N23 with `abs.f32` of an immediate as the choice's other write
F = "c/found/abs.f32-0065bdde"
V += [
 ("n23a.found", F, W, "the found case: `abs.f32 %f0, 0f00000001; @%p1 neg.f32 %f0, 0; abs.f32 %f0, %f0`: the GPU -0.0", []),
 ("n23a.mov", F, W, "the first write `mov.f32 %f0, 0f00000001`: session 10's abs.f32-d1acea24, which N23's detector names (n23-neg.found, wrong from -O1 on the H100)", [("    abs.f32 %f0, 0f00000001;", "    mov.f32 %f0, 0f00000001;")]),
 ("n23a.unguarded", F, A, "the `neg.f32` unguarded (no choice)", [("@%p1 neg.f32", "neg.f32")]),
]
# --- LR: a guard read before a loop that rewrites it (K1/N7 family, no collective rewrite)
F = "c/found/input-cc33e847"
V += [
 ("lr.found", F, W, "the found case: `@%p0 mov.u32 %rd0, 0` (%p0 0), a full-mask vote, then a loop whose `setp.ge.u32 %p0, 0, 0` sets %p0 on lanes 1..31: the GPU's %rd0 0 there", []),
 ("lr.fresh-pred", F, A, "the loop's setp into a fresh %p1 (%p0 stays 0; the branch after the loop is then never taken)", [(".reg .pred %p0;", ".reg .pred %p0, %p1;"), ("setp.ge.u32 %p0, 0, 0;", "setp.ge.u32 %p1, 0, 0;")]),
 ("lr.no-shfl", F, W, "the never-executed `@%p0 shfl.sync.idx.b32 _, 0, 0, 0, 0` (mask 0) removed", [("    @%p0 shfl.sync.idx.b32 _, 0, 0, 0, 0;\n", "")]),
 ("lr.no-vote", F, W, "the full-mask `vote.sync.ballot.b32 _, !%p0` removed", [("    vote.sync.ballot.b32 _, !%p0, 0xffffffff;\n", "")]),
]
# --- VB: a non-.sync vote.ballot whose guard a join's mov.pred rewrites (H33: not looked at)
F = "c/found/vote.ballot-248872c6"
V += [
 ("vb.found", F, W, "the found case (also session 10's): `vote.sync.all.pred %p2, %p0`, `@!%p0 bra L2`, `@!%p2 vote.ballot.b32 %b1, %p0`, then at L2 `mov.pred %p2, %p0`: lanes 29, 31 get 3, not 0xa0000000", []),
 ("vb.fresh-pred", F, A, "the join's copy into %p1, not %p2 (the ballot's guard never rewritten)", [("L2:\n    mov.pred %p2, %p0;", "L2:\n    mov.pred %p1, %p0;")]),
 ("vb.sync", F, W, "`vote.sync.ballot.b32 %b1, %p0, 0xa0000000` (the .sync form, mask the lanes there)", [("vote.ballot.b32 %b1, %p0;", "vote.sync.ballot.b32 %b1, %p0, 0xa0000000;")]),
 ("vb.mov-guarded", F, W, "a guarded `mov.b32 %b1, 0xa0000000` for the ballot: not a collective (if the guard is read after the rewrite, %b1 keeps its unwritten value here too)", [("@!%p2 vote.ballot.b32 %b1, %p0;", "@!%p2 mov.b32 %b1, 0xa0000000;")]),
]

out = "triage/experiments/s11f"
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
