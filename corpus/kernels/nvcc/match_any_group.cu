// Grouping with __match_any_sync: each lane gets the mask of lanes whose key
// equals its own, and the group's leader (lowest lane) writes the group size.
extern "C" __global__ void match_any_group(const int *key, unsigned *mask, int *size) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    int lane = threadIdx.x & 31;
    unsigned m = __match_any_sync(0xffffffff, key[i]);
    mask[i] = m;
    int leader = __ffs(m) - 1;
    size[i] = (lane == leader) ? __popc(m) : -1;
}
