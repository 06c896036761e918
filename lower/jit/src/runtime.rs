//! The run-time side of kernel launches on the JIT: what the generated code
//! calls for the thread-level instructions it does not compute inline
//! (`ld`, `st`, `bar.sync`, and the directed roundings of `cvt` and float
//! arithmetic), and the per-warp context those calls work on.
//!
//! Each warp of a CTA runs its compiled code on its own OS thread; the
//! context is a thread-local ([`enter`] before the code runs, [`leave`]
//! after), so the calls need no pointer from the generated code and no
//! `unsafe`. The CTA's memory is behind a mutex (warps run at once), and
//! `bar.sync` blocks the warp's thread on a [`CtaBarrier`] until every
//! warp of the CTA that is still running has arrived.
//!
//! A failing access (out of bounds, misaligned, a store to `.param` or
//! `.const`) records the first error, naming lane, `%tid`, instruction and
//! address, and returns 0: the generated code runs on memory-safely, and
//! the launch reports the error. The JIT checks no definedness: that is
//! the reference's job.

use std::cell::RefCell;
use std::sync::{Arc, Condvar, Mutex};
use warp_core::interp::memory::{resolve, Memory};
use warp_core::ir::{LaneOpKind, Op, Program, Space, WARP};
use warp_core::text::inst_text;

/// Memory every warp of a CTA shares.
#[derive(Debug)]
pub struct CtaMemory {
    /// The launch's memory (buffers, variables, parameters, shared).
    pub mem: Memory,
}

/// A barrier for the warps of one CTA: `bar.sync` waits until every warp
/// that has not finished has arrived; a finishing warp stops being waited
/// for ("exited threads" are not, per the ISA's `exit`).
#[derive(Debug)]
pub struct CtaBarrier {
    /// (arrived, still running, generation).
    state: Mutex<(u32, u32, u64)>,
    cv: Condvar,
}

impl CtaBarrier {
    /// A barrier for `warps` running warps.
    pub fn new(warps: u32) -> CtaBarrier {
        CtaBarrier {
            state: Mutex::new((0, warps, 0)),
            cv: Condvar::new(),
        }
    }

    /// A warp arrives and waits for the others.
    fn arrive(&self) {
        let Ok(mut s) = self.state.lock() else { return };
        s.0 += 1;
        if s.0 >= s.1 {
            s.0 = 0;
            s.2 += 1;
            self.cv.notify_all();
            return;
        }
        let gen = s.2;
        while s.2 == gen {
            s = match self.cv.wait(s) {
                Ok(s) => s,
                Err(_) => return,
            };
        }
    }

    /// A warp finished: it is not waited for any more.
    pub fn finish(&self) {
        let Ok(mut s) = self.state.lock() else { return };
        s.1 = s.1.saturating_sub(1);
        if s.0 > 0 && s.0 >= s.1 {
            s.0 = 0;
            s.2 += 1;
            self.cv.notify_all();
        }
    }
}

/// What one warp's host calls work on.
pub struct WarpContext {
    /// The kernel's program (instructions by index, for their operands'
    /// types and for messages).
    pub prog: Arc<Program>,
    /// The CTA's memory.
    pub mem: Arc<Mutex<CtaMemory>>,
    /// Each lane's local space.
    pub local: Vec<Vec<u8>>,
    /// Each lane's `%tid`.
    pub tid: [[u32; 3]; WARP],
    /// The CTA's barrier.
    pub barrier: Arc<CtaBarrier>,
    /// The first error of the run.
    pub error: Option<String>,
}

thread_local! {
    static CONTEXT: RefCell<Option<WarpContext>> = const { RefCell::new(None) };
}

/// Makes `c` the context of the warp this thread runs next.
pub fn enter(c: WarpContext) {
    CONTEXT.with(|x| *x.borrow_mut() = Some(c));
}

/// Ends this thread's warp: its context back (with its error, if any).
pub fn leave() -> Option<WarpContext> {
    CONTEXT.with(|x| x.borrow_mut().take())
}

/// Runs `f` on this thread's context; with none (the code runs outside a
/// launch) nothing happens and the result is 0.
fn with(f: impl FnOnce(&mut WarpContext) -> Result<u64, String>) -> u64 {
    CONTEXT.with(|x| {
        let mut b = x.borrow_mut();
        let Some(c) = b.as_mut() else { return 0 };
        if c.error.is_some() {
            return 0;
        }
        match f(c) {
            Ok(v) => v,
            Err(m) => {
                c.error = Some(m);
                0
            }
        }
    })
}

