// Warp sum with __shfl_xor_sync: every lane ends with the sum of its warp's
// 32 inputs (butterfly reduction). One output word per thread.
extern "C" __global__ void warp_sum_xor(const int *in, int *out) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    int v = in[i];
    for (int offset = 16; offset > 0; offset /= 2)
        v += __shfl_xor_sync(0xffffffff, v, offset);
    out[i] = v;
}
