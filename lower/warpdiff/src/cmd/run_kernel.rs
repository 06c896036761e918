//! `warpdiff run kernel.ptx --launch kernel.launch` (or `--kernel NAME
//! --grid X --block X --buffer ... --param ...`): launch a PTX module's
//! kernel on one engine (`--engine interp|jit|gpu`) and print every buffer
//! after the run (issue #13). `WARPDIFF_TIMINGS=1` prints on stderr
//! where the time went (reading, compiling, running, printing).

use crate::cli::{KernelArgs, RunArgs};
use crate::engines::kernel::{self, KernelRunError};
use crate::{errln, outln};
use std::path::Path;
use std::time::{Duration, Instant};
use warp_core::ir::Module;
use warp_core::launch::{
    compare, parse_dims, parse_expected, write_line_threads, Buffer, BufferOut, Launch,
    LaunchError, ParamValue,
};
use warp_core::text::parse_module;
use warp_core::ub::{AccessFault, Ub};
use warp_jit::launch::CompiledKernel;
use warp_jit::Tuning;

/// Reads and parses a PTX module file: its text (what the GPU compiles)
/// and the module; the error names the file, line and column.
pub fn read_module(file: &Path) -> Result<(String, Module), String> {
    let name = file.display().to_string();
    let src = std::fs::read_to_string(file).map_err(|e| format!("{name}: cannot read: {e}"))?;
    let module = parse_module(&src).map_err(|e| e.with_file(&name))?;
    Ok((src, module))
}

/// The launch the flags describe, starting from the `--launch` file's.
pub fn launch_of(k: &KernelArgs) -> Result<Launch, String> {
    let mut l = match &k.launch {
        Some(p) => {
            let text = std::fs::read_to_string(p)
                .map_err(|e| format!("{}: cannot read: {e}", p.display()))?;
            let dir = p.parent().unwrap_or(Path::new("."));
            Launch::parse(&text, &p.display().to_string(), dir)?
        }
        None => Launch::new(""),
    };
    if let Some(n) = &k.kernel {
        l.kernel = n.clone();
    }
    if let Some(g) = &k.grid {
        l.grid = parse_dims(g).map_err(|m| format!("--grid {m}"))?;
    }
    if let Some(n) = k.shared {
        l.shared = n;
    }
    if let Some(b) = &k.block {
        l.block = parse_dims(b).map_err(|m| format!("--block {m}"))?;
    }
    for b in &k.buffers {
        let bad = || {
            format!("--buffer `{b}`: expected NAME=u32:W0,W1,..., NAME=fill:WORD*COUNT or NAME=file:PATH")
        };
        let (name, spec) = b.split_once('=').ok_or_else(bad)?;
        let bytes = if let Some(ws) = spec.strip_prefix("u32:") {
            let mut v = Vec::new();
            for (i, w) in ws.split(',').filter(|w| !w.is_empty()).enumerate() {
                let x = u32::from_str_radix(w.trim_start_matches("0x"), 16).map_err(|_| {
                    format!(
                        "--buffer `{b}`: word {} `{w}` is not a hex 32-bit word (NAME=u32:W0,W1,... takes hex words, e.g. u32:1,ff,0x10)",
                        i + 1
                    )
                })?;
                v.extend_from_slice(&x.to_le_bytes());
            }
            v
        } else if let Some(f) = spec.strip_prefix("fill:") {
            let (w, n) = f.split_once('*').ok_or_else(bad)?;
            let x = u32::from_str_radix(w.trim_start_matches("0x"), 16).map_err(|_| {
                format!("--buffer `{b}`: `{w}` is not a hex 32-bit word (NAME=fill:WORD*COUNT)")
            })?;
            let n: usize = n.parse().map_err(|_| {
                format!("--buffer `{b}`: `{n}` is not a word count (NAME=fill:WORD*COUNT)")
            })?;
            x.to_le_bytes().repeat(n)
        } else if let Some(p) = spec.strip_prefix("file:") {
            std::fs::read(p).map_err(|e| format!("--buffer `{b}`: cannot read `{p}`: {e}"))?
        } else {
            return Err(bad());
        };
        l.buffers.retain(|x| x.name != name);
        l.buffers.push(Buffer {
            name: name.to_string(),
            bytes,
        });
    }
    for p in &k.params {
        let bad = || format!("--param `{p}`: expected NAME=buffer:BUF or NAME=VALUE");
        let (name, v) = p.split_once('=').ok_or_else(bad)?;
        let value = if let Some(buf) = v.strip_prefix("buffer:") {
            let i = l
                .buffers
                .iter()
                .position(|b| b.name == buf)
                .ok_or_else(|| format!("--param `{p}`: no buffer named `{buf}`"))?;
            ParamValue::Buffer(i)
        } else if let Some(h) = v.strip_prefix("0x") {
            ParamValue::Value(u64::from_str_radix(h, 16).map_err(|_| bad())?)
        } else if let Some(d) = v.strip_prefix('-') {
            ParamValue::Value(d.parse::<u64>().map_err(|_| bad())?.wrapping_neg())
        } else {
            ParamValue::Value(v.parse().map_err(|_| bad())?)
        };
        l.params.retain(|(n, _)| n != name);
        l.params.push((name.to_string(), value));
    }
    if l.kernel.is_empty() {
        return Err("no kernel to run: give --launch FILE or --kernel NAME".into());
    }
    Ok(l)
}

