#!/usr/bin/env python3
"""Writes the experiment variants of triage.md (docs/log/gpu-2026-11-28-j/triage/experiments/)
from the found cases: each variant is its found case's program (comments and .expect lines
dropped) with one change, as (old, new) text replacements, and PREDICT.txt (what the hypothesis
of its group says the GPU does: `diverges` or `agrees`). Run from docs/log/gpu-2026-11-28-j;
then tools/expect.py writes each file's .expect lines from the reference. (H31's tool of
docs/log/gpu-2026-11-28-i/triage/tools/variants.py, with the prediction added.)"""
import os, sys

def program(found):
    lines = open(f"{found}.ptx.txt").read().splitlines()
    return [l for l in lines if not l.startswith("//") and not l.startswith(".expect")]

V = []  # (name, found, predicted, comment, [(old, new)])
W, A = "diverges", "agrees"

# --- K5T: K5's unused collective whose result only a dead instruction reads
F = "c/found-default/shfl.sync.idx-30d11f44"
V += [
 ("k5t-copy.found", F, W, "the found case: `vote.sync.all.pred %p0, %p0, %m2` (per-lane groups), read only by `mov.pred %p0, %p0`, which `setp.ne.b32 %p0` overwrites; then a full-mask `shfl.sync.idx`", []),
 ("k5t-copy.no-copy", F, W, "the `mov.pred %p0, %p0` removed (K5's detector fires today)", [("    mov.pred %p0, %p0;\n", "")]),
 ("k5t-copy.copy-kept", F, A, "the copy into a fresh %p1 that nothing overwrites (stored: the vote's result used)", [(".reg .pred %p0;", ".reg .pred %p0, %p1;"), ("mov.pred %p0, %p0;", "mov.pred %p1, %p0;")]),
]
F = "d/found-O3/mul.f32-271e13d6"
V += [
 ("k5t-ballot.found", F, W, "the found case: `vote.sync.uni.pred %p0, %p0, %m1` (per-lane groups), read only by `vote.sync.ballot.b32 %s0, %p0`, whose %s0 `mov.b32 %s0, 0` overwrites; then a full-mask `shfl.sync.idx`", []),
 ("k5t-ballot.ballot-kept", F, A, "the `mov.b32 %s0, 0` removed: the ballot's result stored, so the vote's is used", [("    mov.b32 %s0, 0;\n", "")]),
]
F = "a/found-replay/selp.b32-dbae30e9"
V += [
 ("k5t-redux.found", F, W, "the found case: `redux.sync.add.s32 %s0, 0, %m0` (per-lane groups), read only by `mov.s32 %s0, %s0`, which `mov.b32 %s0, 0` overwrites; then a full-mask `shfl.sync.up`", []),
 ("k5t-redux.kill-removed", F, A, "the last `mov.b32 %s0, 0` removed: the redux's result stored", [("    mov.b32 %s0, 0;\n", "")]),
]

# --- K5U: K5 with a match.all of a register that nothing writes (its predicate known)
F = "a/found-replay/match.any.sync.b32-ac585f68"
V += [
 ("k5u.found", F, W, "the found case: `match.all.sync.b32 _|%p0, %s2, %m2` of the never-written %s2 (per-lane groups), %p0 stored; then a full-mask `match.any.sync`", []),
 ("k5u.value-imm", F, W, "the match.all of the immediate 0 (K5's detector fires today)", [("match.all.sync.b32 _|%p0, %s2, %m2", "match.all.sync.b32 _|%p0, 0, %m2")]),
 ("k5u.value-input", F, A, "%s2 an input (5 on every lane)", [(".reg .s32 %s2;", ".reg .s32 %s2;\n.lanes %s2 = 5;")]),
 ("k5u.value-laneid", F, A, "the match.all of %laneid", [("match.all.sync.b32 _|%p0, %s2, %m2", "match.all.sync.b32 _|%p0, %laneid, %m2")]),
]
F = "a/found-replay/match.any.sync.b64-beed078d"
V += [
 ("k5u-b64.found", F, W, "the found case: `match.all.sync.b32 _|%p0, %sd0, %m1` of the never-written %sd0 (%m1 an input, four groups); then a full-mask `match.any.sync.b64`", []),
 ("k5u-b64.value-input", F, A, "%sd0 an input (5 on every lane)", [(".reg .s32 %s0, %sd0;", ".reg .s32 %s0, %sd0;\n.lanes %sd0 = 5;")]),
]

