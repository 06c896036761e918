//! External engines: PTX implementations warpdiff did not write (a
//! simulator, an emulator, PTX on another GPU), run as a child process
//! that speaks the engine protocol (`docs/engine-protocol.md`;
//! [`protocol`] holds its messages) on stdin and stdout.
//!
//! [`External::start`] starts the program once and shakes hands: the
//! engine reports its name and version, which name it in every message,
//! divergence and corpus header. [`External::run_batch`] sends many jobs
//! in one request (the module [`warp_gpu::emit::emit_module`] writes for
//! the GPU, one warp per job, and each job's case text); as an [`Engine`]
//! the same engine runs one job per request (`warpdiff run`, `diff`, the
//! reducer).
//!
//! Every wait has a deadline ([`Options::request_deadline`]). A child that
//! exits, hangs, or writes what is not a protocol message fails the
//! request with a one-line message saying which (with the last lines of
//! its stderr) and is killed; the next request starts a fresh one. After
//! [`MAX_FAILED_STARTS`] failed starts in a row the engine is off: every
//! later job is skipped with the reason, and the other engines go on.

pub mod child;
pub mod command;
pub mod protocol;

use child::{describe_status, NoLine, Proc};
use protocol::{
    check_hello, hex, unhex, FromEngine, Hello, HelloRequest, JobMsg, JobResultMsg, KernelMsg,
    ModuleMsg, RunRequest, PROTOCOL,
};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex, OnceLock};
use std::time::{Duration, Instant};
use warp_core::engine::{CompileError, Compiled, Engine, RunError, Skip};
use warp_core::ir::{Inputs, Program, Target, Version, WARP};
use warp_core::outcome::Outcome;
use warp_gpu::emit::{decode_outputs, emit_module, encode_inputs, module_target, Job};

/// Failed (re)starts in a row after which an engine is switched off.
pub const MAX_FAILED_STARTS: u32 = 3;

/// Longest text taken from an engine's message (an error or skip reason).
const MAX_MESSAGE: usize = 2000;

/// How external engines are driven.
#[derive(Clone, Debug)]
pub struct Options {
    /// Time for the handshake, and for a request besides `per_job`.
    pub deadline: Duration,
    /// Time per job of a request, added to `deadline`.
    pub per_job: Duration,
    /// Variables added to the child's environment.
    pub env: Vec<(String, String)>,
}

impl Options {
    /// The time a request of `jobs` jobs may take.
    pub fn request_deadline(&self, jobs: usize) -> Duration {
        self.deadline + self.per_job * jobs as u32
    }
}

/// What became of one job of a batch.
#[derive(Clone, Debug)]
pub enum JobResult {
    /// The engine ran it: its outputs (every lane counts as defined),
    /// boxed: an outcome is ten times the other variants.
    Ran(Box<Outcome>),
    /// The engine skipped it, or warpdiff could not send it: why. Counted,
    /// never agreement, never a finding.
    Skipped(Skip),
    /// The engine reported that it failed on this job, or answered for it
    /// with an output that breaks the protocol: why (a finding).
    Failed(String),
    /// The whole request failed: the child crashed, hung, wrote garbage,
    /// refused the request or could not be restarted (one message for all
    /// the request's jobs; which job is to blame is not known).
    RequestFailed(Arc<String>),
    /// The caller's cutoff came before the answer (the run ended).
    CutOff,
}

/// The results of [`External::run_batch`].
#[derive(Clone, Debug)]
pub struct BatchRun {
    /// One per job, in order.
    pub results: Vec<JobResult>,
    /// The requests it took (one per module needed, and per `max_jobs`).
    pub requests: usize,
}

/// What an engine's requests came to, for the summary.
#[derive(Debug, Default)]
pub struct Counters {
    /// Requests sent (the handshake not counted).
    pub requests: AtomicU64,
    /// Jobs sent, over all requests.
    pub jobs: AtomicU64,
    /// Requests that failed as a whole.
    pub failed_requests: AtomicU64,
    /// Fresh children started after the first.
    pub restarts: AtomicU64,
    /// Microseconds spent waiting for answers.
    pub busy_us: AtomicU64,
}

