// The H200 check of the `.approx` bounds (issue #37, item 3): every approximate PTX math
// instruction warpdiff implements, evaluated on the GPU
//   1. at a sample of inputs (special values, subnormals, powers of two and their
//      neighbours, random bit patterns, and random values in each function's documented
//      range), written one evaluation per line to h200-sweep.txt:
//        FUNCTION INPUT_HEX [INPUT2_HEX] OUTPUT_HEX
//      (the PTX mnemonic; f32 words as 8 hex digits, f64 as 16), which `cargo test` reads;
//   2. densely (2^24 inputs per range), against the exact function computed in double on
//      the GPU: the largest absolute error, relative error and error in ulps of the f32
//      result per function and range, printed to stdout (h200-bounds.txt).
// Build and run on the GPU machine: nvcc -O2 -arch=sm_90 -o sweep sweep.cu && ./sweep
#include <cstdio>
#include <cstdint>
#include <cstring>
#include <cmath>
#include <random>
#include <vector>
#include <string>

#define CK(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { \
    fprintf(stderr, "%s:%d: %s\n", __FILE__, __LINE__, cudaGetErrorString(e_)); exit(1); } } while (0)

// One f32 -> f32 instruction per kernel.
#define UN32(K, INSTR)                                                                     \
    __device__ __forceinline__ float f_##K(float x) {                                      \
        float y;                                                                           \
        asm volatile(INSTR " %0, %1;" : "=f"(y) : "f"(x));                                 \
        return y;                                                                          \
    }                                                                                      \
    __global__ void k_##K(const uint32_t* in, uint32_t* out, int n) {                      \
        int i = blockIdx.x * blockDim.x + threadIdx.x;                                     \
        if (i < n) out[i] = __float_as_uint(f_##K(__uint_as_float(in[i])));                \
    }
#define BIN32(K, INSTR)                                                                    \
    __device__ __forceinline__ float f_##K(float a, float b) {                             \
        float y;                                                                           \
        asm volatile(INSTR " %0, %1, %2;" : "=f"(y) : "f"(a), "f"(b));                     \
        return y;                                                                          \
    }                                                                                      \
    __global__ void k_##K(const uint32_t* in, uint32_t* out, int n) {                      \
        int i = blockIdx.x * blockDim.x + threadIdx.x;                                     \
        if (i < n) out[i] = __float_as_uint(f_##K(__uint_as_float(in[2 * i]), __uint_as_float(in[2 * i + 1]))); \
    }
#define UN64(K, INSTR)                                                                     \
    __global__ void k_##K(const uint64_t* in, uint64_t* out, int n) {                      \
        int i = blockIdx.x * blockDim.x + threadIdx.x;                                     \
        if (i < n) {                                                                       \
            double y;                                                                      \
            asm volatile(INSTR " %0, %1;" : "=d"(y) : "d"(__longlong_as_double(in[i])));   \
            out[i] = __double_as_longlong(y);                                              \
        }                                                                                  \
    }

UN32(ex2, "ex2.approx.f32") UN32(ex2_ftz, "ex2.approx.ftz.f32")
UN32(lg2, "lg2.approx.f32") UN32(lg2_ftz, "lg2.approx.ftz.f32")
UN32(rcp, "rcp.approx.f32") UN32(rcp_ftz, "rcp.approx.ftz.f32")
UN32(rsqrt, "rsqrt.approx.f32") UN32(rsqrt_ftz, "rsqrt.approx.ftz.f32")
UN32(sqrt, "sqrt.approx.f32") UN32(sqrt_ftz, "sqrt.approx.ftz.f32")
UN32(sin, "sin.approx.f32") UN32(sin_ftz, "sin.approx.ftz.f32")
UN32(cos, "cos.approx.f32") UN32(cos_ftz, "cos.approx.ftz.f32")
UN32(tanh, "tanh.approx.f32")
BIN32(div, "div.approx.f32") BIN32(div_ftz, "div.approx.ftz.f32")
BIN32(divf, "div.full.f32") BIN32(divf_ftz, "div.full.ftz.f32")
UN64(rcp64, "rcp.approx.ftz.f64") UN64(rsqrt64, "rsqrt.approx.f64") UN64(rsqrt64_ftz, "rsqrt.approx.ftz.f64")

