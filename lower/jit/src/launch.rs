//! Kernel launches on the JIT (issues #13, #36): a PTX module's kernel
//! compiled once, then its grid's CTAs spread over threads (every core by
//! default), each CTA's warps run in turn on one thread, as the
//! interpreter runs them (`warp_core::interp::grid`): each warp until it
//! finishes or every lane of it that can still run waits at `bar.sync`
//! (the generated code returns there, `emit.rs`'s `status::BARRIER`);
//! when no warp can go on, the barrier completes for all of them and they
//! run on from where they stopped.
//!
//! The generated code reads and writes the launch's buffers, the
//! parameters, the CTA's shared memory and the warps' local memory itself
//! (`memory_ops.rs`), lent to it for the launch (`code.rs`: `Lent`,
//! `Lending`); module variables and faulty accesses go through the run
//! time (`runtime.rs`). An access out of bounds, misaligned or to
//! read-only memory ends the launch with an error naming CTA, warp, lane,
//! `%tid`, instruction and address: that of the lowest CTA in the grid's
//! order that faults, whatever the number of threads.
//!
//! The same bytes whatever the number of threads: CTAs are independent
//! in every program the reference calls race-free (another CTA's bytes
//! are a data race: `interp/memory.rs`) except through atomics, which are
//! atomic on the host too (`atomic.rs`) and whose order-dependent results
//! the reference leaves undefined; each CTA's warps run in the
//! interpreter's order on one thread, each CTA starts with zeroed shared
//! and local memory, and each warp with zeroed registers wherever it
//! could read one before writing it (`uninit.rs`), so no value of an
//! earlier CTA on the same thread is seen.
//!
//! The JIT computes values only: it reports every byte of the buffers as
//! defined; which bytes mean something is the reference's call
//! (`warp_core::interp::run_launch`), and `warpdiff diff` compares on
//! those.

use super::code::{Lending, Lent};
use super::emit::status;
use super::isa::Tuning;
use super::runtime::{self, LaunchContext};
use super::{fill_lanes, uninit, write_lanes, JitProgram, Limits, WarpState};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use warp_core::interp::memory::Region;
use warp_core::interp::{OutOfFuel, WarpPlace, DEFAULT_FUEL};
use warp_core::ir::{windows, Axis, Kernel, LaneOpKind, Module, Op, Program, Special, WARP};
use warp_core::launch::{BufferOut, Launch, LaunchError, LaunchOutcome};

/// A kernel of a module compiled once, to launch many times.
pub struct CompiledKernel<'m> {
    module: &'m Module,
    name: String,
    jit: JitProgram,
    prog: Arc<Program>,
    /// The registers a warp may read before writing them (zeroed before
    /// each warp runs): their state offsets and whether 64-bit.
    zeroed: Vec<(u32, bool)>,
}

impl<'m> CompiledKernel<'m> {
    /// Compiles kernel `name` of `module` for the fastest code
    /// ([`Tuning::FastCode`]).
    pub fn compile(module: &'m Module, name: &str) -> Result<CompiledKernel<'m>, LaunchError> {
        Self::compile_with(
            module,
            name,
            Tuning::FastCode,
            Tuning::FastCode.part_insts(),
        )
    }

    /// [`CompiledKernel::compile`] with the fast-compile tuning
    /// ([`Tuning::FastCompile`]), a kernel of more than `part_insts`
    /// instructions compiled in parts of at most that many
    /// ([`JitProgram::compile_in_parts`]).
    pub fn compile_in_parts(
        module: &'m Module,
        name: &str,
        part_insts: usize,
    ) -> Result<CompiledKernel<'m>, LaunchError> {
        Self::compile_with(module, name, Tuning::FastCompile, part_insts)
    }

