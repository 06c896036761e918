//! The emitter every instruction family lowers with: access to the warp
//! state in memory, the masks of the lanes an instruction runs on, and
//! operand reads and writes per lane, per run-time lane or per 4 lanes
//! (i32x4). It knows no instruction family; the driver (`emit.rs`) owns
//! control flow and tells it where the running group is.

use super::layout::{wide, Layout};
use super::liveness::Liveness;
use cranelift_codegen::cursor::{Cursor, FuncCursor};
use cranelift_codegen::ir::condcodes::{FloatCC, IntCC};
use cranelift_codegen::ir::types::{I32, I32X4, I64, I64X2, I8X16};
use cranelift_codegen::ir::{
    AbiParam, Block, BlockArg, Endianness, Inst, InstBuilder, InstructionData, MemFlagsData,
    Opcode, SigRef, Signature, Value,
};
use cranelift_frontend::{FunctionBuilder, Variable};
use warp_core::ir::{CmpOp, Dest, Guard, Operand, Program, Reg, Type, WARP};

/// PTX's float comparisons (`setp` on `.f32` and `.f64`) are ordered:
/// false when either side is NaN, `ne` included.
pub fn float_cc(cmp: CmpOp) -> FloatCC {
    match cmp {
        CmpOp::Eq => FloatCC::Equal,
        CmpOp::Ne => FloatCC::OrderedNotEqual,
        CmpOp::Lt => FloatCC::LessThan,
        CmpOp::Le => FloatCC::LessThanOrEqual,
        CmpOp::Gt => FloatCC::GreaterThan,
        CmpOp::Ge => FloatCC::GreaterThanOrEqual,
    }
}

/// Memory flags for every state access: the buffer is valid, aligned and
/// never traps.
pub fn mf() -> MemFlagsData {
    MemFlagsData::trusted()
}

/// The emitter of one program.
pub struct Emitter<'a, 'b> {
    /// The Cranelift builder.
    pub b: &'a mut FunctionBuilder<'b>,
    /// The program.
    pub prog: &'a Program,
    /// The state layout.
    pub lay: &'a Layout,
    /// The state pointer (function argument).
    pub state: Value,
    /// The running group (converged lanes) as an i32 mask variable; the
    /// driver defines it as lanes park, branch and exit.
    pub conv: Variable,
    /// Mask vectors of the running group, computed once per segment.
    conv_vecs: Option<[Value; 8]>,
    /// Whether the running group is statically the whole warp: in the
    /// first segment, when no label stands at the start, every lane is
    /// there and none has exited, and so after a `.sync` collective that
    /// the whole warp runs with a full immediate `membermask` (see the
    /// driver's `arrive`), so unguarded writes need no blending.
    full: bool,
    /// The fast-compile tier: a guard's lanes come from this shared helper
    /// (`sched_helpers.rs`: `(state, offset) -> mask`) rather than from inline
    /// code.
    pub pred_mask: Option<usize>,
    /// The signatures imported so far, each once: Cranelift works out
    /// the calling convention of every imported signature, and a program
    /// of the fast-compile tier calls helpers of a few signatures
    /// hundreds of times.
    sigs: Vec<(Signature, SigRef)>,
    /// The vectors this block stored or loaded at fixed offsets of the
    /// state: a later [`Emitter::load`] of one uses the value instead of
    /// memory. A register's vector written while an instruction of a
    /// segment is lowered ([`Emitter::pc`]) is *dirty*: its store waits
    /// here (the register lives in an SSA value) until something needs
    /// the state in memory ([`Emitter::flush`]). Forgotten at a block
    /// switch (but into a block that only the current one enters,
    /// [`Emitter::keep_through`]), after every call, and at a store
    /// through a computed address.
    known: Vec<Known>,
    /// The block [`Emitter::switch_to`] keeps `known` into.
    keep_for: Option<Block>,
    /// The next kept switch needs no check of the current block's exits
    /// ([`Emitter::switch_keeping`]).
    trusted: bool,
    /// The instruction being lowered, while the driver lowers a segment's
    /// instructions: register writes then wait in `known`; `None` outside
    /// (the driver's own code, the completion of rendezvous), where every
    /// store is emitted at once.
    pub pc: Option<usize>,
    /// The instruction [`Emitter::pc`] has read its operands (a flush
    /// then keeps only what is live after it).
    reads_done: bool,
    /// A kernel's liveness: a flush skips the registers that no lane
    /// reads again (`liveness.rs`); `None`: every dirty vector is stored.
    pub live: Option<Liveness>,
    /// The registers' places in the state, `(start, end, register)`,
    /// sorted: which register a cached vector belongs to.
    spans: Vec<(i32, i32, usize)>,
    /// A kernel's uniform registers (`uniform.rs`), per register; empty
    /// where none is known. Where the running group is the whole warp
    /// ([`Emitter::is_full`]) every lane of one holds its value, so
    /// [`Emitter::load`] reads it as lane 0's word broadcast to the lanes.
    pub uniform: Vec<bool>,
    /// A kernel's uniform registers kept as one word (`uniform.rs`:
    /// `scalar_regs`), per register; empty where none is. Lane 0's place
    /// in the state holds the value, the other lanes' places are never
    /// written nor read: [`Emitter::write_vec`], [`Emitter::write_vec64`]
    /// and [`Emitter::write_all`] store the word alone, and
    /// [`Emitter::load`] broadcasts it, whatever the running group.
    pub scalar: Vec<bool>,
    /// Every register write waits in its SSA value ([`Emitter::pc`]), not
    /// only those of registers that die soon: set by the driver for a
    /// kernel's whole-warp code that ends in a `shfl` completing at once,
    /// whose values go on in SSA values into the next segment (its
    /// `chain`); until the next segment starts.
    pub defer_all: bool,
    /// What earlier whole-warp accesses of this segment proved of their
    /// address registers (`memory_ops.rs`), each with the variable that
    /// is 1 where it holds: forgotten at a segment's start and, per
    /// register, at each write of the register (`emit.rs`).
    pub facts: Vec<AddrFact>,
    /// While the driver lowers a kernel segment's copy for the whole warp:
    /// the end of the instructions that copy runs (the rest of the
    /// segment, from there, runs after the copies join). `None`
    /// elsewhere. A row deferred by `memory_ops::defer_row` must be read
    /// only by its copy's accesses and rows (and be dead after them).
    pub copy_end: Option<usize>,
    /// `ld.shared` instructions of this segment (by pc) whose words an
    /// earlier gather of the same column already loaded into their
    /// registers (`memory_ops::gather`) where its variable is 1: they
    /// then load nothing. Forgotten at a segment's start.
    pub preloaded: Vec<(usize, Variable)>,
    /// `st.global` instructions of this segment (by pc) whose lines an
    /// earlier whole-warp `st.global` touched (`memory_ops::touch_early`
    /// on its fast path): they touch them no more. Forgotten at a
    /// segment's start.
    pub touched: Vec<usize>,
}

/// A property of the 32 lanes of address register `reg` that an access
/// checked (`memory_ops.rs`), true wherever variable `var` (an i8) is 1:
/// on the paths through that access's fast path, until `reg` is written.
#[derive(Clone, Copy, PartialEq, Debug)]
pub struct AddrFact {
    /// The register.
    pub reg: Reg,
    /// What holds of it.
    pub kind: FactKind,
    /// 1 where it holds, 0 where it is not known.
    pub var: Variable,
    /// Where `var` is 1, the state holds lane 0's value alone (a row
    /// deferred by `memory_ops::defer_row`: the other lanes' places are
    /// stale, each lane's value is lane 0's plus `4 l`); a reader that
    /// needs the lanes in the state writes them first
    /// (`memory_ops::whole_warp`). Only [`FactKind::Consecutive`].
    pub stale: bool,
}

