//! Helpers shared by every compiled program: small functions of the
//! driver's run-time work (a guard's lane mask, recording a `.sync`
//! collective's `membermask`, finding a rendezvous that can complete),
//! compiled once per process and called from the generated code, so that
//! each program need not carry its own copy (issue #14: the inline copies
//! were three quarters of the Cranelift instructions of a generated
//! program).
//!
//! They work on the fixed part of the state (`layout.rs`: the scratch
//! arrays, the `membermask` of every waiting lane), which lies at the same
//! offsets in every program, and on register offsets passed in.

use super::builder::{mf, Emitter};
use super::error::JitError;
use super::isa::{isa, machine_code, Tuning};
use super::layout::Layout;
use cranelift_codegen::ir::condcodes::IntCC;
use cranelift_codegen::ir::types::{I32, I32X4, I64, I64X2};
use cranelift_codegen::ir::{
    AbiParam, Function, InstBuilder, Signature, Type, UserFuncName, Value,
};
use cranelift_codegen::isa::CallConv;
use cranelift_codegen::Context;
use cranelift_frontend::{FunctionBuilder, FunctionBuilderContext};
use std::sync::OnceLock;
use warp_core::ir::{Operand, Program, Reg};

/// The addresses of the shared helpers.
#[derive(Clone, Copy, Debug)]
pub struct Helpers {
    /// `(state, offset) -> mask`: the lanes where the `.pred` register at
    /// `offset` is true.
    pub pred_mask: usize,
    /// `(state, value, to, mask)`: lanes `mask` of the 32-bit lanes at
    /// offset `to` become `value` (its low 32 bits).
    pub fill32: usize,
    /// `(state, value, to, mask)`: the same for 64-bit lanes.
    pub fill64: usize,
    /// `(state, from, to, mask)`: lanes `mask` of the 32-bit lanes at
    /// offset `to` become those at `from`.
    pub copy32: usize,
    /// `(state, from, to, mask)`: the same for 64-bit lanes.
    pub copy64: usize,
    /// `(state, from, to, mask)`: lanes `mask` of the `.pred` lanes at
    /// `to` become the negation of those at `from` (`!p`).
    pub not_pred: usize,
    /// `(state, _, to, mask)`: lanes `mask` of the 32-bit lanes at `to`
    /// become their lane index (`%laneid`).
    pub lane_id: usize,
    /// `(state, waiting, exited) -> participants`: the lowest waiting lane
    /// whose rendezvous can complete (every non-exited lane of its
    /// `membermask` waits, with the same `membermask`) gives its
    /// participants; 0 when none can.
    pub ready: usize,
    /// `(state, site, conv) -> status`: the running group
    /// `conv` reaches a `.sync` collective (`status`: 0 gone on, 1
    /// waiting, 2 out of fuel: the caller's usual case, going on, is one
    /// test).
    ///
    /// The fast path (`status` 0): when the executing lanes give one
    /// `membermask` whose non-exited lanes are exactly them, and no lane
    /// waits in the collective's group, the rendezvous completes at once:
    /// the collective runs for them, and the whole group goes on after it
    /// (participants and predicated-off lanes would all park there, the
    /// lowest park point with waiting lanes). Otherwise (`status` 1) the
    /// executing lanes arrive (record their `membermask`, join the
    /// collective's waiting lanes) and the others park after it.
    ///
    /// First, when `n` is not 0, it charges the segment's fuel: `n`
    /// instructions, or when less is left it records `start + fuel` as
    /// where the run stopped and returns 2 (and runs nothing). Then it
    /// calls `before(state, before_table, conv)` (when `before` is not 0:
    /// the straight-line run of instructions before the collective, one
    /// call less in the program).
    ///
    /// Before all that, when `merge` is not -1, the lanes waiting in the
    /// mask at offset `merge` (the segment's park point) join `conv` and
    /// leave the mask; the running group goes to the state's `conv` (the
    /// caller reads it from there).
    ///
    /// `site` is an array of i64: `[guard, negated, kind, membermask,
    /// arrived, park, run, table, group, before, before_table, n,
    /// start, merge]`: the guard's offset (-1: none)
    /// and whether it is negated, the membermask as an immediate (`kind`
    /// 0) or a register's offset (`kind` 1), the offsets in the masks of
    /// the collective's waiting lanes and of the lanes parked after it,
    /// the collective's helper and table (`run` 0: no fast path), and the
    /// offset in the masks of the lanes waiting anywhere in its group.
    pub arrive: usize,
    /// `(state, group)`: runs every rendezvous of one group of pairing
    /// collectives that can complete.
    ///
    /// `group` is an array of i64: `[n, run, table, waiting]`, where `run`
    /// is the collective's helper (called as `(state, table,
    /// participants)`) and `waiting` the offset in the masks of the lanes
    /// waiting anywhere in the group,
    /// then per collective `[arrived, park, copy_in, copy_out]`: the
    /// offsets in the masks of its waiting lanes and of the lanes parked
    /// after it, and the addresses of its copy lists (0 for none). A copy
    /// list is `[n, (f, from, to) × n]`: calls `f(state, from, to, lanes)`
    /// (one of the copies above) for the collective's participants.
    pub complete: usize,
    /// `(state, list)`: calls `complete(state, group)` for each `group`
    /// of the i64 array `list`, in order, up to
    /// the first 0: the completion of several groups in one call from the
    /// program.
    pub complete_list: usize,
    /// `(state, list, lanes)`: calls `f(state, table, lanes)` for each
    /// `(f, table)` pair of the i64 array `list`, in order, up to the
    /// first `f` that is 0: a straight-line run of instructions of the
    /// fast-compile tier in one call from the program (each call there
    /// costs Cranelift the spills of every value live across it).
    pub run_list: usize,
    /// `(state, at, n) -> i`: the index of the first nonzero 32-bit mask
    /// of the `n` at offset `at` of the state, or `n` when all are 0: the
    /// fast-compile tier's scheduler (the lowest park point with waiting
    /// lanes) in one call and one `br_table`, instead of a test and a
    /// block per park point in the program.
    pub first_waiting: usize,
    /// `(state, word) -> short`: charges a segment's fuel, `n` = the low
    /// 32 bits of `word` instructions from instruction `start` = its high
    /// 32 bits: when less is left, records `start + fuel` as where the run
    /// stopped and returns 1; else takes `n` off and returns 0 (the
    /// fast-compile tier's charge, one call instead of nine Cranelift
    /// instructions in the program).
    pub charge: usize,
}

