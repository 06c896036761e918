//! The run-time side of kernel launches on the JIT: what the generated code
//! calls for the thread-level instructions it does not compute inline,
//! and the context those calls work on.
//!
//! - `ld`/`st` that the inline checks refuse (`memory_ops.rs`): an access
//!   to a module `.global`/`.const` variable, performed here (the
//!   variables are behind a mutex: the threads of a launch share them),
//!   or a faulty access (out of bounds, misaligned, a store to `.param` or
//!   `.const`), for which the first error of the run is recorded, naming
//!   lane, `%tid`, instruction and address, and 0 returned: the code runs
//!   on memory-safely and the launch reports the error.
//! - The directed roundings of `cvt` and float arithmetic, `.ftz`/`.sat`,
//!   `bfe/bfi/prmt/shf` and 16-bit glue: warp-core's scalar semantics.
//!
//! The context is a thread-local ([`enter`] before a thread runs a
//! launch's warps, [`set_warp`] before each warp's call, [`leave`] after),
//! so the calls need no pointer from the generated code and no `unsafe`.
//! With no context (code run outside a launch) every call returns 0. The
//! JIT checks no definedness: that is the reference's job.

use std::cell::RefCell;
use std::sync::{Arc, Mutex};
use warp_core::interp::memory::{resolve, Region};
use warp_core::ir::{LaneOpKind, Op, Program, Space, WARP};
use warp_core::launch::LaunchError;
use warp_core::text::inst_text;
use warp_core::ub::{AccessFault, UbRule};

/// What the run-time calls of one thread running a launch's warps work
/// on.
pub struct LaunchContext {
    /// The kernel's program (instructions by index, for their operands'
    /// types and for messages).
    pub prog: Arc<Program>,
    /// The module's `.global`/`.const` variables (shared by the launch's
    /// threads).
    pub vars: Arc<Mutex<Vec<Region>>>,
    /// Each launch buffer's first address and length (the generated code
    /// accesses them; here only to tell a refused access from a fault).
    pub buffers: Vec<(u64, u64)>,
    /// Bytes of the parameters.
    pub param: u64,
    /// Bytes of the CTA's static shared memory.
    pub shared: u64,
    /// Bytes of the CTA's dynamic shared memory.
    pub dynamic: u64,
    /// Bytes of each thread's local memory.
    pub local: u64,
    /// Each lane's `%tid`, per warp of a CTA.
    pub tids: Vec<[[u32; 3]; WARP]>,
    /// The warp that runs now (an index into `tids`).
    pub warp: usize,
    /// The first error of the warp's run: a faulty access
    /// ([`LaunchError::Fault`], its CTA filled in by the launch) or a bug
    /// of the JIT ([`LaunchError::Engine`]).
    pub error: Option<LaunchError>,
}

thread_local! {
    static CONTEXT: RefCell<Option<LaunchContext>> = const { RefCell::new(None) };
}

/// Makes `c` the context of the warps this thread runs next.
pub fn enter(c: LaunchContext) {
    CONTEXT.with(|x| *x.borrow_mut() = Some(c));
}

/// Ends this thread's launch: its context back.
pub fn leave() -> Option<LaunchContext> {
    CONTEXT.with(|x| x.borrow_mut().take())
}

/// The warp of index `warp` in its CTA runs next on this thread.
pub fn set_warp(warp: usize) {
    CONTEXT.with(|x| {
        if let Some(c) = x.borrow_mut().as_mut() {
            c.warp = warp;
        }
    });
}

/// The first error of the warp that ran last on this thread, taken.
pub fn take_error() -> Option<LaunchError> {
    CONTEXT.with(|x| match x.borrow_mut().as_mut() {
        // (Tested first: the usual answer, none, moves no error.)
        Some(c) if c.error.is_some() => c.error.take(),
        Some(_) | None => None,
    })
}

