// Layer norm of a 32-float row per warp: mean and variance by __shfl_xor_sync,
// rsqrtf (rsqrt.approx), then gamma/beta.
extern "C" __global__ void layer_norm(const float* in, const float* gamma, const float* beta, float* out) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    int lane = threadIdx.x & 31;
    float x = in[i], s = x;
    for (int o = 16; o > 0; o /= 2) s += __shfl_xor_sync(0xffffffffu, s, o);
    float mean = s * (1.0f / 32.0f), d = x - mean, v = d * d;
    for (int o = 16; o > 0; o /= 2) v += __shfl_xor_sync(0xffffffffu, v, o);
    out[i] = d * rsqrtf(v * (1.0f / 32.0f) + 1e-5f) * gamma[lane] + beta[lane];
}
