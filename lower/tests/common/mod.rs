//! Helpers shared by the integration tests of `warp-lower`.

use std::path::{Path, PathBuf};

/// The `.ptx` files of `dir` (relative to `lower/`), sorted.
pub fn ptx_files(dir: &str) -> Vec<PathBuf> {
    let d = Path::new(env!("CARGO_MANIFEST_DIR")).join(dir);
    let mut v: Vec<PathBuf> = std::fs::read_dir(&d)
        .unwrap_or_else(|e| panic!("{}: {e}", d.display()))
        .map(|e| e.expect("entry").path())
        .filter(|p| p.extension().is_some_and(|x| x == "ptx"))
        .collect();
    v.sort();
    v
}
