//! A GPU whose batches run in a child process ([`crate::runner`]), so that
//! a hang, a fault or a driver call that never returns costs one batch and
//! a few seconds, never the GPU's part of a run: the runner is killed (or
//! exits by itself) and a fresh one, with a fresh context, takes the next
//! batch. This process holds no CUDA context at all.
//!
//! A batch is emitted here, compiled in the compile helpers
//! ([`crate::farm`], each compile with a deadline of its own), and sent to
//! the runner with every module's image and buffers; the runner's answer
//! is waited for with a deadline too (the kernels' deadline plus
//! [`GpuConfig::answer_margin`]), and never past the instant set by
//! [`Device::abandon_after`]. Several threads may run batches at once:
//! they emit and compile in parallel, and take turns with the runner, so
//! the helpers compile the next batches while one runs.
//!
//! The GPU is off ([`Device::is_dead`]) only when runners cannot start any
//! more ([`MAX_FAILED_STARTS`] in a row), with the reason.

use super::config::GpuConfig;
use super::device::{Device, GpuError, RunnerCounts, Timing};
use super::emit::Job;
use super::farm::{CompileFailure, Farm};
use super::plan::{self, first_lines, Emitted};
use super::runner::RUNNER_COMMAND;
use super::wire::{Hello, Image, Reply, Request};
use std::io::{self, BufReader, BufWriter};
use std::path::PathBuf;
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::atomic::{AtomicBool, AtomicU32, AtomicU64, Ordering};
use std::sync::mpsc::{channel, Receiver, RecvTimeoutError};
use std::sync::Mutex;
use std::time::{Duration, Instant};
use warp_core::outcome::Outcome;

/// Runner starts that may fail in a row before the GPU is switched off.
pub const MAX_FAILED_STARTS: u32 = 3;

/// How long a runner may take to open its context and say hello.
const HELLO_WITHIN: Duration = Duration::from_secs(60);

/// A running runner process.
struct Runner {
    child: Child,
    stdin: BufWriter<ChildStdin>,
    /// Its replies, read by a thread of their own so that a wait can end.
    replies: Receiver<io::Result<Reply>>,
}

impl Drop for Runner {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// A GPU driven through runner processes.
pub struct RemoteGpu {
    ordinal: usize,
    config: GpuConfig,
    exe: PathBuf,
    description: String,
    farm: Option<Farm>,
    runner: Mutex<Option<Runner>>,
    seq: AtomicU64,
    failed_starts: AtomicU32,
    dead: AtomicBool,
    why_dead: Mutex<Option<String>>,
    abandon_at: Mutex<Option<Instant>>,
    counts: Mutex<RunnerCounts>,
}

impl RemoteGpu {
    /// Starts a runner for GPU `ordinal` with `exe gpu-runner` and the
    /// compile helpers `config.helpers` names; fails when the first runner
    /// cannot open the GPU (the message says why).
    pub fn open(ordinal: usize, config: &GpuConfig, exe: PathBuf) -> Result<RemoteGpu, String> {
        if config.simulate.is_none() {
            // Say it once, here, rather than once per helper and runner.
            super::driver::present(ordinal).map_err(|e| e.0)?;
        }
        let farm = if config.simulate.is_some() {
            None
        } else {
            match &config.helpers {
                Some(h) => match Farm::spawn_for(
                    h,
                    config.compile_threads.max(1),
                    config.compiler,
                    ordinal,
                ) {
                    Ok(f) => Some(f),
                    Err(e) => {
                        eprintln!(
                            "warpdiff: cannot start compile helpers ({e}); the runner compiles"
                        );
                        None
                    }
                },
                None => None,
            }
        };
        let mut gpu = RemoteGpu {
            ordinal,
            config: config.clone(),
            exe,
            description: String::new(),
            farm,
            runner: Mutex::new(None),
            seq: AtomicU64::new(0),
            failed_starts: AtomicU32::new(0),
            dead: AtomicBool::new(false),
            why_dead: Mutex::new(None),
            abandon_at: Mutex::new(None),
            counts: Mutex::new(RunnerCounts::default()),
        };
        let (runner, hello) = gpu.start()?;
        gpu.description = format!(
            "{}, {}, each batch in a runner process{}",
            hello.description,
            config.opt_phrase(),
            match (&gpu.farm, config.compiler) {
                (Some(_), super::config::Compiler::Ptxas) =>
                    ", PTX compiled by ptxas in helper processes",
                (Some(_), super::config::Compiler::Driver) => {
                    ", PTX compiled by the driver's linker (cuLink*, a relocatable compile as `ptxas -c`) in helper processes"
                }
                (None, _) => "",
            }
        );
        *gpu.runner.lock().unwrap_or_else(|p| p.into_inner()) = Some(runner);
        Ok(gpu)
    }

    /// What happened to its runners so far.
    pub fn counts(&self) -> RunnerCounts {
        *self.counts.lock().unwrap_or_else(|p| p.into_inner())
    }

