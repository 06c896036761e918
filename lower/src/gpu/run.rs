//! Running emitted PTX on a real GPU through `cudarc`, with the driver
//! loaded at run time: where no CUDA driver is installed, [`Gpu::open`]
//! says so and nothing else changes.
//!
//! A batch of jobs is grouped by `.version`/`.target` and cut into up to
//! [`Gpu::with_load_threads`] chunks; each chunk becomes one module (one
//! driver compile, the chunks compiled in parallel threads), one input and
//! one output buffer, and one launch per distinct program (one warp per
//! job). Modules are loaded with `cuModuleLoadDataEx` so that the PTX
//! compiler's error log names what it refused. A batch still running after
//! the deadline is reported as a hang; the GPU is then marked dead and never
//! used again in this process (a hung kernel cannot be stopped; its memory
//! is leaked rather than waited for).

use super::emit::{
    decode_outputs, emit_module, encode_inputs, module_target, Job, Module, BLOCK_THREADS,
};
use super::farm::Farm;
use cudarc::driver::sys;
use cudarc::driver::{CudaContext, CudaStream, DevicePtr};
use std::collections::BTreeMap;
use std::ffi::{c_void, CString};
use std::fmt;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};
use warp_core::engine::Skip;
use warp_core::interp::Outcome;
use warp_core::ir::{Program, Target, Version};

/// A chunk gets at least this many jobs before the batch is cut into more
/// modules (a module per handful of jobs would cost more in launches and
/// copies than parallel compiling saves).
const MIN_JOBS_PER_MODULE: usize = 32;

/// Where the time of one batch went (wall-clock; `emit` is summed over the
/// compile threads, so it can exceed `load`, which includes it).
#[derive(Clone, Copy, Debug, Default)]
pub struct Timing {
    /// PTX emission (summed over threads).
    pub emit: Duration,
    /// Emission plus the driver's PTX compile, all chunks in parallel.
    pub load: Duration,
    /// Input copies and kernel launches (enqueueing).
    pub launch: Duration,
    /// Waiting for the kernels.
    pub wait: Duration,
    /// Reading the results back and decoding them.
    pub copy: Duration,
    /// Modules compiled.
    pub modules: usize,
    /// Kernels (distinct programs) launched.
    pub kernels: usize,
    /// PTX text compiled, in bytes.
    pub ptx_bytes: usize,
}

impl Timing {
    /// Adds `o` into `self`.
    pub fn add(&mut self, o: &Timing) {
        self.emit += o.emit;
        self.load += o.load;
        self.launch += o.launch;
        self.wait += o.wait;
        self.copy += o.copy;
        self.modules += o.modules;
        self.kernels += o.kernels;
        self.ptx_bytes += o.ptx_bytes;
    }
}

/// A module loaded through `cuModuleLoadDataEx`, unloaded on drop.
struct RawModule {
    module: sys::CUmodule,
    ctx: Arc<CudaContext>,
}

// SAFETY: a CUmodule handle may be used from any thread of the process once
// its context is bound there (`RawModule` binds it before each use).
unsafe impl Send for RawModule {}
// SAFETY: as above; the handle is only read.
unsafe impl Sync for RawModule {}

/// A kernel of a [`RawModule`] (valid while the module is).
#[derive(Clone, Copy)]
struct Function(sys::CUfunction);

// SAFETY: a CUfunction handle is a plain handle usable from any thread.
unsafe impl Send for Function {}
// SAFETY: as above.
unsafe impl Sync for Function {}

impl RawModule {
    fn function(&self, name: &str) -> Result<Function, GpuError> {
        let c =
            CString::new(name).map_err(|_| GpuError::Driver(format!("kernel name {name:?}")))?;
        driver("binding the context", self.ctx.bind_to_thread())?;
        // SAFETY: `self.module` is a loaded module of the bound context.
        driver(&format!("kernel {name}"), unsafe {
            cudarc::driver::result::module::get_function(self.module, c)
        })
        .map(Function)
    }
}

impl Drop for RawModule {
    fn drop(&mut self) {
        if self.ctx.bind_to_thread().is_ok() {
            // SAFETY: the module was loaded by `load_ptx` and is unloaded
            // once; no launch of it is pending (a hang leaks it instead).
            let _ = unsafe { sys::cuModuleUnload(self.module) };
        }
    }
}

