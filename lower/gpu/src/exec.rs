//! Running a batch's modules ([`ModuleRun`]s) on one CUDA context: load
//! every image (in parallel threads: a PTX image is compiled by the
//! driver there), copy every input, launch every kernel, wait with a
//! deadline, read every output back. The in-process GPU ([`crate::run`])
//! and the runner process ([`crate::runner`]) both run batches here.
//!
//! A batch still running at the deadline is a hang and a failed wait a
//! fault: either way the kernels cannot be stopped or the context is
//! unusable, so everything that would wait for them on drop is leaked, and
//! the caller must give the context up.

use super::driver::{self, Function, RawModule};
use super::wire::{Image, ModuleRun};
use super::BLOCK_THREADS;
use cudarc::driver::{CudaContext, CudaStream, DevicePtr};
use std::ffi::CString;
use std::sync::Arc;
use std::time::{Duration, Instant};

/// Why a batch gave no results.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Stopped {
    /// Kernels still running at the deadline.
    Hang(String),
    /// A kernel faulted, or the context failed (sticky errors).
    Fault(String),
}

/// What a batch's modules gave, and where the time went.
#[derive(Debug, Default)]
pub struct Executed {
    /// Per module, its output words or why it could not be loaded or
    /// launched.
    pub results: Vec<Result<Vec<u64>, String>>,
    /// Loading the images (compiling PTX ones), all in parallel.
    pub load: Duration,
    /// Input copies and launches.
    pub launch: Duration,
    /// Waiting for the kernels.
    pub wait: Duration,
    /// Reading the outputs back.
    pub copy: Duration,
}

/// A module loaded, with its kernels.
struct Loaded {
    /// Owns the kernels in `funcs`: unloading waits for this drop.
    _raw: RawModule,
    funcs: Vec<Function>,
}

fn load(ctx: &Arc<CudaContext>, m: &ModuleRun) -> Result<Loaded, String> {
    let raw = match &m.image {
        Image::Cubin(b) => RawModule::load(ctx, b, None),
        Image::Ptx { text, opt_level } => {
            let src = CString::new(text.as_str())
                .map_err(|_| "the PTX text contains a NUL byte".to_string())?;
            RawModule::load(ctx, src.as_bytes_with_nul(), *opt_level)
        }
        Image::Sim(_) => Err("a simulated module sent to a real GPU".to_string()),
    }
    .map_err(|log| format!("the driver refused the module: {log}"))?;
    let funcs = m
        .kernels
        .iter()
        .map(|k| raw.function(&k.name))
        .collect::<Result<Vec<_>, _>>()?;
    Ok(Loaded { _raw: raw, funcs })
}

fn driver<T>(what: &str, r: Result<T, cudarc::driver::DriverError>) -> Result<T, String> {
    r.map_err(|e| format!("{what}: {e:?}"))
}

/// The register filler of [`crate::dirty`], loaded once per device (the
/// contexts of one process are the devices' primary ones), with a sink
/// word and the launch's grid.
struct Filler {
    _raw: RawModule,
    func: Function,
    sink: cudarc::driver::CudaSlice<u32>,
    blocks: u32,
}

/// Loads the filler on `ctx`'s device, with its sink on `stream`.
fn load_filler(ctx: &Arc<CudaContext>, stream: &Arc<CudaStream>) -> Result<Filler, String> {
    let src = CString::new(super::dirty::filler_ptx()).map_err(|e| e.to_string())?;
    let raw = RawModule::load(ctx, src.as_bytes_with_nul(), None)
        .map_err(|log| format!("the register filler did not compile: {log}"))?;
    let func = raw.function(super::dirty::FILLER_KERNEL)?;
    let sms = ctx
        .attribute(
            cudarc::driver::sys::CUdevice_attribute::CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT,
        )
        .map_err(|e| format!("the multiprocessor count: {e:?}"))?;
    let sink = driver("the filler's sink", stream.alloc_zeros::<u32>(1))?;
    Ok(Filler {
        _raw: raw,
        func,
        sink,
        blocks: 2 * sms.max(1) as u32,
    })
}

/// Launches the filler with `seed` on `stream` before a batch's kernels
/// (loading it on the device the first time); why not, on failure.
fn fill_registers(
    ctx: &Arc<CudaContext>,
    stream: &Arc<CudaStream>,
    seed: u32,
) -> Result<(), String> {
    type Fillers = std::sync::Mutex<Vec<(usize, Result<Filler, String>)>>;
    static FILLERS: Fillers = std::sync::Mutex::new(Vec::new());
    let mut fillers = FILLERS.lock().unwrap_or_else(|p| p.into_inner());
    let device = ctx.ordinal();
    let i = match fillers.iter().position(|(d, _)| *d == device) {
        Some(i) => i,
        None => {
            fillers.push((device, load_filler(ctx, stream)));
            fillers.len() - 1
        }
    };
    let f = fillers[i].1.as_ref().map_err(Clone::clone)?;
    let (sink, _s) = f.sink.device_ptr(stream);
    driver::launch_u32(f.func, f.blocks, 1024, stream, seed, sink)
        .map_err(|e| format!("launching the register filler: {e}"))
}

