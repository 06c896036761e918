//! The run-time side of `atom`/`red` on the JIT (issue #37): what the
//! generated code's inline checks refused (`atomic.rs`) — an atomic on a
//! module `.global` variable, performed under the variables' mutex, or a
//! fault naming lane, `%tid`, instruction and address. Its own file so
//! that the run time (`runtime.rs`) does not import the lowering.

use super::runtime::{self, LaunchContext};
use std::sync::Arc;
use warp_core::interp::memory::resolve;
use warp_core::ir::{windows, LaneOpKind, Space};
use warp_core::launch::LaunchError;
use warp_core::ub::UbRule;

/// An `atom`/`red` for one lane at `addr` that the generated code's
/// checks refused: the old value, or 0 with the error recorded.
pub extern "C" fn host_atom(pc: u64, lane: u64, addr: u64, b: u64, c3: u64) -> u64 {
    runtime::with(|c| host(c, pc, lane, addr, b, c3))
}

/// The run-time side of an atomic the inline checks refused: performed
/// on a module `.global` variable (under the variables' mutex, so atomic
/// with every other access to them), or the fault, in the order of
/// `interp/memory.rs`'s checks (alignment, bounds, space, read-only). The
/// old value, zero-extended.
fn host(
    c: &mut LaunchContext,
    pc: u64,
    lane: u64,
    addr: u64,
    b: u64,
    cv: u64,
) -> Result<u64, LaunchError> {
    let bug = runtime::bug;
    let prog = Arc::clone(&c.prog);
    let x = match prog.insts.get(pc as usize).map(|i| &i.op) {
        Some(warp_core::ir::Op::LaneOp(x)) => x,
        _ => return Err(bug(format!("jit: no atomic at index {pc}"))),
    };
    let LaneOpKind::Atom(a) = x.kind else {
        return Err(bug(format!("jit: an atomic call at `{}`", x.opcode)));
    };
    let ty = x.srcs[0].1;
    let size = (ty.bits() / 8) as u64;
    let fail = |c: &LaunchContext, rule, m: String| Err(runtime::fault(c, pc, lane, rule, addr, m));
    if !addr.is_multiple_of(size) {
        return fail(
            c,
            UbRule::MemoryMisaligned,
            format!("address {addr:#x} is not aligned to the access size ({size} bytes)"),
        );
    }
    let (space, at) = resolve(a.space.space(), addr);
    let fits = |len: u64, a: u64| a.checked_add(size).is_some_and(|e| e <= len);
    let oob = |what: &str| format!("address {addr:#x} ({size} bytes) is outside {what}");
    let missed = || {
        Err(bug(format!(
            "jit: the inline checks refused a valid atomic at {addr:#x} (a bug of the JIT's lowering)"
        )))
    };
    match space {
        Space::Global => {
            let vars = Arc::clone(&c.vars);
            let mut vars = vars
                .lock()
                .map_err(|_| bug("jit: module variables' lock poisoned".to_string()))?;
            if let Some(r) = vars
                .iter_mut()
                .find(|r| at >= r.base && fits(r.bytes.len() as u64, at - r.base))
            {
                if r.is_read_only() {
                    return fail(
                        c,
                        UbRule::MemoryReadOnly,
                        format!("an atomic on read-only `{}` at {addr:#x}", r.name),
                    );
                }
                let off = (at - r.base) as usize;
                let mut old = 0u64;
                for i in 0..size as usize {
                    old |= (r.bytes[off + i] as u64) << (8 * i);
                }
                let new = warp_core::interp::atomic_eval(a.op, ty, old, b, cv, true).unwrap_or(0);
                for i in 0..size as usize {
                    r.bytes[off + i] = (new >> (8 * i)) as u8;
                }
                return Ok(old);
            }
            if c.buffers.iter().any(|&(base, len)| at >= base && fits(len, at - base)) {
                return missed();
            }
            fail(
                c,
                UbRule::MemoryOutOfBounds,
                oob("every buffer and .global/.const variable"),
            )
        }
        Space::Shared => {
            let dynamic = at.wrapping_sub(windows::DYNAMIC_SHARED);
            if fits(c.shared, at) || fits(c.dynamic, dynamic) {
                return missed();
            }
            let m = oob(&format!(
                "the CTA's {} bytes of shared memory and {} of dynamic shared memory",
                c.shared, c.dynamic
            ));
            fail(c, UbRule::MemoryOutOfBounds, m)
        }
        Space::Local | Space::Param => fail(
            c,
            UbRule::MemoryOutOfBounds,
            format!(
                "address {addr:#x} is in .local or .param memory: atomics act on .global and .shared memory only"
            ),
        ),
        Space::Generic | Space::Const => unreachable!("mapped by resolve"),
    }
}
