#!/usr/bin/env python3
"""Session 12, call a: does ptxas treat a never-written register as warp-uniform?

A 64-bit `bfind` of a never-written register compiles (session 11, g/) to a per-lane branch on
the register's high word with no BSSY/BSYNC, and uniform registers are used across it. This runs
kernels right after a `fill` kernel that leaves chosen per-lane values in the registers (sign bit
by pattern), at ptxas -O3 and -O0, and prints what the convergence-dependent results are.
CUDA driver API through ctypes (no cupy needed)."""
import ctypes as C, os, struct, subprocess, sys

OUT = os.environ.get("OUT", "/tmp/out")
HERE = os.path.dirname(os.path.abspath(__file__))
os.makedirs(OUT, exist_ok=True)
log = open(os.path.join(OUT, "exp.txt"), "w")
def say(*a):
    s = " ".join(str(x) for x in a)
    print(s); log.write(s + "\n"); log.flush()

cu = C.CDLL("libcuda.so.1")
def ck(r, what):
    if r != 0:
        raise RuntimeError(f"{what}: CUDA error {r}")
ck(cu.cuInit(0), "cuInit")
dev = C.c_int(); ck(cu.cuDeviceGet(C.byref(dev), 0), "cuDeviceGet")
ctx = C.c_void_p(); ck(cu.cuDevicePrimaryCtxRetain(C.byref(ctx), dev), "retain")
ck(cu.cuCtxSetCurrent(ctx), "setcurrent")
name = C.create_string_buffer(128); cu.cuDeviceGetName(name, 128, dev)
say("device:", name.value.decode())

def alloc(n):
    p = C.c_uint64(); ck(cu.cuMemAlloc_v2(C.byref(p), C.c_size_t(n)), "alloc"); return p
def zero(p, n): ck(cu.cuMemsetD8_v2(p, C.c_ubyte(0), C.c_size_t(n)), "memset")
def fetch(p, n):
    b = C.create_string_buffer(n); ck(cu.cuCtxSynchronize(), "sync"); ck(cu.cuMemcpyDtoH_v2(b, p, C.c_size_t(n)), "dtoh"); return b.raw
def upload(p, data): ck(cu.cuMemcpyHtoD_v2(p, data, C.c_size_t(len(data))), "htod")

def load(path, kname):
    data = open(path, "rb").read()
    m = C.c_void_p(); ck(cu.cuModuleLoadData(C.byref(m), data), "load " + path)
    f = C.c_void_p(); ck(cu.cuModuleGetFunction(C.byref(f), m, kname.encode()), "getfn " + kname)
    return f
def launch(f, grid, block, args):
    holders = [a for a in args]
    ptrs = (C.c_void_p * len(holders))(*[C.cast(C.byref(h), C.c_void_p) for h in holders])
    ck(cu.cuLaunchKernel(f, grid, 1, 1, block, 1, 1, 0, None, ptrs, None), "launch")
    ck(cu.cuCtxSynchronize(), "sync after launch")

# ---- the fill kernel: N values live at once, sign bit per lane by pattern ----
N = 56
def fill_ptx():
    s = [".version 7.8", ".target sm_90", ".address_size 64",
         ".visible .entry fill(.param .u64 sink, .param .u32 pat, .param .u32 magic)", ".maxntid 32, 1, 1", "{",
         f"    .reg .b32 %v<{N}>;", "    .reg .b32 %lane, %sg, %p, %acc, %mg, %hash, %t;", "    .reg .pred %q, %hit;", "    .reg .b64 %o;",
         "    ld.param.u32 %p, [pat];", "    ld.param.u32 %mg, [magic];", "    mov.u32 %lane, %laneid;",
         # sign per pattern: 0 none, 1 odd lanes, 2 lanes >= 16, 3 all, 4 hash of lane
         "    mov.u32 %sg, 0;",
         "    setp.eq.u32 %q, %p, 1;", "    @%q shl.b32 %sg, %lane, 31;",
         "    setp.eq.u32 %q, %p, 2;", "    @%q shr.u32 %t, %lane, 4;", "    @%q shl.b32 %sg, %t, 31;",
         "    setp.eq.u32 %q, %p, 3;", "    @%q mov.u32 %sg, 0x80000000;",
         "    setp.eq.u32 %q, %p, 4;", "    @%q mul.lo.u32 %t, %lane, 0x9e3779b9;", "    @%q and.b32 %sg, %t, 0x80000000;",
         "    mad.lo.u32 %v0, %lane, 0x01000193, %mg;", "    add.u32 %v1, %v0, 0x7f4a7c15;"]
    for i in range(2, N):
        s.append(f"    mad.lo.u32 %v{i}, %v{i-1}, 16777619, %v{i-2};")
    for i in range(N):
        s.append(f"    and.b32 %v{i}, %v{i}, 0x7fffffff;")
        s.append(f"    or.b32 %v{i}, %v{i}, %sg;")
    s.append("    mov.u32 %acc, 0;")
    for i in reversed(range(N)):
        s.append(f"    mad.lo.u32 %acc, %acc, 0x01000193, %v{i};")
    s += ["    and.b32 %acc, %acc, 0x7fffffff;", "    or.b32 %acc, %acc, %sg;", "    setp.eq.u32 %hit, %acc, %mg;", "    @!%hit bra DONE;", "    ld.param.u64 %o, [sink];", "    cvta.to.global.u64 %o, %o;",
          "    st.global.u32 [%o], %acc;", "DONE:", "    ret;", "}"]
    return "\n".join(s) + "\n"

