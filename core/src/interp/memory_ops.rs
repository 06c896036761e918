//! `ld`, `st` and `cvta` on the warp's lanes: each lane's address from its
//! operand, vector alignment, the access through [`memory`](super::memory)'s
//! rules (bounds, alignment, read-only spaces, races), and loaded values
//! zero- or sign-extended to their register.

use super::bits::Val;
use super::lanes::lanes;
use super::memory::{access, access_wild, region, Fault, Place};
use super::warp::{Step, Warp};
use crate::ir::{windows, Address, LaneOp, LaneOpKind, Operand, Type};
use crate::text::inst_text;
use crate::ub::{access_message, AccessFault, Ub, UbRule};

/// The address operand's value on `lane`, or why it has none; `true`
/// with it when its bits are undefined and taken as this run has them
/// (after an atomic returned an order-dependent value: `atomic.rs`), the
/// access then going through `memory.rs`'s `access_wild`.
pub(super) fn address(w: &Warp, a: Address, lane: usize) -> Result<(u64, bool), Fault> {
    let Some(base) = a.base else {
        return Ok((a.offset as u64, false));
    };
    let ty = w.prog().decl(base).ty;
    let v = w.read(Operand::Reg(base), lane);
    let wild = w
        .kernel
        .as_ref()
        .is_some_and(|k| k.mem.atomics.schedule_dependent());
    if v.d & ty.mask() != ty.mask() && wild {
        return Ok(((v.v & ty.mask()).wrapping_add(a.offset as u64), true));
    }
    if v.d & ty.mask() != ty.mask() {
        return Err((
            UbRule::MemoryUndefinedAddress,
            format!("the address in `{}` is undefined", w.prog().decl(base).name),
        ));
    }
    Ok(((v.v & ty.mask()).wrapping_add(a.offset as u64), false))
}

/// The diagnostic of a faulty access by `lane` at `s`'s instruction to
/// `addr` (`None`: an undefined address): `(rule, msg)` with the lane, its
/// `%tid` and the instruction named, and in a kernel launch where it
/// happened ([`AccessFault`]).
pub(super) fn fail(w: &Warp, s: &Step, lane: usize, addr: Option<u64>, (rule, msg): Fault) -> Ub {
    let tid = w.kernel.as_ref().map_or([0; 3], |k| k.place.tid[lane]);
    let inst = inst_text(w.prog(), s.inst);
    let ub = Ub::new(
        rule,
        s.inst,
        1 << lane,
        access_message(lane, tid, &inst, &msg),
    );
    match &w.kernel {
        Some(k) => ub.with_fault(AccessFault {
            rule,
            cta: k.place.ctaid,
            warp: k.place.warp,
            lane: lane as u32,
            tid,
            line: s.inst.line,
            inst,
            address: addr,
            message: msg,
        }),
        None => ub,
    }
}

