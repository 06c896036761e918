// warp_sync_reduce_bug's fixed twin, as NVIDIA's guide writes it: read, __syncwarp,
// write, __syncwarp at every step.
extern "C" __global__ void warp_sync_reduce_fixed(const int* in, int* out) {
    __shared__ int sm[64];
    int t = threadIdx.x;
    sm[t] = in[t];
    __syncthreads();
    if (t < 32) {
        volatile int* s = sm;
        int v = s[t];
        for (int k = 32; k > 0; k /= 2) {
            v += s[t + k];
            __syncwarp();
            s[t] = v;
            __syncwarp();
        }
    }
    if (t == 0) out[blockIdx.x] = sm[0];
}
