// reduce7_bug's fixed twin: the whole first warp takes part in the final reduction
// (lanes past shmem_extent contribute 0) with a full membermask.
extern "C" __global__ void reduce7_fixed(const float* in, float* out) {
    __shared__ float sdata[32];
    const unsigned blockSize = 32;
    unsigned tid = threadIdx.x, laneId = tid % 32;
    float sum = in[tid];
    for (int offset = 16; offset > 0; offset /= 2) sum += __shfl_down_sync(0xffffffffu, sum, offset);
    if (laneId == 0) sdata[tid / 32] = sum;
    __syncthreads();
    const unsigned shmem_extent = blockSize / 32 > 0 ? blockSize / 32 : 1;
    if (tid < 32) {
        sum = tid < shmem_extent ? sdata[laneId] : 0.0f;
        for (int offset = 16; offset > 0; offset /= 2) sum += __shfl_down_sync(0xffffffffu, sum, offset);
    }
    if (tid == 0) out[blockIdx.x] = sum;
}
