// Odd lanes shuffle with a membermask of the odd lanes, but read their even
// neighbour (lane - 1), which is not in the membermask: undefined.
extern "C" __global__ void odd_from_even_bug(const int* in, int* out) {
    int lane = threadIdx.x & 31;
    int x = in[threadIdx.x], v = -1;
    if (lane & 1) v = __shfl_sync(0xaaaaaaaau, x, lane - 1);
    out[threadIdx.x] = v;
}
