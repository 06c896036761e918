//! PTX emission: a batch of jobs becomes one PTX module.
//!
//! # The module
//!
//! Every job of a module shares one `.version`/`.target` pair, chosen per
//! program by [`module_target`]: `.version 7.8` + `.target sm_90` for
//! everything the GPUs here (sm_90) run, `.version 6.3` + `.target sm_70`
//! for programs with the deprecated non-`.sync` `shfl`/`vote` (the driver
//! accepts those only below PTX 6.4). Each *distinct* program of the batch
//! becomes one kernel, `.visible .entry kN(.param .u64 warp_in, .param .u64
//! warp_out)`, launched with one warp per job of that program: grid =
//! `KernelInfo::jobs.len()` blocks of 32 threads. A thread's lane is
//! `%laneid` (== `%tid.x`), its job within the kernel `%ctaid.x`.
//!
//! # The buffers
//!
//! Both buffers hold little-endian `u64` words, the jobs of one kernel one
//! after the other in the order of [`KernelInfo::jobs`]:
//!
//! - input, [`in_words`] per job ([`encode_inputs`]): word `r * 32 + lane`
//!   is register `r`'s initial value on `lane` (a `.pred` as 0/1). Each
//!   thread loads the registers that some job of the kernel gives `.lanes`
//!   (32-bit registers from the word's low half); the others start
//!   unwritten, undefined as in the interpreter.
//! - output, [`out_words`] per job ([`decode_outputs`]): word `r * 32 +
//!   lane` receives register `r`'s final value (32-bit registers and
//!   predicates store the low 32 bits only, so the high half keeps what
//!   the buffer held), and word `regs * 32 + lane` the lane's status: 0 =
//!   ran to the end, 1 = exited. Every lane writes its status exactly once.
//!
//! # The body
//!
//! The program's instructions as [`inst_text`] prints them, with
//! registers renamed `%w0, %w1, ...` (index order, declared with their own
//! types), labels renamed `L_0, L_1, ...`, every sink `_` replaced by a
//! scratch register (`%sink32`, `%sink64`, `%sinkp`: ptxas rejects `_` in
//! `shfl` and `vote`) except in an unpacking `mov`'s `{d0, d1, ...}`, where
//! the ISA allows it and a scratch register could mix a float type with
//! another in the vector (ptxas refuses `.u32` with `.f32`), `%laneid` operands read from a `.u32` register
//! `%lane` (ptxas allows special registers only in `mov`), and `add`, `sub`
//! and `mul` `.f32` written `.rn` so that ptxas cannot contract them into
//! an FMA (the interpreter rounds each one). `.f32` registers in
//! `redux.sync.{and,or,xor}.b32`, which ptxas refuses, go through `.b32`
//! scratch registers (`%redux_a`, `%redux_d`) with a `mov`. An `exit`,
//! guarded or not, is preceded by stores of every register and of status 1
//! under the same guard; the end of the body stores every register and
//! status 0, then `ret`. No branch is added, so the control flow is the
//! program's.

use std::collections::HashMap;
use std::fmt::{self, Write as _};
use warp_core::engine::Skip;
use warp_core::interp::WarpPlace;
use warp_core::ir::{
    BinOp, Control, Dest, Glue, Inputs, Inst, Label, LaneOp, LaneOpKind, Op, Operand, Program,
    Redux, Refusal, Reg, RegDecl, Requirement, Special, Target, Type, Version, WARP,
};
use warp_core::outcome::Outcome;
use warp_core::text::{inst_text, print_program};

/// The `.version` of modules for the GPUs here (sm_90): the H200 driver
/// accepted it with `.target sm_90` (`shared/hw/converge.cu`).
pub const VERSION: Version = Version::new(7, 8);

/// The `.target` of modules for the GPUs here.
pub const TARGET: Target = Target {
    sm: 90,
    suffix: None,
};

/// The `.version` of modules whose programs use the deprecated non-`.sync`
/// `shfl`/`vote`, which PTX 6.4 and later refuse on sm_70 and later.
pub const LEGACY_VERSION: Version = Version::new(6, 3);

