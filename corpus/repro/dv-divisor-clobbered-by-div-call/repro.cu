// Reproducer written by `warpdiff repro`: runs the kernel below on one warp
// and compares every register lane the reference interpreter defines.
// Build: nvcc -o repro repro.cu -lcuda
// Run:   ./repro -O 0   (driver JIT at level 0..4)   or   ./repro --link -O 3   (the
//        driver's JIT linker: a relocatable compile)   or   ./repro --cubin kernel-O3.cubin;
//        add --dirty SEED to fill every register with values from SEED first
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
    "// k0: 1 job(s); in_words 128, out_words 160; registers:\n"
    "//   %w0 = %b0 (.b32)\n"
    "//   %w1 = %f0 (.f32)\n"
    "//   %w2 = %f1 (.f32)\n"
    "//   %w3 = %p0 (.pred)\n"
    ".visible .entry k0(.param .u64 warp_in, .param .u64 warp_out)\n"
    "{\n"
    "    .reg .b32 %w0;\n"
    "    .reg .f32 %w1, %w2;\n"
    "    .reg .pred %w3;\n"
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
    "    mul.wide.u32 %off, %cta, 1024;\n"
    "    add.s64 %in, %in, %off;\n"
    "    mul.wide.u32 %off, %cta, 1280;\n"
    "    add.s64 %out, %out, %off;\n"
    "    mul.wide.u32 %off, %lane, 8;\n"
    "    add.s64 %in, %in, %off;\n"
    "    add.s64 %out, %out, %off;\n"
    "    ld.global.b32 %w0, [%in];\n"
    "    ld.global.b32 %t32, [%in+768];\n"
    "    setp.ne.b32 %w3, %t32, 0;\n"
    "    @%w3 activemask.b32 %w0;\n"
    "    neg.f32 %w1, %w0;\n"
    "    div.rp.f32 %sink32, 0f00000001, %w1;\n"
    "    st.global.b32 [%out], %w0;\n"
    "    st.global.b32 [%out+256], %w1;\n"
    "    st.global.b32 [%out+512], %w2;\n"
    "    selp.u32 %t32, 1, 0, %w3;\n"
    "    st.global.b32 [%out+768], %t32;\n"
    "    st.global.u64 [%out+1024], 0;\n"
    "    ret;\n"
    "}\n"
    ;
static const char KERNEL[] = "k0";
#define REGS 4
#define IN_WORDS 128
#define OUT_WORDS 160
#define GRID 1
#define BLOCK 0
static const unsigned long long IN[] = {
    0x1ull, 0x1ull, 0x1ull, 0x1ull, 0x1ull, 0x1ull, 0x1ull, 0x1ull, 
    0x1ull, 0x1ull, 0x1ull, 0x1ull, 0x1ull, 0x1ull, 0x1ull, 0x1ull, 
    0x1ull, 0x1ull, 0x1ull, 0x1ull, 0x1ull, 0x1ull, 0x1ull, 0x1ull, 
    0x1ull, 0x1ull, 0x1ull, 0x1ull, 0x1ull, 0x1ull, 0x1ull, 0x1ull, 
    0x0ull, 0x0ull, 0x0ull, 0x0ull, 0x0ull, 0x0ull, 0x0ull, 0x0ull, 
    0x0ull, 0x0ull, 0x0ull, 0x0ull, 0x0ull, 0x0ull, 0x0ull, 0x0ull, 
    0x0ull, 0x0ull, 0x0ull, 0x0ull, 0x0ull, 0x0ull, 0x0ull, 0x0ull, 
    0x0ull, 0x0ull, 0x0ull, 0x0ull, 0x0ull, 0x0ull, 0x0ull, 0x0ull, 
    0x0ull, 0x0ull, 0x0ull, 0x0ull, 0x0ull, 0x0ull, 0x0ull, 0x0ull, 
    0x0ull, 0x0ull, 0x0ull, 0x0ull, 0x0ull, 0x0ull, 0x0ull, 0x0ull, 
    0x0ull, 0x0ull, 0x0ull, 0x0ull, 0x0ull, 0x0ull, 0x0ull, 0x0ull, 
    0x0ull, 0x0ull, 0x0ull, 0x0ull, 0x0ull, 0x0ull, 0x0ull, 0x0ull, 
    0x0ull, 0x0ull, 0x0ull, 0x0ull, 0x0ull, 0x0ull, 0x0ull, 0x0ull, 
    0x0ull, 0x0ull, 0x0ull, 0x0ull, 0x0ull, 0x0ull, 0x0ull, 0x0ull, 
    0x0ull, 0x0ull, 0x0ull, 0x0ull, 0x0ull, 0x0ull, 0x0ull, 0x0ull, 
    0x0ull, 0x0ull, 0x0ull, 0x0ull, 0x0ull, 0x0ull, 0x0ull, 0x0ull, 0};
