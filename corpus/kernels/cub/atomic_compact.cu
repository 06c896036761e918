// Stream compaction with one atomicAdd per warp: the ballot of the kept lanes, the
// leader reserves room, __shfl_sync hands the base to the warp. The order of the
// warps' ranges depends on the schedule; the count and the set of kept values do not.
extern "C" __global__ void atomic_compact(const int* in, int* out, unsigned* count) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    int x = in[i];
    bool keep = x > 0;
    unsigned mask = __ballot_sync(0xffffffffu, keep);
    int lane = threadIdx.x & 31;
    unsigned base = 0;
    if (lane == 0) base = atomicAdd(count, (unsigned)__popc(mask));
    base = __shfl_sync(0xffffffffu, base, 0);
    if (keep) out[base + __popc(mask & ((1u << lane) - 1))] = x;
}