/// The `.target` of the deprecated forms' modules (the driver compiles it
/// for the sm_90 GPU).
pub const LEGACY_TARGET: Target = Target {
    sm: 70,
    suffix: None,
};

/// Threads per block: one warp per job.
pub const BLOCK_THREADS: u32 = WARP as u32;

/// One (program, inputs) pair of a batch, by reference.
#[derive(Clone, Copy, Debug)]
pub struct Job<'a> {
    /// The program to run.
    pub program: &'a Program,
    /// Its initial register values.
    pub inputs: &'a Inputs,
}

/// A PTX module for a batch of jobs that share (`.version`, `.target`):
/// one `.entry` kernel per distinct program.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Module {
    /// The module's text, ready for the driver (`cuModuleLoadData`) or
    /// `ptxas`.
    pub ptx: String,
    /// The kernels, in the order their programs first appear in the batch.
    pub kernels: Vec<KernelInfo>,
}

/// One kernel of a [`Module`] and the jobs it runs.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct KernelInfo {
    /// The `.entry` name (`k0`, `k1`, ...).
    pub name: String,
    /// Indices into the batch of the jobs this kernel runs, in launch
    /// order: job `jobs[i]` is block `i` (`%ctaid.x == i`), and its words
    /// start at `i * in_words` in the input buffer and at `i * out_words`
    /// in the output buffer.
    pub jobs: Vec<usize>,
    /// Input `u64` words per job ([`in_words`] of the program).
    pub in_words: usize,
    /// Output `u64` words per job ([`out_words`] of the program).
    pub out_words: usize,
}

/// Why a batch could not be emitted.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum EmitError {
    /// Job `job`'s program cannot run on the GPU at all.
    Skipped {
        /// Index of the job in the batch.
        job: usize,
        /// Why ([`module_target`]'s reason).
        skip: Skip,
    },
    /// Job `job`'s program belongs in a module of another `.version` /
    /// `.target` (group the batch by [`module_target`]).
    WrongModule {
        /// Index of the job in the batch.
        job: usize,
        /// What [`module_target`] chose for the program.
        needs: (Version, Target),
        /// What the module was asked to be.
        module: (Version, Target),
    },
    /// An immediate where PTX needs a `.pred` register (the parser takes
    /// one only where PTX does: `mov.pred`, and the predicate a `vote`
    /// votes on; a program built in memory can put one elsewhere).
    PredImmediate {
        /// Index of the job in the batch.
        job: usize,
        /// Source line of the instruction.
        line: u32,
    },
}

impl fmt::Display for EmitError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            EmitError::Skipped { job, skip } => write!(f, "job {job}: GPU skips it: {skip}"),
            EmitError::WrongModule { job, needs, module } => write!(
                f,
                "job {job}: needs .version {} .target {}, but the module is .version {} .target {}",
                needs.0, needs.1, module.0, module.1
            ),
            EmitError::PredImmediate { job, line } => write!(
                f,
                "job {job}, line {line}: an immediate where PTX needs a .pred register"
            ),
        }
    }
}

impl std::error::Error for EmitError {}

/// Input `u64` words per job: 32 per declared register.
pub fn in_words(program: &Program) -> usize {
    program.regs.len() * WARP
}

/// Output `u64` words per job: 32 per declared register, then 32 lane
/// statuses.
pub fn out_words(program: &Program) -> usize {
    (program.regs.len() + 1) * WARP
}