/// What an [`AddrFact`] says of its register's 32 lanes.
#[derive(Clone, Copy, PartialEq, Debug)]
pub enum FactKind {
    /// Lane `l` holds lane 0's value plus `4 l` (wrapping at the
    /// register's width): a whole warp's `a[tid]`.
    Consecutive,
    /// Every lane's value `v` (a 32-bit register, zero-extended) with any
    /// offset `o` in `lo..=hi` with `o & 3 == low` is an aligned word
    /// wholly inside the CTA's static shared memory.
    Gathered {
        /// The lowest offset.
        lo: i64,
        /// The highest offset.
        hi: i64,
        /// The offsets' two low bits.
        low: i64,
    },
}

/// A vector of the state held in an SSA value: at byte `off`, of type
/// `ty`, `v`; `dirty` when the state does not hold it yet.
#[derive(Clone, Copy, PartialEq, Debug)]
struct Known {
    off: i32,
    ty: cranelift_codegen::ir::Type,
    v: Value,
    dirty: bool,
}

impl Known {
    /// Whether it shares a byte with `off..end`.
    fn overlaps(&self, off: i32, end: i32) -> bool {
        self.off < end && off < self.off + self.ty.bytes() as i32
    }
}

/// The lanes one instruction runs on; the masks are built on first use.
#[derive(Clone, Copy)]
pub struct Lanes {
    /// The running group (converged lanes) as an i32 mask.
    pub conv: Value,
    guard: Option<Guard>,
    exec: Option<Value>,
    vecs: Option<LaneVecs>,
}

/// Eight i32x4 all-ones/zero vectors (lanes 4k..4k+3 in vector k) that
/// mark the executing lanes, or (`off`) the lanes that do not execute: a
/// guard `@p` is `p == 0` on the lanes it takes off, and x86 compares for
/// equality in one operation but for inequality in three (`pcmpeqd`, all
/// ones, `pxor`), so its lanes are kept the way they compare cheaply and a
/// blend picks its operands accordingly ([`Emitter::blend_store`]).
#[derive(Clone, Copy)]
pub struct LaneVecs {
    vecs: [Value; 8],
    off: bool,
}

/// A run-time lane inside [`Emitter::lane_loop`]: the lane index and the
/// state pointer advanced by `lane * 4` and `lane * 8`.
#[derive(Clone, Copy)]
pub struct At {
    /// The lane (i32, 0..32).
    pub lane: Value,
    /// `state + lane * 4`: add a 32-bit array's base offset.
    pub p4: Value,
    /// `state + lane * 8`: add a 64-bit array's base offset.
    pub p8: Value,
}

impl<'a, 'b> Emitter<'a, 'b> {
    /// An emitter writing into `b` for `prog`, whose state lies at
    /// `state` in `lay`, with the running group in variable `conv`.
    pub fn new(
        b: &'a mut FunctionBuilder<'b>,
        prog: &'a Program,
        lay: &'a Layout,
        state: Value,
        conv: Variable,
    ) -> Self {
        Emitter {
            b,
            prog,
            lay,
            state,
            conv,
            conv_vecs: None,
            full: false,
            pred_mask: None,
            sigs: Vec::new(),
            known: Vec::new(),
            keep_for: None,
            trusted: false,
            pc: None,
            reads_done: false,
            live: None,
            uniform: Vec::new(),
            scalar: Vec::new(),
            defer_all: false,
            facts: Vec::new(),
            copy_end: None,
            preloaded: Vec::new(),
            touched: Vec::new(),
            spans: {
                let mut spans: Vec<(i32, i32, usize)> = prog
                    .regs
                    .iter()
                    .enumerate()
                    .map(|(i, d)| {
                        let start = lay.regs[i] as i32;
                        let size = if wide(d.ty) { 8 } else { 4 };
                        (start, start + size * WARP as i32, i)
                    })
                    .collect();
                spans.sort_unstable();
                spans
            },
        }
    }

    /// Starts a straight-line segment: the running group changed, and it
    /// is the whole warp when `full`.
    pub fn begin_segment(&mut self, full: bool) {
        self.conv_vecs = None;
        self.full = full;
        self.defer_all = false;
        self.facts.clear();
        self.preloaded.clear();
        self.touched.clear();
    }

    /// Whether `mask` (an i32 lane mask) is the constant with every lane:
    /// the running group of a full segment ([`Emitter::lanes`]) when no
    /// guard takes lanes off.
    fn is_all(&self, mask: Value) -> bool {
        let dfg = &self.b.func.dfg;
        dfg.value_def(mask).inst().is_some_and(|i| {
            matches!(dfg.insts[i], InstructionData::UnaryImm { opcode: Opcode::Iconst, imm }
                if imm.bits() as u32 == u32::MAX)
        })
    }

    /// Whether the running group is statically the whole warp (no lane
    /// exited, parked or waiting): see [`Emitter::begin_segment`].
    pub fn is_full(&self) -> bool {
        self.full
    }

    // ---- memory ----

    /// Loads a `ty` at `state + off` (a vector this block stored or
    /// loaded there is used as it is: `known`; a dirty vector that shares
    /// bytes with it is stored first).
    pub fn load(&mut self, ty: cranelift_codegen::ir::Type, off: i32) -> Value {
        if let Some(k) = self.known.iter().find(|k| k.off == off && k.ty == ty) {
            return k.v;
        }
        if let Some(v) = self.scalar_read(ty, off) {
            return v;
        }
        if let Some(v) = self.uniform_vec(ty, off) {
            return v;
        }
        self.store_waiting(off, off + ty.bytes() as i32);
        let v = self.b.ins().load(ty, mf(), self.state, off);
        if ty.is_vector() {
            self.known.push(Known {
                off,
                ty,
                v,
                dirty: false,
            });
        }
        v
    }

    /// Stores the waiting (dirty) vectors that share a byte with
    /// `off..end`, before a load of those bytes from the state.
    fn store_waiting(&mut self, off: i32, end: i32) {
        for i in 0..self.known.len() {
            let k = self.known[i];
            if k.dirty && k.overlaps(off, end) {
                self.b.ins().store(mf(), k.v, self.state, k.off);
                self.known[i].dirty = false;
            }
        }
    }

    /// Lane 0 of the lanes' vector type `ty` (`I32X4`, `I64X2`) at `off`:
    /// from a vector of it the block knows (or a one-word register's
    /// word), else one load of lane 0's word alone. A vector load there
    /// would read past a lane 0 that was just stored alone (a deferred
    /// row keeps lane 0's address only, `memory_ops::defer_source`): a
    /// load wider than the store before it is not forwarded from the
    /// store buffer and waits until every older store, the kernel's
    /// cache-missing `st.global` among them, has reached the cache (the
    /// transpose's first `st.global` spent most of the launch there,
    /// 2026-11-28).
    pub fn load_lane0(&mut self, ty: cranelift_codegen::ir::Type, off: i32) -> Value {
        let cached = self.known.iter().any(|k| k.off == off && k.ty == ty);
        if !cached {
            if let Some(v) = self.scalar_read(ty, off) {
                return self.b.ins().extractlane(v, 0);
            }
            if let Some(v) = self.uniform_vec(ty, off) {
                return self.b.ins().extractlane(v, 0);
            }
            let word = ty.lane_type();
            self.store_waiting(off, off + word.bytes() as i32);
            return self.b.ins().load(word, mf(), self.state, off);
        }
        let v = self.load(ty, off);
        self.b.ins().extractlane(v, 0)
    }

    /// Stores `v` at `state + off`; a register's vector written while an
    /// instruction is lowered waits in `known` ([`Emitter::pc`]).
    pub fn store(&mut self, v: Value, off: i32) {
        let ty = self.b.func.dfg.value_type(v);
        let end = off + ty.bytes() as i32;
        // What `v` overlaps is forgotten; a dirty vector of which `v`
        // covers only part goes to memory first (its other bytes).
        let mut i = 0;
        while i < self.known.len() {
            let k = self.known[i];
            if !k.overlaps(off, end) {
                i += 1;
                continue;
            }
            if k.dirty && !(off <= k.off && k.off + k.ty.bytes() as i32 <= end) {
                self.b.ins().store(mf(), k.v, self.state, k.off);
            }
            self.known.swap_remove(i);
        }
        // A register's vector waits when the register dies before the
        // state is next needed in memory: its store is then never made.
        let defer = ty.is_vector()
            && match (&self.live, self.pc, self.reg_of(off)) {
                (Some(live), Some(pc), Some(r)) => self.defer_all || live.dies_soon(pc, r),
                _ => false,
            };
        if ty.is_vector() {
            self.known.push(Known {
                off,
                ty,
                v,
                dirty: defer,
            });
        }
        if !defer {
            self.b.ins().store(mf(), v, self.state, off);
        }
    }

