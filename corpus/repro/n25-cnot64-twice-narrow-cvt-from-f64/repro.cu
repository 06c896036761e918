// Reproducer written by `warpdiff repro`: runs the kernel below on one warp
// and compares every register lane the reference interpreter defines.
// Build: nvcc -o repro repro.cu -lcuda
// Run:   ./repro -O 0   (driver JIT at level 0..4)   or   ./repro --cubin kernel-O3.cubin
#include <cuda.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char PTX[] =
    "// warpdiff: 1 jobs, 1 kernels; each kernel runs one warp (32 threads) per job, grid = its jobs\n"
    ".version 7.8\n"
    ".target sm_90\n"
    ".address_size 64\n"
    "\n"
    "// k0: 1 job(s); in_words 64, out_words 96; registers:\n"
    "//   %w0 = %s2 (.s32)\n"
    "//   %w1 = %bd0 (.b64)\n"
    ".visible .entry k0(.param .u64 warp_in, .param .u64 warp_out)\n"
    "{\n"
    "    .reg .s32 %w0;\n"
    "    .reg .b64 %w1;\n"
    "    .reg .b32 %sink32, %t32, %redux_a, %redux_d;\n"
    "    .reg .b64 %sink64, %in, %out, %off;\n"
    "    .reg .pred %sinkp;\n"
    "    .reg .b16 %sink16;\n"
    "    .reg .u32 %lane, %cta, %delay, %sleep;\n"
    "    ld.param.u64 %in, [warp_in];\n"
    "    ld.param.u64 %out, [warp_out];\n"
    "    cvta.to.global.u64 %in, %in;\n"
    "    cvta.to.global.u64 %out, %out;\n"
    "    mov.u32 %lane, %laneid;\n"
    "    mov.u32 %cta, %ctaid.x;\n"
    "    mul.wide.u32 %off, %cta, 512;\n"
    "    add.s64 %in, %in, %off;\n"
    "    mul.wide.u32 %off, %cta, 768;\n"
    "    add.s64 %out, %out, %off;\n"
    "    mul.wide.u32 %off, %lane, 8;\n"
    "    add.s64 %in, %in, %off;\n"
    "    add.s64 %out, %out, %off;\n"
    "    ld.global.b64 %w1, [%in+256];\n"
    "    cnot.b64 %w1, %w1;\n"
    "    cnot.b64 %w1, %w1;\n"
    "    cvt.rmi.u8.f64 %w0, %w1;\n"
    "    st.global.b32 [%out], %w0;\n"
    "    st.global.b64 [%out+256], %w1;\n"
    "    st.global.u64 [%out+512], 0;\n"
    "    ret;\n"
    "}\n"
    ;
static const char KERNEL[] = "k0";
#define REGS 2
#define IN_WORDS 64
#define OUT_WORDS 96
static const unsigned long long IN[] = {
    0x0ull, 0x0ull, 0x0ull, 0x0ull, 0x0ull, 0x0ull, 0x0ull, 0x0ull, 
    0x0ull, 0x0ull, 0x0ull, 0x0ull, 0x0ull, 0x0ull, 0x0ull, 0x0ull, 
    0x0ull, 0x0ull, 0x0ull, 0x0ull, 0x0ull, 0x0ull, 0x0ull, 0x0ull, 
    0x0ull, 0x0ull, 0x0ull, 0x0ull, 0x0ull, 0x0ull, 0x0ull, 0x0ull, 
    0x0ull, 0x1ull, 0x2ull, 0x3ull, 0x0ull, 0x1ull, 0x2ull, 0x3ull, 
    0x0ull, 0x1ull, 0x2ull, 0x3ull, 0x0ull, 0x1ull, 0x2ull, 0x3ull, 
    0x0ull, 0x1ull, 0x2ull, 0x3ull, 0x0ull, 0x1ull, 0x2ull, 0x3ull, 
    0x0ull, 0x1ull, 0x2ull, 0x3ull, 0x0ull, 0x1ull, 0x2ull, 0x3ull, 0};
static const unsigned long long EXPECT[] = {
    0x0ull, 0x0ull, 0x0ull, 0x0ull, 0x0ull, 0x0ull, 0x0ull, 0x0ull, 
    0x0ull, 0x0ull, 0x0ull, 0x0ull, 0x0ull, 0x0ull, 0x0ull, 0x0ull, 
    0x0ull, 0x0ull, 0x0ull, 0x0ull, 0x0ull, 0x0ull, 0x0ull, 0x0ull, 
    0x0ull, 0x0ull, 0x0ull, 0x0ull, 0x0ull, 0x0ull, 0x0ull, 0x0ull, 
    0x0ull, 0x1ull, 0x1ull, 0x1ull, 0x0ull, 0x1ull, 0x1ull, 0x1ull, 
    0x0ull, 0x1ull, 0x1ull, 0x1ull, 0x0ull, 0x1ull, 0x1ull, 0x1ull, 
    0x0ull, 0x1ull, 0x1ull, 0x1ull, 0x0ull, 0x1ull, 0x1ull, 0x1ull, 
    0x0ull, 0x1ull, 0x1ull, 0x1ull, 0x0ull, 0x1ull, 0x1ull, 0x1ull, 
    0x0ull, 0x0ull, 0x0ull, 0x0ull, 0x0ull, 0x0ull, 0x0ull, 0x0ull, 
    0x0ull, 0x0ull, 0x0ull, 0x0ull, 0x0ull, 0x0ull, 0x0ull, 0x0ull, 
    0x0ull, 0x0ull, 0x0ull, 0x0ull, 0x0ull, 0x0ull, 0x0ull, 0x0ull, 
    0x0ull, 0x0ull, 0x0ull, 0x0ull, 0x0ull, 0x0ull, 0x0ull, 0x0ull, 0};