/// Which `.version`/`.target` to emit `program` with, or why the GPU (sm_90)
/// must skip it.
///
/// Decided by each instruction's [`Requirement`]:
/// - `.f32` `redux.sync` (with or without `.abs`/`.NaN`) needs sm_100a: skip.
/// - the deprecated non-`.sync` `shfl`/`vote`: ([`LEGACY_VERSION`],
///   [`LEGACY_TARGET`]), unless the program also has an instruction those
///   refuse (`redux.sync`, which needs PTX 7.0): skip (the interpreter finds
///   such a program undefined under any `.version`).
/// - everything else: ([`VERSION`], [`TARGET`]), whatever the program's own
///   `.version`/`.target` say (nothing here needs more than PTX 7.8 and
///   sm_90, and the driver here reads PTX up to 9.0 only).
pub fn module_target(program: &Program) -> Result<(Version, Target), Skip> {
    let mut legacy: Option<&Inst> = None;
    // The first instruction the legacy directives refuse, and why.
    let mut newer: Option<(&Inst, Refusal)> = None;
    for inst in &program.insts {
        match inst.op.requirement() {
            Requirement::ReduxF32 => {
                return Err(Skip {
                    reason: format!(
                        "needs sm_100a: `{}` (line {}) is an .f32 redux.sync, and the GPUs here are sm_90",
                        inst_text(program, inst),
                        inst.line
                    ),
                })
            }
            Requirement::Deprecated { .. } => {
                legacy.get_or_insert(inst);
            }
            req @ (Requirement::Any | Requirement::Since { .. }) => {
                if let Err(why) = req.check(LEGACY_VERSION, LEGACY_TARGET) {
                    newer.get_or_insert((inst, why));
                }
            }
        }
    }
    match (legacy, newer) {
        (Some(l), Some((r, why))) => Err(Skip {
            reason: format!(
                "no PTX version has both `{}` (line {}: {}) and `{}` (line {}: {why})",
                inst_text(program, l),
                l.line,
                Refusal::Deprecated,
                inst_text(program, r),
                r.line
            ),
        }),
        (Some(_), None) => Ok((LEGACY_VERSION, LEGACY_TARGET)),
        (None, _) => Ok((VERSION, TARGET)),
    }
}

/// This job's input block: [`in_words`] words, word `r * 32 + lane` = the
/// `.lanes` value of register `r` on `lane` (masked to the register's
/// width), 0 for registers without `.lanes`.
pub fn encode_inputs(program: &Program, inputs: &Inputs) -> Vec<u64> {
    let mut words = vec![0u64; in_words(program)];
    for (r, vals) in &inputs.lanes {
        let mask = program.decl(*r).ty.mask();
        for (lane, v) in vals.iter().enumerate() {
            words[r.index() * WARP + lane] = v & mask;
        }
    }
    words
}

/// A job's output block ([`out_words`] words) as an [`Outcome`]: every
/// register's final value on every lane (masked to its width; every lane
/// counts as defined), `exited` = the lanes whose status word is 1, no UB,
/// no step count and no writers.
///
/// # Panics
///
/// When `words` is shorter than [`out_words`]`(program)`.
pub fn decode_outputs(program: &Program, words: &[u64]) -> Outcome {
    let n = program.regs.len();
    assert!(
        words.len() >= out_words(program),
        "decode_outputs: {} words, the program needs {}",
        words.len(),
        out_words(program)
    );
    let values = program
        .regs
        .iter()
        .enumerate()
        .map(|(r, decl)| std::array::from_fn(|lane| words[r * WARP + lane] & decl.ty.mask()))
        .collect();
    let exited = (0..WARP)
        .filter(|&lane| words[n * WARP + lane] == 1)
        .fold(0u32, |m, lane| m | 1 << lane);
    Outcome::all_defined(values, exited)
}

/// The output block a GPU would write for `out` ([`decode_outputs`]'s
/// inverse on every defined value): what the simulated GPU of
/// fault-injection builds returns.
pub fn encode_outputs(program: &Program, out: &Outcome) -> Vec<u64> {
    let n = program.regs.len();
    let mut words = vec![0u64; out_words(program)];
    for (r, decl) in program.regs.iter().enumerate() {
        for lane in 0..WARP {
            words[r * WARP + lane] = out.values[r][lane] & decl.ty.mask();
        }
    }
    for lane in 0..WARP {
        words[n * WARP + lane] = u64::from(out.exited >> lane & 1);
    }
    words
}

/// Emits one module for `jobs`, all of which must have
/// [`module_target`]` == (version, target)`: one kernel per distinct
/// program (programs that print the same are the same), in order of first
/// appearance.
pub fn emit_module(jobs: &[Job], version: Version, target: Target) -> Result<Module, EmitError> {
    emit_module_with(jobs, version, target, None)
}

