//! warpdiff's integration tests, one module per concern, in one test
//! binary: the JIT and the GPU backend are linked once instead of once per
//! file (issue #41, item 4). A test is named `FILE::NAME`: `cargo test -p
//! warpdiff --test suite robustness::` runs those of `robustness.rs`. Most
//! run the `warpdiff` binary as a child process, so they share nothing
//! but the scratch folders, named per file and test. Apart, in a binary of
//! its own: `gpu_hang.rs` (on a GPU host it hangs a kernel on purpose,
//! which leaves the process's CUDA context unusable to any GPU test beside
//! it).

#[path = "../common/mod.rs"]
mod common;

mod batch_reduce;
mod batch_retry;
mod check;
mod cli;
mod docs_paths;
mod exit_codes;
mod external;
mod kernel_diff;
mod module_graph;
mod repro;
mod robustness;
mod seed_corpus;
mod seeds;
mod seen_prefix;
mod smoke;
