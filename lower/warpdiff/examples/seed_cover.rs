//! Tops up the seed corpus `fuzz/corpus/diff/` until it reaches every
//! instruction form and every control-flow shape again (after a generator
//! change moves what bytes mean): random inputs of 256–4096 bytes are
//! tried in a fixed order and each one that reaches a form or shape the
//! corpus misses is added, named by its hash, as libFuzzer names inputs.
//!
//! ```sh
//! cargo run --release -p warpdiff --example seed_cover [-- DIR]
//! cd fuzz && cargo +nightly fuzz cmin diff -- -set_cover_merge=1 -use_counters=0
//! ```
//!
//! `lower/warpdiff/tests/suite/seed_corpus.rs` checks the result.

use std::collections::BTreeSet;
use std::path::PathBuf;
use warp_core::gen::{all_forms, shapes, Stats, SHAPES};
use warp_core::rng::Rng;
use warpdiff::fuzz::case::case_from_bytes;

/// The forms and shapes one input reaches.
fn reached(data: &[u8]) -> BTreeSet<String> {
    let mut stats = Stats::default();
    let mut out = BTreeSet::new();
    if let Some(tc) = case_from_bytes(data, &mut stats) {
        out.extend(stats.forms.keys().cloned());
        out.extend(
            shapes(&tc.program, &tc.inputs)
                .iter()
                .map(|s| format!("shape: {s}")),
        );
    }
    out
}

fn main() {
    let dir = std::env::args_os()
        .nth(1)
        .map(PathBuf::from)
        .unwrap_or_else(|| {
            PathBuf::from(concat!(
                env!("CARGO_MANIFEST_DIR"),
                "/../../fuzz/corpus/diff"
            ))
        });
    let mut have = BTreeSet::new();
    for e in std::fs::read_dir(&dir).unwrap_or_else(|e| panic!("{}: {e}", dir.display())) {
        let p = e.expect("entry").path();
        have.extend(reached(&std::fs::read(&p).expect("read")));
    }
    let want: BTreeSet<String> = all_forms()
        .into_iter()
        .chain(SHAPES.iter().map(|s| format!("shape: {s}")))
        .collect();
    let mut missing: BTreeSet<String> = want.difference(&have).cloned().collect();
    println!(
        "{}: {} of {} forms and shapes missing",
        dir.display(),
        missing.len(),
        want.len()
    );
    let mut r = Rng::new(0x5eed);
    let mut added = 0;
    for _ in 0..200_000 {
        if missing.is_empty() {
            break;
        }
        let len = 256 + r.index(3841);
        let data = r.bytes(len);
        let new: Vec<String> = reached(&data).intersection(&missing).cloned().collect();
        if new.is_empty() {
            continue;
        }
        for n in &new {
            missing.remove(n);
        }
        let name = format!("{:016x}", warp_core::corpus::fnv1a(&format!("{data:?}")));
        std::fs::write(dir.join(&name), &data).expect("write");
        added += 1;
        println!("added {name} ({len} bytes): {}", new.join(", "));
    }
    println!("added {added} inputs; still missing: {}", missing.len());
    for m in &missing {
        println!("  {m}");
    }
    if !missing.is_empty() {
        std::process::exit(1);
    }
}