/// The thread-level instruction at `pc`.
fn lane_op_at(prog: &Program, pc: u64) -> Result<&warp_core::ir::LaneOp, String> {
    match prog.insts.get(pc as usize).map(|i| &i.op) {
        Some(Op::LaneOp(x)) => Ok(x),
        _ => Err(format!("jit: no thread-level instruction at index {pc}")),
    }
}

/// Where a `size`-byte access at `addr` in `space` falls: `(bytes,
/// offset, read-only)`.
fn locate<'m>(
    mem: &'m mut Memory,
    local: &'m mut [u8],
    space: Space,
    addr: u64,
    size: u64,
) -> Result<(&'m mut [u8], usize, bool), String> {
    if !addr.is_multiple_of(size) {
        return Err(format!(
            "address {addr:#x} is not aligned to the access size ({size} bytes)"
        ));
    }
    let (space, a) = resolve(space, addr);
    let fits = |len: usize, a: u64| a.checked_add(size).is_some_and(|e| e <= len as u64);
    let oob = |what: &str| {
        Err(format!(
            "address {addr:#x} ({size} bytes) is outside {what}"
        ))
    };
    match space {
        Space::Global => {
            for r in mem.globals.iter_mut() {
                if a >= r.base && fits(r.bytes.len(), a - r.base) {
                    let ro = r.is_read_only();
                    let off = (a - r.base) as usize;
                    return Ok((&mut r.bytes, off, ro));
                }
            }
            oob("every buffer and .global/.const variable")
        }
        Space::Shared => {
            if let Some(r) = mem.shared.as_mut().filter(|r| fits(r.bytes.len(), a)) {
                return Ok((&mut r.bytes, a as usize, false));
            }
            match mem.dynamic.as_mut() {
                Some(d) if a >= d.base && fits(d.bytes.len(), a - d.base) => {
                    let off = (a - d.base) as usize;
                    Ok((&mut d.bytes, off, false))
                }
                _ => oob("the CTA's shared and dynamic shared memory"),
            }
        }
        Space::Param => match mem.param.as_mut() {
            Some(r) if fits(r.bytes.len(), a) => Ok((&mut r.bytes, a as usize, true)),
            _ => oob("the kernel's parameters"),
        },
        Space::Local if fits(local.len(), a) => Ok((local, a as usize, false)),
        Space::Local => oob("the thread's local memory"),
        Space::Generic | Space::Const => unreachable!("mapped above"),
    }
}

/// The message of a failed access by `lane` at instruction `pc`.
fn fault(c: &WarpContext, pc: u64, lane: u64, msg: String) -> String {
    let inst = &c.prog.insts[pc as usize];
    let t = c.tid[(lane as usize) % WARP];
    format!(
        "line {}: lane {lane} (%tid ({},{},{})), `{}`: {msg}",
        inst.line,
        t[0],
        t[1],
        t[2],
        inst_text(&c.prog, inst)
    )
}

/// The address of element `k` of an `n`-element access of `size`-byte
/// elements at `base`; a vector must be aligned to its whole size.
fn element(
    c: &WarpContext,
    pc: u64,
    lane: u64,
    base: u64,
    size: u64,
    n: u64,
    k: u64,
) -> Result<u64, String> {
    if n > 1 && !base.is_multiple_of(size * n) {
        let m = format!(
            "address {base:#x} is not aligned to the vector's size ({} bytes)",
            size * n
        );
        return Err(fault(c, pc, lane, m));
    }
    Ok(base.wrapping_add(k * size))
}

