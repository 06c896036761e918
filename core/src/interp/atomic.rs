//! `atom`, `red`, `membar` and `fence` on the warp's lanes (issue #37),
//! and what every legal order of a launch's atomics agrees on.
//!
//! # What runs
//!
//! Each executing lane, lowest first, reads the location, computes the
//! ISA's `operation(*a, b{, c})` (`ir/atomic.rs`) and writes it back; `atom`
//! returns the old value. The access follows `memory.rs`'s rules (aligned,
//! inside `.global` or `.shared` memory, not read-only; an undefined address
//! is `memory-undefined-address`). Float `.add` rounds to nearest even; on
//! global memory `.f32` flushes subnormal inputs and results to
//! sign-preserving zero ("Current implementation of `atom.add.f32` on
//! global memory flushes subnormal inputs and results to sign-preserving
//! zero; whereas `atom.add.f32` on shared memory supports subnormal inputs
//! and results"); a NaN it writes is undefined (the ISA fixes no payload).
//!
//! # What is defined
//!
//! The memory model (ISA "Memory Consistency Model", §"Morally strong
//! operations"): "Two operations are said to be morally strong relative to
//! each other if ... each operation is strong and specifies a scope that
//! includes the thread executing the other operation ... If both are memory
//! operations, then they overlap completely", and "Two conflicting memory
//! operations are said to be in a data-race if they are not related in
//! causality order and they are not morally strong." The `atom` page:
//! "Two atomic operations (atom or red) are performed atomically with
//! respect to each other only if each operation specifies a scope that
//! includes the other."
//!
//! Two accesses to one location are *unordered* when they come from lanes
//! of one instruction (one `atom` executed by several lanes), from warps
//! of one CTA between the same two barriers, or from different CTAs
//! (nothing orders CTAs). Accesses of one warp at different instructions
//! are ordered, as `memory.rs` orders a warp's plain accesses (the
//! interpreter's min-PC schedule). Then:
//!
//! - Atomics unordered with each other are no race when each one's scope
//!   includes the other thread: a `.cta`-scoped atomic and an atomic of
//!   another CTA on one location are a `memory-race`, and so are two
//!   atomics of different sizes on overlapping bytes. A plain `ld`/`st`
//!   unordered with an atomic on the same bytes is a `memory-race` (weak
//!   accesses are never morally strong).
//! - A location that unordered atomics touch is *contested* (until an
//!   atomic ordered after all of them: the next round starts from the
//!   value they left). Its final
//!   value is defined when every order gives the same: when all its
//!   atomics are one commutative integer operation on one type (`add` of
//!   32 or 64 bits, `and`, `or`, `xor`, `min`/`max` of one signedness), or
//!   one same function (`inc`, `dec`, `exch`, `cas` with the same
//!   operands everywhere), or float `add`s whose every partial sum is
//!   exact in every order (each value, the location's first included, a
//!   multiple of 2^q, and the sum of their magnitudes below 2^(p+q), p = 24
//!   for `.f32` and 53 for `.f64`; on global `.f32` no value below 2^-126;
//!   no infinity or NaN). Otherwise it is undefined from the first
//!   atomic that finds it contested on.
//! - The old value an `atom` returns from a contested location is
//!   undefined, whatever the operation (another order returns another).
//!
//! # Two passes
//!
//! The interpreter runs CTAs one after another, so the first atomic on a
//! location cannot know that a later CTA will contest it. A launch whose
//! run found a location contested after an `atom` had returned a defined
//! old value from it (or after an order-dependent value was written) runs
//! once more ([`Log::rerun`]), knowing from the start every contested
//! location and whether its final value depends on the order: every old
//! value from it is undefined, and an order-dependent value is undefined
//! from the first atomic on. Kernels without atomics never look at the log
//! ([`Log::is_empty`]); kernels whose atomics return nothing (`red`) or
//! touch no contested location run once.
//!
//! # Addresses from contested values
//!
//! An address computed from a contested old value (a slot taken with
//! `atomicAdd(&count, n)`, stream compaction's `out[base + rank]`) has
//! undefined bits, which `memory.rs` calls `memory-undefined-address`.
//! Once a run has returned such a value ([`Log::schedule_dependent`]), an
//! `ld`/`st` at an address with undefined bits may touch, in some order,
//! any bytes of the region (launch buffer, module variable, the CTA's
//! shared space, the lane's local space) that this run's address falls in
//! — the undefined bits are an index, and C's pointer arithmetic stays
//! inside one array object (a kernel whose other orders leave the region
//! is not one the reference judges). So the access is checked for bounds
//! (this run's address, the undefined bits as this run carries them, 0
//! where lost) and for a store to a read-only region, not for races nor
//! recorded as one (another order touches other bytes); a store leaves
//! *every* byte of the region undefined (sound: whatever bytes another
//! order writes are among them; coarse: bytes no order writes lose their
//! value too), a load reads undefined values. A later store at a defined
//! address defines its bytes again: in a race-free kernel it is ordered
//! after the wild store or touches bytes no order's wild store writes. An
//! *atomic* at such an address stays `memory-undefined-address`: an
//! unordered atomic on a location it may pick returns an old value that
//! would depend on it, which one pass cannot know (a limitation).
//!
//! A CAS loop (`atom.cas` until the old value is the expected one) on a
//! contested location branches on an undefined value, which the scheduler
//! reports as `guard-undefined`: the reference cannot tell that the loop
//! ends the same way in every order.
//!
//! # Fences
//!
//! `membar`/`fence` order a thread's own accesses; they make accesses of
//! other threads ordered only together with an observed flag (the
//! message-passing patterns of the memory model), which the interpreter
//! does not follow: a fence does nothing here, and accesses it would order
//! through a flag stay races (`memory-race`) as without it.

