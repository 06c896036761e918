//! `atom`, `red`, `membar` and `fence` of PTX modules' kernels (issue
//! #37), lowered inline: the JIT runs a launch's CTAs on several threads
//! (`launch.rs`), so an atomic on global memory must be one on the host
//! too. Per executing lane, lowest first, as `warp-core`'s
//! `interp/atomic.rs` runs them: the address is checked for alignment and
//! resolved to a launch buffer or the CTA's shared memory as `ld`/`st` do
//! (`memory_ops.rs`), then
//!
//! - `add` (integer), `and`, `or`, `xor`, `exch`, `min`, `max`: one
//!   Cranelift `atomic_rmw` (sequentially consistent);
//! - `cas`: one `atomic_cas`;
//! - `inc`, `dec` and float `add`: a CAS loop (read, compute, `atomic_cas`
//!   until no other thread wrote between), `.f32` on global memory
//!   flushing subnormal inputs and results to sign-preserving zero as the
//!   ISA says `atom.add.f32` does there.
//!
//! Shared memory belongs to one CTA, whose warps run on one thread; its
//! atomics are the same instructions (they cost nothing more there).
//! Everything the inline checks refuse (a module `.global` variable, a
//! fault) goes to the run time (`atomic_host.rs`: `host_atom`),
//! which performs it on the variables under their mutex or records the
//! error naming lane, `%tid`, instruction and address. A fence is
//! Cranelift's `fence`: the host's accesses are ordered at least as PTX
//! orders a thread's.

use super::builder::{At, Emitter};
use super::lane_ops::{mask, read};
use super::layout::wide;
use super::memory_ops::resolve_atomic;
use cranelift_codegen::ir::condcodes::IntCC;
use cranelift_codegen::ir::types::{F32, F64, I32, I64};
use cranelift_codegen::ir::{AtomicRmwOp, Block, InstBuilder, MemFlagsData, Value};
use warp_core::ir::{windows, AtomOp, AtomSpace, Atomic, Guard, LaneOp, LaneOpKind, Operand};

/// Flags of an atomic on host memory: checked, so it never traps.
fn heap() -> MemFlagsData {
    MemFlagsData::new().with_notrap()
}

/// Lowers `atom`/`red`/`membar`/`fence` `x` at `pc` under `guard`.
pub fn emit(e: &mut Emitter, guard: Option<Guard>, x: &LaneOp, pc: usize) {
    match x.kind {
        LaneOpKind::Fence(_) => {
            e.b.ins().fence();
        }
        LaneOpKind::Atom(a) => {
            let mut l = e.lanes(guard);
            let exec = e.exec(&mut l);
            e.lane_loop_over(exec, |e, at| lane(e, x, a, pc, at));
        }
        LaneOpKind::Ld(_)
        | LaneOpKind::St(_)
        | LaneOpKind::Cvta { .. }
        | LaneOpKind::Special(_)
        | LaneOpKind::Cvt { .. }
        | LaneOpKind::Int(_)
        | LaneOpKind::Float { .. }
        | LaneOpKind::FSetp(_)
        | LaneOpKind::Pack
        | LaneOpKind::Unpack
        | LaneOpKind::Bar => unreachable!("atomic.rs lowers atom, red and fences"),
    }
}

/// Continues in a fresh block when `ok` is not 0; else goes to `slow`.
fn check(e: &mut Emitter, ok: Value, slow: Block) {
    let next = e.b.create_block();
    e.b.ins().brif(ok, next, &[], slow, &[]);
    e.switch_to(next);
}

