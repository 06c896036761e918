//! The fast-compile tier's lowering: every warp instruction becomes one
//! call of a shared, precompiled *helper*, so that compiling a program
//! emits a handful of Cranelift instructions per PTX instruction instead
//! of the ~100 of its inline lowering (issue #14).
//!
//! A helper is the family's own lowering (the same code the inline tier
//! emits) compiled once per process for an instruction *shape*: the
//! instruction with its registers renamed `c0, c1, ...` (sources and the
//! guard one each, destinations shared where they are the same register,
//! so aliasing keeps its meaning), every immediate operand turned into
//! such a register, and the registers' types reduced to what the lowering
//! reads (width, `.pred`): see `canonical`. The helper copies its
//! registers from the caller's state (an immediate's from the call-site
//! table, into every lane) into a stack copy laid out like a
//! one-instruction program, runs the lowering there for the lanes of the
//! caller's running group, and copies back the registers the instruction
//! writes. Its arguments: the state pointer, the per-call-site table (each
//! register's offset in the state, or the immediate's bits; owned by the
//! compiled program) and the running group's mask. The inline lowering's
//! specialisations on immediates (a `shfl` with constant lane and clamp
//! becomes constant shuffles) are therefore not used here; the fuzzer
//! keeps them covered by compiling some programs inline
//! ([`crate::JitEngine::inline_every`]).
//!
//! Scratch arrays sit at the same offset in every layout (`layout.rs`), so
//! the families' scratch accesses address the caller's state.
//!
//! The driver (`emit.rs`) makes the calls: one per instruction, or for a
//! straight-line run of several, one call of the shared `run_list`
//! (`sched_helpers.rs`) with the list of `(helper, table)` pairs: every call in a
//! program makes Cranelift spill what is live across it.
//!
//! Helpers live for the whole process in a cache shared by all threads.
//! The cache holds at most [`MAX_HELPERS`] shapes (or what
//! [`set_max_helpers`] says); past that, the caller
//! lowers inline, as the fast-code tier does (the same results, a slower
//! compile).

use super::builder::{mf, Emitter};
use super::error::JitError;
use super::isa::Tuning;
use super::layout::{wide, Layout};
use super::sched_helpers;
use cranelift_codegen::ir::types::{I32, I32X4, I64, I64X2};
use cranelift_codegen::ir::{InstBuilder, StackSlotData, StackSlotKind};
use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering};
use std::sync::{Mutex, OnceLock};
use warp_core::fxhash::FxHashMap as HashMap;
use warp_core::ir::{Dest, Guard, Inst, Op, Operand, Program, Reg, RegDecl, Type};

/// Most instruction shapes the process keeps helpers for (each holds at
/// least a page of executable memory: 64 MiB at 4 KiB pages).
pub const MAX_HELPERS: usize = 16_384;

/// The cache's limit now ([`MAX_HELPERS`] unless [`set_max_helpers`]).
static LIMIT: AtomicUsize = AtomicUsize::new(MAX_HELPERS);

/// Sets how many shapes the process's helper cache may hold from now on
/// (helpers already compiled stay); 0 lowers every new shape inline. For
/// memory-tight embedders, and for testing the inline fallback.
pub fn set_max_helpers(n: usize) {
    LIMIT.store(n, Ordering::Relaxed);
}

/// How a non-control instruction is lowered inline: the families'
/// dispatch, owned by the driver (`emit.rs`).
pub type Lower = fn(&mut Emitter, Option<Guard>, &Op);

/// Most canonical registers an instruction has (guard, sources,
/// destinations: `shfl.sync` with `d|p` and an `@p` guard has 7).
const MAX_SLOTS: usize = 8;

/// An instruction shape: the instruction with canonical registers, and
/// their types. Fixed-size, so that keeping a new one allocates nothing
/// (but when the cache's table grows, a few times in a process's life):
/// libFuzzer takes an execution that allocates more than it frees for a
/// leak and runs it again.
#[derive(Clone, PartialEq, Eq, Hash)]
struct Shape {
    inst: Inst,
    /// How many canonical registers there are.
    n: usize,
    /// Their types (`Type::Pred` past `n`).
    types: [Type; MAX_SLOTS],
    /// Per canonical register: filled from an immediate.
    imm: [bool; MAX_SLOTS],
}

impl Shape {
    /// The canonical registers' types.
    fn types(&self) -> &[Type] {
        &self.types[..self.n]
    }
}

/// The process's helpers: shape → the helper's address.
fn cache() -> &'static Mutex<HashMap<Shape, usize>> {
    static CACHE: OnceLock<Mutex<HashMap<Shape, usize>>> = OnceLock::new();
    CACHE.get_or_init(|| Mutex::new(HashMap::default()))
}

