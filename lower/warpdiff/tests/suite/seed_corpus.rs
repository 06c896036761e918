//! The seed corpus `fuzz/corpus/diff/` must reach every instruction form
//! and every control-flow shape (`warp_core::gen::SHAPES`).
//!
//! A new fuzzing host (a ClusterFuzzLite runner, a fresh `cargo fuzz run
//! diff`, OSS-Fuzz's `diff_seed_corpus.zip`) starts from these files, so
//! when they cover every form of `warp_core::gen::all_forms()` the very
//! first pass over the corpus exercises every lowering path of the JIT.
//! `cargo fuzz cmin diff` keeps the corpus small but only preserves
//! libFuzzer's edge coverage, which is not the same as form coverage (two
//! forms can share every edge); this test is the check that a refreshed
//! corpus still has them all. Each file goes through the same bytes → case
//! path as the `diff` target (`case_from_bytes`), without running it, so the
//! test takes well under a second.

use std::path::PathBuf;
use warp_core::gen::{all_forms, shapes, Stats, SHAPES};
use warpdiff::fuzz::case::case_from_bytes;

fn seed_dir() -> PathBuf {
    PathBuf::from(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../../fuzz/corpus/diff"
    ))
}

#[test]
fn seed_corpus_reaches_every_form() {
    let dir = seed_dir();
    let mut files: Vec<PathBuf> = std::fs::read_dir(&dir)
        .unwrap_or_else(|e| panic!("cannot read {}: {e}", dir.display()))
        .map(|e| e.expect("directory entry").path())
        .filter(|p| p.is_file())
        .collect();
    files.sort();
    assert!(!files.is_empty(), "{} is empty", dir.display());

    let mut stats = Stats::default();
    let mut cases = 0;
    let mut seen_shapes = std::collections::BTreeSet::new();
    for f in &files {
        let data = std::fs::read(f).unwrap_or_else(|e| panic!("{}: {e}", f.display()));
        if let Some(tc) = case_from_bytes(&data, &mut stats) {
            cases += 1;
            seen_shapes.extend(shapes(&tc.program, &tc.inputs));
        }
    }
    let missing_shapes: Vec<&str> = SHAPES
        .iter()
        .copied()
        .filter(|s| !seen_shapes.contains(s))
        .collect();
    assert!(
        missing_shapes.is_empty(),
        "the seed corpus misses the control-flow shapes {missing_shapes:?} \
         (`cargo run --release -p warpdiff --example seed_cover` adds inputs)"
    );
    let missing = stats.missing_forms();
    println!(
        "{} files, {cases} cases, {} of {} forms",
        files.len(),
        all_forms().len() - missing.len(),
        all_forms().len()
    );
    assert!(
        missing.is_empty(),
        "the seed corpus {} misses {} of {} forms (`cargo run --release -p \
         warpdiff --example seed_cover` adds inputs that generate them):\n  {}",
        dir.display(),
        missing.len(),
        all_forms().len(),
        missing.join("\n  ")
    );
}