/// The options of a PTX compile: the error log into `log` and, when given,
/// the optimisation level (`CU_JIT_OPTIMIZATION_LEVEL`, 0–4). The values
/// point into `log`, which must outlive the compile.
pub(super) fn jit_options(
    log: &mut [u8],
    opt_level: Option<u32>,
) -> (Vec<sys::CUjit_option>, Vec<*mut c_void>) {
    let mut options = vec![
        sys::CUjit_option::CU_JIT_ERROR_LOG_BUFFER,
        sys::CUjit_option::CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES,
    ];
    let mut values: Vec<*mut c_void> = vec![log.as_mut_ptr().cast(), log.len() as *mut c_void];
    if let Some(o) = opt_level {
        options.push(sys::CUjit_option::CU_JIT_OPTIMIZATION_LEVEL);
        values.push(o as usize as *mut c_void);
    }
    (options, values)
}

/// The result code and the compiler's error log (up to its NUL), for
/// messages.
pub(super) fn log_text(log: &[u8], r: sys::CUresult) -> String {
    let end = log.iter().position(|&b| b == 0).unwrap_or(log.len());
    let text = String::from_utf8_lossy(&log[..end]).trim().to_string();
    format!("{r:?}{}{text}", if text.is_empty() { "" } else { ": " })
}

/// Loads a module image (NUL-terminated PTX, which the driver's PTX
/// compiler compiles, or a cubin); on failure, the compiler's error log.
/// `opt_level` is `CU_JIT_OPTIMIZATION_LEVEL` (0–4; `None` = the driver's
/// default, 4).
fn load_image(
    ctx: &Arc<CudaContext>,
    image: &[u8],
    opt_level: Option<u32>,
) -> Result<RawModule, String> {
    ctx.bind_to_thread()
        .map_err(|e| format!("binding the context: {e:?}"))?;
    let mut log = vec![0u8; 16 * 1024];
    let (mut options, mut values) = jit_options(&mut log, opt_level);
    let mut module: sys::CUmodule = std::ptr::null_mut();
    // SAFETY: `image` is a NUL-terminated PTX text or a cubin (whose
    // header gives its size), alive for the call;
    // `options` and `values` have the same length, the log option's value
    // points to `log`, whose length is the size option's value (passed by
    // value, as the driver API wants for these options).
    let r = unsafe {
        sys::cuModuleLoadDataEx(
            &mut module,
            image.as_ptr().cast(),
            options.len() as u32,
            options.as_mut_ptr(),
            values.as_mut_ptr(),
        )
    };
    if r != sys::CUresult::CUDA_SUCCESS {
        return Err(log_text(&log, r));
    }
    Ok(RawModule {
        module,
        ctx: ctx.clone(),
    })
}

/// A compiled chunk of a batch, ready to launch.
struct Loaded {
    module: Module,
    /// Owns the kernels in `funcs`: unloading waits for this drop.
    _raw: RawModule,
    funcs: Vec<Function>,
    /// Per kernel, where its jobs' words start in the input and output
    /// buffers.
    offsets: Vec<(usize, usize)>,
    input: Vec<u64>,
    out_words: usize,
    emit_time: Duration,
}

/// The first instructions of a program, for error messages.
fn first_lines(p: &Program) -> String {
    let text: Vec<String> = p
        .insts
        .iter()
        .take(3)
        .map(|i| format!("line {}: `{}`", i.line, warp_core::text::inst_text(p, i)))
        .collect();
    if text.is_empty() {
        "an empty program".into()
    } else {
        text.join("; ")
    }
}

/// Why a job produced no outcome.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum GpuError {
    /// The GPU cannot run this program (e.g. it needs sm_100a).
    Skip(Skip),
    /// The driver refused or failed (PTX JIT error, launch failure, out of
    /// memory), naming what.
    Driver(String),
    /// The kernel did not finish within the deadline; the GPU is now off.
    Hang(String),
    /// A kernel faulted (e.g. `CUDA_ERROR_ILLEGAL_INSTRUCTION`): the
    /// context is unusable, so the GPU is now off.
    Fault(String),
    /// The GPU was switched off earlier (after a hang or a fault).
    Dead,
}

impl fmt::Display for GpuError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            GpuError::Skip(s) => write!(f, "gpu skips it: {s}"),
            GpuError::Driver(m) => write!(f, "gpu driver error: {m}"),
            GpuError::Hang(m) => write!(f, "gpu hang: {m}"),
            GpuError::Fault(m) => write!(f, "gpu fault: {m}"),
            GpuError::Dead => write!(f, "the gpu is off after an earlier hang or fault"),
        }
    }
}

