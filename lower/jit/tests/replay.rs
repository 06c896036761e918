//! Every corpus file (`corpus/**/*.ptx`) on the Cranelift JIT: one test per
//! file, checked against its `.expect` (see `warp_core::replay`).

fn main() {
    warp_core::replay::main(|| Box::new(warp_jit::JitEngine::fast_compile()));
}
