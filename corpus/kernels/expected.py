#!/usr/bin/env python3
"""Writes the `.launch` and `.expect` files of the hand-written kernels in
this folder (`corpus/kernels/NAME.ptx`, issue #13).

For each kernel this script builds the inputs from fixed formulas (no
randomness: a seeded xorshift32 where values should look irregular), writes
`NAME.launch` (grid, block, buffers, one `param` line per `.param` of the
entry) and computes what the kernel's CUDA source (quoted in the header of
`NAME.ptx`) stores, in plain Python: sums, prefix sums, masks, and exact
rational arithmetic (`fractions.Fraction`) rounded to f32 under the rounding
mode the instruction names. It never interprets the PTX. Then it writes
`NAME.expect`: every buffer of the launch after the run, inputs included
(they must come back unchanged), outputs pre-filled with aaaaaaaa where the
kernel stores nothing.

Usage: python3 expected.py   (from any directory; rewrites all 16 files
identically on every run). `run_gpu.py` runs the same launches on a GPU and
compares with the `.expect` files.
"""
import math
import os
import struct
from fractions import Fraction

HERE = os.path.dirname(os.path.abspath(__file__))
FILL = 0xAAAAAAAA
M32 = 0xFFFFFFFF


# ---------------------------------------------------------------- helpers


def u32(x):
    return x & M32


def s32(x):
    x &= M32
    return x - (1 << 32) if x & 0x80000000 else x


def xorshift32(seed, n):
    """n words of Marsaglia's xorshift32 from a nonzero seed (deterministic)."""
    x, out = seed, []
    for _ in range(n):
        x ^= (x << 13) & M32
        x ^= x >> 17
        x ^= (x << 5) & M32
        out.append(x)
    return out


def f32_bits(x):
    """Bits of a Python float that is exactly an f32 value (or inf/nan)."""
    return struct.unpack("<I", struct.pack("<f", x))[0]


def f32_val(bits):
    return struct.unpack("<f", struct.pack("<I", bits))[0]


def f64_words(x):
    """An f64 as two u32 words, low word first (little-endian memory)."""
    b = struct.unpack("<Q", struct.pack("<d", x))[0]
    return [b & M32, b >> 32]


def pow2(e):
    return Fraction(2**e) if e >= 0 else Fraction(1, 2**-e)


F32_MAX = 0x7F7FFFFF
F32_INF = 0x7F800000


def round_f32(x, mode, neg_zero=False):
    """Bits of the binary32 value that the exact rational x rounds to under
    mode: 'rn' (nearest, ties to even), 'rz' (toward zero), 'rm' (toward
    -inf), 'rp' (toward +inf). IEEE 754: subnormals are kept (no .ftz), an
    overflow gives inf or the largest finite value as the mode says, a
    nonzero x that rounds to zero keeps its sign. x == 0 gives +0, or -0
    if neg_zero."""
    assert mode in ("rn", "rz", "rm", "rp")
    if x == 0:
        return 0x80000000 if neg_zero else 0
    sign = 1 if x < 0 else 0
    a = -x if sign else x
    e = a.numerator.bit_length() - a.denominator.bit_length()
    while pow2(e) > a:
        e -= 1
    while pow2(e + 1) <= a:
        e += 1
    e = max(e, -126)  # below 2^-126 the ulp stays 2^-149 (subnormals)
    m = a / pow2(e - 23)  # a in units of the ulp: 2^23 <= m < 2^24 if normal
    n = m.numerator // m.denominator
    r = m - n
    if mode == "rn":
        if r > Fraction(1, 2) or (r == Fraction(1, 2) and n % 2 == 1):
            n += 1
    elif mode == "rm":
        if r > 0 and sign:
            n += 1
    elif mode == "rp":
        if r > 0 and not sign:
            n += 1
    if n == 2**24:  # the rounding carried into the next binade
        n, e = 2**23, e + 1
    if e > 127:  # overflow
        to_inf = mode == "rn" or (mode == "rp" and not sign) or (mode == "rm" and sign)
        return (sign << 31) | (F32_INF if to_inf else F32_MAX)
    if n >= 2**23:
        bits = ((e + 127) << 23) | (n - 2**23)
    else:
        bits = n  # subnormal (or zero after underflow), e == -126
    return (sign << 31) | bits


