//! The Cranelift JIT: a warp program lowered to native code that runs all
//! 32 lanes on the CPU, with the interpreter's min-PC reconvergence.
//!
//! Compile once with [`JitProgram::compile`], then run on one warp
//! ([`JitProgram::run`]) or on many at once on all cores
//! ([`JitProgram::run_batch`], [`JitProgram::run_states`]). The JIT does
//! not track definedness or detect undefined behaviour (that is the
//! interpreter's job): it reports every lane's bits, and a program with UB
//! still runs memory-safely, its result meaningless.
//!
//! `warp-jit` re-exports [`warp_core`], so it is the one dependency a user
//! needs. A warp program, JIT-run and checked against the reference
//! interpreter on its defined lanes (a butterfly sum over the warp: every
//! lane ends with 0 + 1 + ... + 31 = 496):
//!
//! ```
//! use warp_jit::warp_core::{interp::Interp, ir::Inputs, ir::WARP, text::parse};
//! use warp_jit::JitProgram;
//!
//! let case = parse(
//!     ".reg .u32 x, y;
//!      mov.u32 x, %laneid;
//!      shfl.sync.bfly.b32 y, x, 16, 0x1f, 0xffffffff;  add.u32 x, x, y;
//!      shfl.sync.bfly.b32 y, x, 8, 0x1f, 0xffffffff;   add.u32 x, x, y;
//!      shfl.sync.bfly.b32 y, x, 4, 0x1f, 0xffffffff;   add.u32 x, x, y;
//!      shfl.sync.bfly.b32 y, x, 2, 0x1f, 0xffffffff;   add.u32 x, x, y;
//!      shfl.sync.bfly.b32 y, x, 1, 0x1f, 0xffffffff;   add.u32 x, x, y;",
//! )?;
//! let x = case.program.reg("x").expect("declared");
//! let jit = JitProgram::compile(&case.program)?;
//! let out = jit.run(&Inputs::default())?;
//! assert!(out.values[x.index()].iter().all(|&v| v == 496));
//!
//! // The reference agrees on every lane it defines (here: all of them).
//! let reference = Interp::new(&case.program).run(&Inputs::default())?;
//! for lane in 0..WARP {
//!     assert_eq!(reference.get(x, lane), Some(out.values[x.index()][lane]));
//! }
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
//!
//! A kernel launch built in code ([`warp_core::launch::Launch`]) runs a PTX
//! module as nvcc wrote it on all cores ([`launch::run_launch`]); the
//! repository's `examples/library-user` launches nvcc's saxpy that way,
//! and `cargo run -p warp-jit --example kernel` a real kernel checked
//! against the reference. Errors are typed
//! ([`LaunchError`](warp_core::launch::LaunchError)): a kernel's faulty
//! memory access is `LaunchError::Fault`, the same
//! [`AccessFault`](warp_core::ub::AccessFault) (lane, `%tid`, instruction,
//! address) the interpreter reports as undefined behaviour.
//!
//! # Modules
//!
//! One file per instruction family, named as in `warp-core`'s interpreter
//! (`shfl.rs`, `vote.rs`, `matching.rs`, `redux.rs`, `activemask.rs`,
//! `alu.rs` for the glue, `lane_ops.rs` for the lane ops of PTX modules:
//! PTX's thread-level instructions, `lane_vec.rs` for those of them that
//! run four lanes at a time, `memory_ops.rs` for `ld`/`st`); the driver
//! `emit.rs`, which walks the
//! instructions, runs control flow and hands each other instruction to its
//! family; `builder.rs`, the `Emitter` the families lower with (state
//! memory, lane masks, operand access); `layout.rs` (where each register
//! lives in the state, read by the driver and the builder),
//! `rendezvous.rs` (which `.sync` collectives pair, and the registers of a
//! rendezvous whose members stand at different instructions), `code.rs`
//! (executable memory), `parts.rs` (a program's functions and their
//! dispatcher), `isa.rs` ([`Tuning`], the Cranelift target each tuning
//! compiles for, and the last compile step), `error.rs` ([`JitError`]),
//! `runtime.rs` (what compiled code calls back: module variables, faulty
//! accesses, scalar semantics), `launch.rs` (kernel launches: CTAs on
//! every core, each CTA's warps in turn between barriers), `uninit.rs`
//! (the registers a kernel's warp may read before writing them),
//! `liveness.rs` (those it may read after each instruction), `uniform.rs`
//! (those that hold one value on every lane of the warp) and
//! `inject.rs` (bugs planted on purpose).
//!
//! # Two tiers
//!
//! [`Tuning::FastCode`] lowers every instruction inline (about 100
//! Cranelift instructions per PTX instruction) and compiles with
//! Cranelift's optimiser and backtracking register allocator: the fastest
//! code. [`Tuning::FastCompile`] (fuzzing, one-off runs) emits a call per
//! instruction to a helper shared by every program of the process
//! (`outline.rs`: the same families' lowering, compiled once per
//! instruction shape), and the driver's run-time work (a guard's lanes,
//! recording a `membermask`, completing a rendezvous) as calls of the
//! helpers of `sched_helpers.rs`, compiled once per process.
//!
//! # Big programs in parts
//!
//! Cranelift's time and memory per instruction grow with the size of the
//! function it compiles. A program of more than [`Tuning::part_insts`]
//! instructions is compiled as several functions (`emit.rs`'s `Unit`):
//! parts of a bounded number of instructions, and the completion of
//! rendezvous; `parts.rs` holds their code and the dispatcher that runs
//! them (and is the scheduler). The results are the same as one
//! function's.
//!
//! Imports go one way, with no circle: each file imports only files
//! listed below it.
//!
//! ```text
//! launch.rs        ──> lib.rs (JitProgram), emit.rs (its return codes),
//!                      runtime.rs, uninit.rs, layout.rs, isa.rs, code.rs
//! lib.rs           ──> parts.rs, emit.rs, outline.rs, sched_helpers.rs,
//!                      rendezvous.rs, inject.rs, runtime.rs, layout.rs, isa.rs,
//!                      code.rs
//! parts.rs         ──> emit.rs (its return codes), layout.rs, code.rs
//! emit.rs          ──> the families, rendezvous.rs, outline.rs, sched_helpers.rs,
//!                      inject.rs, builder.rs, layout.rs, error.rs, uniform.rs
//! the families     ──> builder.rs, inject.rs (lane_ops.rs, lane_vec.rs,
//!                      memory_ops.rs: runtime.rs, layout.rs, rows.rs; lane_vec.rs:
//!                      isa.rs, uniform.rs)
//! rows.rs          ──> builder.rs, inject.rs
//! outline.rs       ──> sched_helpers.rs, builder.rs, layout.rs, isa.rs
//! sched_helpers.rs ──> builder.rs, layout.rs, isa.rs
//! builder.rs       ──> layout.rs, liveness.rs
//! isa.rs           ──> code.rs, error.rs
//! layout.rs        ──> code.rs (where the memory words are)
//! ```
//!
//! (`outline.rs` and `sched_helpers.rs` compile their helpers with
//! `isa.rs`; a helper's body is a family's lowering, which `emit.rs` hands
//! to `outline.rs` as a function, so `outline.rs` imports no family.)
//! A family imports `builder.rs` (and `inject.rs`), never `emit.rs` nor
//! another family; `builder.rs` imports no family.