/// Runs `f` on this thread's context; with none (the code runs outside a
/// launch) nothing happens and the result is 0.
pub(crate) fn with(f: impl FnOnce(&mut LaunchContext) -> Result<u64, LaunchError>) -> u64 {
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

/// A failure of the JIT itself (not of the kernel), said in `m`.
pub(crate) fn bug(m: String) -> LaunchError {
    LaunchError::Engine(m)
}

/// The thread-level instruction at `pc`.
fn lane_op_at(prog: &Program, pc: u64) -> Result<&warp_core::ir::LaneOp, LaunchError> {
    match prog.insts.get(pc as usize).map(|i| &i.op) {
        Some(Op::LaneOp(x)) => Ok(x),
        _ => Err(bug(format!(
            "jit: no thread-level instruction at index {pc}"
        ))),
    }
}

/// A failed access by `lane` at instruction `pc` to `address`, breaking
/// `rule`: `msg` says how. Its CTA is (0,0,0) here: the launch, which
/// knows it, fills it in.
pub(crate) fn fault(
    c: &LaunchContext,
    pc: u64,
    lane: u64,
    rule: UbRule,
    address: u64,
    msg: String,
) -> LaunchError {
    let inst = &c.prog.insts[pc as usize];
    let tid = c
        .tids
        .get(c.warp)
        .map_or([0; 3], |t| t[(lane as usize) % WARP]);
    LaunchError::Fault(AccessFault {
        rule,
        cta: [0; 3],
        warp: c.warp as u32,
        lane: lane as u32,
        tid,
        line: inst.line,
        inst: inst_text(&c.prog, inst),
        address: Some(address),
        message: msg,
    })
}

/// A refused access that the generated code's checks should have taken:
/// a bug of the JIT.
fn missed(addr: u64) -> Result<u64, LaunchError> {
    Err(bug(format!(
        "jit: the inline checks refused a valid access at {addr:#x} (a bug of the JIT's memory lowering)"
    )))
}

/// Element `k` of the `ld` (`store` `None`) or `st` (`Some(value)`) at
/// `pc` for one lane, at `base + k * size`, that the generated code's
/// checks refused: a load's value from a module variable, zero- or
/// sign-extended from the memory type to 64 bits; 0 for a store; the
/// error otherwise (in the order of the checks of `interp/memory.rs`:
/// alignment, bounds, read-only).
fn access(
    c: &mut LaunchContext,
    pc: u64,
    lane: u64,
    base: u64,
    k: u64,
    store: Option<u64>,
) -> Result<u64, LaunchError> {
    let x = lane_op_at(&c.prog, pc)?;
    let (space, ty, n) = match (x.kind, store) {
        (LaneOpKind::Ld(s), None) => (s, x.dests[0].1, x.dests.len()),
        (LaneOpKind::St(s), Some(_)) => (s, x.srcs[0].1, x.srcs.len()),
        _ => return Err(bug(format!("jit: a memory call at `{}`", x.opcode))),
    };
    let size = (ty.bits() as u64).div_ceil(8);
    let fail = |rule, at, m: String| Err(fault(c, pc, lane, rule, at, m));
    // A vector must be aligned to its whole size.
    if n > 1 && !base.is_multiple_of(size * n as u64) {
        return fail(
            UbRule::MemoryMisaligned,
            base,
            format!(
                "address {base:#x} is not aligned to the vector's size ({} bytes)",
                size * n as u64
            ),
        );
    }
    let addr = base.wrapping_add(k * size);
    if !addr.is_multiple_of(size) {
        return fail(
            UbRule::MemoryMisaligned,
            addr,
            format!("address {addr:#x} is not aligned to the access size ({size} bytes)"),
        );
    }
    let (space, a) = resolve(space, addr);
    let fits = |len: u64, a: u64| a.checked_add(size).is_some_and(|e| e <= len);
    let oob = |what: &str| {
        fail(
            UbRule::MemoryOutOfBounds,
            addr,
            format!("address {addr:#x} ({size} bytes) is outside {what}"),
        )
    };
    let read_only = || {
        fail(
            UbRule::MemoryReadOnly,
            addr,
            format!("a store to read-only memory at {addr:#x}"),
        )
    };
    match space {
        Space::Global => {
            let vars = Arc::clone(&c.vars);
            let mut vars = vars
                .lock()
                .map_err(|_| bug("jit: module variables' lock poisoned".to_string()))?;
            if let Some(r) = vars
                .iter_mut()
                .find(|r| a >= r.base && fits(r.bytes.len() as u64, a - r.base))
            {
                let off = (a - r.base) as usize;
                return match store {
                    Some(_) if r.is_read_only() => read_only(),
                    Some(value) => {
                        for i in 0..size as usize {
                            r.bytes[off + i] = (value >> (8 * i)) as u8;
                        }
                        Ok(0)
                    }
                    None => {
                        let mut v = 0u64;
                        for i in 0..size as usize {
                            v |= (r.bytes[off + i] as u64) << (8 * i);
                        }
                        let bits = ty.bits();
                        if ty.is_signed() && bits < 64 && v >> (bits - 1) & 1 == 1 {
                            v |= !((1u64 << bits) - 1);
                        }
                        Ok(v)
                    }
                };
            }
            if c.buffers.iter().any(|&(b, len)| a >= b && fits(len, a - b)) {
                return missed(addr);
            }
            oob("every buffer and .global/.const variable")
        }
        Space::Shared => {
            let dynamic = a.wrapping_sub(warp_core::ir::windows::DYNAMIC_SHARED);
            if fits(c.shared, a) || fits(c.dynamic, dynamic) {
                return missed(addr);
            }
            oob(&format!(
                "the CTA's {} bytes of shared memory and {} of dynamic shared memory",
                c.shared, c.dynamic
            ))
        }
        Space::Param if fits(c.param, a) => match store {
            Some(_) => read_only(),
            None => missed(addr),
        },
        Space::Param => oob("the kernel's parameters"),
        Space::Local if fits(c.local, a) => missed(addr),
        Space::Local => oob("the thread's local memory"),
        Space::Generic | Space::Const => unreachable!("mapped by resolve"),
    }
}

/// Element `k` of an `ld` for one lane (at `base + k * size`) that the
/// generated code's checks refused: the value (zero- or sign-extended
/// from the memory type to 64 bits), or 0 with the error recorded.
pub extern "C" fn host_ld(pc: u64, lane: u64, base: u64, k: u64) -> u64 {
    with(|c| access(c, pc, lane, base, k, None))
}

/// Element `k` of an `st` for one lane (at `base + k * size`) that the
/// generated code's checks refused.
pub extern "C" fn host_st(pc: u64, lane: u64, base: u64, value: u64, k: u64) -> u64 {
    with(|c| access(c, pc, lane, base, k, Some(value)))
}

/// A computing thread-level instruction the code does not lower inline
/// (directed roundings, `.ftz`, `.sat`, narrow conversions,
/// `bfe`/`bfi`/`prmt`/`shf`): warp-core's scalar semantics
/// ([`warp_core::interp::lane_ops::eval`]); an unspecified result (a
/// `bfe`/`bfi` position or length past 255) is 0, a value the comparison
/// never looks at, since the reference has that lane undefined.
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
        _ => Err(bug(format!("jit: no glue instruction at index {pc}"))),
    })
}