def is_neg_zero(x):
    return x == 0 and math.copysign(1.0, x) < 0


def f2i(bits, mode):
    """cvt.{rzi,rni,rmi,rpi}.s32.f32: round to an integer, then clamp to
    [-2^31, 2^31-1]; NaN gives 0 (PTX ISA 9.0, cvt: float-to-integer
    conversions saturate; a NaN source that is not .f64 gives 0 for a
    destination that is not .s64/.u64)."""
    f = f32_val(bits)
    if math.isnan(f):
        return 0
    if math.isinf(f):
        return 0x7FFFFFFF if f > 0 else 0x80000000
    x = Fraction(f)
    v = {"rzi": math.trunc, "rni": round, "rmi": math.floor, "rpi": math.ceil}[mode](x)
    # round() of a Fraction rounds halves to even, as .rni does
    return u32(max(-(2**31), min(2**31 - 1, v)))


def fadd_rn(a_bits, b_bits):
    """add.rn.f32 of two non-NaN f32 operands whose sum is not NaN."""
    a, b = f32_val(a_bits), f32_val(b_bits)
    assert not (math.isnan(a) or math.isnan(b))
    if math.isinf(a) or math.isinf(b):
        s = a + b
        assert not math.isnan(s)
        return f32_bits(s)
    exact = Fraction(a) + Fraction(b)
    # an exact zero sum is +0 under rn, unless both operands are -0
    return round_f32(exact, "rn", neg_zero=is_neg_zero(a) and is_neg_zero(b))


def fmul_rn(a_bits, b_bits):
    """mul.rn.f32 of two non-NaN f32 operands whose product is not NaN."""
    a, b = f32_val(a_bits), f32_val(b_bits)
    assert not (math.isnan(a) or math.isnan(b))
    if math.isinf(a) or math.isinf(b):
        p = a * b
        assert not math.isnan(p)
        return f32_bits(p)
    neg = (math.copysign(1.0, a) < 0) != (math.copysign(1.0, b) < 0)
    return round_f32(Fraction(a) * Fraction(b), "rn", neg_zero=neg)


def self_check():
    """The rounding helper against the host's double->float conversion
    (one IEEE rounding to nearest, ties to even) on values where that is a
    single rounding, and a few hand-checked values."""
    for d in [0.1, -1 / 3, 1 + 2**-24, 1 + 3 * 2**-24, 1e-40, -1e-40, 2.0**-150,
              3 * 2.0**-150, 16777217.0, 33554435.0, 3.4028235e38, 1.1754942e-38]:
        assert round_f32(Fraction(d), "rn") == f32_bits(d), d
    # hand-checked: 2^24+3 lies halfway between 2^24+2 and 2^24+4; ties to
    # even picks 2^24+4 (mantissa 0x000002) under rn, rz truncates to 2^24+2
    assert round_f32(Fraction(16777219), "rn") == 0x4B800002
    assert round_f32(Fraction(16777219), "rz") == 0x4B800001
    # 2^25+3: ulp 4, 3 is nearer 4 than 0: rn -> 2^25+4, rz -> 2^25
    assert round_f32(Fraction(33554435), "rn") == 0x4C000001
    assert round_f32(Fraction(33554435), "rz") == 0x4C000000
    # FLT_MAX + half an ulp (2^103) is a tie; the even neighbour is 2^128: inf
    assert round_f32(Fraction(f32_val(F32_MAX)) + pow2(103), "rn") == F32_INF
    assert round_f32(Fraction(f32_val(F32_MAX)) + pow2(103), "rz") == F32_MAX
    assert round_f32(Fraction(-1, 10**50), "rn") == 0x80000000
    assert f2i(f32_bits(2.5), "rni") == 2 and f2i(f32_bits(3.5), "rni") == 4
    assert f2i(f32_bits(-2.5), "rni") == u32(-2)
    assert f2i(f32_bits(-2.5), "rmi") == u32(-3) and f2i(f32_bits(-2.5), "rpi") == u32(-2)


