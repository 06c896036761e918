#!/usr/bin/env python3
"""Convergence experiments on a real GPU (issue #11): which results of warp
programs stay the same across compiles (-O0, -O3) and schedule
perturbations, and which rendezvous shapes hang.

Each kernel below runs one warp (32 threads) and stores up to 8 u32 words
per lane. A line `//P` in a kernel becomes, in perturbed variants,
`nanosleep.u32 %dl;` where %dl is a per-lane delay drawn from the seed
(0..2047 ns); variant P0 has no sleep. Every (kernel, -O level, seed) is
launched REPS times, each kernel in its own process with a timeout, so a
hang is seen as a hang and does not poison the next run.

Usage: python3 convergence.py [OUT.txt]      (needs libcuda; no other package)
Prints, per kernel and output word, the values seen per lane: `same` when
every compile, seed and repetition gave the same value on every lane,
else every distinct value with where it came from.
"""
import ctypes, os, subprocess, sys, struct, json

REPS = 3
SEEDS = [0, 0x1234567, 0x9e3779b9, 0x5bd1e995]
LEVELS = [0, 3]
TIMEOUT = 8

PRELUDE = """
  .reg .b32 %l, %dl, %t, %u, %v, %w, %i, %j, %k, %n, %m<8>, %r<8>;
  .reg .pred %p, %q, %s;
  .reg .b64 %o, %off;
  ld.param.u64 %o, [out]; cvta.to.global.u64 %o, %o;
  ld.param.u32 %t, [seed];
  mov.u32 %l, %laneid; mul.wide.u32 %off, %l, 32; add.s64 %o, %o, %off;
  mul.lo.u32 %dl, %l, 0x9E3779B1; xor.b32 %dl, %dl, %t; shr.u32 %dl, %dl, 21;
  mov.u32 %m0, 0xdead0; mov.u32 %m1, 0xdead1; mov.u32 %m2, 0xdead2; mov.u32 %m3, 0xdead3;
  mov.u32 %m4, 0xdead4; mov.u32 %m5, 0xdead5; mov.u32 %m6, 0xdead6; mov.u32 %m7, 0xdead7;
"""
STORE = """
  st.global.v4.u32 [%o], {%m0, %m1, %m2, %m3};
  st.global.v4.u32 [%o+16], {%m4, %m5, %m6, %m7};
  ret;
"""