/// An external engine: cheap to clone, every clone talks to the same
/// child (one request at a time). The child is told to go (its stdin
/// closes) when the last clone is dropped.
#[derive(Clone)]
pub struct External(Arc<Inner>);

struct Inner {
    /// `PROGRAM` as given.
    program: String,
    /// Its words.
    argv: Vec<String>,
    opts: Options,
    /// The name from the first handshake (leaked once per engine: the
    /// oracle names engines by `&'static str`).
    name: &'static str,
    /// The first handshake.
    hello: Hello,
    live: Mutex<Live>,
    /// Set once, when the engine is switched off: why.
    off: OnceLock<String>,
    counters: Counters,
}

/// The child, if one runs.
struct Live {
    proc: Option<Proc>,
    next_id: u64,
    failed_starts: u32,
}

impl Drop for Inner {
    fn drop(&mut self) {
        let live = self.live.get_mut().unwrap_or_else(|p| p.into_inner());
        if let Some(p) = live.proc.as_mut() {
            p.close(Duration::from_secs(1));
        }
    }
}

/// One line, printable, at most `MAX_MESSAGE` characters: engine text
/// goes into messages and corpus headers, which are line-based.
pub fn one_line(s: &str) -> String {
    let mut t: String = s
        .chars()
        .map(|c| if c.is_control() { ' ' } else { c })
        .take(MAX_MESSAGE)
        .collect();
    if s.chars().count() > MAX_MESSAGE {
        t.push_str("...");
    }
    t
}

/// A stdout line quoted for a message: its first 120 characters.
fn quote(line: &[u8]) -> String {
    let s = String::from_utf8_lossy(line);
    // Control characters escaped (the message stays one line), the rest as
    // written.
    let mut q: String = s
        .chars()
        .take(120)
        .map(|c| match c {
            c if c.is_control() => c.escape_default().to_string(),
            c => c.to_string(),
        })
        .collect();
    if s.chars().count() > 120 {
        q.push_str("...");
    }
    format!("`{q}`")
}

/// Parses one stdout line as a message; the error quotes the line and
/// says what is wrong with it.
fn parse(line: &[u8]) -> Result<FromEngine, String> {
    serde_json::from_slice(line).map_err(|e| format!("{} ({e})", quote(line)))
}

/// Kills `p` after `what` happened: the message, with the end of its
/// stderr.
fn killed(p: &mut Proc, what: String) -> String {
    p.kill();
    match p.stderr_tail(Duration::from_millis(300)) {
        t if t.is_empty() => format!("{what}; nothing on stderr"),
        t => format!("{what}; stderr ends: {t}"),
    }
}

/// The message for a line that is not a protocol message (`line`: the
/// line quoted and what is wrong with it), and kills `p`. When the child
/// exited right after writing it (an answer cut off by a crash), that is
/// what is said.
fn garbage(p: &mut Proc, line: String, during: &str) -> String {
    match p.status(Duration::from_millis(100)) {
        Some(s) => killed(
            p,
            format!("{} during {during}, after writing {line}", describe_status(Some(s))),
        ),
        None => killed(
            p,
            format!(
                "wrote a line that is not a protocol message during {during}: {line}; killed it (stdout is for protocol messages only, logs go to stderr)"
            ),
        ),
    }
}

/// The message for a wait on `p` that gave no line; kills `p`.
fn no_line(p: &mut Proc, e: NoLine, waited: Duration, during: &str) -> String {
    let what = match e {
        NoLine::Timeout => format!(
            "did not answer {during} within {:.1} s (a hang); killed it",
            waited.as_secs_f64()
        ),
        NoLine::Closed => {
            let status = p.status(Duration::from_millis(500));
            format!("{} during {during}", describe_status(status))
        }
        NoLine::TooLong => format!(
            "wrote a line longer than {} MiB during {during}; killed it",
            child::MAX_LINE >> 20
        ),
        NoLine::Error(m) => format!("could not be read during {during}: {m}; killed it"),
    };
    killed(p, what)
}

