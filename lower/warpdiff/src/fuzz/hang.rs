//! Programs the interpreter finishes without UB but a GPU does not (it
//! hangs) or faults on: finding which case of a batch did it, narrowing a
//! batch that fails only as a whole down to the smallest group that still
//! fails, and reducing a case that fails alone.
//!
//! A hung kernel cannot be stopped and a fault leaves the context unusable,
//! so the GPU of the process that launched it stays off; every question
//! here is therefore asked in a fresh process (`warpdiff gpu-probe FILE...`
//! with the same GPU settings and a short deadline), which the driver
//! cleans up when it exits. The answer is the probe's exit status
//! ([`probe_status`]); its stderr is kept only as the description.

use crate::cli::GpuArgs;
use crate::fuzz::case::FUZZ_FUEL;
use std::io::Read;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::{Duration, Instant};
use warp_core::corpus::{write_case, Written};
use warp_core::gen::TestCase;
use warp_core::interp::Interp;
use warp_core::oracle::{Disagreement, Divergence, DivergenceCase};
use warp_core::reduce::Reducer;

/// The exit statuses of `warpdiff gpu-probe` (the subcommand that
/// answers in a fresh process: [`crate::cmd::gpu_probe`]), the whole protocol
/// between it and the [`Prober`].
pub mod probe_status {
    /// Every case finished (whatever it computed, or it was skipped).
    pub const FINISHED: u8 = 0;
    /// The input could not be read or parsed.
    pub const BAD_INPUT: u8 = 2;
    /// The batch was still running at the deadline.
    pub const HANG: u8 = 10;
    /// A kernel faulted.
    pub const FAULT: u8 = 11;
    /// There is no GPU to ask.
    pub const NO_GPU: u8 = 12;
    /// The driver failed otherwise (e.g. refused the PTX).
    pub const DRIVER: u8 = 13;
}

/// The deadline for a case run alone to find or reduce a hang.
pub const DEADLINE_MS: u64 = 1500;

/// Predicate calls a hang reduction may make (each one a process and a
/// deadline: about a second).
pub const REDUCE_ATTEMPTS: usize = 150;

/// How a group of cases ended in its own process.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Alone {
    /// Still running at the deadline, or a kernel fault: what was seen.
    Fails(String),
    /// Finished (whatever it computed).
    Finishes,
    /// No answer: no GPU, or the process could not run.
    Unknown(String),
}

/// Asks fresh `warpdiff gpu-probe` processes whether cases hang or fault.
#[derive(Clone, Debug)]
pub struct Prober {
    exe: Result<PathBuf, String>,
    args: Vec<String>,
    deadline_ms: u64,
    /// How long past the deadline a probe may take to start and end.
    margin: Duration,
    /// No probe waits past this instant (the end of a run's narrowing).
    ending_by: Option<Instant>,
}

fn scratch_dir() -> PathBuf {
    static N: AtomicUsize = AtomicUsize::new(0);
    std::env::temp_dir().join(format!(
        "warpdiff-probe-{}-{}",
        std::process::id(),
        N.fetch_add(1, Ordering::Relaxed)
    ))
}

impl Prober {
    /// A prober that runs this executable with the GPU settings of `gpu`
    /// and a deadline of `deadline_ms` per run.
    pub fn new(gpu: &GpuArgs, deadline_ms: u64) -> Prober {
        Prober {
            exe: std::env::current_exe().map_err(|e| format!("no path to warpdiff: {e}")),
            args: gpu.child_args(deadline_ms),
            deadline_ms,
            margin: Duration::from_millis(gpu.gpu_answer_margin_ms) + Duration::from_secs(5),
            ending_by: None,
        }
    }

    /// The same prober, whose probes never wait past `at` (a probe still
    /// running then is killed and its answer is unknown).
    pub fn ending_by(mut self, at: Instant) -> Prober {
        self.ending_by = Some(at);
        self
    }

    /// The deadline of each probe, in milliseconds.
    pub fn deadline_ms(&self) -> u64 {
        self.deadline_ms
    }