/// The i64 words before the first collective of a group
/// ([`Helpers::complete`]).
pub const GROUP_HEAD: usize = 4;
/// The i64 words per collective of a group ([`Helpers::complete`]).
pub const GROUP_PC: usize = 4;

impl Helpers {
    /// The copy that gives a register's lanes the value of operand `o`
    /// (read as `width` bits), and its `from` argument: a register's
    /// offset (`off`), or the immediate.
    pub fn copy_from(&self, o: Operand, width: u32, off: impl Fn(Reg) -> i64) -> (usize, i64) {
        match o {
            Operand::Reg(s) if width == 64 => (self.copy64, off(s)),
            Operand::Reg(s) => (self.copy32, off(s)),
            Operand::Imm(v) if width == 64 => (self.fill64, v as i64),
            Operand::Imm(v) => (self.fill32, v as i64),
            Operand::NotPred(s) => (self.not_pred, off(s)),
            Operand::LaneId => (self.lane_id, 0),
        }
    }

    /// The helpers, compiled on the first call in the process.
    pub fn get() -> Result<Helpers, JitError> {
        static ONCE: OnceLock<Result<Helpers, JitError>> = OnceLock::new();
        ONCE.get_or_init(|| {
            let copy_sig = [I64, I64, I64, I32];
            let ready = compile(&[I64, I32, I32], Some(I32), ready)?;
            let pred_mask = compile(&[I64, I64], Some(I32), pred_mask)?;
            let fill32 = compile(&copy_sig, None, |e, p| fill(e, p, false))?;
            let copy32 = compile(&copy_sig, None, |e, p| copy(e, p, false))?;
            let complete = compile(&[I64, I64], None, |e, p| complete(e, p, ready))?;
            Ok(Helpers {
                pred_mask,
                fill32,
                fill64: compile(&copy_sig, None, |e, p| fill(e, p, true))?,
                copy32,
                copy64: compile(&copy_sig, None, |e, p| copy(e, p, true))?,
                not_pred: compile(&copy_sig, None, not_pred)?,
                lane_id: compile(&copy_sig, None, lane_id)?,
                ready,
                complete,
                complete_list: compile(&[I64, I64], None, |e, p| complete_calls(e, p, complete))?,
                arrive: compile(&[I64, I64, I32], Some(I32), |e, p| {
                    arrive(e, p, [pred_mask, fill32, copy32])
                })?,
                run_list: compile(&[I64, I64, I32], None, run_calls)?,
                first_waiting: compile(&[I64, I64, I32], Some(I32), first_waiting)?,
                charge: compile(&[I64, I64], Some(I32), charge)?,
            })
        })
        .clone()
    }
}