/// Starts `argv` and shakes hands. `who` names the program in messages.
fn launch(argv: &[String], opts: &Options, program: &str) -> Result<(Proc, Hello), String> {
    let mut p =
        Proc::spawn(argv, &opts.env).map_err(|e| format!("cannot start `{program}`: {e}"))?;
    let who = format!("`{program}` (pid {})", p.pid());
    let hello = serde_json::to_vec(&HelloRequest {
        kind: "hello",
        protocol: PROTOCOL,
        warpdiff: env!("CARGO_PKG_VERSION"),
    })
    .expect("a hello serializes");
    p.send(hello);
    let line = match p.line(Instant::now() + opts.deadline) {
        Ok(l) => l,
        Err(e) => {
            return Err(format!(
                "{who} {}",
                no_line(&mut p, e, opts.deadline, "the handshake")
            ))
        }
    };
    match parse(&line) {
        Ok(FromEngine::Hello(h)) => match check_hello(&h, crate::engines::spec::ENGINES) {
            Ok(()) => Ok((p, h)),
            Err(m) => Err(format!("{who}: handshake refused: {m}")),
        },
        Ok(FromEngine::Error(r)) => Err(format!(
            "{who} refused the handshake: {}",
            one_line(&r.message)
        )),
        Ok(FromEngine::Result(_)) => Err(format!("{who} answered the hello with a result")),
        Err(m) => Err(format!("{who} {}", garbage(&mut p, m, "the handshake"))),
    }
}

impl External {
    /// Starts `program` (split by [`command::split`]) and shakes hands;
    /// the error says what went wrong, with the program's stderr.
    pub fn start(program: &str, opts: Options) -> Result<External, String> {
        let argv = command::split(program)?;
        let (proc, hello) = launch(&argv, &opts, program)?;
        let name: &'static str = Box::leak(hello.name.clone().into_boxed_str());
        Ok(External(Arc::new(Inner {
            program: program.to_string(),
            argv,
            opts,
            name,
            hello,
            live: Mutex::new(Live {
                proc: Some(proc),
                next_id: 1,
                failed_starts: 0,
            }),
            off: OnceLock::new(),
            counters: Counters::default(),
        })))
    }