    /// Runs `cases` together, as one batch, in a fresh process.
    pub fn run_group(&self, cases: &[&TestCase]) -> Alone {
        let exe = match &self.exe {
            Ok(e) => e,
            Err(m) => return Alone::Unknown(m.clone()),
        };
        let dir = scratch_dir();
        let result = self.run_in(exe, &dir, cases);
        let _ = std::fs::remove_dir_all(&dir);
        result
    }

    fn run_in(&self, exe: &Path, dir: &Path, cases: &[&TestCase]) -> Alone {
        if let Err(e) = std::fs::create_dir_all(dir) {
            return Alone::Unknown(format!("{}: {e}", dir.display()));
        }
        let mut files = Vec::with_capacity(cases.len());
        for (i, c) in cases.iter().enumerate() {
            let path = dir.join(format!("case-{i:05}.ptx"));
            if let Err(e) = std::fs::write(&path, warp_core::text::print(&c.to_case())) {
                return Alone::Unknown(format!("{}: {e}", path.display()));
            }
            files.push(path);
        }
        let child = Command::new(exe)
            .arg("gpu-probe")
            .args(&self.args)
            .arg("--gpu-in-process")
            .arg("--")
            .args(&files)
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::piped())
            .spawn();
        let mut child = match child {
            Ok(c) => c,
            Err(e) => return Alone::Unknown(format!("cannot start warpdiff: {e}")),
        };
        // The process itself must end (its exit tears the context down);
        // give it the deadline plus time to start and to exit.
        let own = Instant::now() + Duration::from_millis(self.deadline_ms) + self.margin;
        let limit = self.ending_by.map_or(own, |end| own.min(end));
        let status = loop {
            match child.try_wait() {
                Ok(Some(s)) => break Some(s),
                Ok(None) if Instant::now() < limit => std::thread::sleep(Duration::from_millis(10)),
                Ok(None) | Err(_) => {
                    let _ = child.kill();
                    let _ = child.wait();
                    break None;
                }
            }
        };
        let mut text = String::new();
        if let Some(mut e) = child.stderr.take() {
            let _ = e.read_to_string(&mut text);
        }
        let said = || {
            text.lines()
                .rev()
                .find(|l| !l.trim().is_empty())
                .unwrap_or("")
                .trim()
                .to_string()
        };
        let Some(status) = status else {
            if limit < own {
                return Alone::Unknown("the time for narrowing ran out".into());
            }
            return Alone::Fails(format!(
                "gpu hang: the probe process did not end within {} ms + {:?}",
                self.deadline_ms, self.margin
            ));
        };
        match status.code().and_then(|c| u8::try_from(c).ok()) {
            Some(probe_status::FINISHED) => Alone::Finishes,
            Some(probe_status::HANG | probe_status::FAULT) => Alone::Fails(said()),
            Some(probe_status::NO_GPU) => Alone::Unknown(format!("no GPU found ({})", said())),
            Some(c) => Alone::Unknown(format!("the probe ended with status {c}: {}", said())),
            None => Alone::Fails(format!(
                "the probe process was killed by a signal ({status}): {}",
                said()
            )),
        }
    }

    /// Runs `case` alone in a fresh process.
    pub fn run_alone(&self, case: &TestCase) -> Alone {
        self.run_group(&[case])
    }

    /// The smallest group of a batch that still fails together in a fresh
    /// process (indices into `cases`; one index when a case fails alone)
    /// and what was seen. Halves while one half fails by itself, then
    /// drops single members while the rest still fails. `None` when the
    /// whole batch does not fail again (or `until` passed first).
    pub fn smallest_failing_group(
        &self,
        cases: &[TestCase],
        until: Instant,
    ) -> Option<(Vec<usize>, String)> {
        let fails = |idx: &[usize]| -> Option<String> {
            if Instant::now() > until {
                return None;
            }
            let group: Vec<&TestCase> = idx.iter().map(|&i| &cases[i]).collect();
            match self.run_group(&group) {
                Alone::Fails(w) => Some(w),
                Alone::Finishes | Alone::Unknown(_) => None,
            }
        };
        let mut group: Vec<usize> = (0..cases.len()).collect();
        let mut what = fails(&group)?;
        while group.len() > 1 {
            let (a, b) = group.split_at(group.len() / 2);
            if let Some(w) = fails(a) {
                (group, what) = (a.to_vec(), w);
            } else if let Some(w) = fails(b) {
                (group, what) = (b.to_vec(), w);
            } else {
                break;
            }
        }
        let mut k = 0;
        while k < group.len() && group.len() > 1 && Instant::now() < until {
            let without: Vec<usize> = group
                .iter()
                .enumerate()
                .filter(|(j, _)| *j != k)
                .map(|(_, &i)| i)
                .collect();
            match fails(&without) {
                Some(w) => (group, what) = (without, w),
                None => k += 1,
            }
        }
        Some((group, what))
    }

    /// Reduces a case that hangs or faults alone to a small one that still
    /// does (and that the interpreter still finishes without UB), trying no
    /// candidate after `until`. Returns it and the seconds taken.
    pub fn reduce_failing(&self, case: &TestCase, seed: u64, until: Instant) -> (TestCase, f64) {
        let t = Instant::now();
        let pred = |c: &TestCase| {
            if Instant::now() > until {
                return false;
            }
            let ok = matches!(
                Interp::new(&c.program).with_fuel(FUZZ_FUEL).run(&c.inputs),
                Ok(r) if r.ub.is_none()
            );
            ok && matches!(self.run_alone(c), Alone::Fails(_))
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
}

/// A GPU that hung or faulted on a case, as a divergence (form `hang`),
/// and the comment lines that record it: `notes`, the hardware, and the
/// `gpu-fails:` line that keeps replay from running it on the GPU.
pub fn as_divergence(what: &str, mut notes: Vec<String>) -> (Divergence, Vec<String>) {
    let d = Divergence {
        engine: "gpu",
        what: Disagreement::Failed(warp_core::engine::RunError::Engine(format!(
            "{what} (the interpreter finishes it without UB)"
        ))),
        form: "hang".to_string(),
    };
    notes.extend(crate::fuzz::case::hardware_notes(&d));
    notes.push(format!("{} {what}", warp_core::corpus::GPU_FAILS));
    (d, notes)
}

/// Records a group of cases that hang or fault on the GPU only together
/// (as one batch): a folder `gpu-fails-group-<hash>` in `dir` holding each
/// member as a case with its reference `.expect` and a `gpu-fails:` line
/// (so replay runs them on the CPU engines and never on the GPU). Returns
/// the folder.
pub fn record_group(
    dir: &Path,
    cases: &[&TestCase],
    what: &str,
    notes: &[String],
) -> std::io::Result<PathBuf> {
    let key: String = cases
        .iter()
        .map(|c| warp_core::text::print(&c.to_case()))
        .collect();
    let folder = dir.join(format!(
        "gpu-fails-group-{:08x}",
        warp_core::corpus::fnv1a(&key) as u32
    ));
    std::fs::create_dir_all(&folder)?;
    for (i, c) in cases.iter().enumerate() {
        let mut lines = notes.to_vec();
        lines.push(format!(
            "Member {} of {}: the GPU fails on these {} cases when they run as one batch (one module), and on none of them alone.",
            i + 1,
            cases.len(),
            cases.len()
        ));
        let (d, lines) = as_divergence(what, lines);
        let text = DivergenceCase {
            program: &c.program,
            inputs: &c.inputs,
            divergence: &d,
            notes: lines,
            fuel: FUZZ_FUEL,
        }
        .to_string();
        let member_key = format!("{key}#{i}");
        match write_case(&folder, &format!("member-{:02}", i + 1), &member_key, &text)? {
            Written::New(_) | Written::Exists(_) => {}
        }
    }
    Ok(folder)
}