    /// The register whose place in the state holds byte `off`.
    fn reg_of(&self, off: i32) -> Option<usize> {
        self.span_of(off).map(|(_, _, r)| r)
    }

    /// The place `(start, end, register)` of the register whose place in
    /// the state holds byte `off`.
    fn span_of(&self, off: i32) -> Option<(i32, i32, usize)> {
        let i = self.spans.partition_point(|&(start, _, _)| start <= off);
        let &(start, end, r) = self.spans.get(i.checked_sub(1)?)?;
        (off < end).then_some((start, end, r))
    }

    /// Whether register `r` is kept as one word ([`Emitter::scalar`]).
    fn is_scalar(&self, r: usize) -> bool {
        self.scalar.get(r).copied().unwrap_or(false)
    }

    /// The word type and the lanes' vector type of register `r`.
    fn word_types(&self, r: usize) -> (cranelift_codegen::ir::Type, cranelift_codegen::ir::Type) {
        if wide(self.prog.regs[r].ty) {
            (I64, I64X2)
        } else {
            (I32, I32X4)
        }
    }

    /// A read of a register kept as one word ([`Emitter::scalar`]) at
    /// `off`, inside its place: its lanes' vector type gives the word
    /// broadcast (known in the block after a write or a read, else one
    /// scalar load), its word type the word. `None` for any other
    /// register.
    fn scalar_read(&mut self, ty: cranelift_codegen::ir::Type, off: i32) -> Option<Value> {
        if self.scalar.is_empty() {
            return None;
        }
        let (start, _, r) = self.span_of(off)?;
        if !self.is_scalar(r) {
            return None;
        }
        let (word, lanes) = self.word_types(r);
        let known = (self.known.iter()).find(|k| k.off == start && k.ty == lanes);
        if ty == lanes {
            if let Some(k) = known {
                return Some(k.v);
            }
            let w = self.b.ins().load(word, mf(), self.state, start);
            let v = self.b.ins().splat(lanes, w);
            self.known.push(Known {
                off: start,
                ty: lanes,
                v,
                dirty: false,
            });
            return Some(v);
        }
        assert!(
            ty == word,
            "a register kept as one word is read as its word or its lanes"
        );
        Some(match known {
            Some(k) => {
                let v = k.v;
                self.b.ins().extractlane(v, 0)
            }
            None => self.b.ins().load(word, mf(), self.state, start),
        })
    }

    /// Writes `w` (of its word type, or an i64 for a 32-bit register) to
    /// register `r`, kept as one word ([`Emitter::scalar`]): every
    /// non-exited lane runs each write of it, with the same value.
    fn write_scalar(&mut self, r: Reg, w: Value) {
        // Lane 0 of a broadcast is what was broadcast.
        let w = self.unsplat(w);
        let (word, lanes) = self.word_types(r.index());
        let w = if self.b.func.dfg.value_type(w) != word {
            self.b.ins().ireduce(word, w)
        } else {
            w
        };
        let start = self.lay.regs[r.index()] as i32;
        // Stored at once (a scalar store never waits), which forgets the
        // broadcast this block knew.
        self.store(w, start);
        let v = self.b.ins().splat(lanes, w);
        self.known.push(Known {
            off: start,
            ty: lanes,
            v,
            dirty: false,
        });
    }

    /// `x` where `w` is `extractlane(splat(x), 0)`, else `w`.
    fn unsplat(&self, w: Value) -> Value {
        let dfg = &self.b.func.dfg;
        let Some(i) = dfg.value_def(w).inst() else {
            return w;
        };
        let InstructionData::BinaryImm8 {
            opcode: Opcode::Extractlane,
            arg,
            imm,
        } = dfg.insts[i]
        else {
            return w;
        };
        if imm != 0 {
            return w;
        }
        let Some(j) = dfg.value_def(arg).inst() else {
            return w;
        };
        match dfg.insts[j] {
            InstructionData::Unary {
                opcode: Opcode::Splat,
                arg: x,
            } => x,
            _ => w,
        }
    }

    /// A vector of lanes of a uniform register ([`Emitter::uniform`])
    /// while the running group is the whole warp, where each lane holds
    /// its value: any vector of it this block knows (they are all equal),
    /// or lane 0's word broadcast (one scalar load instead of a vector
    /// load per four or two lanes; the computations on it are then the
    /// same for every group of lanes, and Cranelift keeps one). `None`
    /// for anything else: another type, or a place that is not a
    /// uniform register's group of lanes.
    fn uniform_vec(&mut self, ty: cranelift_codegen::ir::Type, off: i32) -> Option<Value> {
        if !self.full || !ty.is_vector() {
            return None;
        }
        let (start, end, r) = self.span_of(off)?;
        if !self.uniform.get(r).copied().unwrap_or(false) {
            return None;
        }
        let lanes = if wide(self.prog.regs[r].ty) {
            I64X2
        } else {
            I32X4
        };
        if ty != lanes || (off - start) % 16 != 0 {
            return None;
        }
        if let Some(k) = (self.known.iter()).find(|k| k.ty == ty && start <= k.off && k.off < end) {
            return Some(k.v);
        }
        // Lane 0's word, after any waiting store that covers it.
        let word = ty.lane_type();
        self.store_waiting(start, start + word.bytes() as i32);
        let s = self.b.ins().load(word, mf(), self.state, start);
        let v = self.b.ins().splat(ty, s);
        self.known.push(Known {
            off,
            ty,
            v,
            dirty: false,
        });
        Some(v)
    }

    /// Whether a flush now stores dirty vector `k`: not when no lane
    /// reads its register again ([`Emitter::live`]).
    fn wanted(&self, k: &Known) -> bool {
        match (&self.live, self.pc, self.reg_of(k.off)) {
            (Some(live), Some(pc), Some(r)) => live.keeps(pc, r, self.reads_done),
            _ => true,
        }
    }

    /// The stores a flush does now: `(offset, value)` of every dirty
    /// vector it keeps.
    fn due(&self) -> Vec<(i32, Value)> {
        self.known
            .iter()
            .filter(|k| k.dirty && self.wanted(k))
            .map(|k| (k.off, k.v))
            .collect()
    }

    /// Stores the dirty vectors here (those whose registers are still
    /// read: [`Emitter::live`]): the state in memory is then what the
    /// code after this point reads. The values stay known.
    pub fn flush(&mut self) {
        for (off, v) in self.due() {
            self.b.ins().store(mf(), v, self.state, off);
        }
        for k in &mut self.known {
            k.dirty = false;
        }
    }

    /// [`Emitter::flush`] before `term`, the terminator of a filled block.
    fn flush_before(&mut self, term: Inst) {
        let due = self.due();
        let state = self.state;
        let mut pos = FuncCursor::new(self.b.func).at_inst(term);
        for (off, v) in due {
            pos.ins().store(mf(), v, state, off);
        }
        for k in &mut self.known {
            k.dirty = false;
        }
    }

    /// The terminator of the current block, when it is filled.
    fn terminator(&self) -> Option<Inst> {
        let cur = self.b.current_block()?;
        let term = self.b.func.layout.last_inst(cur)?;
        self.b.func.dfg.insts[term]
            .opcode()
            .is_terminator()
            .then_some(term)
    }

    /// Sets the instruction being lowered ([`Emitter::pc`]).
    pub fn set_pc(&mut self, pc: Option<usize>) {
        self.pc = pc;
        self.reads_done = false;
    }

    /// The instruction being lowered has read its operands: a flush from
    /// here on keeps only the registers live after it.
    pub fn reads_done(&mut self) {
        self.reads_done = true;
    }