use super::atomic_log::{Class, Entry, Key, Party};
use super::bits::Val;
use super::lanes::lanes;
use super::memory::{access_atomic, atomic_key, region, tag_of, Ctx, Fault, Place};
use super::memory_ops::{address, extend, fail};
use super::warp::{Step, Warp};
use crate::ir::{AtomOp, Atomic, LaneOp, LaneOpKind, MemScope, Type};
use crate::ub::{Ub, UbRule};

/// The float `add` of `old` and `b` (`ty` `.f32` or `.f64`), flushing
/// subnormals on `ftz`; `None` for a NaN.
fn float_add(ty: Type, old: u64, b: u64, ftz: bool) -> Option<u64> {
    if ty == Type::F32 {
        let flush = |x: f32| {
            if ftz && x.is_subnormal() {
                0.0f32.copysign(x)
            } else {
                x
            }
        };
        let r = flush(flush(f32::from_bits(old as u32)) + flush(f32::from_bits(b as u32)));
        (!r.is_nan()).then_some(r.to_bits() as u64)
    } else {
        let r = f64::from_bits(old) + f64::from_bits(b);
        (!r.is_nan()).then_some(r.to_bits())
    }
}

/// The value a float add contributes as `f64`, flushed as the add does.
fn float_value(ty: Type, bits: u64, ftz: bool) -> f64 {
    if ty == Type::F32 {
        let x = f32::from_bits(bits as u32);
        if ftz && x.is_subnormal() {
            0.0
        } else {
            x as f64
        }
    } else {
        f64::from_bits(bits)
    }
}

/// The exponent of the lowest set bit of finite nonzero `x`.
fn lowest_bit(x: f64) -> i32 {
    let bits = x.to_bits();
    let e = ((bits >> 52) & 0x7ff) as i32;
    let m = bits & ((1u64 << 52) - 1);
    let (m, e) = if e == 0 {
        (m, -1074)
    } else {
        (m | 1 << 52, e - 1075)
    };
    e + m.trailing_zeros() as i32
}

/// Records a float add's value `x` in `e`.
fn note_float(e: &mut Entry, x: f64, ty: Type, ftz: bool) {
    if !x.is_finite() {
        e.bad = true;
        return;
    }
    if x == 0.0 {
        return;
    }
    let q = lowest_bit(x);
    if ftz && q < -126 && ty == Type::F32 {
        e.bad = true;
    }
    e.q = e.q.min(q);
    e.sum += x.abs();
}

