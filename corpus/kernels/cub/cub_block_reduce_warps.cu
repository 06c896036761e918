// cub::BlockReduce<int, 128, BLOCK_REDUCE_WARP_REDUCTIONS>::Reduce with a max functor,
// and the same block's sum: thread 0 stores both.
#include <cub/cub.cuh>
struct MaxOp {
    __device__ int operator()(int a, int b) const { return a > b ? a : b; }
};
extern "C" __global__ void cub_block_reduce_warps(const int* in, int* out) {
    using BR = cub::BlockReduce<int, 128, cub::BLOCK_REDUCE_WARP_REDUCTIONS>;
    __shared__ typename BR::TempStorage temp;
    int x = in[blockIdx.x * 128 + threadIdx.x];
    int m = BR(temp).Reduce(x, MaxOp());
    __syncthreads();
    int s = BR(temp).Sum(x);
    if (threadIdx.x == 0) {
        out[2 * blockIdx.x] = m;
        out[2 * blockIdx.x + 1] = s;
    }
}