/// Runs `modules` on `ctx`/`stream` (see the module doc), after filling the
/// registers with values from `dirty` when it is given ([`crate::dirty`]).
pub fn execute(
    ctx: &Arc<CudaContext>,
    stream: &Arc<CudaStream>,
    modules: &[ModuleRun],
    deadline: Duration,
    dirty: Option<u32>,
) -> Result<Executed, Stopped> {
    let mut ex = Executed::default();
    let t0 = Instant::now();
    let loaded: Vec<Result<Loaded, String>> = std::thread::scope(|sc| {
        let handles: Vec<_> = modules
            .iter()
            .map(|m| sc.spawn(move || load(ctx, m)))
            .collect();
        handles
            .into_iter()
            .map(|h| {
                h.join()
                    .unwrap_or_else(|_| Err("a loading thread panicked".into()))
            })
            .collect()
    });
    ex.load = t0.elapsed();
    let t1 = Instant::now();
    ctx.bind_to_thread()
        .map_err(|e| Stopped::Fault(format!("binding the context: {e:?}")))?;
    // Every copy and allocation first: once a kernel is queued, a copy
    // behind it on the stream would wait for it, hung or not, before the
    // deadline below is ever checked.
    let mut buffers = Vec::with_capacity(modules.len());
    let mut results: Vec<Result<(), String>> = Vec::with_capacity(modules.len());
    for (m, l) in modules.iter().zip(&loaded) {
        let bufs = match l {
            Ok(_) => driver("copying inputs", stream.clone_htod(&m.input)).and_then(|d_in| {
                driver(
                    "allocating outputs",
                    stream.alloc_zeros::<u64>(m.out_words as usize),
                )
                .map(|d_out| (d_in, d_out))
            }),
            Err(e) => Err(e.clone()),
        };
        match bufs {
            Ok(b) => {
                buffers.push(Some(b));
                results.push(Ok(()));
            }
            Err(e) => {
                buffers.push(None);
                results.push(Err(e));
            }
        }
    }
    // The filler runs before the batch's kernels on the same stream, so
    // they start with its values in the registers (`--gpu-dirty`).
    if let Some(seed) = dirty {
        if let Err(e) = fill_registers(ctx, stream, seed) {
            for r in results.iter_mut().filter(|r| r.is_ok()) {
                *r = Err(e.clone());
            }
        }
    }
    for ((m, l), (b, r)) in modules
        .iter()
        .zip(&loaded)
        .zip(buffers.iter().zip(results.iter_mut()))
    {
        let (Ok(l), Some((d_in, d_out)), Ok(())) = (l, b, &r) else {
            continue;
        };
        let (in_base, _r) = d_in.device_ptr(stream);
        let (out_base, _w) = d_out.device_ptr(stream);
        for (k, f) in m.kernels.iter().zip(&l.funcs) {
            // The kernel reads its jobs' input words from `in_off` and
            // writes their output words from `out_off`: the plan placed
            // them inside `d_in` and `d_out`, sized for every kernel of the
            // module.
            if let Err(e) = driver::launch(
                *f,
                k.warps,
                BLOCK_THREADS,
                stream,
                in_base + 8 * k.in_off,
                out_base + 8 * k.out_off,
            ) {
                *r = Err(format!("launching {}: {e}", k.name));
                break;
            }
        }
    }
    ex.launch = t1.elapsed();
    let t2 = Instant::now();
    let done = stream
        .record_event(None)
        .map_err(|e| Stopped::Fault(format!("recording an event: {e:?}")))?;
    loop {
        match done.try_is_complete() {
            Ok(true) => break,
            Ok(false) if t2.elapsed() < deadline => std::thread::sleep(Duration::from_micros(50)),
            Ok(false) => {
                std::mem::forget(buffers);
                std::mem::forget(loaded);
                std::mem::forget(done);
                return Err(Stopped::Hang(format!(
                    "kernels still running after {deadline:?}"
                )));
            }
            Err(e) => {
                std::mem::forget(buffers);
                std::mem::forget(loaded);
                return Err(Stopped::Fault(format!("a kernel failed ({e:?})")));
            }
        }
    }
    ex.wait = t2.elapsed();
    let t3 = Instant::now();
    for (b, r) in buffers.iter().zip(results) {
        ex.results.push(match (b, r) {
            (Some((_, d_out)), Ok(())) => driver("copying outputs", stream.clone_dtoh(d_out)),
            (_, Err(e)) => Err(e),
            (None, Ok(())) => Err("no buffers".into()),
        });
    }
    ex.copy = t3.elapsed();
    Ok(ex)
}