/// The `.version`/`.target` a module of `program` is written for when no
/// GPU is to load it (`warpdiff emit-ptx`): [`module_target`]'s choice
/// where the GPUs here run the program, else the program's own directives
/// where they allow every instruction of it (an `sm_100a` case's `.f32`
/// `redux.sync`); else why not.
pub fn text_target(program: &Program) -> Result<(Version, Target), Skip> {
    let skip = match module_target(program) {
        Ok(t) => return Ok(t),
        Err(skip) => skip,
    };
    let own = (program.version, program.target);
    let refused = program
        .insts
        .iter()
        .find_map(|i| i.op.requirement().check(own.0, own.1).err().map(|r| (i, r)));
    match refused {
        None => Ok(own),
        Some((i, why)) => Err(Skip {
            reason: format!(
                "{skip}; and its own .version {} .target {} refuse `{}` (line {}: {why})",
                own.0,
                own.1,
                inst_text(program, i),
                i.line
            ),
        }),
    }
}

/// [`emit_module_with`] for jobs whose programs all have
/// [`text_target`]` == (version, target)`: a module to read, not to load
/// on the GPUs here (`warpdiff emit-ptx`).
pub fn emit_module_text(
    jobs: &[Job],
    version: Version,
    target: Target,
    perturb: Option<u32>,
) -> Result<Module, EmitError> {
    emit_module_checked(jobs, version, target, perturb, text_target)
}

/// [`emit_module`], with each lane sleeping before every collective and
/// `activemask` when `perturb` gives a seed: `nanosleep.u32` for a delay
/// of 0..2047 ns drawn from the seed, the lane and the instruction. The
/// program's meaning is unchanged, but which lanes run together changes
/// from schedule to schedule (on an H200 such perturbation split warps
/// that unperturbed runs kept together: `lower/gpu/experiments/`), so a
/// value the reference calls defined must survive it.
pub fn emit_module_with(
    jobs: &[Job],
    version: Version,
    target: Target,
    perturb: Option<u32>,
) -> Result<Module, EmitError> {
    emit_module_checked(jobs, version, target, perturb, module_target)
}

/// The module for `jobs`, whose programs must all have `choose`'s
/// (`.version`, `.target`) `== (version, target)`.
fn emit_module_checked(
    jobs: &[Job],
    version: Version,
    target: Target,
    perturb: Option<u32>,
    choose: fn(&Program) -> Result<(Version, Target), Skip>,
) -> Result<Module, EmitError> {
    let mut kernels: Vec<KernelInfo> = Vec::new();
    // Per kernel, the batch index of the job whose program it emits.
    let mut firsts: Vec<usize> = Vec::new();
    let mut by_text: HashMap<String, usize> = HashMap::new();
    for (i, job) in jobs.iter().enumerate() {
        let needs = choose(job.program).map_err(|skip| EmitError::Skipped { job: i, skip })?;
        if needs != (version, target) {
            return Err(EmitError::WrongModule {
                job: i,
                needs,
                module: (version, target),
            });
        }
        let k = *by_text
            .entry(print_program(job.program))
            .or_insert_with(|| {
                kernels.push(KernelInfo {
                    name: format!("k{}", kernels.len()),
                    jobs: Vec::new(),
                    in_words: in_words(job.program),
                    out_words: out_words(job.program),
                });
                firsts.push(i);
                kernels.len() - 1
            });
        kernels[k].jobs.push(i);
    }
    let mut ptx = String::new();
    let _ = writeln!(
        ptx,
        "// warpdiff: {} jobs, {} kernels; each kernel runs one warp ({BLOCK_THREADS} threads) per job, grid = its jobs",
        jobs.len(),
        kernels.len()
    );
    let _ = writeln!(ptx, ".version {version}");
    let _ = writeln!(ptx, ".target {target}");
    let _ = writeln!(ptx, ".address_size 64");
    for (k, &first) in kernels.iter().zip(&firsts) {
        let program = jobs[first].program;
        let mut load = vec![false; program.regs.len()];
        for &j in &k.jobs {
            for (r, _) in &jobs[j].inputs.lanes {
                load[r.index()] = true;
            }
        }
        emit_kernel(&mut ptx, k, program, &load, perturb)
            .map_err(|line| EmitError::PredImmediate { job: first, line })?;
    }
    Ok(Module { ptx, kernels })
}

