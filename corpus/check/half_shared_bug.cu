// Half of a shared array written, all of it read back: threads 0..31 read s[63 - t],
// which nothing wrote.
extern "C" __global__ void half_shared_bug(const int* in, int* out) {
    __shared__ int s[64];
    int t = threadIdx.x;
    if (t < 32) s[t] = in[t];
    __syncthreads();
    out[t] = s[63 - t];
}