/// One lane's atomic.
fn lane(e: &mut Emitter, x: &LaneOp, a: Atomic, pc: usize, at: At) {
    let ty = x.srcs[0].1;
    let size = (ty.bits() / 8) as u64;
    let addr = x.addr.expect("an atomic has an address");
    let ea = match addr.base {
        Some(r) => {
            let rt = e.reg_type(r);
            let v = read(e, Operand::Reg(r), rt, at);
            e.b.ins().iadd_imm_s(v, addr.offset)
        }
        None => e.b.ins().iconst(I64, addr.offset),
    };
    let b = read(e, x.srcs[0].0, ty, at);
    let c = match x.srcs.get(1) {
        Some(&(o, t)) => read(e, o, t, at),
        None => e.b.ins().iconst(I64, 0),
    };
    // `.f32` add flushes subnormals on global memory, not on shared.
    let ftz = match a.space {
        AtomSpace::Global => e.b.ins().iconst(I32, 1),
        AtomSpace::Shared => e.b.ins().iconst(I32, 0),
        AtomSpace::Generic => {
            let s = e.b.ins().iadd_imm_s(ea, -(windows::SHARED as i64));
            let sh =
                e.b.ins()
                    .icmp_imm_s(IntCC::UnsignedLessThan, s, windows::WINDOW as i64);
            let one = e.b.ins().iconst(I32, 1);
            let sh = e.b.ins().uextend(I32, sh);
            e.b.ins().isub(one, sh)
        }
    };
    let slow = e.b.create_block();
    e.b.set_cold_block(slow);
    let join = e.b.create_block();
    e.b.append_block_param(join, I64);
    let got = e.b.create_block();
    e.b.append_block_param(got, I64);
    let low = e.b.ins().band_imm_s(ea, (size - 1) as i64);
    let aligned = e.b.ins().icmp_imm_s(IntCC::Equal, low, 0);
    check(e, aligned, slow);
    resolve_atomic(e, x, pc, a.space.space(), ea, size, at.lane, got, slow);

    e.switch_to(got);
    let p = e.b.block_params(got)[0];
    let old = rmw(e, a.op, ty, p, b, c, ftz);
    e.b.ins().jump(join, &[old.into()]);

    e.switch_to(slow);
    let pcv = e.b.ins().iconst(I64, pc as i64);
    let lane = e.b.ins().uextend(I64, at.lane);
    let f = super::atomic_host::host_atom as *const () as usize;
    let v = e.call_host(f, &[pcv, lane, ea, b, c]);
    e.b.ins().jump(join, &[v.into()]);

    e.switch_to(join);
    let old = e.b.block_params(join)[0];
    if let (true, Some(&(d, _))) = (a.returns, x.dests.first()) {
        if let warp_core::ir::Dest::Reg(r) = d {
            let rt = e.reg_type(r);
            let v = mask(e, old, rt.bits().min(ty.bits()));
            let v = if wide(rt) {
                v
            } else {
                e.b.ins().ireduce(I32, v)
            };
            e.write_lane(d, at, v);
        }
    }
}