/// `operation(old, b, c)` on `ty` values (masked to the type), `.f32`
/// `add` flushing subnormals when `ftz` (global memory); `None` for a
/// float NaN (whose payload the ISA leaves open). The engines that do not
/// run atomics themselves (the JIT's run time, on module variables) call
/// it.
pub fn eval(op: AtomOp, ty: Type, old: u64, b: u64, c: u64, ftz: bool) -> Option<u64> {
    compute(op, ty, old & ty.mask(), b & ty.mask(), c & ty.mask(), ftz)
}

fn compute(op: AtomOp, ty: Type, old: u64, b: u64, c: u64, ftz: bool) -> Option<u64> {
    let m = ty.mask();
    let bits = ty.bits();
    let signed = |x: u64| ((x << (64 - bits)) as i64) >> (64 - bits);
    Some(
        match op {
            AtomOp::Add if ty.is_float() => return float_add(ty, old, b, ftz),
            AtomOp::Add => old.wrapping_add(b),
            AtomOp::Min if ty.is_signed() => signed(old).min(signed(b)) as u64,
            AtomOp::Max if ty.is_signed() => signed(old).max(signed(b)) as u64,
            AtomOp::Min => old.min(b),
            AtomOp::Max => old.max(b),
            AtomOp::Inc => {
                if old >= b {
                    0
                } else {
                    old + 1
                }
            }
            AtomOp::Dec => {
                if old == 0 || old > b {
                    b
                } else {
                    old - 1
                }
            }
            AtomOp::And => old & b,
            AtomOp::Or => old | b,
            AtomOp::Xor => old ^ b,
            AtomOp::Exch => b,
            AtomOp::Cas => {
                if old == b {
                    c
                } else {
                    old
                }
            }
        } & m,
    )
}

/// The class of an atomic with operands `b`, `c` (defined or not).
fn class_of(op: AtomOp, ty: Type, b: Val, c: Val) -> Class {
    let width = if ty.bits() == 64 {
        Type::U64
    } else {
        Type::U32
    };
    match op {
        AtomOp::Add if ty.is_float() => Class::FloatAdd(ty),
        AtomOp::Add | AtomOp::And | AtomOp::Or | AtomOp::Xor => Class::Commutes(op, width),
        AtomOp::Min | AtomOp::Max => Class::Commutes(op, ty),
        AtomOp::Inc | AtomOp::Dec | AtomOp::Exch | AtomOp::Cas => {
            if b.full(ty) && c.full(ty) {
                Class::Same(op, width, b.v & ty.mask(), c.v & ty.mask())
            } else {
                Class::Mixed
            }
        }
    }
}

/// Executes `atom`, `red`, `membar` or `fence` on the lanes of `s.exec`.
pub(crate) fn exec(w: &mut Warp, s: &Step, x: &LaneOp) -> Result<(), Ub> {
    match x.kind {
        LaneOpKind::Fence(_) => Ok(()),
        LaneOpKind::Atom(a) => atom(w, s, x, a),
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
        | LaneOpKind::Bar => unreachable!("atomic::exec runs atom, red and fences"),
    }
}

fn atom(w: &mut Warp, s: &Step, x: &LaneOp, a: Atomic) -> Result<(), Ub> {
    let fail = |w: &Warp, lane: usize, addr: Option<u64>, f: Fault| fail(w, s, lane, addr, f);
    let mut hit: Vec<Key> = Vec::new();
    let mut results = Vec::new();
    for l in lanes(s.exec) {
        let (addr, wild) = address(w, x.addr.expect("an atomic has an address"), l)
            .map_err(|f| fail(w, l, None, f))?;
        if wild {
            let f = (
                UbRule::MemoryUndefinedAddress,
                "the address has undefined bits (from an order-dependent value): the reference does not follow an atomic to a location another order picks"
                    .to_string(),
            );
            return Err(fail(w, l, None, f));
        }
        let b = w.read(x.srcs[0].0, l);
        let c = x.srcs.get(1).map_or(Val::known(0), |&(o, _)| w.read(o, l));
        let ctx = w.kernel.as_mut().expect("a kernel");
        let old =
            one(ctx, x, a, l, addr, [b, c], &mut hit).map_err(|f| fail(w, l, Some(addr), f))?;
        results.push((l, old));
    }
    if a.returns {
        w.write_all(x.dests[0].0, &results);
    }
    Ok(())
}