    /// The name it reported.
    pub fn name(&self) -> &'static str {
        self.0.name
    }

    /// The version it reported.
    pub fn version(&self) -> &str {
        &self.0.hello.version
    }

    /// `PROGRAM` as given.
    pub fn program(&self) -> &str {
        &self.0.program
    }

    /// The most jobs it takes per request, if it said.
    pub fn max_jobs(&self) -> Option<usize> {
        self.0.hello.max_jobs
    }

    /// Its figures so far.
    pub fn counters(&self) -> &Counters {
        &self.0.counters
    }

    /// One sentence naming it by name and version, and how it was started:
    /// for corpus headers.
    pub fn describe(&self) -> String {
        format!(
            "{} {} is an external engine, started as `{}` (warpdiff engine protocol {PROTOCOL}).",
            self.0.name, self.0.hello.version, self.0.program
        )
    }

    /// `name version`, for messages.
    fn who(&self) -> String {
        format!("external engine {} {}", self.0.name, self.0.hello.version)
    }

    /// Switches it off for good: every later job is skipped with `why`.
    pub fn switch_off(&self, why: String) {
        let _ = self.0.off.set(why);
    }

    /// Why it is off, if it is.
    pub fn off(&self) -> Option<&str> {
        self.0.off.get().map(String::as_str)
    }

    fn off_skip(&self, why: &str) -> Skip {
        Skip {
            reason: format!("{} is off: {why}", self.who()),
        }
    }

    /// Runs `jobs`: grouped by the module they need (`.version`/`.target`,
    /// [`module_target`]), each group in requests of at most the engine's
    /// `max_jobs`. One result per job, in order. A request still out at
    /// `cutoff` is abandoned (its jobs are [`JobResult::CutOff`]; the
    /// child is killed and restarts on the next request).
    pub fn run_batch(&self, jobs: &[Job], cutoff: Option<Instant>) -> BatchRun {
        if let Some(why) = self.off() {
            return BatchRun {
                results: vec![JobResult::Skipped(self.off_skip(why)); jobs.len()],
                requests: 0,
            };
        }
        let mut requests = 0;
        let mut results: Vec<Option<JobResult>> = vec![None; jobs.len()];
        let mut groups: Vec<((Version, Target), Vec<usize>)> = Vec::new();
        for (i, job) in jobs.iter().enumerate() {
            if let Some(skip) = warp_core::engine::unbounded_only(job.inputs) {
                results[i] = Some(JobResult::Skipped(skip));
                continue;
            }
            match module_target(job.program) {
                Err(skip) => results[i] = Some(JobResult::Skipped(unsendable(&skip))),
                Ok(t) => match groups.iter_mut().find(|g| g.0 == t) {
                    Some(g) => g.1.push(i),
                    None => groups.push((t, vec![i])),
                },
            }
        }
        let max = self.0.hello.max_jobs.unwrap_or(usize::MAX);
        for (target, members) in groups {
            for chunk in members.chunks(max) {
                let sub: Vec<Job> = chunk.iter().map(|&i| jobs[i]).collect();
                requests += 1;
                for (&i, r) in chunk.iter().zip(self.request(&sub, target, cutoff)) {
                    results[i] = Some(r);
                }
            }
        }
        BatchRun {
            results: results
                .into_iter()
                .map(|r| r.expect("every job has a result"))
                .collect(),
            requests,
        }
    }

    /// A fresh child, with the same name and version as the first.
    fn restart(&self) -> Result<Proc, String> {
        let (p, h) = launch(&self.0.argv, &self.0.opts, &self.0.program)?;
        if h.name != self.0.hello.name || h.version != self.0.hello.version {
            return Err(format!(
                "after a restart it reports `{} {}`, before `{} {}`",
                h.name, h.version, self.0.hello.name, self.0.hello.version
            ));
        }
        Ok(p)
    }

    /// One request: `jobs` share `target`.
    fn request(
        &self,
        jobs: &[Job],
        (version, target): (Version, Target),
        cutoff: Option<Instant>,
    ) -> Vec<JobResult> {
        let inner = &*self.0;
        let n = jobs.len();
        let module = match emit_module(jobs, version, target) {
            Ok(m) => m,
            Err(e) => {
                return vec![
                    JobResult::Skipped(Skip {
                        reason: format!("not sent: warpdiff cannot write it as a PTX module: {e}"),
                    });
                    n
                ]
            }
        };
        // Where each job sits: (kernel, block).
        let mut place = vec![(0, 0); n];
        for (k, kernel) in module.kernels.iter().enumerate() {
            for (b, &j) in kernel.jobs.iter().enumerate() {
                place[j] = (k, b);
            }
        }
        let mut live = inner.live.lock().unwrap_or_else(|p| p.into_inner());
        if let Some(why) = self.off() {
            return vec![JobResult::Skipped(self.off_skip(why)); n];
        }
        if cutoff.is_some_and(|c| Instant::now() >= c) {
            return vec![JobResult::CutOff; n];
        }
        let fail = |m: String| {
            inner
                .counters
                .failed_requests
                .fetch_add(1, Ordering::Relaxed);
            vec![JobResult::RequestFailed(Arc::new(m)); n]
        };
        if live.proc.is_none() {
            match self.restart() {
                Ok(p) => {
                    live.proc = Some(p);
                    live.failed_starts = 0;
                    inner.counters.restarts.fetch_add(1, Ordering::Relaxed);
                }
                Err(m) => {
                    live.failed_starts += 1;
                    if live.failed_starts >= MAX_FAILED_STARTS {
                        self.switch_off(format!(
                            "it could not be restarted {MAX_FAILED_STARTS} times in a row ({m})"
                        ));
                    }
                    return fail(format!("{}: could not restart it: {m}", self.who()));
                }
            }
        }
        let id = live.next_id;
        live.next_id += 1;
        let request = RunRequest {
            kind: "run",
            id,
            module: ModuleMsg {
                version: version.to_string(),
                target: target.to_string(),
                ptx: inner.hello.ptx.then_some(module.ptx.as_str()),
                kernels: module
                    .kernels
                    .iter()
                    .map(|k| KernelMsg {
                        name: k.name.clone(),
                        in_words: k.in_words,
                        out_words: k.out_words,
                        jobs: k.jobs.clone(),
                    })
                    .collect(),
            },
            jobs: jobs
                .iter()
                .zip(&place)
                .map(|(job, &(kernel, block))| JobMsg {
                    kernel,
                    block,
                    out_words: module.kernels[kernel].out_words,
                    input: hex(&encode_inputs(job.program, job.inputs)),
                    case: inner
                        .hello
                        .cases
                        .then(|| case_text(job.program, job.inputs)),
                })
                .collect(),
        };
        let bytes = serde_json::to_vec(&request).expect("a request serializes");
        drop(request);
        let deadline = inner.opts.request_deadline(n);
        let t0 = Instant::now();
        let until = t0 + deadline;
        let wait_until = cutoff.map_or(until, |c| c.min(until));
        let who = self.who();
        let Live { proc, .. } = &mut *live;
        let p = proc.as_mut().expect("a child runs");
        let pid = p.pid();
        p.send(bytes);
        let got = p.line(wait_until);
        inner.counters.requests.fetch_add(1, Ordering::Relaxed);
        inner.counters.jobs.fetch_add(n as u64, Ordering::Relaxed);
        inner
            .counters
            .busy_us
            .fetch_add(t0.elapsed().as_micros() as u64, Ordering::Relaxed);
        let during = format!("request {id} ({n} job{})", if n == 1 { "" } else { "s" });
        let line = match got {
            Ok(l) => l,
            Err(NoLine::Timeout) if wait_until < until => {
                p.kill();
                *proc = None;
                return vec![JobResult::CutOff; n];
            }
            Err(e) => {
                let m = no_line(p, e, deadline, &during);
                *proc = None;
                return fail(format!(
                    "{who} (pid {pid}) {m}; it restarts for the next request"
                ));
            }
        };
        let parsed = match parse(&line) {
            Ok(msg) => msg,
            Err(m) => {
                let m = garbage(p, m, &during);
                *proc = None;
                return fail(format!(
                    "{who} (pid {pid}) {m}; it restarts for the next request"
                ));
            }
        };
        // A message that breaks the protocol leaves the conversation out
        // of step: the child is killed and restarts.
        let mut broken = |m: String| {
            let m = match proc.as_mut() {
                Some(p) => killed(p, format!("{m}; killed it")),
                None => m,
            };
            *proc = None;
            fail(format!(
                "{who} (pid {pid}) {m}; it restarts for the next request"
            ))
        };
        let res = match parsed {
            FromEngine::Error(r) if r.id == Some(id) => {
                return fail(format!("{who} refused {during}: {}", one_line(&r.message)))
            }
            FromEngine::Error(r) => {
                return broken(format!(
                    "answered {during} with an error for request {:?}: {}",
                    r.id,
                    one_line(&r.message)
                ))
            }
            FromEngine::Hello(_) => return broken(format!("answered {during} with a hello")),
            FromEngine::Result(res) => res,
        };
        if res.id != id {
            return broken(format!(
                "answered {during} with the result of request {}",
                res.id
            ));
        }
        if res.jobs.len() != n {
            return broken(format!(
                "answered {during} with {} job results",
                res.jobs.len()
            ));
        }
        live.failed_starts = 0;
        jobs.iter()
            .zip(res.jobs)
            .enumerate()
            .map(|(j, (job, msg))| {
                let out_words = module.kernels[place[j].0].out_words;
                self.job_result(job.program, out_words, msg)
                    .unwrap_or_else(|m| {
                        JobResult::Failed(format!("{who}: job {j} of request {id}: {m}"))
                    })
            })
            .collect()
    }

    /// One job's entry of a `result`; `Err` says how it breaks the
    /// protocol.
    fn job_result(
        &self,
        program: &Program,
        out_words: usize,
        msg: JobResultMsg,
    ) -> Result<JobResult, String> {
        match (msg.output, msg.error, msg.skip) {
            (Some(h), None, None) => {
                let words =
                    unhex(&h).map_err(|m| format!("its output is not a hex buffer: {m}"))?;
                if words.len() != out_words {
                    return Err(format!(
                        "its output has {} words; the kernel's out_words is {out_words}",
                        words.len()
                    ));
                }
                let statuses = &words[program.regs.len() * WARP..];
                if let Some((lane, s)) = statuses.iter().enumerate().find(|(_, &s)| s > 1) {
                    return Err(format!(
                        "lane {lane}'s status word is {s:#x} (0 = ran to the end, 1 = exited)"
                    ));
                }
                Ok(JobResult::Ran(Box::new(decode_outputs(program, &words))))
            }
            (None, Some(e), None) => Ok(JobResult::Failed(format!(
                "{} failed on it: {}",
                self.who(),
                one_line(&e)
            ))),
            (None, None, Some(s)) => Ok(JobResult::Skipped(Skip {
                reason: one_line(&s),
            })),
            _ => Err("its entry needs exactly one of `output`, `error` and `skip`".to_string()),
        }
    }
}