#![deny(unsafe_code)]
#![warn(missing_docs)]

mod activemask;
mod alu;
mod approx;
mod atomic;
mod atomic_host;
mod builder;
mod code;
mod constants;
mod emit;
mod error;
// Not API: the bugs the fuzzer's own tests plant (`inject-bugs`).
#[doc(hidden)]
pub mod inject;
mod isa;
mod lane_ops;
mod lane_vec;
pub mod launch;
mod layout;
mod liveness;
mod matching;
mod memory_ops;
pub mod outline;
mod parts;
mod redux;
mod rendezvous;
mod rows;
// Not API: what the generated code calls back at run time.
#[doc(hidden)]
pub mod runtime;
mod sched_helpers;
mod shfl;
mod uniform;
mod uninit;
mod vote;

pub use error::JitError;
pub use isa::Tuning;
/// The reference crate this one builds on, re-exported so that depending on
/// `warp-jit` alone is enough: its IR, text formats, launches and outcomes
/// (`warp_jit::warp_core::text::parse`, `warp_jit::warp_core::launch::Launch`).
pub use warp_core;

use code::Code;
use cranelift_codegen::ir::{types, AbiParam, Signature, UserFuncName};
use cranelift_codegen::isa::{CallConv, OwnedTargetIsa};
use cranelift_codegen::Context;
use cranelift_frontend::{FunctionBuilder, FunctionBuilderContext};
use isa::{isa, machine_code};
use layout::{read_word, wide, write_word, Layout};
use std::cell::RefCell;
use std::fmt;
use std::sync::{Arc, Mutex, OnceLock};
use warp_core::engine::{CompileError, Compiled, Engine, RunError, Skip};
use warp_core::interp::{WarpPlace, DEFAULT_FUEL};
use warp_core::ir::{Inputs, Program, Reg, Special, WARP};
use warp_core::outcome::{Outcome, Stop};

/// Size limits of one compile, so that a huge program gets a clear error
/// in well under a second instead of minutes and gigabytes: compile time
/// and memory grow with the generated code.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Limits {
    /// Most PTX instructions in a program (`warpdiff --max-insts`).
    pub max_insts: usize,
    /// Most Cranelift instructions the lowering may generate before the
    /// compile is refused (the code-size budget).
    pub max_clif_insts: usize,
}

impl Limits {
    /// The default limit on PTX instructions, for the compile time of the
    /// fast-code tuning: about 250 µs per instruction (mix200 repeated,
    /// in parts: 5 s at 20,000). The fast-compile tuning compiles 200,000
    /// instructions in about a second: raise the limit
    /// (`warpdiff --max-insts`) for such programs. (Before programs were
    /// compiled in parts, the limit also kept the one function's stack
    /// frame within a default 8 MiB thread stack: mix200 repeated to
    /// 50,000 instructions crashed with SIGSEGV inside the generated code
    /// then; in parts it runs, issue #14 note of 2026-11-24.)
    pub const DEFAULT_MAX_INSTS: usize = 20_000;
    /// The default code-size budget, in Cranelift instructions.
    pub const DEFAULT_MAX_CLIF_INSTS: usize = 12_000_000;
}

impl Default for Limits {
    fn default() -> Self {
        Limits {
            max_insts: Self::DEFAULT_MAX_INSTS,
            max_clif_insts: Self::DEFAULT_MAX_CLIF_INSTS,
        }
    }
}

