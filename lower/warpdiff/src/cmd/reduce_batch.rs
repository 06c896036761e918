//! `warpdiff diff --gpu-batch-file FILE --reduce-batch`: which of a kept
//! GPU batch's other cases (its mates) the diverged case needs to differ
//! from the reference. Each test runs a sub-batch (the diverged case and
//! some mates, in the batch's order) as one batch on a GPU device opened
//! for it alone (a fresh runner process with `--gpu-helpers`, so that no
//! test sees what an earlier one left), on the path the GPU flags give
//! (`--gpu-helpers`, `--gpu-opt-level`, `--gpu-dirty`,
//! `--gpu-compile-threads`). The search ([`crate::cmd::batch_ddmin`]) tries
//! the diverged case's own module first (as [`warp_gpu::plan::chunks`]
//! cuts the whole batch with the run's compile threads), then the mates
//! before it, then those after it, then ddmin; bounded by `--seconds` and
//! `--max-tests`. The result is re-checked twice and written next to FILE
//! as `NAME.min.batch.txt` (`NAME.min.batch-2.txt`... when taken), its
//! header saying how it was reduced and which cases shared the diverged
//! case's module in the final run.

use crate::cmd::batch_ddmin::{reduce, Bound, Found};
use crate::cmd::diff_batch::gpu_reference;
use crate::fuzz::batch_file::{batch_text, read_batch, write_batch};
use crate::fuzz::levels::{judge, AtLevel};
use crate::{errln, outln};
use std::path::Path;
use std::time::{Duration, Instant};
use warp_core::engine::unbounded_only;
use warp_core::gen::TestCase;
use warp_gpu::emit::Job;
use warp_gpu::GpuConfig;

/// How many times the result runs again at the end.
const RECHECKS: usize = 2;

/// Reduces the batch of `file` within `seconds` and `max_tests` tests;
/// returns the exit status: 1 when the diverged case differs in the whole
/// batch (a reduced batch is written), 0 when it agrees there (nothing to
/// reduce), 2 on an error (an unreadable file, no GPU, UB in the reference).
pub fn reduce_batch(file: &Path, seconds: u64, max_tests: usize) -> u8 {
    let t0 = Instant::now();
    let name = file.display().to_string();
    let batch = match read_batch(file) {
        Ok(b) => b,
        Err(m) => {
            errln!("warpdiff diff: {m}");
            return 2;
        }
    };
    let d = batch.diverged;
    let culprit = &batch.cases[d];
    if let Some(s) = unbounded_only(&culprit.inputs) {
        errln!(
            "warpdiff diff: {name}: case {d} (the diverged one) is not run on the GPU: {}",
            s.reason
        );
        return 2;
    }
    let reference = match gpu_reference(culprit) {
        Ok(r) => r,
        Err(m) => {
            errln!("warpdiff diff: {name}: case {d}: {m}");
            return 2;
        }
    };
    // Bounded runs never reach the GPU (`fuzz` keeps none in a batch):
    // they are no mates.
    let runs = |i: &usize| unbounded_only(&batch.cases[*i].inputs).is_none();
    let mut mates: Vec<usize> = (0..batch.cases.len())
        .filter(|&i| i != d)
        .filter(runs)
        .collect();
    let config = warp_gpu::engine::config().clone();
    let threads = config.compile_threads;
    // Nor are those the GPU skips (a form this GPU lacks): `plan::chunks`
    // says which, as the GPU engine asks it.
    let gpu_skips = gpu_skipped(&batch.cases, d, &mates);
    if gpu_skips.contains(&d) {
        errln!("warpdiff diff: {name}: case {d} (the diverged one) is skipped by the GPU");
        return 2;
    }
    mates.retain(|i| !gpu_skips.contains(i));
    if !gpu_skips.is_empty() {
        outln!(
            "{name}: {} case(s) the GPU skips are no mates: {}",
            gpu_skips.len(),
            list(&gpu_skips)
        );
    }
    let cuts = structural_cuts(&batch.cases, d, &mates, threads);
    outln!(
        "{name}: reducing the {} mate(s) of case {d} ({}, {threads} compile thread(s)); bound {seconds} s, {max_tests} tests",
        mates.len(),
        path_words(&config)
    );
    let mut no_gpu: Option<String> = None;
    let mut last = String::new();
    let found = reduce(
        &mates,
        &cuts,
        Bound {
            until: t0 + Duration::from_secs(seconds),
            max_tests,
            seconds,
        },
        |sub| {
            let t = Instant::now();
            let a = run_with(&config, &batch.cases, d, sub, &reference);
            if let Err(e) = &a {
                no_gpu.get_or_insert_with(|| e.clone());
            }
            let differs = matches!(a, Ok(AtLevel::Differs));
            last = verdict(&a);
            outln!(
                "{name}: test with {} mate(s): {last} ({:.1} s)",
                sub.len(),
                t.elapsed().as_secs_f64()
            );
            differs
        },
    );
    if let (Some(e), false) = (&no_gpu, found.reproduced) {
        errln!("warpdiff diff: {name}: {e}");
        return 2;
    }
    if !found.reproduced {
        match &found.stopped {
            Some(why) => outln!("{name}: not reduced: {why} before the whole batch ran"),
            None => outln!(
                "{name}: case {d} {last} with all {} mate(s) on this path: nothing to reduce",
                mates.len()
            ),
        }
        return u8::from(found.stopped.is_some()) * 2;
    }
    let mut held = 0;
    for _ in 0..RECHECKS {
        let a = run_with(&config, &batch.cases, d, &found.kept, &reference);
        held += usize::from(matches!(a, Ok(AtLevel::Differs)));
    }
    let elapsed = t0.elapsed().as_secs_f64();
    let (order, new_d) = in_order(d, &found.kept);
    let shared = module_mates(&batch.cases, &order, new_d, threads);
    let notes = header(&Header {
        file: &name,
        all: batch.cases.len(),
        d,
        found: &found,
        order: &order,
        shared: &shared,
        held,
        elapsed,
        path: &path_words(&config),
        threads,
    });
    let cases: Vec<&TestCase> = order.iter().map(|&i| &batch.cases[i]).collect();
    let out = batch_text(&cases, new_d, &notes);
    let dir = file.parent().unwrap_or(Path::new("."));
    let written = match write_batch(dir, &min_stem(file), &out) {
        Ok(p) => p.display().to_string(),
        Err(e) => {
            errln!("warpdiff diff: {name}: writing the reduced batch: {e}");
            return 2;
        }
    };
    let stopped = found
        .stopped
        .as_ref()
        .map_or(String::new(), |w| format!("; STOPPED EARLY: {w}"));
    let held_words = if held == RECHECKS {
        format!("re-checked: differs {held} of {RECHECKS}")
    } else {
        format!("re-checked: differs only {held} of {RECHECKS}: it did NOT hold every time")
    };
    outln!(
        "{name}: reduced to {} of {} mate(s) (input case(s) {}) in {} test(s), {elapsed:.1} s; {held_words}{stopped}; wrote {written}",
        found.kept.len(),
        mates.len(),
        list(&found.kept),
        found.tests
    );
    1
}