static const unsigned long long DEFINED[] = {
    0xffffffffull, 0xffffffffull, 0xffffffffull, 0xffffffffull, 0xffffffffull, 0xffffffffull, 0xffffffffull, 0xffffffffull, 
    0xffffffffull, 0xffffffffull, 0xffffffffull, 0xffffffffull, 0xffffffffull, 0xffffffffull, 0xffffffffull, 0xffffffffull, 
    0xffffffffull, 0xffffffffull, 0xffffffffull, 0xffffffffull, 0xffffffffull, 0xffffffffull, 0xffffffffull, 0xffffffffull, 
    0xffffffffull, 0xffffffffull, 0xffffffffull, 0xffffffffull, 0xffffffffull, 0xffffffffull, 0xffffffffull, 0xffffffffull, 
    0xffffffffffffffffull, 0xffffffffffffffffull, 0xffffffffffffffffull, 0xffffffffffffffffull, 0xffffffffffffffffull, 0xffffffffffffffffull, 0xffffffffffffffffull, 0xffffffffffffffffull, 
    0xffffffffffffffffull, 0xffffffffffffffffull, 0xffffffffffffffffull, 0xffffffffffffffffull, 0xffffffffffffffffull, 0xffffffffffffffffull, 0xffffffffffffffffull, 0xffffffffffffffffull, 
    0xffffffffffffffffull, 0xffffffffffffffffull, 0xffffffffffffffffull, 0xffffffffffffffffull, 0xffffffffffffffffull, 0xffffffffffffffffull, 0xffffffffffffffffull, 0xffffffffffffffffull, 
    0xffffffffffffffffull, 0xffffffffffffffffull, 0xffffffffffffffffull, 0xffffffffffffffffull, 0xffffffffffffffffull, 0xffffffffffffffffull, 0xffffffffffffffffull, 0xffffffffffffffffull, 
    0x1ull, 0x1ull, 0x1ull, 0x1ull, 0x1ull, 0x1ull, 0x1ull, 0x1ull, 
    0x1ull, 0x1ull, 0x1ull, 0x1ull, 0x1ull, 0x1ull, 0x1ull, 0x1ull, 
    0x1ull, 0x1ull, 0x1ull, 0x1ull, 0x1ull, 0x1ull, 0x1ull, 0x1ull, 
    0x1ull, 0x1ull, 0x1ull, 0x1ull, 0x1ull, 0x1ull, 0x1ull, 0x1ull, 0};
static const char *NAMES[] = {"%s2", "%bd0", "(lane status: 1 = exited)"};

#define CHECK(x) do { CUresult r_ = (x); if (r_ != CUDA_SUCCESS) { const char *m_ = 0; \
    cuGetErrorString(r_, &m_); fprintf(stderr, "%s: %s\n", #x, m_ ? m_ : "?"); return 2; } } while (0)

int main(int argc, char **argv) {
    int level = -1;
    const char *cubin = 0;
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "-O") && i + 1 < argc) level = atoi(argv[++i]);
        else if (!strcmp(argv[i], "--cubin") && i + 1 < argc) cubin = argv[++i];
        else { fprintf(stderr, "usage: %s [-O LEVEL | --cubin FILE]\n", argv[0]); return 2; }
    }
    CUdevice dev; CUcontext ctx; CUmodule mod; CUfunction f;
    CHECK(cuInit(0));
    CHECK(cuDeviceGet(&dev, 0));
    CHECK(cuDevicePrimaryCtxRetain(&ctx, dev));
    CHECK(cuCtxSetCurrent(ctx));
    if (cubin) {
        CHECK(cuModuleLoad(&mod, cubin));
        printf("%s: ", cubin);
    } else if (level >= 0) {
        CUjit_option o[] = {CU_JIT_OPTIMIZATION_LEVEL};
        void *v[] = {(void *)(size_t)level};
        CHECK(cuModuleLoadDataEx(&mod, PTX, 1, o, v));
        printf("driver JIT -O%d: ", level);
    } else {
        CHECK(cuModuleLoadData(&mod, PTX));
        printf("driver JIT, default level: ");
    }
    CHECK(cuModuleGetFunction(&f, mod, KERNEL));
    CUdeviceptr din, dout;
    CHECK(cuMemAlloc(&din, IN_WORDS * 8 + 8));
    CHECK(cuMemAlloc(&dout, OUT_WORDS * 8));
    CHECK(cuMemcpyHtoD(din, IN, IN_WORDS * 8));
    CHECK(cuMemsetD8(dout, 0, OUT_WORDS * 8));
    void *args[] = {&din, &dout};
    CHECK(cuLaunchKernel(f, 1, 1, 1, 32, 1, 1, 0, 0, args, 0));
    CHECK(cuCtxSynchronize());
    static unsigned long long got[OUT_WORDS];
    CHECK(cuMemcpyDtoH(got, dout, OUT_WORDS * 8));
    int bad = 0;
    for (int w = 0; w < OUT_WORDS; w++) {
        if ((got[w] ^ EXPECT[w]) & DEFINED[w]) {
            if (!bad) printf("DIFFERS\n");
            bad++;
            printf("  %s lane %d: expected %#llx (defined bits %#llx), observed %#llx\n",
                   NAMES[w / 32], w % 32, EXPECT[w], DEFINED[w], got[w] & (DEFINED[w] | EXPECT[w] | 0xffffffffull));
        }
    }
    if (!bad) printf("agrees on every defined lane\n");
    return bad ? 1 : 0;
}
