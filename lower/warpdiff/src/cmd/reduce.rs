//! `warpdiff reduce` and `warpdiff reduce-hang`: reducing a case file by
//! hand.

use crate::cli::{ReduceArgs, ReduceHangArgs};
use crate::cmd::run::read_case;
use crate::engines::spec::{flatten, ENGINES};
use crate::engines::EngineSet;
use crate::fuzz::case;
use crate::fuzz::hang::{self, Prober};
use crate::{errln, outln};
use std::time::{Duration, Instant};
use warp_core::engine::Engine;
use warp_core::gen::TestCase;

/// Reads a case file as a generated-style case (program and inputs).
fn read_test_case(file: &str) -> Result<TestCase, String> {
    read_case(file).map(|c| TestCase {
        program: c.program,
        inputs: c.inputs,
    })
}

/// Writes `text` to `out` through a temporary file and a rename.
fn write_out(out: &str, text: &str) -> Result<(), String> {
    let tmp = format!("{out}.tmp{}", std::process::id());
    std::fs::write(&tmp, text)
        .and_then(|_| std::fs::rename(&tmp, out))
        .map_err(|e| {
            let _ = std::fs::remove_file(&tmp);
            format!("{out}: cannot write: {e}")
        })
}

/// `warpdiff reduce FILE -o OUT`: reduces a divergent case by hand.
pub fn reduce(a: &ReduceArgs) -> u8 {
    let (file, out) = (a.file.display().to_string(), a.output.display().to_string());
    if a.output.exists() && !a.force {
        errln!("warpdiff reduce: {out} exists; not overwriting it (--force to replace)");
        return 2;
    }
    let tc = match read_test_case(&file) {
        Ok(tc) => tc,
        Err(m) => {
            errln!("{m}");
            return 2;
        }
    };
    let set = match EngineSet::open(&flatten(&a.engines, ENGINES), &a.ext.options()) {
        Ok(s) => s,
        Err(m) => {
            errln!("warpdiff reduce: {m}");
            return 2;
        }
    };
    let owned = set.others(warp_jit::Limits::default(), |_| true, true);
    let others: Vec<&dyn Engine> = owned.iter().map(|e| e.as_ref()).collect();
    let Some(d) = case::divergence_of(&tc, &others) else {
        errln!("{file}: no engine diverges from the reference on it: nothing to reduce");
        return 2;
    };
    let (small, secs) = case::reduce(&tc, &d, &others, 1);
    let (small, d2, unstable) = case::settle(&tc, small, d, &others);
    let mut notes = vec![format!(
        "Reduced by `warpdiff reduce` from {file} ({} instructions) to {} in {secs:.2} s.",
        tc.program.insts.len(),
        small.program.insts.len()
    )];
    notes.extend(unstable);
    notes.extend(set.notes(d2.engine));
    if let Err(m) = write_out(&out, &case::case_text(&small, &d2, notes)) {
        errln!("{m}");
        return 2;
    }
    outln!(
        "{file}: {} on {}: {} -> {} instructions in {secs:.2} s; wrote {out}",
        d2.engine,
        d2.form,
        tc.program.insts.len(),
        small.program.insts.len()
    );
    0
}

/// `warpdiff reduce-hang FILE -o OUT`: reduces a case that the GPU does
/// not finish, each candidate alone in a fresh process.
pub fn reduce_hang(a: &ReduceHangArgs) -> u8 {
    let (file, out) = (a.file.display().to_string(), a.output.display().to_string());
    if a.output.exists() {
        errln!("warpdiff reduce-hang: {out} exists; not overwriting it");
        return 2;
    }
    let tc = match read_test_case(&file) {
        Ok(tc) => tc,
        Err(m) => {
            errln!("{m}");
            return 2;
        }
    };
    let deadline = a.gpu.gpu_deadline_ms.unwrap_or(hang::DEADLINE_MS);
    let prober = Prober::new(&a.gpu, deadline);
    let what = match prober.run_alone(&tc) {
        hang::Alone::Fails(w) => w,
        hang::Alone::Finishes => {
            errln!("{file}: the GPU finishes it within {deadline} ms: nothing to reduce");
            return 2;
        }
        hang::Alone::Unknown(why) => {
            errln!("{file}: cannot tell whether it hangs: {why}");
            return 2;
        }
    };
    let until = Instant::now() + Duration::from_secs(3600);
    let (small, secs) = prober.reduce_failing(&tc, 1, until);
    let notes = vec![format!(
        "Reduced by `warpdiff reduce-hang` from {file} ({} instructions) to {} in {secs:.1} s.",
        tc.program.insts.len(),
        small.program.insts.len()
    )];
    let (d, notes) = hang::as_divergence(&what, notes);
    if let Err(m) = write_out(&out, &case::case_text(&small, &d, notes)) {
        errln!("{m}");
        return 2;
    }
    outln!(
        "{file}: hangs or faults on the GPU; {} -> {} instructions in {secs:.1} s; wrote {out}",
        tc.program.insts.len(),
        small.program.insts.len()
    );
    0
}
