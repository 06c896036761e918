//! Programs the interpreter finishes without UB but a GPU does not (it
//! hangs) or faults on: finding which case of a batch did it, and reducing
//! it.
//!
//! A hung kernel cannot be stopped and a fault leaves the context unusable,
//! so the GPU of the process that launched it stays off; every question
//! here is therefore asked in a fresh process (`warpdiff run --engine gpu
//! FILE` with a short deadline), which the driver cleans up when it exits.

use std::io::Read;
use std::path::PathBuf;
use std::process::{Command, Stdio};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::{Duration, Instant};
use warp_core::gen::TestCase;
use warp_core::interp::Interp;
use warp_core::oracle::{Disagreement, Divergence};
use warp_core::reduce::Reducer;
use warp_lower::fuzzing::FUZZ_FUEL;

/// The deadline for a case run alone to find or reduce a hang.
pub const DEADLINE_MS: u64 = 1500;

/// Predicate calls a hang reduction may make (each one a process and a
/// deadline: about a second).
pub const REDUCE_ATTEMPTS: usize = 150;

/// How one case ended in its own process.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Alone {
    /// Still running at the deadline, or a kernel fault: what was seen.
    Fails(String),
    /// Finished (whatever it computed).
    Finishes,
    /// No answer: no GPU, or the process could not run.
    Unknown(String),
}

fn scratch_file() -> PathBuf {
    static N: AtomicUsize = AtomicUsize::new(0);
    std::env::temp_dir().join(format!(
        "warpdiff-hang-probe-{}-{}.ptx",
        std::process::id(),
        N.fetch_add(1, Ordering::Relaxed)
    ))
}

/// Runs `case` alone on the GPU in a fresh `warpdiff` process with a
/// deadline of `deadline_ms`.
pub fn run_alone(case: &TestCase, deadline_ms: u64) -> Alone {
    let exe = match std::env::current_exe() {
        Ok(e) => e,
        Err(e) => return Alone::Unknown(format!("no path to warpdiff: {e}")),
    };
    let path = scratch_file();
    if let Err(e) = std::fs::write(&path, warp_core::text::print(&case.to_case())) {
        return Alone::Unknown(format!("{}: {e}", path.display()));
    }
    let child = Command::new(exe)
        .args(["run", "--engine", "gpu"])
        .arg(&path)
        .env("WARPDIFF_GPU_DEADLINE_MS", deadline_ms.to_string())
        .env("WARPDIFF_GPU_IN_PROCESS", "1")
        .env("WARPDIFF_PROBE", "1")
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn();
    let mut child = match child {
        Ok(c) => c,
        Err(e) => {
            let _ = std::fs::remove_file(&path);
            return Alone::Unknown(format!("cannot start warpdiff: {e}"));
        }
    };
    // The process itself must end (its exit tears the context down); give
    // it the deadline plus time to start and to exit.
    let limit = Instant::now() + Duration::from_millis(deadline_ms) + Duration::from_secs(30);
    let status = loop {
        match child.try_wait() {
            Ok(Some(s)) => break Some(s),
            Ok(None) if Instant::now() < limit => std::thread::sleep(Duration::from_millis(20)),
            Ok(None) | Err(_) => {
                let _ = child.kill();
                let _ = child.wait();
                break None;
            }
        }
    };
    let mut text = String::new();
    if let Some(mut o) = child.stdout.take() {
        let _ = o.read_to_string(&mut text);
    }
    if let Some(mut e) = child.stderr.take() {
        let _ = e.read_to_string(&mut text);
    }
    let _ = std::fs::remove_file(&path);
    if status.is_none() {
        Alone::Fails(format!(
            "the process did not end within {deadline_ms} ms + 30 s"
        ))
    } else if let Some(line) = text
        .lines()
        .find(|l| l.contains("gpu hang:") || l.contains("gpu fault:"))
    {
        let what = line
            .find("gpu hang:")
            .or_else(|| line.find("gpu fault:"))
            .map_or(line, |i| &line[i..]);
        Alone::Fails(what.trim().to_string())
    } else if text.contains("no GPU found") {
        Alone::Unknown("no GPU found".into())
    } else {
        Alone::Finishes
    }
}

/// The cases that hang or fault alone (index and what was seen),
/// checking up to `threads` at a time and starting none after `until`.
pub fn find_failing(
    cases: &[TestCase],
    deadline_ms: u64,
    threads: usize,
    until: Instant,
) -> Vec<(usize, String)> {
    let next = AtomicUsize::new(0);
    let found = std::sync::Mutex::new(Vec::new());
    std::thread::scope(|sc| {
        for _ in 0..threads.max(1) {
            sc.spawn(|| loop {
                let i = next.fetch_add(1, Ordering::Relaxed);
                let Some(c) = cases.get(i) else { break };
                if Instant::now() > until {
                    break;
                }
                if let Alone::Fails(what) = run_alone(c, deadline_ms) {
                    found.lock().expect("lock").push((i, what));
                }
            });
        }
    });
    let mut v = found.into_inner().expect("lock");
    v.sort_unstable();
    v
}

/// Reduces a case that hangs or faults alone to a small one that still
/// does (and that the interpreter still finishes without UB), trying no
/// candidate after `until`. Returns it and the seconds taken.
pub fn reduce_failing(
    case: &TestCase,
    deadline_ms: u64,
    seed: u64,
    until: Instant,
) -> (TestCase, f64) {
    let t = Instant::now();
    let pred = |c: &TestCase| {
        if Instant::now() > until {
            return false;
        }
        let ok = matches!(
            Interp::new(&c.program).with_fuel(FUZZ_FUEL).run(&c.inputs),
            Ok(r) if r.ub.is_none()
        );
        ok && matches!(run_alone(c, deadline_ms), Alone::Fails(_))
    };
    let small = match Reducer::new()
        .seed(seed)
        .attempts(REDUCE_ATTEMPTS)
        .run(case, pred)
    {
        Ok(r) => r.case,
        Err(_) => case.clone(),
    };
    (small, t.elapsed().as_secs_f64())
}

/// A GPU that hung or faulted on a case, as a divergence (form `hang`),
/// and the comment lines that record it: `notes`, the hardware, and the
/// `gpu-fails:` line that keeps replay from running it on the GPU.
pub fn as_divergence(what: &str, mut notes: Vec<String>) -> (Divergence, Vec<String>) {
    let d = Divergence {
        engine: "gpu",
        what: Disagreement::Failed(warp_core::interp::RunError::Engine(format!(
            "{what} (the interpreter finishes it without UB)"
        ))),
        form: "hang".to_string(),
    };
    notes.extend(warp_lower::fuzzing::hardware_notes(&d));
    notes.push(format!("{} {what}", warp_core::corpus::GPU_FAILS));
    (d, notes)
}