/// Lowers `unit` of `plan`'s program and compiles it, after `budget` has
/// accepted its size in Cranelift instructions: the code and that size.
#[allow(clippy::too_many_arguments)]
fn compile_unit(
    sig: &Signature,
    isa: &'static OwnedTargetIsa,
    plan: &rendezvous::Plan,
    layout: &Layout,
    masks: &emit::Masks,
    stepped: bool,
    helpers: sched_helpers::Helpers,
    sites: &mut outline::Sites,
    outline: bool,
    unit: emit::Unit<'_>,
    budget: impl FnOnce(usize) -> Result<(), JitError>,
) -> Result<(Code, usize), JitError> {
    // Cranelift's contexts are reused from one compile to the next on a
    // thread (their allocations kept), as Cranelift recommends. They are
    // cleared after a compile too, so that between compiles they hold
    // capacity only: what a compile allocates and keeps (its
    // `CompiledCode`, a new `Function`) is freed in the same call. A count
    // of live allocations that changed from one call to the next made
    // libFuzzer re-run one `diff` input in three to look for a leak.
    thread_local! {
        static CONTEXTS: RefCell<(Context, FunctionBuilderContext)> =
            RefCell::new((Context::new(), FunctionBuilderContext::new()));
    }
    CONTEXTS.with(|c| {
        // A helper compiled during this lowering uses fresh contexts; this
        // one is never entered twice at once.
        let mut c = c.borrow_mut();
        let (ctx, fctx) = &mut *c;
        ctx.clear();
        ctx.func.name = UserFuncName::user(0, 0);
        ctx.func.signature = sig.clone();
        let lowered = {
            let mut b = FunctionBuilder::new(&mut ctx.func, fctx);
            let r = emit::emit_function(
                &mut b, plan, layout, masks, stepped, helpers, sites, outline, unit,
            );
            b.finalize(isa.frontend_config());
            r
        };
        let clif = ctx.func.dfg.num_insts();

        let code = lowered
            .and_then(|()| budget(clif))
            .and_then(|()| machine_code(ctx, isa, "program"));
        ctx.clear();
        // A huge function leaves the contexts holding its memory: let it
        // go rather than keep it for the next compile.
        if clif > KEEP_CONTEXTS_BELOW {
            *ctx = Context::new();
            *fctx = FunctionBuilderContext::new();
        }
        Ok((code?, clif))
    })
}

/// Cranelift instructions above which a compile's contexts are dropped
/// after it instead of kept for the next one on the thread.
const KEEP_CONTEXTS_BELOW: usize = 100_000;

/// A program compiled to native code.
pub struct JitProgram {
    prog: Program,
    /// The program again, for the run-time context a case's run enters
    /// when its code calls the host (`runtime.rs`: lane ops computed by the
    /// reference's scalar semantics, 16-bit glue); `None` when it never
    /// does.
    host: Option<Arc<Program>>,
    layout: Layout,
    code: parts::Body,
    fuel: u64,
    /// Compiled by [`JitProgram::compile_stepped`]: it can run bounded.
    stepped: bool,
    /// The tables the code's helper calls read (the fast-compile tier's
    /// call sites, every tier's descriptions of big groups).
    _sites: outline::Sites,
    /// Cranelift instructions the lowering generated.
    clif: usize,
    /// Per `bar.sync`, the state offsets of its waiting lanes' mask and of
    /// the park point after it ([`JitProgram::release`]).
    barriers: Vec<(u32, u32)>,
}

impl fmt::Debug for JitProgram {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("JitProgram")
            .field("insts", &self.prog.insts.len())
            .field("code_bytes", &self.code.len())
            .finish()
    }
}

/// The state of one warp as the compiled code sees it: every register's
/// 32 lanes, the exited mask, and the fuel. Reusable across runs.
#[derive(Clone)]
pub struct WarpState {
    buf: Vec<u128>,
}

impl JitProgram {
    /// Lowers and compiles `prog` for the fastest code (with
    /// [`DEFAULT_FUEL`]).
    pub fn compile(prog: &Program) -> Result<JitProgram, JitError> {
        Self::compile_with(prog, Tuning::FastCode)
    }

    /// Lowers and compiles `prog` with the given tuning and the default
    /// [`Limits`].
    pub fn compile_with(prog: &Program, tuning: Tuning) -> Result<JitProgram, JitError> {
        Self::compile_limited(prog, tuning, Limits::default())
    }

    /// Lowers and compiles `prog` with the given tuning, refusing programs
    /// over `limits` with [`JitError::TooBig`].
    pub fn compile_limited(
        prog: &Program,
        tuning: Tuning,
        limits: Limits,
    ) -> Result<JitProgram, JitError> {
        Self::build_parts(prog, tuning, limits, false, tuning.part_insts(), false)
    }

    /// Like [`JitProgram::compile_limited`], for code that charges fuel
    /// before every instruction, so that a run can stop after exactly
    /// [`Inputs::fuel`] warp steps (a bounded run) and report where, as the
    /// interpreter does. Somewhat slower code; the same results otherwise.
    pub fn compile_stepped(
        prog: &Program,
        tuning: Tuning,
        limits: Limits,
    ) -> Result<JitProgram, JitError> {
        Self::build_parts(prog, tuning, limits, true, tuning.part_insts(), false)
    }

    /// Like [`JitProgram::compile_limited`] (or with `stepped`,
    /// [`JitProgram::compile_stepped`]), compiling a program of more than
    /// `part_insts` instructions as several functions (parts of at most
    /// that many instructions each; by default
    /// [`Tuning::part_insts`]): the results are the same, Cranelift's time
    /// and memory per instruction stay those of a small program.
    pub fn compile_in_parts(
        prog: &Program,
        tuning: Tuning,
        limits: Limits,
        stepped: bool,
        part_insts: usize,
    ) -> Result<JitProgram, JitError> {
        Self::build_parts(prog, tuning, limits, stepped, part_insts.max(1), false)
    }