/// The scratch registers appended to the renamed program.
#[derive(Clone, Copy)]
struct Scratch {
    sink16: Reg,
    sink32: Reg,
    sink64: Reg,
    sinkp: Reg,
    lane: Reg,
    redux_a: Reg,
    redux_d: Reg,
}

impl Scratch {
    /// A sink destination of type `ty` becomes a scratch register.
    fn dest(self, d: Dest, ty: Type) -> Dest {
        match d {
            Dest::Reg(r) => Dest::Reg(r),
            Dest::Sink => Dest::Reg(match ty.bits() {
                1 => self.sinkp,
                8 | 16 => self.sink16,
                32 => self.sink32,
                _ => self.sink64,
            }),
        }
    }

    /// `%laneid` becomes `%lane`; an immediate of type `.pred` is refused.
    fn src(self, o: Operand, ty: Type) -> Result<Operand, ()> {
        match o {
            Operand::LaneId => Ok(Operand::Reg(self.lane)),
            Operand::Imm(_) if ty == Type::Pred => Err(()),
            Operand::Reg(_) | Operand::NotPred(_) | Operand::Imm(_) => Ok(o),
        }
    }
}

/// `op` with sinks, `%laneid` and predicate immediates dealt with (`mov.pred
/// %p, 1` is PTX, as LLVM writes it: kept).
fn map_op(op: &Op, s: Scratch) -> Result<Op, ()> {
    let mut op = op.clone();
    // `bar.warp.sync membermask`, read as a `vote` with the predicate 1 and
    // no result: `inst_text` prints it back as `bar.warp.sync` (its sink
    // and predicate kept), so only its mask is mapped (`%laneid` becomes
    // `%lane`).
    if let Op::Vote(v) = &mut op {
        if let Some(m) = v.warp_sync_mask() {
            v.membermask = Some(s.src(m, Type::B32)?);
            return Ok(op);
        }
        // A predicate immediate voted on (LLVM writes `vote.sync.ballot.b32
        // %r, 1, -1`): ptxas 13.0 takes it (H100, 2026-11-28,
        // docs/log/gpu-2026-11-28-i/llvm-vote-imm-h100.txt), so it stays.
        if let Operand::Imm(_) = v.a {
            v.d = s.dest(v.d, v.mode.ty());
            v.membermask = v.membermask.map(|m| s.src(m, Type::B32)).transpose()?;
            return Ok(op);
        }
    }
    match &mut op {
        // An unpacking `mov` keeps its sinks: the ISA allows `_` there ("the
        // sink symbol `_` may be used for one or more elements provided that
        // at least one element is a scalar register"), and a scratch
        // register (`.b32`) beside `.f32` ones would give the vector a
        // second type, which ptxas may refuse as it refuses `.u32` with
        // `.f32` ("Vector with elements of different types are not allowed
        // in mov instruction"). The parser refuses a vector of sinks only;
        // one made otherwise gets a scratch register for its first element.
        Op::LaneOp(x) if x.kind == LaneOpKind::Unpack => {
            if x.dests.iter().all(|&(d, _)| d == Dest::Sink) {
                if let Some((d, ty)) = x.dests.first_mut() {
                    *d = s.dest(*d, *ty);
                }
            }
        }
        op => {
            for (d, ty) in op.dests_mut() {
                *d = s.dest(*d, ty);
            }
        }
    }
    if let Op::Glue(Glue::Mov {
        ty: Type::Pred,
        a: Operand::Imm(_),
        ..
    }) = op
    {
        return Ok(op);
    }
    for (o, ty, _) in op.sources_mut() {
        *o = s.src(*o, ty)?;
    }
    Ok(op)
}

