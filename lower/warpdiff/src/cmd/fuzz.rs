//! `warpdiff fuzz`: the arguments checked and resolved into a [`Run`]
//! (the engines started, the seed and the corpus chosen), then the loop
//! ([`crate::fuzz`]) run; its exit status.

use crate::cli::FuzzArgs;
use crate::engines::spec::{flatten, EngineSpec, ENGINES};
use crate::engines::EngineSet;
use crate::errln;
use crate::fuzz::case;
use crate::fuzz::run::Run;
use std::time::Instant;

/// Runs the fuzzing loop; returns the exit status (1 if a divergence was
/// found, 2 on bad arguments).
pub fn fuzz(a: &FuzzArgs) -> u8 {
    let specs = flatten(&a.engines, ENGINES);
    if specs.first() != Some(&EngineSpec::Builtin("interp")) {
        errln!("warpdiff fuzz: --engines must start with interp, the reference");
        return 2;
    }
    if specs.len() < 2 {
        errln!("warpdiff fuzz: --engines needs at least one engine besides interp");
        return 2;
    }
    let set = match EngineSet::open(&specs, &a.ext.options()) {
        Ok(s) => s,
        Err(m) => {
            errln!("warpdiff fuzz: {m}");
            return 2;
        }
    };
    let r = Run {
        args: a.clone(),
        seed: a.seed.unwrap_or_else(|| {
            std::time::SystemTime::now()
                .duration_since(std::time::UNIX_EPOCH)
                .map_or(1, |d| d.as_nanos() as u64)
        }),
        engines: set,
        corpus: a.corpus.clone().unwrap_or_else(case::corpus_dir),
        start: Instant::now(),
    };
    crate::fuzz::run_loop(r)
}
