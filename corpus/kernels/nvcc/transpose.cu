// Tiled matrix transpose through shared memory (the CUDA samples' shape):
// a 32x33 tile (padded against bank conflicts), a 2D block of 32x8 threads
// each moving 4 elements, __syncthreads between the load and the store.
#define TILE 32
#define ROWS 8
extern "C" __global__ void transpose(float *out, const float *in, int width, int height) {
    __shared__ float tile[TILE][TILE + 1];
    int x = blockIdx.x * TILE + threadIdx.x;
    int y = blockIdx.y * TILE + threadIdx.y;
    for (int j = 0; j < TILE; j += ROWS)
        tile[threadIdx.y + j][threadIdx.x] = in[(y + j) * width + x];
    __syncthreads();
    x = blockIdx.y * TILE + threadIdx.x;
    y = blockIdx.x * TILE + threadIdx.y;
    for (int j = 0; j < TILE; j += ROWS)
        out[(y + j) * height + x] = tile[threadIdx.x][threadIdx.y + j];
}