    /// Compiles kernel `name` of `module` with `tuning`, in parts of at
    /// most `part_insts` instructions when it has more.
    pub fn compile_with(
        module: &'m Module,
        name: &str,
        tuning: Tuning,
        part_insts: usize,
    ) -> Result<CompiledKernel<'m>, LaunchError> {
        let Some(k) = module.kernel(name) else {
            let names: Vec<&str> = module.kernels.iter().map(|k| k.name.as_str()).collect();
            return Err(LaunchError::Invalid(format!(
                "no kernel `{name}` in the module (it has: {})",
                names.join(", ")
            )));
        };
        let jit = JitProgram::compile_kernel(&k.program, tuning, Limits::default(), part_insts)
            .map_err(|e| LaunchError::Engine(format!("kernel `{}`: {e}", k.name)))?
            .with_fuel(DEFAULT_FUEL);
        let zeroed = uninit::read_before_written(&k.program)
            .into_iter()
            .map(|r| {
                let wide = super::layout::wide(k.program.decl(r).ty);
                (jit.layout.regs[r.index()], wide)
            })
            .collect();
        Ok(CompiledKernel {
            module,
            name: name.to_string(),
            jit,
            prog: Arc::new(k.program.clone()),
            zeroed,
        })
    }

    /// The compiled program.
    pub fn program(&self) -> &JitProgram {
        &self.jit
    }

    /// Runs one launch (its `kernel` must name this kernel) with its CTAs
    /// spread over every core.
    pub fn launch(&self, launch: &Launch) -> Result<LaunchOutcome, LaunchError> {
        self.launch_on(launch, super::threads())
    }

    /// Runs one launch on at most `threads` threads (1: every CTA in
    /// order on this thread). The buffers are the same whatever the
    /// number, for every program the reference calls race-free.
    pub fn launch_on(&self, launch: &Launch, threads: usize) -> Result<LaunchOutcome, LaunchError> {
        let mut buffers: Vec<Vec<u8>> = launch.buffers.iter().map(|b| b.bytes.clone()).collect();
        self.run_on(launch, &mut buffers, threads)?;
        Ok(LaunchOutcome {
            buffers: launch
                .buffers
                .iter()
                .zip(buffers)
                .map(|(b, bytes)| BufferOut {
                    name: b.name.clone(),
                    defined: vec![true; bytes.len()],
                    bytes,
                })
                .collect(),
            ub: None,
            steps: 0,
        })
    }

    /// [`CompiledKernel::run_on`] every core: `launch` on `buffers` in
    /// place, no copy in or out (what `warpdiff run` does with the bytes
    /// it read: a launch's buffers taken out of it).
    pub fn run_in_place(
        &self,
        launch: &Launch,
        buffers: &mut [Vec<u8>],
    ) -> Result<(), LaunchError> {
        self.run_on(launch, buffers, super::threads())
    }

    /// Runs `launch` on `buffers` in place (the launch's buffers' bytes,
    /// in its order: its own are not read) on at most `threads` threads:
    /// a launch without the copies in and out, for running one kernel
    /// over the same memory many times (a benchmark).
    pub fn run_on(
        &self,
        launch: &Launch,
        buffers: &mut [Vec<u8>],
        threads: usize,
    ) -> Result<(), LaunchError> {
        if launch.kernel != self.name {
            return Err(LaunchError::Invalid(format!(
                "a launch of `{}` on the compiled kernel `{}`",
                launch.kernel, self.name
            )));
        }
        let (k, values) = launch.bind(self.module)?;
        if buffers.len() != launch.buffers.len() {
            return Err(LaunchError::Invalid(format!(
                "{} buffers for a launch of {}",
                buffers.len(),
                launch.buffers.len()
            )));
        }
        for (b, bytes) in launch.buffers.iter().zip(buffers.iter()) {
            if bytes.len() as u64 > windows::BUFFER_STRIDE {
                return Err(LaunchError::Invalid(format!(
                    "buffer `{}` is over 4 GiB",
                    b.name
                )));
            }
        }
        let mut param = warp_core::launch::param_space(k, &values).0;
        let vars = Arc::new(Mutex::new(variables(self.module)));
        let grid = Grid::new(launch);
        let errors = {
            let lent: Vec<Lent> = buffers.iter_mut().map(|b| Lent::new(b)).collect();
            let param = Lent::new(&mut param);
            let shared = Shared {
                kernel: self,
                k,
                launch,
                grid: &grid,
                buffers: &lent,
                param: &param,
                vars: &vars,
                next: AtomicU64::new(0),
                failed: AtomicU64::new(u64::MAX),
            };
            let threads = threads
                .max(1)
                .min(grid.ctas.min(usize::MAX as u64) as usize);
            if threads == 1 {
                vec![shared.worker()]
            } else {
                std::thread::scope(|sc| {
                    let handles: Vec<_> =
                        (0..threads).map(|_| sc.spawn(|| shared.worker())).collect();
                    handles
                        .into_iter()
                        .map(|h| {
                            h.join().unwrap_or_else(|_| {
                                Some((0, LaunchError::Engine("jit: a thread panicked".into())))
                            })
                        })
                        .collect()
                })
            }
        };
        match errors.into_iter().flatten().min_by_key(|(cta, _)| *cta) {
            Some((_, e)) => Err(e),
            None => Ok(()),
        }
    }
}

/// The module's `.global` and `.const` variables at their generic
/// addresses (`.const` read-only), as `warp_core::interp::prepare` makes
/// them.
fn variables(m: &Module) -> Vec<Region> {
    m.globals
        .iter()
        .map(|g| {
            let bytes = g.init.clone().unwrap_or_else(|| vec![0; g.size as usize]);
            let r = Region::new(&g.name, g.address, bytes, vec![true; g.size as usize]);
            if g.address < windows::GLOBAL_VARS {
                r.read_only()
            } else {
                r
            }
        })
        .collect()
}

