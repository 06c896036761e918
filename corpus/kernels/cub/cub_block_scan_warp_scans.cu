// cub::BlockScan<int, 128, BLOCK_SCAN_WARP_SCANS>::InclusiveSum.
#include <cub/cub.cuh>
extern "C" __global__ void cub_block_scan_warp_scans(const int* in, int* out) {
    using BS = cub::BlockScan<int, 128, cub::BLOCK_SCAN_WARP_SCANS>;
    __shared__ typename BS::TempStorage temp;
    int i = blockIdx.x * 128 + threadIdx.x;
    int y;
    BS(temp).InclusiveSum(in[i], y);
    out[i] = y;
}