# ------------------------------------------------------------ file output


def hexwords(ws):
    return " ".join(f"{u32(w):08x}" for w in ws)


class Launch:
    """One kernel launch: its buffers (in parameter order), parameters and
    the buffers' contents after the run."""

    def __init__(self, name, grid, block, what):
        self.name, self.grid, self.block, self.what = name, grid, block, what
        self.buffers = []  # (name, initial words, is_fill)
        self.params = []  # (param name, 'buffer'|'value', buffer name | value)
        self.after = {}

    def input(self, buf, words):
        self._param("buffer", buf)
        self.buffers.append((buf, [u32(w) for w in words], False))

    def output(self, buf, count):
        self._param("buffer", buf)
        self.buffers.append((buf, [FILL] * count, True))

    def value(self, v):
        self._param("value", v)

    def _param(self, kind, v):
        self.params.append((f"{self.name}_param_{len(self.params)}", kind, v))

    def store(self, buf, index, word):
        """The kernel stores word at buf[index]; a second store to the same
        word would make the result depend on order: refused."""
        words = self.after.setdefault(buf, dict(enumerate(self._initial(buf))))
        assert words[index] == FILL, (self.name, buf, index)
        words[index] = u32(word)

    def _initial(self, buf):
        return next(w for b, w, _ in self.buffers if b == buf)

    def write(self):
        dims = lambda d: ",".join(str(x) for x in d)
        lines = [f"# {self.name}: {line}" if i == 0 else f"# {line}"
                 for i, line in enumerate(self.what)]
        lines += ["# Written by expected.py: edit that, not this file.",
                  f"kernel {self.name}", f"grid {dims(self.grid)}", f"block {dims(self.block)}"]
        for buf, words, is_fill in self.buffers:
            if is_fill:
                lines.append(f"buffer {buf} fill {FILL:08x} {len(words)}")
            else:
                lines.append(f"buffer {buf} u32 {hexwords(words)}")
        for pname, kind, v in self.params:
            lines.append(f"param {pname} {kind} {v}")
        with open(os.path.join(HERE, f"{self.name}.launch"), "w") as f:
            f.write("\n".join(lines) + "\n")

        g, b = dims(self.grid), dims(self.block)
        lines = [f"# {self.name}: grid {g}, block {b}; outputs pre-filled with "
                 f"{FILL:08x}; computed by expected.py"]
        for buf, words, _ in self.buffers:
            after = self.after.get(buf)
            ws = [after[i] for i in range(len(words))] if after else words
            lines.append(f"{buf}: {hexwords(ws)}")
        with open(os.path.join(HERE, f"{self.name}.expect"), "w") as f:
            f.write("\n".join(lines) + "\n")


# ---------------------------------------------------------------- kernels


