//! Memory for PTX modules' kernels: the launch's global buffers, module
//! variables, each CTA's shared space, each thread's local space and the
//! kernel's parameters, byte by byte with their definedness; and `ld`,
//! `st` and `cvta`.
//!
//! - Addresses: see [`windows`]. A `.global`/generic access must fall
//!   wholly inside one buffer or variable, a `.shared`/`.local`/`.param`
//!   one inside its space; else it is undefined behaviour
//!   `memory-out-of-bounds`, naming lane, instruction and address. An
//!   access not aligned to its size is `memory-misaligned` (ISA, "Addresses
//!   as Operands": "the address must be naturally aligned to a multiple of
//!   the access size"), a store to `.param`/`.const` `memory-read-only`,
//!   an address with undefined bits `memory-undefined-address`.
//! - Definedness: launch buffers are defined where the launch gave bytes;
//!   `.global`/`.const` variables are zero-initialised unless initialised;
//!   shared and local memory start undefined. A load reads the defined
//!   bits of the bytes it reads; a store writes the defined bits it has.
//! - Races: PTX's memory model makes conflicting accesses that no
//!   synchronisation orders a *data race*, with undefined values. The
//!   interpreter runs warps one after another between barriers, so it
//!   checks: an access to a byte that another warp of the CTA wrote (or,
//!   for a write, accessed) since the last `bar.sync`, or that another CTA
//!   wrote (or accessed, for a write) at all, is undefined behaviour
//!   `memory-race`. Lanes of one warp are ordered by the interpreter's
//!   min-PC schedule and not checked against each other, except lanes of
//!   one `st` writing one byte with different values, which leave it
//!   undefined.

use super::bits::Val;
use super::{lanes, Step, Warp};
use crate::ir::{windows, Address, Operand, Space, Thread, ThreadKind, Type};
use crate::text::inst_text;
use crate::ub::{Ub, UbRule};

/// Who accessed a byte: CTA (+1, 0 = nobody), warp in the CTA, barrier
/// epoch of that CTA.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
struct Tag {
    cta: u32,
    warp: u32,
    epoch: u32,
}

impl Tag {
    /// Whether an access by `other` conflicts with this earlier one.
    fn conflicts(self, other: Tag) -> bool {
        self.cta != 0
            && (self.cta != other.cta || (self.warp != other.warp && self.epoch == other.epoch))
    }
}

/// A block of bytes with their definedness and access tags.
#[derive(Clone, Debug)]
pub struct Region {
    /// Its name (a buffer's or variable's) for diagnostics and output.
    pub name: String,
    /// Its first address in its space.
    pub base: u64,
    /// The bytes.
    pub bytes: Vec<u8>,
    /// Per byte, whether it is defined.
    pub defined: Vec<bool>,
    /// Stores are refused (`.const`).
    read_only: bool,
    writer: Vec<Tag>,
    reader: Vec<Tag>,
    reader2: Vec<Tag>,
}

impl Region {
    /// A region of `bytes`, defined where `defined` says.
    pub fn new(name: &str, base: u64, bytes: Vec<u8>, defined: Vec<bool>) -> Region {
        let n = bytes.len();
        Region {
            name: name.to_string(),
            base,
            bytes,
            defined,
            read_only: false,
            writer: vec![Tag::default(); n],
            reader: vec![Tag::default(); n],
            reader2: vec![Tag::default(); n],
        }
    }

    /// The same region, refusing stores (`.const`).
    pub fn read_only(mut self) -> Region {
        self.read_only = true;
        self
    }

    /// Whether stores are refused (`.const`).
    pub fn is_read_only(&self) -> bool {
        self.read_only
    }

    /// `n` undefined bytes.
    pub fn undefined(name: &str, base: u64, n: u64) -> Region {
        Region::new(name, base, vec![0; n as usize], vec![false; n as usize])
    }

    fn contains(&self, addr: u64, size: u64) -> bool {
        addr >= self.base && addr - self.base + size <= self.bytes.len() as u64
    }
}

/// The memory one CTA's warps see.
#[derive(Clone, Debug, Default)]
pub struct Memory {
    /// Launch buffers and module `.global`/`.const` variables, at their
    /// generic addresses.
    pub globals: Vec<Region>,
    /// The CTA's shared space (offset 0 up).
    pub shared: Option<Region>,
    /// The CTA's dynamic shared memory (at
    /// [`windows::DYNAMIC_SHARED`] in the shared space).
    pub dynamic: Option<Region>,
    /// The kernel's parameters (offset 0 up).
    pub param: Option<Region>,
}

