// The pre-Volta warp-synchronous shared-memory reduction: a volatile pointer and no
// __syncwarp between steps. Under independent thread scheduling lane t's read of
// s[t + k] races with lane t + k's write of it.
extern "C" __global__ void warp_sync_reduce_bug(const int* in, int* out) {
    __shared__ int sm[64];
    int t = threadIdx.x;
    sm[t] = in[t];
    __syncthreads();
    if (t < 32) {
        volatile int* s = sm;
        s[t] += s[t + 32];
        s[t] += s[t + 16];
        s[t] += s[t + 8];
        s[t] += s[t + 4];
        s[t] += s[t + 2];
        s[t] += s[t + 1];
    }
    if (t == 0) out[blockIdx.x] = sm[0];
}