    /// [`JitProgram::compile_in_parts`] of a kernel's program, not stepped
    /// (`launch.rs`): its registers are no results, so the code may leave
    /// in the state values that no lane reads again.
    pub(crate) fn compile_kernel(
        prog: &Program,
        tuning: Tuning,
        limits: Limits,
        part_insts: usize,
    ) -> Result<JitProgram, JitError> {
        Self::build_parts(prog, tuning, limits, false, part_insts.max(1), true)
    }

    fn build_parts(
        prog: &Program,
        tuning: Tuning,
        limits: Limits,
        stepped: bool,
        part_insts: usize,
        kernel: bool,
    ) -> Result<JitProgram, JitError> {
        if prog.insts.len() > limits.max_insts {
            return Err(JitError::TooBig(format!(
                "program has {} instructions; the JIT limit is {}; use the interpreter or raise --max-insts",
                prog.insts.len(),
                limits.max_insts
            )));
        }
        not_lowered(prog)?;
        inject::compile_error(prog).map_err(JitError::Failed)?;
        let isa = isa(tuning)?;
        // A kernel's registers that hold one immediate are read as it.
        let folded = prog
            .insts
            .iter()
            .any(|i| matches!(i.op, warp_core::ir::Op::LaneOp(_)))
            .then(|| constants::fold(prog))
            .flatten();
        let mut plan = rendezvous::Plan::new(folded.as_ref().unwrap_or(prog));
        plan.kernel = kernel;
        let mut sig = Signature::new(CallConv::triple_default(isa.triple()));
        sig.params.push(AbiParam::new(isa.pointer_type()));
        sig.returns.push(AbiParam::new(types::I32));
        let helpers = sched_helpers::Helpers::get()?;
        let mut sites = outline::Sites::default();
        let cut = (prog.insts.len() > part_insts).then_some(part_insts);
        let points = emit::Masks::points_of(&plan, cut);
        let layout = Layout::new(&plan.prog).with_masks(emit::Masks::count(&plan, &points));
        let masks = emit::Masks::new(&plan, points, &layout);
        let mut clif = 0;
        // One Cranelift function, compiled now; refused when the code-size
        // budget runs out.
        let mut compile = |unit: emit::Unit<'_>| {
            let outline = tuning == Tuning::FastCompile;
            let (code, n) = compile_unit(
                &sig,
                isa,
                &plan,
                &layout,
                &masks,
                stepped,
                helpers,
                &mut sites,
                outline,
                unit,
                |n| {
                    if clif + n > limits.max_clif_insts {
                        return Err(JitError::TooBig(format!(
                        "program of {} instructions lowers to more than {} Cranelift instructions (the JIT code-size budget); use the interpreter or split the program",
                        prog.insts.len(),
                        limits.max_clif_insts
                    )));
                    }
                    Ok(())
                },
            )?;
            clif += n;
            Ok::<_, JitError>(code)
        };
        let body = match cut {
            None => parts::Body::Whole(compile(emit::Unit::Whole)?),
            Some(size) => {
                let mut parkable = emit::initial_parkable(&plan.prog);
                let n = emit::parts(prog.insts.len(), size);
                let mut codes = Vec::with_capacity(n);
                for index in 0..n {
                    let unit = emit::Unit::Part {
                        index,
                        size,
                        parkable: &mut parkable,
                    };
                    codes.push(compile(unit)?);
                }
                let completion = emit::completion_chunks(&plan, size)
                    .into_iter()
                    .map(|groups| compile(emit::Unit::Completion(groups)))
                    .collect::<Result<Vec<_>, _>>()?;
                parts::Body::Parts(parts::Parts {
                    parts: codes,
                    completion,
                    size,
                    points: masks.points.iter().map(|&p| p as u32).collect(),
                    schedule: emit::schedule(&masks, &parkable),
                    barriers: masks.barriers().into_iter().map(|(m, _)| m).collect(),
                })
            }
        };
        Ok(JitProgram {
            prog: prog.clone(),
            host: calls_host(prog).then(|| Arc::new(prog.clone())),
            layout,
            code: body,
            fuel: DEFAULT_FUEL,
            stepped,
            _sites: sites,
            clif,
            barriers: masks.barriers(),
        })
    }

    /// Sets the fuel (maximum warp steps) of every later run.
    pub fn with_fuel(mut self, fuel: u64) -> Self {
        self.fuel = fuel;
        self
    }

    /// The program this was compiled from.
    pub fn program(&self) -> &Program {
        &self.prog
    }

    /// How many Cranelift instructions the lowering generated (the
    /// compile's size: Cranelift's time grows with it).
    pub fn clif_insts(&self) -> usize {
        self.clif
    }

    /// How many functions the program compiled to: 1, or for a program
    /// compiled in parts its parts and those of the completion of
    /// rendezvous.
    pub fn functions(&self) -> usize {
        self.code.functions()
    }

    /// Size of the generated machine code in bytes.
    pub fn code_size(&self) -> usize {
        self.code.len()
    }

    /// A zeroed state for this program.
    pub fn new_state(&self) -> WarpState {
        WarpState {
            buf: vec![0; self.layout.size as usize / 16],
        }
    }

    /// A state holding `inputs` (registers without `.lanes` are zero), and
    /// the special registers of a case's warp ([`WarpPlace::one_warp`]).
    pub fn state_for(&self, inputs: &Inputs) -> WarpState {
        let mut s = self.new_state();
        for (r, vals) in &inputs.lanes {
            self.set_lanes(&mut s, *r, vals);
        }
        self.set_place(&mut s, &WarpPlace::one_warp());
        s
    }

    /// Writes what the special registers read on each lane for a warp at
    /// `place` (nothing when the program reads none).
    pub fn set_place(&self, s: &mut WarpState, place: &WarpPlace) {
        let Some(base) = self.layout.specials else {
            return;
        };
        for (i, &sr) in Special::ALL.iter().enumerate() {
            for lane in 0..WARP {
                let off = base as usize + i * 128 + lane * 4;
                write_word(&mut s.buf, off, 4, place.special(sr, lane) as u64);
            }
        }
    }

    /// Writes every lane of register `r`.
    pub fn set_lanes(&self, s: &mut WarpState, r: Reg, vals: &[u64; WARP]) {
        let ty = self.prog.decl(r).ty;
        let off = self.layout.regs[r.index()] as usize;
        write_lanes(&mut s.buf, off, wide(ty), vals.map(|v| v & ty.mask()));
    }

    /// Reads every lane of register `r`.
    pub fn get_lanes(&self, s: &WarpState, r: Reg) -> [u64; WARP] {
        let ty = self.prog.decl(r).ty;
        let off = self.layout.regs[r.index()] as usize;
        read_lanes(&s.buf, off, wide(ty)).map(|v| v & ty.mask())
    }

    /// Writes lane `lane` of register `r`.
    pub fn set(&self, s: &mut WarpState, r: Reg, lane: usize, v: u64) {
        let ty = self.prog.decl(r).ty;
        let size = if wide(ty) { 8 } else { 4 };
        let off = self.layout.regs[r.index()] as usize + lane * size;
        write_word(&mut s.buf, off, size, v & ty.mask());
    }

    /// Reads lane `lane` of register `r`.
    pub fn get(&self, s: &WarpState, r: Reg, lane: usize) -> u64 {
        let ty = self.prog.decl(r).ty;
        let size = if wide(ty) { 8 } else { 4 };
        let off = self.layout.regs[r.index()] as usize + lane * size;
        read_word(&s.buf, off, size) & ty.mask()
    }

    /// Runs the compiled code on `s` in place. On success `s` holds the
    /// final registers.
    pub fn run_state(&self, s: &mut WarpState) -> Result<(), RunError> {
        match self.call(s, self.fuel)? {
            None => Ok(()),
            Some(at) => Err(RunError::OutOfFuel {
                steps: self.fuel,
                line: self.line(at),
            }),
        }
    }

    /// Runs the code on `s` with `fuel`: `None` when the run ended,
    /// `Some(pc)` when the fuel ran out before instruction `pc`, an engine
    /// failure when the code ran away (a bug in its fuel accounting).
    ///
    /// A case's code that calls the host runs in a context of its own (a
    /// kernel's warps get theirs from the launch, `launch.rs`).
    fn call(&self, s: &mut WarpState, fuel: u64) -> Result<Option<usize>, RunError> {
        let Some(prog) = &self.host else {
            return self.call_from(s, fuel, 0);
        };
        // One warp of one CTA with no memory: a case has no launch.
        runtime::enter(runtime::LaunchContext {
            prog: Arc::clone(prog),
            vars: Arc::new(Mutex::new(Vec::new())),
            buffers: Vec::new(),
            param: 0,
            shared: 0,
            dynamic: 0,
            local: 0,
            tids: vec![WarpPlace::one_warp().tid],
            warp: 0,
            error: None,
        });
        let r = self.call_from(s, fuel, 0);
        match runtime::leave().and_then(|c| c.error) {
            Some(e) => Err(RunError::Engine(e.to_string())),
            None => r,
        }
    }

    /// Starts the code on `s` with `fuel` and the lanes of `absent` marked
    /// exited (a kernel's lanes that do not exist: they never run), with
    /// the memory `lending` lends: an `emit.rs` status code.
    fn start(
        &self,
        s: &mut WarpState,
        fuel: u64,
        absent: u32,
        lending: Option<&code::Lending<'_>>,
    ) -> u32 {
        assert_eq!(
            s.buf.len() * 16,
            self.layout.size as usize,
            "state of another program"
        );
        write_word(&mut s.buf, Layout::EXITED as usize, 4, absent as u64);
        write_word(&mut s.buf, Layout::FUEL as usize, 8, fuel);
        write_word(&mut s.buf, Layout::RESUME as usize, 4, 0);
        self.code.run(&mut s.buf, &self.layout, lending)
    }

    /// Releases the lanes of `s` that wait at `bar.sync` (each `bar.sync`'s
    /// go on after it), for [`JitProgram::resume`].
    fn release(&self, s: &mut WarpState) {
        for &(waiting, park) in &self.barriers {
            // Two 32-bit masks of the state (`read_word`'s places): `park
            // |= waiting`, `waiting = 0`.
            let (waiting, park) = (waiting as usize, park as usize);
            debug_assert!(waiting % 4 == 0 && park % 4 == 0 && waiting != park);
            let (wi, ws) = (waiting / 16, 8 * (waiting % 16));
            let (pi, ps) = (park / 16, 8 * (park % 16));
            let w = (s.buf[wi] >> ws) as u32;
            s.buf[wi] &= !((u32::MAX as u128) << ws);
            s.buf[pi] |= (w as u128) << ps;
        }
        write_word(&mut s.buf, Layout::RESUME as usize, 4, 1);
    }

    /// Runs the code on `s` on from where it stopped at `bar.sync`, once
    /// [`JitProgram::release`]d: an `emit.rs` status code.
    fn resume(&self, s: &mut WarpState, lending: Option<&code::Lending<'_>>) -> u32 {
        assert_eq!(
            s.buf.len() * 16,
            self.layout.size as usize,
            "state of another program"
        );
        self.code.run(&mut s.buf, &self.layout, lending)
    }

    /// What an `emit.rs` status code `status` of a run with `fuel` means:
    /// `None` when the run ended, `Some(pc)` when the fuel ran out before
    /// instruction `pc`, an engine failure otherwise.
    fn outcome_of(&self, s: &WarpState, status: u32, fuel: u64) -> Result<Option<usize>, RunError> {
        match status {
            emit::status::DONE => Ok(None),
            emit::status::OUT_OF_FUEL => Ok(Some(
                read_word(&s.buf, Layout::FAIL_PC as usize, 4) as usize,
            )),
            emit::status::RUNAWAY => Err(RunError::Engine(format!(
                "the generated code took more than {} backward branches with {fuel} warp steps of fuel: its fuel accounting is wrong",
                fuel.saturating_add(1)
            ))),
            other => Err(RunError::Engine(format!(
                "the generated code returned status {other} (a part entered at a park point not its own, or the completion code returned something else than SCHEDULE): a bug of the JIT's dispatch"
            ))),
        }
    }

    /// [`JitProgram::call`] with the lanes of `absent` marked exited before
    /// the run (a kernel's lanes that do not exist): they never run. A
    /// lone warp's `bar.sync` completes when every lane that can still
    /// run waits there, as in the interpreter.
    fn call_from(
        &self,
        s: &mut WarpState,
        fuel: u64,
        absent: u32,
    ) -> Result<Option<usize>, RunError> {
        let mut status = self.start(s, fuel, absent, None);
        while status == emit::status::BARRIER {
            self.release(s);
            status = self.resume(s, None);
        }
        self.outcome_of(s, status, fuel)
    }

    /// The source line of instruction `pc`.
    fn line(&self, pc: usize) -> u32 {
        self.prog.insts[pc.min(self.prog.insts.len() - 1)].line
    }

    /// The mask of lanes that executed `exit` in the last run on `s`.
    pub fn exited(&self, s: &WarpState) -> u32 {
        read_word(&s.buf, Layout::EXITED as usize, 4) as u32
    }

    /// The [`Outcome`] of state `s` (every lane reported defined).
    pub fn outcome(&self, s: &WarpState) -> Outcome {
        let values = (0..self.prog.regs.len())
            .map(|r| self.get_lanes(s, Reg(r as u32)))
            .collect();
        Outcome::all_defined(values, self.exited(s))
    }

    /// Runs one warp on `inputs`. A bounded run ([`Inputs::fuel`]) stops
    /// after that many warp steps with [`Outcome::stop`] set; it needs code
    /// from [`JitProgram::compile_stepped`] (other code cannot stop between
    /// the instructions of a straight-line segment, and says so).
    pub fn run(&self, inputs: &Inputs) -> Result<Outcome, RunError> {
        let mut s = self.state_for(inputs);
        let Some(fuel) = inputs.fuel else {
            self.run_state(&mut s)?;
            return Ok(self.outcome(&s));
        };
        if !self.stepped {
            return Err(RunError::Unavailable(Skip {
                reason:
                    "a bounded run (`.fuel`) needs code compiled by `JitProgram::compile_stepped`"
                        .to_string(),
            }));
        }
        let stop = self.call(&mut s, fuel)?;
        let mut out = self.outcome(&s);
        out.stop = stop.map(|pc| Stop {
            pc,
            line: self.line(pc),
        });
        Ok(out)
    }

    /// Runs many warps, each on its own inputs, spread over all cores.
    pub fn run_batch(&self, inputs: &[Inputs]) -> Vec<Result<Outcome, RunError>> {
        let mut out: Vec<Option<Result<Outcome, RunError>>> = vec![None; inputs.len()];
        let threads = threads();
        let chunk = inputs.len().div_ceil(threads).max(1);
        std::thread::scope(|sc| {
            for (ins, outs) in inputs.chunks(chunk).zip(out.chunks_mut(chunk)) {
                sc.spawn(move || {
                    for (i, o) in ins.iter().zip(outs) {
                        *o = Some(self.run(i));
                    }
                });
            }
        });
        out.into_iter()
            .map(|o| o.expect("every warp ran"))
            .collect()
    }

    /// Runs many prepared states in place, spread over all cores (the fast
    /// path for large batches: no per-warp allocation). Returns how many
    /// ran out of fuel.
    pub fn run_states(&self, states: &mut [WarpState]) -> usize {
        let threads = threads();
        let chunk = states.len().div_ceil(threads).max(1);
        std::thread::scope(|sc| {
            let handles: Vec<_> = states
                .chunks_mut(chunk)
                .map(|part| {
                    sc.spawn(move || {
                        part.iter_mut()
                            .map(|s| self.run_state(s).is_err() as usize)
                            .sum::<usize>()
                    })
                })
                .collect();
            handles.into_iter().map(|h| h.join().expect("worker")).sum()
        })
    }
}