impl Memory {
    /// Fresh, undefined shared memory for the next CTA: `size` bytes of
    /// static variables and `dynamic` bytes of dynamic shared memory (at
    /// [`windows::DYNAMIC_SHARED`]).
    pub fn next_cta(&mut self, size: u64, dynamic: u32) {
        self.shared = (size > 0).then(|| Region::undefined("shared", 0, size));
        self.dynamic = (dynamic > 0)
            .then(|| Region::undefined("dynamic shared", windows::DYNAMIC_SHARED, dynamic as u64));
    }
}

/// What a kernel's warp knows besides its registers: its place in the
/// launch, the memory (moved in while the warp runs), and its threads'
/// local spaces.
#[derive(Clone, Debug)]
pub struct Ctx {
    /// The memory.
    pub mem: Memory,
    /// Each lane's local space.
    pub local: Vec<Region>,
    /// Where the warp stands: its special registers.
    pub place: super::thread::WarpPlace,
    /// The CTA's linear index.
    pub cta: u32,
    /// Barriers the CTA has completed.
    pub epoch: u32,
}

/// Where an access goes.
enum Place {
    Global(usize),
    Shared,
    Dynamic,
    Param,
    Local,
}

/// A failed access: the rule and the message's tail.
type Fault = (UbRule, String);

/// The space an access to `addr` in `space` really goes to, and the
/// address there: a generic address in the shared or local window is an
/// offset in that space, any other generic (or `.const`) address a
/// global one (buffers and variables sit at their generic addresses).
pub fn resolve(space: Space, addr: u64) -> (Space, u64) {
    let in_window = |base: u64| addr >= base && addr - base < windows::WINDOW;
    match space {
        Space::Generic if in_window(windows::SHARED) => (Space::Shared, addr - windows::SHARED),
        Space::Generic if in_window(windows::LOCAL) => (Space::Local, addr - windows::LOCAL),
        Space::Generic | Space::Const => (Space::Global, addr),
        s => (s, addr),
    }
}

fn locate(
    ctx: &Ctx,
    space: Space,
    addr: u64,
    size: u64,
    lane: usize,
) -> Result<(Place, u64), Fault> {
    let oob = |what: &str| {
        Err((
            UbRule::MemoryOutOfBounds,
            format!("address {addr:#x} ({size} bytes) is outside {what}"),
        ))
    };
    let (space, addr) = resolve(space, addr);
    match space {
        Space::Global => match ctx.mem.globals.iter().position(|r| r.contains(addr, size)) {
            Some(i) => Ok((Place::Global(i), addr - ctx.mem.globals[i].base)),
            None => oob("every buffer and .global/.const variable"),
        },
        Space::Shared => match (&ctx.mem.shared, &ctx.mem.dynamic) {
            (Some(r), _) if r.contains(addr, size) => Ok((Place::Shared, addr)),
            (_, Some(d)) if d.contains(addr, size) => Ok((Place::Dynamic, addr - d.base)),
            (s, d) => oob(&format!(
                "the CTA's {} bytes of shared memory and {} of dynamic shared memory",
                s.as_ref().map_or(0, |r| r.bytes.len()),
                d.as_ref().map_or(0, |r| r.bytes.len())
            )),
        },
        Space::Param => match &ctx.mem.param {
            Some(r) if r.contains(addr, size) => Ok((Place::Param, addr)),
            _ => oob("the kernel's parameters"),
        },
        Space::Local => match ctx.local.get(lane) {
            Some(r) if r.contains(addr, size) => Ok((Place::Local, addr)),
            _ => oob("the thread's local memory"),
        },
        Space::Generic | Space::Const => unreachable!("mapped above"),
    }
}

fn region<'a>(ctx: &'a mut Ctx, place: &Place, lane: usize) -> &'a mut Region {
    match place {
        Place::Global(i) => &mut ctx.mem.globals[*i],
        Place::Shared => ctx.mem.shared.as_mut().expect("located"),
        Place::Dynamic => ctx.mem.dynamic.as_mut().expect("located"),
        Place::Param => ctx.mem.param.as_mut().expect("located"),
        Place::Local => &mut ctx.local[lane],
    }
}

