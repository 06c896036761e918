// A warp-aggregated histogram: lanes with the same bin find each other with
// __match_any_sync; the group's leader adds the group's size with atomicAdd.
extern "C" __global__ void atomic_hist_match(const unsigned* keys, unsigned* hist) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    unsigned k = keys[i] % 16;
    unsigned peers = __match_any_sync(0xffffffffu, k);
    int leader = __ffs(peers) - 1;
    if ((int)(threadIdx.x & 31) == leader) atomicAdd(&hist[k], (unsigned)__popc(peers));
}