/// Compiles a helper of parameters `params` (the state pointer first) and
/// result `ret` with `tuning`, for the life of the process, and returns
/// its address.
pub fn compile_fn(
    tuning: Tuning,
    params: &[Type],
    ret: Option<Type>,
    body: impl FnOnce(&mut FunctionBuilder<'_>, &[Value]),
) -> Result<usize, JitError> {
    let isa = isa(tuning)?;
    let mut sig = Signature::new(CallConv::triple_default(isa.triple()));
    sig.params.extend(params.iter().map(|&t| AbiParam::new(t)));
    sig.returns.extend(ret.map(AbiParam::new));
    let mut func = Function::with_name_signature(UserFuncName::user(0, 1), sig);
    let mut fctx = FunctionBuilderContext::new();
    {
        let mut b = FunctionBuilder::new(&mut func, &mut fctx);
        let entry = b.create_block();
        b.append_block_params_for_function_params(entry);
        b.switch_to_block(entry);
        b.seal_block(entry);
        let ps = b.block_params(entry).to_vec();
        body(&mut b, &ps);
        b.seal_all_blocks();
        b.finalize(isa.frontend_config());
    }
    let mut ctx = Context::for_function(func);
    let code = machine_code(&mut ctx, isa, "helper")?;
    // Kept for the life of the process: the mapping is never unmapped (no
    // heap allocation holds it, see `outline::Shape`).
    let addr = code.addr();
    std::mem::forget(code);
    Ok(addr)
}

/// Compiles a shared helper whose body works through an [`Emitter`] on
/// the fixed part of the state.
///
/// The body gets an emitter on the state (the first parameter) and the
/// other parameters, and returns the helper's result.
fn compile(
    params: &[Type],
    ret: Option<Type>,
    body: impl FnOnce(&mut Emitter, &[Value]) -> Option<Value>,
) -> Result<usize, JitError> {
    let prog = Program::default();
    let lay = Layout::new(&prog);
    compile_fn(Tuning::FastCode, params, ret, |b, ps| {
        let conv = b.declare_var(I32);
        let zero = b.ins().iconst(I32, 0);
        b.def_var(conv, zero);
        let mut e = Emitter::new(b, &prog, &lay, ps[0], conv);
        let r = body(&mut e, &ps[1..]);
        match r {
            Some(v) => e.b.ins().return_(&[v]),
            None => e.b.ins().return_(&[]),
        };
    })
}

/// Loops over the records of `stride` bytes at `list`, up to the first
/// whose first i64 word is 0: `body(e, record, first word)` for each.
fn for_each_record(
    e: &mut Emitter,
    list: Value,
    stride: i64,
    body: impl FnOnce(&mut Emitter, Value, Value),
) {
    let head = e.b.create_block();
    let each = e.b.create_block();
    let done = e.b.create_block();
    e.b.append_block_param(head, I64);
    e.b.ins().jump(head, &[list.into()]);
    e.switch_to(head);
    let at = e.b.block_params(head)[0];
    let first = e.b.ins().load(I64, mf(), at, 0);
    e.b.ins().brif(first, each, &[], done, &[]);
    e.switch_to(each);
    body(e, at, first);
    let next = e.b.ins().iadd_imm_s(at, stride);
    e.b.ins().jump(head, &[next.into()]);
    e.switch_to(done);
}

/// [`Helpers::run_list`].
fn run_calls(e: &mut Emitter, p: &[Value]) -> Option<Value> {
    let (list, lanes) = (p[0], p[1]);
    for_each_record(e, list, 16, |e, at, f| {
        let table = e.b.ins().load(I64, mf(), at, 8);
        let sr = sig(e, &[I64, I64, I32]);
        let state = e.state;
        e.b.ins().call_indirect(sr, f, &[state, table, lanes]);
    });
    None
}

/// The body of [`Helpers::complete_list`]: `complete` (the address of
/// [`Helpers::complete`]) for each group of the list.
fn complete_calls(e: &mut Emitter, p: &[Value], complete: usize) -> Option<Value> {
    for_each_record(e, p[0], 8, |e, _, group| {
        let state = e.state;
        e.call_fn(complete, &[state, group], None);
    });
    None
}

/// The 32 lanes at `p` (i32x4 vector `k` at `p + 16k`).
fn lanes_at(e: &mut Emitter, p: Value) -> [Value; 8] {
    std::array::from_fn(|k| e.b.ins().load(I32X4, mf(), p, 16 * k as i32))
}

fn pred_mask(e: &mut Emitter, p: &[Value]) -> Option<Value> {
    let at = e.b.ins().iadd(e.state, p[0]);
    let vals = lanes_at(e, at);
    Some(e.nonzero_mask(vals))
}

/// Stores `vals` (i32x4 vector `k` for lanes `4k..4k+3`) at `to` on the
/// lanes of `mask`.
fn blend_store(e: &mut Emitter, vals: [Value; 8], to: Value, mask: Value) {
    let on = e.mask_vecs(mask);
    for (k, v) in vals.into_iter().enumerate() {
        let old = e.b.ins().load(I32X4, mf(), to, 16 * k as i32);
        let v = e.b.ins().bitselect(on[k], v, old);
        e.store_at(v, to, 16 * k as i32);
    }
}

fn fill(e: &mut Emitter, p: &[Value], wide: bool) -> Option<Value> {
    let to = e.b.ins().iadd(e.state, p[1]);
    if wide {
        let v = e.b.ins().splat(I64X2, p[0]);
        let v = e.b.ins().bitcast(I32X4, le(), v);
        for half in 0..2 {
            let at = e.b.ins().iadd_imm_s(to, 128 * half);
            let m = e.b.ins().ushr_imm_s(p[2], 16 * half);
            let m = spread64(e, m);
            blend_store(e, [v; 8], at, m);
        }
        return None;
    }
    let v = e.b.ins().ireduce(I32, p[0]);
    let vals = [e.b.ins().splat(I32X4, v); 8];
    blend_store(e, vals, to, p[2]);
    None
}

fn not_pred(e: &mut Emitter, p: &[Value]) -> Option<Value> {
    let from = e.b.ins().iadd(e.state, p[0]);
    let to = e.b.ins().iadd(e.state, p[1]);
    let one = e.vconst_i32x4([1; 4]);
    let vals = lanes_at(e, from).map(|v| e.b.ins().bxor(v, one));
    blend_store(e, vals, to, p[2]);
    None
}

fn lane_id(e: &mut Emitter, p: &[Value]) -> Option<Value> {
    let to = e.b.ins().iadd(e.state, p[1]);
    let vals = std::array::from_fn(|k| {
        let k = 4 * k as u32;
        e.vconst_i32x4([k, k + 1, k + 2, k + 3])
    });
    blend_store(e, vals, to, p[2]);
    None
}

/// Little-endian flags for the bitcasts between vector shapes.
fn le() -> cranelift_codegen::ir::MemFlagsData {
    cranelift_codegen::ir::MemFlagsData::new()
        .with_endianness(cranelift_codegen::ir::Endianness::Little)
}

/// The low 16 bits of `m`, a mask of 16 64-bit lanes, as the mask of
/// their 32 32-bit halves (lane `l`'s bit twice, at `2l` and `2l + 1`).
fn spread64(e: &mut Emitter, m: Value) -> Value {
    let mut out = e.b.ins().iconst(I32, 0);
    for l in 0..16 {
        let bit = e.b.ins().ushr_imm_s(m, l);
        let bit = e.b.ins().band_imm_s(bit, 1);
        let two = e.b.ins().imul_imm_s(bit, 3);
        let two = e.b.ins().ishl_imm_s(two, 2 * l);
        out = e.b.ins().bor(out, two);
    }
    out
}

fn copy(e: &mut Emitter, p: &[Value], wide: bool) -> Option<Value> {
    let from = e.b.ins().iadd(e.state, p[0]);
    let to = e.b.ins().iadd(e.state, p[1]);
    if !wide {
        let vals = lanes_at(e, from);
        blend_store(e, vals, to, p[2]);
        return None;
    }
    // 64-bit lanes: lanes 16h..16h+15 are the 32 words of half h.
    for half in 0..2 {
        let from = e.b.ins().iadd_imm_s(from, 128 * half);
        let to = e.b.ins().iadd_imm_s(to, 128 * half);
        let m = e.b.ins().ushr_imm_s(p[2], 16 * half);
        let m = spread64(e, m);
        let vals = lanes_at(e, from);
        blend_store(e, vals, to, m);
    }
    None
}

/// Charges `n` instructions of fuel from instruction `start` (i64s): when
/// less is left, records `start + fuel` as where the run stopped and
/// returns `short_status`; else takes `n` off, the emitter in the block
/// where the run goes on.
fn take_fuel(e: &mut Emitter, n: Value, start: Value, short_status: i64) {
    let fuel = e.load(I64, Layout::FUEL as i32);
    let is_short = e.b.ins().icmp(IntCC::UnsignedLessThan, fuel, n);
    let short = e.b.create_block();
    let charged = e.b.create_block();
    e.b.ins().brif(is_short, short, &[], charged, &[]);
    e.switch_to(short);
    let at = e.b.ins().iadd(fuel, start);
    let at = e.b.ins().ireduce(I32, at);
    e.store(at, Layout::FAIL_PC as i32);
    let code = e.b.ins().iconst(I32, short_status);
    e.b.ins().return_(&[code]);
    e.switch_to(charged);
    let left = e.b.ins().isub(fuel, n);
    e.store(left, Layout::FUEL as i32);
}

/// The body of [`Helpers::charge`].
fn charge(e: &mut Emitter, p: &[Value]) -> Option<Value> {
    let word = p[0];
    let n = e.b.ins().band_imm_s(word, 0xffff_ffff);
    let start = e.b.ins().ushr_imm_s(word, 32);
    take_fuel(e, n, start, 1);
    Some(e.b.ins().iconst(I32, 0))
}

/// The body of [`Helpers::first_waiting`].
fn first_waiting(e: &mut Emitter, p: &[Value]) -> Option<Value> {
    let (at, n) = (p[0], p[1]);
    let base = e.b.ins().iadd(e.state, at);
    let head = e.b.create_block();
    let test = e.b.create_block();
    let next = e.b.create_block();
    let found = e.b.create_block();
    e.b.append_block_param(head, I32);
    let zero = e.b.ins().iconst(I32, 0);
    e.b.ins().jump(head, &[zero.into()]);

    // Mask `i`, while `i < n`.
    e.switch_to(head);
    let i = e.b.block_params(head)[0];
    let more = e.b.ins().icmp(IntCC::UnsignedLessThan, i, n);
    e.b.ins().brif(more, test, &[], found, &[]);
    e.switch_to(test);
    let i64_ = e.b.ins().uextend(I64, i);
    let off = e.b.ins().ishl_imm_s(i64_, 2);
    let addr = e.b.ins().iadd(base, off);
    let w = e.b.ins().load(I32, mf(), addr, 0);
    e.b.ins().brif(w, found, &[], next, &[]);
    e.switch_to(next);
    let i1 = e.b.ins().iadd_imm_s(i, 1);
    e.b.ins().jump(head, &[i1.into()]);

    // `i` (`n` when none waits).
    e.switch_to(found);
    Some(i)
}

fn ready(e: &mut Emitter, p: &[Value]) -> Option<Value> {
    let (waiting, exited) = (p[0], p[1]);
    // The lowest candidate, with membermask `m`: ready when every
    // non-exited lane of `m` waits with the same `m`; if not, no lane with
    // this membermask is: try the others.
    e.lane_classes(waiting, |e, _, lane| {
        let wmask = Layout::WMASK;
        let addr = e.lane_addr(wmask, lane, 4);
        let m = e.b.ins().load(I32, mf(), addr, 0);
        let required = e.b.ins().band_not(m, exited);
        let vecs = std::array::from_fn(|k| e.load(I32X4, (wmask + 16 * k as u32) as i32));
        let same = e.lanes_equal(vecs, m);
        let same = e.b.ins().band(same, waiting);
        let missing = e.b.ins().band_not(required, same);
        let nobody = e.b.ins().icmp_imm_s(IntCC::Equal, required, 0);
        let some_missing = e.b.ins().icmp_imm_s(IntCC::NotEqual, missing, 0);
        let fail = e.b.ins().bor(nobody, some_missing);
        let (found, retry) = (e.b.create_block(), e.b.create_block());
        e.b.ins().brif(fail, retry, &[], found, &[]);
        e.switch_to(found);
        e.b.ins().return_(&[required]);
        e.switch_to(retry);
        same
    });
    Some(e.b.ins().iconst(I32, 0))
}

/// The body of [`Helpers::complete`].
fn complete(e: &mut Emitter, p: &[Value], ready: usize) -> Option<Value> {
    let group = p[0];
    let (masks, exited) = (e.state, e.load(I32, Layout::EXITED as i32));
    let state = e.state;
    let n = e.b.ins().load(I64, mf(), group, 0);
    let head = e.b.create_block();
    let run = e.b.create_block();
    let done = e.b.create_block();
    e.b.ins().jump(head, &[]);

    // The lanes waiting in the group; who can complete.
    e.switch_to(head);
    let zero = e.b.ins().iconst(I32, 0);
    let all = e.b.ins().load(I64, mf(), group, 24);
    let all = e.b.ins().iadd(masks, all);
    let waiting = e.b.ins().load(I32, mf(), all, 0);
    let required = e
        .call_fn(ready, &[state, waiting, exited], Some(I32))
        .expect("a mask");
    e.b.ins().brif(required, run, &[], done, &[]);

    // Run it for `required`: each collective's participants are its
    // waiting lanes among them.
    e.switch_to(run);
    let part = |e: &mut Emitter, at: Value| {
        let off = e.b.ins().load(I64, mf(), at, 0);
        let a = e.b.ins().iadd(masks, off);
        let a = e.b.ins().load(I32, mf(), a, 0);
        e.b.ins().band(a, required)
    };
    let copies = |e: &mut Emitter, which: i32| {
        fold_pcs(e, group, n, zero, |e, at, acc| {
            let lanes = part(e, at);
            let list = e.b.ins().load(I64, mf(), at, which);
            run_list(e, list, lanes);
            acc
        });
    };
    copies(e, 16);
    let f = e.b.ins().load(I64, mf(), group, 8);
    let table = e.b.ins().load(I64, mf(), group, 16);
    let sig = sig(e, &[I64, I64, I32]);
    e.b.ins().call_indirect(sig, f, &[state, table, required]);
    copies(e, 24);
    // The participants park after their own collectives.
    let w = e.b.ins().load(I32, mf(), all, 0);
    let w = e.b.ins().band_not(w, required);
    e.store_at(w, all, 0);
    fold_pcs(e, group, n, zero, |e, at, acc| {
        let lanes = part(e, at);
        let off = e.b.ins().load(I64, mf(), at, 0);
        let a = e.b.ins().iadd(masks, off);
        let w = e.b.ins().load(I32, mf(), a, 0);
        let w = e.b.ins().band_not(w, required);
        e.store_at(w, a, 0);
        let off = e.b.ins().load(I64, mf(), at, 8);
        let pk = e.b.ins().iadd(masks, off);
        let w = e.b.ins().load(I32, mf(), pk, 0);
        let w = e.b.ins().bor(w, lanes);
        e.store_at(w, pk, 0);
        acc
    });
    e.b.ins().jump(head, &[]);

    e.switch_to(done);
    None
}

/// A signature of `params` and no result, for an indirect call.
fn sig(e: &mut Emitter, params: &[Type]) -> cranelift_codegen::ir::SigRef {
    e.signature(params, None)
}

/// Folds `body` over the `n` collectives of `group` (with the address of
/// each one's words), from `init` (an i32).
fn fold_pcs(
    e: &mut Emitter,
    group: Value,
    n: Value,
    init: Value,
    body: impl FnOnce(&mut Emitter, Value, Value) -> Value,
) -> Value {
    let head = e.b.create_block();
    let iter = e.b.create_block();
    let after = e.b.create_block();
    e.b.append_block_param(head, I64);
    e.b.append_block_param(head, I32);
    e.b.append_block_param(after, I32);
    let zero = e.b.ins().iconst(I64, 0);
    e.b.ins().jump(head, &[zero.into(), init.into()]);
    e.switch_to(head);
    let (i, acc) = (e.b.block_params(head)[0], e.b.block_params(head)[1]);
    let more = e.b.ins().icmp(IntCC::UnsignedLessThan, i, n);
    e.b.ins().brif(more, iter, &[], after, &[acc.into()]);
    e.switch_to(iter);
    let at = e.b.ins().imul_imm_s(i, 8 * GROUP_PC as i64);
    let at = e.b.ins().iadd(group, at);
    let at = e.b.ins().iadd_imm_s(at, 8 * GROUP_HEAD as i64);
    let acc = body(e, at, acc);
    let next = e.b.ins().iadd_imm_s(i, 1);
    e.b.ins().jump(head, &[next.into(), acc.into()]);
    e.switch_to(after);
    e.b.block_params(after)[0]
}

/// Runs the copy list at `list` (0: none) for `lanes`.
fn run_list(e: &mut Emitter, list: Value, lanes: Value) {
    let state = e.state;
    let start = e.b.create_block();
    let head = e.b.create_block();
    let iter = e.b.create_block();
    let after = e.b.create_block();
    e.b.append_block_param(head, I64);
    e.b.ins().brif(list, start, &[], after, &[]);
    e.switch_to(start);
    let n = e.b.ins().load(I64, mf(), list, 0);
    let zero = e.b.ins().iconst(I64, 0);
    e.b.ins().jump(head, &[zero.into()]);
    e.switch_to(head);
    let i = e.b.block_params(head)[0];
    let more = e.b.ins().icmp(IntCC::UnsignedLessThan, i, n);
    e.b.ins().brif(more, iter, &[], after, &[]);
    e.switch_to(iter);
    let at = e.b.ins().imul_imm_s(i, 24);
    let at = e.b.ins().iadd(list, at);
    let f = e.b.ins().load(I64, mf(), at, 8);
    let from = e.b.ins().load(I64, mf(), at, 16);
    let to = e.b.ins().load(I64, mf(), at, 24);
    let sig = sig(e, &[I64, I64, I64, I32]);
    e.b.ins().call_indirect(sig, f, &[state, from, to, lanes]);
    let next = e.b.ins().iadd_imm_s(i, 1);
    e.b.ins().jump(head, &[next.into()]);
    e.switch_to(after);
}

/// The body of [`Helpers::arrive`] (with the helpers it calls: the guard's
/// mask, and filling or copying the membermask).
fn arrive(e: &mut Emitter, p: &[Value], [pred_mask, fill32, copy32]: [usize; 3]) -> Option<Value> {
    let (site, conv) = (p[0], p[1]);
    let masks = e.state;
    let state = e.state;
    let word = |e: &mut Emitter, i: i32| e.b.ins().load(I64, mf(), site, 8 * i);
    // The lanes parked at the segment's start join the running group.
    let merge = word(e, 13);
    let merging = e.b.create_block();
    let merged = e.b.create_block();
    e.b.append_block_param(merged, I32);
    let none = e.b.ins().icmp_imm_s(IntCC::SignedLessThan, merge, 0);
    e.b.ins().brif(none, merged, &[conv.into()], merging, &[]);
    e.switch_to(merging);
    let at = e.b.ins().iadd(masks, merge);
    let waiting = e.b.ins().load(I32, mf(), at, 0);
    let with = e.b.ins().bor(conv, waiting);
    let zero = e.b.ins().iconst(I32, 0);
    e.store_at(zero, at, 0);
    e.b.ins().jump(merged, &[with.into()]);
    e.switch_to(merged);
    let conv = e.b.block_params(merged)[0];
    e.store(conv, Layout::CONV as i32);
    // The segment's fuel, when the program left it to this call: the run
    // stops (2) at instruction `start + fuel` when less than `n` is left.
    let n = word(e, 11);
    let charge = e.b.create_block();
    let go = e.b.create_block();
    e.b.ins().brif(n, charge, &[], go, &[]);
    e.switch_to(charge);
    let start = word(e, 12);
    take_fuel(e, n, start, 2);
    e.b.ins().jump(go, &[]);
    e.switch_to(go);
    // The straight-line run before the collective, for the running group.
    let before = word(e, 9);
    let call_before = e.b.create_block();
    let arrive = e.b.create_block();
    e.b.ins().brif(before, call_before, &[], arrive, &[]);
    e.switch_to(call_before);
    let before_table = word(e, 10);
    let sig3 = sig(e, &[I64, I64, I32]);
    e.b.ins()
        .call_indirect(sig3, before, &[state, before_table, conv]);
    e.b.ins().jump(arrive, &[]);
    e.switch_to(arrive);
    // The executing lanes: the running group where the guard holds.
    let guard = word(e, 0);
    let guarded = e.b.create_block();
    let join = e.b.create_block();
    e.b.append_block_param(join, I32);
    let none = e.b.ins().icmp_imm_s(IntCC::SignedLessThan, guard, 0);
    e.b.ins().brif(none, join, &[conv.into()], guarded, &[]);
    e.switch_to(guarded);
    let on = e
        .call_fn(pred_mask, &[state, guard], Some(I32))
        .expect("a mask");
    let negated = word(e, 1);
    let negated = e.b.ins().ireduce(I32, negated);
    let flip = e.b.ins().ineg(negated);
    let on = e.b.ins().bxor(on, flip);
    let exec = e.b.ins().band(on, conv);
    e.b.ins().jump(join, &[exec.into()]);
    e.switch_to(join);
    let exec = e.b.block_params(join)[0];
    let kind = word(e, 2);
    let mm = word(e, 3);
    // The fast path: one membermask `m` (the first executing lane's), whose
    // non-exited lanes are `exec`, and nobody waiting in the group.
    let run = word(e, 6);
    // Where a register membermask lies; for an immediate, the scratch
    // arrays (offset 0), so that the loads below stay in the state.
    let zero64 = e.b.ins().iconst(I64, 0);
    let mm_at = e.b.ins().select(kind, mm, zero64);
    let check = e.b.create_block();
    let slow = e.b.create_block();
    e.b.ins().brif(run, check, &[], slow, &[]);
    e.switch_to(check);
    let lane = e.b.ins().ctz(exec);
    let lane = e.b.ins().band_imm_s(lane, 31);
    let lane = e.b.ins().uextend(I64, lane);
    let at = e.b.ins().ishl_imm_s(lane, 2);
    let at = e.b.ins().iadd(at, mm_at);
    let at = e.b.ins().iadd(state, at);
    let from_reg = e.b.ins().load(I32, mf(), at, 0);
    let imm = e.b.ins().ireduce(I32, mm);
    let m = e.b.ins().select(kind, from_reg, imm);
    let exited = e.load(I32, Layout::EXITED as i32);
    let required = e.b.ins().band_not(m, exited);
    let blocked = e.b.ins().bxor(required, exec);
    // A register membermask: every executing lane's must be `m`.
    let reg_at = e.b.ins().iadd(state, mm_at);
    let vecs = lanes_at(e, reg_at);
    let same = e.lanes_equal(vecs, m);
    let differ = e.b.ins().band_not(exec, same);
    let zero = e.b.ins().iconst(I32, 0);
    let differ = e.b.ins().select(kind, differ, zero);
    let blocked = e.b.ins().bor(blocked, differ);
    let group = word(e, 8);
    let group = e.b.ins().iadd(masks, group);
    let waiting = e.b.ins().load(I32, mf(), group, 0);
    let blocked = e.b.ins().bor(blocked, waiting);
    let fast = e.b.create_block();
    e.b.ins().brif(blocked, slow, &[], fast, &[]);
    e.switch_to(fast);
    let table = word(e, 7);
    e.b.ins().call_indirect(sig3, run, &[state, table, exec]);
    let gone_on = e.b.ins().iconst(I32, 0);
    e.b.ins().return_(&[gone_on]);
    // Arrive: record the membermask.
    e.switch_to(slow);
    let wmask = e.b.ins().iconst(I64, Layout::WMASK as i64);
    let fill = e.b.ins().iconst(I64, fill32 as i64);
    let copy = e.b.ins().iconst(I64, copy32 as i64);
    let f = e.b.ins().select(kind, copy, fill);
    let sig = sig(e, &[I64, I64, I64, I32]);
    e.b.ins().call_indirect(sig, f, &[state, mm, wmask, exec]);
    // They wait (at the collective and in its group); the others park
    // after the collective.
    let stay = e.b.ins().band_not(conv, exec);
    for (i, lanes) in [(4, exec), (8, exec), (5, stay)] {
        let off = word(e, i);
        let at = e.b.ins().iadd(masks, off);
        let w = e.b.ins().load(I32, mf(), at, 0);
        let w = e.b.ins().bor(w, lanes);
        e.store_at(w, at, 0);
    }
    Some(e.b.ins().iconst(I32, 1))
}