# --- K5G: K5's unused result overwritten by a guarded write whose guard the compiler knows holds
F = "d/found-O3/redux.sync.xor.b32-985ecf29"
V += [
 ("k5g-setp.found", F, W, "the found case: `redux.sync.min.u32 %r1, %laneid, %m1` (per-lane groups), then `setp.ne.s32 %p1, %rd1, %rd1` (false) and `@!%p1 mov.u32 %r1, 0`; then a full-mask `redux.sync.xor`", []),
 ("k5g-setp.unguarded", F, W, "the overwrite unguarded (K5's detector fires today)", [("@!%p1 mov.u32 %r1, 0;", "mov.u32 %r1, 0;")]),
 ("k5g-setp.guard-unknown", F, A, "`setp.eq.u32 %p1, %laneid, 99` (false on every lane, but not known to be)", [("setp.ne.s32 %p1, %rd1, %rd1;", "setp.eq.u32 %p1, %laneid, 99;")]),
]
F = "a/found-replay/match.any.sync.b32-638a027c"
V += [
 ("k5g-branch.found", F, W, "the found case: on the fall-through of `@%p0 bra L2`, `match.all.sync.b32 %s5, 0, %m1` (per-lane groups), a full-mask-of-the-lanes `match.any.sync`, then `@!%p0 mov.b32 %s5, 0` (!%p0 known there)", []),
 ("k5g-branch.unguarded", F, W, "the overwrite unguarded (K5's detector fires today)", [("@!%p0 mov.b32 %s5, 0;", "mov.b32 %s5, 0;")]),
 ("k5g-branch.other-guard", F, A, "the overwrite guarded by an input %p1 (1 on every lane; not known on that path)", [(".reg .pred %p0;", ".reg .pred %p0, %p1;\n.lanes %p1 = 1;"), ("@!%p0 mov.b32 %s5, 0;", "@%p1 mov.b32 %s5, 0;")]),
]

# --- K5V: K5 with a vote whose result is known (vote.any of a predicate an exit fixed)
F = "d/found-O3/match.any.sync.b32-dfd1390a"
V += [
 ("k5v.found", F, W, "the found case: after `@%p0 exit`, `vote.sync.any.pred %p0, !%p0, %m0` (per-lane groups; !%p0 known true), %p0 read by `@%p0 setp.le.s32 %p0, ...`; then `match.any.sync` of the 31 lanes", []),
 ("k5v.unknown-pred", F, A, "the vote of !%p1, %p1 an input (0 on every lane; not known)", [(".reg .pred %p0;", ".reg .pred %p0, %p1;\n.lanes %p1 = 0;"), ("vote.sync.any.pred %p0, !%p0, %m0;", "vote.sync.any.pred %p0, !%p1, %m0;")]),
]

# --- K5S: K5 with an unused shfl.sync
F = "d/found-O3/shfl.sync.bfly-be64e508"
V += [
 ("k5s.found", F, W, "the found case: `shfl.sync.down.b32 _, 0, 0, 0, %m2` (per-group register mask, no result), then a full-mask `match.all`, then `shfl.sync.bfly` of the lanes left", []),
 ("k5s.vote", F, W, "a `vote.sync.ballot.b32 _, %p0, %m2` in the shuffle's place (K5's detector fires today)", [("shfl.sync.down.b32 _, 0, 0, 0, %m2;", "vote.sync.ballot.b32 _, %p0, %m2;")]),
 ("k5s.result-kept", F, A, "the shuffle's value stored in a fresh %b0", [(".reg .b32 %b3, %b5;", ".reg .b32 %b0, %b3, %b5;"), ("shfl.sync.down.b32 _, 0, 0, 0, %m2;", "shfl.sync.down.b32 %b0, 0, 0, 0, %m2;")]),
]

