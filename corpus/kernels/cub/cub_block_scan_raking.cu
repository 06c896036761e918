// cub::BlockScan<int, 128, BLOCK_SCAN_RAKING>::ExclusiveSum, with the block aggregate.
#include <cub/cub.cuh>
extern "C" __global__ void cub_block_scan_raking(const int* in, int* out, int* total) {
    using BS = cub::BlockScan<int, 128, cub::BLOCK_SCAN_RAKING>;
    __shared__ typename BS::TempStorage temp;
    int i = blockIdx.x * 128 + threadIdx.x;
    int y, agg;
    BS(temp).ExclusiveSum(in[i], y, agg);
    out[i] = y;
    if (threadIdx.x == 0) total[blockIdx.x] = agg;
}