/// Element `k` of the `ld` (`store` `None`) or `st` (`Some(value)`) at
/// `pc` for one lane, at `base + k * size`: a load's value, zero- or
/// sign-extended from the memory type to 64 bits; 0 for a store.
fn access(
    c: &mut WarpContext,
    pc: u64,
    lane: u64,
    base: u64,
    k: u64,
    store: Option<u64>,
) -> Result<u64, String> {
    let x = lane_op_at(&c.prog, pc)?;
    let (space, ty, n) = match (x.kind, store) {
        (LaneOpKind::Ld(s), None) => (s, x.dests[0].1, x.dests.len()),
        (LaneOpKind::St(s), Some(_)) => (s, x.srcs[0].1, x.srcs.len()),
        _ => return Err(format!("jit: a memory call at `{}`", x.opcode)),
    };
    let size = (ty.bits() as u64).div_ceil(8);
    let addr = element(c, pc, lane, base, size, n as u64, k)?;
    let mem = Arc::clone(&c.mem);
    let mut g = mem
        .lock()
        .map_err(|_| "jit: memory lock poisoned".to_string())?;
    let local = &mut c.local[(lane as usize) % WARP];
    let result = match (locate(&mut g.mem, local, space, addr, size), store) {
        (Err(m), _) => Err(m),
        (Ok((_, _, true)), Some(_)) => Err(format!("a store to read-only memory at {addr:#x}")),
        (Ok((bytes, off, _)), Some(value)) => {
            for i in 0..size as usize {
                bytes[off + i] = (value >> (8 * i)) as u8;
            }
            Ok(0)
        }
        (Ok((bytes, off, _)), None) => {
            let mut v = 0u64;
            for i in 0..size as usize {
                v |= (bytes[off + i] as u64) << (8 * i);
            }
            let bits = ty.bits();
            if ty.is_signed() && bits < 64 && v >> (bits - 1) & 1 == 1 {
                v |= !((1u64 << bits) - 1);
            }
            Ok(v)
        }
    };
    drop(g);
    result.map_err(|m| fault(c, pc, lane, m))
}

/// Element `k` of `ld` for one lane (at `base + k * size`): the value,
/// zero- or sign-extended from the memory type to 64 bits.
pub extern "C" fn host_ld(pc: u64, lane: u64, base: u64, k: u64) -> u64 {
    with(|c| access(c, pc, lane, base, k, None))
}

/// Element `k` of `st` for one lane (at `base + k * size`).
pub extern "C" fn host_st(pc: u64, lane: u64, base: u64, value: u64, k: u64) -> u64 {
    with(|c| access(c, pc, lane, base, k, Some(value)))
}

/// A computing thread-level instruction the code does not lower inline
/// (directed roundings, `.ftz`, `.sat`, narrow conversions): warp-core's
/// scalar semantics ([`warp_core::interp::lane_ops::eval`]); an unspecified
/// result is 0.
pub extern "C" fn host_eval(pc: u64, a: u64, b: u64, c3: u64, d: u64) -> u64 {
    with(|c| {
        let x = lane_op_at(&c.prog, pc)?;
        Ok(warp_core::interp::lane_ops::eval(x, [a, b, c3, d]).unwrap_or(0))
    })
}

/// 16-bit glue (`add.s16` ...): the reference's scalar semantics
/// ([`warp_core::interp::alu::eval`]); `setp`'s `p` in bit 0, `q` in bit 1.
pub extern "C" fn host_glue(pc: u64, a: u64, b: u64, c3: u64) -> u64 {
    with(|c| match c.prog.insts.get(pc as usize).map(|i| &i.op) {
        Some(Op::Glue(g)) => {
            let [p, q] = warp_core::interp::alu::eval(g, &[a, b, c3]);
            use warp_core::ir::Glue;
            Ok(match g {
                Glue::Setp { .. } => p | q << 1,
                Glue::Mov { .. } | Glue::Bin { .. } | Glue::Un { .. } | Glue::Selp { .. } => p,
            })
        }
        _ => Err(format!("jit: no glue instruction at index {pc}")),
    })
}

/// `bar.sync` for a warp whose running group `conv` executes it on
/// `exec`: the whole warp that has not exited must be there (a barrier
/// that only part of a warp reaches is not lowered yet).
pub extern "C" fn host_bar(pc: u64, exec: u64, conv: u64, exited: u64) -> u64 {
    let barrier = CONTEXT.with(|x| x.borrow().as_ref().map(|c| Arc::clone(&c.barrier)));
    let live = !exited as u32;
    let whole = exec as u32 == live && conv as u32 == live;
    let err = with(|c| {
        if whole {
            return Ok(0);
        }
        let inst = &c.prog.insts[pc as usize];
        Err(format!(
            "line {}: not lowered yet: `{}` reached by lanes {:#010x} while the warp's lanes {live:#010x} have not exited (a barrier only part of a warp reaches)",
            inst.line,
            inst_text(&c.prog, inst),
            exec as u32
        ))
    });
    let _ = err;
    if let Some(b) = barrier {
        b.arrive();
    }
    0
}
