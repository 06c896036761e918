//! One running external-engine process and its three pipes, so that no
//! wait on it can last past a deadline:
//!
//! - stdin is written by a thread of its own: a child that stops reading
//!   blocks that thread, never the caller (killing the child ends it);
//! - stdout is read line by line by a thread that hands each line over a
//!   channel, which the caller waits on with a deadline;
//! - stderr is read by a third thread that keeps the last lines, quoted
//!   when the engine fails (a Python traceback says more than "exited
//!   with status 1").
//!
//! The child runs in a process group of its own, and is killed with the
//! whole group, so a wrapper script's children go too.

use std::collections::VecDeque;
use std::io::{self, BufRead, BufReader, Read, Write};
use std::os::unix::process::{CommandExt, ExitStatusExt};
use std::process::{Child, ChildStdin, Command, ExitStatus, Stdio};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError, Sender};
use std::sync::{Arc, Mutex};
use std::thread;
use std::time::{Duration, Instant};

/// Longest line accepted on the child's stdout (a guard against endless
/// output without a line break; a result of 4096 jobs is far smaller).
pub const MAX_LINE: usize = 256 << 20;

/// Lines of stderr kept.
const STDERR_LINES: usize = 12;

/// Longest stderr line kept, in characters.
const STDERR_WIDTH: usize = 300;

/// What the stdout thread hands over.
enum Stdout {
    /// A line, without its line break.
    Line(Vec<u8>),
    /// A line longer than [`MAX_LINE`]; reading stopped.
    TooLong,
    /// Reading failed; reading stopped.
    Error(io::Error),
}

/// Why no line came.
#[derive(Debug)]
pub enum NoLine {
    /// The deadline passed first.
    Timeout,
    /// stdout closed: the child exited (or closed it).
    Closed,
    /// A line longer than [`MAX_LINE`].
    TooLong,
    /// Reading failed.
    Error(String),
}

/// The last lines of the child's stderr.
#[derive(Default)]
struct Tail {
    lines: Mutex<VecDeque<String>>,
    done: AtomicBool,
}

/// A running engine process.
pub struct Proc {
    child: Child,
    pid: u32,
    stdin: Option<Sender<Vec<u8>>>,
    stdout: Receiver<Stdout>,
    tail: Arc<Tail>,
    reaped: Option<ExitStatus>,
}

impl Proc {
    /// Starts `argv` with `env` added to warpdiff's environment, in a
    /// process group of its own, with all three pipes.
    pub fn spawn(argv: &[String], env: &[(String, String)]) -> io::Result<Proc> {
        let (program, args) = argv
            .split_first()
            .ok_or_else(|| io::Error::new(io::ErrorKind::InvalidInput, "no program"))?;
        let mut child = Command::new(program)
            .args(args)
            .envs(env.iter().map(|(k, v)| (k, v)))
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .process_group(0)
            .spawn()?;
        let pid = child.id();
        let stdin = child.stdin.take().expect("piped");
        let stdout = child.stdout.take().expect("piped");
        let stderr = child.stderr.take().expect("piped");
        let (in_tx, in_rx) = mpsc::channel::<Vec<u8>>();
        let (out_tx, out_rx) = mpsc::channel();
        let tail = Arc::new(Tail::default());
        let t = tail.clone();
        let threads = thread::Builder::new()
            .name(format!("ext-{pid}-stdin"))
            .spawn(move || write_all(stdin, in_rx))
            .and_then(|_| {
                thread::Builder::new()
                    .name(format!("ext-{pid}-stdout"))
                    .spawn(move || read_lines(stdout, out_tx))
            })
            .and_then(|_| {
                thread::Builder::new()
                    .name(format!("ext-{pid}-stderr"))
                    .spawn(move || keep_tail(stderr, &t))
            });
        let mut p = Proc {
            child,
            pid,
            stdin: Some(in_tx),
            stdout: out_rx,
            tail,
            reaped: None,
        };
        match threads {
            Ok(_) => Ok(p),
            Err(e) => {
                p.kill();
                Err(e)
            }
        }
    }

    /// The child's process id.
    pub fn pid(&self) -> u32 {
        self.pid
    }

    /// Hands `line` (a line break is added) to the stdin thread; `false`
    /// when that thread is gone (the child closed stdin or died).
    pub fn send(&self, mut line: Vec<u8>) -> bool {
        line.push(b'\n');
        self.stdin.as_ref().is_some_and(|tx| tx.send(line).is_ok())
    }

    /// The next stdout line, waiting at most until `until`.
    pub fn line(&self, until: Instant) -> Result<Vec<u8>, NoLine> {
        let wait = until.saturating_duration_since(Instant::now());
        match self.stdout.recv_timeout(wait) {
            Ok(Stdout::Line(l)) => Ok(l),
            Ok(Stdout::TooLong) => Err(NoLine::TooLong),
            Ok(Stdout::Error(e)) => Err(NoLine::Error(e.to_string())),
            Err(RecvTimeoutError::Timeout) => Err(NoLine::Timeout),
            Err(RecvTimeoutError::Disconnected) => Err(NoLine::Closed),
        }
    }

