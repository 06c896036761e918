//! Every corpus file (`corpus/**/*.ptx`) on the GPU: one test per file,
//! checked against its `.expect` (see `warp_core::replay`). Without a GPU
//! every test is ignored with the reason ("no GPU found: ...").

fn main() {
    warp_core::replay::main(|| Box::new(warp_gpu::engine::GpuEngine));
}