/// Runs the kernel launch and returns the exit status (0 ran, and matched
/// --expect if given; 1 --expect differs; 2 error: bad input, a launch
/// that does not fit the kernel, a warp out of fuel, an engine failure; 3
/// undefined behaviour, a faulty memory access among it: the same access
/// is 3 on the interpreter, which finds it undefined, and on the JIT,
/// which faults on it).
pub fn run(o: &RunArgs) -> u8 {
    match run_inner(o) {
        Ok(code) => code,
        Err(m) => {
            errln!("warpdiff run: {m}");
            2
        }
    }
}

/// A buffer after the run, as printed: its bytes and, per byte, whether
/// it is defined (`None`: every byte, as the JIT reports).
struct Ran {
    name: String,
    bytes: Vec<u8>,
    defined: Option<Vec<bool>>,
}

impl Ran {
    /// The buffer as the expected-output comparison takes it.
    fn out(&self) -> BufferOut {
        BufferOut {
            name: self.name.clone(),
            bytes: self.bytes.clone(),
            defined: self
                .defined
                .clone()
                .unwrap_or_else(|| vec![true; self.bytes.len()]),
        }
    }
}

/// Where a run's time went, printed on stderr at the end when
/// `WARPDIFF_TIMINGS=1` (issue #36: what a one-off launch pays besides
/// the kernel).
struct Timings {
    on: bool,
    start: Instant,
    parts: Vec<(&'static str, Duration)>,
}

impl Timings {
    fn new() -> Timings {
        Timings {
            on: std::env::var_os("WARPDIFF_TIMINGS").is_some_and(|v| v == "1"),
            start: Instant::now(),
            parts: Vec::new(),
        }
    }

    /// `what` took from `since` to now.
    fn since(&mut self, what: &'static str, since: Instant) {
        self.parts.push((what, since.elapsed()));
    }