static const unsigned long long EXPECT[] = {
    0x1ull, 0x1ull, 0x1ull, 0x1ull, 0x1ull, 0x1ull, 0x1ull, 0x1ull, 
    0x1ull, 0x1ull, 0x1ull, 0x1ull, 0x1ull, 0x1ull, 0x1ull, 0x1ull, 
    0x1ull, 0x1ull, 0x1ull, 0x1ull, 0x1ull, 0x1ull, 0x1ull, 0x1ull, 
    0x1ull, 0x1ull, 0x1ull, 0x1ull, 0x1ull, 0x1ull, 0x1ull, 0x1ull, 
    0x80000001ull, 0x80000001ull, 0x80000001ull, 0x80000001ull, 0x80000001ull, 0x80000001ull, 0x80000001ull, 0x80000001ull, 
    0x80000001ull, 0x80000001ull, 0x80000001ull, 0x80000001ull, 0x80000001ull, 0x80000001ull, 0x80000001ull, 0x80000001ull, 
    0x80000001ull, 0x80000001ull, 0x80000001ull, 0x80000001ull, 0x80000001ull, 0x80000001ull, 0x80000001ull, 0x80000001ull, 
    0x80000001ull, 0x80000001ull, 0x80000001ull, 0x80000001ull, 0x80000001ull, 0x80000001ull, 0x80000001ull, 0x80000001ull, 
    0x0ull, 0x0ull, 0x0ull, 0x0ull, 0x0ull, 0x0ull, 0x0ull, 0x0ull, 
    0x0ull, 0x0ull, 0x0ull, 0x0ull, 0x0ull, 0x0ull, 0x0ull, 0x0ull, 
    0x0ull, 0x0ull, 0x0ull, 0x0ull, 0x0ull, 0x0ull, 0x0ull, 0x0ull, 
    0x0ull, 0x0ull, 0x0ull, 0x0ull, 0x0ull, 0x0ull, 0x0ull, 0x0ull, 
    0x0ull, 0x0ull, 0x0ull, 0x0ull, 0x0ull, 0x0ull, 0x0ull, 0x0ull, 
    0x0ull, 0x0ull, 0x0ull, 0x0ull, 0x0ull, 0x0ull, 0x0ull, 0x0ull, 
    0x0ull, 0x0ull, 0x0ull, 0x0ull, 0x0ull, 0x0ull, 0x0ull, 0x0ull, 
    0x0ull, 0x0ull, 0x0ull, 0x0ull, 0x0ull, 0x0ull, 0x0ull, 0x0ull, 
    0x0ull, 0x0ull, 0x0ull, 0x0ull, 0x0ull, 0x0ull, 0x0ull, 0x0ull, 
    0x0ull, 0x0ull, 0x0ull, 0x0ull, 0x0ull, 0x0ull, 0x0ull, 0x0ull, 
    0x0ull, 0x0ull, 0x0ull, 0x0ull, 0x0ull, 0x0ull, 0x0ull, 0x0ull, 
    0x0ull, 0x0ull, 0x0ull, 0x0ull, 0x0ull, 0x0ull, 0x0ull, 0x0ull, 0};