    /// Ends a segment's lowering: the dirty vectors are stored (before
    /// the current block's terminator when it has one), and register
    /// writes no longer wait ([`Emitter::pc`] is `None`).
    pub fn close_segment(&mut self) {
        match self.terminator() {
            Some(term) => self.flush_before(term),
            None => self.flush(),
        }
        self.set_pc(None);
    }

    /// Stores `v` at `p + off`, an address computed at run time (it may
    /// be anywhere in the state: the dirty vectors are stored first, and
    /// every known vector is forgotten).
    pub fn store_at(&mut self, v: Value, p: Value, off: i32) {
        self.flush();
        self.known.clear();
        self.b.ins().store(mf(), v, p, off);
    }

    /// Switches to emitting into `blk`. What this block knew of the state
    /// is forgotten, and its dirty vectors are stored before its
    /// terminator, unless `blk` was named by [`Emitter::keep_through`]
    /// and the terminator goes to `blk` alone (else they are stored, and
    /// the values stay known).
    pub fn switch_to(&mut self, blk: Block) {
        let keep = self.keep_for.take() == Some(blk);
        let trusted = std::mem::take(&mut self.trusted);
        if let Some(term) = self.terminator() {
            let only_blk = trusted || {
                let f = &self.b.func;
                f.dfg.insts[term]
                    .branch_destination(&f.dfg.jump_tables, &f.dfg.exception_tables)
                    .iter()
                    .all(|c| c.block(&f.dfg.value_lists) == blk)
            };
            if !(keep && only_blk) {
                self.flush_before(term);
            }
        } else {
            debug_assert!(
                self.known.iter().all(|k| !k.dirty),
                "a block left unfilled with stores waiting"
            );
        }
        if !keep {
            self.known.clear();
        }
        self.b.switch_to_block(blk);
    }

    /// The next [`Emitter::switch_to`] into `blk` keeps what this block
    /// knows of the state: the caller makes sure that only this block
    /// enters `blk`, with no code in between that writes the state (or,
    /// [`Emitter::unless_rare`], that every path into `blk` starts at the
    /// block that knew it and writes no state).
    pub fn keep_through(&mut self, blk: Block) {
        self.keep_for = Some(blk);
    }

    /// Switches to `blk` keeping what is known of the state, dirty
    /// vectors included, with no check: the caller makes sure that every
    /// path into `blk` starts where it was known and writes no state, and
    /// leaves those paths only into `blk` ([`Emitter::unless_rare`]).
    pub fn switch_keeping(&mut self, blk: Block) {
        self.keep_for = Some(blk);
        self.trusted = true;
        self.switch_to(blk);
    }

    /// `values`, or what `fix` makes of them where `rare` (an integer
    /// scalar) is not 0: a case the CPU predicts away, taken out of the
    /// hot path into a cold block instead of being computed on every run.
    /// `fix` runs in that block and must neither read nor write the
    /// state: the two paths then join with what this block knew of the
    /// state still true (every path into the join starts here).
    pub fn unless_rare(
        &mut self,
        rare: Value,
        values: &[Value],
        fix: impl FnOnce(&mut Self, &[Value]) -> Vec<Value>,
    ) -> Vec<Value> {
        let cold = self.b.create_block();
        let join = self.b.create_block();
        self.b.set_cold_block(cold);
        for &v in values {
            let ty = self.b.func.dfg.value_type(v);
            self.b.append_block_param(join, ty);
        }
        let args: Vec<BlockArg> = values.iter().map(|&v| v.into()).collect();
        self.b.ins().brif(rare, cold, &[], join, &args);
        let known = self.known.clone();
        self.switch_keeping(cold);
        let fixed = fix(self, values);
        debug_assert!(self.known == known, "the rare case touched the state");
        let args: Vec<BlockArg> = fixed.iter().map(|&v| v.into()).collect();
        self.b.ins().jump(join, &args);
        self.switch_keeping(join);
        self.b.block_params(join).to_vec()
    }

    /// Goes to `target` with `args` where `rare` (an integer scalar) is
    /// not 0, through a cold block that stores the vectors waiting here
    /// (those still read: [`Emitter::flush`]) first; the hot path goes on
    /// in a block only this one enters, with them still waiting (a run
    /// out of fuel leaves the state in memory, the usual path does not
    /// pay for it).
    pub fn rare_exit(&mut self, rare: Value, target: Block, args: &[BlockArg]) {
        let cold = self.b.create_block();
        let hot = self.b.create_block();
        self.b.set_cold_block(cold);
        self.b.ins().brif(rare, cold, &[], hot, &[]);
        let known = self.known.clone();
        self.switch_keeping(cold);
        for (off, v) in self.due() {
            self.b.ins().store(mf(), v, self.state, off);
        }
        self.b.ins().jump(target, args);
        self.known = known;
        self.switch_keeping(hot);
    }

    /// `state + base + (lane & 31) * size` for a run-time lane.
    pub fn lane_addr(&mut self, base: u32, lane: Value, size: i64) -> Value {
        let l = self.b.ins().band_imm_s(lane, 31);
        let l = self.b.ins().uextend(I64, l);
        let l = self.b.ins().imul_imm_s(l, size);
        let p = self.b.ins().iadd(self.state, l);
        self.b.ins().iadd_imm_s(p, base as i64)
    }

    /// Offset of register `r`'s lane `l`.
    pub fn reg_off(&self, r: Reg, lane: usize) -> i32 {
        let size = if wide(self.prog.decl(r).ty) { 8 } else { 4 };
        (self.lay.regs[r.index()] + lane as u32 * size) as i32
    }

    // ---- lane masks ----

    /// The lanes an instruction with guard `g` executes on.
    pub fn lanes(&mut self, guard: Option<Guard>) -> Lanes {
        let conv = if self.full {
            self.b.ins().iconst(I32, -1)
        } else {
            self.b.use_var(self.conv)
        };
        Lanes {
            conv,
            guard,
            exec: None,
            vecs: None,
        }
    }

    /// The lanes where the guard's predicate is 0 (false), as eight i32x4
    /// all-ones/zero vectors: the lanes `@p` takes off, the lanes `@!p`
    /// keeps.
    ///
    /// A predicate vector this block wrote as a constant (`shfl`'s
    /// in-range predicate with immediate `b` and `c` is one) gives a
    /// constant, so that [`Emitter::blend`] and [`Emitter::vecs_to_mask`]
    /// see which lanes it takes off while compiling (Cranelift does not
    /// fold vector compares).
    fn guard_zero(&mut self, g: Guard) -> [Value; 8] {
        let zero = self.b.ins().iconst(I32, 0);
        let z = self.b.ins().splat(I32X4, zero);
        std::array::from_fn(|k| {
            let p = self.load(I32X4, self.reg_off(g.reg, 4 * k));
            match self.const_words(p) {
                Some(w) => self.vconst_i32x4(w.map(|x| if x == 0 { u32::MAX } else { 0 })),
                None => self.b.ins().icmp(IntCC::Equal, p, z),
            }
        })
    }

    /// The four 32-bit words of `v` when it is a 16-byte vector constant
    /// (`vconst`).
    fn const_words(&self, v: Value) -> Option<[u32; 4]> {
        let dfg = &self.b.func.dfg;
        let inst = dfg.value_def(v).inst()?;
        let InstructionData::UnaryConst {
            opcode: Opcode::Vconst,
            constant_handle,
        } = dfg.insts[inst]
        else {
            return None;
        };
        let bytes = dfg.constants.get(constant_handle).as_slice();
        let bytes: &[u8; 16] = bytes.try_into().ok()?;
        Some(std::array::from_fn(|i| {
            u32::from_le_bytes(std::array::from_fn(|j| bytes[4 * i + j]))
        }))
    }