# --- K1: a guarded instruction read its guard after a later guarded collective redefined it
F = "a/found-replay/add.f32-7b043ee6"
V += [
 ("k1-loop.found", F, W, "the found case: `@%p6 add.f32`, then a one-trip loop of a ballot, then `@!%p3 vote.sync.uni.pred %p6, !%p6`", []),
 ("k1-loop.no-loop", F, W, "the loop (its label and back edge) removed", [("L3:\n", ""), ("    @%lp0 bra L3;\n", "")]),
 ("k1-loop.fresh-pred", F, A, "the vote writes a fresh %p7", [(".reg .pred %p3, %p6, %lp0;", ".reg .pred %p3, %p6, %p7, %lp0;"), ("vote.sync.uni.pred %p6, !%p6,", "vote.sync.uni.pred %p7, !%p6,")]),
]
F = "d/found-O3/cvt.rzi.f64.f64-8aa07dfe"
V += [
 ("k1-exit.found", F, W, "the found case: at L4, `@!%p0 cvt.rzi.f64.f64 %bd0`, then at L5 `@!%p1 shfl.sync.down _|%p0` (redefines the cvt's guard)", []),
 ("k1-exit.fresh-pred", F, A, "the shuffle's predicate a fresh %p2 (the later vote reads it)", [(".reg .pred %p0, %p1;", ".reg .pred %p0, %p1, %p2;"), ("_|%p0, 0, 0, 31", "_|%p2, 0, 0, 31"), ("@!%p0 vote.sync.ballot.b32 _, %p0, 0;", "@!%p2 vote.sync.ballot.b32 _, %p2, 0;")]),
]

# --- N7W: a guarded read of a predicate, then a forward branch, a non-collective rewrite of it
F = "a/found-replay/mov.s64-5d3b4cc0"
V += [
 ("n7-label.found", F, W, "the found case: `@%p2 mov.s64 %sd1, 0`, a label L6 nothing branches to, `@!%p0 bra L7`, on its fall-through `setp.eq.s32 %p2, 0, 1`", []),
 ("n7-label.no-label", F, W, "the label L6 removed (N7's detector fires today)", [("L6:\n", "")]),
 ("n7-label.fresh-pred", F, A, "the setp writes a fresh %p3 (the ballot reads it)", [(".reg .pred %p0, %p1, %p2;", ".reg .pred %p0, %p1, %p2, %p3;"), ("setp.eq.s32 %p2, 0, 1;", "setp.eq.s32 %p3, 0, 1;"), ("vote.sync.ballot.b32 _, %p2,", "vote.sync.ballot.b32 _, %p3,")]),
]
F = "d/found-O3/cnot.b16-b5d90ba1"
V += [
 ("n7-target.found", F, W, "the found case: `@!%p0 cnot.b16 %sh0, 0`, `@!%p2 bra L0` (taken), at L0 `setp.le.or.u32 %p0, 0, 0, %p1`", []),
 ("n7-target.fresh-pred", F, A, "the setp writes a fresh %p4 (the ballot reads it)", [(".reg .pred %p0, %p1, %p2, %p3;", ".reg .pred %p0, %p1, %p2, %p3, %p4;"), ("setp.le.or.u32 %p0, 0, 0, %p1;", "setp.le.or.u32 %p4, 0, 0, %p1;"), ("vote.sync.ballot.b32 _, %p0,", "vote.sync.ballot.b32 _, %p4,")]),
]
F = "d/found-O3/neg.f32-4c1936d1"
V += [
 ("n7-neg.found", F, W, "the found case: `@%p3 mov.f32 %f1, 0`, `@%p1 bra L3` (taken), at L3 `setp.le.u32 %p3, 0, 0`", []),
 ("n7-neg.fresh-pred", F, A, "the setp at L3 writes a fresh %p4", [(".reg .pred %p0, %p1, %p2, %p3;", ".reg .pred %p0, %p1, %p2, %p3, %p4;"), ("setp.le.u32 %p3, 0, 0;", "setp.le.u32 %p4, 0, 0;")]),
]
F = "d/found-O3/sub.s32-0b3f022a"
V += [
 ("n7-before.found", F, W, "the found case: after `@!%p0 bra L0` (not taken), `@%p2 mov.s32 %b1, 0` and at once `setp.ne.b32 %p2, %laneid, 0`, then branches", []),
 ("n7-before.fresh-pred", F, A, "the setp writes a fresh %p3 (the branch and the ballot read it)", [(".reg .pred %p0, %p2;", ".reg .pred %p0, %p2, %p3;"), ("setp.ne.b32 %p2, %laneid, 0;", "setp.ne.b32 %p3, %laneid, 0;"), ("@!%p2 bra L1;", "@!%p3 bra L1;"), ("vote.sync.ballot.b32 _, %p2, 0;", "vote.sync.ballot.b32 _, %p3, 0;")]),
]
F = "a/found-replay/or.b64-781014f7"
V += [
 ("n7-movpred.found", F, W, "the found case: `@!%p0 or.b64 %bd1, 0, 0`, `@%p3 bra L4` (taken), at L4 `mov.pred %p0, %p3`", []),
 ("n7-movpred.fresh-pred", F, A, "the mov.pred writes a fresh %p1 (the last vote reads it)", [(".reg .pred %p0, %p3;", ".reg .pred %p0, %p1, %p3;"), ("mov.pred %p0, %p3;", "mov.pred %p1, %p3;"), ("vote.sync.any.pred _, !%p0,", "vote.sync.any.pred _, !%p1,")]),
]