static HITS: AtomicU64 = AtomicU64::new(0);
static MISSES: AtomicU64 = AtomicU64::new(0);
static INLINED: AtomicU64 = AtomicU64::new(0);

/// Counters of the helper cache since the process started.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct CacheStats {
    /// Call sites whose shape had a helper already.
    pub hits: u64,
    /// Call sites whose shape was compiled then (one helper each).
    pub misses: u64,
    /// Call sites lowered inline: the cache was full (or, which no
    /// instruction of the IR does, the shape had more than `MAX_SLOTS`
    /// registers).
    pub inlined: u64,
    /// Helpers in the cache now.
    pub helpers: usize,
}

/// The helper cache's counters.
pub fn stats() -> CacheStats {
    CacheStats {
        hits: HITS.load(Ordering::Relaxed),
        misses: MISSES.load(Ordering::Relaxed),
        inlined: INLINED.load(Ordering::Relaxed),
        helpers: cache().lock().map_or(0, |c| c.len()),
    }
}

/// The call sites of one program: their register-offset tables, which
/// the generated code reads, so they live as long as the code.
#[derive(Default)]
pub struct Sites {
    tables: Vec<Box<[i64]>>,
}

impl Sites {
    /// Keeps `words` for the life of the program; returns their address.
    pub fn keep(&mut self, words: Box<[i64]>) -> i64 {
        let addr = words.as_ptr() as i64;
        self.tables.push(words);
        addr
    }
}

/// The helper of `guard op`'s shape (compiled now if it is new) and this
/// site's table, for a call `helper(state, table, lanes)`; `None` when the
/// cache is full (lower it inline).
pub fn site(
    e: &Emitter,
    guard: Option<Guard>,
    op: &Op,
    sites: &mut Sites,
    lower: Lower,
) -> Result<Option<(usize, i64)>, JitError> {
    let Some((shape, slots)) = canonical(e.prog, guard, op) else {
        // More registers than a shape holds (no instruction has): inline.
        INLINED.fetch_add(1, Ordering::Relaxed);
        return Ok(None);
    };
    let found = cache().lock().ok().and_then(|c| c.get(&shape).copied());
    let helper = match found {
        Some(f) => {
            HITS.fetch_add(1, Ordering::Relaxed);
            f
        }
        None => {
            let limit = LIMIT.load(Ordering::Relaxed);
            let full = cache().lock().map_or(true, |c| c.len() >= limit);
            if full {
                INLINED.fetch_add(1, Ordering::Relaxed);
                return Ok(None);
            }
            MISSES.fetch_add(1, Ordering::Relaxed);
            let f = compile(&shape, lower)?;
            // Two threads may compile one shape at once: both helpers are
            // right; the first one stays, the other is still used here.
            if let Ok(mut c) = cache().lock() {
                c.entry(shape).or_insert(f);
            }
            f
        }
    };
    let table: Box<[i64]> = slots
        .iter()
        .map(|s| match *s {
            Slot::Reg(r) => e.lay.regs[r.index()] as i64,
            Slot::Imm(v) => v as i64,
        })
        .collect();
    Ok(Some((helper, sites.keep(table))))
}

/// Where a helper's register `c{i}` comes from at a call site.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
enum Slot {
    /// A program register: the table holds its offset in the state.
    Reg(Reg),
    /// An immediate operand: the table holds its bits, which the helper
    /// gives every lane.
    Imm(u64),
}

/// The shape of `guard op` in `prog`, and what each canonical register
/// stands for at this site.
///
/// Immediates become registers filled from the call-site table, so that
/// `add d, a, 7` and `add d, a, 9` share a helper (with the immediates in
/// the shape, 1,000 generated programs had 9,187 shapes; each costs a
/// compile the first time).
fn canonical(prog: &Program, guard: Option<Guard>, op: &Op) -> Option<(Shape, Vec<Slot>)> {
    let mut c = Canon::default();
    let guard = guard.map(|g| Guard {
        reg: c.name(Slot::Reg(g.reg), prog.decl(g.reg).ty, false),
        ..g
    });
    let mut op = op.clone();
    for (o, ty, _) in op.sources_mut() {
        *o = match *o {
            Operand::Reg(r) => Operand::Reg(c.name(Slot::Reg(r), prog.decl(r).ty, false)),
            Operand::NotPred(r) => Operand::NotPred(c.name(Slot::Reg(r), prog.decl(r).ty, false)),
            Operand::Imm(v) => Operand::Reg(c.name(Slot::Imm(v), ty, false)),
            Operand::LaneId => Operand::LaneId,
        };
    }
    c.dests_from = c.slots.len();
    for (d, _) in op.dests_mut() {
        if let Dest::Reg(r) = *d {
            *d = Dest::Reg(c.name(Slot::Reg(r), prog.decl(r).ty, true));
        }
    }
    let inst = Inst { guard, op, line: 0 };
    let n = c.types.len();
    if n > MAX_SLOTS {
        return None;
    }
    let mut types = [Type::Pred; MAX_SLOTS];
    types[..n].copy_from_slice(&c.types);
    let mut imm = [false; MAX_SLOTS];
    imm[..n].copy_from_slice(&c.imm);
    let shape = Shape {
        inst,
        n,
        types,
        imm,
    };
    Some((shape, c.slots))
}