fn threads() -> usize {
    std::thread::available_parallelism().map_or(1, |n| n.get())
}

/// The 32 lanes of a register at byte offset `off` (a multiple of 16, as
/// [`Layout`] places every register): 4 lanes of u32 or 2 of u64 per word.
fn read_lanes(buf: &[u128], off: usize, wide: bool) -> [u64; WARP] {
    debug_assert_eq!(off % 16, 0);
    let w = off / 16;
    if wide {
        std::array::from_fn(|l| (buf[w + l / 2] >> (64 * (l % 2))) as u64)
    } else {
        std::array::from_fn(|l| (buf[w + l / 4] >> (32 * (l % 4))) as u32 as u64)
    }
}

/// Writes the 32 lanes of a register at byte offset `off` (see
/// [`read_lanes`]); each value fits the lane's width.
fn write_lanes(buf: &mut [u128], off: usize, wide: bool, vals: [u64; WARP]) {
    debug_assert_eq!(off % 16, 0);
    let w = off / 16;
    if wide {
        for (i, word) in buf[w..w + WARP / 2].iter_mut().enumerate() {
            *word = vals[2 * i] as u128 | (vals[2 * i + 1] as u128) << 64;
        }
    } else {
        for (i, word) in buf[w..w + WARP / 4].iter_mut().enumerate() {
            *word = (0..4).fold(0u128, |acc, k| {
                acc | (vals[4 * i + k] as u32 as u128) << (32 * k)
            });
        }
    }
}

