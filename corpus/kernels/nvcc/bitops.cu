// Integer intrinsics and arithmetic on runtime values: __popc, __brev,
// __clz, __ffs, __byte_perm, __funnelshift_l/r, min/max/abs, division and
// remainder (32- and 64-bit, signed and unsigned), short and char math.
extern "C" __global__ void bitops(const unsigned *a, const unsigned *b, unsigned *out) {
    int i = threadIdx.x;
    unsigned x = a[i], y = b[i] | 1u;
    int sx = (int)x, sy = (int)(y | 0x80000001u) >> (i & 7);
    unsigned *o = out + i * 16;
    o[0] = __popc(x);
    o[1] = __brev(x);
    o[2] = __clz(x);
    o[3] = __ffs(x);
    o[4] = __byte_perm(x, y, 0x5173);
    o[5] = __funnelshift_l(x, y, i);
    o[6] = __funnelshift_r(x, y, i + 20);
    o[7] = (unsigned)min(sx, sy) ^ max(x, y);
    o[8] = (unsigned)abs(sx);
    o[9] = x / y;
    o[10] = x % y;
    o[11] = (unsigned)(sx / sy);
    o[12] = (unsigned)(sx % sy);
    unsigned long long w = ((unsigned long long)x << 32) | y;
    o[13] = (unsigned)(w / (y | 0x100u)) ^ (unsigned)(w % 1000003ull);
    short h = (short)x * (short)y + (short)i;
    o[14] = (unsigned)(int)h;
    signed char c = (signed char)(x >> 3);
    o[15] = (unsigned)(int)(c * 3 - (signed char)y);
}