    fn print(&self) {
        if !self.on {
            return;
        }
        let ms = |d: Duration| format!("{:.1} ms", d.as_secs_f64() * 1e3);
        let parts: Vec<String> = self
            .parts
            .iter()
            .map(|(w, d)| format!("{w} {}", ms(*d)))
            .collect();
        errln!(
            "timings: {}; total {}",
            parts.join(", "),
            ms(self.start.elapsed())
        );
    }
}

fn run_inner(o: &RunArgs) -> Result<u8, String> {
    let mut timings = Timings::new();
    let [file] = o.files.as_slice() else {
        return Err("a kernel launch takes one PTX module file".into());
    };
    let name = file.display().to_string();
    let engine = kernel::kernel_engine(&o.engine)?;
    let t = Instant::now();
    let (src, module) = read_module(file)?;
    timings.since("module", t);
    let (launch, ran) = if engine == "jit" {
        match run_jit(o, &name, &module, &mut timings)? {
            (launch, Ok(ran)) => (launch, ran),
            ((launch, steps), Err(fault)) => {
                header(&name, &launch, engine, &steps);
                return Ok(undefined(&name, Some(&fault.to_ub())));
            }
        }
    } else {
        let t = Instant::now();
        let launch = launch_of(&o.kernel)?;
        timings.since("launch and buffers read", t);
        let t = Instant::now();
        let out = match kernel::run(engine, &src, &module, &launch) {
            Ok(out) if out.ub.is_some() => {
                timings.since("run", t);
                let steps = format!(", {} warp steps", out.steps);
                header(&name, &launch, engine, &steps);
                return Ok(undefined(&name, out.ub.as_ref()));
            }
            Ok(out) => out,
            Err(KernelRunError::Skip(m)) => {
                return Err(format!("{name}: {engine} cannot run here: {m}"))
            }
            Err(KernelRunError::Failed(m)) => return Err(format!("{name}: {m}")),
        };
        timings.since("run", t);
        // Only the interpreter counts warp steps.
        let steps = if engine == "interp" {
            format!(", {} warp steps", out.steps)
        } else {
            String::new()
        };
        let ran = out
            .buffers
            .into_iter()
            .map(|b| Ran {
                name: b.name,
                bytes: b.bytes,
                defined: Some(b.defined),
            })
            .collect();
        ((launch, steps), ran)
    };
    let (launch, steps) = launch;
    let t = Instant::now();
    let threads = std::thread::available_parallelism().map_or(1, |n| n.get());
    header(&name, &launch, engine, &steps);
    for b in &ran {
        crate::output::out_with(|w| {
            write_line_threads(w, &b.name, &b.bytes, b.defined.as_deref(), threads)
        });
    }
    timings.since("print", t);
    if let Some(dir) = &o.kernel.out {
        std::fs::create_dir_all(dir).map_err(|e| format!("{}: {e}", dir.display()))?;
        for b in &ran {
            let p = dir.join(format!("{}.bin", b.name));
            std::fs::write(&p, &b.bytes).map_err(|e| format!("{}: {e}", p.display()))?;
        }
    }
    timings.print();
    if let Some(e) = &o.kernel.expect {
        let en = e.display().to_string();
        let text = std::fs::read_to_string(e).map_err(|x| format!("{en}: cannot read: {x}"))?;
        let want = parse_expected(&text, &en)?;
        let outs: Vec<BufferOut> = ran.iter().map(Ran::out).collect();
        let diffs = compare(&outs, &want);
        if !diffs.is_empty() {
            outln!("{en}: {} word(s) differ:", diffs.len());
            for d in diffs {
                outln!("  {d}");
            }
            return Ok(1);
        }
        outln!("expect: all {} buffers match {en}", want.len());
    }
    Ok(0)
}

/// Prints the undefined behaviour that ended a run of the kernel in file
/// `name` (where and what), the same line whichever engine found it;
/// the exit status, 3.
fn undefined(name: &str, ub: Option<&(String, Ub)>) -> u8 {
    if let Some((at, ub)) = ub {
        outln!("{name}:{}: {at}: {ub}", ub.line);
    }
    3
}

/// The line before the buffers: file, kernel, grid, block, engine.
fn header(name: &str, launch: &Launch, engine: &str, steps: &str) {
    outln!(
        "== {name} kernel {} grid {:?} block {:?} ({}{steps}) ==",
        launch.kernel,
        launch.grid,
        launch.block,
        kernel::describe(engine),
    );
}

/// The most warps per thread a launch may have for `warpdiff run` to
/// compile a loop-free kernel with the fast-compile tuning
/// ([`jit_tuning`]). Measured (docs/benchmarks.md): the fast-code compile
/// of saxpy took 0.5 ms per PTX instruction more than the fast-compile
/// one (the Xeon, 60a8715: 14–22 ms against 8–11 ms for 20
/// instructions), and fast-compile's code 27–90 ns more per instruction
/// a warp executes, on one thread (the kernel bench's six kernels with
/// `BENCH_TUNING=fast-compile`, the 2-core machine, 677c1e4). A
/// loop-free kernel executes each instruction at most once per warp and
/// convergence group, so at 4,096 warps per thread the slower code costs
/// at most about 0.37 ms per instruction: less than the compile it
/// saves.
pub const FAST_COMPILE_WARPS_PER_THREAD: u64 = 4096;

/// The tuning `warpdiff run` compiles kernel `name` of `module` with for a
/// launch of `grid` x `block` on `threads` threads: fast-compile when the
/// kernel has no loop (no `bra` back to or before itself) and the launch
/// at most [`FAST_COMPILE_WARPS_PER_THREAD`] warps per thread (its run
/// then costs less than the fast-code compile saved), fast-code
/// otherwise; `WARPDIFF_JIT_TUNING=fast-code` or `fast-compile` forces
/// one. Only the time changes: both tunings compute the same bytes.
pub fn jit_tuning(
    module: &Module,
    name: &str,
    grid: [u32; 3],
    block: [u32; 3],
    threads: usize,
) -> Tuning {
    if let Some(t) = forced_tuning() {
        return t;
    }
    let Some(k) = module.kernel(name) else {
        return Tuning::FastCode;
    };
    let prog = &k.program;
    let loops = prog.insts.iter().enumerate().any(|(i, inst)| {
        inst.op
            .branch_target()
            .is_some_and(|l| prog.label_target(l) <= i)
    });
    let ctas: u64 = grid.iter().map(|&d| u64::from(d)).product();
    let threads_per_cta: u64 = block.iter().map(|&d| u64::from(d)).product();
    let warps = ctas.saturating_mul(threads_per_cta.div_ceil(32));
    if !loops && warps <= FAST_COMPILE_WARPS_PER_THREAD.saturating_mul(threads.max(1) as u64) {
        Tuning::FastCompile
    } else {
        Tuning::FastCode
    }
}

/// The tuning `WARPDIFF_JIT_TUNING` (`fast-code` or `fast-compile`)
/// forces, if any.
fn forced_tuning() -> Option<Tuning> {
    match std::env::var("WARPDIFF_JIT_TUNING").as_deref() {
        Ok("fast-code") => Some(Tuning::FastCode),
        Ok("fast-compile") => Some(Tuning::FastCompile),
        _ => None,
    }
}

/// A launch on the JIT: the launch and its header's steps (none), and
/// its buffers after the run, or the kernel's fault.
type JitRun = ((Launch, String), Result<Vec<Ran>, AccessFault>);

/// The launch on the JIT, for a one-off command: the kernel compiled
/// while the launch's buffers are read (when the kernel is known before
/// the launch is: `--kernel`, or the module's only kernel), then run on
/// the bytes read, in place (no copy in or out). Its tuning is
/// [`jit_tuning`]'s when `--grid` and `--block` give the launch's shape
/// before it is read, else fast-code (or what `WARPDIFF_JIT_TUNING`
/// forces).
fn run_jit(
    o: &RunArgs,
    name: &str,
    module: &Module,
    timings: &mut Timings,
) -> Result<JitRun, String> {
    let threads = std::thread::available_parallelism().map_or(1, |n| n.get());
    let guess = o
        .kernel
        .kernel
        .clone()
        .or_else(|| match module.kernels.as_slice() {
            [k] => Some(k.name.clone()),
            _ => None,
        });
    // The launch's shape from the flags alone, checked as `launch_of`
    // checks it (an error there is reported after the read).
    let shape = match (&o.kernel.grid, &o.kernel.block) {
        (Some(g), Some(b)) => parse_dims(g).ok().zip(parse_dims(b).ok()),
        _ => None,
    };
    let tuning = |k: &str| match shape {
        Some((g, b)) => jit_tuning(module, k, g, b, threads),
        None => forced_tuning().unwrap_or(Tuning::FastCode),
    };
    let compile = |k: &str| {
        let t = Instant::now();
        let tuning = tuning(k);
        (
            CompiledKernel::compile_with(module, k, tuning, tuning.part_insts()),
            t.elapsed(),
            tuning,
        )
    };
    let (launch, compiled, took) = std::thread::scope(|sc| {
        let early = guess.clone().map(|k| sc.spawn(move || compile(&k)));
        let t = Instant::now();
        let launch = launch_of(&o.kernel);
        let read = t.elapsed();
        let early = early.map(|h| h.join().unwrap_or_else(|p| std::panic::resume_unwind(p)));
        (launch, early, read)
    });
    timings.parts.push(("launch and buffers read", took));
    let mut launch = launch?;
    let (compiled, took, tuning) = match compiled {
        Some(c) if guess.as_deref() == Some(launch.kernel.as_str()) => c,
        _ => compile(&launch.kernel),
    };
    timings.parts.push((
        match tuning {
            Tuning::FastCompile => "compile (fast-compile, beside the read)",
            Tuning::FastCode | Tuning::Inline => "compile (fast-code, beside the read)",
        },
        took,
    ));
    let compiled = compiled.map_err(|e| format!("{name}: {e}"))?;
    let t = Instant::now();
    let mut bytes: Vec<Vec<u8>> = launch
        .buffers
        .iter_mut()
        .map(|b| std::mem::take(&mut b.bytes))
        .collect();
    match compiled.run_in_place(&launch, &mut bytes) {
        Ok(()) => {}
        Err(LaunchError::Fault(f)) => return Ok(((launch, String::new()), Err(f))),
        Err(e) => return Err(format!("{name}: {e}")),
    }
    timings.since("run", t);
    let ran = launch
        .buffers
        .iter()
        .zip(bytes)
        .map(|(b, bytes)| Ran {
            name: b.name.clone(),
            bytes,
            defined: None,
        })
        .collect();
    Ok(((launch, String::new()), Ok(ran)))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A kernel that loops: `bra` back to a label before it.
    const LOOPED: &str = ".version 9.0\n.target sm_90\n.address_size 64\n.visible .entry looped()\n{\n.reg .pred %p<2>;\n.reg .b32 %r<3>;\nmov.u32 %r1, 0;\n$L1:\nadd.s32 %r1, %r1, 1;\nsetp.lt.u32 %p1, %r1, 10;\n@%p1 bra $L1;\nret;\n}\n";

    /// The tuning rule by hand: saxpy (no loop) over 4,096 CTAs of 8 warps
    /// is 32,768 warps, 2,048 per thread on 16 threads (fast-compile),
    /// 4,096 on 8 (still), 16,384 on 2 (fast-code); a kernel with a loop is
    /// fast-code even for one warp.
    #[test]
    fn fast_compile_only_for_small_loop_free_launches() {
        if std::env::var_os("WARPDIFF_JIT_TUNING").is_some() {
            panic!("unset WARPDIFF_JIT_TUNING to run this test: it forces the tuning");
        }
        let path = concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/../../corpus/kernels/nvcc/saxpy.ptx"
        );
        let (_, saxpy) = read_module(Path::new(path)).expect("the corpus's saxpy");
        let (g, b) = ([4096, 1, 1], [256, 1, 1]);
        assert_eq!(jit_tuning(&saxpy, "saxpy", g, b, 16), Tuning::FastCompile);
        assert_eq!(jit_tuning(&saxpy, "saxpy", g, b, 8), Tuning::FastCompile);
        assert_eq!(jit_tuning(&saxpy, "saxpy", g, b, 2), Tuning::FastCode);
        assert_eq!(
            jit_tuning(&saxpy, "saxpy", [4097, 1, 1], b, 8),
            Tuning::FastCode
        );
        let looped = parse_module(LOOPED).expect("a loop");
        assert_eq!(
            jit_tuning(&looped, "looped", [1; 3], [32, 1, 1], 16),
            Tuning::FastCode
        );
        assert_eq!(
            jit_tuning(&looped, "none", [1; 3], [32, 1, 1], 16),
            Tuning::FastCode
        );
    }
}