    fn count(&self, f: impl FnOnce(&mut RunnerCounts)) {
        f(&mut self.counts.lock().unwrap_or_else(|p| p.into_inner()));
    }

    /// Starts a runner and reads its hello.
    fn start(&self) -> Result<(Runner, Hello), String> {
        let mut cmd = Command::new(&self.exe);
        cmd.arg(RUNNER_COMMAND)
            .args(["--device", &self.ordinal.to_string()]);
        if let Some(rule) = &self.config.simulate {
            cmd.arg(format!("--gpu-simulate={}", rule.name()));
            // The simulated GPU's wrong values depend on the level (the
            // real runner gets compiled code and needs no level).
            cmd.arg(format!(
                "--sim-opt-level={}",
                self.config
                    .opt_level
                    .map_or("default".to_string(), |o| o.to_string())
            ));
        }
        if let Some(seed) = self.config.dirty {
            cmd.arg(format!("--gpu-dirty={seed}"));
        }
        let mut child = cmd
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::inherit())
            .spawn()
            .map_err(|e| format!("cannot start {} {RUNNER_COMMAND}: {e}", self.exe.display()))?;
        let (Some(stdin), Some(stdout)) = (child.stdin.take(), child.stdout.take()) else {
            let _ = child.kill();
            let _ = child.wait();
            return Err("no pipes to the GPU runner".into());
        };
        let (hello_tx, hello_rx) = channel();
        let (tx, rx) = channel();
        std::thread::spawn(move || {
            let mut r = BufReader::new(stdout);
            if hello_tx.send(Hello::read(&mut r)).is_err() {
                return;
            }
            loop {
                let reply = Reply::read(&mut r);
                let end = reply.is_err();
                if tx.send(reply).is_err() || end {
                    return;
                }
            }
        });
        self.count(|c| c.started += 1);
        let runner = Runner {
            child,
            stdin: BufWriter::new(stdin),
            replies: rx,
        };
        match hello_rx.recv_timeout(HELLO_WITHIN) {
            Ok(Ok(h)) if h.description.starts_with("no GPU: ") => {
                drop(runner);
                Err(h.description["no GPU: ".len()..].to_string())
            }
            Ok(Ok(h)) => Ok((runner, h)),
            Ok(Err(e)) => Err(format!("the GPU runner said nothing readable: {e}")),
            Err(_) => Err(format!(
                "the GPU runner did not open GPU {} within {HELLO_WITHIN:?}",
                self.ordinal
            )),
        }
    }