// Dense error statistics: x_i spread over [lo, hi] linearly (geo = 0) or as 2^t with t in
// [lo, hi] (geo = 1); the second operand of a division is 2^(t') for a hash-spread t' in
// [blo, bhi]. Errors as f32 bit patterns (non-negative, so atomicMax on the bits orders
// them): stats[0] max |y - r|, [1] max |y - r| / |r|, [2] max |y - r| / ulp(r).
__device__ double ulp_of(double r) {
    float f = (float)fabs(r);
    if (f < 1.17549435e-38f) return ldexp(1.0, -149);
    int e;
    frexpf(f, &e);
    return ldexp(1.0, e - 24);
}
__device__ void record(unsigned* stats, float y, double r, unsigned* worst) {
    if (isnan(r) || isinf(r)) return;
    double err = fabs((double)y - r);
    if (isnan(y)) err = INFINITY;
    atomicMax(&stats[0], __float_as_uint((float)err));
    if (r != 0) atomicMax(&stats[1], __float_as_uint((float)(err / fabs(r))));
    atomicMax(&stats[2], __float_as_uint((float)(err / ulp_of(r))));
}
__device__ double spread(long long i, long long n, double lo, double hi, int geo) {
    double t = lo + (hi - lo) * (double)i / (double)(n - 1);
    return geo ? exp2(t) : t;
}
#define DENSE_UN(K, REF)                                                                   \
    __global__ void d_##K(long long n, double lo, double hi, int geo, unsigned* stats) {   \
        long long i = blockIdx.x * (long long)blockDim.x + threadIdx.x;                    \
        if (i >= n) return;                                                                \
        float x = (float)spread(i, n, lo, hi, geo);                                        \
        double xd = x;                                                                     \
        record(stats, f_##K(x), (REF), 0);                                                 \
    }
#define DENSE_BIN(K)                                                                       \
    __global__ void d_##K(long long n, double lo, double hi, int geo, unsigned* stats) {   \
        long long i = blockIdx.x * (long long)blockDim.x + threadIdx.x;                    \
        if (i >= n) return;                                                                \
        float a = (float)spread(i, n, -1e3, 1e3, 0);                                       \
        unsigned h = (unsigned)(i * 2654435761u);                                          \
        float b = (float)exp2(lo + (hi - lo) * (h / 4294967296.0));                        \
        if (h & 1) b = -b;                                                                 \
        record(stats, f_##K(a, b), (double)a / (double)b, 0);                              \
    }
DENSE_UN(ex2, exp2(xd)) DENSE_UN(ex2_ftz, exp2(xd))
DENSE_UN(lg2, log2(xd)) DENSE_UN(lg2_ftz, log2(xd))
DENSE_UN(rcp, 1.0 / xd) DENSE_UN(rcp_ftz, 1.0 / xd)
DENSE_UN(rsqrt, 1.0 / sqrt(xd)) DENSE_UN(rsqrt_ftz, 1.0 / sqrt(xd))
DENSE_UN(sqrt, sqrt(xd)) DENSE_UN(sqrt_ftz, sqrt(xd))
DENSE_UN(sin, sin(xd)) DENSE_UN(sin_ftz, sin(xd))
DENSE_UN(cos, cos(xd)) DENSE_UN(cos_ftz, cos(xd))
DENSE_UN(tanh, tanh(xd))
DENSE_BIN(div) DENSE_BIN(div_ftz) DENSE_BIN(divf) DENSE_BIN(divf_ftz)

typedef void (*UnK)(const uint32_t*, uint32_t*, int);
typedef void (*DenseK)(long long, double, double, int, unsigned*);
struct Fn {
    const char* name;
    UnK k;
    DenseK d;
    int binary;
    double lo, hi;  // the sample's "documented range" values (2^lo..2^hi when geo)
    int geo;
};

static uint32_t fbits(float f) { uint32_t u; memcpy(&u, &f, 4); return u; }

static std::vector<uint32_t> specials32() {
    std::vector<uint32_t> v = {0x00000000, 0x80000000, 0x7f800000, 0xff800000, 0x7fc00000, 0xffc00000,
                               0x7f800001, 0x00000001, 0x80000001, 0x007fffff, 0x807fffff, 0x00400000,
                               0x00800000, 0x80800000, 0x7f7fffff, 0xff7fffff, 0x3f800000, 0xbf800000,
                               0x3f000000, 0x40000000, 0x40490fdb, 0xc0490fdb, 0x3fc90fdb, 0x42fe0000,
                               0x43000000, 0xc2fc0000, 0xc3150000, 0xc3160000, 0x41200000, 0x4b000000};
    for (int e = -150; e <= 128; e++) {  // powers of two and their neighbours
        float p = ldexpf(1.0f, e);
        uint32_t u = fbits(p);
        if (std::isinf(p)) continue;
        v.push_back(u); v.push_back(u | 0x80000000u);
        if (u > 0) v.push_back(u - 1);
        v.push_back(u + 1);
    }
    return v;
}