/// The canonical registers of one instruction, as [`canonical`] names
/// them.
#[derive(Default)]
struct Canon {
    slots: Vec<Slot>,
    types: Vec<Type>,
    imm: Vec<bool>,
    /// The first destination's register.
    dests_from: usize,
}

impl Canon {
    /// The canonical register for `slot` read or written as `ty`.
    ///
    /// Sources and the guard get a register each, even where they name
    /// the same register (the helper copies each in, and reads them all
    /// before it writes); destinations share one where they are the same
    /// register (the last write wins, as inline).
    fn name(&mut self, slot: Slot, ty: Type, dest: bool) -> Reg {
        // The lowering reads a register's declared type only for its
        // width and whether it is a `.pred` (`builder.rs`, `alu.rs`'s
        // `not`).
        let ty = match ty {
            Type::Pred => Type::Pred,
            t if t.bits() == 32 => Type::B32,
            t if t.bits() == 64 => Type::B64,
            t => t,
        };
        let shared = self.slots[self.dests_from.min(self.slots.len())..]
            .iter()
            .position(|x| dest && *x == slot)
            .map(|i| i + self.dests_from);
        let i = shared.unwrap_or_else(|| {
            self.slots.push(slot);
            self.types.push(ty);
            self.imm.push(matches!(slot, Slot::Imm(_)));
            self.slots.len() - 1
        });
        Reg(i as u32)
    }
}

/// Compiles the helper of `shape` and returns its address. Its code is
/// kept for the life of the process. It is compiled with the fast-compile
/// tuning too: a fuzzing run meets thousands of shapes (3,764 in 4,000
/// generated programs), and the fast-code tuning doubled the cost of each
/// (386 µs against 180 µs a shape, measured with both).
fn compile(shape: &Shape, lower: Lower) -> Result<usize, JitError> {
    let prog = Program {
        regs: shape
            .types()
            .iter()
            .enumerate()
            .map(|(i, &ty)| RegDecl {
                name: format!("c{i}"),
                ty,
            })
            .collect(),
        insts: vec![shape.inst.clone()],
        ..Program::default()
    };
    // The scratch arrays are the caller's: at the same offsets in both
    // (`Layout::scratch`).
    let lay = Layout::new(&prog);
    sched_helpers::compile_fn(Tuning::FastCompile, &[I64, I64, I32], None, |b, ps| {
        let (state, table, conv_in) = (ps[0], ps[1], ps[2]);
        let slot =
            b.create_sized_stack_slot(StackSlotData::new(StackSlotKind::ExplicitSlot, lay.size, 4));
        let local = b.ins().stack_addr(I64, slot, 0);
        let size = |ty: Type| if wide(ty) { 256 } else { 128 };
        // Copy in every register (a destination too: the lanes the
        // instruction does not write keep their values).
        let mut places = Vec::with_capacity(shape.n);
        for (i, &ty) in shape.types().iter().enumerate() {
            let entry = b.ins().load(I64, mf(), table, 8 * i as i32);
            let at = lay.regs[i] as i32;
            if shape.imm[i] {
                // An immediate: every lane holds its bits.
                let v = if wide(ty) {
                    b.ins().splat(I64X2, entry)
                } else {
                    let v = b.ins().ireduce(I32, entry);
                    b.ins().splat(I32X4, v)
                };
                for k in (0..size(ty)).step_by(16) {
                    b.ins().store(mf(), v, local, at + k);
                }
                places.push(None);
                continue;
            }
            let place = b.ins().iadd(state, entry);
            for k in (0..size(ty)).step_by(16) {
                let v = b.ins().load(I32X4, mf(), place, k);
                b.ins().store(mf(), v, local, at + k);
            }
            places.push(Some(place));
        }
        let conv = b.declare_var(I32);
        b.def_var(conv, conv_in);
        {
            let mut e = Emitter::new(b, &prog, &lay, local, conv);
            e.begin_segment(false);
            lower(&mut e, shape.inst.guard, &shape.inst.op);
        }
        // Copy out what it writes.
        for r in shape.inst.op.written() {
            let (i, ty) = (r.index(), shape.types[r.index()]);
            for k in (0..size(ty)).step_by(16) {
                let v = b.ins().load(I32X4, mf(), local, lay.regs[i] as i32 + k);
                let place = places[i].expect("an instruction writes no immediate");
                b.ins().store(mf(), v, place, k);
            }
        }
        b.ins().return_(&[]);
    })
}