/// Runs `launch` of a kernel of `module` on the JIT (compiling it first:
/// see [`CompiledKernel`] to launch one kernel many times).
pub fn run_launch(module: &Module, launch: &Launch) -> Result<LaunchOutcome, LaunchError> {
    CompiledKernel::compile(module, &launch.kernel)?.launch(launch)
}

/// The shape of a launch: its CTAs in order (x fastest) and each warp's
/// place in a CTA.
struct Grid {
    dims: [u32; 3],
    ctas: u64,
    /// Warp `w` of CTA (0,0,0).
    places: Vec<WarpPlace>,
}

impl Grid {
    fn new(launch: &Launch) -> Grid {
        let threads: u64 = launch.block.iter().map(|&d| d as u64).product();
        let nwarps = threads.div_ceil(WARP as u64) as u32;
        Grid {
            dims: launch.grid,
            ctas: launch.grid.iter().map(|&d| d as u64).product(),
            places: (0..nwarps)
                .map(|w| WarpPlace::new(launch, [0; 3], w))
                .collect(),
        }
    }

    /// CTA `i` in the grid's order.
    fn cta(&self, i: u64) -> [u32; 3] {
        let [gx, gy, _] = self.dims.map(|d| d as u64);
        [
            (i % gx) as u32,
            (i / gx % gy) as u32,
            (i / (gx * gy)) as u32,
        ]
    }
}

/// What the threads of one launch share.
struct Shared<'s, 'm> {
    kernel: &'s CompiledKernel<'m>,
    k: &'s Kernel,
    launch: &'s Launch,
    grid: &'s Grid,
    buffers: &'s [Lent<'s>],
    param: &'s Lent<'s>,
    vars: &'s Arc<Mutex<Vec<Region>>>,
    /// The next CTA no thread has taken.
    next: AtomicU64,
    /// The lowest CTA that failed so far (`u64::MAX`: none).
    failed: AtomicU64,
}

/// One thread's CTA memory, reused from CTA to CTA, and the `%ctaid` its
/// warps' states hold.
struct CtaMemory {
    shared: Vec<u8>,
    dynamic: Vec<u8>,
    /// Every warp's 32 lanes of local memory, warp after warp.
    local: Vec<u8>,
    ctaid: [u32; 3],
}

