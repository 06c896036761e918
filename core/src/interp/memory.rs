//! Memory for PTX modules' kernels: the launch's global buffers, module
//! variables, each CTA's shared space, each thread's local space and the
//! kernel's parameters, byte by byte with their definedness, and the rules
//! of an access (the instructions `ld`, `st` and `cvta` that make them are
//! `memory_ops.rs`).
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
//! - Atomics (`atom`, `red`) keep their own log (`atomic.rs`): a plain
//!   access to a byte an atomic of another warp or CTA touched with no
//!   barrier between (or of another CTA at all) is a `memory-race` too,
//!   and so is an atomic on a byte another warp's or CTA's plain access
//!   touched (`access_atomic`).
//! - An address with undefined bits after an atomic returned an
//!   order-dependent value may be any of its region's (`access_wild`): a
//!   store through it leaves the whole region undefined.

use super::atomic_log::{Key, Log};
use super::place::WarpPlace;
use super::tag::Tag;
use crate::ir::{windows, Space};
use crate::ub::UbRule;

/// The access tag of the warp `ctx` runs.
pub(super) fn tag_of(ctx: &Ctx) -> Tag {
    Tag {
        cta: ctx.cta + 1,
        warp: ctx.place.warp,
        epoch: ctx.epoch,
    }
}

/// The location of `off` in `place` ([`Place::Local`]/[`Place::Param`] are
/// never atomic).
pub(super) fn atomic_key(ctx: &Ctx, place: &Place, off: u64) -> Key {
    match place {
        Place::Global(i) => (0, ctx.mem.globals[*i].base + off),
        Place::Shared => (ctx.cta + 1, off),
        Place::Dynamic => (ctx.cta + 1, windows::DYNAMIC_SHARED + off),
        Place::Param | Place::Local => (u32::MAX, off),
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
    /// What atomics did (`atomic.rs`): empty for kernels without any.
    pub atomics: Log,
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
    pub place: WarpPlace,
    /// The CTA's linear index.
    pub cta: u32,
    /// Barriers the CTA has completed.
    pub epoch: u32,
}

/// Where an access goes.
pub(crate) enum Place {
    Global(usize),
    Shared,
    Dynamic,
    Param,
    Local,
}

/// A failed access: the rule and the message's tail.
pub(crate) type Fault = (UbRule, String);

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

/// The place and offset of an access of `size` bytes at `addr` of
/// `space` by `lane`, or why it is out of bounds.
pub(crate) fn locate(
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

/// The region `place` names, for `lane` (its own local space).
pub(super) fn region<'a>(ctx: &'a mut Ctx, place: &Place, lane: usize) -> &'a mut Region {
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
pub(super) fn access(
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
    let me = tag_of(ctx);
    let shared_by_all = !matches!(place, Place::Local | Place::Param);
    if shared_by_all && !ctx.mem.atomics.is_empty() {
        let key = atomic_key(ctx, &place, off);
        ctx.mem.atomics.check_plain(key, size, me)?;
    }
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

/// An `ld`/`st` by `lane` of `size` bytes at `addr` of `space` whose
/// address has undefined bits taken as this run has them (after an atomic
/// returned an order-dependent value: `atomic.rs`, "Addresses from
/// contested values"). Another order computes another address, which C's
/// rule that pointer arithmetic stays inside one array object puts in the
/// same region (buffer, variable or space) as this run's: the access may
/// touch any bytes of that region. So it is checked for bounds (this run's
/// address, aligned down to the access size, in some region) and, for a
/// store, a read-only region, but not for races (another order touches
/// other bytes), and records no access; a store leaves every byte of the
/// region undefined ([`Region::defined`]), a load reads undefined bytes.
pub(super) fn access_wild(
    ctx: &mut Ctx,
    space: Space,
    addr: u64,
    size: u64,
    lane: usize,
    write: bool,
) -> Result<(), Fault> {
    let (place, _) = locate(ctx, space, addr - addr % size, size, lane)?;
    let r = region(ctx, &place, lane);
    if write && (r.read_only || matches!(place, Place::Param)) {
        return Err((
            UbRule::MemoryReadOnly,
            format!("a store to read-only `{}` at {addr:#x}", r.name),
        ));
    }
    if write {
        r.defined.iter_mut().for_each(|d| *d = false);
    }
    Ok(())
}

/// Checks an atomic's access to `size` bytes at `addr` of `space` for
/// `lane` (`atomic.rs` records it in its own log): aligned ("the address
/// must be naturally aligned to a multiple of the access size"), inside
/// `.global` or `.shared` memory ("atom with scalar type may be used only
/// with .global and .shared spaces and with generic addressing, where the
/// address points to .global or .shared space"; else
/// `memory-out-of-bounds`), not read-only, and no plain access of another
/// warp or CTA to its bytes unordered with it (`memory-race`).
pub(super) fn access_atomic(
    ctx: &mut Ctx,
    space: Space,
    addr: u64,
    size: u64,
    lane: usize,
) -> Result<(Place, u64), Fault> {
    if !addr.is_multiple_of(size) {
        return Err((
            UbRule::MemoryMisaligned,
            format!("address {addr:#x} is not aligned to the access size ({size} bytes)"),
        ));
    }
    let (place, off) = locate(ctx, space, addr, size, lane)?;
    if matches!(place, Place::Local | Place::Param) {
        return Err((
            UbRule::MemoryOutOfBounds,
            format!(
                "address {addr:#x} is in .local or .param memory: atomics act on .global and .shared memory only"
            ),
        ));
    }
    let me = tag_of(ctx);
    let r = region(ctx, &place, lane);
    if r.read_only {
        return Err((
            UbRule::MemoryReadOnly,
            format!("an atomic on read-only `{}` at {addr:#x}", r.name),
        ));
    }
    for i in off as usize..(off + size) as usize {
        if r.writer[i].conflicts(me) || r.reader[i].conflicts(me) || r.reader2[i].conflicts(me) {
            return Err((
                UbRule::MemoryRace,
                format!(
                    "a data race on `{}` at {:#x}: an atomic, and a plain access of another warp or CTA with no barrier between",
                    r.name,
                    r.base + i as u64
                ),
            ));
        }
    }
    Ok((place, off))
}