/// Reads (or, with `write`, checks a write of) `size` bytes at `addr` of
/// `space` for `lane`: the place and offset, or why not.
fn access(
    ctx: &mut Ctx,
    space: Space,
    addr: u64,
    size: u64,
    lane: usize,
    write: bool,
) -> Result<(Place, u64), Fault> {
    if !addr.is_multiple_of(size) {
        return Err((
            UbRule::MemoryMisaligned,
            format!("address {addr:#x} is not aligned to the access size ({size} bytes)"),
        ));
    }
    let (place, off) = locate(ctx, space, addr, size, lane)?;
    let me = Tag {
        cta: ctx.cta + 1,
        warp: ctx.place.warp,
        epoch: ctx.epoch,
    };
    let shared_by_all = !matches!(place, Place::Local | Place::Param);
    let r = region(ctx, &place, lane);
    if write && (r.read_only || matches!(place, Place::Param)) {
        return Err((
            UbRule::MemoryReadOnly,
            format!("a store to read-only `{}` at {addr:#x}", r.name),
        ));
    }
    if shared_by_all {
        for i in off as usize..(off + size) as usize {
            let racy = r.writer[i].conflicts(me)
                || (write && (r.reader[i].conflicts(me) || r.reader2[i].conflicts(me)));
            if racy {
                return Err((
                    UbRule::MemoryRace,
                    format!(
                        "a data race on `{}` at {:#x}: another {} accessed it with no barrier between",
                        r.name,
                        r.base + i as u64,
                        if r.writer[i].cta != me.cta && r.writer[i].cta != 0 { "CTA" } else { "warp" }
                    ),
                ));
            }
            if write {
                r.writer[i] = me;
            } else if r.reader[i].cta == 0
                || (r.reader[i].cta == me.cta && r.reader[i].warp == me.warp)
            {
                r.reader[i] = me;
            } else {
                r.reader2[i] = me;
            }
        }
    }
    Ok((place, off))
}

/// The address operand's value on `lane`, or why it has none.
fn address(w: &Warp, a: Address, lane: usize) -> Result<u64, Fault> {
    let Some(base) = a.base else {
        return Ok(a.offset as u64);
    };
    let ty = w.prog().decl(base).ty;
    let v = w.read(Operand::Reg(base), lane);
    if v.d & ty.mask() != ty.mask() {
        return Err((
            UbRule::MemoryUndefinedAddress,
            format!("the address in `{}` is undefined", w.prog().decl(base).name),
        ));
    }
    Ok((v.v & ty.mask()).wrapping_add(a.offset as u64))
}

/// Executes `ld`, `st` or `cvta` on the lanes of `s.exec`.
pub(crate) fn exec(w: &mut Warp, s: &Step, x: &Thread) -> Result<(), Ub> {
    let fail = |w: &Warp, lane: usize, (rule, msg): Fault| {
        let tid = w.kernel.as_ref().map_or([0; 3], |k| k.place.tid[lane]);
        Ub::new(
            rule,
            s.inst,
            1 << lane,
            format!(
                "lane {lane} (%tid ({},{},{})), `{}`: {msg}",
                tid[0],
                tid[1],
                tid[2],
                inst_text(w.prog(), s.inst)
            ),
        )
    };
    match x.kind {
        ThreadKind::Ld(space) => {
            let ty = x.dests[0].1;
            let size = (ty.bits() as u64).div_ceil(8);
            let n = x.dests.len() as u64;
            let mut results = vec![Vec::new(); x.dests.len()];
            for l in lanes(s.exec) {
                let base =
                    address(w, x.addr.expect("ld has an address"), l).map_err(|f| fail(w, l, f))?;
                vector_aligned(base, size, n).map_err(|f| fail(w, l, f))?;
                for (k, out) in results.iter_mut().enumerate() {
                    let addr = base.wrapping_add(k as u64 * size);
                    let ctx = w.kernel.as_mut().expect("a kernel");
                    let (place, off) =
                        access(ctx, space, addr, size, l, false).map_err(|f| fail(w, l, f))?;
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
        ThreadKind::St(space) => {
            let ty = x.srcs[0].1;
            let size = (ty.bits() as u64).div_ceil(8);
            let n = x.srcs.len() as u64;
            // (owner, address) → byte written by this instruction.
            let mut written: Vec<((u64, u64), u8, bool)> = Vec::new();
            for l in lanes(s.exec) {
                let base =
                    address(w, x.addr.expect("st has an address"), l).map_err(|f| fail(w, l, f))?;
                vector_aligned(base, size, n).map_err(|f| fail(w, l, f))?;
                for (k, &(a, _)) in x.srcs.iter().enumerate() {
                    let addr = base.wrapping_add(k as u64 * size);
                    let val = w.read(a, l);
                    let ctx = w.kernel.as_mut().expect("a kernel");
                    let (place, off) = match access(ctx, space, addr, size, l, true) {
                        Ok(x) => x,
                        Err(f) => return Err(fail(w, l, f)),
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
        ThreadKind::Cvta { space, to } => {
            let (d, ty) = x.dests[0];
            let (a, _) = x.srcs[0];
            let base = match space {
                Space::Shared => windows::SHARED,
                Space::Local => windows::LOCAL,
                Space::Global | Space::Const | Space::Param | Space::Generic => 0,
            };
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
        ThreadKind::Special(_)
        | ThreadKind::Cvt { .. }
        | ThreadKind::Int(_)
        | ThreadKind::Float { .. }
        | ThreadKind::FSetp(_)
        | ThreadKind::Pack
        | ThreadKind::Unpack
        | ThreadKind::Bar => unreachable!("memory::exec runs ld, st and cvta"),
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
fn extend(v: Val, ty: Type) -> Val {
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