def warp_reduce_bfly():
    grid, block = 2, 64
    n = grid * block
    L = Launch("warp_reduce_bfly", (grid,), (block,), [
        "warp sum by shfl.sync.bfly.b32 (xor 16, 8, 4, 2, 1);",
        "lane 0 of warp w stores the sum of its 32 inputs to out[w].",
    ])
    x = [((i * 2654435761) % 2**32 >> 8) % 2001 - 1000 for i in range(n)]
    L.input("in", x)
    L.output("out", n // 32)
    for w in range(n // 32):
        L.store("out", w, sum(x[32 * w:32 * w + 32]))
    # hand check: warp 0 sums in[0..31]; see the .expect's first out word
    return L


def block_reduce_shared():
    grid, block = 2, 128
    n = grid * block
    L = Launch("block_reduce_shared", (grid,), (block,), [
        "block sum (u32, wrapping): each warp reduces with shfl.sync.down.b32,",
        "lane 0 puts the warp's sum in shared memory, bar.sync 0, warp 0 reduces",
        "the 4 partial sums again; thread 0 stores the block's sum to out[block].",
    ])
    x = [(i * i * 2654435761 + 12345) % 2**32 for i in range(n)]
    L.input("in", x)
    L.output("out", grid)
    for b in range(grid):
        L.store("out", b, sum(x[block * b:block * b + block]))
    return L


def ballot_compact():
    block = 64
    L = Launch("ballot_compact", (1,), (block,), [
        "stream compaction without atomics: keep = in[i] > 0; ballot of keep;",
        "rank = popc(ballot & %lanemask_lt); kept values go to out[warp*32+rank],",
        "lane 0 stores popc(ballot) to count[warp]; slots past the count stay aaaaaaaa.",
    ])
    x = [(i * 7919) % 61 - 20 for i in range(block)]
    L.input("in", x)
    L.output("out", block)
    L.output("count", block // 32)
    for w in range(block // 32):
        kept = [v for v in x[32 * w:32 * w + 32] if v > 0]
        for r, v in enumerate(kept):
            L.store("out", 32 * w + r, v)
        L.store("count", w, len(kept))
    return L


def segmented_scan_w8():
    block, n = 64, 61
    L = Launch("segmented_scan_w8", (1,), (block,), [
        "inclusive prefix sum inside segments of 8 lanes: shfl.sync.up.b32 with",
        "c = 0x1800 (width 8), steps 1, 2, 4; up3[i] = the raw shfl.up by 3 (lanes",
        "0..2 of a segment keep their own value). Threads i >= n (n = 61) return",
        "first: lanes 61..63 have exited when the others shuffle, no lane reads them.",
    ])
    x = [(i * 37 + 11) % 29 - 9 for i in range(block)]
    L.input("in", x)
    L.output("out", block)
    L.output("up3", block)
    L.value(n)
    for i in range(n):
        seg = i - i % 8
        L.store("out", i, sum(x[seg:i + 1]))
        L.store("up3", i, x[i - 3] if i % 8 >= 3 else x[i])
    return L


def partial_warp24():
    block = 24
    L = Launch("partial_warp24", (1,), (block,), [
        "one partial warp (block 24: lanes 24..31 do not exist), membermask 0x00ffffff:",
        "a shfl.sync.down.b32 tree (16, 8, 4, 2, 1) where a lane adds the shuffled",
        "value only if lane + k < 24, so no used value comes from a missing lane;",
        "sum[0] is the sum of all 24 inputs. ballot[i] = ballot(in < 0);",
        "flags[i] = any(in == 7) | all(in > -50) << 1. Words 24..31 stay aaaaaaaa.",
    ])
    x = [(i * 13) % 37 - 10 for i in range(block)]
    assert 7 in x and any(v < 0 for v in x) and all(v > -50 for v in x)
    L.input("in", x)
    for buf in ("sum", "ballot", "flags"):
        L.output(buf, 32)
    v = list(x)
    for k in (16, 8, 4, 2, 1):
        # every lane shuffles the value the others held before this step
        v = [v[l] + (v[l + k] if l + k < block else 0) for l in range(block)]
    assert v[0] == sum(x)
    ballot = sum(1 << l for l in range(block) if x[l] < 0)
    flags = int(any(t == 7 for t in x)) | int(all(t > -50 for t in x)) << 1
    for l in range(block):
        L.store("sum", l, v[l])
        L.store("ballot", l, ballot)
        L.store("flags", l, flags)
    return L


def match_any_group():
    block = 64
    L = Launch("match_any_group", (1,), (block,), [
        "grouping by match.any.sync.b32 on key = in[i] % 4: mask[i] = lanes of the",
        "warp with the same key, size[i] = popc(mask), leader[i] = 1 if the lane is",
        "the lowest of its group (brev + bfind.shiftamt = __ffs - 1), else 0.",
    ])
    x = xorshift32(0x2545F491, block)
    L.input("in", x)
    for buf in ("mask", "size", "leader"):
        L.output(buf, block)
    for i in range(block):
        w, lane = i // 32, i % 32
        m = sum(1 << l for l in range(32) if x[32 * w + l] % 4 == x[i] % 4)
        L.store("mask", i, m)
        L.store("size", i, bin(m).count("1"))
        L.store("leader", i, int((m & -m).bit_length() - 1 == lane))
    return L


def f64_reduce():
    block = 64
    L = Launch("f64_reduce", (1,), (block,), [
        "f64 warp sum by shfl.sync.bfly.b32 on the two halves (mov.b64 unpack/pack),",
        "add.rn.f64; lane 0 stores the sum to out[warp]. Inputs are multiples of",
        "0.25 below 2^42 in magnitude: every partial sum is exact in f64, so the",
        "result does not depend on the order of the additions.",
    ])
    ks = [(i * 7919) % 2001 - 1000 for i in range(block)]
    x = []
    for i, k in enumerate(ks):
        big = 2**40 if i % 5 == 0 else 0  # a few large terms: not exact in f32
        x.append((big if i % 2 == 0 else -big) + k * 0.25)
    words = [w for v in x for w in f64_words(v)]
    L.input("in", words)
    L.output("out", 2 * (block // 32))
    for w in range(block // 32):
        exact = sum(Fraction(v) for v in x[32 * w:32 * w + 32])
        s = float(exact)
        assert Fraction(s) == exact  # exact in f64: order does not matter
        lo, hi = f64_words(s)
        L.store("out", 2 * w, lo)
        L.store("out", 2 * w + 1, hi)
    return L


def cvt_round():
    n = 32
    L = Launch("cvt_round", (1,), (n,), [
        "conversions with rounding modes, one output array per instruction:",
        "cvt.rn/.rz.f32.s32, cvt.rzi/.rni/.rmi/.rpi.s32.f32 (clamped, NaN -> 0),",
        "cvt.rn/.rz.f32.f64, cvt.u32.u8 / cvt.s32.s8 of a word, ld.global.u8/.s8",
        "of byte i, add.rn.f32 and mul.rn.f32.",
    ])
    si = [0, 1, -1, 7, 16777216, 16777217, 16777218, 16777219, 16777221, -16777217,
          -16777219, 33554433, 33554435, 33554438, -33554435, 2147483647, -2147483648,
          2147483584, 123456789, -123456789, 1000000001, -1000000001, 268435457,
          268435464, 268435472, 268435504, -268435504, 999999999, 16777215, -16777215,
          5, -5]
    inf, nan = float("inf"), float("nan")
    fa = [2.5, 3.5, -2.5, -3.5, 0.5, -0.5, 1.5, -1.5, f32_val(0x401FFFFF),
          f32_val(0xC0200001), 0.0, -0.0, 1.0, -1.0, 7.75, -7.75, 123456.5, -123456.5,
          8388607.5, -8388607.5, 16777216.0, 1e-30, -1e-30, 2147483520.0,
          -2147483648.0, 3e9, -3e9, inf, -inf, nan, f32_val(0x3F7FFFFF), f32_val(0xBF7FFFFF)]
    flt_max = f32_val(F32_MAX)
    dd = [0.1, -0.1, 1 / 3, -1 / 3, 2 / 3, 1 + 2**-24, 1 + 3 * 2**-24,
          1 + 2**-24 + 2**-50, -(1 + 3 * 2**-24), 1e39, -1e39,
          flt_max + 2.0**103, flt_max + 2.0**102, -(flt_max + 2.0**103), 1e-40, -1e-40,
          1e-46, 1e-45, 2.0**-150, 3 * 2.0**-150, 2.0**-126 - 2.0**-160,
          123456789.123, -123456789.123, math.pi, -math.e, 0.0, -0.0, 1e10,
          65504.0000001, 0.5, inf, -inf]
    w = xorshift32(0x9E3779B9, n)
    # add/mul operands: a few chosen pairs, then irregular f32 values with
    # exponents in [-10, 10] (signs, mantissas and exponents from xorshift32)
    pairs = [(1.0, 2.0**-24), (1.0, 3 * 2.0**-24), (1.0, -(2.0**-25)), (flt_max, flt_max),
             (1e-20, 1e-20), (-0.0, 0.0), (-0.0, -0.0), (2.0**-126, -(2.0**-127)),
             (inf, 1.0), (0.1, 0.2), (-1.5, 2.0**-30), (16777216.0, 1.0)]
    fb = [f32_bits(a) for a, _ in pairs]
    fc = [f32_bits(b) for _, b in pairs]
    r = xorshift32(0xC0FFEE11, 2 * (n - len(pairs)))
    for j in range(n - len(pairs)):
        for dst, word in ((fb, r[2 * j]), (fc, r[2 * j + 1])):
            e = 127 + (word >> 8) % 21 - 10
            dst.append((word & 0x80000000) | (e << 23) | ((word * 2654435761) >> 9 & 0x7FFFFF))
    L.input("si", si)
    L.input("fa", [f32_bits(v) for v in fa])
    L.input("dd", [x for v in dd for x in f64_words(v)])
    L.input("w", w)
    L.input("fb", fb)
    L.input("fc", fc)
    outs = ["rn_i2f", "rz_i2f", "rzi", "rni", "rmi", "rpi", "rn_d2f", "rz_d2f",
            "zx8", "sx8", "ldu8", "lds8", "fadd", "fmul"]
    for o in outs:
        L.output(o, n)
    wbytes = b"".join(struct.pack("<I", v) for v in w)
    for i in range(n):
        L.store("rn_i2f", i, round_f32(Fraction(si[i]), "rn"))
        L.store("rz_i2f", i, round_f32(Fraction(si[i]), "rz"))
        a = f32_bits(fa[i])
        for mode in ("rzi", "rni", "rmi", "rpi"):
            L.store(mode, i, f2i(a, mode))
        d = dd[i]
        for mode, buf in (("rn", "rn_d2f"), ("rz", "rz_d2f")):
            if math.isinf(d):
                L.store(buf, i, f32_bits(d))
            else:
                L.store(buf, i, round_f32(Fraction(d), mode, neg_zero=is_neg_zero(d)))
        L.store("zx8", i, w[i] & 0xFF)
        L.store("sx8", i, (w[i] & 0xFF) - (0x100 if w[i] & 0x80 else 0))
        L.store("ldu8", i, wbytes[i])
        L.store("lds8", i, wbytes[i] - (0x100 if wbytes[i] & 0x80 else 0))
        L.store("fadd", i, fadd_rn(fb[i], fc[i]))
        L.store("fmul", i, fmul_rn(fb[i], fc[i]))
    # hand checks: lane 7: 16777219 -> rn 16777220 (0x4b800002), rz 16777218
    # (0x4b800001); lane 2 of fa, -2.5: rni -2, rmi -3, rpi -2, rzi -2;
    # lane 6 of dd, 1 + 3*2^-24: rn 1 + 2^-22 (0x3f800002), rz 1 + 2^-23 (0x3f800001)
    assert L.after["rn_i2f"][7] == 0x4B800002 and L.after["rz_i2f"][7] == 0x4B800001
    assert L.after["rni"][2] == u32(-2) and L.after["rmi"][2] == u32(-3)
    assert L.after["rn_d2f"][6] == 0x3F800002 and L.after["rz_d2f"][6] == 0x3F800001
    return L


KERNELS = [warp_reduce_bfly, block_reduce_shared, ballot_compact, segmented_scan_w8,
           partial_warp24, match_any_group, f64_reduce, cvt_round]


def main():
    self_check()
    for make in KERNELS:
        L = make()
        L.write()
        print(f"{L.name}: wrote {L.name}.launch, {L.name}.expect")


if __name__ == "__main__":
    main()