HEAD = {"new": ".version 7.8\n.target sm_90\n.address_size 64\n", "old": ".version 6.3\n.target sm_70\n.address_size 64\n"}
PRO = """    .reg .b64 %x, %o, %a, %i;
    .reg .b32 %s, %m, %m2, %m3, %b, %lane, %g, %mm, %u;
    .reg .pred %t;
    ld.param.u64 %o, [out];
    cvta.to.global.u64 %o, %o;
    mov.u32 %lane, %laneid;
    mov.u32 %g, %ctaid.x;
    mad.lo.u32 %g, %g, 32, %lane;
    mul.wide.u32 %a, %g, 16;
    add.s64 %o, %o, %a;
"""
# each variant: its body; outputs 4 words per thread: [o+0] [o+4] [o+8] [o+12]
VARIANTS = {
 # ballot.sync of true with the full mask after bfind.s64 of a never-written register
 "ballot": """    bfind.shiftamt.s64 %s, %x;
    setp.ne.u32 %t, %lane, 99;
    vote.sync.ballot.b32 %b, %t, 0xffffffff;
    activemask.b32 %m;
    st.global.u32 [%o], %b;
    st.global.u32 [%o+4], %m;
    st.global.u32 [%o+8], %s;
""",
 # as activemask-9ac0fd8e: activemask before the bfind, uniform arithmetic on it after
 "am": """    activemask.b32 %m;
    bfind.shiftamt.s64 %s, %x;
    shr.b32 %m2, %m, %m;
    xor.b32 %m3, %m2, %m;
    st.global.u32 [%o], %m;
    st.global.u32 [%o+4], %m3;
    st.global.u32 [%o+8], %s;
""",
 # match.any.sync of lane/2 with the full mask after it
 "match": """    bfind.shiftamt.s64 %s, %x;
    shr.u32 %mm, %lane, 1;
    match.any.sync.b32 %b, %mm, 0xffffffff;
    activemask.b32 %m;
    st.global.u32 [%o], %b;
    st.global.u32 [%o+4], %m;
    st.global.u32 [%o+8], %s;
""",
 # the high word a never-written .b32, the low word the lane
 "ballot-hi": """
    mov.b64 %x, {%lane, %u};
    bfind.shiftamt.s64 %s, %x;
    setp.ne.u32 %t, %lane, 99;
    vote.sync.ballot.b32 %b, %t, 0xffffffff;
    activemask.b32 %m;
    st.global.u32 [%o], %b;
    st.global.u32 [%o+4], %m;
    st.global.u32 [%o+8], %s;
""",
 "match-hi": """
    mov.b64 %x, {%lane, %u};
    bfind.shiftamt.s64 %s, %x;
    shr.u32 %mm, %lane, 1;
    match.any.sync.b32 %b, %mm, 0xffffffff;
    activemask.b32 %m;
    st.global.u32 [%o], %b;
    st.global.u32 [%o+4], %m;
    st.global.u32 [%o+8], %s;
""",
 # two never-written 64-bit sources: the second cannot share R0:R1
 "ballot-two": """    .reg .b64 %y;
    .reg .b32 %s2;
    bfind.shiftamt.s64 %s, %x;
    bfind.shiftamt.s64 %s2, %y;
    add.u32 %s, %s, %s2;
    setp.ne.u32 %t, %lane, 99;
    vote.sync.ballot.b32 %b, %t, 0xffffffff;
    activemask.b32 %m;
    st.global.u32 [%o], %b;
    st.global.u32 [%o+4], %m;
    st.global.u32 [%o+8], %s;
""",
 # control: the same ballot with the bfind's source defined (read from memory, per lane)
 "ballot-def": """    ld.param.u64 %i, [inp];
    cvta.to.global.u64 %i, %i;
    mul.wide.u32 %a, %g, 8;
    add.s64 %i, %i, %a;
    ld.global.u64 %x, [%i];
    bfind.shiftamt.s64 %s, %x;
    setp.ne.u32 %t, %lane, 99;
    vote.sync.ballot.b32 %b, %t, 0xffffffff;
    activemask.b32 %m;
    st.global.u32 [%o], %b;
    st.global.u32 [%o+4], %m;
    st.global.u32 [%o+8], %s;
""",
}
def variant_ptx(flavor, name):
    body = VARIANTS[name]
    if flavor == "old":
        body = body.replace("vote.sync.ballot.b32 %b, %t, 0xffffffff", "vote.ballot.b32 %b, %t")
    return HEAD[flavor] + f".visible .entry k(.param .u64 out, .param .u64 inp)\n{{\n" + PRO + body + "    ret;\n}\n"

