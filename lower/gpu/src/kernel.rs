//! Launching a kernel of a PTX module on a real GPU (issue #13): the PTX
//! text exactly as given (not re-emitted) is compiled by the driver, its
//! `.entry` looked up by name, one device buffer made per launch buffer
//! with its bytes, every `.param` passed in the kernel's order (a buffer's
//! device address, or a scalar of the parameter's size), and every buffer
//! read back after the kernel, all of it defined (what one schedule of the
//! hardware stored).
//!
//! A kernel still running at the deadline is a hang, and one whose stream
//! reports an error a fault; either way the context is then unusable (a
//! hung kernel cannot be stopped, a fault is sticky), so the [`KernelGpu`]
//! is switched off: its memory is leaked rather than waited for, and every
//! later launch on it says so.

use super::config::GpuConfig;
use super::driver::{self, NoGpu, RawModule};
use cudarc::driver::{CudaContext, CudaSlice, CudaStream, DevicePtr};
use std::ffi::CString;
use std::fmt;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};
use warp_core::ir::{Kernel, Module};
use warp_core::launch::{BufferOut, Launch, LaunchError, ParamValue};

/// Why a launch on the GPU gave no buffers.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum KernelError {
    /// No CUDA driver or no GPU here (a reason to skip the GPU, not a
    /// finding).
    NoGpu(String),
    /// The launch does not fit the module (no such kernel, a parameter
    /// without a value, a block over 1024 threads), or the driver refused
    /// the PTX or the launch; the message names the kernel and why.
    Refused(String),
    /// The kernel faulted (its stream reported an error): the context is
    /// unusable, so this GPU is switched off.
    Fault(String),
    /// The kernel was still running at the deadline: this GPU is
    /// switched off.
    Hang(String),
    /// An earlier hang or fault switched this GPU off.
    Dead,
}

impl KernelError {
    /// Whether this only says there is no GPU to run on.
    pub fn is_no_gpu(&self) -> bool {
        matches!(self, KernelError::NoGpu(_))
    }
}

impl fmt::Display for KernelError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            KernelError::NoGpu(m) => write!(f, "no CUDA driver or GPU: {m}"),
            KernelError::Refused(m) => write!(f, "gpu: {m}"),
            KernelError::Fault(m) => write!(f, "gpu fault: {m}"),
            KernelError::Hang(m) => write!(f, "gpu hang: {m}"),
            KernelError::Dead => f.write_str("the gpu is off after an earlier hang or fault"),
        }
    }
}

impl std::error::Error for KernelError {}

impl From<KernelError> for LaunchError {
    fn from(e: KernelError) -> LaunchError {
        LaunchError::Engine(e.to_string())
    }
}

/// One parameter's value before the buffers have device addresses.
enum Arg {
    /// The device address of launch buffer `index`, in `size` bytes.
    Buffer { index: usize, size: usize },
    /// These bytes.
    Bytes(Vec<u8>),
}

/// Checks the launch against the module (as the reference interpreter
/// does) and gives the kernel and each of its parameters' values, in the
/// kernel's order.
fn plan<'m>(module: &'m Module, launch: &Launch) -> Result<(&'m Kernel, Vec<Arg>), KernelError> {
    let refuse = KernelError::Refused;
    let (k, values) = launch.bind(module).map_err(|e| refuse(e.to_string()))?;
    let mut args = Vec::with_capacity(k.params.len());
    for (p, v) in k.params.iter().zip(&values) {
        let size = usize::try_from(p.size)
            .ok()
            .filter(|&s| s > 0 && s <= 32 * 1024)
            .ok_or_else(|| {
                refuse(format!(
                    "kernel `{}`: parameter `{}` of {} bytes",
                    k.name, p.name, p.size
                ))
            })?;
        args.push(match v {
            ParamValue::Buffer(index) => Arg::Buffer {
                index: *index,
                size,
            },
            ParamValue::Value(v) => Arg::Bytes(sized(*v, size)),
        });
    }
    Ok((k, args))
}

/// `v` in `size` little-endian bytes (truncated, or zero-extended past 8).
fn sized(v: u64, size: usize) -> Vec<u8> {
    let mut b = vec![0u8; size];
    let n = size.min(8);
    b[..n].copy_from_slice(&v.to_le_bytes()[..n]);
    b
}

/// A GPU that runs kernel launches: one context and stream of its own.
pub struct KernelGpu {
    ctx: Arc<CudaContext>,
    stream: Arc<CudaStream>,
    description: String,
    deadline: Duration,
    opt_level: Option<u32>,
    dead: AtomicBool,
    lock: Mutex<()>,
}

