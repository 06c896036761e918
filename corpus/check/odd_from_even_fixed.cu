// The legal neighbour of odd_from_even_bug: odd lanes read another odd lane (lane ^ 2).
extern "C" __global__ void odd_from_even_fixed(const int* in, int* out) {
    int lane = threadIdx.x & 31;
    int x = in[threadIdx.x], v = -1;
    if (lane & 1) v = __shfl_sync(0xaaaaaaaau, x, lane ^ 2);
    out[threadIdx.x] = v;
}
