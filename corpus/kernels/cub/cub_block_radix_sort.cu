// cub::BlockRadixSort<unsigned, 128, 4>: each block sorts its 512 keys.
#include <cub/cub.cuh>
extern "C" __global__ void cub_block_radix_sort(const unsigned* in, unsigned* out) {
    using BRS = cub::BlockRadixSort<unsigned, 128, 4>;
    __shared__ typename BRS::TempStorage temp;
    unsigned keys[4];
    int base = blockIdx.x * 512 + threadIdx.x * 4;
    for (int k = 0; k < 4; k++) keys[k] = in[base + k];
    BRS(temp).Sort(keys);
    for (int k = 0; k < 4; k++) out[base + k] = keys[k];
}