static const unsigned long long DEFINED[] = {
    0xffffffffull, 0xffffffffull, 0xffffffffull, 0xffffffffull, 0xffffffffull, 0xffffffffull, 0xffffffffull, 0xffffffffull, 
    0xffffffffull, 0xffffffffull, 0xffffffffull, 0xffffffffull, 0xffffffffull, 0xffffffffull, 0xffffffffull, 0xffffffffull, 
    0xffffffffull, 0xffffffffull, 0xffffffffull, 0xffffffffull, 0xffffffffull, 0xffffffffull, 0xffffffffull, 0xffffffffull, 
    0xffffffffull, 0xffffffffull, 0xffffffffull, 0xffffffffull, 0xffffffffull, 0xffffffffull, 0xffffffffull, 0xffffffffull, 
    0xffffffffull, 0xffffffffull, 0xffffffffull, 0xffffffffull, 0xffffffffull, 0xffffffffull, 0xffffffffull, 0xffffffffull, 
    0xffffffffull, 0xffffffffull, 0xffffffffull, 0xffffffffull, 0xffffffffull, 0xffffffffull, 0xffffffffull, 0xffffffffull, 
    0xffffffffull, 0xffffffffull, 0xffffffffull, 0xffffffffull, 0xffffffffull, 0xffffffffull, 0xffffffffull, 0xffffffffull, 
    0xffffffffull, 0xffffffffull, 0xffffffffull, 0xffffffffull, 0xffffffffull, 0xffffffffull, 0xffffffffull, 0xffffffffull, 
    0x0ull, 0x0ull, 0x0ull, 0x0ull, 0x0ull, 0x0ull, 0x0ull, 0x0ull, 
    0x0ull, 0x0ull, 0x0ull, 0x0ull, 0x0ull, 0x0ull, 0x0ull, 0x0ull, 
    0x0ull, 0x0ull, 0x0ull, 0x0ull, 0x0ull, 0x0ull, 0x0ull, 0x0ull, 
    0x0ull, 0x0ull, 0x0ull, 0x0ull, 0x0ull, 0x0ull, 0x0ull, 0x0ull, 
    0x1ull, 0x1ull, 0x1ull, 0x1ull, 0x1ull, 0x1ull, 0x1ull, 0x1ull, 
    0x1ull, 0x1ull, 0x1ull, 0x1ull, 0x1ull, 0x1ull, 0x1ull, 0x1ull, 
    0x1ull, 0x1ull, 0x1ull, 0x1ull, 0x1ull, 0x1ull, 0x1ull, 0x1ull, 
    0x1ull, 0x1ull, 0x1ull, 0x1ull, 0x1ull, 0x1ull, 0x1ull, 0x1ull, 
    0x1ull, 0x1ull, 0x1ull, 0x1ull, 0x1ull, 0x1ull, 0x1ull, 0x1ull, 
    0x1ull, 0x1ull, 0x1ull, 0x1ull, 0x1ull, 0x1ull, 0x1ull, 0x1ull, 
    0x1ull, 0x1ull, 0x1ull, 0x1ull, 0x1ull, 0x1ull, 0x1ull, 0x1ull, 
    0x1ull, 0x1ull, 0x1ull, 0x1ull, 0x1ull, 0x1ull, 0x1ull, 0x1ull, 0};
static const char *NAMES[] = {"%b0", "%f0", "%f1", "%p0", "(lane status: 1 = exited)"};
/* The mates: the kernels run before KERNEL, in order. */
#define MATES 0
static const char *MATE_NAME[] = {0};
static const unsigned long long *MATE_IN[] = {0};
static const size_t MATE_IN_WORDS[] = {0};
static const size_t MATE_OUT_WORDS[] = {0};
static const unsigned MATE_GRID[] = {0};

#ifdef __CUDACC__
/* `--dirty SEED`: before the kernel, every SM's registers are filled with
   values drawn from SEED by this kernel (1024 threads a block, 56 values
   live at once in each, two blocks per SM), so that what a never-written
   register holds in the kernel differs from run to run as SEED does. A
   defined lane that changes with SEED read such a register. */
__global__ void __launch_bounds__(1024, 1) warpdiff_dirty(unsigned seed, unsigned *sink) {
    unsigned r[56];
#pragma unroll
    for (int i = 0; i < 56; i++) r[i] = seed * (2u * i + 1u) + threadIdx.x * 0x9e3779b9u + blockIdx.x;
#pragma unroll
    for (int k = 0; k < 3; k++) {
#pragma unroll
        for (int i = 0; i < 56; i++) r[i] = (r[i] * 0x01000193u) ^ r[(i + 1) % 56];
    }
    unsigned acc = 0;
#pragma unroll
    for (int i = 0; i < 56; i++) acc ^= (r[i] & 1u) ? r[i] : ~r[i];
    if (acc == seed) sink[blockIdx.x] = acc;
}
#endif

