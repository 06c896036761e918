// Warp-aggregated compaction with __ballot_sync: lanes whose input is odd
// write their input to out[warp * 32 + rank], rank = number of odd lanes
// below them; lane 0 writes the count to count[warp]. Slots past the count
// are left as the caller filled them.
extern "C" __global__ void ballot_compact(const int *in, int *out, int *count) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    int lane = threadIdx.x & 31;
    int warp = i / 32;
    int v = in[i];
    bool keep = (v & 1) != 0;
    unsigned ballot = __ballot_sync(0xffffffff, keep);
    int rank = __popc(ballot & ((1u << lane) - 1));
    if (keep)
        out[warp * 32 + rank] = v;
    if (lane == 0)
        count[warp] = __popc(ballot);
}