int main() {
    std::mt19937_64 rng(37);
    const double PI = 3.14159265358979323846;
    Fn fns[] = {
        {"ex2.approx.f32", k_ex2, d_ex2, 0, -150, 128, 0}, {"ex2.approx.ftz.f32", k_ex2_ftz, d_ex2_ftz, 0, -150, 128, 0},
        {"lg2.approx.f32", k_lg2, d_lg2, 0, -149, 128, 1}, {"lg2.approx.ftz.f32", k_lg2_ftz, d_lg2_ftz, 0, -126, 128, 1},
        {"rcp.approx.f32", k_rcp, d_rcp, 0, -149, 128, 1}, {"rcp.approx.ftz.f32", k_rcp_ftz, d_rcp_ftz, 0, -126, 128, 1},
        {"rsqrt.approx.f32", k_rsqrt, d_rsqrt, 0, -149, 128, 1}, {"rsqrt.approx.ftz.f32", k_rsqrt_ftz, d_rsqrt_ftz, 0, -126, 128, 1},
        {"sqrt.approx.f32", k_sqrt, d_sqrt, 0, -149, 128, 1}, {"sqrt.approx.ftz.f32", k_sqrt_ftz, d_sqrt_ftz, 0, -126, 128, 1},
        {"sin.approx.f32", k_sin, d_sin, 0, -100 * PI, 100 * PI, 0}, {"sin.approx.ftz.f32", k_sin_ftz, d_sin_ftz, 0, -100 * PI, 100 * PI, 0},
        {"cos.approx.f32", k_cos, d_cos, 0, -100 * PI, 100 * PI, 0}, {"cos.approx.ftz.f32", k_cos_ftz, d_cos_ftz, 0, -100 * PI, 100 * PI, 0},
        {"tanh.approx.f32", k_tanh, d_tanh, 0, -20, 20, 0},
        {"div.approx.f32", k_div, d_div, 1, -126, 126, 0}, {"div.approx.ftz.f32", k_div_ftz, d_div_ftz, 1, -126, 126, 0},
        {"div.full.f32", k_divf, d_divf, 1, -126, 126, 0}, {"div.full.ftz.f32", k_divf_ftz, d_divf_ftz, 1, -126, 126, 0},
    };
    FILE* out = fopen("h200-sweep.txt", "w");
    if (!out) { perror("h200-sweep.txt"); return 1; }
    cudaDeviceProp prop;
    CK(cudaGetDeviceProperties(&prop, 0));
    int drv = 0;
    CK(cudaDriverGetVersion(&drv));
    fprintf(out, "# sweep.cu on %s (sm_%d%d, CUDA driver %d): FUNCTION INPUT [INPUT2] OUTPUT, hex bit patterns\n",
            prop.name, prop.major, prop.minor, drv);
    uint32_t *din, *dout;
    CK(cudaMalloc(&din, 8 << 20));
    CK(cudaMalloc(&dout, 8 << 20));
    std::uniform_real_distribution<double> u01(0.0, 1.0);
    for (const Fn& f : fns) {
        std::vector<uint32_t> xs = specials32();
        for (int k = 0; k < 1500; k++) xs.push_back((uint32_t)rng());
        for (int k = 0; k < 1500; k++) {
            double t = f.lo + (f.hi - f.lo) * u01(rng);
            float x = (float)(f.geo ? exp2(t) : t);
            xs.push_back(fbits(x));
        }
        std::vector<uint32_t> in;
        size_t n;
        if (f.binary) {  // pairs: each special with each of a few, then random pairs and ranged pairs
            std::vector<uint32_t> sp = specials32();
            for (size_t a = 0; a < 30; a++) for (size_t b = 0; b < 30; b++) { in.push_back(sp[a]); in.push_back(sp[b]); }
            for (int k = 0; k < 1500; k++) { in.push_back((uint32_t)rng()); in.push_back((uint32_t)rng()); }
            for (int k = 0; k < 1500; k++) {
                float a = (float)((u01(rng) * 2 - 1) * 1e3), b = (float)exp2(f.lo + (f.hi - f.lo) * u01(rng));
                in.push_back(fbits(a)); in.push_back(fbits(u01(rng) < 0.5 ? b : -b));
            }
            n = in.size() / 2;
        } else {
            in = xs;
            n = in.size();
        }
        std::vector<uint32_t> res(n);
        CK(cudaMemcpy(din, in.data(), in.size() * 4, cudaMemcpyHostToDevice));
        f.k<<<(n + 255) / 256, 256>>>(din, dout, (int)n);
        CK(cudaGetLastError());
        CK(cudaMemcpy(res.data(), dout, n * 4, cudaMemcpyDeviceToHost));
        for (size_t i = 0; i < n; i++) {
            if (f.binary) fprintf(out, "%s %08x %08x %08x\n", f.name, in[2 * i], in[2 * i + 1], res[i]);
            else fprintf(out, "%s %08x %08x\n", f.name, in[i], res[i]);
        }
    }
    {  // f64
        const char* names[] = {"rcp.approx.ftz.f64", "rsqrt.approx.f64", "rsqrt.approx.ftz.f64"};
        void (*ks[])(const uint64_t*, uint64_t*, int) = {k_rcp64, k_rsqrt64, k_rsqrt64_ftz};
        for (int j = 0; j < 3; j++) {
            std::vector<uint64_t> in = {0, 0x8000000000000000ull, 0x7ff0000000000000ull, 0xfff0000000000000ull,
                                        0x7ff8000000000000ull, 1, 0x000fffffffffffffull, 0x0010000000000000ull,
                                        0x3ff0000000000000ull, 0x7fefffffffffffffull, 0xbff0000000000000ull};
            for (int k = 0; k < 1000; k++) in.push_back(rng());
            for (int k = 0; k < 1000; k++) { double x = exp2(-1022 + 2045 * u01(rng)); uint64_t b; memcpy(&b, &x, 8); in.push_back(b); }
            std::vector<uint64_t> res(in.size());
            CK(cudaMemcpy(din, in.data(), in.size() * 8, cudaMemcpyHostToDevice));
            ks[j]<<<(in.size() + 255) / 256, 256>>>((const uint64_t*)din, (uint64_t*)dout, (int)in.size());
            CK(cudaGetLastError());
            CK(cudaMemcpy(res.data(), dout, in.size() * 8, cudaMemcpyDeviceToHost));
            for (size_t i = 0; i < in.size(); i++)
                fprintf(out, "%s %016llx %016llx\n", names[j], (unsigned long long)in[i], (unsigned long long)res[i]);
        }
    }
    fclose(out);
    // Dense statistics.
    struct Range { double lo, hi; int geo; const char* what; };
    unsigned* dstats;
    CK(cudaMalloc(&dstats, 3 * sizeof(unsigned)));
    const long long N = 1 << 24;
    printf("# dense sweep, %lld inputs per range, errors against the exact function in double:\n", N);
    printf("# function | range | max abs error | max rel error | max error in f32 ulps of the exact value\n");
    for (const Fn& f : fns) {
        std::vector<Range> rs;
        std::string nm = f.name;
        if (nm.rfind("ex2", 0) == 0) rs = {{-126, 127.99, 0, "[-126, 128)"}, {-150, -126, 0, "[-150, -126] (subnormal results)"}};
        else if (nm.rfind("sin", 0) == 0 || nm.rfind("cos", 0) == 0) rs = {{-PI, PI, 0, "[-pi, pi]"}, {-100 * PI, 100 * PI, 0, "[-100 pi, 100 pi]"}};
        else if (nm.rfind("tanh", 0) == 0) rs = {{-20, 20, 0, "[-20, 20]"}};
        else if (f.binary) rs = {{-126, 126, 0, "a in [-1e3, 1e3], |b| in [2^-126, 2^126]"}, {126, 128, 0, "|b| in [2^126, 2^128)"}};
        else rs = {{-126, 127.99, 1, "[2^-126, 2^128)"}, {-149, -126, 1, "[2^-149, 2^-126] (subnormal inputs)"}};
        for (const Range& r : rs) {
            CK(cudaMemset(dstats, 0, 3 * sizeof(unsigned)));
            f.d<<<(N + 255) / 256, 256>>>(N, r.lo, r.hi, r.geo, dstats);
            CK(cudaGetLastError());
            unsigned s[3];
            CK(cudaMemcpy(s, dstats, sizeof s, cudaMemcpyDeviceToHost));
            float e[3];
            memcpy(e, s, sizeof e);
            printf("%s | %s | %.3g (2^%.2f) | %.3g (2^%.2f) | %.3f\n", f.name, r.what, e[0], log2(e[0]), e[1], log2(e[1]), e[2]);
        }
    }
    return 0;
}
