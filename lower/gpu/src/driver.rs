//! Every raw call into the CUDA driver, and so every `unsafe` block of the
//! GPU backend: loading the driver library, contexts, module loading and
//! PTX compiling (with the compiler's error log), kernel lookup, the
//! driver's parameter layout of a kernel, and launches.
//! The rest of the crate (`#![deny(unsafe_code)]` at its root) uses the
//! safe functions here and cudarc's safe API.

#![allow(unsafe_code)]

use cudarc::driver::sys;
use cudarc::driver::{CudaContext, CudaStream};
use std::ffi::{c_void, CString};
use std::fmt;
use std::sync::Arc;

/// Why there is no GPU.
#[derive(Clone, Debug)]
pub struct NoGpu(pub String);

impl fmt::Display for NoGpu {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "no GPU found: {}", self.0)
    }
}

/// Whether the CUDA driver library can be loaded.
fn culib_present() -> bool {
    // SAFETY: `is_culib_present` only tries to load the driver library and
    // reports whether it could; it has no preconditions.
    unsafe { sys::is_culib_present() }
}

/// How many GPUs the driver sees (0 without a driver).
pub fn device_count() -> usize {
    if !culib_present() {
        return 0;
    }
    std::panic::catch_unwind(CudaContext::device_count)
        .ok()
        .and_then(|r| r.ok())
        .map_or(0, |n| n.max(0) as usize)
}

/// Whether device `ordinal` is there (without opening a context), or why
/// not.
pub fn present(ordinal: usize) -> Result<(), NoGpu> {
    if !culib_present() {
        return Err(NoGpu("the CUDA driver library is not installed".into()));
    }
    match device_count() {
        n if n > ordinal => Ok(()),
        0 => Err(NoGpu("the CUDA driver sees no device".into())),
        n => Err(NoGpu(format!(
            "there is no device {ordinal} (the driver sees {n})"
        ))),
    }
}

/// A context on device `ordinal`, if a driver and the device are there.
pub fn open_context(ordinal: usize) -> Result<Arc<CudaContext>, NoGpu> {
    if !culib_present() {
        return Err(NoGpu("the CUDA driver library is not installed".into()));
    }
    // cudarc panics in some failure paths; a missing device must be a
    // message, not a crash.
    std::panic::catch_unwind(|| CudaContext::new(ordinal))
        .map_err(|_| NoGpu("the CUDA driver could not be initialised".into()))?
        .map_err(|e| NoGpu(format!("{e:?}")))
}

/// `, CUDA driver 13.0` (empty if the driver does not say).
pub fn driver_version() -> String {
    let mut v = 0;
    // SAFETY: writes one int; callers hold a context, so the library is
    // loaded and initialised.
    match unsafe { sys::cuDriverGetVersion(&mut v) } {
        sys::CUresult::CUDA_SUCCESS => format!(", CUDA driver {}.{}", v / 1000, v % 1000 / 10),
        _ => String::new(),
    }
}

