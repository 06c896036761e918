// Float and double arithmetic with explicit rounding: __fmaf_rn, __fdiv_rn,
// __fsqrt_rn, __fadd_rz, __fmul_ru, __fmul_rd, __dadd_rn, __ddiv_rn,
// __dsqrt_rn, __fma_rn, __double2float_rz, __float2int_rn/rz/rd/ru,
// __int2float_rz, __uint2double_rn.
extern "C" __global__ void fp_round(const float *f, const double *d, const int *k, unsigned *out) {
    int i = threadIdx.x;
    float x = f[i], y = f[i + 32];
    double p = d[i], q = d[i + 32];
    unsigned *o = out + i * 20;
    float r[10];
    r[0] = __fmaf_rn(x, y, 1.0f);
    r[1] = __fdiv_rn(x, y);
    r[2] = __fsqrt_rn(fabsf(x));
    r[3] = __fadd_rz(x, y);
    r[4] = __fmul_ru(x, y);
    r[5] = __fmul_rd(x, y);
    r[6] = __double2float_rz(p);
    r[7] = __int2float_rz(k[i]);
    r[8] = __fadd_rn(x, y);
    r[9] = __fsub_rn(x, y);
    for (int j = 0; j < 10; j++)
        o[j] = __float_as_uint(r[j]);
    o[10] = (unsigned)__float2int_rn(x * 1000.0f);
    o[11] = (unsigned)__float2int_rz(x * 1000.0f);
    o[12] = (unsigned)__float2int_rd(x * 1000.0f);
    o[13] = (unsigned)__float2int_ru(x * 1000.0f);
    double e[3];
    e[0] = __dadd_rn(p, q);
    e[1] = __ddiv_rn(p, q);
    e[2] = __fma_rn(p, q, __dsqrt_rn(fabs(p)));
    for (int j = 0; j < 3; j++) {
        unsigned long long b = __double_as_longlong(e[j]);
        o[14 + 2 * j] = (unsigned)b;
        o[15 + 2 * j] = (unsigned)(b >> 32);
    }
}