/// Executes `ld`, `st` or `cvta` on the lanes of `s.exec`.
pub(crate) fn exec(w: &mut Warp, s: &Step, x: &LaneOp) -> Result<(), Ub> {
    let fail = |w: &Warp, lane: usize, addr: Option<u64>, f: Fault| fail(w, s, lane, addr, f);
    match x.kind {
        LaneOpKind::Ld(space) => {
            let ty = x.dests[0].1;
            let size = (ty.bits() as u64).div_ceil(8);
            let n = x.dests.len() as u64;
            let mut results = vec![Vec::new(); x.dests.len()];
            for l in lanes(s.exec) {
                let (base, wild) = address(w, x.addr.expect("ld has an address"), l)
                    .map_err(|f| fail(w, l, None, f))?;
                if !wild {
                    vector_aligned(base, size, n).map_err(|f| fail(w, l, Some(base), f))?;
                }
                for (k, out) in results.iter_mut().enumerate() {
                    let addr = base.wrapping_add(k as u64 * size);
                    let ctx = w.kernel.as_mut().expect("a kernel");
                    if wild {
                        access_wild(ctx, space, addr, size, l, false)
                            .map_err(|f| fail(w, l, Some(addr), f))?;
                        out.push((l, extend(Val::unknown(), ty)));
                        continue;
                    }
                    let (place, off) = access(ctx, space, addr, size, l, false)
                        .map_err(|f| fail(w, l, Some(addr), f))?;
                    let r = region(w.kernel.as_mut().expect("a kernel"), &place, l);
                    let (mut v, mut def) = (0u64, 0u64);
                    for i in 0..size as usize {
                        v |= (r.bytes[off as usize + i] as u64) << (8 * i);
                        if r.defined[off as usize + i] {
                            def |= 0xff << (8 * i);
                        }
                    }
                    out.push((l, extend(Val { v, d: def }, ty)));
                }
            }
            for (k, r) in results.iter().enumerate() {
                w.write_all(x.dests[k].0, r);
            }
            Ok(())
        }
        LaneOpKind::St(space) => {
            let ty = x.srcs[0].1;
            let size = (ty.bits() as u64).div_ceil(8);
            let n = x.srcs.len() as u64;
            // (owner, address) → byte written by this instruction.
            let mut written: Vec<((u64, u64), u8, bool)> = Vec::new();
            for l in lanes(s.exec) {
                let (base, wild) = address(w, x.addr.expect("st has an address"), l)
                    .map_err(|f| fail(w, l, None, f))?;
                if !wild {
                    vector_aligned(base, size, n).map_err(|f| fail(w, l, Some(base), f))?;
                }
                for (k, &(a, _)) in x.srcs.iter().enumerate() {
                    let addr = base.wrapping_add(k as u64 * size);
                    let val = w.read(a, l);
                    let ctx = w.kernel.as_mut().expect("a kernel");
                    if wild {
                        access_wild(ctx, space, addr, size, l, true)
                            .map_err(|f| fail(w, l, Some(addr), f))?;
                        continue;
                    }
                    let (place, off) = match access(ctx, space, addr, size, l, true) {
                        Ok(x) => x,
                        Err(f) => return Err(fail(w, l, Some(addr), f)),
                    };
                    let r = region(w.kernel.as_mut().expect("a kernel"), &place, l);
                    for i in 0..size as usize {
                        let byte = (val.v >> (8 * i)) as u8;
                        let def = (val.d >> (8 * i)) & 0xff == 0xff;
                        // Lanes' local spaces are their own: a byte is one
                        // lane's there, shared by every lane elsewhere.
                        let owner = match place {
                            Place::Local => l as u64 + 1,
                            Place::Global(_) | Place::Shared | Place::Dynamic | Place::Param => 0,
                        };
                        let key = (owner, r.base.wrapping_add(off + i as u64));
                        let clash = written.iter().any(|&(k, b, _)| k == key && b != byte);
                        written.push((key, byte, def));
                        r.bytes[off as usize + i] = byte;
                        r.defined[off as usize + i] = def && !clash;
                    }
                }
            }
            Ok(())
        }
        LaneOpKind::Cvta { space, to } => {
            let (d, ty) = x.dests[0];
            let (a, _) = x.srcs[0];
            let base = windows::base(space);
            let mut results = Vec::new();
            for l in lanes(s.exec) {
                let v = w.read(a, l);
                let r = if to {
                    v.v.wrapping_sub(base)
                } else {
                    v.v.wrapping_add(base)
                };
                // The carry into the upper bits depends on every bit below.
                let full = v.d & ty.mask() == ty.mask();
                results.push((
                    l,
                    if full {
                        Val::known(r & ty.mask())
                    } else {
                        Val::unknown()
                    },
                ));
            }
            w.write_all(d, &results);
            Ok(())
        }
        LaneOpKind::Special(_)
        | LaneOpKind::Cvt { .. }
        | LaneOpKind::Int(_)
        | LaneOpKind::Float { .. }
        | LaneOpKind::FSetp(_)
        | LaneOpKind::Pack
        | LaneOpKind::Unpack
        | LaneOpKind::Bar
        | LaneOpKind::Atom(_)
        | LaneOpKind::Fence(_) => unreachable!("memory::exec runs ld, st and cvta"),
    }
}

/// A `.v2`/`.v4` access must be aligned to the whole vector's size.
fn vector_aligned(addr: u64, size: u64, n: u64) -> Result<(), Fault> {
    if n > 1 && !addr.is_multiple_of(size * n) {
        return Err((
            UbRule::MemoryMisaligned,
            format!(
                "address {addr:#x} is not aligned to the vector's size ({} bytes)",
                size * n
            ),
        ));
    }
    Ok(())
}

/// A loaded `ty` value as its register holds it: zero- or sign-extended.
pub(super) fn extend(v: Val, ty: Type) -> Val {
    let bits = ty.bits();
    if bits >= 64 {
        return v;
    }
    if !ty.is_signed() {
        // Zero-extended: the upper bits are known zeros.
        return Val {
            v: v.v,
            d: v.d | !((1u64 << bits) - 1),
        };
    }
    let sign = 1u64 << (bits - 1);
    let hi = !((1u64 << bits) - 1);
    let mut out = v;
    if v.v & sign != 0 {
        out.v |= hi;
    }
    if v.d & sign != 0 {
        out.d |= hi;
    } else {
        out.d &= !hi;
    }
    out
}
