// __reduce_add_sync over the whole warp and over the even lanes only (the
// odd lanes do not take part and write -1).
extern "C" __global__ void reduce_add(const unsigned *in, unsigned *all, unsigned *even) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    int lane = threadIdx.x & 31;
    unsigned v = in[i];
    all[i] = __reduce_add_sync(0xffffffff, v);
    if ((lane & 1) == 0)
        even[i] = __reduce_add_sync(0x55555555, v);
    else
        even[i] = 0xffffffffu;
}