    /// The executing lanes as an i32 mask.
    pub fn exec(&mut self, l: &mut Lanes) -> Value {
        if let Some(x) = l.exec {
            return x;
        }
        let x = match l.guard {
            None => l.conv,
            Some(g) if self.pred_mask.is_some() => {
                let h = self.pred_mask.expect("checked");
                let off = self.reg_off(g.reg, 0);
                let off = self.b.ins().iconst(I64, off as i64);
                let state = self.state;
                let on = self.call_fn(h, &[state, off], Some(I32)).expect("a mask");
                let on = if g.negated { self.b.ins().bnot(on) } else { on };
                self.b.ins().band(on, l.conv)
            }
            Some(g) => {
                let zero = self.guard_zero(g);
                let m = self.vecs_to_mask(&zero);
                if g.negated {
                    self.b.ins().band(m, l.conv)
                } else {
                    self.b.ins().band_not(l.conv, m)
                }
            }
        };
        l.exec = Some(x);
        x
    }

    /// The executing lanes as vectors, or `None` when every lane
    /// executes. Built once per instruction: call it before a loop whose
    /// blocks write the lanes after it ([`Emitter::blend_store`]), so that
    /// the vectors are built where they dominate those writes.
    pub fn vecs(&mut self, l: &mut Lanes) -> Option<LaneVecs> {
        if let Some(v) = l.vecs {
            return Some(v);
        }
        let v = match (l.guard, self.full) {
            (None, true) => return None,
            (Some(g), true) => LaneVecs {
                vecs: self.guard_zero(g),
                off: !g.negated,
            },
            (guard, false) => {
                let cv = match self.conv_vecs {
                    Some(v) => v,
                    None => {
                        let v = self.mask_vecs(l.conv);
                        self.conv_vecs = Some(v);
                        v
                    }
                };
                let vecs = match guard {
                    None => cv,
                    Some(g) => {
                        let zero = self.guard_zero(g);
                        std::array::from_fn(|k| {
                            if g.negated {
                                self.b.ins().band(zero[k], cv[k])
                            } else {
                                self.b.ins().band_not(cv[k], zero[k])
                            }
                        })
                    }
                };
                LaneVecs { vecs, off: false }
            }
        };
        l.vecs = Some(v);
        Some(v)
    }

    /// Lanes `4k..4k+3` of `new` where they execute and of `old` where
    /// they do not (i32x4).
    ///
    /// A constant selector takes one side whole (the other's computation
    /// is then dead, and Cranelift drops it).
    fn blend(&mut self, l: &mut Lanes, k: usize, new: Value, old: Value) -> Value {
        let Some(LaneVecs { vecs, off }) = self.vecs(l) else {
            return new;
        };
        let (on, other) = if off { (old, new) } else { (new, old) };
        match self.const_words(vecs[k]) {
            Some([u32::MAX, u32::MAX, u32::MAX, u32::MAX]) => on,
            Some([0, 0, 0, 0]) => other,
            _ => self.b.ins().bitselect(vecs[k], on, other),
        }
    }

    /// Whether no lane of lanes `4k..4k+3` executes, known while
    /// compiling (a guard on a constant predicate: [`Emitter::guard_zero`]):
    /// a write there keeps every old value.
    pub fn runs_none(&mut self, l: &mut Lanes, k: usize) -> bool {
        let Some(LaneVecs { vecs, off }) = self.vecs(l) else {
            return false;
        };
        let none = if off { u32::MAX } else { 0 };
        self.const_words(vecs[k]) == Some([none; 4])
    }

    /// The 32-bit mask of eight i32x4 all-ones/zero vectors.
    ///
    /// Eight vectors are packed to bytes first (saturating narrows keep -1
    /// and 0: `packssdw` twice, `packsswb`) and read 16 lanes at a time
    /// (`pmovmskb`): 10 operations where a sign mask per vector, shifted
    /// and ORed in, takes 22.
    ///
    /// Constant vectors (all-ones/zero words) give a constant.
    pub fn vecs_to_mask(&mut self, vecs: &[Value]) -> Value {
        let words: Option<Vec<[u32; 4]>> = vecs.iter().map(|&v| self.const_words(v)).collect();
        if let Some(words) = words {
            let m = words
                .iter()
                .flatten()
                .enumerate()
                .fold(0u32, |m, (l, w)| m | (w >> 31) << l);
            return self.b.ins().iconst(I32, m as i64);
        }
        if let [v0, v1, v2, v3, v4, v5, v6, v7] = *vecs {
            let mut half = |a: [Value; 4]| {
                let lo = self.b.ins().snarrow(a[0], a[1]);
                let hi = self.b.ins().snarrow(a[2], a[3]);
                let bytes = self.b.ins().snarrow(lo, hi);
                self.b.ins().vhigh_bits(I32, bytes)
            };
            let low = half([v0, v1, v2, v3]);
            let high = half([v4, v5, v6, v7]);
            let high = self.b.ins().ishl_imm_s(high, 16);
            return self.b.ins().bor(low, high);
        }
        let mut m = self.b.ins().iconst(I32, 0);
        for (k, &v) in vecs.iter().enumerate() {
            let hb = self.b.ins().vhigh_bits(I32, v);
            let hb = if k > 0 {
                self.b.ins().ishl_imm_s(hb, 4 * k as i64)
            } else {
                hb
            };
            m = self.b.ins().bor(m, hb);
        }
        m
    }

    /// The lanes whose 32-bit value (lanes 4k..4k+3 in `vecs[k]`) is `m`,
    /// as an i32 mask.
    pub fn lanes_equal(&mut self, vecs: [Value; 8], m: Value) -> Value {
        let mv = self.b.ins().splat(I32X4, m);
        let eq = vecs.map(|v| self.b.ins().icmp(IntCC::Equal, v, mv));
        self.vecs_to_mask(&eq)
    }

    /// Eight i32x4 all-ones/zero vectors from a 32-bit lane mask.
    pub fn mask_vecs(&mut self, mask: Value) -> [Value; 8] {
        let bits = self.vconst_i32x4([1, 2, 4, 8]);
        std::array::from_fn(|k| {
            let m = if k > 0 {
                self.b.ins().ushr_imm_s(mask, 4 * k as i64)
            } else {
                mask
            };
            let s = self.b.ins().splat(I32X4, m);
            let s = self.b.ins().band(s, bits);
            self.b.ins().icmp(IntCC::Equal, s, bits)
        })
    }

    /// The lanes whose 32-bit value (lanes 4k..4k+3 in `vecs[k]`) is not
    /// zero, as an i32 mask: the complement of the lanes equal to zero
    /// (x86 compares for equality in one operation, for inequality in
    /// three).
    pub fn nonzero_mask(&mut self, vecs: [Value; 8]) -> Value {
        let zero = self.b.ins().iconst(I32, 0);
        let z = self.b.ins().splat(I32X4, zero);
        let eq = vecs.map(|v| self.b.ins().icmp(IntCC::Equal, v, z));
        let m = self.vecs_to_mask(&eq);
        self.b.ins().bnot(m)
    }

    /// An i32x4 constant.
    pub fn vconst_i32x4(&mut self, lanes: [u32; 4]) -> Value {
        let mut bytes = Vec::with_capacity(16);
        for l in lanes {
            bytes.extend_from_slice(&l.to_le_bytes());
        }
        let c = self.b.func.dfg.constants.insert(bytes.into());
        self.b.ins().vconst(I32X4, c)
    }

    /// An i64x2 constant.
    pub fn vconst_i64x2(&mut self, lanes: [u64; 2]) -> Value {
        let mut bytes = Vec::with_capacity(16);
        for l in lanes {
            bytes.extend_from_slice(&l.to_le_bytes());
        }
        let c = self.b.func.dfg.constants.insert(bytes.into());
        self.b.ins().vconst(I64X2, c)
    }

    /// A 16-byte vector constant (i8x16).
    pub fn vconst_bytes(&mut self, bytes: [u8; 16]) -> Value {
        let c = self.b.func.dfg.constants.insert(bytes.to_vec().into());
        self.b.ins().vconst(I8X16, c)
    }

    /// The 16 bytes of vector `v`, in memory order (lane 0's low byte
    /// first), as an i8x16.
    pub fn as_bytes(&mut self, v: Value) -> Value {
        let le = MemFlagsData::new().with_endianness(Endianness::Little);
        self.b.ins().bitcast(I8X16, le, v)
    }