    /// The exit status, waiting up to `wait` for the child to exit.
    pub fn status(&mut self, wait: Duration) -> Option<ExitStatus> {
        let until = Instant::now() + wait;
        loop {
            if self.reaped.is_some() {
                return self.reaped;
            }
            match self.child.try_wait() {
                Ok(Some(s)) => {
                    self.reaped = Some(s);
                    return self.reaped;
                }
                Ok(None) if Instant::now() < until => thread::sleep(Duration::from_millis(5)),
                Ok(None) | Err(_) => return None,
            }
        }
    }

    /// The last lines the child wrote on stderr, joined into one line
    /// (waiting up to `wait` for stderr to close first).
    pub fn stderr_tail(&self, wait: Duration) -> String {
        let until = Instant::now() + wait;
        while !self.tail.done.load(Ordering::Acquire) && Instant::now() < until {
            thread::sleep(Duration::from_millis(5));
        }
        let lines = self.tail.lines.lock().unwrap_or_else(|p| p.into_inner());
        lines.iter().cloned().collect::<Vec<_>>().join(" | ")
    }

    /// Kills the child and its process group, and reaps it.
    pub fn kill(&mut self) {
        if self.status(Duration::ZERO).is_none() {
            // The whole group: a wrapper's children too. Best effort: the
            // child itself is killed below in any case.
            let _ = Command::new("kill")
                .args(["-s", "KILL", "--", &format!("-{}", self.pid)])
                .stdin(Stdio::null())
                .stdout(Stdio::null())
                .stderr(Stdio::null())
                .status();
            let _ = self.child.kill();
            let _ = self.status(Duration::from_secs(2));
        }
        self.stdin = None;
    }

    /// Closes stdin (the protocol's "goodbye"), gives the child `grace` to
    /// exit, then kills it if it has not.
    pub fn close(&mut self, grace: Duration) {
        self.stdin = None;
        if self.status(grace).is_none() {
            self.kill();
        }
    }
}

impl Drop for Proc {
    fn drop(&mut self) {
        self.kill();
    }
}

/// How an exit status reads in a message.
pub fn describe_status(s: Option<ExitStatus>) -> String {
    match s {
        Some(s) => match (s.code(), s.signal()) {
            (Some(c), _) => format!("exited with status {c}"),
            (None, Some(sig)) => format!("was killed by signal {sig}"),
            (None, None) => format!("ended ({s})"),
        },
        None => "closed its stdout".to_string(),
    }
}

fn write_all(mut stdin: ChildStdin, rx: Receiver<Vec<u8>>) {
    for msg in rx {
        if stdin.write_all(&msg).and_then(|()| stdin.flush()).is_err() {
            return;
        }
    }
}

fn read_lines(stdout: impl Read, tx: Sender<Stdout>) {
    let mut r = BufReader::with_capacity(1 << 16, stdout);
    loop {
        let mut buf = Vec::new();
        match (&mut r)
            .take(MAX_LINE as u64 + 1)
            .read_until(b'\n', &mut buf)
        {
            Ok(0) => return,
            Ok(_) if buf.last() == Some(&b'\n') => {
                buf.pop();
                if buf.last() == Some(&b'\r') {
                    buf.pop();
                }
                if tx.send(Stdout::Line(buf)).is_err() {
                    return;
                }
            }
            Ok(n) if n > MAX_LINE => {
                let _ = tx.send(Stdout::TooLong);
                return;
            }
            // The last line, without a line break: stdout closes next.
            Ok(_) => {
                if tx.send(Stdout::Line(buf)).is_err() {
                    return;
                }
            }
            Err(e) => {
                let _ = tx.send(Stdout::Error(e));
                return;
            }
        }
    }
}

fn keep_tail(stderr: impl Read, tail: &Tail) {
    let mut r = BufReader::new(stderr);
    let mut buf = Vec::new();
    loop {
        buf.clear();
        match (&mut r).take(1 << 20).read_until(b'\n', &mut buf) {
            Ok(0) | Err(_) => break,
            Ok(_) => {
                let line: String = String::from_utf8_lossy(&buf)
                    .trim_end()
                    .chars()
                    .map(|c| if c.is_control() { ' ' } else { c })
                    .take(STDERR_WIDTH)
                    .collect();
                if line.trim().is_empty() {
                    continue;
                }
                let mut lines = tail.lines.lock().unwrap_or_else(|p| p.into_inner());
                if lines.len() == STDERR_LINES {
                    lines.pop_front();
                }
                lines.push_back(line);
            }
        }
    }
    tail.done.store(true, Ordering::Release);
}
