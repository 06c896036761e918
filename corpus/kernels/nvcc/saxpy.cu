// saxpy: y[i] = a * x[i] + y[i] for i < n (nvcc contracts it to fma.rn.f32);
// a scalar float and a scalar int parameter, a bounds check.
extern "C" __global__ void saxpy(int n, float a, const float *x, float *y) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        y[i] = a * x[i] + y[i];
}