    /// The four 32-bit words of vector `v`, in memory order, as an i32x4.
    pub fn as_words(&mut self, v: Value) -> Value {
        let le = MemFlagsData::new().with_endianness(Endianness::Little);
        self.b.ins().bitcast(I32X4, le, v)
    }

    /// `x.shuffle(y)` with a constant byte pattern (0..16 picks from `x`,
    /// 16..32 from `y`), both i8x16.
    pub fn shuffle_bytes(&mut self, x: Value, y: Value, mask: [u8; 16]) -> Value {
        let imm = self.b.func.dfg.immediates.push(mask.to_vec().into());
        self.b.ins().shuffle(x, y, imm)
    }

    // ---- operands ----

    /// Operand `o` on lane `lane` as a scalar of `width` bits (32 or 64;
    /// `.pred` is read as an i32 0/1).
    pub fn read(&mut self, o: Operand, lane: usize, width: u32) -> Value {
        let ty = if width == 64 { I64 } else { I32 };
        match o {
            Operand::Reg(r) => {
                let off = self.reg_off(r, lane);
                self.load(ty, off)
            }
            Operand::NotPred(r) => {
                let off = self.reg_off(r, lane);
                let v = self.load(I32, off);
                self.b.ins().bxor_imm_s(v, 1)
            }
            Operand::Imm(v) => self.b.ins().iconst(ty, v as i64),
            Operand::LaneId => self.b.ins().iconst(ty, lane as i64),
        }
    }

    /// Operand `o` on lanes `4k..4k+3` as an i32x4 (32-bit operands only).
    pub fn read_vec(&mut self, o: Operand, k: usize) -> Value {
        match o {
            Operand::Reg(r) => {
                let off = self.reg_off(r, 4 * k);
                self.load(I32X4, off)
            }
            Operand::NotPred(r) => {
                let off = self.reg_off(r, 4 * k);
                let v = self.load(I32X4, off);
                let one = self.vconst_i32x4([1; 4]);
                self.b.ins().bxor(v, one)
            }
            Operand::Imm(v) => {
                let s = self.b.ins().iconst(I32, v as u32 as i64);
                self.b.ins().splat(I32X4, s)
            }
            Operand::LaneId => {
                let k = 4 * k as u32;
                self.vconst_i32x4([k, k + 1, k + 2, k + 3])
            }
        }
    }

    /// Operand `o` on lanes `2j, 2j+1` as an i64x2 (a 64-bit register or an
    /// immediate; `%laneid` as the lane numbers).
    pub fn read_vec64(&mut self, o: Operand, j: usize) -> Value {
        match o {
            Operand::Reg(r) | Operand::NotPred(r) => {
                debug_assert!(wide(self.reg_type(r)), "a 64-bit register");
                let off = self.reg_off(r, 2 * j);
                self.load(I64X2, off)
            }
            Operand::Imm(v) => {
                let s = self.b.ins().iconst(I64, v as i64);
                self.b.ins().splat(I64X2, s)
            }
            Operand::LaneId => self.vconst_i64x2([2 * j as u64, 2 * j as u64 + 1]),
        }
    }

    /// Writes i64x2 vector `v` to lanes `2j, 2j+1` of 64-bit `d` where the
    /// lanes are executing.
    pub fn write_vec64(&mut self, d: Dest, j: usize, l: &mut Lanes, v: Value) {
        let Dest::Reg(r) = d else { return };
        if self.is_scalar(r.index()) {
            // Every lane's value is lane 0's.
            if j == 0 {
                let w = self.b.ins().extractlane(v, 0);
                self.write_scalar(r, w);
            }
            return;
        }
        let off = self.reg_off(r, 2 * j);
        let v = match self.vecs(l) {
            None => v,
            Some(LaneVecs {
                vecs,
                off: inverted,
            }) => {
                let old = self.load(I64X2, off);
                let (on, other) = if inverted { (old, v) } else { (v, old) };
                let m = vecs[j / 2];
                match self.const_words(m) {
                    Some([u32::MAX, u32::MAX, u32::MAX, u32::MAX]) => on,
                    Some([0, 0, 0, 0]) => other,
                    _ => {
                        // The i32x4 lane mask's half, each word widened
                        // to 64 bits (all ones or zero stays so).
                        let m = if j.is_multiple_of(2) {
                            self.b.ins().swiden_low(m)
                        } else {
                            self.b.ins().swiden_high(m)
                        };
                        self.b.ins().bitselect(m, on, other)
                    }
                }
            }
        };
        self.store(v, off);
    }

    /// Emits a loop over the 32 lanes; `body` emits one iteration for the
    /// lane it is given (an i32 in 0..32), with `At` addressing that lane.
    pub fn lane_loop(&mut self, body: impl FnOnce(&mut Self, At)) {
        self.counted_loop(I32, 1, WARP as i64, |e, lane| {
            let at = e.at(lane);
            body(e, at)
        });
    }

    /// Emits a loop over the eight groups of four lanes; `body` emits one
    /// iteration for the group it is given: its byte offset in a 32-lane
    /// array of words (an i64, 16 k) and its lanes (an i32x4, 4k..4k+3).
    pub fn group_loop(&mut self, body: impl FnOnce(&mut Self, Value, Value)) {
        self.counted_loop(I64, 16, 4 * WARP as i64, |e, off| {
            let first = e.b.ins().ushr_imm_s(off, 2);
            let first = e.b.ins().ireduce(I32, first);
            let first = e.b.ins().splat(I32X4, first);
            let steps = e.vconst_i32x4([0, 1, 2, 3]);
            let lanes = e.b.ins().iadd(first, steps);
            body(e, off, lanes)
        });
    }

    /// A loop of a counter of type `ty` from 0 while below `end`, by
    /// `step`; `body` emits one iteration for the counter's value.
    fn counted_loop(
        &mut self,
        ty: cranelift_codegen::ir::Type,
        step: i64,
        end: i64,
        body: impl FnOnce(&mut Self, Value),
    ) {
        let head = self.b.create_block();
        let iter = self.b.create_block();
        let done = self.b.create_block();
        self.b.append_block_param(head, ty);
        let zero = self.b.ins().iconst(ty, 0);
        self.b.ins().jump(head, &[zero.into()]);
        self.switch_to(head);
        let i = self.b.block_params(head)[0];
        let more = self.b.ins().icmp_imm_s(IntCC::UnsignedLessThan, i, end);
        self.b.ins().brif(more, iter, &[], done, &[]);
        self.switch_to(iter);
        body(self, i);
        let next = self.b.ins().iadd_imm_s(i, step);
        self.b.ins().jump(head, &[next.into()]);
        self.switch_to(done);
    }

    /// The run-time lane `lane` (an i32 in 0..32) with its addresses.
    fn at(&mut self, lane: Value) -> At {
        let l64 = self.b.ins().uextend(I64, lane);
        let off4 = self.b.ins().ishl_imm_s(l64, 2);
        let p4 = self.b.ins().iadd(self.state, off4);
        let off8 = self.b.ins().ishl_imm_s(l64, 3);
        let p8 = self.b.ins().iadd(self.state, off8);
        At { lane, p4, p8 }
    }

    /// Emits a loop over the lanes set in `lanes` (an i32 mask), lowest
    /// first; `body` emits one iteration as for [`Emitter::lane_loop`]. For
    /// per-lane work on the executing lanes only: a rendezvous completed
    /// for a group of 5 lanes runs 5 iterations, not 32.
    pub fn lane_loop_over(&mut self, lanes: Value, body: impl FnOnce(&mut Self, At)) {
        self.lowest_lane_loop(lanes, |e, left, lane| {
            let at = e.at(lane);
            body(e, at);
            let below = e.b.ins().iadd_imm_s(left, -1);
            e.b.ins().band(left, below)
        });
    }

