//! Compiling PTX in helper processes.
//!
//! The driver's PTX compiler is the slowest step of a GPU batch (about
//! 10 ms per generated program on an H200 host), and inside one process
//! the driver serialises it: 16 compile threads ran only 1.75x faster than
//! one, while 16 `ptxas` processes on the same module ran 10x faster than
//! one. So `warpdiff` can start helper processes (`warpdiff
//! gpu-compile-worker`), each with its own CUDA context, that turn PTX into
//! a cubin with the driver's JIT linker (`cuLinkCreate` / `cuLinkAddData`
//! / `cuLinkComplete`, at the level `cuModuleLoadDataEx` would get); the
//! parent loads the cubin, which needs no compiling. That is a
//! **relocatable** compile, as `ptxas -c`, and a link, not the
//! whole-program compile of `cuModuleLoadDataEx` on PTX, and the two
//! differ ([`driver::link_ptx`]): so a run's findings are checked again
//! through a helper, and its level sweep compiles in helpers too
//! (`warpdiff diff --gpu-helpers` does the same for one case). A helper
//! that fails or dies is dropped and the chunk is
//! compiled in the parent instead.
//!
//! With [`Compiler::Ptxas`] (`warpdiff --gpu-compiler ptxas`, and the CUDA
//! toolkit's `ptxas` on `PATH`) the helpers run `ptxas` instead of the
//! driver's compiler. On an
//! H200 host that was no faster for generated programs (344 against 322
//! cases/s at batch 1024), and it is a second copy of the compiler with its
//! own version, so the driver stays the default; which one ran is named in
//! the GPU's description, and so in every case it writes. (`ptxas -O0`
//! also reconverged the warp less than the driver's `-O0`.)
//!
//! The pipe protocol (little-endian): a request is the optimisation level
//! (`u32`, `u32::MAX` for the driver's default), the PTX length (`u64`) and
//! the PTX bytes; a reply is a status byte (0 = cubin, 1 = the compiler's
//! error log), a length (`u64`) and the bytes.

use super::config::Compiler;
use super::driver;
use std::io::{self, BufReader, Read, Write};
use std::path::{Path, PathBuf};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{channel, Receiver, RecvTimeoutError};
use std::sync::{Condvar, Mutex};
use std::time::Duration;

/// The subcommand a helper process runs.
pub const WORKER_COMMAND: &str = "gpu-compile-worker";

/// A pool of helper processes.
pub struct Farm {
    exe: PathBuf,
    compiler: Compiler,
    device: usize,
    idle: Mutex<Pool>,
    freed: Condvar,
    /// Microseconds helpers spent on requests (summed): [`Farm::busy_us`].
    busy_us: std::sync::atomic::AtomicU64,
    /// Helpers asked for.
    size: usize,
}

/// The helpers not busy now, and how many are alive in all.
struct Pool {
    idle: Vec<Worker>,
    alive: usize,
}

struct Worker {
    child: Child,
    stdin: ChildStdin,
    /// Replies, read by a thread of their own so that a wait can end.
    replies: Receiver<io::Result<Result<Vec<u8>, String>>>,
}

impl Drop for Worker {
    fn drop(&mut self) {
        // Closing stdin ends the helper's loop; reap it so no zombie stays.
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

impl Worker {
    /// How the helper ended, for the message of a request it did not
    /// answer: a signal (SIGSEGV: the PTX compiler crashed in it), an exit
    /// status, or still running (the pipe broke another way). Waits up to
    /// half a second for a helper whose pipe just closed to be reaped.
    fn death(&mut self) -> String {
        #[cfg(unix)]
        use std::os::unix::process::ExitStatusExt;
        let start = std::time::Instant::now();
        loop {
            match self.child.try_wait() {
                Ok(Some(status)) => {
                    #[cfg(unix)]
                    let signal = status.signal();
                    #[cfg(not(unix))]
                    let signal: Option<i32> = None;
                    return match (signal, status.code()) {
                        (Some(11), _) => "the helper died of SIGSEGV".to_string(),
                        (Some(6), _) => "the helper died of SIGABRT".to_string(),
                        (Some(9), _) => "the helper was killed (SIGKILL)".to_string(),
                        (Some(sig), _) => format!("the helper died of signal {sig}"),
                        (None, Some(code)) => format!("the helper exited with status {code}"),
                        (None, None) => format!("the helper ended: {status}"),
                    };
                }
                Ok(None) if start.elapsed() < Duration::from_millis(500) => {
                    std::thread::sleep(Duration::from_millis(5));
                }
                Ok(None) => return "the helper was still running".to_string(),
                Err(e) => return format!("its status is unknown: {e}"),
            }
        }
    }
}

fn read_u64(r: &mut impl Read) -> io::Result<u64> {
    let mut b = [0u8; 8];
    r.read_exact(&mut b)?;
    Ok(u64::from_le_bytes(b))
}

/// Reads one reply of a helper.
fn read_reply(r: &mut impl Read) -> io::Result<Result<Vec<u8>, String>> {
    let mut status = [0u8; 1];
    r.read_exact(&mut status)?;
    let n = read_u64(r)?;
    if n > 1 << 31 {
        return Err(io::Error::other(format!("a reply of {n} bytes")));
    }
    let mut bytes = vec![0u8; n as usize];
    r.read_exact(&mut bytes)?;
    Ok(match status[0] {
        0 => Ok(bytes),
        _ => Err(String::from_utf8_lossy(&bytes).into_owned()),
    })
}

/// Why a compile in a helper gave no cubin.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum CompileFailure {
    /// The compiler refused the module: its log.
    Refused(String),
    /// The compiler did not finish within the deadline: the helper was
    /// killed (a compiler that never ends on some PTX is a finding).
    TimedOut(Duration),
    /// No helper could be started or asked.
    NoHelper(String),
}

impl std::fmt::Display for CompileFailure {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            CompileFailure::Refused(log) => write!(f, "the PTX compiler refused it: {log}"),
            CompileFailure::TimedOut(d) => {
                write!(f, "the PTX compiler did not finish within {d:?} (killed)")
            }
            CompileFailure::NoHelper(m) => write!(f, "no compile helper: {m}"),
        }
    }
}