impl Shared<'_, '_> {
    /// One thread's work: CTAs taken in order, a few at a time, until
    /// none is left or a lower one failed. Returns the first (the only)
    /// CTA of this thread that failed, with the error.
    fn worker(&self) -> Option<(u64, LaunchError)> {
        let kern = self.kernel;
        let jit = &kern.jit;
        let nwarps = self.grid.places.len();
        let local_size = self.k.local_size as usize;
        runtime::enter(LaunchContext {
            prog: Arc::clone(&kern.prog),
            vars: Arc::clone(self.vars),
            buffers: (0..self.buffers.len())
                .map(|i| {
                    let base = windows::BUFFERS + i as u64 * windows::BUFFER_STRIDE;
                    (base, self.buffers[i].len() as u64)
                })
                .collect(),
            param: self.param.len() as u64,
            shared: self.k.shared_size,
            dynamic: self.launch.shared as u64,
            local: local_size as u64,
            tids: self.grid.places.iter().map(|p| p.tid).collect(),
            warp: 0,
            error: None,
        });
        // The special registers the code reads (only `Special` lane ops
        // read their places in the state): the others' places are left 0.
        let read: Vec<bool> = Special::ALL
            .iter()
            .map(|&sr| {
                kern.prog
                    .insts
                    .iter()
                    .any(|i| matches!(&i.op, Op::LaneOp(x) if x.kind == LaneOpKind::Special(sr)))
            })
            .collect();
        let mut states: Vec<WarpState> = self
            .grid
            .places
            .iter()
            .map(|place| {
                let mut s = jit.new_state();
                if let Some(base) = jit.layout.specials {
                    for (i, &sr) in Special::ALL.iter().enumerate() {
                        if !read[i] {
                            continue;
                        }
                        let vals = std::array::from_fn(|lane| place.special(sr, lane) as u64);
                        write_lanes(&mut s.buf, base as usize + i * 128, false, vals);
                    }
                }
                s
            })
            .collect();
        let mut memory = CtaMemory {
            shared: vec![0; self.k.shared_size as usize],
            dynamic: vec![0; self.launch.shared as usize],
            local: vec![0; nwarps * WARP * local_size],
            ctaid: [0; 3],
        };
        let chunk = (self.grid.ctas / (64 * super::threads() as u64)).clamp(1, 64);
        let mut result = None;
        'all: loop {
            let start = self.next.fetch_add(chunk, Ordering::Relaxed);
            if start >= self.grid.ctas {
                break;
            }
            for i in start..(start + chunk).min(self.grid.ctas) {
                // A lower CTA failed: the launch fails there, whatever this
                // one does.
                if i > self.failed.load(Ordering::Relaxed) {
                    break 'all;
                }
                if let Err(e) = self.cta(i, &mut states, &mut memory) {
                    self.failed.fetch_min(i, Ordering::Relaxed);
                    result = Some((i, e));
                    break 'all;
                }
            }
        }
        runtime::leave();
        result
    }

    /// Runs CTA `i` on `states` (one per warp) and `memory`.
    fn cta(
        &self,
        i: u64,
        states: &mut [WarpState],
        memory: &mut CtaMemory,
    ) -> Result<(), LaunchError> {
        let jit = &self.kernel.jit;
        let ctaid = self.grid.cta(i);
        let [x, y, z] = ctaid;
        let local_size = self.k.local_size as usize;
        memory.shared.fill(0);
        memory.dynamic.fill(0);
        memory.local.fill(0);
        let shared = Lent::new(&mut memory.shared);
        let dynamic = Lent::new(&mut memory.dynamic);
        let none = Lent::none();
        let locals: Vec<Lent> = if local_size == 0 {
            Vec::new()
        } else {
            memory
                .local
                .chunks_mut(WARP * local_size)
                .map(Lent::new)
                .collect()
        };
        // (At most 32 warps to a CTA: on the stack, no allocation; the
        // warps differ only in their local memory.)
        let common = Lending::new(self.buffers, self.param, &shared, &dynamic, &none, 0);
        // (One per warp only where the warps have local memory.)
        let per_warp = (!locals.is_empty()).then(|| {
            let mut lendings = [common; 32];
            for (w, local) in locals.iter().enumerate() {
                lendings[w] = Lending::new(
                    self.buffers,
                    self.param,
                    &shared,
                    &dynamic,
                    local,
                    local_size,
                );
            }
            lendings
        });
        let lendings = match &per_warp {
            Some(l) => &l[..],
            None => std::slice::from_ref(&common),
        };
        // Each warp from a clean start: the registers it could read
        // before writing zeroed, `%ctaid` this CTA's.
        let specials = jit.layout.specials;
        for s in states.iter_mut() {
            for &(off, wide) in &self.kernel.zeroed {
                fill_lanes(&mut s.buf, off as usize, wide, 0);
            }
            if let Some(base) = specials {
                for (a, axis) in [Axis::X, Axis::Y, Axis::Z].into_iter().enumerate() {
                    if ctaid[a] != memory.ctaid[a] {
                        let i = Special::ALL
                            .iter()
                            .position(|&s| s == Special::Ctaid(axis))
                            .expect("listed");
                        let off = base as usize + i * 128;
                        fill_lanes(&mut s.buf, off, false, ctaid[a] as u64);
                    }
                }
            }
        }
        memory.ctaid = ctaid;
        let at = |w: usize| format!("cta ({x},{y},{z}) warp {w}");
        let mut done = [false; 32];
        let done = &mut done[..states.len()];
        let mut started = false;
        loop {
            for (w, s) in states.iter_mut().enumerate() {
                if done[w] {
                    continue;
                }
                runtime::set_warp(w);
                let lending = Some(&lendings[w.min(lendings.len() - 1)]);
                let st = if started {
                    jit.resume(s, lending)
                } else {
                    jit.start(s, DEFAULT_FUEL, self.grid.places[w].absent, lending)
                };
                match runtime::take_error() {
                    Some(LaunchError::Fault(mut f)) => {
                        f.cta = ctaid;
                        return Err(LaunchError::Fault(f));
                    }
                    Some(e) => return Err(LaunchError::Engine(format!("jit: {}: {e}", at(w)))),
                    None => {}
                }
                match st {
                    status::DONE => done[w] = true,
                    status::BARRIER => {}
                    other => {
                        return Err(match jit.outcome_of(s, other, DEFAULT_FUEL) {
                            Ok(Some(pc)) => LaunchError::OutOfFuel {
                                cta: ctaid,
                                warp: w as u32,
                                fuel: OutOfFuel {
                                    steps: DEFAULT_FUEL,
                                    line: jit.line(pc),
                                },
                            },
                            Ok(None) => {
                                LaunchError::Engine(format!("jit: {}: status {other}", at(w)))
                            }
                            Err(e) => LaunchError::Engine(format!("jit: {}: {e}", at(w))),
                        })
                    }
                }
            }
            started = true;
            if done.iter().all(|&d| d) {
                return Ok(());
            }
            // Every warp that can still run waits at the barrier: it
            // completes for all of them.
            for (w, s) in states.iter_mut().enumerate() {
                if !done[w] {
                    jit.release(s);
                }
            }
        }
    }
}