# --- N20W: N20's xor of the fixed value, on the branch's target side or past an inner branch
F = "c/found-default/xor.b32-73aada6f"
V += [
 ("n20-target.found", F, W, "the found case: `setp.ne.u32 %p1, %laneid, 0; @!%p1 bra L3; bra L10; L3: xor.b32 %b1, %laneid, 0xffffffff` (at L3 %laneid is 0)", []),
 ("n20-target.fall-through", F, W, "N20's own shape: `@%p1 bra L10`, the xor on the fall-through (N20's detector fires today)", [("    @!%p1 bra L3;\n    bra L10;\nL3:\n", "    @%p1 bra L10;\n")]),
 ("n20-target.other-imm", F, A, "`xor.b32 %b1, %laneid, 0x0f0f0f0f`", [("xor.b32 %b1, %laneid, 0xffffffff", "xor.b32 %b1, %laneid, 0x0f0f0f0f")]),
 ("n20-target.lane-5", F, W, "`setp.ne.u32 %p1, %laneid, 5` (lane 5 at L3: 0xfffffffa; N20 predicts 5)", [("setp.ne.u32 %p1, %laneid, 0;", "setp.ne.u32 %p1, %laneid, 5;")]),
]
F = "c/found-default/xor.b32-b2532cf9"
V += [
 ("n20-inner.found", F, W, "the found case: `setp.ne.u32 %p3, %laneid, 0; @%p3 bra L16;` then `@!%p1 bra L17;` (not taken) before `@!%p2 xor.b32 %b2, 0xffffffff, %laneid`", []),
 ("n20-inner.no-inner-branch", F, W, "the inner `@!%p1 bra L17` removed (N20's detector fires today)", [("    @!%p1 bra L17;\n", "")]),
]

# --- N18W: mul.hi of an abs by any positive immediate
F = "a/found-replay/mul.hi.s16-1e5604e5"
V += [
 ("n18-mulhi31.found", F, W, "the found case: `abs.s16` (0x8000 on lane 26), then `mul.hi.s16 %rh1, 31, %rh1`", []),
 ("n18-mulhi31.by-1", F, W, "`mul.hi.s16` by 1 (N18's detector fires today)", [("mul.hi.s16 %rh1, 31, %rh1", "mul.hi.s16 %rh1, 1, %rh1")]),
 ("n18-mulhi31.no-abs", F, A, "the mul.hi reads %h0 (no abs)", [("mul.hi.s16 %rh1, 31, %rh1", "mul.hi.s16 %rh1, 31, %h0")]),
]