impl Farm {
    /// Starts `n` helpers running `exe gpu-compile-worker --compiler C
    /// --device D`.
    pub fn spawn(exe: &Path, n: usize, compiler: Compiler) -> io::Result<Farm> {
        Farm::spawn_for(exe, n, compiler, 0)
    }

    /// [`Farm::spawn`] for the GPU `device` (its helpers compile for it).
    pub fn spawn_for(exe: &Path, n: usize, compiler: Compiler, device: usize) -> io::Result<Farm> {
        let farm = Farm {
            exe: exe.to_path_buf(),
            compiler,
            device,
            idle: Mutex::new(Pool {
                idle: Vec::with_capacity(n),
                alive: 0,
            }),
            freed: Condvar::new(),
            busy_us: std::sync::atomic::AtomicU64::new(0),
            size: n.max(1),
        };
        for _ in 0..n.max(1) {
            let w = farm.start()?;
            let mut p = farm.pool();
            p.idle.push(w);
            p.alive += 1;
        }
        Ok(farm)
    }

    fn pool(&self) -> std::sync::MutexGuard<'_, Pool> {
        self.idle.lock().unwrap_or_else(|p| p.into_inner())
    }

    /// Starts one helper.
    fn start(&self) -> io::Result<Worker> {
        let mut child = Command::new(&self.exe)
            .arg(WORKER_COMMAND)
            .args(["--compiler", self.compiler.name()])
            .args(["--device", &self.device.to_string()])
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::inherit())
            .spawn()?;
        let (Some(stdin), Some(stdout)) = (child.stdin.take(), child.stdout.take()) else {
            let _ = child.kill();
            return Err(io::Error::other("no pipes to the helper"));
        };
        let (tx, rx) = channel();
        std::thread::spawn(move || {
            let mut r = BufReader::new(stdout);
            loop {
                let reply = read_reply(&mut r);
                let end = reply.is_err();
                if tx.send(reply).is_err() || end {
                    return;
                }
            }
        });
        Ok(Worker {
            child,
            stdin,
            replies: rx,
        })
    }

    /// Microseconds the helpers spent compiling, summed over helpers.
    pub fn busy_us(&self) -> u64 {
        self.busy_us.load(std::sync::atomic::Ordering::Relaxed)
    }

    /// How many helpers the farm keeps.
    pub fn size(&self) -> usize {
        self.size
    }

    /// How many helpers are alive and idle.
    pub fn idle(&self) -> usize {
        self.pool().idle.len()
    }

    /// Compiles `ptx` in an idle helper: `None` when no helper is free or
    /// the helper failed (the caller compiles it itself), else the cubin or
    /// the compiler's error log.
    pub fn compile(&self, ptx: &str, opt_level: Option<u32>) -> Option<Result<Vec<u8>, String>> {
        let mut w = self.pool().idle.pop()?;
        match Self::ask(&mut w, ptx, opt_level, None) {
            Ok(r) => {
                self.pool().idle.push(w);
                Some(r)
            }
            // The helper is gone or confused: drop it (killing it).
            Err(_) => {
                self.pool().alive -= 1;
                None
            }
        }
    }

    /// Compiles `ptx` in the next free helper, waiting for one, and kills
    /// the helper when the compiler has not answered within `deadline` (a
    /// fresh helper takes its place).
    pub fn compile_waiting(
        &self,
        ptx: &str,
        opt_level: Option<u32>,
        deadline: Duration,
    ) -> Result<Vec<u8>, CompileFailure> {
        let mut w = {
            let mut p = self.pool();
            loop {
                if let Some(w) = p.idle.pop() {
                    break w;
                }
                if p.alive == 0 {
                    // Every helper died: start one in their place.
                    drop(p);
                    let w = self
                        .start()
                        .map_err(|e| CompileFailure::NoHelper(e.to_string()))?;
                    self.pool().alive += 1;
                    break w;
                }
                p = self.freed.wait(p).unwrap_or_else(|e| e.into_inner());
            }
        };
        let asked = std::time::Instant::now();
        let result = Self::ask(&mut w, ptx, opt_level, Some(deadline));
        self.busy_us.fetch_add(
            asked.elapsed().as_micros() as u64,
            std::sync::atomic::Ordering::Relaxed,
        );
        let back = match result {
            Ok(r) => {
                self.pool().idle.push(w);
                r.map_err(CompileFailure::Refused)
            }
            Err(e) => {
                let why = if e.kind() == io::ErrorKind::TimedOut {
                    CompileFailure::TimedOut(deadline)
                } else {
                    CompileFailure::NoHelper(format!(
                        "a compile helper failed: {e} ({})",
                        w.death()
                    ))
                };
                drop(w); // kills it
                match self.start() {
                    Ok(fresh) => self.pool().idle.push(fresh),
                    Err(_) => self.pool().alive -= 1,
                }
                Err(why)
            }
        };
        self.freed.notify_one();
        back
    }

    fn ask(
        w: &mut Worker,
        ptx: &str,
        opt_level: Option<u32>,
        deadline: Option<Duration>,
    ) -> io::Result<Result<Vec<u8>, String>> {
        let mut req = Vec::with_capacity(12 + ptx.len());
        req.extend(opt_level.unwrap_or(u32::MAX).to_le_bytes());
        req.extend((ptx.len() as u64).to_le_bytes());
        req.extend(ptx.as_bytes());
        w.stdin.write_all(&req)?;
        w.stdin.flush()?;
        match deadline {
            Some(d) => match w.replies.recv_timeout(d) {
                Ok(r) => r,
                Err(RecvTimeoutError::Timeout) => {
                    Err(io::Error::new(io::ErrorKind::TimedOut, "no answer"))
                }
                Err(RecvTimeoutError::Disconnected) => Err(io::Error::other("the helper is gone")),
            },
            None => w
                .replies
                .recv()
                .map_err(|_| io::Error::other("the helper is gone"))?,
        }
    }
}

