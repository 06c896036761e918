// cub::WarpExchange<int, 4>: blocked to striped within each warp (two warps per block).
#include <cub/cub.cuh>
extern "C" __global__ void cub_warp_exchange(const int* in, int* out) {
    using WE = cub::WarpExchange<int, 4>;
    __shared__ typename WE::TempStorage temp[2];
    int warp = threadIdx.x / 32, lane = threadIdx.x % 32;
    int base = (blockIdx.x * 64 + warp * 32) * 4;
    int items[4];
    for (int k = 0; k < 4; k++) items[k] = in[base + lane * 4 + k];
    WE(temp[warp]).BlockedToStriped(items, items);
    for (int k = 0; k < 4; k++) out[base + k * 32 + lane] = items[k];
}
