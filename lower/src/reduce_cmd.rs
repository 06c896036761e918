//! `warpdiff reduce` and `warpdiff reduce-hang`: reducing a case file by
//! hand.

use crate::fuzz_cmd::others;
use crate::hang;
use std::time::{Duration, Instant};
use warp_core::engine::Engine;
use warp_core::gen::TestCase;
use warp_lower::engines;
use warp_lower::fuzzing;

/// Reads and parses a case file (errors name the file, line and column).
fn read_case(file: &str) -> Result<TestCase, String> {
    let case = std::fs::read_to_string(file)
        .map_err(|e| format!("{file}: cannot read: {e}"))
        .and_then(|s| warp_core::text::parse(&s).map_err(|e| e.with_file(file)))?;
    Ok(TestCase {
        program: case.program,
        inputs: case.inputs,
    })
}

/// `warpdiff reduce FILE -o OUT`: reduces a divergent case by hand.
pub fn reduce(args: &[String]) -> u8 {
    let (mut file, mut out, mut force) = (None, None, false);
    let mut it = args.iter();
    while let Some(a) = it.next() {
        match a.as_str() {
            "-o" | "--output" => out = it.next().cloned(),
            "--force" => force = true,
            f if f.starts_with('-') => {
                eprintln!("warpdiff reduce: unknown option `{f}`");
                return 2;
            }
            f => file = Some(f.to_string()),
        }
    }
    let (Some(file), Some(out)) = (file, out) else {
        eprintln!("usage: warpdiff reduce FILE -o OUT [--force]");
        return 2;
    };
    if std::path::Path::new(&out).exists() && !force {
        eprintln!("warpdiff reduce: {out} exists; not overwriting it (--force to replace)");
        return 2;
    }
    let tc = match read_case(&file) {
        Ok(tc) => tc,
        Err(m) => {
            eprintln!("{m}");
            return 2;
        }
    };
    let owned = others(
        &engines::ENGINES
            .iter()
            .map(|s| s.to_string())
            .collect::<Vec<_>>(),
    );
    let others: Vec<&dyn Engine> = owned.iter().map(|e| e.as_ref()).collect();
    let Some(d) = fuzzing::divergence_of(&tc, &others) else {
        eprintln!("{file}: no engine diverges from the reference on it: nothing to reduce");
        return 2;
    };
    let (small, secs) = fuzzing::reduce(&tc, &d, &others, 1);
    let d2 = fuzzing::divergence_of(&small, &others).unwrap_or(d);
    let mut notes = vec![format!(
        "Reduced by `warpdiff reduce` from {file} ({} instructions) to {} in {secs:.2} s.",
        tc.program.insts.len(),
        small.program.insts.len()
    )];
    notes.extend(fuzzing::hardware_notes(&d2));
    let text = fuzzing::case_text(&small, &d2, notes);
    let tmp = format!("{out}.tmp{}", std::process::id());
    if let Err(e) = std::fs::write(&tmp, &text).and_then(|_| std::fs::rename(&tmp, &out)) {
        eprintln!("{out}: cannot write: {e}");
        return 2;
    }
    println!(
        "{file}: {} on {}: {} -> {} instructions in {secs:.2} s; wrote {out}",
        d2.engine,
        d2.form,
        tc.program.insts.len(),
        small.program.insts.len()
    );
    0
}

/// `warpdiff reduce-hang FILE -o OUT [--deadline-ms N]`: reduces a case
/// that the GPU does not finish, each candidate alone in a fresh process.
pub fn reduce_hang(args: &[String]) -> u8 {
    let (mut file, mut out, mut deadline) = (None, None, hang::DEADLINE_MS);
    let mut it = args.iter();
    while let Some(a) = it.next() {
        match a.as_str() {
            "-o" | "--output" => out = it.next().cloned(),
            "--deadline-ms" => match it.next().and_then(|v| v.parse().ok()) {
                Some(v) => deadline = v,
                None => {
                    eprintln!("warpdiff reduce-hang: --deadline-ms needs a number");
                    return 2;
                }
            },
            f if f.starts_with('-') => {
                eprintln!("warpdiff reduce-hang: unknown option `{f}`");
                return 2;
            }
            f => file = Some(f.to_string()),
        }
    }
    let (Some(file), Some(out)) = (file, out) else {
        eprintln!("usage: warpdiff reduce-hang FILE -o OUT [--deadline-ms N]");
        return 2;
    };
    if std::path::Path::new(&out).exists() {
        eprintln!("warpdiff reduce-hang: {out} exists; not overwriting it");
        return 2;
    }
    let tc = match read_case(&file) {
        Ok(tc) => tc,
        Err(m) => {
            eprintln!("{m}");
            return 2;
        }
    };
    let what = match hang::run_alone(&tc, deadline) {
        hang::Alone::Fails(w) => w,
        hang::Alone::Finishes => {
            eprintln!("{file}: the GPU finishes it within {deadline} ms: nothing to reduce");
            return 2;
        }
        hang::Alone::Unknown(why) => {
            eprintln!("{file}: cannot tell whether it hangs: {why}");
            return 2;
        }
    };
    let until = Instant::now() + Duration::from_secs(3600);
    let (small, secs) = hang::reduce_failing(&tc, deadline, 1, until);
    let notes = vec![format!(
        "Reduced by `warpdiff reduce-hang` from {file} ({} instructions) to {} in {secs:.1} s.",
        tc.program.insts.len(),
        small.program.insts.len()
    )];
    let (d, notes) = hang::as_divergence(&what, notes);
    let text = fuzzing::case_text(&small, &d, notes);
    if let Err(e) = std::fs::write(&out, text) {
        eprintln!("{out}: cannot write: {e}");
        return 2;
    }
    println!(
        "{file}: hangs or faults on the GPU; {} -> {} instructions in {secs:.1} s; wrote {out}",
        tc.program.insts.len(),
        small.program.insts.len()
    );
    0
}