/// Sets every lane of the register at byte offset `off` (see
/// [`read_lanes`]) to `v` (which fits the lane's width).
fn fill_lanes(buf: &mut [u128], off: usize, wide: bool, v: u64) {
    debug_assert_eq!(off % 16, 0);
    let w = off / 16;
    let word = if wide {
        v as u128 | (v as u128) << 64
    } else {
        let v = v as u32 as u128;
        v | v << 32 | v << 64 | v << 96
    };
    let n = if wide { WARP / 2 } else { WARP / 4 };
    buf[w..w + n].fill(word);
}

/// The JIT as an [`Engine`].
#[derive(Clone, Copy, Debug, Default)]
pub struct JitEngine {
    /// How programs are compiled.
    pub tuning: Tuning,
    /// Programs over these limits are skipped with the reason.
    pub limits: Limits,
    /// With the fast-compile tuning: one program in this many (chosen by a
    /// hash of its instructions, so always the same ones; 0: none) is
    /// compiled with [`Tuning::Inline`] instead, so that a fuzzing run
    /// covers the inline lowering (its specialisations on immediates and
    /// on a statically whole warp, and the driver's inline paths), not
    /// only the shared helpers.
    pub inline_every: u32,
    /// Programs of more instructions are compiled in parts of at most this
    /// many ([`JitProgram::compile_in_parts`]); `None`: the tuning's
    /// [`Tuning::part_insts`].
    pub part_insts: Option<usize>,
}

