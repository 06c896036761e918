//! Running emitted PTX on a real GPU through `cudarc`, with the driver
//! loaded at run time: where no CUDA driver is installed, [`Gpu::open`]
//! says so and nothing else changes.
//!
//! A batch of jobs is grouped by `.version`/`.target` and cut into up to
//! [`GpuConfig::compile_threads`] chunks; each chunk becomes one module (one
//! driver compile, the chunks compiled in parallel threads), one input and
//! one output buffer, and one launch per distinct program (one warp per
//! job). Modules are loaded with `cuModuleLoadDataEx` so that the PTX
//! compiler's error log names what it refused. A batch still running after
//! the deadline is reported as a hang; the GPU is then marked dead and never
//! used again in this process (a hung kernel cannot be stopped; its memory
//! is leaked rather than waited for).

use super::config::{Compiler, GpuConfig};
use super::device::{Device, GpuError, Timing};
use super::driver::{self, Function, NoGpu, RawModule};
use super::emit::{
    decode_outputs, emit_module_with, encode_inputs, module_target, Job, Module, BLOCK_THREADS,
};
use super::farm::Farm;
use cudarc::driver::{CudaContext, CudaStream, DevicePtr};
use std::collections::BTreeMap;
use std::ffi::CString;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};
use warp_core::ir::{Program, Target, Version};
use warp_core::outcome::Outcome;

/// A chunk gets at least this many jobs before the batch is cut into more
/// modules (a module per handful of jobs would cost more in launches and
/// copies than parallel compiling saves).
const MIN_JOBS_PER_MODULE: usize = 32;

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

/// An open GPU.
pub struct Gpu {
    ctx: Arc<CudaContext>,
    stream: Arc<CudaStream>,
    /// `NVIDIA H200 (sm_90, CUDA driver 13.0, PTX JIT -O0)`.
    pub description: String,
    /// Compute capability.
    pub cc: (i32, i32),
    /// The device's ordinal (0 for the first GPU).
    pub ordinal: usize,
    config: GpuConfig,
    farm: Option<Farm>,
    /// `ptxas --version` when the helpers run `ptxas`.
    ptxas: Option<String>,
    dead: AtomicBool,
    lock: Mutex<()>,
}

fn driver<T>(what: &str, r: Result<T, cudarc::driver::DriverError>) -> Result<T, GpuError> {
    r.map_err(|e| GpuError::Driver(format!("{what}: {e:?}")))
}

impl Gpu {
    /// Opens device 0 with the default [`GpuConfig`], if a driver and a
    /// device are there.
    pub fn open() -> Result<Gpu, NoGpu> {
        Gpu::open_device(0, &GpuConfig::default())
    }

    /// Opens device `ordinal` (one context and one stream of its own), and
    /// starts its compile helpers when `config.helpers` names an executable
    /// (saying so on stderr if they cannot start: it then compiles in this
    /// process).
    pub fn open_device(ordinal: usize, config: &GpuConfig) -> Result<Gpu, NoGpu> {
        let ctx = driver::open_context(ordinal)?;
        let name = ctx.name().unwrap_or_else(|_| "unknown GPU".into());
        let cc = ctx.compute_capability().unwrap_or((0, 0));
        let stream = ctx.default_stream();
        let mut gpu = Gpu {
            description: format!(
                "{name} (sm_{}{}{}, {})",
                cc.0,
                cc.1,
                driver::driver_version(),
                config.opt_phrase()
            ),
            ordinal,
            ctx,
            stream,
            cc,
            config: GpuConfig {
                compile_threads: config.compile_threads.max(1),
                ..config.clone()
            },
            farm: None,
            ptxas: None,
            dead: AtomicBool::new(false),
            lock: Mutex::new(()),
        };
        if let Some(exe) = &config.helpers {
            match Farm::spawn(exe, gpu.config.compile_threads, config.compiler) {
                Ok(f) => {
                    gpu.farm = Some(f);
                    gpu.ptxas = match config.compiler {
                        Compiler::Ptxas => super::farm::ptxas_version(),
                        Compiler::Driver => None,
                    };
                }
                Err(e) => {
                    eprintln!("warpdiff: cannot start compile helpers ({e}); compiling in-process")
                }
            }
        }
        Ok(gpu)
    }

