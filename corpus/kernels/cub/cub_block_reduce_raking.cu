// cub::BlockReduce<int, 128, BLOCK_REDUCE_RAKING>::Sum: thread 0 stores the block's sum.
#include <cub/cub.cuh>
extern "C" __global__ void cub_block_reduce_raking(const int* in, int* out) {
    using BR = cub::BlockReduce<int, 128, cub::BLOCK_REDUCE_RAKING>;
    __shared__ typename BR::TempStorage temp;
    int s = BR(temp).Sum(in[blockIdx.x * 128 + threadIdx.x]);
    if (threadIdx.x == 0) out[blockIdx.x] = s;
}
