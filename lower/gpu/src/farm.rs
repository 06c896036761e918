//! Compiling PTX in helper processes.
//!
//! The driver's PTX compiler is the slowest step of a GPU batch (about
//! 10 ms per generated program on an H200 host), and inside one process
//! the driver serialises it: 16 compile threads ran only 1.75x faster than
//! one, while 16 `ptxas` processes on the same module ran 10x faster than
//! one. So `warpdiff` can start helper processes (`warpdiff
//! gpu-compile-worker`), each with its own CUDA context, that turn PTX into
//! a cubin with the driver's own compiler (`cuLinkCreate` /
//! `cuLinkAddData` / `cuLinkComplete`: the same compiler and options as
//! `cuModuleLoadDataEx` on PTX); the parent loads the cubin, which needs no
//! compiling. A helper that fails or dies is dropped and the chunk is
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
use std::path::Path;
use std::process::{Child, ChildStdin, ChildStdout, Command, Stdio};
use std::sync::Mutex;

/// The subcommand a helper process runs.
pub const WORKER_COMMAND: &str = "gpu-compile-worker";

/// A pool of helper processes.
pub struct Farm {
    idle: Mutex<Vec<Worker>>,
}

struct Worker {
    child: Child,
    stdin: ChildStdin,
    stdout: BufReader<ChildStdout>,
}

impl Drop for Worker {
    fn drop(&mut self) {
        // Closing stdin ends the helper's loop; reap it so no zombie stays.
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

fn read_u64(r: &mut impl Read) -> io::Result<u64> {
    let mut b = [0u8; 8];
    r.read_exact(&mut b)?;
    Ok(u64::from_le_bytes(b))
}

impl Farm {
    /// Starts `n` helpers running `exe gpu-compile-worker --compiler C`.
    pub fn spawn(exe: &Path, n: usize, compiler: Compiler) -> io::Result<Farm> {
        let mut workers = Vec::with_capacity(n);
        for _ in 0..n {
            let mut child = Command::new(exe)
                .arg(WORKER_COMMAND)
                .args(["--compiler", compiler.name()])
                .stdin(Stdio::piped())
                .stdout(Stdio::piped())
                .stderr(Stdio::inherit())
                .spawn()?;
            let (Some(stdin), Some(stdout)) = (child.stdin.take(), child.stdout.take()) else {
                let _ = child.kill();
                return Err(io::Error::other("no pipes to the helper"));
            };
            workers.push(Worker {
                child,
                stdin,
                stdout: BufReader::new(stdout),
            });
        }
        Ok(Farm {
            idle: Mutex::new(workers),
        })
    }

    /// How many helpers are alive and idle.
    pub fn idle(&self) -> usize {
        self.idle.lock().map_or(0, |w| w.len())
    }

    /// Compiles `ptx` in an idle helper: `None` when no helper is free or
    /// the helper failed (the caller compiles it itself), else the cubin or
    /// the compiler's error log.
    pub fn compile(&self, ptx: &str, opt_level: Option<u32>) -> Option<Result<Vec<u8>, String>> {
        let mut w = self.idle.lock().ok()?.pop()?;
        match Self::ask(&mut w, ptx, opt_level) {
            Ok(r) => {
                if let Ok(mut idle) = self.idle.lock() {
                    idle.push(w);
                }
                Some(r)
            }
            // The helper is gone or confused: drop it (killing it).
            Err(_) => None,
        }
    }

    fn ask(
        w: &mut Worker,
        ptx: &str,
        opt_level: Option<u32>,
    ) -> io::Result<Result<Vec<u8>, String>> {
        let mut req = Vec::with_capacity(12 + ptx.len());
        req.extend(opt_level.unwrap_or(u32::MAX).to_le_bytes());
        req.extend((ptx.len() as u64).to_le_bytes());
        req.extend(ptx.as_bytes());
        w.stdin.write_all(&req)?;
        w.stdin.flush()?;
        let mut status = [0u8; 1];
        w.stdout.read_exact(&mut status)?;
        let n = read_u64(&mut w.stdout)? as usize;
        let mut bytes = vec![0u8; n];
        w.stdout.read_exact(&mut bytes)?;
        Ok(match status[0] {
            0 => Ok(bytes),
            _ => Err(String::from_utf8_lossy(&bytes).into_owned()),
        })
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

/// The helper process: compiles requests from stdin with `compiler` until
/// stdin closes. Returns the exit status.
pub fn worker_main(compiler: Compiler) -> u8 {
    let ctx = match driver::open_context(0) {
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