KERNELS = {
# activemask at kernel start, after a full-mask vote, and again.
"start": """
//P
  activemask.b32 %m0;
//P
  setp.lt.u32 %p, %l, 3;
  vote.sync.ballot.b32 %m1, %p, 0xffffffff;
//P
  activemask.b32 %m2;
""",
# the if/else diamond of shared/hw/converge.cu, perturbed inside the arms.
"diamond": """
  and.b32 %t, %l, 3; setp.eq.u32 %p, %t, 0;
  @%p bra ELSE;
//P
  activemask.b32 %m0;
  bra JOIN;
ELSE:
//P
  activemask.b32 %m1;
JOIN:
//P
  activemask.b32 %m2;
  setp.lt.u32 %q, %l, 20;
  @%q bra SKIP;
//P
  add.u32 %t, %t, 1;
SKIP:
//P
  activemask.b32 %m3;
//P
  vote.sync.ballot.b32 %m4, %q, 0xffffffff;
//P
  activemask.b32 %m5;
""",
# a collective run by a subset inside a branch, then the join.
"branch_coll": """
  setp.lt.u32 %p, %l, 16;
  @!%p bra JOIN;
//P
  shfl.sync.bfly.b32 %m0, %l, 1, 0x1f, 0x0000ffff;
JOIN:
//P
  activemask.b32 %m1;
//P
  shfl.sync.idx.b32 %m2, %l, 0, 0x1f, %m1;
//P
  vote.sync.ballot.b32 %m3, %p, 0xffffffff;
//P
  activemask.b32 %m4;
""",
# per-lane trip counts, then the exit of the loop.
"loop": """
  and.b32 %i, %l, 7; mov.u32 %m0, 0;
TOP:
  setp.eq.u32 %p, %i, 0;
  @%p bra OUT;
//P
  activemask.b32 %m1;
  add.u32 %m0, %m0, %m1;
  sub.u32 %i, %i, 1;
  bra TOP;
OUT:
//P
  activemask.b32 %m2;
""",
# a guarded exit, then activemask.
"exit": """
//P
  and.b32 %t, %l, 5; setp.eq.u32 %p, %t, 5;
  @%p bra DONE;
//P
  activemask.b32 %m0;
//P
  vote.sync.ballot.b32 %m1, %p, 0xffffffff;
  bra STORE;
DONE:
  exit;
STORE:
""",
# lane 31 branches around a full-mask vote and exits afterwards (after a
# spin of 20000 iterations): legal by the spec's "non-exited threads".
"exit_later": """
  setp.eq.u32 %s, %l, 31;
  @%s bra SKIP;
//P
  and.b32 %t, %l, 1; setp.eq.u32 %p, %t, 1;
  vote.sync.ballot.b32 %m0, %p, 0xffffffff;
//P
  activemask.b32 %m1;
  bra STORE;
SKIP:
  mov.u32 %i, 20000;
SPIN:
  sub.u32 %i, %i, 1;
  setp.ne.u32 %q, %i, 0;
  @%q bra SPIN;
  exit;
STORE:
""",
# lanes 0-15 and 16-31 reach *different* vote.sync.ballot instructions
# with the same qualifiers and membermask.
"other_instr": """
  and.b32 %t, %l, 1; setp.eq.u32 %p, %t, 1;
  setp.lt.u32 %q, %l, 16;
  @%q bra A;
//P
  vote.sync.ballot.b32 %m1, %p, 0xffffffff;
  mov.u32 %m3, 2;
  bra J;
A:
//P
  vote.sync.ballot.b32 %m0, %p, 0xffffffff;
  mov.u32 %m3, 1;
J:
""",
# the same with shfl.sync.idx: does lane 0 get lane 16's operand at B?
"other_instr_shfl": """
  xor.b32 %j, %l, 16;
  setp.lt.u32 %q, %l, 16;
  @%q bra A;
  add.u32 %t, %l, 200;
//P
  shfl.sync.idx.b32 %m1, %t, %j, 0x1f, 0xffffffff;
  bra J;
A:
  add.u32 %t, %l, 100;
//P
  shfl.sync.idx.b32 %m0, %t, %j, 0x1f, 0xffffffff;
J:
""",
# different qualifiers at the two instructions: expected to deadlock.
"other_qual": """
  and.b32 %t, %l, 1; setp.eq.u32 %p, %t, 1;
  setp.lt.u32 %q, %l, 16;
  @%q bra A;
  vote.sync.all.pred %s, %p, 0xffffffff;
  selp.u32 %m1, 1, 0, %s;
  bra J;
A:
  vote.sync.any.pred %s, %p, 0xffffffff;
  selp.u32 %m0, 1, 0, %s;
J:
""",
# lane 5 is converged but predicated off at a full-mask vote, then exits.
"predoff_exit": """
  setp.eq.u32 %s, %l, 5;
  and.b32 %t, %l, 1; setp.eq.u32 %p, %t, 1;
//P
  @!%s vote.sync.ballot.b32 %m0, %p, 0xffffffff;
//P
  @%s exit;
  activemask.b32 %m1;
""",
# lane 5 is predicated off at the first pass and the only one on at the
# second pass of the same vote instruction.
"predoff_again": """
  setp.eq.u32 %s, %l, 5;
  and.b32 %t, %l, 1; setp.eq.u32 %p, %t, 1;
  mov.u32 %i, 0;
AGAIN:
  setp.eq.u32 %q, %i, 1;
  xor.pred %q, %q, %s;
//P
  @!%q vote.sync.ballot.b32 %u, %p, 0xffffffff;
  @!%q mov.u32 %m0, %u;
  @!%q mov.u32 %m2, %i;
  add.u32 %i, %i, 1;
  setp.lt.u32 %q, %i, 2;
  @%q bra AGAIN;
  activemask.b32 %m1;
""",
# lane 5 predicated off and then simply returns (ret ends the thread).
"predoff_ret": """
  setp.eq.u32 %s, %l, 5;
  and.b32 %t, %l, 1; setp.eq.u32 %p, %t, 1;
//P
  @!%s vote.sync.ballot.b32 %m0, %p, 0xffffffff;
""",
# the idiom: activemask as a membermask inside a divergent branch.
"am_mask": """
  and.b32 %t, %l, 3; setp.ne.u32 %p, %t, 0;
  @%p bra B;
//P
  activemask.b32 %m0;
//P
  shfl.sync.idx.b32 %m1, %l, 0, 0x1f, %m0;
  bra J;
B:
//P
  activemask.b32 %m2;
//P
  shfl.sync.down.b32 %m3, %l, 1, 0x1f, %m2;
J:
//P
  activemask.b32 %m4;
""",
}