    /// Sets how long a launch may run before it counts as a hang.
    pub fn with_deadline(mut self, d: Duration) -> Self {
        self.config.deadline = d;
        self
    }

    /// The configuration it runs with.
    pub fn config(&self) -> &GpuConfig {
        &self.config
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

    /// Whether a hang or fault switched the GPU off.
    pub fn is_dead(&self) -> bool {
        self.dead.load(Ordering::Relaxed)
    }

    /// Runs every job (see [`Device::run_batch_timed`]).
    fn run_jobs(&self, jobs: &[Job]) -> (Vec<Result<Outcome, GpuError>>, Timing) {
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
                .config
                .compile_threads
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
        let module = emit_module_with(jobs, v, t, self.config.perturb)
            .map_err(|e| GpuError::Driver(format!("emit: {e}")))?;
        let emit_time = t0.elapsed();
        if let Some(dir) = &self.config.dump_dir {
            // For measuring the PTX compiler outside the driver (ptxas).
            static N: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);
            let n = N.fetch_add(1, Ordering::Relaxed);
            let path = dir.join(format!("module-{n}.ptx"));
            if let Err(e) = std::fs::write(&path, &module.ptx) {
                eprintln!("warpdiff: --gpu-dump: {}: {e}", path.display());
            }
        }
        let compiled = match &self.farm {
            Some(farm) => farm.compile(&module.ptx, self.config.opt_level),
            None => None,
        };
        let loaded = match compiled {
            Some(Ok(cubin)) => RawModule::load(&self.ctx, &cubin, None),
            Some(Err(log)) => Err(log),
            None => {
                let src = CString::new(module.ptx.as_str())
                    .map_err(|_| GpuError::Driver("the PTX text contains a NUL byte".into()))?;
                RawModule::load(&self.ctx, src.as_bytes_with_nul(), self.config.opt_level)
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
            .map(|k| raw.function(&k.name).map_err(GpuError::Driver))
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
                // The kernel reads `in_words` u64 per warp from its input
                // offset and writes `out_words` per warp to its output
                // offset: `offsets` places its jobs' words inside `d_in`
                // and `d_out`, sized above for every kernel of the module.
                driver::launch(
                    *f,
                    k.jobs.len() as u32,
                    BLOCK_THREADS,
                    &self.stream,
                    in_base + 8 * in_off as u64,
                    out_base + 8 * out_off as u64,
                )
                .map_err(|e| GpuError::Driver(format!("launching {}: {e}", k.name)))?;
            }
        }
        timing.launch += t0.elapsed();
        // Wait with a deadline.
        let t1 = Instant::now();
        let done = driver("recording an event", self.stream.record_event(None))?;
        loop {
            match done.try_is_complete() {
                Ok(true) => break,
                Ok(false) if t1.elapsed() < self.config.deadline => {
                    std::thread::sleep(Duration::from_micros(50))
                }
                Ok(false) => {
                    self.dead.store(true, Ordering::Relaxed);
                    std::mem::forget(buffers);
                    std::mem::forget(done);
                    return Err(GpuError::Hang(format!(
                        "kernels still running after {:?}; the GPU is switched off for this run",
                        self.config.deadline
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

impl Device for Gpu {
    fn description(&self) -> String {
        format!("{}{}", self.description, self.compiler())
    }

    fn ordinal(&self) -> usize {
        self.ordinal
    }

    fn is_dead(&self) -> bool {
        Gpu::is_dead(self)
    }

    fn run_batch_timed(&self, jobs: &[Job]) -> (Vec<Result<Outcome, GpuError>>, Timing) {
        self.run_jobs(jobs)
    }
}