impl JitEngine {
    /// The engine tuned for programs that run once (fuzzing, `warpdiff
    /// run`/`diff`): the fastest compile.
    pub fn fast_compile() -> JitEngine {
        JitEngine {
            tuning: Tuning::FastCompile,
            limits: Limits::default(),
            inline_every: Self::INLINE_EVERY,
            part_insts: None,
        }
    }

    /// The share of programs that fuzzing compiles inline
    /// ([`JitEngine::inline_every`]): an inline compile costs about 15
    /// fast-compile ones, so 1 in 16 doubled the compile time of a
    /// fuzzing run (`warpdiff fuzz --jobs 1`: 452 -> 314 cases/s); 1 in 64
    /// adds about a quarter.
    pub const INLINE_EVERY: u32 = 64;

    /// The tuning `prog` is compiled with.
    pub fn tuning_for(&self, prog: &Program) -> Tuning {
        use std::hash::{Hash, Hasher};
        if self.tuning != Tuning::FastCompile || self.inline_every == 0 {
            return self.tuning;
        }
        let mut h = warp_core::fxhash::FxHasher::default();
        prog.insts.hash(&mut h);
        if h.finish() % self.inline_every as u64 == 0 {
            Tuning::Inline
        } else {
            Tuning::FastCompile
        }
    }
}

impl Compiled for JitProgram {
    fn run(&self, inputs: &Inputs) -> Result<Outcome, RunError> {
        JitProgram::run(self, inputs)
    }
}

/// A program compiled by [`JitEngine`]: the code for unbounded runs and the
/// stepped code for bounded ones (`.fuel`), each compiled when first needed
/// (one of them at [`Engine::compile_for`]).
struct EngineProgram<'p> {
    prog: &'p Program,
    engine: JitEngine,
    /// The tuning this program is compiled with.
    tuning: Tuning,
    fuel: u64,
    fast: OnceLock<Result<JitProgram, JitError>>,
    stepped: OnceLock<Result<JitProgram, JitError>>,
}

impl EngineProgram<'_> {
    /// The code for `stepped` runs or not, compiled now if it was not.
    fn code(&self, stepped: bool) -> &Result<JitProgram, JitError> {
        let cell = if stepped { &self.stepped } else { &self.fast };
        cell.get_or_init(|| {
            let parts = self.engine.part_insts.unwrap_or(self.tuning.part_insts());
            JitProgram::build_parts(
                self.prog,
                self.tuning,
                self.engine.limits,
                stepped,
                parts,
                false,
            )
            .map(|j| j.with_fuel(self.fuel))
        })
    }
}

impl Compiled for EngineProgram<'_> {
    fn run(&self, inputs: &Inputs) -> Result<Outcome, RunError> {
        match self.code(inputs.fuel.is_some()) {
            Ok(j) => j.run(inputs),
            // The other kind compiled (or was not needed before): a limit
            // is a skip, a failure a JIT bug, as at compile time.
            Err(JitError::TooBig(m)) => Err(RunError::Unavailable(Skip { reason: m.clone() })),
            Err(e) => Err(RunError::Engine(e.to_string())),
        }
    }
}