# Deprecated forms (PTX 6.3, sm_70): participants are "the lanes executing".
LEGACY = {
"legacy_start": """
  setp.lt.u32 %p, %l, 5;
//P
  shfl.up.b32 %m0, %l, 1, 0;
//P
  vote.ballot.b32 %m1, %p;
""",
"legacy_branch": """
  setp.lt.u32 %p, %l, 16;
  @!%p bra J;
//P
  shfl.bfly.b32 %m0, %l, 1, 0x1f;
J:
//P
  and.b32 %t, %l, 1; setp.eq.u32 %q, %t, 1;
  vote.ballot.b32 %m1, %q;
//P
  shfl.down.b32 %m2, %l, 1, 0x1f;
""",
}


def module(name, body, seed, legacy):
    v, t = ("6.3", "sm_70") if legacy else ("7.8", "sm_90")
    sleep = "  nanosleep.u32 %dl;" if seed else ""
    body = "\n".join(sleep if l.strip() == "//P" else l for l in body.splitlines())
    return (".version %s\n.target %s\n.address_size 64\n.visible .entry %s(.param .u64 out, .param .u32 seed) {\n%s\n%s\n%s}\n"
            % (v, t, name, PRELUDE, body, STORE))


def child(ptx_path, name, opt, seed):
    """Runs in a subprocess: load, launch one warp, print the 256 words."""
    cu = ctypes.CDLL("libcuda.so.1")
    def ck(r, what):
        if r != 0:
            s = ctypes.c_char_p(); cu.cuGetErrorString(r, ctypes.byref(s))
            print(json.dumps({"error": "%s: %s" % (what, s.value.decode())})); sys.exit(3)
    ck(cu.cuInit(0), "cuInit")
    dev = ctypes.c_int(); ck(cu.cuDeviceGet(ctypes.byref(dev), 0), "dev")
    ctx = ctypes.c_void_p(); ck(cu.cuDevicePrimaryCtxRetain(ctypes.byref(ctx), dev), "ctx"); ck(cu.cuCtxSetCurrent(ctx), "set")
    log = ctypes.create_string_buffer(1 << 14)
    o = (ctypes.c_int * 3)(5, 6, 7)
    v = (ctypes.c_void_p * 3)(ctypes.cast(log, ctypes.c_void_p), ctypes.c_void_p(1 << 14), ctypes.c_void_p(opt))
    mod = ctypes.c_void_p()
    src = open(ptx_path, "rb").read() + b"\0"
    r = cu.cuModuleLoadDataEx(ctypes.byref(mod), src, 3, o, v)
    if r != 0:
        print(json.dumps({"error": "load %d: %s" % (r, log.value.decode(errors="replace"))})); sys.exit(3)
    fn = ctypes.c_void_p(); ck(cu.cuModuleGetFunction(ctypes.byref(fn), mod, name.encode()), "fn")
    d = ctypes.c_uint64(); ck(cu.cuMemAlloc_v2(ctypes.byref(d), 32 * 32), "alloc")
    ck(cu.cuMemsetD8_v2(d, 0xee, 32 * 32), "memset")
    s = ctypes.c_uint32(seed)
    params = (ctypes.c_void_p * 2)(ctypes.cast(ctypes.byref(d), ctypes.c_void_p), ctypes.cast(ctypes.byref(s), ctypes.c_void_p))
    ck(cu.cuLaunchKernel(fn, 1, 1, 1, 32, 1, 1, 0, None, params, None), "launch")
    ck(cu.cuCtxSynchronize(), "sync")
    h = (ctypes.c_uint32 * 256)()
    ck(cu.cuMemcpyDtoH_v2(h, d, 32 * 32), "copy")
    print(json.dumps({"words": list(h)}))