/// An open GPU.
pub struct Gpu {
    ctx: Arc<CudaContext>,
    stream: Arc<CudaStream>,
    /// `NVIDIA H200 (sm_90, driver 13000)`.
    pub description: String,
    /// Compute capability.
    pub cc: (i32, i32),
    /// The device's ordinal (0 for the first GPU).
    pub ordinal: usize,
    deadline: Duration,
    load_threads: usize,
    jit_opt_level: Option<u32>,
    farm: Option<Farm>,
    /// `ptxas --version` when the helpers run `ptxas`.
    ptxas: Option<String>,
    dead: AtomicBool,
    lock: Mutex<()>,
}

/// How many GPUs the driver sees (0 without a driver).
pub fn device_count() -> usize {
    // SAFETY: as in `open_context`: only tries to load the driver library.
    if !unsafe { cudarc::driver::sys::is_culib_present() } {
        return 0;
    }
    std::panic::catch_unwind(CudaContext::device_count)
        .ok()
        .and_then(|r| r.ok())
        .map_or(0, |n| n.max(0) as usize)
}

/// A context on device 0, if a driver and a device are there.
pub(crate) fn open_context() -> Result<Arc<CudaContext>, NoGpu> {
    open_context_on(0)
}

/// A context on device `ordinal`.
fn open_context_on(ordinal: usize) -> Result<Arc<CudaContext>, NoGpu> {
    // SAFETY: `is_culib_present` only tries to load the driver library
    // and reports whether it could; it has no preconditions.
    if !unsafe { cudarc::driver::sys::is_culib_present() } {
        return Err(NoGpu("the CUDA driver library is not installed".into()));
    }
    // cudarc panics in some failure paths; a missing device must be a
    // message, not a crash.
    std::panic::catch_unwind(|| CudaContext::new(ordinal))
        .map_err(|_| NoGpu("the CUDA driver could not be initialised".into()))?
        .map_err(|e| NoGpu(format!("{e:?}")))
}

/// Why there is no GPU.
#[derive(Clone, Debug)]
pub struct NoGpu(pub String);

impl fmt::Display for NoGpu {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "no GPU found: {}", self.0)
    }
}

fn driver<T>(what: &str, r: Result<T, cudarc::driver::DriverError>) -> Result<T, GpuError> {
    r.map_err(|e| GpuError::Driver(format!("{what}: {e:?}")))
}

impl Gpu {
    /// Opens device 0, if a driver and a device are there.
    pub fn open() -> Result<Gpu, NoGpu> {
        Gpu::open_device(0)
    }

