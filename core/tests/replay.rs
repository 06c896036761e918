//! Every corpus file (`corpus/**/*.ptx`) on the reference interpreter: one
//! test per file (see `warp_core::replay`); `BLESS=1` rewrites `.expect`.

fn main() {
    warp_core::replay::main(|| Box::new(warp_core::interp::InterpEngine));
}