impl Engine for JitEngine {
    fn name(&self) -> &'static str {
        "jit"
    }

    fn bounded_runs(&self) -> bool {
        true
    }

    fn compile<'p>(
        &self,
        prog: &'p Program,
        fuel: u64,
    ) -> Result<Box<dyn Compiled + 'p>, CompileError> {
        self.compile_for(prog, fuel, false)
    }

    /// Compiles the code `bounded` runs need (the stepped code, or the
    /// code for unbounded runs); the other kind is compiled on its first
    /// run: a bounded case (a fifth of the fuzzer's) no longer compiles
    /// twice.
    fn compile_for<'p>(
        &self,
        prog: &'p Program,
        fuel: u64,
        bounded: bool,
    ) -> Result<Box<dyn Compiled + 'p>, CompileError> {
        let program = EngineProgram {
            prog,
            engine: *self,
            tuning: self.tuning_for(prog),
            fuel,
            fast: OnceLock::new(),
            stepped: OnceLock::new(),
        };
        match program.code(bounded) {
            Ok(_) => Ok(Box::new(program)),
            Err(JitError::TooBig(m)) => Err(CompileError::Skip(Skip { reason: m.clone() })),
            Err(e) => Err(CompileError::Failed(e.to_string())),
        }
    }
}

const _: () = assert!(WARP == 32);

/// Whether `prog`'s code calls the host with the run-time context
/// (`runtime.rs`): a lane op, or glue on a 16-bit type.
fn calls_host(prog: &Program) -> bool {
    use warp_core::ir::Op;
    prog.insts.iter().any(|i| match &i.op {
        Op::LaneOp(_) => true,
        // `lane_ops.rs` lowers 16-bit glue as a call.
        Op::Glue(g) => g.ty().bits() == 16,
        Op::Shfl(_)
        | Op::Vote(_)
        | Op::Match(_)
        | Op::Redux(_)
        | Op::Activemask(_)
        | Op::Control(_) => false,
    })
}

/// Refuses a program with an instruction the JIT does not lower: glue
/// (`add`, `setp`, ...) on the 8-bit and `.f64` types, which the glue's
/// lowering does not handle (`mov` and `selp`, which copy bits, excepted;
/// 16-bit glue goes through `lane_ops::emit_glue`; the module front end
/// reads `.f64` arithmetic and comparisons as thread-level instructions,
/// and no 8-bit glue form, so this only guards IR built by hand). The
/// message names the instruction and its line.
fn not_lowered(prog: &Program) -> Result<(), JitError> {
    use warp_core::ir::{Glue, Op, Type};
    let bad = prog.insts.iter().find(|i| match &i.op {
        Op::Glue(Glue::Mov { .. } | Glue::Selp { .. }) => false,
        Op::Glue(g) => Type::MODULE_ONLY.contains(&g.ty()) && g.ty().bits() != 16,
        _ => false,
    });
    match bad {
        Some(i) => Err(JitError::Failed(format!(
            "not lowered yet: `{}` (line {})",
            warp_core::text::inst_text(prog, i),
            i.line
        ))),
        None => Ok(()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A little-endian value of `size` bytes at byte offset `off`, byte by
    /// byte (the reference of the word-wise accessors).
    fn write_le(buf: &mut [u128], off: usize, size: usize, v: u64) {
        for i in 0..size {
            let byte = off + i;
            let (w, sh) = (byte / 16, (byte % 16) * 8);
            buf[w] = (buf[w] & !(0xffu128 << sh)) | (((v >> (8 * i)) & 0xff) as u128) << sh;
        }
    }

    /// Reads what [`write_le`] writes.
    fn read_le(buf: &[u128], off: usize, size: usize) -> u64 {
        let mut v = 0u64;
        for i in 0..size {
            let byte = off + i;
            let (w, sh) = (byte / 16, (byte % 16) * 8);
            v |= (((buf[w] >> sh) & 0xff) as u64) << (8 * i);
        }
        v
    }

    /// The word accessors agree with the byte-wise ones at every aligned
    /// offset of both sizes, and touch nothing else.
    #[test]
    fn words_match_bytes() {
        let mut r = warp_core::rng::Rng::new(11);
        for size in [4, 8] {
            for off in (0..64).step_by(size) {
                let start: Vec<u128> = (0..4)
                    .map(|_| (r.next_u64() as u128) << 64 | r.next_u64() as u128)
                    .collect();
                let v = r.next_u64();
                let (mut words, mut bytes) = (start.clone(), start.clone());
                write_word(&mut words, off, size, v);
                write_le(&mut bytes, off, size, v);
                assert_eq!(words, bytes, "size {size} at {off}");
                let low = v & (u64::MAX >> (64 - 8 * size));
                assert_eq!(read_word(&words, off, size), low);
                assert_eq!(read_word(&start, off, size), read_le(&start, off, size));
            }
        }
    }

    /// The whole-register accessors agree with the byte-wise ones (little
    /// endian, lane `l` at `off + l * size`), for both lane widths.
    #[test]
    fn lane_words_match_bytes() {
        let mut r = warp_core::rng::Rng::new(7);
        for wide in [false, true] {
            let size = if wide { 8 } else { 4 };
            let mask = if wide { u64::MAX } else { u32::MAX as u64 };
            let vals: [u64; WARP] = std::array::from_fn(|_| r.next_u64() & mask);
            let mut buf = vec![0u128; 48];
            write_lanes(&mut buf, 32, wide, vals);
            for (l, &v) in vals.iter().enumerate() {
                assert_eq!(read_le(&buf, 32 + l * size, size), v, "lane {l}");
            }
            // Nothing outside the register is touched.
            assert_eq!(buf[..2], [0, 0]);
            assert!(buf[2 + 32 * size / 16..].iter().all(|&w| w == 0));
            let mut other = vec![0u128; 48];
            for (l, &v) in vals.iter().enumerate() {
                write_le(&mut other, 32 + l * size, size, v);
            }
            assert_eq!(read_lanes(&other, 32, wide), vals);
        }
    }
}