/// Writes `ptx` into `dir` as `module-N.ptx`, or `single-N.ptx` when its
/// batch had one job (a reduction's or a level sweep's candidate, not a
/// fuzz batch) (`--gpu-dump`: for measuring the PTX compiler outside the
/// driver, `ptxas`, on the modules a run compiles), saying so on stderr
/// when it cannot. Returns the path, for [`dump_cubin`].
pub fn dump(dir: &Path, ptx: &str, single: bool) -> PathBuf {
    static N: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);
    let n = N.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    let kind = if single { "single" } else { "module" };
    let path = dir.join(format!("{kind}-{n}.ptx"));
    if let Err(e) = std::fs::write(&path, ptx) {
        eprintln!("warpdiff: --gpu-dump: {}: {e}", path.display());
    }
    path
}

/// Writes the cubin a compile helper made of the PTX dumped at `ptx_path`
/// beside it (`module-N.cubin`), so that `cuobjdump -sass` shows the code
/// that ran; says so on stderr when it cannot.
pub fn dump_cubin(ptx_path: &Path, cubin: &[u8]) {
    let path = ptx_path.with_extension("cubin");
    if let Err(e) = std::fs::write(&path, cubin) {
        eprintln!("warpdiff: --gpu-dump: {}: {e}", path.display());
    }
}

/// `ptxas --version`'s release line, if `ptxas` runs.
pub fn ptxas_version() -> Option<String> {
    let out = Command::new("ptxas").arg("--version").output().ok()?;
    if !out.status.success() {
        return None;
    }
    let text = String::from_utf8_lossy(&out.stdout);
    let line = text
        .lines()
        .rev()
        .find(|l| l.contains("release"))
        .unwrap_or("ptxas");
    Some(line.trim().to_string())
}