/// Runs the diverged case `d` of `cases` with the mates `sub` as one batch
/// on a device of its own; how the diverged case did, or why no device.
fn run_with(
    config: &GpuConfig,
    cases: &[TestCase],
    d: usize,
    sub: &[usize],
    reference: &warp_core::outcome::Outcome,
) -> Result<AtLevel, String> {
    let (order, which) = in_order(d, sub);
    let jobs = jobs_of(cases, &order);
    let gpu = warp_gpu::engine::open_with(0, config).map_err(|e| e.to_string())?;
    Ok(judge(gpu.as_ref(), &jobs, which, &cases[d], reference))
}

/// The GPU jobs of `cases[i]` for each `i` of `order`, in that order.
fn jobs_of<'c>(cases: &'c [TestCase], order: &[usize]) -> Vec<Job<'c>> {
    order
        .iter()
        .map(|&i| Job {
            program: &cases[i].program,
            inputs: &cases[i].inputs,
        })
        .collect()
}

/// `sub` with `d` in batch order, and where `d` is in it.
fn in_order(d: usize, sub: &[usize]) -> (Vec<usize>, usize) {
    let mut order: Vec<usize> = sub.iter().copied().filter(|&i| i != d).collect();
    order.push(d);
    order.sort_unstable();
    let at = order.iter().position(|&i| i == d).unwrap_or(0);
    (order, at)
}

/// The cases of `d` and `mates` (indices into `cases`) that
/// [`warp_gpu::plan::chunks`] leaves out of every module (the GPU skips
/// them).
fn gpu_skipped(cases: &[TestCase], d: usize, mates: &[usize]) -> Vec<usize> {
    let (order, _) = in_order(d, mates);
    let jobs = jobs_of(cases, &order);
    let (_, skipped) = warp_gpu::plan::chunks(&jobs, 1);
    skipped.into_iter().map(|(j, _)| order[j]).collect()
}

/// A test's answer in words.
fn verdict(a: &Result<AtLevel, String>) -> String {
    match a {
        Ok(AtLevel::Differs) => "differs".to_string(),
        Ok(AtLevel::Agrees) => "agrees".to_string(),
        Ok(AtLevel::Fails(m)) => format!("fails ({m})"),
        Ok(AtLevel::Unknown(m)) => format!("unknown ({m})"),
        Err(e) => format!("no device ({e})"),
    }
}

/// The cheap cuts, in the order they are tried: the diverged case's own
/// module as `plan::chunks` cuts the whole batch with `threads` compile
/// threads, the mates before it, the mates after it.
fn structural_cuts(
    cases: &[TestCase],
    d: usize,
    mates: &[usize],
    threads: usize,
) -> Vec<(String, Vec<usize>)> {
    let (order, at) = in_order(d, mates);
    let shared = module_mates(cases, &order, at, threads);
    vec![
        (
            format!(
                "its module's mates ({} of the whole batch's cases, {threads} compile thread(s))",
                shared.len() + 1
            ),
            shared,
        ),
        (
            "the mates before it".to_string(),
            mates.iter().copied().filter(|&i| i < d).collect(),
        ),
        (
            "the mates after it".to_string(),
            mates.iter().copied().filter(|&i| i > d).collect(),
        ),
    ]
}

