//! warp-jit's integration tests, one module per concern, in one test
//! binary: Cranelift is linked once instead of once per file (issue #41,
//! item 4). A test is named `FILE::NAME`: `cargo test -p warp-jit --test
//! suite jit_prop::` runs those of `jit_prop.rs`. Apart, each in a binary of
//! its own: `replay.rs`, `replay_fast_code.rs` and `replay_parts.rs` (the
//! corpus replay, their own harness), `helper_cache_full.rs` (it sets the
//! process-wide helper limit to 0 and reads the process-wide helper
//! counters) and `jit_memory.rs` (it measures the process's resident
//! memory, which tests running beside it would grow).

mod approx;
mod atomics;
mod bench_kernels;
mod bench_programs;
mod big_groups;
mod canonical_nan;
mod early_rows;
mod fuel;
mod jit_prop;
mod kernels;
mod memory_fast_paths;
mod mix200_generated;
mod partitions;
mod popc;
mod shifts;
mod typed_errors;