    /// The runner to use now, started if there is none; `Err` once the
    /// GPU is off.
    fn ensure_runner<'a>(&self, slot: &'a mut Option<Runner>) -> Result<&'a mut Runner, GpuError> {
        if slot.is_none() {
            if self.is_dead() {
                return Err(GpuError::Dead);
            }
            match self.start() {
                Ok((r, _)) => {
                    self.failed_starts.store(0, Ordering::Relaxed);
                    *slot = Some(r);
                }
                Err(m) => {
                    let n = self.failed_starts.fetch_add(1, Ordering::Relaxed) + 1;
                    if n >= MAX_FAILED_STARTS {
                        self.dead.store(true, Ordering::Relaxed);
                        *self.why_dead.lock().unwrap_or_else(|p| p.into_inner()) = Some(format!(
                            "{n} GPU runners in a row could not start, the last: {m}"
                        ));
                    }
                    return Err(GpuError::Driver(format!(
                        "the GPU runner could not start: {m}"
                    )));
                }
            }
        }
        Ok(slot.as_mut().expect("started above"))
    }

    /// Emits a chunk and compiles it (runs on a compile thread).
    fn prepare(&self, jobs: &[Job], c: &plan::Chunk) -> Result<(Emitted, Image), String> {
        let e = plan::emit(jobs, c, self.config.perturb)?;
        let dumped = self
            .config
            .dump_dir
            .as_ref()
            .map(|dir| super::farm::dump(dir, &e.module.ptx, jobs.len() == 1));
        if self.config.simulate.is_some() {
            let image = e.sim_image(jobs);
            return Ok((e, image));
        }
        let image = match &self.farm {
            Some(farm) => {
                match farm.compile_waiting(
                    &e.module.ptx,
                    self.config.opt_level,
                    self.config.compile_deadline,
                ) {
                    Ok(cubin) => {
                        if let Some(p) = &dumped {
                            super::farm::dump_cubin(p, &cubin);
                        }
                        Image::Cubin(cubin)
                    }
                    Err(f) => {
                        if matches!(f, CompileFailure::TimedOut(_)) {
                            self.count(|c| c.compile_timeouts += 1);
                        }
                        return Err(format!(
                            "{f} (a module of {} program(s), first: {})",
                            e.module.kernels.len(),
                            first_lines(jobs[c.jobs[0]].program)
                        ));
                    }
                }
            }
            None => Image::Ptx {
                text: e.module.ptx.clone(),
                opt_level: self.config.opt_level,
            },
        };
        Ok((e, image))
    }

    /// Sends `req` and waits for the answer (see the module doc); the
    /// runner is dropped (killed) whenever it will not take another batch.
    fn exchange(&self, req: &Request) -> Result<Reply, GpuError> {
        let mut slot = self.runner.lock().unwrap_or_else(|p| p.into_inner());
        let held = Instant::now();
        let r = self.exchange_held(&mut slot, req);
        let us = held.elapsed().as_micros() as u64;
        self.count(|c| c.runner_busy_us += us);
        r
    }

    /// [`RemoteGpu::exchange`] with the runner's slot held.
    fn exchange_held(&self, slot: &mut Option<Runner>, req: &Request) -> Result<Reply, GpuError> {
        let runner = self.ensure_runner(slot)?;
        if let Err(e) = req.write(&mut runner.stdin) {
            *slot = None;
            return Err(GpuError::Driver(format!(
                "the GPU runner took no request ({e}); a fresh one takes the next batch"
            )));
        }
        let patience = self.config.deadline + self.config.answer_margin;
        let until = Instant::now() + patience;
        loop {
            let abandon = *self.abandon_at.lock().unwrap_or_else(|p| p.into_inner());
            let now = Instant::now();
            if abandon.is_some_and(|a| now >= a) {
                *slot = None;
                return Err(GpuError::Abandoned);
            }
            if now >= until {
                *slot = None;
                self.count(|c| c.stuck += 1);
                return Err(GpuError::Hang(format!(
                    "the GPU runner did not answer within {patience:?} (a driver call that does not return); it was killed and a fresh one takes the next batch"
                )));
            }
            let step = (until - now).min(Duration::from_millis(100));
            let runner = slot.as_mut().expect("held");
            match runner.replies.recv_timeout(step) {
                Ok(Ok(r @ Reply::Ran(_))) => return Ok(r),
                Ok(Ok(r)) => {
                    // Hang or fault: the runner exits by itself.
                    *slot = None;
                    self.count(|c| match r {
                        Reply::Hang(_) => c.hangs += 1,
                        _ => c.faults += 1,
                    });
                    return Ok(r);
                }
                Ok(Err(e)) => {
                    let status = runner.child.try_wait().ok().flatten();
                    *slot = None;
                    return Err(GpuError::Fault(format!(
                        "the GPU runner ended without an answer ({e}{}); a fresh one takes the next batch",
                        status.map_or(String::new(), |s| format!(", {s}"))
                    )));
                }
                Err(RecvTimeoutError::Timeout) => {}
                Err(RecvTimeoutError::Disconnected) => {
                    *slot = None;
                    return Err(GpuError::Fault(
                        "the GPU runner's output closed; a fresh one takes the next batch".into(),
                    ));
                }
            }
        }
    }
}

impl Device for RemoteGpu {
    fn description(&self) -> String {
        self.description.clone()
    }

    fn ordinal(&self) -> usize {
        self.ordinal
    }

    fn is_dead(&self) -> bool {
        self.dead.load(Ordering::Relaxed)
    }

    fn why_dead(&self) -> Option<String> {
        self.why_dead
            .lock()
            .unwrap_or_else(|p| p.into_inner())
            .clone()
    }

    fn abandon_after(&self, at: Instant) {
        *self.abandon_at.lock().unwrap_or_else(|p| p.into_inner()) = Some(at);
    }

    fn survives_failures(&self) -> bool {
        true
    }

    fn runner_counts(&self) -> Option<RunnerCounts> {
        let mut c = self.counts();
        if let Some(farm) = &self.farm {
            c.helpers = farm.size() as u64;
            c.compile_busy_us = farm.busy_us();
        }
        Some(c)
    }

    fn run_batch_timed(&self, jobs: &[Job]) -> (Vec<Result<Outcome, GpuError>>, Timing) {
        let mut timing = Timing::default();
        if self.is_dead() {
            return (jobs.iter().map(|_| Err(GpuError::Dead)).collect(), timing);
        }
        let t0 = Instant::now();
        let mut batch = plan::prepare(jobs, self.config.compile_threads, &mut timing, |c| {
            self.prepare(jobs, c)
        });
        timing.load = t0.elapsed();
        if !batch.modules.is_empty() {
            let req = Request {
                seq: self.seq.fetch_add(1, Ordering::Relaxed) + 1,
                deadline_ms: self.config.deadline.as_millis() as u64,
                modules: std::mem::take(&mut batch.modules),
            };
            let t1 = Instant::now();
            let reply = self.exchange(&req);
            timing.wait += t1.elapsed();
            match reply {
                Ok(Reply::Ran(results)) => batch.deliver(results),
                Ok(Reply::Hang(m)) => batch.fail(&GpuError::Hang(format!(
                    "{m}; the runner process ended, a fresh one takes the next batch"
                ))),
                Ok(Reply::Fault(m)) => batch.fail(&GpuError::Fault(format!(
                    "{m}; the runner process ended, a fresh one takes the next batch"
                ))),
                Err(e) => batch.fail(&e),
            }
        }
        (batch.results(), timing)
    }
}
