// Block-wide inclusive prefix sum of 128 ints: a shuffle scan in each warp,
// the warp totals through shared memory, a second scan of the totals by
// warp 0, then each warp adds the totals of the warps before it.
extern "C" __global__ void block_scan(const int *in, int *out) {
    __shared__ int totals[4];
    int t = threadIdx.x, lane = t & 31, warp = t >> 5;
    int v = in[t];
    for (int d = 1; d < 32; d <<= 1) {
        int u = __shfl_up_sync(0xffffffff, v, d);
        if (lane >= d)
            v += u;
    }
    if (lane == 31)
        totals[warp] = v;
    __syncthreads();
    if (warp == 0) {
        int w = lane < 4 ? totals[lane] : 0;
        for (int d = 1; d < 4; d <<= 1) {
            int u = __shfl_up_sync(0xffffffff, w, d);
            if (lane >= d)
                w += u;
        }
        if (lane < 4)
            totals[lane] = w;
    }
    __syncthreads();
    if (warp > 0)
        v += totals[warp - 1];
    out[t] = v;
}
