// cub::BlockLoad (BLOCK_LOAD_TRANSPOSE) and cub::BlockStore (BLOCK_STORE_WARP_TRANSPOSE),
// 128 threads x 4 items: out = in * 3 + the item's index in its thread.
#include <cub/cub.cuh>
extern "C" __global__ void cub_block_load_store(const int* in, int* out) {
    using BL = cub::BlockLoad<int, 128, 4, cub::BLOCK_LOAD_TRANSPOSE>;
    using BST = cub::BlockStore<int, 128, 4, cub::BLOCK_STORE_WARP_TRANSPOSE>;
    __shared__ union {
        typename BL::TempStorage load;
        typename BST::TempStorage store;
    } temp;
    int items[4];
    BL(temp.load).Load(in + blockIdx.x * 512, items);
    __syncthreads();
    for (int k = 0; k < 4; k++) items[k] = items[k] * 3 + k;
    BST(temp.store).Store(out + blockIdx.x * 512, items);
}
