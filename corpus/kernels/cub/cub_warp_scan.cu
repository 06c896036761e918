// cub::WarpScan<int>: inclusive and exclusive prefix sums per warp.
#include <cub/cub.cuh>
extern "C" __global__ void cub_warp_scan(const int* in, int* inc, int* exc) {
    using WS = cub::WarpScan<int>;
    __shared__ typename WS::TempStorage temp[4];
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    int x = in[i], a, b;
    WS(temp[threadIdx.x / 32]).InclusiveSum(x, a);
    __syncwarp();
    WS(temp[threadIdx.x / 32]).ExclusiveSum(x, b);
    inc[i] = a;
    exc[i] = b;
}