/// The cases (indices into `cases`) that share a module with `order[at]`
/// when the batch `order` is cut by [`warp_gpu::plan::chunks`] with
/// `threads` compile threads, as the GPU engine cuts it.
fn module_mates(cases: &[TestCase], order: &[usize], at: usize, threads: usize) -> Vec<usize> {
    let jobs = jobs_of(cases, order);
    let (chunks, _) = warp_gpu::plan::chunks(&jobs, threads.max(1));
    chunks
        .iter()
        .find(|c| c.jobs.contains(&at))
        .map(|c| {
            c.jobs
                .iter()
                .filter(|&&j| j != at)
                .map(|&j| order[j])
                .collect()
        })
        .unwrap_or_default()
}

/// The GPU path in words.
fn path_words(c: &GpuConfig) -> String {
    let how = if c.runner.is_some() {
        "compile helpers and a runner process"
    } else {
        "in this process"
    };
    let level = c
        .opt_level
        .map_or("the driver's default level".to_string(), |o| {
            format!("-O{o}")
        });
    let dirty = c
        .dirty
        .map_or(String::new(), |s| format!(", dirty seed {s:#x}"));
    format!("{how}, {level}{dirty}")
}

/// What the reduced file's header says.
struct Header<'a> {
    file: &'a str,
    all: usize,
    d: usize,
    found: &'a Found,
    order: &'a [usize],
    shared: &'a [usize],
    held: usize,
    elapsed: f64,
    path: &'a str,
    threads: usize,
}

/// The header lines of the reduced batch.
fn header(h: &Header) -> Vec<String> {
    let new_index = |i: usize| h.order.iter().position(|&o| o == i).unwrap_or(0);
    let mut v = vec![
        format!(
            "Reduced by `warpdiff diff --gpu-batch-file {} --reduce-batch` from its {} case(s) (case {} diverged): kept {} mate(s), input case(s) {} (here {}).",
            h.file,
            h.all,
            h.d,
            h.found.kept.len(),
            list(&h.found.kept),
            list(&h.found.kept.iter().map(|&i| new_index(i)).collect::<Vec<_>>()),
        ),
        format!(
            "Path: {}, {} compile thread(s); each test a batch on a device of its own; {} test(s) in {:.1} s.",
            h.path, h.threads, h.found.tests, h.elapsed
        ),
    ];
    for s in &h.found.steps {
        v.push(format!("step: {s}"));
    }
    v.push(match &h.found.stopped {
        Some(w) => format!("STOPPED EARLY: {w}; this is the smallest batch found so far."),
        None => "Done: no smaller part or complement of the kept mates differed (ddmin's 1-minimal, when it ran).".to_string(),
    });
    v.push(format!(
        "Re-checked {RECHECKS} more time(s): differs {} of {RECHECKS}{}.",
        h.held,
        if h.held == RECHECKS {
            ""
        } else {
            " (it did NOT hold every time)"
        }
    ));
    let here: Vec<usize> = h.shared.iter().map(|&i| new_index(i)).collect();
    v.push(match h.shared.len() {
        0 => "Module: as plan::chunks cuts this batch, the diverged case is alone in its module."
            .to_string(),
        _ => format!(
            "Module: as plan::chunks cuts this batch, case(s) {} (input case(s) {}) share the diverged case's module.",
            list(&here),
            list(h.shared)
        ),
    });
    v
}

/// `1, 5, 9`, or `none`.
fn list(v: &[usize]) -> String {
    if v.is_empty() {
        return "none".to_string();
    }
    v.iter()
        .map(usize::to_string)
        .collect::<Vec<_>>()
        .join(", ")
}

/// The stem of the reduced file: `X.min` for `X.batch.txt`, `X.txt` or `X`.
fn min_stem(file: &Path) -> String {
    let n = file
        .file_name()
        .map_or(String::new(), |n| n.to_string_lossy().into_owned());
    let base = n
        .strip_suffix(".batch.txt")
        .or_else(|| n.strip_suffix(".txt"))
        .unwrap_or(&n);
    format!("{base}.min")
}

#[cfg(test)]
mod tests {
    use super::{in_order, min_stem};
    use std::path::Path;

    #[test]
    fn the_diverged_case_takes_its_place_in_batch_order() {
        assert_eq!(in_order(5, &[1, 9, 3]), (vec![1, 3, 5, 9], 2));
        assert_eq!(in_order(0, &[]), (vec![0], 0));
    }

    #[test]
    fn the_reduced_file_is_named_after_the_input() {
        assert_eq!(
            min_stem(Path::new("d/popc-12ab.batch.txt")),
            "popc-12ab.min"
        );
        assert_eq!(min_stem(Path::new("x.txt")), "x.min");
        assert_eq!(min_stem(Path::new("y")), "y.min");
    }
}
