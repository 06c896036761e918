// A warp reduction through shared memory with __syncwarp between the steps
// (the pre-shuffle idiom the CUDA programming guide shows): lane 0 of each
// warp writes the warp's sum.
extern "C" __global__ void syncwarp_reduce(const int *in, int *out) {
    __shared__ int s[64];
    int t = threadIdx.x;
    int lane = t & 31;
    s[t] = in[blockIdx.x * blockDim.x + t];
    __syncwarp();
    for (int d = 16; d > 0; d >>= 1) {
        int v = 0;
        if (lane < d)
            v = s[t + d];
        __syncwarp();
        if (lane < d)
            s[t] += v;
        __syncwarp();
    }
    if (lane == 0)
        out[blockIdx.x * 2 + (t >> 5)] = s[t];
}