/// Compiles `ptx` to a cubin for `arch` (`sm_90`) with `ptxas`.
fn ptxas_compile(ptx: &[u8], opt_level: Option<u32>, arch: &str) -> Result<Vec<u8>, String> {
    static N: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);
    let n = N.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    let base = std::env::temp_dir().join(format!("warpdiff-ptxas-{}-{n}", std::process::id()));
    let (src, bin) = (base.with_extension("ptx"), base.with_extension("cubin"));
    std::fs::write(&src, ptx).map_err(|e| format!("{}: {e}", src.display()))?;
    let out = Command::new("ptxas")
        .arg(format!("-arch={arch}"))
        .arg(format!("-O{}", opt_level.unwrap_or(3)))
        .arg(&src)
        .arg("-o")
        .arg(&bin)
        .output();
    let _ = std::fs::remove_file(&src);
    let out = out.map_err(|e| format!("running ptxas: {e}"))?;
    if !out.status.success() {
        let _ = std::fs::remove_file(&bin);
        return Err(format!(
            "ptxas: {}",
            String::from_utf8_lossy(&out.stderr)
                .lines()
                .filter(|l| !l.contains("warning"))
                .collect::<Vec<_>>()
                .join("; ")
        ));
    }
    let cubin = std::fs::read(&bin).map_err(|e| format!("{}: {e}", bin.display()));
    let _ = std::fs::remove_file(&bin);
    cubin
}

/// The helper process: compiles requests from stdin with `compiler` for
/// GPU `device` until stdin closes. Returns the exit status.
pub fn worker_main(compiler: Compiler, device: usize) -> u8 {
    let ctx = match driver::open_context(device) {
        Ok(c) => c,
        Err(e) => {
            eprintln!("warpdiff {WORKER_COMMAND}: {e}");
            return 2;
        }
    };
    if let Err(e) = ctx.bind_to_thread() {
        eprintln!("warpdiff {WORKER_COMMAND}: binding the context: {e:?}");
        return 2;
    }
    let arch = match ctx.compute_capability() {
        Ok((major, minor)) => format!("sm_{major}{minor}"),
        Err(_) => "sm_90".to_string(),
    };
    let use_ptxas = compiler == Compiler::Ptxas;
    let stdin = io::stdin();
    let mut input = stdin.lock();
    let stdout = io::stdout();
    let mut output = stdout.lock();
    loop {
        let mut opt = [0u8; 4];
        if input.read_exact(&mut opt).is_err() {
            return 0; // the parent closed the pipe
        }
        let opt = u32::from_le_bytes(opt);
        let Ok(n) = read_u64(&mut input) else {
            return 2;
        };
        let mut ptx = vec![0u8; n as usize];
        if input.read_exact(&mut ptx).is_err() {
            return 2;
        }
        let opt = (opt != u32::MAX).then_some(opt);
        let compiled = if use_ptxas {
            ptxas_compile(&ptx, opt, &arch)
        } else {
            driver::link_ptx(&ptx, opt)
        };
        let (status, bytes) = match compiled {
            Ok(cubin) => (0u8, cubin),
            Err(log) => (1u8, log.into_bytes()),
        };
        let mut reply = Vec::with_capacity(9 + bytes.len());
        reply.push(status);
        reply.extend((bytes.len() as u64).to_le_bytes());
        reply.extend(bytes);
        if output
            .write_all(&reply)
            .and_then(|_| output.flush())
            .is_err()
        {
            return 2;
        }
    }
}

#[cfg(all(test, unix))]
mod tests {
    use super::Worker;
    use std::process::{Command, Stdio};
    use std::sync::mpsc::channel;

    /// A worker around a shell that runs `script` (its pipes unused).
    fn worker(script: &str) -> Worker {
        let mut child = Command::new("sh")
            .args(["-c", script])
            .stdin(Stdio::piped())
            .stdout(Stdio::null())
            .spawn()
            .expect("sh starts");
        let stdin = child.stdin.take().expect("a pipe");
        let (_tx, replies) = channel();
        Worker {
            child,
            stdin,
            replies,
        }
    }

    /// The message of a helper that did not answer says how it ended: a
    /// compiler crash (SIGSEGV) is told from an exit and from a helper
    /// still running.
    #[test]
    fn a_dead_helper_says_how_it_ended() {
        assert_eq!(
            worker("kill -SEGV $$").death(),
            "the helper died of SIGSEGV"
        );
        assert_eq!(
            worker("kill -ABRT $$").death(),
            "the helper died of SIGABRT"
        );
        assert_eq!(
            worker("kill -KILL $$").death(),
            "the helper was killed (SIGKILL)"
        );
        assert_eq!(
            worker("kill -TERM $$").death(),
            "the helper died of signal 15"
        );
        assert_eq!(worker("exit 3").death(), "the helper exited with status 3");
        let mut alive = worker("sleep 5");
        assert_eq!(alive.death(), "the helper was still running");
    }
}