#define CHECK(x) do { CUresult r_ = (x); if (r_ != CUDA_SUCCESS) { const char *m_ = 0; \
    cuGetErrorString(r_, &m_); fprintf(stderr, "%s: %s\n", #x, m_ ? m_ : "?"); return 2; } } while (0)

int main(int argc, char **argv) {
    int level = -1, link = 0;
    long dirty = -1;
    const char *cubin = 0;
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "-O") && i + 1 < argc) level = atoi(argv[++i]);
        else if (!strcmp(argv[i], "--cubin") && i + 1 < argc) cubin = argv[++i];
        else if (!strcmp(argv[i], "--link")) link = 1;
        else if (!strcmp(argv[i], "--dirty") && i + 1 < argc) dirty = strtol(argv[++i], 0, 0);
        else { fprintf(stderr, "usage: %s [--link] [-O LEVEL] [--dirty SEED] | --cubin FILE\n", argv[0]); return 2; }
    }
    CUdevice dev; CUcontext ctx; CUmodule mod; CUfunction f;
    CHECK(cuInit(0));
    CHECK(cuDeviceGet(&dev, 0));
    CHECK(cuDevicePrimaryCtxRetain(&ctx, dev));
    CHECK(cuCtxSetCurrent(ctx));
    if (cubin) {
        CHECK(cuModuleLoad(&mod, cubin));
        printf("%s: ", cubin);
    } else if (link) {
        /* The driver's JIT linker: a relocatable compile of the PTX (as
           `ptxas -c`), then a link; not the whole-program compile of
           cuModuleLoadDataEx. Each step is announced first, so that a
           compiler that crashes is seen in one of them. */
        CUjit_option o[] = {CU_JIT_OPTIMIZATION_LEVEL};
        void *v[] = {(void *)(size_t)(level >= 0 ? level : 4)};
        CUlinkState st; void *image; size_t size;
        printf("driver JIT linker -O%d: ", level >= 0 ? level : 4);
        printf("cuLinkAddData... "); fflush(stdout);
        CHECK(cuLinkCreate(level >= 0 ? 1 : 0, o, v, &st));
        CHECK(cuLinkAddData(st, CU_JIT_INPUT_PTX, (void *)PTX, strlen(PTX) + 1, "kernel.ptx", 0, 0, 0));
        printf("cuLinkComplete... "); fflush(stdout);
        CHECK(cuLinkComplete(st, &image, &size));
        CHECK(cuModuleLoadData(&mod, image));
        CHECK(cuLinkDestroy(st));
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
    CHECK(cuMemAlloc(&dout, GRID * OUT_WORDS * 8));
    CHECK(cuMemcpyHtoD(din, IN, IN_WORDS * 8));
    CHECK(cuMemsetD8(dout, 0, GRID * OUT_WORDS * 8));
#ifdef __CUDACC__
    if (dirty >= 0) {
        int sms = 0;
        CUdeviceptr sink;
        CHECK(cuDeviceGetAttribute(&sms, CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT, dev));
        CHECK(cuMemAlloc(&sink, 8 * 2 * (size_t)sms));
        warpdiff_dirty<<<2 * sms, 1024>>>((unsigned)dirty, (unsigned *)sink);
        CHECK(cuCtxSynchronize());
        printf("(registers dirtied with seed %ld) ", dirty);
    }
#endif
    /* The mates, each on buffers of its own, in the order the batch ran
       them: only what they leave on the GPU matters. */
    for (int m = 0; m < MATES; m++) {
        CUfunction g;
        CUdeviceptr min, mout;
        CHECK(cuModuleGetFunction(&g, mod, MATE_NAME[m]));
        CHECK(cuMemAlloc(&min, MATE_IN_WORDS[m] * 8 + 8));
        CHECK(cuMemAlloc(&mout, MATE_OUT_WORDS[m] * 8 + 8));
        CHECK(cuMemcpyHtoD(min, MATE_IN[m], MATE_IN_WORDS[m] * 8));
        void *margs[] = {&min, &mout};
        CHECK(cuLaunchKernel(g, MATE_GRID[m], 1, 1, 32, 1, 1, 0, 0, margs, 0));
    }
    if (MATES) {
        CHECK(cuCtxSynchronize());
        printf("(after %d mate kernel(s)) ", MATES);
    }
    void *args[] = {&din, &dout};
    CHECK(cuLaunchKernel(f, GRID, 1, 1, 32, 1, 1, 0, 0, args, 0));
    CHECK(cuCtxSynchronize());
    static unsigned long long got[OUT_WORDS];
    CHECK(cuMemcpyDtoH(got, dout + (CUdeviceptr)BLOCK * OUT_WORDS * 8, OUT_WORDS * 8));
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