def sh(cmd):
    r = subprocess.run(cmd, shell=True, capture_output=True, text=True)
    return r.returncode, r.stdout + r.stderr

G = 8
# every warp slot of every multiprocessor (132 SMs x 32 one-warp blocks): a kernel's warp lands
# wherever the block scheduler puts it
FILL_GRID = 132 * 32
def compile_(path, lvl, cub):
    if lvl == "O3c":
        rc, o = sh(f"ptxas -arch=sm_90 -O3 -c {path} -o {cub}.o")
        if rc: return rc, o
        return sh(f"nvlink -arch=sm_90 {cub}.o -o {cub}")
    return sh(f"ptxas -arch=sm_90 -{lvl} {path} -o {cub}")
os.makedirs(os.path.join(OUT, "src"), exist_ok=True)
open(os.path.join(OUT, "src", "fill.ptx"), "w").write(fill_ptx())
rc, o = sh(f"ptxas -arch=sm_90 -O3 {OUT}/src/fill.ptx -o {OUT}/src/fill.cubin")
if rc: say("fill ptxas failed:", o); sys.exit(1)
sh(f"cuobjdump -sass {OUT}/src/fill.cubin > {OUT}/src/fill.sass")
fill = load(f"{OUT}/src/fill.cubin", "fill")
sink = alloc(64)

PATS = {0: "none (all >= 0)", 1: "odd lanes < 0", 2: "lanes 16-31 < 0", 3: "all < 0", 4: "hash"}
def do_fill(p):
    if p is None: return
    launch(fill, FILL_GRID, 32, [sink, C.c_uint32(p), C.c_uint32(0x1234567)])

def summary(words, idx):
    d = {}
    for t in range(G * 32):
        v = words[t * 4 + idx]; d[v] = d.get(v, 0) + 1
    return ", ".join(f"{v:#x}x{c}" for v, c in sorted(d.items(), key=lambda kv: -kv[1])[:6])

kernels = []
for flavor in ("new", "old"):
    for name in VARIANTS:
        for lvl in ("O3", "O3c", "O0"):
            base = f"{name}-{flavor}"
            path = os.path.join(OUT, "src", base + ".ptx")
            open(path, "w").write(variant_ptx(flavor, name))
            cub = os.path.join(OUT, "src", f"{base}-{lvl}.cubin")
            rc, o = compile_(path, lvl, cub)
            if rc: say(f"{base} -{lvl}: ptxas failed: {o.strip()}"); continue
            sh(f"cuobjdump -sass {cub} > {cub[:-6]}.sass")
            kernels.append((f"{base} -{lvl}", load(cub, "k")))

outb = alloc(G * 32 * 16); inb = alloc(G * 32 * 8)
# the control's input: high words with the sign of odd lanes set, low words distinct
upload(inb, b"".join(struct.pack("<Q", ((0x80000000 if t & 1 else 0x40000000) << 32) | (t + 1)) for t in range(G * 32)))
for label, f in kernels:
    for p in (None, 0, 1, 2, 3, 4):
        for rep in range(2):
            do_fill(p)
            zero(outb, G * 32 * 16)
            launch(f, G, 32, [outb, inb])
            w = struct.unpack(f"<{G*32*4}I", fetch(outb, G * 32 * 16))
            say(f"{label:18} fill {PATS.get(p, 'no fill'):16} #{rep}: [0] {summary(w, 0)} | [1] {summary(w, 1)}")

# the diverged case of session 11 alone (warpdiff emit-ptx k0), after each fill: %m1 at out+0x2800+lane*8
for lvl in ("O3", "O3c", "O0"):
    cub = f"{OUT}/src/am-alone-{lvl}.cubin"
    rc, o = compile_(f"{HERE}/am-alone.ptx", lvl, cub)
    if rc: say("am-alone ptxas failed", o); continue
    sh(f"cuobjdump -sass {cub} > {cub[:-6]}.sass")
    f = load(cub, "k0")
    ob = alloc(11008 * G); ib = alloc(10752 * G); zero(ib, 10752 * G)
    for p in (None, 0, 1, 2, 3, 4):
        for rep in range(3):
            do_fill(p)
            zero(ob, 11008 * G)
            launch(f, G, 32, [ib, ob])
            raw = fetch(ob, 11008 * G)
            d = {}
            for cta in range(G):
                for reg in (40, 41):
                    for lane in range(32):
                        v = struct.unpack_from("<I", raw, cta * 11008 + reg * 256 + lane * 8)[0]
                        d[(reg, v)] = d.get((reg, v), 0) + 1
            s = ", ".join(f"%m{1 if r == 40 else 2}={v:#x}x{c}" for (r, v), c in sorted(d.items()))
            say(f"am-alone -{lvl:3}        fill {PATS.get(p, 'no fill'):16} #{rep}: {s}")
say("done")
