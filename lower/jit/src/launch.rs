//! Kernel launches on the JIT (issue #13): a PTX module's kernel compiled
//! once, then every CTA of the grid in turn, each warp of a CTA on its own
//! thread (so that `bar.sync` can block it until the others arrive), with
//! the launch's buffers in memory the warps share (`runtime.rs`).
//!
//! The JIT computes values only: it reports every byte of the buffers as
//! defined; which bytes mean something is the reference's call
//! (`warp_core::interp::run_launch`), and `warpdiff diff` compares on
//! those. An access out of bounds, misaligned or to read-only memory ends
//! the launch with an error naming lane, `%tid`, instruction and address.

use super::isa::Tuning;
use super::layout::write_word;
use super::runtime::{self, CtaBarrier, CtaMemory, WarpContext};
use super::{JitProgram, Limits};
use std::sync::{Arc, Mutex};
use warp_core::interp::{prepare, WarpPlace, DEFAULT_FUEL};
use warp_core::ir::{Module, Special, WARP};
use warp_core::launch::{BufferOut, Launch, LaunchError, LaunchOutcome};

/// Tells the CTA's barrier, when dropped, that a warp finished.
struct Leaving(Arc<CtaBarrier>);

impl Drop for Leaving {
    fn drop(&mut self) {
        self.0.finish();
    }
}

/// A kernel of a module compiled once, to launch many times.
pub struct CompiledKernel<'m> {
    module: &'m Module,
    name: String,
    jit: JitProgram,
    prog: Arc<warp_core::ir::Program>,
}

impl<'m> CompiledKernel<'m> {
    /// Compiles kernel `name` of `module`.
    pub fn compile(module: &'m Module, name: &str) -> Result<CompiledKernel<'m>, LaunchError> {
        Self::compile_in_parts(module, name, Tuning::FastCompile.part_insts())
    }

    /// [`CompiledKernel::compile`], a kernel of more than `part_insts`
    /// instructions compiled in parts of at most that many
    /// ([`JitProgram::compile_in_parts`]).
    pub fn compile_in_parts(
        module: &'m Module,
        name: &str,
        part_insts: usize,
    ) -> Result<CompiledKernel<'m>, LaunchError> {
        let Some(k) = module.kernel(name) else {
            let names: Vec<&str> = module.kernels.iter().map(|k| k.name.as_str()).collect();
            return Err(LaunchError(format!(
                "no kernel `{name}` in the module (it has: {})",
                names.join(", ")
            )));
        };
        let jit = JitProgram::compile_in_parts(
            &k.program,
            Tuning::FastCompile,
            Limits::default(),
            false,
            part_insts,
        )
        .map_err(|e| LaunchError(format!("kernel `{}`: {e}", k.name)))?
        .with_fuel(DEFAULT_FUEL);
        Ok(CompiledKernel {
            module,
            name: name.to_string(),
            jit,
            prog: Arc::new(k.program.clone()),
        })
    }

    /// Runs one launch (its `kernel` must name this kernel).
    pub fn launch(&self, launch: &Launch) -> Result<LaunchOutcome, LaunchError> {
        if launch.kernel != self.name {
            return Err(LaunchError(format!(
                "a launch of `{}` on the compiled kernel `{}`",
                launch.kernel, self.name
            )));
        }
        let (k, mem) = prepare(self.module, launch)?;
        run(&self.jit, &self.prog, k, mem, launch)
    }
}

/// Runs `launch` of a kernel of `module` on the JIT (compiling it first:
/// see [`CompiledKernel`] to launch one kernel many times).
pub fn run_launch(module: &Module, launch: &Launch) -> Result<LaunchOutcome, LaunchError> {
    CompiledKernel::compile(module, &launch.kernel)?.launch(launch)
}

/// Every CTA of `launch` on compiled code.
fn run(
    jit: &JitProgram,
    prog: &Arc<warp_core::ir::Program>,
    k: &warp_core::ir::Kernel,
    mem: warp_core::interp::memory::Memory,
    launch: &Launch,
) -> Result<LaunchOutcome, LaunchError> {
    let threads: u64 = launch.block.iter().map(|&d| d as u64).product();
    let nwarps = threads.div_ceil(WARP as u64) as u32;
    let nbuf = launch.buffers.len();
    let mut mem = mem;
    let [gx, gy, gz] = launch.grid;
    for z in 0..gz {
        for y in 0..gy {
            for x in 0..gx {
                mem.next_cta(k.shared_size, launch.shared);
                let shared = Arc::new(Mutex::new(CtaMemory {
                    mem: std::mem::take(&mut mem),
                }));
                let barrier = Arc::new(CtaBarrier::new(nwarps));
                let errors: Vec<Option<String>> = std::thread::scope(|sc| {
                    let handles: Vec<_> = (0..nwarps)
                        .map(|wi| {
                            let (prog, shared, barrier) =
                                (Arc::clone(prog), Arc::clone(&shared), Arc::clone(&barrier));
                            sc.spawn(move || {
                                // However this thread ends (a panic too), the
                                // other warps stop waiting for it at barriers.
                                let _leaving = Leaving(Arc::clone(&barrier));
                                let place = WarpPlace::new(launch, [x, y, z], wi);
                                let mut s = jit.new_state();
                                if let Some(base) = jit.layout.specials {
                                    for (i, &sr) in Special::ALL.iter().enumerate() {
                                        for lane in 0..WARP {
                                            let off = base as usize + i * 128 + lane * 4;
                                            write_word(&mut s.buf, off, 4, place.special(sr, lane) as u64);
                                        }
                                    }
                                }
                                runtime::enter(WarpContext {
                                    prog,
                                    mem: shared,
                                    local: vec![vec![0; k.local_size as usize]; WARP],
                                    tid: place.tid,
                                    barrier: Arc::clone(&barrier),
                                    error: None,
                                });
                                let r = jit.call_from(&mut s, DEFAULT_FUEL, place.absent);
                                let ctx = runtime::leave();
                                let at = format!("cta ({x},{y},{z}) warp {wi}");
                                match (r, ctx.and_then(|c| c.error)) {
                                    (_, Some(e)) => Some(format!("{at}: {e}")),
                                    (Err(e), None) => Some(format!("{at}: {e}")),
                                    (Ok(Some(pc)), None) => Some(format!(
                                        "{at}: out of fuel after {DEFAULT_FUEL} warp steps at line {}",
                                        jit.line(pc)
                                    )),
                                    (Ok(None), None) => None,
                                }
                            })
                        })
                        .collect();
                    handles
                        .into_iter()
                        .map(|h| {
                            h.join()
                                .unwrap_or_else(|_| Some("a warp's thread panicked".into()))
                        })
                        .collect()
                });
                if let Some(e) = errors.into_iter().flatten().next() {
                    return Err(LaunchError(format!("jit: {e}")));
                }
                mem = Arc::try_unwrap(shared)
                    .map_err(|_| LaunchError("jit: a warp kept the memory".into()))?
                    .into_inner()
                    .map_err(|_| LaunchError("jit: memory lock poisoned".into()))?
                    .mem;
            }
        }
    }
    Ok(LaunchOutcome {
        buffers: mem.globals[..nbuf]
            .iter()
            .map(|r| BufferOut {
                name: r.name.clone(),
                bytes: r.bytes.clone(),
                defined: vec![true; r.bytes.len()],
            })
            .collect(),
        ub: None,
        steps: 0,
    })
}
