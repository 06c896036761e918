// Many atomic operations at once: a shared-memory histogram flushed with atomicAdd,
// max/min/or/xor/and/inc/dec on global words, an atomicAdd whose old value is stored
// (order-dependent), atomicExch (order-dependent final), a CAS loop adding 2x,
// float adds (one order-dependent, one exact) and a double add of integers (exact).
extern "C" __global__ void atomic_mix(const int* in, int* iw, unsigned* uw, float* fw,
                                      double* dw, int* old) {
    __shared__ unsigned sh[8];
    int t = threadIdx.x;
    int i = blockIdx.x * blockDim.x + t;
    int x = in[i];
    if (t < 8) sh[t] = 0;
    __syncthreads();
    atomicAdd(&sh[x & 7], 1u);
    __syncthreads();
    if (t < 8) atomicAdd(&uw[t], sh[t]);
    atomicMax(&iw[0], x);
    atomicMin(&iw[1], x);
    atomicOr((unsigned*)&iw[2], 1u << (x & 31));
    atomicXor((unsigned*)&iw[3], (unsigned)x);
    atomicAnd((unsigned*)&iw[4], ~(1u << ((x >> 3) & 31)));
    atomicInc(&uw[8], 1000u);
    atomicDec(&uw[9], 1000000u);
    old[i] = atomicAdd(&iw[5], 1);
    atomicExch(&iw[6], x);
    int cur = atomicOr(&iw[7], 0), prev;
    do {
        prev = cur;
        cur = atomicCAS(&iw[7], prev, prev + 2 * x);
    } while (cur != prev);
    atomicAdd(&fw[0], (float)x * 0.1f);
    atomicAdd(&fw[1], 1.0f);
    atomicAdd(&dw[0], (double)x);
}
