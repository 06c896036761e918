// half_shared_bug's fixed twin: every thread writes its element first.
extern "C" __global__ void half_shared_fixed(const int* in, int* out) {
    __shared__ int s[64];
    int t = threadIdx.x;
    s[t] = in[t];
    __syncthreads();
    out[t] = s[63 - t];
}