    /// Opens device `ordinal` (one context and one stream of its own).
    pub fn open_device(ordinal: usize) -> Result<Gpu, NoGpu> {
        let ctx = open_context_on(ordinal)?;
        let name = ctx.name().unwrap_or_else(|_| "unknown GPU".into());
        let cc = ctx.compute_capability().unwrap_or((0, 0));
        let stream = ctx.default_stream();
        let deadline = std::env::var("WARPDIFF_GPU_DEADLINE_MS")
            .ok()
            .and_then(|s| s.parse().ok())
            .map_or(Duration::from_secs(5), Duration::from_millis);
        let load_threads = std::env::var("WARPDIFF_GPU_THREADS")
            .ok()
            .and_then(|s| s.parse().ok())
            .unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get().min(16)));
        // -O0 unless asked otherwise: every GPU divergence the fuzzer found
        // on an H200 at the driver's default (-O4) was the PTX compiler's
        // optimiser (SASS in the corpus cases); at -O0 each one agreed.
        let jit_opt_level = match std::env::var("WARPDIFF_GPU_JIT_O").ok().as_deref() {
            None => Some(0),
            Some("default") => None,
            Some(v) => Some(v.parse().unwrap_or(0)),
        };
        let mut v = 0;
        // SAFETY: writes one int; the driver library is loaded (checked above).
        let driver_version = match unsafe { sys::cuDriverGetVersion(&mut v) } {
            sys::CUresult::CUDA_SUCCESS => format!(", CUDA driver {}.{}", v / 1000, v % 1000 / 10),
            _ => String::new(),
        };
        let opt = match jit_opt_level {
            Some(o) => format!(", PTX JIT -O{o}"),
            None => ", PTX JIT at the driver's default level".to_string(),
        };
        Ok(Gpu {
            description: format!("{name} (sm_{}{}{driver_version}{opt})", cc.0, cc.1),
            ordinal,
            ctx,
            stream,
            cc,
            deadline,
            load_threads: load_threads.max(1),
            jit_opt_level,
            farm: None,
            ptxas: None,
            dead: AtomicBool::new(false),
            lock: Mutex::new(()),
        })
    }

    /// Sets how long a launch may run before it counts as a hang.
    pub fn with_deadline(mut self, d: Duration) -> Self {
        self.deadline = d;
        self
    }

    /// Whether a hang switched the GPU off.
    pub fn is_dead(&self) -> bool {
        self.dead.load(Ordering::Relaxed)
    }

    /// Sets how many threads compile a batch's modules in parallel (the
    /// driver's PTX compiler is the slowest step of a batch).
    pub fn with_load_threads(mut self, n: usize) -> Self {
        self.load_threads = n.max(1);
        self
    }

    /// Compiles in helper processes running `exe gpu-compile-worker` (see
    /// [`super::farm`]), one per compile thread.
    pub fn start_compile_processes(&mut self, exe: &std::path::Path) -> std::io::Result<()> {
        self.farm = Some(Farm::spawn(exe, self.load_threads)?);
        self.ptxas = super::farm::ptxas_version();
        Ok(())
    }

    /// Whether helper processes compile the PTX.
    pub fn compiles_in_processes(&self) -> bool {
        self.farm.as_ref().is_some_and(|f| f.idle() > 0)
    }

    /// Which compiler turns PTX into machine code, as a phrase for
    /// messages and case comments (empty for the driver in this process).
    pub fn compiler(&self) -> String {
        match (&self.farm, &self.ptxas) {
            (Some(_), Some(v)) => format!(", PTX compiled by ptxas ({v}) in helper processes"),
            (Some(_), None) => ", PTX compiled by the driver in helper processes".to_string(),
            (None, _) => String::new(),
        }
    }

    /// Runs every job; one result per job, in order. Only programs the
    /// interpreter ran without undefined behaviour may be sent (UB can hang
    /// a warp forever): the caller's oracle guarantees it.
    pub fn run_batch(&self, jobs: &[Job]) -> Vec<Result<Outcome, GpuError>> {
        self.run_batch_timed(jobs).0
    }

    /// [`Gpu::run_batch`], also saying where the time went.
    pub fn run_batch_timed(&self, jobs: &[Job]) -> (Vec<Result<Outcome, GpuError>>, Timing) {
        self.run_batch_unchecked(jobs)
    }

    /// [`Gpu::run_batch_timed`] without any promise about UB: the hang
    /// guard is what protects the process (used by the hang test).
    pub fn run_batch_unchecked(&self, jobs: &[Job]) -> (Vec<Result<Outcome, GpuError>>, Timing) {
        let _one_at_a_time = self.lock.lock().unwrap_or_else(|p| p.into_inner());
        let mut timing = Timing::default();
        let mut out: Vec<Option<Result<Outcome, GpuError>>> = vec![None; jobs.len()];
        if self.is_dead() {
            return (jobs.iter().map(|_| Err(GpuError::Dead)).collect(), timing);
        }
        // Group by the module each program needs, then cut each group into
        // chunks: one module per chunk, compiled in parallel.
        let mut groups: BTreeMap<String, (Version, Target, Vec<usize>)> = BTreeMap::new();
        for (i, j) in jobs.iter().enumerate() {
            match module_target(j.program) {
                Ok((v, t)) => groups
                    .entry(format!("{v} {t}"))
                    .or_insert((v, t, Vec::new()))
                    .2
                    .push(i),
                Err(s) => out[i] = Some(Err(GpuError::Skip(s))),
            }
        }
        let mut chunks: Vec<(Version, Target, Vec<usize>)> = Vec::new();
        for (_, (v, t, idx)) in groups {
            let n = self
                .load_threads
                .min(idx.len().div_ceil(MIN_JOBS_PER_MODULE))
                .max(1);
            let per = idx.len().div_ceil(n);
            for c in idx.chunks(per) {
                chunks.push((v, t, c.to_vec()));
            }
        }
        let t0 = Instant::now();
        let loaded: Vec<Result<Loaded, GpuError>> = std::thread::scope(|sc| {
            let handles: Vec<_> = chunks
                .iter()
                .map(|(v, t, idx)| {
                    let sub: Vec<Job> = idx.iter().map(|&i| jobs[i]).collect();
                    sc.spawn(move || self.load_chunk(&sub, *v, *t))
                })
                .collect();
            handles
                .into_iter()
                .map(|h| {
                    h.join().unwrap_or_else(|_| {
                        Err(GpuError::Driver("a compile thread panicked".into()))
                    })
                })
                .collect()
        });
        timing.load = t0.elapsed();
        let mut ready = Vec::new();
        for ((_, _, idx), l) in chunks.into_iter().zip(loaded) {
            match l {
                Ok(l) => {
                    timing.emit += l.emit_time;
                    timing.modules += 1;
                    timing.kernels += l.module.kernels.len();
                    timing.ptx_bytes += l.module.ptx.len();
                    ready.push((idx, l));
                }
                Err(e) => {
                    for &i in &idx {
                        out[i] = Some(Err(e.clone()));
                    }
                }
            }
        }
        match self.launch_all(jobs, &ready, &mut timing) {
            Ok(results) => {
                for ((idx, _), rs) in ready.iter().zip(results) {
                    for (k, r) in rs.into_iter().enumerate() {
                        out[idx[k]] = Some(r);
                    }
                }
            }
            Err(e) => {
                for (idx, _) in &ready {
                    for &i in idx {
                        out[i] = Some(Err(e.clone()));
                    }
                }
                if matches!(e, GpuError::Hang(_) | GpuError::Fault(_)) {
                    // The kernels cannot be stopped: leak everything that
                    // would wait for them on drop.
                    std::mem::forget(ready);
                }
            }
        }
        let results = out
            .into_iter()
            .map(|o| o.unwrap_or(Err(GpuError::Dead)))
            .collect();
        (results, timing)
    }

    /// Emits and compiles one module (runs on a compile thread).
    fn load_chunk(&self, jobs: &[Job], v: Version, t: Target) -> Result<Loaded, GpuError> {
        let t0 = Instant::now();
        let module = emit_module(jobs, v, t).map_err(|e| GpuError::Driver(format!("emit: {e}")))?;
        let emit_time = t0.elapsed();
        if let Some(dir) = std::env::var_os("WARPDIFF_GPU_DUMP") {
            // For measuring the PTX compiler outside the driver (ptxas).
            static N: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);
            let n = N.fetch_add(1, Ordering::Relaxed);
            let path = std::path::Path::new(&dir).join(format!("module-{n}.ptx"));
            if let Err(e) = std::fs::write(&path, &module.ptx) {
                eprintln!("warpdiff: WARPDIFF_GPU_DUMP: {}: {e}", path.display());
            }
        }
        let compiled = match &self.farm {
            Some(farm) => farm.compile(&module.ptx, self.jit_opt_level),
            None => None,
        };
        let loaded = match compiled {
            Some(Ok(cubin)) => load_image(&self.ctx, &cubin, None),
            Some(Err(log)) => Err(log),
            None => {
                let src = CString::new(module.ptx.as_str())
                    .map_err(|_| GpuError::Driver("the PTX text contains a NUL byte".into()))?;
                load_image(&self.ctx, src.as_bytes_with_nul(), self.jit_opt_level)
            }
        };
        let raw = loaded.map_err(|log| {
            GpuError::Driver(format!(
                "the driver's PTX compiler refused the module of {} program(s) (first: {}): {log}",
                module.kernels.len(),
                first_lines(jobs[0].program)
            ))
        })?;
        let funcs = module
            .kernels
            .iter()
            .map(|k| raw.function(&k.name))
            .collect::<Result<Vec<_>, _>>()?;
        let mut input = Vec::new();
        let mut offsets = Vec::with_capacity(module.kernels.len());
        let mut out_words = 0;
        for k in &module.kernels {
            offsets.push((input.len(), out_words));
            for &j in &k.jobs {
                let words = encode_inputs(jobs[j].program, jobs[j].inputs);
                debug_assert_eq!(words.len(), k.in_words);
                input.extend(words);
            }
            out_words += k.jobs.len() * k.out_words;
        }
        if input.is_empty() {
            input.push(0);
        }
        Ok(Loaded {
            module,
            _raw: raw,
            funcs,
            offsets,
            input,
            out_words: out_words.max(1),
            emit_time,
        })
    }

    /// Copies the inputs, launches every kernel of every loaded module,
    /// waits (with the deadline) and reads the results back; per module,
    /// one result per job of its chunk.
    #[allow(clippy::type_complexity)]
    fn launch_all(
        &self,
        jobs: &[Job],
        ready: &[(Vec<usize>, Loaded)],
        timing: &mut Timing,
    ) -> Result<Vec<Vec<Result<Outcome, GpuError>>>, GpuError> {
        let t0 = Instant::now();
        driver("binding the context", self.ctx.bind_to_thread())?;
        // Every copy and allocation first: once a kernel is queued, a copy
        // behind it on the stream would wait for it, hung or not, before
        // the deadline below is ever checked.
        let mut buffers = Vec::with_capacity(ready.len());
        for (_, l) in ready {
            let d_in = driver("copying inputs", self.stream.clone_htod(&l.input))?;
            let d_out = driver(
                "allocating outputs",
                self.stream.alloc_zeros::<u64>(l.out_words),
            )?;
            buffers.push((d_in, d_out));
        }
        for ((_, l), (d_in, d_out)) in ready.iter().zip(&buffers) {
            for (k, (f, &(in_off, out_off))) in
                l.module.kernels.iter().zip(l.funcs.iter().zip(&l.offsets))
            {
                let (in_base, _r) = d_in.device_ptr(&self.stream);
                let (out_base, _w) = d_out.device_ptr(&self.stream);
                let mut a = in_base + 8 * in_off as u64;
                let mut b = out_base + 8 * out_off as u64;
                let mut params = [
                    &mut a as *mut u64 as *mut std::ffi::c_void,
                    &mut b as *mut u64 as *mut std::ffi::c_void,
                ];
                // SAFETY: `f` is a kernel of the module `l.raw`, alive for
                // this call, emitted by `emit_module` with exactly two
                // `.u64` pointer parameters (the two values in `params`).
                // It reads `in_words` u64 per warp from `a` and writes
                // `out_words` u64 per warp to `b`; the grid has one
                // 32-thread block per job of this kernel, and `offsets`
                // places its jobs' words inside `d_in` and `d_out`, which
                // were sized for every kernel of the module.
                driver(&format!("launching {}", k.name), unsafe {
                    cudarc::driver::result::launch_kernel(
                        f.0,
                        (k.jobs.len() as u32, 1, 1),
                        (BLOCK_THREADS, 1, 1),
                        0,
                        self.stream.cu_stream(),
                        &mut params,
                    )
                })?;
            }
        }
        timing.launch += t0.elapsed();
        // Wait with a deadline.
        let t1 = Instant::now();
        let done = driver("recording an event", self.stream.record_event(None))?;
        loop {
            match done.try_is_complete() {
                Ok(true) => break,
                Ok(false) if t1.elapsed() < self.deadline => {
                    std::thread::sleep(Duration::from_micros(50))
                }
                Ok(false) => {
                    self.dead.store(true, Ordering::Relaxed);
                    std::mem::forget(buffers);
                    std::mem::forget(done);
                    return Err(GpuError::Hang(format!(
                        "kernels still running after {:?}; the GPU is switched off for this run",
                        self.deadline
                    )));
                }
                Err(e) => {
                    // Errors of running kernels are sticky: every later
                    // call on this context would fail too.
                    self.dead.store(true, Ordering::Relaxed);
                    return Err(GpuError::Fault(format!(
                        "a kernel failed ({e:?}); the context is unusable, the GPU is switched off for this run"
                    )));
                }
            }
        }
        timing.wait += t1.elapsed();
        let t2 = Instant::now();
        let mut results = Vec::with_capacity(ready.len());
        for ((idx, l), (_d_in, d_out)) in ready.iter().zip(&buffers) {
            let words = driver("copying outputs", self.stream.clone_dtoh(d_out))?;
            let mut rs: Vec<Option<Result<Outcome, GpuError>>> = vec![None; idx.len()];
            for (k, &(_, out_off)) in l.module.kernels.iter().zip(&l.offsets) {
                for (n, &j) in k.jobs.iter().enumerate() {
                    let at = out_off + n * k.out_words;
                    let w = &words[at..at + k.out_words];
                    rs[j] = Some(Ok(decode_outputs(jobs[idx[j]].program, w)));
                }
            }
            results.push(
                rs.into_iter()
                    .map(|r| r.unwrap_or(Err(GpuError::Dead)))
                    .collect(),
            );
        }
        timing.copy += t2.elapsed();
        Ok(results)
    }
}