/// The options of a PTX compile: the error log into `log` and, when given,
/// the optimisation level (`CU_JIT_OPTIMIZATION_LEVEL`, 0–4). The values
/// point into `log`, which must outlive the compile.
fn jit_options(
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
fn log_text(log: &[u8], r: sys::CUresult) -> String {
    let end = log.iter().position(|&b| b == 0).unwrap_or(log.len());
    let text = String::from_utf8_lossy(&log[..end]).trim().to_string();
    format!("{r:?}{}{text}", if text.is_empty() { "" } else { ": " })
}

/// A module loaded through `cuModuleLoadDataEx`, unloaded on drop.
pub struct RawModule {
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
pub struct Function(sys::CUfunction);

// SAFETY: a CUfunction handle is a plain handle usable from any thread.
unsafe impl Send for Function {}
// SAFETY: as above.
unsafe impl Sync for Function {}

impl RawModule {
    /// Loads a module image (NUL-terminated PTX, which the driver's PTX
    /// compiler compiles, or a cubin); on failure, the compiler's error
    /// log. `opt_level` is `CU_JIT_OPTIMIZATION_LEVEL` (0–4; `None` = the
    /// driver's default, 4).
    pub fn load(
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
        // header gives its size), alive for the call; `options` and
        // `values` have the same length, the log option's value points to
        // `log`, whose length is the size option's value (passed by value,
        // as the driver API wants for these options).
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

    /// The kernel called `name`.
    pub fn function(&self, name: &str) -> Result<Function, String> {
        let c = CString::new(name).map_err(|_| format!("kernel name {name:?}"))?;
        self.ctx
            .bind_to_thread()
            .map_err(|e| format!("binding the context: {e:?}"))?;
        // SAFETY: `self.module` is a loaded module of the bound context.
        unsafe { cudarc::driver::result::module::get_function(self.module, c) }
            .map(Function)
            .map_err(|e| format!("kernel {name}: {e:?}"))
    }
}

impl Drop for RawModule {
    fn drop(&mut self) {
        if self.ctx.bind_to_thread().is_ok() {
            // SAFETY: the module was loaded by `load` and is unloaded once;
            // no launch of it is pending (a hang leaks it instead).
            let _ = unsafe { sys::cuModuleUnload(self.module) };
        }
    }
}

/// Launches `f` on `grid` blocks of `block` threads on `stream` with two
/// `u64` parameters (the kernels [`crate::emit`] writes take exactly the
/// input and output buffer addresses).
///
/// The caller promises what the kernel reads and writes: `input` and
/// `output` are device addresses of buffers (allocated on the stream's
/// context) holding at least what the kernel's `grid` warps read and
/// write — `emit` sizes every kernel's words, and the batch runner
/// allocates them.
pub fn launch(
    f: Function,
    grid: u32,
    block: u32,
    stream: &CudaStream,
    input: u64,
    output: u64,
) -> Result<(), String> {
    let (mut a, mut b) = (input, output);
    // SAFETY: `f` is a kernel of a module alive for this call, emitted by
    // `emit_module` with exactly two `.u64` pointer parameters (the two
    // values here); the buffers they point to were sized by the caller for
    // `grid` warps (see above).
    unsafe { launch_two(f, grid, block, stream, &mut a, &mut b) }
}

/// Launches `f` with the parameters `a` and `b`, `grid` blocks of `block`
/// threads on `stream`.
///
/// # Safety
///
/// `f` must be a kernel of a loaded module with exactly two parameters of
/// `A`'s and `B`'s types, and any memory they give it must be device memory
/// the kernel may read and write as it does.
unsafe fn launch_two<A, B>(
    f: Function,
    grid: u32,
    block: u32,
    stream: &CudaStream,
    a: &mut A,
    b: &mut B,
) -> Result<(), String> {
    let mut params = [a as *mut A as *mut c_void, b as *mut B as *mut c_void];
    // SAFETY: `params` points to two values alive for the call, of the
    // types of the kernel's two parameters (this function's contract); the
    // driver copies them at the launch and only reads them.
    unsafe {
        cudarc::driver::result::launch_kernel(
            f.0,
            (grid, 1, 1),
            (block, 1, 1),
            0,
            stream.cu_stream(),
            &mut params,
        )
    }
    .map_err(|e| format!("{e:?}"))
}

/// Launches the register filler `f` ([`crate::dirty::filler_ptx`]: `.param
/// .u32 seed, .param .u64 sink`) with `grid` blocks of `block` threads on
/// `stream`.
pub fn launch_u32(
    f: Function,
    grid: u32,
    block: u32,
    stream: &CudaStream,
    seed: u32,
    sink: u64,
) -> Result<(), String> {
    let (mut a, mut b) = (seed, sink);
    // SAFETY: the filler's parameters are one `.u32` and one `.u64` (these
    // two); `sink` is a device allocation of at least one word, the only
    // memory the kernel may write.
    unsafe { launch_two(f, grid, block, stream, &mut a, &mut b) }
}

/// More parameters than any kernel has (CUDA allows 32,764 bytes of them);
/// [`param_sizes`] stops asking there.
const MAX_PARAMS: usize = 8192;

/// Each parameter's size in bytes, in order, as the driver laid out the
/// kernel `f` (`cuFuncGetParamInfo`, CUDA 12.4 and later); `None` where
/// this driver cannot say. The context of `f`'s module must be bound to
/// the current thread.
pub fn param_sizes(f: Function) -> Option<Vec<usize>> {
    let mut sizes = Vec::new();
    for i in 0..MAX_PARAMS {
        // cudarc panics when the driver library lacks the symbol (older
        // drivers): that is "cannot say", not a crash.
        let asked = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
            let (mut offset, mut size) = (0usize, 0usize);
            // SAFETY: `f` is a kernel of a loaded module (a `Function` is
            // only made by `RawModule::function`); the driver writes two
            // `usize`s, both locals alive for the call.
            let r = unsafe { sys::cuFuncGetParamInfo(f.0, i, &mut offset, &mut size) };
            (r, size)
        }));
        match asked {
            Ok((sys::CUresult::CUDA_SUCCESS, size)) => sizes.push(size),
            // Past the last parameter.
            Ok((sys::CUresult::CUDA_ERROR_INVALID_VALUE, _)) => return Some(sizes),
            Ok(_) | Err(_) => return None,
        }
    }
    None
}