impl KernelGpu {
    /// Opens device `ordinal` with `config`'s deadline and PTX compiler
    /// optimisation level (its other settings are for batches of warp
    /// programs: kernel launches compile in this process, unperturbed).
    pub fn open(ordinal: usize, config: &GpuConfig) -> Result<KernelGpu, NoGpu> {
        let ctx = driver::open_context(ordinal)?;
        let name = ctx.name().unwrap_or_else(|_| "unknown GPU".into());
        let cc = ctx.compute_capability().unwrap_or((0, 0));
        let opt = GpuConfig {
            perturb: None,
            ..config.clone()
        };
        let stream = ctx.default_stream();
        Ok(KernelGpu {
            description: format!(
                "{name} (sm_{}{}{}, {})",
                cc.0,
                cc.1,
                driver::driver_version(),
                opt.opt_phrase()
            ),
            ctx,
            stream,
            deadline: config.deadline,
            opt_level: config.opt_level,
            dead: AtomicBool::new(false),
            lock: Mutex::new(()),
        })
    }

    /// `NVIDIA H200 (sm_90, CUDA driver 13.0, PTX JIT -O0)`.
    pub fn description(&self) -> &str {
        &self.description
    }

    /// Whether a hang or fault switched it off.
    pub fn is_dead(&self) -> bool {
        self.dead.load(Ordering::Relaxed)
    }

    /// Runs `launch` of a kernel of `module`, whose PTX text is `ptx` (the
    /// text the module was parsed from: the driver compiles it as it is),
    /// and returns every buffer afterwards, all bytes defined.
    pub fn run_launch(
        &self,
        ptx: &str,
        module: &Module,
        launch: &Launch,
    ) -> Result<Vec<BufferOut>, KernelError> {
        let (k, args) = plan(module, launch)?;
        let _one_at_a_time = self.lock.lock().unwrap_or_else(|p| p.into_inner());
        if self.is_dead() {
            return Err(KernelError::Dead);
        }
        let name = &k.name;
        let refused =
            |what: &str, e: String| KernelError::Refused(format!("kernel `{name}`: {what}: {e}"));
        let src = CString::new(ptx)
            .map_err(|_| refused("the PTX text", "it contains a NUL byte".into()))?;
        let raw = RawModule::load(&self.ctx, src.as_bytes_with_nul(), self.opt_level)
            .map_err(|log| refused("the driver's PTX compiler refused the module", log))?;
        let f = raw
            .function(name)
            .map_err(|e| refused("looking the kernel up", e))?;
        // Every copy and allocation before the launch: a copy queued
        // behind a hung kernel would wait for it before the deadline is
        // ever checked.
        let mut bufs: Vec<CudaSlice<u8>> = Vec::with_capacity(launch.buffers.len());
        for b in &launch.buffers {
            let d = if b.bytes.is_empty() {
                self.stream.alloc_zeros::<u8>(1)
            } else {
                self.stream.clone_htod(&b.bytes)
            }
            .map_err(|e| refused(&format!("copying buffer `{}` in", b.name), format!("{e:?}")))?;
            bufs.push(d);
        }
        let mut guards = Vec::new();
        let params: Vec<Vec<u8>> = args
            .into_iter()
            .map(|a| match a {
                Arg::Buffer { index, size } => {
                    let (ptr, guard) = bufs[index].device_ptr(&self.stream);
                    guards.push(guard);
                    sized(ptr, size)
                }
                Arg::Bytes(b) => b,
            })
            .collect();
        let launched = driver::launch_with_params(
            f,
            launch.grid,
            launch.block,
            launch.shared,
            &self.stream,
            &params,
        );
        drop(guards);
        launched.map_err(|e| {
            refused(
                &format!("launching grid {:?} block {:?}", launch.grid, launch.block),
                e,
            )
        })?;
        self.wait(name, bufs, raw).map(|(bytes, _raw)| {
            bytes
                .into_iter()
                .zip(&launch.buffers)
                .map(|(mut bytes, b)| {
                    bytes.truncate(b.bytes.len());
                    BufferOut {
                        name: b.name.clone(),
                        defined: vec![true; bytes.len()],
                        bytes,
                    }
                })
                .collect()
        })
    }