/// The atomic `op` on the `ty` word at host address `p` with
/// operands `b`, `c` (i64 holding the bits): the old value, zero-extended
/// to an i64.
#[allow(clippy::too_many_arguments)]
fn rmw(
    e: &mut Emitter,
    op: AtomOp,
    ty: warp_core::ir::Type,
    p: Value,
    b: Value,
    c: Value,
    ftz: Value,
) -> Value {
    let (bits, float, signed) = (ty.bits(), ty.is_float(), ty.is_signed());
    let it = if bits == 64 { I64 } else { I32 };
    let narrow = |e: &mut Emitter, v: Value| {
        if bits == 64 {
            v
        } else {
            e.b.ins().ireduce(I32, v)
        }
    };
    let bn = narrow(e, b);
    let cn = narrow(e, c);
    let simple = match op {
        AtomOp::Add if !float => Some(AtomicRmwOp::Add),
        AtomOp::And => Some(AtomicRmwOp::And),
        AtomOp::Or => Some(AtomicRmwOp::Or),
        AtomOp::Xor => Some(AtomicRmwOp::Xor),
        AtomOp::Exch => Some(AtomicRmwOp::Xchg),
        AtomOp::Min if signed => Some(AtomicRmwOp::Smin),
        AtomOp::Min => Some(AtomicRmwOp::Umin),
        AtomOp::Max if signed => Some(AtomicRmwOp::Smax),
        AtomOp::Max => Some(AtomicRmwOp::Umax),
        AtomOp::Add | AtomOp::Inc | AtomOp::Dec | AtomOp::Cas => None,
    };
    let old = if let Some(r) = simple {
        e.b.ins().atomic_rmw(it, heap(), r, p, bn)
    } else if op == AtomOp::Cas {
        e.b.ins().atomic_cas(heap(), p, bn, cn)
    } else {
        // A CAS loop.
        let start = e.b.ins().load(it, heap(), p, 0);
        let (looping, done) = (e.b.create_block(), e.b.create_block());
        e.b.append_block_param(looping, it);
        e.b.append_block_param(done, it);
        e.b.ins().jump(looping, &[start.into()]);
        e.switch_to(looping);
        let cur = e.b.block_params(looping)[0];
        let new = match op {
            AtomOp::Inc => {
                // (r >= s) ? 0 : r+1
                let ge = e.b.ins().icmp(IntCC::UnsignedGreaterThanOrEqual, cur, bn);
                let zero = e.b.ins().iconst(it, 0);
                let inc = e.b.ins().iadd_imm_s(cur, 1);
                e.b.ins().select(ge, zero, inc)
            }
            AtomOp::Dec => {
                // (r == 0 || r > s) ? s : r-1
                let z = e.b.ins().icmp_imm_s(IntCC::Equal, cur, 0);
                let gt = e.b.ins().icmp(IntCC::UnsignedGreaterThan, cur, bn);
                let w = e.b.ins().bor(z, gt);
                let dec = e.b.ins().iadd_imm_s(cur, -1);
                e.b.ins().select(w, bn, dec)
            }
            AtomOp::Add => float_add(e, bits, cur, bn, ftz),
            AtomOp::Min
            | AtomOp::Max
            | AtomOp::And
            | AtomOp::Or
            | AtomOp::Xor
            | AtomOp::Exch
            | AtomOp::Cas => unreachable!("one instruction"),
        };
        let seen = e.b.ins().atomic_cas(heap(), p, cur, new);
        let same = e.b.ins().icmp(IntCC::Equal, seen, cur);
        e.b.ins()
            .brif(same, done, &[cur.into()], looping, &[seen.into()]);
        e.switch_to(done);
        e.b.block_params(done)[0]
    };
    if bits == 64 {
        old
    } else {
        e.b.ins().uextend(I64, old)
    }
}

/// `a + b` of the float bits `a`, `b` (`bits` 32 or 64), rounded to
/// nearest even; `.f32` flushing subnormal inputs and the result to
/// sign-preserving zero where `ftz` (an i32) is 1.
fn float_add(e: &mut Emitter, bits: u32, a: Value, b: Value, ftz: Value) -> Value {
    if bits == 64 {
        let fa = e.b.ins().bitcast(F64, MemFlagsData::new(), a);
        let fb = e.b.ins().bitcast(F64, MemFlagsData::new(), b);
        let s = e.b.ins().fadd(fa, fb);
        return e.b.ins().bitcast(I64, MemFlagsData::new(), s);
    }
    let flush = |e: &mut Emitter, u: Value| {
        let exp = e.b.ins().band_imm_s(u, 0x7f80_0000);
        let sub = e.b.ins().icmp_imm_s(IntCC::Equal, exp, 0);
        let sub = e.b.ins().uextend(I32, sub);
        let on = e.b.ins().band(sub, ftz);
        let sign = e.b.ins().band_imm_s(u, 0x8000_0000u32 as i32 as i64);
        e.b.ins().select(on, sign, u)
    };
    let a = flush(e, a);
    let b = flush(e, b);
    let fa = e.b.ins().bitcast(F32, MemFlagsData::new(), a);
    let fb = e.b.ins().bitcast(F32, MemFlagsData::new(), b);
    let s = e.b.ins().fadd(fa, fb);
    let s = e.b.ins().bitcast(I32, MemFlagsData::new(), s);
    flush(e, s)
}
