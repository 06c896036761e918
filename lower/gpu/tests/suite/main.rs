//! warp-gpu's integration tests, one module per concern, in one test
//! binary (issue #41, item 4). A test is named `FILE::NAME`: `cargo test
//! -p warp-gpu --test suite ptx_emit::` runs those of `ptx_emit.rs`. Apart:
//! `replay.rs` (the corpus replay, its own harness).

mod kernels;
mod ptx_emit;