    /// Emits a loop over the lanes set in `lanes` (an i32 mask) by
    /// classes: each turn `body` gets the lanes left and the lowest of
    /// them (an i32 lane index), handles that lane's class (the lanes
    /// with its membermask, its value...) and returns the lanes it
    /// answered, which must include that lowest lane (so every turn takes
    /// one lane at least off and the loop ends); the next turn takes the
    /// rest. `body` may branch away (and leave the emitter in the block
    /// where the loop goes on). One turn per class, not per lane.
    pub fn lane_classes(
        &mut self,
        lanes: Value,
        body: impl FnOnce(&mut Self, Value, Value) -> Value,
    ) {
        self.lowest_lane_loop(lanes, |e, left, lane| {
            let answered = body(e, left, lane);
            e.b.ins().band_not(left, answered)
        });
    }

    /// The loop of [`Emitter::lane_loop_over`] and
    /// [`Emitter::lane_classes`]: while lanes are left, `turn` gets them
    /// and the lowest one and returns the lanes left after it (fewer: the
    /// callers take the lowest one off at least).
    fn lowest_lane_loop(
        &mut self,
        lanes: Value,
        turn: impl FnOnce(&mut Self, Value, Value) -> Value,
    ) {
        let head = self.b.create_block();
        let iter = self.b.create_block();
        let done = self.b.create_block();
        self.b.append_block_param(head, I32);
        self.b.ins().jump(head, &[lanes.into()]);
        self.switch_to(head);
        let left = self.b.block_params(head)[0];
        self.b.ins().brif(left, iter, &[], done, &[]);
        self.switch_to(iter);
        let lane = self.b.ins().ctz(left);
        let next = turn(self, left, lane);
        self.b.ins().jump(head, &[next.into()]);
        self.switch_to(done);
    }

    /// Operand `o` on the run-time lane `at` as a scalar of `width` bits.
    pub fn read_at(&mut self, o: Operand, at: At, width: u32) -> Value {
        self.flush();
        let ty = if width == 64 { I64 } else { I32 };
        match o {
            Operand::Reg(r) => {
                let (p, base) = self.reg_at(r, at);
                self.b.ins().load(ty, mf(), p, base)
            }
            Operand::NotPred(r) => {
                let (p, base) = self.reg_at(r, at);
                let v = self.b.ins().load(I32, mf(), p, base);
                self.b.ins().bxor_imm_s(v, 1)
            }
            Operand::Imm(v) => self.b.ins().iconst(ty, v as i64),
            Operand::LaneId if width == 64 => self.b.ins().uextend(I64, at.lane),
            Operand::LaneId => at.lane,
        }
    }

    /// The lane pointer and base offset of register `r` at lane `at`.
    fn reg_at(&self, r: Reg, at: At) -> (Value, i32) {
        let p = if wide(self.prog.decl(r).ty) {
            at.p8
        } else {
            at.p4
        };
        (p, self.lay.regs[r.index()] as i32)
    }

    /// Writes scalar `v` to `d` at lane `at` where bit `lane` of `exec`
    /// is set.
    pub fn write_at(&mut self, d: Dest, at: At, exec: Value, v: Value) {
        let Dest::Reg(r) = d else { return };
        self.flush();
        let (p, base) = self.reg_at(r, at);
        if self.is_all(exec) {
            self.store_at(v, p, base);
            return;
        }
        let ty = self.b.func.dfg.value_type(v);
        let old = self.b.ins().load(ty, mf(), p, base);
        let bit = self.b.ins().ushr(exec, at.lane);
        let bit = self.b.ins().band_imm_s(bit, 1);
        let v = self.b.ins().select(bit, v, old);
        self.store_at(v, p, base);
    }

    /// Writes scalar `v` to `d` at lane `at`, which executes (a loop over
    /// the executing lanes, [`Emitter::lane_loop_over`]).
    pub fn write_lane(&mut self, d: Dest, at: At, v: Value) {
        let Dest::Reg(r) = d else { return };
        let (p, base) = self.reg_at(r, at);
        self.store_at(v, p, base);
    }

    /// Writes scalar `v` (an i64, or an i32 for a 32-bit register) to every
    /// executing lane of `d`.
    pub fn write_all(&mut self, d: Dest, l: &mut Lanes, v: Value) {
        let Dest::Reg(r) = d else { return };
        if self.is_scalar(r.index()) {
            self.write_scalar(r, v);
            return;
        }
        if wide(self.reg_type(r)) {
            let s = self.b.ins().splat(I64X2, v);
            for j in 0..WARP / 2 {
                self.write_vec64(d, j, l, s);
            }
        } else {
            let v = if self.b.func.dfg.value_type(v) == I64 {
                self.b.ins().ireduce(I32, v)
            } else {
                v
            };
            let s = self.b.ins().splat(I32X4, v);
            for k in 0..WARP / 4 {
                self.write_vec(d, k, l, s);
            }
        }
    }

    /// Writes i32x4 vector `v` to lanes `4k..4k+3` of 32-bit `d` where the
    /// lanes are executing.
    pub fn write_vec(&mut self, d: Dest, k: usize, l: &mut Lanes, v: Value) {
        let Dest::Reg(r) = d else { return };
        if self.is_scalar(r.index()) {
            // Every lane's value is lane 0's.
            if k == 0 {
                let v = if self.b.func.dfg.value_type(v) == I32X4 {
                    v
                } else {
                    self.as_words(v)
                };
                let w = self.b.ins().extractlane(v, 0);
                self.write_scalar(r, w);
            }
            return;
        }
        let off = self.reg_off(r, 4 * k);
        self.blend_store(l, k, v, off);
    }

    /// Stores i32x4 vector `v` at state offset `off` (lanes `4k..4k+3` of
    /// a 32-bit array) where the lanes are executing.
    pub fn blend_store(&mut self, l: &mut Lanes, k: usize, v: Value, off: i32) {
        let v = match self.vecs(l) {
            Some(_) => {
                let old = self.load(I32X4, off);
                self.blend(l, k, v, old)
            }
            None => v,
        };
        self.store(v, off);
    }

    /// Copies 32 × u32 from scratch array `i` into 32-bit `d` on the
    /// executing lanes.
    pub fn write_from_scratch(&mut self, d: Dest, i: u32, l: &mut Lanes) {
        for k in 0..WARP / 4 {
            let v = self.load(I32X4, (self.lay.scratch(i) + 16 * k as u32) as i32);
            self.write_vec(d, k, l, v);
        }
    }

    /// The base offset of 32 lanes of operand `o` (`width` bits each):
    /// a register's own storage, or scratch array `scratch` filled with the
    /// immediate or `%laneid` values.
    pub fn lanes_base(&mut self, o: Operand, width: u32, scratch: u32) -> u32 {
        match o {
            Operand::Reg(r) => {
                // Read from memory by the caller's code.
                self.flush();
                self.lay.regs[r.index()]
            }
            Operand::NotPred(_) | Operand::Imm(_) | Operand::LaneId => {
                let base = self.lay.scratch(scratch);
                let size = width / 8;
                for lane in 0..WARP {
                    let v = self.read(o, lane, width);
                    self.store(v, (base + lane as u32 * size) as i32);
                }
                base
            }
        }
    }

    /// Calls the host function at `f` (an `extern "C" fn` of as many u64
    /// arguments as `args`, returning a u64) and returns its i64 result (the
    /// kernels' run-time calls, `runtime.rs`). The address is a constant:
    /// the code needs no relocation.
    pub fn call_host(&mut self, f: usize, args: &[Value]) -> Value {
        self.flush();
        let params = vec![I64; args.len()];
        let sr = self.signature(&params, Some(I64));
        let addr = self.b.ins().iconst(I64, f as i64);
        let call = self.b.ins().call_indirect(sr, addr, args);
        // The callee may write the state.
        self.known.clear();
        self.b.inst_results(call)[0]
    }

