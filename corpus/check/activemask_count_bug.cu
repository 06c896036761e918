// __popc(__activemask()) inside a data-dependent branch, stored as the number of
// lanes that took it: __activemask does not make the lanes converge.
extern "C" __global__ void activemask_count_bug(const int* in, int* out) {
    int x = in[threadIdx.x];
    int n = -1;
    if (x > 0) n = __popc(__activemask());
    out[threadIdx.x] = n;
}
