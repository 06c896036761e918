// activemask_count_bug's fixed twin: the count comes from a ballot of the whole warp.
extern "C" __global__ void activemask_count_fixed(const int* in, int* out) {
    int x = in[threadIdx.x];
    unsigned taken = __ballot_sync(0xffffffffu, x > 0);
    int n = -1;
    if (x > 0) n = __popc(taken);
    out[threadIdx.x] = n;
}
