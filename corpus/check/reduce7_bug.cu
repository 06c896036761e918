// The final warp of the CUDA samples' reduce7 for a 32-thread block (blockSize = 32,
// float): shmem_extent = blockSize / warpSize = 1, so the ballot that becomes the
// membermask of the last __shfl_down_sync loop holds lane 0 only, and lane 0 reads
// lanes 16, 8, 4, 2, 1, which are not in the membermask: undefined.
extern "C" __global__ void reduce7_bug(const float* in, float* out) {
    __shared__ float sdata[32];
    const unsigned blockSize = 32;
    unsigned tid = threadIdx.x, laneId = tid % 32;
    unsigned maskLength = blockSize & 31;
    maskLength = maskLength > 0 ? 32 - maskLength : maskLength;
    const unsigned mask = 0xffffffffu >> maskLength;
    float sum = in[tid];
    for (int offset = 16; offset > 0; offset /= 2) sum += __shfl_down_sync(mask, sum, offset);
    if (laneId == 0) sdata[tid / 32] = sum;
    __syncthreads();
    const unsigned shmem_extent = blockSize / 32 > 0 ? blockSize / 32 : 1;
    const unsigned ballot_result = __ballot_sync(mask, tid < shmem_extent);
    if (tid < shmem_extent) {
        sum = sdata[laneId];
        for (int offset = 16; offset > 0; offset /= 2) sum += __shfl_down_sync(ballot_result, sum, offset);
    }
    if (tid == 0) out[blockIdx.x] = sum;
}