/// ptxas refuses `.f32` registers in `redux.sync.{and,or,xor}.b32`
/// ("Arguments mismatch"), although PTX's operand rules let a `.b32`
/// instruction take any 32-bit register: such a source is first copied to
/// `%redux_a` (unguarded: a scratch register), such a destination is
/// written to `%redux_d` and then copied (under the instruction's guard).
/// Returns the instruction and the instructions to put before and after it.
fn redux_f32_regs(x: Redux, src: &Program, s: Scratch) -> (Redux, Option<String>, Option<String>) {
    let is_f32 = |r: Reg| r.index() < src.regs.len() && src.decl(r).ty == Type::F32;
    let (mut pre, mut post) = (None, None);
    let a = match x.a {
        Operand::Reg(r) if is_f32(r) => {
            pre = Some(format!("mov.b32 %redux_a, {};", wname(r.index())));
            Operand::Reg(s.redux_a)
        }
        other => other,
    };
    let d = match x.d {
        Dest::Reg(r) if is_f32(r) => {
            post = Some(format!("mov.b32 {}, %redux_d;", wname(r.index())));
            Dest::Reg(s.redux_d)
        }
        other => other,
    };
    (Redux { d, a, ..x }, pre, post)
}

/// Whether `x` is an `add`, `sub` or `mul` `.f32`, which PTX lets ptxas
/// contract into an FMA unless written `.rn`.
fn contractible(x: &Glue) -> bool {
    match *x {
        Glue::Bin { op, ty, .. } => {
            ty == Type::F32
                && match op {
                    BinOp::Add | BinOp::Sub | BinOp::Mul => true,
                    BinOp::MulHi
                    | BinOp::Min
                    | BinOp::Max
                    | BinOp::And
                    | BinOp::Or
                    | BinOp::Xor
                    | BinOp::Shl
                    | BinOp::Shr => false,
                }
        }
        Glue::Mov { .. } | Glue::Un { .. } | Glue::Setp { .. } | Glue::Selp { .. } => false,
    }
}

/// A lane op as the kernel writes it: with its canonical opcode
/// ([`LaneOp::canonical_opcode`]: every rounding written, so that `ptxas`
/// may not contract an `add.f64` into an FMA), and the special registers
/// whose values in the kernel are not a case's (`%ctaid` is the job's
/// block, `%nctaid` the kernel's grid) as the one warp of one CTA reads
/// them ([`WarpPlace::one_warp`]): a `mov` of the value.
fn lane_op(mut x: LaneOp) -> Op {
    if let LaneOpKind::Special(sr @ (Special::Ctaid(_) | Special::Nctaid(_))) = x.kind {
        let ty = x.dests[0].1;
        return Op::Glue(Glue::Mov {
            ty,
            d: x.dests[0].0,
            a: Operand::Imm(WarpPlace::one_warp().special(sr, 0) as u64),
        });
    }
    x.opcode = x.canonical_opcode();
    Op::LaneOp(x)
}

/// The PTX name of register index `i`.
fn wname(i: usize) -> String {
    format!("%w{i}")
}

/// `[%base]` or `[%base+OFF]`.
fn addr(base: &str, off: usize) -> String {
    if off == 0 {
        format!("[{base}]")
    } else {
        format!("[{base}+{off}]")
    }
}

/// Byte offset of register `r`'s word for this thread (the thread's base
/// pointer already points at its lane of register 0).
fn reg_off(r: usize) -> usize {
    r * WARP * 8
}

/// Stores every register and the status `status` under `guard` (`""` or
/// `"@%wN "`/`"@!%wN "`).
fn store_all(s: &mut String, program: &Program, guard: &str, status: u32) {
    for (i, decl) in program.regs.iter().enumerate() {
        let at = addr("%out", reg_off(i));
        let w = wname(i);
        match decl.ty.bits() {
            1 => {
                let _ = writeln!(s, "    {guard}selp.u32 %t32, 1, 0, {w};");
                let _ = writeln!(s, "    {guard}st.global.b32 {at}, %t32;");
            }
            16 => {
                let _ = writeln!(s, "    {guard}st.global.b16 {at}, {w};");
            }
            32 => {
                let _ = writeln!(s, "    {guard}st.global.b32 {at}, {w};");
            }
            _ => {
                let _ = writeln!(s, "    {guard}st.global.b64 {at}, {w};");
            }
        }
    }
    let at = addr("%out", reg_off(program.regs.len()));
    let _ = writeln!(s, "    {guard}st.global.u64 {at}, {status};");
}

