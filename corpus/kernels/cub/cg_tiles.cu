// cooperative_groups: tiled_partition<16>, cg::reduce, cg::inclusive_scan, ballot, any,
// and coalesced_threads() inside a data-dependent branch. Six words per thread.
#include <cooperative_groups.h>
#include <cooperative_groups/reduce.h>
#include <cooperative_groups/scan.h>
namespace cg = cooperative_groups;
extern "C" __global__ void cg_tiles(const int* in, int* out) {
    cg::thread_block block = cg::this_thread_block();
    cg::thread_block_tile<16> t16 = cg::tiled_partition<16>(block);
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    int x = in[i];
    int* o = out + 6 * i;
    o[0] = cg::reduce(t16, x, cg::plus<int>());
    o[1] = cg::inclusive_scan(t16, x, cg::plus<int>());
    o[2] = (int)t16.ballot(x > 0);
    o[3] = t16.any(x < -5);
    if (x & 1) {
        cg::coalesced_group c = cg::coalesced_threads();
        o[4] = (int)c.size();
        o[5] = cg::reduce(c, x, cg::plus<int>());
    } else {
        o[4] = -1;
        o[5] = -1;
    }
}