/// A program the protocol's module cannot hold, as a skip.
fn unsendable(skip: &Skip) -> Skip {
    Skip {
        reason: format!(
            "not sent: warpdiff writes modules for sm_90 (sm_70 for the deprecated forms) only: {skip}"
        ),
    }
}

/// The job as a `.ptx` case: program and `.lanes`, no header.
fn case_text(program: &Program, inputs: &Inputs) -> String {
    warp_core::text::print(&warp_core::ir::Case {
        header: Vec::new(),
        program: program.clone(),
        inputs: inputs.clone(),
        expect: Default::default(),
    })
}

/// A program on an external engine: each run is a request of one job.
struct OneJob<'p> {
    ext: External,
    program: &'p Program,
}

impl Compiled for OneJob<'_> {
    fn run(&self, inputs: &Inputs) -> Result<Outcome, RunError> {
        let job = Job {
            program: self.program,
            inputs,
        };
        match self.ext.run_batch(&[job], None).results.pop() {
            Some(JobResult::Ran(o)) => Ok(*o),
            Some(JobResult::Skipped(s)) => Err(RunError::Unavailable(s)),
            Some(JobResult::Failed(m)) => Err(RunError::Engine(m)),
            Some(JobResult::RequestFailed(m)) => Err(RunError::Engine(m.to_string())),
            Some(JobResult::CutOff) | None => Err(RunError::Unavailable(Skip {
                reason: "not answered: the run ended".to_string(),
            })),
        }
    }
}

impl Engine for External {
    fn name(&self) -> &'static str {
        self.0.name
    }

    fn compile<'p>(
        &self,
        prog: &'p Program,
        _fuel: u64,
    ) -> Result<Box<dyn Compiled + 'p>, CompileError> {
        if let Some(why) = self.off() {
            return Err(CompileError::Skip(self.off_skip(why)));
        }
        module_target(prog).map_err(|s| unsendable(&s))?;
        Ok(Box::new(OneJob {
            ext: self.clone(),
            program: prog,
        }))
    }
}