/// One lane's atomic at `addr` with operands `b`, `c`: the old value as the
/// destination gets it. `hit` holds the locations of the instruction's
/// lanes before.
fn one(
    ctx: &mut Ctx,
    x: &LaneOp,
    a: Atomic,
    l: usize,
    addr: u64,
    [b, c]: [Val; 2],
    hit: &mut Vec<Key>,
) -> Result<Val, Fault> {
    let ty = x.srcs[0].1;
    let size = (ty.bits() / 8) as u64;
    let cta_scope = matches!(a.effective_scope(), MemScope::Cta | MemScope::Cluster);
    let (place, off) = access_atomic(ctx, a.space.space(), addr, size, l)?;
    let k = atomic_key(ctx, &place, off);
    let me = Party {
        tag: tag_of(ctx),
        cta_scope,
    };
    let ftz = ty == Type::F32 && matches!(place, Place::Global(_));
    let r = region(ctx, &place, l);
    let (mut old, mut def) = (0u64, true);
    for i in 0..size as usize {
        old |= (r.bytes[off as usize + i] as u64) << (8 * i);
        def &= r.defined[off as usize + i];
    }
    let log = &mut ctx.mem.atomics;
    let class = class_of(a.op, ty, b, c);
    let known = log.known.as_ref().and_then(|m| m.get(&k).copied());
    let fresh = !log.entries.contains_key(&k);
    let e = log.entries.entry(k).or_insert_with(|| Entry {
        size,
        first: me,
        second: None,
        class,
        returned: false,
        contested: false,
        q: i32::MAX,
        sum: 0.0,
        bad: false,
    });
    if e.size != size {
        return Err((
            UbRule::MemoryRace,
            format!(
                "atomics of {} and {size} bytes on overlapping bytes at {addr:#x}",
                e.size
            ),
        ));
    }
    let other = e.unordered(me.tag);
    if let Some(p) = other {
        if p.tag.cta != me.tag.cta && (p.cta_scope || me.cta_scope) {
            return Err((
                UbRule::MemoryRace,
                format!(
                    "a data race at {addr:#x}: a .cta-scoped atomic and an atomic of another CTA (neither's scope includes the other)"
                ),
            ));
        }
    }
    // Ordered after every atomic before on it: what those did is this
    // one's starting value, and a new round of contest begins.
    let after_all = other.is_none() && !hit.contains(&k) && known.is_none();
    if after_all && !fresh {
        e.class = class;
        e.contested = false;
        e.returned = false;
        (e.q, e.sum, e.bad) = (i32::MAX, 0.0, false);
    }
    if class == Class::FloatAdd(ty) {
        // The location's value before the round's first atomic is a term
        // of every order's sum too.
        if fresh || after_all {
            note_float(e, float_value(ty, old, ftz), ty, ftz);
        }
        note_float(e, float_value(ty, b.v & ty.mask(), ftz), ty, ftz);
    }
    e.class = e.class.merge(class);
    let contested_now = other.is_some() || hit.contains(&k) || known.is_some();
    if contested_now && !e.contested {
        e.contested = true;
        if e.returned || e.order_dependent() {
            log.rerun = true;
        }
    }
    // Who touched it last, as `memory.rs` keeps its readers.
    if e.first.tag.cta == me.tag.cta && e.first.tag.warp == me.tag.warp {
        e.first = me;
    } else {
        e.second = Some(me);
    }
    let dependent = known.unwrap_or(false) || (e.contested && e.order_dependent());
    let returned_def = def && !e.contested;
    if a.returns && returned_def {
        e.returned = true;
    }
    if a.returns && !returned_def && e.contested {
        log.wild = true;
    }
    let new = compute(a.op, ty, old, b.v & ty.mask(), c.v & ty.mask(), ftz);
    let new_def = def && b.full(ty) && c.full(ty) && new.is_some() && !dependent;
    let new = new.unwrap_or(0);
    let r = region(ctx, &place, l);
    for i in 0..size as usize {
        r.bytes[off as usize + i] = (new >> (8 * i)) as u8;
        r.defined[off as usize + i] = new_def;
    }
    hit.push(k);
    Ok(extend(Val::all_or_none(old, returned_def), ty))
}