    /// Waits for the kernel with the deadline, then reads every buffer
    /// back. After a hang or a fault, the buffers and the module are
    /// leaked (freeing them would wait for the kernel, or fail) and the
    /// GPU is switched off.
    fn wait(
        &self,
        name: &str,
        bufs: Vec<CudaSlice<u8>>,
        raw: RawModule,
    ) -> Result<(Vec<Vec<u8>>, RawModule), KernelError> {
        let off = |bufs, raw, e: KernelError| {
            self.dead.store(true, Ordering::Relaxed);
            std::mem::forget(bufs);
            std::mem::forget(raw);
            Err(e)
        };
        let done = match self.stream.record_event(None) {
            Ok(d) => d,
            Err(e) => {
                return off(
                    bufs,
                    raw,
                    KernelError::Fault(format!("kernel `{name}`: recording an event: {e:?}")),
                )
            }
        };
        let t0 = Instant::now();
        loop {
            match done.try_is_complete() {
                Ok(true) => break,
                Ok(false) if t0.elapsed() < self.deadline => {
                    std::thread::sleep(Duration::from_micros(100))
                }
                Ok(false) => {
                    std::mem::forget(done);
                    return off(
                        bufs,
                        raw,
                        KernelError::Hang(format!(
                            "kernel `{name}` still running after {:?}; the GPU is switched off for this run",
                            self.deadline
                        )),
                    );
                }
                Err(e) => {
                    return off(
                        bufs,
                        raw,
                        KernelError::Fault(format!(
                            "kernel `{name}` failed ({e:?}); the context is unusable, the GPU is switched off for this run"
                        )),
                    )
                }
            }
        }
        let mut out = Vec::with_capacity(bufs.len());
        for d in &bufs {
            match self.stream.clone_dtoh(d) {
                Ok(b) => out.push(b),
                Err(e) => {
                    return off(
                        bufs,
                        raw,
                        KernelError::Fault(format!(
                            "kernel `{name}`: reading a buffer back: {e:?}"
                        )),
                    )
                }
            }
        }
        Ok((out, raw))
    }
}

impl Drop for KernelGpu {
    fn drop(&mut self) {
        if self.is_dead() {
            // Releasing the context would wait for a hung kernel: keep it
            // (and the stream) alive until the process ends.
            std::mem::forget(self.ctx.clone());
            std::mem::forget(self.stream.clone());
        }
    }
}

/// Runs `launch` of a kernel of `module` (parsed from `ptx`) on GPU 0,
/// opened for this one launch with `config` (see [`KernelGpu::run_launch`]);
/// without a driver or a GPU, [`KernelError::NoGpu`].
pub fn run_launch(
    ptx: &str,
    module: &Module,
    launch: &Launch,
    config: &GpuConfig,
) -> Result<Vec<BufferOut>, KernelError> {
    plan(module, launch)?;
    let gpu = KernelGpu::open(0, config).map_err(|e| KernelError::NoGpu(e.0))?;
    gpu.run_launch(ptx, module, launch)
}

#[cfg(test)]
mod tests {
    use super::*;
    use warp_core::launch::Buffer;

    const PTX: &str = "
.version 8.0
.target sm_70
.address_size 64
.visible .entry k(.param .u64 k_param_0, .param .u32 k_param_1)
{
    ret;
}
";

    fn launch(params: Vec<(String, ParamValue)>) -> Launch {
        Launch {
            kernel: "k".into(),
            grid: [1; 3],
            block: [32, 1, 1],
            shared: 0,
            buffers: vec![Buffer {
                name: "out".into(),
                bytes: vec![0; 16],
            }],
            params,
        }
    }

    #[test]
    fn launches_that_do_not_fit_the_module_are_refused_before_any_gpu() {
        let m = warp_core::text::parse_module(PTX).expect("parses");
        let p0 = ("k_param_0".to_string(), ParamValue::Buffer(0));
        let p1 = ("k_param_1".to_string(), ParamValue::Value(7));
        let cases = [
            (
                launch(vec![p0.clone()]),
                "parameter `k_param_1` has no value",
            ),
            (
                launch(vec![
                    p0.clone(),
                    p1.clone(),
                    ("nope".into(), ParamValue::Value(1)),
                ]),
                "has no parameter `nope`",
            ),
            (
                launch(vec![
                    ("k_param_0".into(), ParamValue::Buffer(3)),
                    p1.clone(),
                ]),
                "names buffer 3",
            ),
            (
                Launch {
                    kernel: "other".into(),
                    ..launch(vec![])
                },
                "no kernel `other` in the module (it has: k)",
            ),
            (
                Launch {
                    block: [64, 32, 1],
                    ..launch(vec![p0.clone(), p1.clone()])
                },
                "a block of 2048 threads",
            ),
        ];
        for (l, want) in cases {
            let e = run_launch(PTX, &m, &l, &GpuConfig::default()).unwrap_err();
            assert!(
                matches!(&e, KernelError::Refused(m) if m.contains(want)),
                "{e} should say {want}"
            );
        }
    }

    #[test]
    fn each_parameter_gets_the_bytes_of_its_size_in_the_kernels_order() {
        let m = warp_core::text::parse_module(PTX).expect("parses");
        // Given in the other order: the kernel's order wins.
        let l = launch(vec![
            ("k_param_1".into(), ParamValue::Value(0x1_0000_0007)),
            ("k_param_0".into(), ParamValue::Buffer(0)),
        ]);
        let (_, args) = plan(&m, &l).expect("fits");
        assert!(matches!(args[0], Arg::Buffer { index: 0, size: 8 }));
        assert!(matches!(&args[1], Arg::Bytes(b) if b == &[7, 0, 0, 0]));
        assert_eq!(sized(0x0102, 12), [2, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0]);
    }
}