def main():
    if len(sys.argv) > 1 and sys.argv[1] == "--child":
        child(sys.argv[2], sys.argv[3], int(sys.argv[4]), int(sys.argv[5])); return
    out = open(sys.argv[1], "w") if len(sys.argv) > 1 else sys.stdout
    here = os.path.dirname(os.path.abspath(__file__))
    work = os.environ.get("TMPDIR", "/tmp")
    for kernels, legacy in ((KERNELS, False), (LEGACY, True)):
        for name, body in kernels.items():
            runs = {}   # (opt, seed, rep) -> words or "HANG"/error
            hangs = 0
            for opt in LEVELS:
                for seed in SEEDS:
                    if hangs >= 2:
                        runs[(opt, seed, 0)] = {"error": "not run (hung twice already)"}
                        continue
                    path = os.path.join(work, "conv-%s-%x.ptx" % (name, seed))
                    open(path, "w").write(module(name, body, seed, legacy))
                    for rep in range(REPS if seed else 1):
                        try:
                            p = subprocess.run([sys.executable, __file__, "--child", path, name, str(opt), str(seed)],
                                               capture_output=True, text=True, timeout=TIMEOUT)
                            res = json.loads(p.stdout.strip().splitlines()[-1]) if p.stdout.strip() else {"error": p.stderr[-300:]}
                        except subprocess.TimeoutExpired:
                            res = {"error": "HANG (no end within %d s)" % TIMEOUT}
                            hangs += 1
                        runs[(opt, seed, rep)] = res
            report(out, name, legacy, runs)
            out.flush()


def report(out, name, legacy, runs):
    out.write("== %s%s\n" % (name, " (PTX 6.3, sm_70)" if legacy else ""))
    errors = {k: v["error"] for k, v in runs.items() if "error" in v}
    for k, e in sorted(errors.items()):
        out.write("  O%d seed %#x rep %d: %s\n" % (k[0], k[1], k[2], e))
    good = {k: v["words"] for k, v in runs.items() if "words" in v}
    if not good:
        return
    for w in range(8):
        seen = {}
        for k, words in good.items():
            vals = tuple(words[l * 8 + w] for l in range(32))
            seen.setdefault(vals, []).append(k)
        if len(seen) == 1 and all(x == 0xeeeeeeee or (0xdead0 <= x <= 0xdead7) for x in next(iter(seen))):
            continue
        tag = "same" if len(seen) == 1 else "%d different" % len(seen)
        out.write("  m%d: %s\n" % (w, tag))
        for vals, ks in sorted(seen.items(), key=lambda kv: -len(kv[1])):
            where = "all runs" if len(seen) == 1 else ", ".join("O%d/%#x/%d" % k for k in sorted(ks)[:6]) + (" ..." if len(ks) > 6 else "") + " (%d runs)" % len(ks)
            runs_txt = []
            for l in range(32):
                if l == 0 or vals[l] != vals[l - 1]:
                    runs_txt.append("L%d=%x" % (l, vals[l]))
            out.write("    %s: %s\n" % (where, " ".join(runs_txt)))


if __name__ == "__main__":
    main()
