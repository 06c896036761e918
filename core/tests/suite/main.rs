//! warp-core's integration tests, one module per concern, in one test
//! binary: one link instead of one per file (issue #41, item 4). A test is
//! named `FILE::NAME`: `cargo test -p warp-core --test suite gen::` runs
//! those of `gen.rs`. Apart, each in a binary of its own: `replay.rs`
//! (the corpus replay, its own harness) and `corpus_concurrent.rs` (it runs
//! its own binary as child processes, selecting a test by name).

#[path = "../common/mod.rs"]
mod common;

mod approx;
mod atomics;
mod bit_fields;
mod blind_spots;
mod bounded;
mod dialect;
mod error_columns;
mod experiment_10;
mod experiment_9;
mod gen;
mod idioms;
mod kernels;
mod lr_13;
mod match_run_values;
mod mov_vector;
mod nan_bits;
mod reduce;
mod rows_11;
mod sanitize;
mod scopes;
mod single_pass;
mod sp;
mod spec_reference;
mod text;
mod thread_ops;
mod triage_10;
mod triage_11;
mod triage_12;
mod triage_13;
mod triage_9;
mod ub;
mod vary;
mod vote_run_values;