/// Launches `f` on `grid` blocks of `block` threads on `stream`;
/// `params` holds each parameter's bytes, in order.
///
/// Where the driver reports the kernel's parameter layout
/// ([`param_sizes`]) the launch is refused unless `params` has exactly
/// that many parameters of exactly those sizes; where it cannot, the
/// caller promises that `params` is what the kernel's PTX declares (the
/// module's `.entry` parameter list, parsed from the same text). Pointer
/// parameters are device addresses the kernel may read and write: a wrong
/// one faults on the GPU (an error of the launch's stream), not here.
pub fn launch_with_params(
    f: Function,
    grid: [u32; 3],
    block: [u32; 3],
    shared_bytes: u32,
    stream: &CudaStream,
    params: &[Vec<u8>],
) -> Result<(), String> {
    if let Some(i) = params.iter().position(Vec::is_empty) {
        return Err(format!("parameter {i} has no bytes"));
    }
    if let Some(sizes) = param_sizes(f) {
        let given: Vec<usize> = params.iter().map(Vec::len).collect();
        if given != sizes {
            return Err(format!(
                "the kernel takes parameters of {sizes:?} bytes (as the driver laid it out), the launch gives {given:?}"
            ));
        }
    }
    let mut pointers: Vec<*mut c_void> = params.iter().map(|p| p.as_ptr() as *mut c_void).collect();
    // SAFETY: `f` is a kernel of a module alive for this call; `pointers`
    // holds one pointer per parameter, each to that parameter's bytes (a
    // `Vec` alive for the call, of the size the driver's layout gives, or
    // where it cannot say, the size the kernel's PTX declares: see above).
    // The driver copies the values at the launch and only reads them.
    unsafe {
        cudarc::driver::result::launch_kernel(
            f.0,
            (grid[0], grid[1], grid[2]),
            (block[0], block[1], block[2]),
            shared_bytes,
            stream.cu_stream(),
            &mut pointers,
        )
    }
    .map_err(|e| format!("{e:?}"))
}

/// Compiles `ptx` to a cubin with the driver's JIT linker (`cuLinkCreate`,
/// `cuLinkAddData`, `cuLinkComplete`) with the options of
/// [`RawModule::load`]; the current thread must have a CUDA context bound.
///
/// This is **not** the compile [`RawModule::load`] does on PTX: the linker
/// compiles the PTX as relocatable code, as `ptxas -c` does, and links it,
/// where `cuModuleLoadDataEx` compiles the whole program. The two differ in
/// their code: the relocatable compile calls the compiler's own
/// subroutines (the slow paths of `sqrt`, `div`, `rem`) with `CALL.ABS`,
/// saving what is live across the call, where the whole program inlines
/// them. On an H200 (driver 580.159.04, 2026-11-28) its SASS was `ptxas -O3
/// -c`'s line for line, and it got programs wrong and crashed on others
/// that the whole-program compile runs right (`docs/findings.md`: bug N26,
/// the candidate LC). A finding of a run that compiles here is checked
/// again here.
pub fn link_ptx(ptx: &[u8], opt_level: Option<u32>) -> Result<Vec<u8>, String> {
    let src = CString::new(ptx).map_err(|_| "the PTX text contains a NUL byte".to_string())?;
    let mut log = vec![0u8; 16 * 1024];
    let (mut options, mut values) = jit_options(&mut log, opt_level);
    let text = |log: &[u8], what: &str, r| format!("{what}: {}", log_text(log, r));
    let mut state: sys::CUlinkState = std::ptr::null_mut();
    // SAFETY: `options` and `values` have the same length; the log option's
    // value points to `log`, which outlives the link state (destroyed
    // below); the size option is passed by value as the API wants.
    let r = unsafe {
        sys::cuLinkCreate_v2(
            options.len() as u32,
            options.as_mut_ptr(),
            values.as_mut_ptr(),
            &mut state,
        )
    };
    if r != sys::CUresult::CUDA_SUCCESS {
        return Err(text(&log, "cuLinkCreate", r));
    }
    let bytes = src.as_bytes_with_nul();
    let name = c"warpdiff.ptx";
    // SAFETY: `state` is a live link state; `bytes` is the NUL-terminated
    // PTX, alive for the call, and `size` is its length.
    let r = unsafe {
        sys::cuLinkAddData_v2(
            state,
            sys::CUjitInputType::CU_JIT_INPUT_PTX,
            bytes.as_ptr() as *mut c_void,
            bytes.len(),
            name.as_ptr(),
            0,
            std::ptr::null_mut(),
            std::ptr::null_mut(),
        )
    };
    let result = if r != sys::CUresult::CUDA_SUCCESS {
        Err(text(&log, "compiling the PTX", r))
    } else {
        let mut cubin: *mut c_void = std::ptr::null_mut();
        let mut size = 0usize;
        // SAFETY: `state` holds the added PTX; the driver writes a pointer to
        // the cubin it owns (valid until `cuLinkDestroy`) and its size.
        let r = unsafe { sys::cuLinkComplete(state, &mut cubin, &mut size) };
        if r != sys::CUresult::CUDA_SUCCESS || cubin.is_null() {
            Err(text(&log, "linking", r))
        } else {
            // SAFETY: `cubin` points to `size` bytes owned by `state`, which
            // is destroyed only after this copy.
            Ok(unsafe { std::slice::from_raw_parts(cubin as *const u8, size) }.to_vec())
        }
    };
    // SAFETY: `state` was created above and is destroyed once.
    unsafe { sys::cuLinkDestroy(state) };
    result
}