# --- N21W: a float-to-unsigned cvt (saturating) as the amount of a 16-bit shift
F = "c/found-default/shr.s16-854ba472"
V += [
 ("n21-rmi.found", F, W, "the found case: `cvt.rmi.ftz.u32.f32` of -3.0 (0 by saturation), then `shr.s16 %h0, 1, %r2`", []),
 ("n21-rmi.rpi", F, W, "`cvt.rpi.ftz.u32.f32` (N21's rounding; N21's detector fires today)", [("cvt.rmi.ftz.u32.f32", "cvt.rpi.ftz.u32.f32")]),
 ("n21-rmi.no-ftz", F, W, "`cvt.rmi.u32.f32` (no .ftz)", [("cvt.rmi.ftz.u32.f32", "cvt.rmi.u32.f32")]),
 ("n21-rmi.positive", F, A, "%f1 3.0 (no saturation: 1 >> 3)", [(".lanes %f1 = 0fc0400000;", ".lanes %f1 = 0f40400000;")]),
]

# --- N23W: abs.f32 of -0.0 written by a guarded neg
F = "d/found-O3/abs.f32-d1acea24"
V += [
 ("n23-neg.found", F, W, "the found case: `mov.f32 %f0, 1 ulp; @%p1 neg.f32 %f0, 0; abs.f32 %f0, %f0`", []),
 ("n23-neg.mov", F, W, "`@%p1 mov.f32 %f0, 0f80000000` (N23's detector fires today)", [("@%p1 neg.f32 %f0, 0f00000000;", "@%p1 mov.f32 %f0, 0f80000000;")]),
 ("n23-neg.unguarded", F, A, "the neg unguarded (no choice)", [("@%p1 neg.f32 %f0, 0f00000000;", "neg.f32 %f0, 0f00000000;")]),
]

# --- K2W: a predicate fixed by a branch, rewritten and read in a loop after it
F = "c/found-default/sub.s32-1e6d8245"
V += [
 ("k2-inner.found", F, W, "the found case: in an outer loop, `@%p2 bra L1` over `mov.s32 _, 0; exit`, then an inner loop of `setp.le.xor.s32 %p2, 0, 0, %p2`", []),
 ("k2-inner.no-mov", F, W, "the `mov.s32 _, 0` before the exit removed (`@%p2 bra L1; exit; L1:`: K2's detector fires today)", [("    mov.s32 _, 0;\n", "")]),
 ("k2-inner.fresh-pred", F, A, "the inner loop toggles a fresh %p3 (an input 1), %p2 not rewritten", [(".reg .pred %p2;", ".reg .pred %p2, %p3;\n.lanes %p3 = 1;"), ("setp.le.xor.s32 %p2, 0, 0, %p2;", "setp.le.xor.s32 %p3, 0, 0, %p3;")]),
]
F = "d/found-O3/vote.ballot-843c7d54"
V += [
 ("k2-enter.found", F, W, "the found case: `@!%p6 bra L1; bra L3; L1:` into a loop of `vote.ballot.b32 %r3, !%p6; not.pred %p6, %p0`", []),
 ("k2-enter.fall-through", F, W, "`@%p6 bra L3` instead (the loop on the fall-through: K2's detector fires today)", [("    @!%p6 bra L1;\n    bra L3;\nL1:\n", "    @%p6 bra L3;\n")]),
 ("k2-enter.p6-input", F, A, "the rewrite `not.pred %p6, %p0` replaced by `mov.pred %p6, %p6` (nothing to fold wrongly)", [("not.pred %p6, %p0;", "mov.pred %p6, %p6;")]),
]

# --- N15W: a copy of a never-written predicate over a guard read earlier in a one-trip loop
F = "d/found-O3/cvt.rp.f64.u32-4210d0ff"
V += [
 ("n15-pred.found", F, W, "the found case: a one-trip loop `@%p2 cvt.rp.f64.u32 %fd2, 0; mov.pred %p2, %p0` (%p0 never written, %p2 an input)", []),
 ("n15-pred.p0-given", F, A, "%p0 given an entry value (1)", [(".lanes %p2 = 1;", ".lanes %p0 = 1;\n.lanes %p2 = 1;")]),
 ("n15-pred.no-loop", F, A, "the loop's label and back edge removed", [("L1:\n", ""), ("    @%lp0 bra L1;\n", "")]),
]