/// Appends kernel `k` for `src` to `s`, loading the registers marked in
/// `load`. `Err(line)`: a predicate immediate at that line.
fn emit_kernel(
    s: &mut String,
    k: &KernelInfo,
    src: &Program,
    load: &[bool],
    perturb: Option<u32>,
) -> Result<(), u32> {
    let n = src.regs.len();
    // The program renamed, with the scratch registers appended.
    let mut regs: Vec<RegDecl> = src
        .regs
        .iter()
        .enumerate()
        .map(|(i, d)| RegDecl {
            name: wname(i),
            ty: d.ty,
        })
        .collect();
    let scratch = Scratch {
        sink32: Reg(n as u32),
        sink64: Reg(n as u32 + 1),
        sinkp: Reg(n as u32 + 2),
        lane: Reg(n as u32 + 3),
        redux_a: Reg(n as u32 + 4),
        redux_d: Reg(n as u32 + 5),
        sink16: Reg(n as u32 + 6),
    };
    for (name, ty) in [
        ("%sink32", Type::B32),
        ("%sink64", Type::B64),
        ("%sinkp", Type::Pred),
        ("%lane", Type::U32),
        ("%redux_a", Type::B32),
        ("%redux_d", Type::B32),
        ("%sink16", Type::B16),
    ] {
        regs.push(RegDecl {
            name: name.to_string(),
            ty,
        });
    }
    let renamed = Program {
        version: src.version,
        target: src.target,
        regs,
        insts: Vec::new(),
        labels: src
            .labels
            .iter()
            .enumerate()
            .map(|(i, l)| Label {
                name: format!("L_{i}"),
                at: l.at,
            })
            .collect(),
    };

    let _ = writeln!(s);
    let _ = writeln!(
        s,
        "// {}: {} job(s); in_words {}, out_words {}; registers:",
        k.name,
        k.jobs.len(),
        k.in_words,
        k.out_words
    );
    for (i, d) in src.regs.iter().enumerate() {
        let _ = writeln!(s, "//   {} = {} ({})", wname(i), d.name, d.ty);
    }
    let _ = writeln!(
        s,
        ".visible .entry {}(.param .u64 warp_in, .param .u64 warp_out)",
        k.name
    );
    let _ = writeln!(s, "{{");
    // Declarations: the program's registers grouped by type, in order of
    // first appearance, then the kernel's own.
    let mut types: Vec<Type> = Vec::new();
    for d in &src.regs {
        if !types.contains(&d.ty) {
            types.push(d.ty);
        }
    }
    for ty in types {
        let names: Vec<String> = (0..n)
            .filter(|&i| src.regs[i].ty == ty)
            .map(wname)
            .collect();
        let _ = writeln!(s, "    .reg {ty} {};", names.join(", "));
    }
    let _ = writeln!(s, "    .reg .b32 %sink32, %t32, %redux_a, %redux_d;");
    let _ = writeln!(s, "    .reg .b64 %sink64, %in, %out, %off;");
    let _ = writeln!(s, "    .reg .pred %sinkp;");
    let _ = writeln!(s, "    .reg .b16 %sink16;");
    let _ = writeln!(s, "    .reg .u32 %lane, %cta, %delay, %sleep;");
    // Prologue: this thread's pointers into its job's blocks.
    let in_bytes = k.in_words * 8;
    let out_bytes = k.out_words * 8;
    for line in [
        "ld.param.u64 %in, [warp_in];".to_string(),
        "ld.param.u64 %out, [warp_out];".to_string(),
        "cvta.to.global.u64 %in, %in;".to_string(),
        "cvta.to.global.u64 %out, %out;".to_string(),
        "mov.u32 %lane, %laneid;".to_string(),
        "mov.u32 %cta, %ctaid.x;".to_string(),
        format!("mul.wide.u32 %off, %cta, {in_bytes};"),
        "add.s64 %in, %in, %off;".to_string(),
        format!("mul.wide.u32 %off, %cta, {out_bytes};"),
        "add.s64 %out, %out, %off;".to_string(),
        "mul.wide.u32 %off, %lane, 8;".to_string(),
        "add.s64 %in, %in, %off;".to_string(),
        "add.s64 %out, %out, %off;".to_string(),
    ] {
        let _ = writeln!(s, "    {line}");
    }
    if let Some(seed) = perturb {
        // A per-lane delay for the schedule perturbation.
        let _ = writeln!(s, "    mul.lo.u32 %delay, %lane, 0x9e3779b1;");
        let _ = writeln!(s, "    xor.b32 %delay, %delay, {seed:#x};");
    }
    // Inputs.
    for (i, decl) in src.regs.iter().enumerate() {
        if !load[i] {
            continue;
        }
        let at = addr("%in", reg_off(i));
        let w = wname(i);
        match decl.ty.bits() {
            1 => {
                let _ = writeln!(s, "    ld.global.b32 %t32, {at};");
                let _ = writeln!(s, "    setp.ne.b32 {w}, %t32, 0;");
            }
            16 => {
                let _ = writeln!(s, "    ld.global.b16 {w}, {at};");
            }
            32 => {
                let _ = writeln!(s, "    ld.global.b32 {w}, {at};");
            }
            _ => {
                let _ = writeln!(s, "    ld.global.b64 {w}, {at};");
            }
        }
    }
    // Body.
    let labels_at = |s: &mut String, at: usize| {
        for l in renamed.labels.iter().filter(|l| l.at == at) {
            let _ = writeln!(s, "{}:", l.name);
        }
    };
    for (idx, inst) in src.insts.iter().enumerate() {
        labels_at(s, idx);
        let guard = match inst.guard {
            Some(g) => format!(
                "@{}{} ",
                if g.negated { "!" } else { "" },
                wname(g.reg.index())
            ),
            None => String::new(),
        };
        let op = map_op(&inst.op, scratch).map_err(|()| inst.line)?;
        // The instruction as `inst_text` prints it for the renamed program.
        let text = |op: Op| {
            inst_text(
                &renamed,
                &Inst {
                    guard: None,
                    op,
                    line: inst.line,
                },
            )
        };
        let sleeps = match op {
            Op::Shfl(_) | Op::Vote(_) | Op::Match(_) | Op::Redux(_) | Op::Activemask(_) => true,
            Op::Glue(_) | Op::Control(_) | Op::LaneOp(_) => false,
        };
        if let (Some(_), true) = (perturb, sleeps) {
            let _ = writeln!(
                s,
                "    add.u32 %sleep, %delay, {:#x};",
                (idx as u32).wrapping_mul(0x0037_79b1)
            );
            let _ = writeln!(s, "    shr.u32 %sleep, %sleep, 21;");
            let _ = writeln!(s, "    nanosleep.u32 %sleep;");
        }
        match op {
            Op::Control(Control::Exit) => {
                store_all(s, src, &guard, 1);
                let _ = writeln!(s, "    {guard}exit;");
            }
            Op::Redux(x) => {
                let (x, pre, post) = redux_f32_regs(x, src, scratch);
                if let Some(pre) = pre {
                    let _ = writeln!(s, "    {pre}");
                }
                let _ = writeln!(s, "    {guard}{}", text(Op::Redux(x)));
                if let Some(post) = post {
                    let _ = writeln!(s, "    {guard}{post}");
                }
            }
            Op::Glue(x) => {
                let mut t = text(Op::Glue(x));
                if contractible(&x) {
                    t = t.replacen(".f32 ", ".rn.f32 ", 1);
                }
                let _ = writeln!(s, "    {guard}{t}");
            }
            Op::LaneOp(x) => {
                let _ = writeln!(s, "    {guard}{}", text(lane_op(x)));
            }
            op @ (Op::Shfl(_)
            | Op::Vote(_)
            | Op::Match(_)
            | Op::Activemask(_)
            | Op::Control(Control::Bra { .. })) => {
                let _ = writeln!(s, "    {guard}{}", text(op));
            }
        }
    }
    labels_at(s, src.insts.len());
    store_all(s, src, "", 0);
    let _ = writeln!(s, "    ret;");
    let _ = writeln!(s, "}}");
    Ok(())
}