    /// Calls the compiled function at `f` (a helper of `sched_helpers.rs` or
    /// `outline.rs`: the system-v calling convention, the parameters'
    /// types those of `args`) and returns its result, if it has one.
    pub fn call_fn(
        &mut self,
        f: usize,
        args: &[Value],
        ret: Option<cranelift_codegen::ir::Type>,
    ) -> Option<Value> {
        let params: Vec<cranelift_codegen::ir::Type> = args
            .iter()
            .map(|&a| self.b.func.dfg.value_type(a))
            .collect();
        let sr = self.signature(&params, ret);
        self.flush();
        let addr = self.b.ins().iconst(I64, f as i64);
        let call = self.b.ins().call_indirect(sr, addr, args);
        // The callee may write the state.
        self.known.clear();
        self.b.inst_results(call).first().copied()
    }

    /// The signature of `params` and result `ret` in the function's
    /// calling convention, imported once per function.
    pub fn signature(
        &mut self,
        params: &[cranelift_codegen::ir::Type],
        ret: Option<cranelift_codegen::ir::Type>,
    ) -> SigRef {
        let mut sig = Signature::new(self.b.func.signature.call_conv);
        sig.params.extend(params.iter().map(|&t| AbiParam::new(t)));
        sig.returns.extend(ret.map(AbiParam::new));
        if let Some(&(_, sr)) = self.sigs.iter().find(|(s, _)| *s == sig) {
            return sr;
        }
        let sr = self.b.import_signature(sig.clone());
        self.sigs.push((sig, sr));
        sr
    }

    /// The type a program register was declared with.
    pub fn reg_type(&self, r: Reg) -> Type {
        self.prog.decl(r).ty
    }
}

#[cfg(test)]
mod tests {
    use super::Liveness;
    use super::*;
    use cranelift_codegen::ir::types::{I32, I32X4, I64};
    use cranelift_codegen::ir::{Function, Opcode};
    use cranelift_frontend::FunctionBuilderContext;

    /// How many `load` instructions the function has.
    fn loads(f: &Function) -> usize {
        f.layout
            .blocks()
            .flat_map(|b| f.layout.block_insts(b))
            .filter(|&i| f.dfg.insts[i].opcode() == Opcode::Load)
            .count()
    }

    /// How many `store` instructions the function has.
    fn stores(f: &Function) -> usize {
        f.layout
            .blocks()
            .flat_map(|b| f.layout.block_insts(b))
            .filter(|&i| f.dfg.insts[i].opcode() == Opcode::Store)
            .count()
    }

    /// A kernel's register writes: a register that dies before the end of
    /// the run of vector instructions waits in its SSA value and is stored
    /// only where something reads it in memory; one live there is stored
    /// at once; a flush skips a register no lane reads again.
    #[test]
    fn dying_registers_wait_and_dead_ones_are_never_stored() {
        let src = ".version 7.0\n.target sm_80\n.address_size 64\n\
            .visible .entry k() {\n\
            .reg .b32 %r<4>;\n\
            mov.u32 %r1, %tid.x;\n\
            add.s32 %r2, %r1, 1;\n\
            mov.u32 %r3, %r1;\n\
            L:\n\
            add.s32 %r2, %r2, 1;\n\
            exit;\n}\n";
        let module = warp_core::text::parse_module(src).expect("the kernel parses");
        let prog = &module.kernel("k").expect("the kernel").program;
        let lay = Layout::new(prog);
        let mut f = Function::new();
        let mut fctx = FunctionBuilderContext::new();
        let mut b = FunctionBuilder::new(&mut f, &mut fctx);
        let entry = b.create_block();
        b.append_block_param(entry, I64);
        b.switch_to_block(entry);
        let state = b.block_params(entry)[0];
        let conv = b.declare_var(I32);
        let mut e = Emitter::new(&mut b, prog, &lay, state, conv);
        e.live = Some(Liveness::of_kernel(prog, &vec![true; prog.insts.len()]));
        let off = |name: &str| lay.regs[prog.reg(name).expect("declared").index()] as i32;
        let (r1, r2, r3) = (off("%r1"), off("%r2"), off("%r3"));
        let zero = e.b.ins().iconst(I32, 0);
        let v = e.b.ins().splat(I32X4, zero);
        // Outside an instruction (the driver's code): stored at once.
        e.store(v, r3);
        assert_eq!(stores(e.b.func), 1);
        // %r1 dies at the label: it waits, and is read from its value.
        e.set_pc(Some(0));
        e.store(v, r1);
        assert_eq!(stores(e.b.func), 1, "%r1 waits");
        assert_eq!(e.load(I32X4, r1), v, "read from its SSA value");
        // %r2 is live at the label: stored at once.
        e.set_pc(Some(1));
        e.store(v, r2);
        assert_eq!(stores(e.b.func), 2, "%r2 is stored");
        // A flush while the add (which names %r1) is lowered stores %r1.
        e.flush();
        assert_eq!(stores(e.b.func), 3, "%r1 is read by the add");
        // Written again by the mov, which reads it last: a block switch
        // after the mov has read its operands skips it.
        e.set_pc(Some(2));
        e.store(v, r1);
        e.reads_done();
        let next = e.b.create_block();
        e.b.ins().jump(next, &[]);
        e.switch_to(next);
        assert_eq!(stores(e.b.func), 3, "no lane reads %r1 again");
        let n = loads(e.b.func);
        e.load(I32X4, r1);
        assert_eq!(loads(e.b.func), n + 1, "forgotten at the switch");
        // Before the switch had it been read (reads not done): stored
        // before the jump.
        e.set_pc(Some(2));
        e.store(v, r1);
        let last = e.b.create_block();
        e.b.ins().jump(last, &[]);
        e.switch_to(last);
        assert_eq!(stores(e.b.func), 4, "the mov names %r1");
    }

    /// The known-vectors cache: a vector loaded or stored at a fixed
    /// offset is used again until a write that may touch it, a call or a
    /// block switch (but into a block kept through).
    #[test]
    fn known_vectors_are_forgotten_where_the_state_may_change() {
        let prog = Program::default();
        let lay = Layout::new(&prog);
        let mut f = Function::new();
        let mut fctx = FunctionBuilderContext::new();
        let mut b = FunctionBuilder::new(&mut f, &mut fctx);
        let entry = b.create_block();
        b.append_block_param(entry, I64);
        b.switch_to_block(entry);
        let state = b.block_params(entry)[0];
        let conv = b.declare_var(I32);
        let mut e = Emitter::new(&mut b, &prog, &lay, state, conv);
        let v = e.load(I32X4, 64);
        assert_eq!(e.load(I32X4, 64), v, "loaded: known");
        let w = e.b.ins().iadd(v, v);
        e.store(w, 64);
        assert_eq!(e.load(I32X4, 64), w, "stored: known");
        // A scalar store inside the vector, or a vector store overlapping it.
        let x = e.b.ins().iconst(I32, 7);
        e.store(x, 72);
        assert_ne!(e.load(I32X4, 64), w, "overlapped by a scalar store");
        let y = e.load(I32X4, 80);
        e.store(w, 72);
        assert_ne!(e.load(I32X4, 80), y, "overlapped by a vector store");
        // Not overlapping: still known.
        let z = e.load(I32X4, 128);
        e.store(x, 124);
        e.store(x, 144);
        assert_eq!(e.load(I32X4, 128), z);
        // A store through a computed address, a call.
        e.store_at(x, state, 0);
        assert_ne!(e.load(I32X4, 128), z, "a computed address may be anywhere");
        let z = e.load(I32X4, 128);
        e.call_fn(0x1000, &[state], None);
        assert_ne!(e.load(I32X4, 128), z, "a call may write the state");
        // Block switches: forgotten, unless kept through.
        let z = e.load(I32X4, 128);
        let next = e.b.create_block();
        e.b.ins().jump(next, &[]);
        e.keep_through(next);
        e.switch_to(next);
        assert_eq!(e.load(I32X4, 128), z, "kept through");
        let other = e.b.create_block();
        e.b.ins().jump(other, &[]);
        e.switch_to(other);
        let n = loads(e.b.func);
        let again = e.load(I32X4, 128);
        assert_ne!(again, z, "forgotten at a block switch");
        assert_eq!(loads(e.b.func), n + 1);
    }
}