# --- MJ: a .sync collective at a label two member lanes reach by different paths
F = "d/found-O3/match.any.sync.b64-925e3038"
V += [
 ("mj2.found", F, W, "the found case: lane 17 reaches L7 by `@!%p5 bra L7`, lane 12 by the fall-through from L6; there `match.any.sync.b32 %m1, %laneid, 0x21000`", []),
 ("mj2.one-path", F, A, "both lanes by the fall-through: no `@!%p5 bra L7`, `and.pred %p1, %p1, %p5` before L6", [("    @!%p5 bra L7;\n", "    and.pred %p1, %p1, %p5;\n")]),
 ("mj2.same-values", F, A, "`match.any.sync.b32 %m1, 0, 0x21000` (both lanes match)", [("match.any.sync.b32 %m1, %laneid, 0x21000", "match.any.sync.b32 %m1, 0, 0x21000")]),
]

# --- N26W: N26's predicate copy without the math call, its branch an exit
F = "c/found-default/input-57155f24"
V += [
 ("n26x.found", F, W, "the found case: `or.pred %p3, %p0, %p0; mov.pred %p0, 0; @%p3 exit` (no sqrt)", []),
 ("n26x.mov-pred", F, A, "`mov.pred %p3, %p0` for the copy (N26's v5)", [("or.pred %p3, %p0, %p0;", "mov.pred %p3, %p0;")]),
 ("n26x.and-pred", F, W, "`and.pred %p3, %p0, %p0` for the copy", [("or.pred %p3, %p0, %p0;", "and.pred %p3, %p0, %p0;")]),
 ("n26x.no-rewrite", F, A, "the `mov.pred %p0, 0` removed", [("    mov.pred %p0, 0;\n", "")]),
 ("n26x.sqrt", F, W, "a `sqrt.rn.f32` of an input before (N26's detector fires today)", [(".reg .pred %p0, %p1, %p3;", ".reg .pred %p0, %p1, %p3;\n.reg .f32 %f0;\n.lanes %f0 = 0f40000000;"), ("    or.pred %p3, %p0, %p0;\n", "    sqrt.rn.f32 %f0, %f0;\n    or.pred %p3, %p0, %p0;\n")]),
]

# --- OR64: or.b64 of 0xffffffff keeps only the low word, after an exit, in a loop
F = "c/found-default/or.b64-306b84b5"
V += [
 ("or64.found", F, W, "the found case: after `@%p0 exit`, a one-trip loop of `@!%p0 or.b64 %bd3, 0xffffffff, %bd3` (the GPU 0xffffffff: the upper word lost)", []),
 ("or64.no-exit", F, A, "the `@%p0 exit` removed", [("    @%p0 exit;\n", "")]),
 ("or64.unguarded", F, A, "the or unguarded", [("@!%p0 or.b64", "or.b64")]),
]

# --- N12W: a guarded narrow cvt keeps the destination's own old upper half
F = "d/found-O3/cvt.rzi.u8.f32-1e6c46c2"
V += [
 ("n12-own.found", F, W, "the found case: `@!%p1 bra L0; shfl.idx.b32 %r0, 0, 0, 0; @%p1 cvt.rzi.u8.f32 %r1, %b2` (%r1 an input: its upper half kept)", []),
 ("n12-own.no-shfl", F, A, "the legacy shfl removed", [("    shfl.idx.b32 %r0, 0, 0, 0;\n", "")]),
 ("n12-own.unguarded", F, A, "the cvt unguarded", [("@%p1 cvt.rzi.u8.f32", "cvt.rzi.u8.f32")]),
 ("n12-own.cvt-u32", F, A, "`cvt.rzi.u32.f32` (a 32-bit destination type)", [("cvt.rzi.u8.f32", "cvt.rzi.u32.f32")]),
]

os.makedirs("triage/experiments", exist_ok=True)
predict = []
for name, found, pred, what, edits in V:
    text = "\n".join(program(found)) + "\n"
    for old, new in edits:
        if text.count(old) != 1:
            sys.exit(f"{name}: {old!r} occurs {text.count(old)} times")
        text = text.replace(old, new)
    head = f"// Experiment {name} (variant of {found}): {what}\n"
    open(f"triage/experiments/{name}.ptx.txt", "w").write(head + text)
    predict.append(f"{name} {pred}")
open("triage/experiments/PREDICT.txt", "w").write("\n".join(predict) + "\n")
print(len(V), "variants")
