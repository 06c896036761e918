//! The checker's shadow of a run ([`Tracker`], the interpreter's
//! [`Watch`]): per warp, per register and lane, the origin node of an
//! undefined value; per byte of memory, the node of an undefined byte
//! that a store put there; and where undefined values escape.
//!
//! The interpreter decides what is defined; the shadow only says where the
//! undefined bits came from. Before each step the tracker notes what the
//! instruction reads (each lane's first undefined source, the guard, the
//! addresses, the values stored), and checks the escapes there: an
//! undefined guard that decides control flow, a collective, a store or a
//! barrier; an undefined address; an undefined `membermask` bit. After the
//! step, each destination the interpreter left undefined gets a node: the
//! source's node carried by this instruction, or a new origin whose cause
//! the instruction's family gives. A store's undefined bytes in global
//! memory (a launch buffer or a `.global` variable) escape.

use super::origin::{Cause, Origins};
use super::race::{Access, Bytes, Clocks, Race};
use super::report::Escape;
use crate::fxhash::FxHashMap as HashMap;
use crate::interp::lanes::lanes;
use crate::interp::memory::{locate, Ctx, Place, Region};
use crate::interp::shfl::source_lane;
use crate::interp::warp::{Lane, Rendezvous, Warp, Watch};
use crate::ir::{Dest, LaneOpKind, Op, Operand, Reg, Type, WARP};
use std::any::Any;

/// A memory byte's key: kind (0 global, 1 shared, 2 dynamic shared,
/// 3 local, 4 param), owner (CTA; CTA, warp and lane for local), address.
type MemKey = (u8, u64, u64);

/// One escape found, with how many times its kind, instruction and origin
/// escaped.
#[derive(Clone, Debug)]
pub(crate) struct EscapeHit {
    pub kind: Escape,
    pub pc: usize,
    pub ctaid: [u32; 3],
    pub warp: u32,
    pub lanes: u32,
    pub what: String,
    /// The value's node (0: no origin found).
    pub node: u32,
    pub count: u64,
}

/// One warp-race found, with how many times that pair of instructions
/// raced.
#[derive(Clone, Debug)]
pub(crate) struct RaceHit {
    pub race: Race,
    pub ctaid: [u32; 3],
    pub warp: u32,
    pub region: String,
    pub addr: u64,
    pub count: u64,
}

/// One warp's shadow.
struct WarpShadow {
    /// Per register, per lane, the node of its undefined bits.
    regs: Vec<[u32; WARP]>,
    /// Per lane, the node of its `membermask` at its last arrival.
    mm: [u32; WARP],
    /// The lanes' vector clocks (`warp-race`).
    clocks: Clocks,
    /// Lanes seen arriving at `bar.sync` and not yet released.
    at_bar: u32,
}

/// What the tracker noted before a step, for after it.
struct Pending {
    exec: u32,
    maybe: u32,
    /// Per lane, the guard's node (lanes of `maybe`).
    guard: [u32; WARP],
    /// Per lane, the node of its first undefined source.
    src: [u32; WARP],
    /// Per lane, the source lane of a deprecated `shfl`.
    from: [u32; WARP],
    /// Per lane, the `ld`/`st` address (defined).
    addr: [Option<u64>; WARP],
    /// A store's values: lane, element, defined bits, node.
    vals: Vec<(usize, usize, u64, u32)>,
}

impl Default for Pending {
    fn default() -> Self {
        Pending {
            exec: 0,
            maybe: 0,
            guard: [0; WARP],
            src: [0; WARP],
            from: [0; WARP],
            addr: [None; WARP],
            vals: Vec::new(),
        }
    }
}

/// The shadow of a whole launch.
pub(crate) struct Tracker {
    pub origins: Origins,
    pub escapes: Vec<EscapeHit>,
    escape_ids: HashMap<(Escape, usize, u32), usize>,
    pub races: Vec<RaceHit>,
    race_ids: HashMap<(usize, usize), usize>,
    /// Whether to look for `warp-race`.
    races_on: bool,
    cta: u32,
    warps: HashMap<u32, WarpShadow>,
    mem: HashMap<MemKey, u32>,
    bytes: Bytes,
    steps: u64,
    pend: Pending,
    /// Per lane, the node of a rendezvous's undefined result.
    rv: [u32; WARP],
}

impl Tracker {
    /// A fresh tracker; `races_on` looks for `warp-race` too.
    pub fn new(races_on: bool) -> Tracker {
        Tracker {
            origins: Origins::default(),
            escapes: Vec::new(),
            escape_ids: HashMap::default(),
            races: Vec::new(),
            race_ids: HashMap::default(),
            races_on,
            cta: u32::MAX,
            warps: HashMap::default(),
            mem: HashMap::default(),
            bytes: Bytes::default(),
            steps: 0,
            pend: Pending::default(),
            rv: [0; WARP],
        }
    }

    /// The warp's kernel context.
    fn ctx<'a>(w: &'a Warp) -> &'a Ctx {
        w.kernel.as_deref().expect("check runs kernel launches")
    }

    /// Switches to `w`'s CTA (a new one forgets the last one's warps,
    /// shared and local memory and accesses) and returns its warp index.
    fn enter(&mut self, w: &Warp) -> u32 {
        let ctx = Self::ctx(w);
        if ctx.cta != self.cta {
            self.cta = ctx.cta;
            self.warps.clear();
            self.bytes.clear();
            self.mem.retain(|k, _| k.0 == 0 || k.0 == 4);
        }
        let n = w.prog().regs.len();
        let warp = ctx.place.warp;
        let ws = self.warps.entry(warp).or_insert_with(|| WarpShadow {
            regs: vec![[0; WARP]; n],
            mm: [0; WARP],
            clocks: Clocks::default(),
            at_bar: 0,
        });
        // Lanes seen at `bar.sync` that run again were released together.
        if ws.at_bar != 0 {
            let released = lanes(ws.at_bar)
                .filter(|&l| w.lane[l] != Lane::AtBarrier)
                .fold(0u32, |m, l| m | 1 << l);
            if released != 0 {
                ws.clocks.sync(ws.at_bar);
                ws.at_bar = 0;
            }
        }
        warp
    }

    /// The node of register `r` on `lane` as the instruction at `pc`
    /// reads it (`bits`: it uses its bits, so an open NaN is undefined):
    /// 0 when defined.
    fn origin_of(
        &mut self,
        w: &Warp,
        warp: u32,
        r: Reg,
        lane: usize,
        pc: usize,
        bits: bool,
    ) -> u32 {
        let ty = w.prog().decl(r).ty;
        let v = w.read_keep_nan(Operand::Reg(r), lane);
        if v.full(ty) {
            if bits && w.is_open(Operand::Reg(r), lane) {
                let reg = w.prog().decl(r).name.clone();
                return self.origins.root(pc, Cause::OpenNan { reg });
            }
            return 0;
        }
        let n = self.warps[&warp].regs[r.index()][lane];
        if n != 0 {
            return n;
        }
        let cause = if w.never_written(r, lane) {
            Cause::NeverWritten {
                reg: w.prog().decl(r).name.clone(),
            }
        } else {
            Cause::Computed
        };
        self.origins.root(pc, cause)
    }

    /// Of two nodes (0: none), the one whose origin happened first: a
    /// value computed from several undefined ones is charged to the
    /// oldest (the first shuffle of a reduction, not its last).
    fn earliest(&self, a: u32, b: u32) -> u32 {
        match (a, b) {
            (0, x) | (x, 0) => x,
            _ if self.origins.root_of(b) < self.origins.root_of(a) => b,
            _ => a,
        }
    }

    /// The node of operand `o` on `lane` (0 for immediates).
    fn operand(&mut self, w: &Warp, warp: u32, o: Operand, lane: usize, pc: usize) -> u32 {
        match o {
            Operand::Reg(r) | Operand::NotPred(r) => self.origin_of(w, warp, r, lane, pc, true),
            Operand::Imm(_) | Operand::LaneId => 0,
        }
    }

    /// Records an escape (grouped by kind, instruction and origin).
    fn escape(&mut self, w: &Warp, kind: Escape, pc: usize, lanes: u32, what: String, node: u32) {
        let ctx = Self::ctx(w);
        let root = if node == 0 {
            u32::MAX
        } else {
            self.origins.root_of(node)
        };
        let key = (kind, pc, root);
        if let Some(&i) = self.escape_ids.get(&key) {
            self.escapes[i].count += 1;
            return;
        }
        self.escape_ids.insert(key, self.escapes.len());
        self.escapes.push(EscapeHit {
            kind,
            pc,
            ctaid: ctx.place.ctaid,
            warp: ctx.place.warp,
            lanes,
            what,
            node,
            count: 1,
        });
    }

    /// Records escapes for `lanes`, whose nodes are `node[l]`: one per
    /// distinct origin.
    fn escape_lanes(
        &mut self,
        w: &Warp,
        kind: Escape,
        pc: usize,
        mask: u32,
        node: &[u32; WARP],
        what: impl Fn(usize) -> String,
    ) {
        let mut left = mask;
        while let Some(l) = lanes(left).next() {
            let same = lanes(left)
                .filter(|&k| node[k] == node[l])
                .fold(0u32, |m, k| m | 1 << k);
            left &= !same;
            self.escape(w, kind, pc, same, what(l), node[l]);
        }
    }

    fn race(&mut self, w: &Warp, warp: u32, key: MemKey, region: &str, addr: u64, a: Access) {
        let ws = self.warps.get(&warp).expect("entered");
        let Some(race) = self.bytes.access(warp, key, a, &ws.clocks) else {
            return;
        };
        let k = (race.first.pc, race.second.pc);
        if let Some(&i) = self.race_ids.get(&k) {
            self.races[i].count += 1;
            return;
        }
        let ctx = Self::ctx(w);
        self.race_ids.insert(k, self.races.len());
        self.races.push(RaceHit {
            race,
            ctaid: ctx.place.ctaid,
            warp,
            region: region.to_string(),
            addr,
            count: 1,
        });
    }
}

/// The region `place` names, read only.
fn region_of<'a>(ctx: &'a Ctx, place: &Place, lane: usize) -> &'a Region {
    match place {
        Place::Global(i) => &ctx.mem.globals[*i],
        Place::Shared => ctx.mem.shared.as_ref().expect("located"),
        Place::Dynamic => ctx.mem.dynamic.as_ref().expect("located"),
        Place::Param => ctx.mem.param.as_ref().expect("located"),
        Place::Local => &ctx.local[lane],
    }
}

/// The shadow key of byte `off` of `place` for `lane`.
fn mem_key(ctx: &Ctx, place: &Place, off: u64, lane: usize) -> MemKey {
    let cta = ctx.cta as u64;
    match place {
        Place::Global(i) => (0, 0, ctx.mem.globals[*i].base + off),
        Place::Shared => (1, cta, off),
        Place::Dynamic => (2, cta, off),
        Place::Local => (
            3,
            cta << 32 | (ctx.place.warp as u64 * WARP as u64 + lane as u64),
            off,
        ),
        Place::Param => (4, 0, off),
    }
}

/// Bytes `lo..hi` of a `size`-byte value whose defined bits are `d`, as
/// a mask of its undefined bytes.
fn undefined_bytes(d: u64, size: u64) -> u32 {
    (0..size)
        .filter(|i| (d >> (8 * i)) & 0xff != 0xff)
        .fold(0u32, |m, i| m | 1 << i)
}

impl Watch for Tracker {
    fn before(&mut self, w: &Warp, pc: usize, conv: u32) {
        let warp = self.enter(w);
        self.steps += 1;
        let prog = w.prog();
        let inst = &prog.insts[pc];
        let mut p = Pending::default();
        match inst.guard {
            None => p.exec = conv,
            Some(g) => {
                for l in lanes(conv) {
                    let v = w.read_keep_nan(Operand::Reg(g.reg), l);
                    if v.d & 1 == 0 {
                        p.maybe |= 1 << l;
                        p.guard[l] = self.origin_of(w, warp, g.reg, l, pc, false);
                    } else if (v.v & 1 == 1) != g.negated {
                        p.exec |= 1 << l;
                    }
                }
            }
        }
        let decides = match &inst.op {
            Op::Glue(_) | Op::Activemask(_) => None,
            Op::LaneOp(x) => match x.kind {
                // An atomic writes memory as a store does.
                LaneOpKind::St(_) | LaneOpKind::Atom(_) => Some(Escape::StoreGuard),
                LaneOpKind::Bar => Some(Escape::BarrierGuard),
                LaneOpKind::Fence(_) => None,
                LaneOpKind::Ld(_)
                | LaneOpKind::Cvta { .. }
                | LaneOpKind::Special(_)
                | LaneOpKind::Cvt { .. }
                | LaneOpKind::Int(_)
                | LaneOpKind::Float { .. }
                | LaneOpKind::FSetp(_)
                | LaneOpKind::Pack
                | LaneOpKind::Unpack => None,
            },
            Op::Shfl(_) | Op::Vote(_) | Op::Match(_) | Op::Redux(_) => {
                Some(Escape::CollectiveGuard)
            }
            Op::Control(_) => Some(Escape::BranchCondition),
        };
        if let (Some(kind), true) = (decides, p.maybe != 0) {
            let g = inst.guard.expect("an undefined guard");
            let name = prog.decl(g.reg).name.clone();
            let guard = p.guard;
            self.escape_lanes(w, kind, pc, p.maybe, &guard, |_| {
                format!("the guard `{name}` is undefined")
            });
        }
        match &inst.op {
            Op::LaneOp(x) if matches!(x.kind, LaneOpKind::Ld(_) | LaneOpKind::St(_)) => {
                let a = x.addr.expect("ld and st have an address");
                let mut bad = [0u32; WARP];
                let mut undef = 0u32;
                for l in lanes(p.exec) {
                    match a.base {
                        None => p.addr[l] = Some(a.offset as u64),
                        Some(b) => {
                            let ty = prog.decl(b).ty;
                            let v = w.read(Operand::Reg(b), l);
                            if v.full(ty) {
                                p.addr[l] = Some((v.v & ty.mask()).wrapping_add(a.offset as u64));
                            } else {
                                undef |= 1 << l;
                                bad[l] = self.origin_of(w, warp, b, l, pc, true);
                            }
                        }
                    }
                }
                if undef != 0 {
                    let name = prog.decl(a.base.expect("a register")).name.clone();
                    self.escape_lanes(w, Escape::Address, pc, undef, &bad, |l| {
                        let v = w.read(Operand::Reg(a.base.expect("a register")), l);
                        format!(
                            "the address in `{name}` has undefined bits {:#x}",
                            !v.d & prog.decl(a.base.expect("a register")).ty.mask()
                        )
                    });
                }
                if let LaneOpKind::St(_) = x.kind {
                    for l in lanes(p.exec) {
                        for (k, &(o, ty)) in x.srcs.iter().enumerate() {
                            let v = w.read(o, l);
                            let n = if v.full(ty) {
                                0
                            } else {
                                self.operand(w, warp, o, l, pc)
                            };
                            p.vals.push((l, k, v.d, n));
                        }
                    }
                }
            }
            Op::Shfl(x) if x.membermask.is_none() => {
                for l in lanes(p.exec) {
                    let (b, c) = (w.read(x.b, l), w.read(x.c, l));
                    let (j, _) = source_lane(x.mode, l as u32, b.v as u32, c.v as u32);
                    p.from[l] = j;
                    p.src[l] = if !b.full(Type::B32) {
                        self.operand(w, warp, x.b, l, pc)
                    } else if !c.full(Type::B32) {
                        self.operand(w, warp, x.c, l, pc)
                    } else {
                        self.operand(w, warp, x.a, j as usize, pc)
                    };
                }
            }
            Op::Vote(x) if x.membermask.is_none() => {
                let mut first = 0;
                for l in lanes(p.exec) {
                    let n = self.operand(w, warp, x.a, l, pc);
                    first = self.earliest(first, n);
                }
                for l in lanes(p.exec) {
                    p.src[l] = first;
                }
            }
            Op::Shfl(_) | Op::Vote(_) | Op::Match(_) | Op::Redux(_) => {
                let mm = inst.op.membermask().expect("a .sync collective");
                let mut undef = 0u32;
                let mut node = [0u32; WARP];
                for l in lanes(p.exec) {
                    let v = w.read(mm, l);
                    let n = if v.d & 0xffff_ffff == 0xffff_ffff {
                        0
                    } else {
                        undef |= 1 << l;
                        self.operand(w, warp, mm, l, pc)
                    };
                    node[l] = n;
                    self.warps.get_mut(&warp).expect("entered").mm[l] = n;
                }
                if undef != 0 {
                    self.escape_lanes(w, Escape::Membermask, pc, undef, &node, |l| {
                        format!(
                            "membermask bits {:#010x} are undefined",
                            !w.read(mm, l).d as u32
                        )
                    });
                }
            }
            Op::Glue(_) | Op::LaneOp(_) | Op::Activemask(_) | Op::Control(_) => {
                let srcs = inst.op.sources();
                for l in lanes(p.exec) {
                    let mut n = 0;
                    for &(o, _, _) in &srcs {
                        let m = self.operand(w, warp, o, l, pc);
                        n = self.earliest(n, m);
                    }
                    p.src[l] = n;
                }
            }
        }
        self.pend = p;
    }

    fn after(&mut self, w: &Warp, pc: usize, _conv: u32, ub: bool) {
        if ub {
            return;
        }
        let warp = Self::ctx(w).place.warp;
        let prog = w.prog();
        let inst = &prog.insts[pc];
        let p = std::mem::take(&mut self.pend);
        match &inst.op {
            Op::LaneOp(x) if matches!(x.kind, LaneOpKind::Ld(_)) => {
                let LaneOpKind::Ld(space) = x.kind else {
                    unreachable!("an ld")
                };
                let ctx = Self::ctx(w);
                let size = (x.dests[0].1.bits() as u64).div_ceil(8);
                // Lanes whose guard is undefined may or may not have loaded.
                for l in lanes(p.maybe) {
                    for &(d, _) in &x.dests {
                        if let Dest::Reg(r) = d {
                            let n = self.origins.carry(p.guard[l], pc);
                            self.warps.get_mut(&warp).expect("entered").regs[r.index()][l] = n;
                        }
                    }
                }
                for l in lanes(p.exec) {
                    let base = p.addr[l].expect("a defined address");
                    for (k, &(d, _)) in x.dests.iter().enumerate() {
                        let addr = base.wrapping_add(k as u64 * size);
                        let Ok((place, off)) = locate(ctx, space, addr, size, l) else {
                            continue;
                        };
                        let step = self.steps;
                        let clocks_tick = self.warps[&warp].clocks_tick(l);
                        let region = region_of(ctx, &place, l);
                        if self.races_on && !matches!(place, Place::Local | Place::Param) {
                            for i in 0..size {
                                let a = Access {
                                    lane: l as u32,
                                    tick: clocks_tick,
                                    pc,
                                    step,
                                    write: false,
                                };
                                let key = mem_key(ctx, &place, off + i, l);
                                self.race(w, warp, key, &region.name, region.base + off + i, a);
                            }
                        }
                        let Dest::Reg(r) = d else { continue };
                        let v = w.read_keep_nan(Operand::Reg(r), l);
                        if v.full(prog.decl(r).ty) {
                            self.warps.get_mut(&warp).expect("entered").regs[r.index()][l] = 0;
                            continue;
                        }
                        let bytes = undefined_bytes(v.d, size);
                        let mut node = 0;
                        for i in lanes(bytes) {
                            if let Some(&n) = self.mem.get(&mem_key(ctx, &place, off + i as u64, l))
                            {
                                node = self.origins.carry(n, pc);
                                break;
                            }
                        }
                        if node == 0 {
                            let first = lanes(bytes).next().unwrap_or(0) as u64;
                            node = self.origins.root(
                                pc,
                                Cause::UnwrittenMemory {
                                    region: region.name.clone(),
                                    addr: region.base + off + first,
                                },
                            );
                        }
                        self.warps.get_mut(&warp).expect("entered").regs[r.index()][l] = node;
                    }
                }
            }
            Op::LaneOp(x) if matches!(x.kind, LaneOpKind::St(_)) => {
                let LaneOpKind::St(space) = x.kind else {
                    unreachable!("a st")
                };
                let ctx = Self::ctx(w);
                let size = (x.srcs[0].1.bits() as u64).div_ceil(8);
                let mut out = [0u32; WARP];
                let mut out_lanes = 0u32;
                let mut what = vec![String::new(); WARP];
                for &(l, k, d, n) in &p.vals {
                    let addr = p.addr[l]
                        .expect("a defined address")
                        .wrapping_add(k as u64 * size);
                    let Ok((place, off)) = locate(ctx, space, addr, size, l) else {
                        continue;
                    };
                    let region = region_of(ctx, &place, l);
                    let mut undef = 0u64;
                    for i in 0..size {
                        let key = mem_key(ctx, &place, off + i, l);
                        if self.races_on && !matches!(place, Place::Local | Place::Param) {
                            let a = Access {
                                lane: l as u32,
                                tick: self.warps[&warp].clocks_tick(l),
                                pc,
                                step: self.steps,
                                write: true,
                            };
                            self.race(w, warp, key, &region.name, region.base + off + i, a);
                        }
                        if region.defined[(off + i) as usize] {
                            self.mem.remove(&key);
                            continue;
                        }
                        undef += 1;
                        let node = if (d >> (8 * i)) & 0xff != 0xff && n != 0 {
                            self.origins.carry(n, pc)
                        } else {
                            self.origins.root(
                                pc,
                                Cause::StoreClash {
                                    region: region.name.clone(),
                                    addr: region.base + off + i,
                                },
                            )
                        };
                        self.mem.insert(key, node);
                        if matches!(place, Place::Global(_)) && out_lanes >> l & 1 == 0 {
                            out_lanes |= 1 << l;
                            out[l] = if n != 0 { n } else { node };
                        }
                    }
                    if undef != 0 && matches!(place, Place::Global(_)) && what[l].is_empty() {
                        what[l] = format!(
                            "{undef} of {size} bytes stored to `{}` at offset {:#x} are undefined",
                            region.name, off
                        );
                    }
                }
                if out_lanes != 0 {
                    self.escape_lanes(w, Escape::GlobalStore, pc, out_lanes, &out, |l| {
                        what[l].clone()
                    });
                }
            }
            Op::LaneOp(x) if x.kind == LaneOpKind::Bar => {
                let ws = self.warps.get_mut(&warp).expect("entered");
                ws.at_bar |= p.exec;
            }
            Op::Shfl(_) | Op::Vote(_) | Op::Match(_) | Op::Redux(_)
                if inst.op.membermask().is_some() =>
            {
                // Results come with the rendezvous; only an undefined
                // guard's lanes may be clobbered here (UB: the run ends).
            }
            Op::Control(_) | Op::Match(_) | Op::Redux(_) => {}
            Op::Glue(_) | Op::LaneOp(_) | Op::Activemask(_) | Op::Shfl(_) | Op::Vote(_) => {
                for (d, _) in inst.op.dests() {
                    let Dest::Reg(r) = d else { continue };
                    for l in lanes(p.exec | p.maybe) {
                        let v = w.read_keep_nan(Operand::Reg(r), l);
                        let node = if v.full(prog.decl(r).ty) {
                            0
                        } else if p.maybe >> l & 1 == 1 {
                            self.origins.carry(p.guard[l], pc)
                        } else if p.src[l] != 0 {
                            self.origins.carry(p.src[l], pc)
                        } else {
                            let cause = match &inst.op {
                                Op::Activemask(_) => Cause::ActivemaskSchedule {
                                    lane: l as u32,
                                    bits: !v.d as u32,
                                },
                                Op::Shfl(_) => Cause::InactiveSource {
                                    lane: l as u32,
                                    source: p.from[l],
                                },
                                Op::Vote(_) => Cause::DeprecatedSchedule { lane: l as u32 },
                                Op::Glue(_)
                                | Op::LaneOp(_)
                                | Op::Match(_)
                                | Op::Redux(_)
                                | Op::Control(_) => Cause::Computed,
                            };
                            self.origins.root(pc, cause)
                        };
                        self.warps.get_mut(&warp).expect("entered").regs[r.index()][l] = node;
                    }
                }
            }
        }
    }

    fn before_rendezvous(&mut self, w: &Warp, rv: &Rendezvous) {
        let warp = self.enter(w);
        let prog = w.prog();
        self.rv = [0; WARP];
        let op = |l: usize| &prog.insts[rv.pc[l]].op;
        let mm = lanes(rv.lanes)
            .map(|l| self.warps[&warp].mm[l])
            .find(|&n| n != 0)
            .unwrap_or(0);
        // A value any participant gives (vote, match, redux), the first
        // undefined one.
        let mut shared = 0;
        for l in lanes(rv.lanes) {
            let a = match op(l) {
                Op::Vote(x) => x.a,
                Op::Match(x) => x.a,
                Op::Redux(x) => x.a,
                Op::Shfl(_) | Op::Activemask(_) | Op::Glue(_) | Op::Control(_) | Op::LaneOp(_) => {
                    continue
                }
            };
            let n = self.operand(w, warp, a, l, rv.pc[l]);
            shared = self.earliest(shared, n);
        }
        for l in lanes(rv.lanes) {
            let pc = rv.pc[l];
            self.rv[l] = match op(l) {
                Op::Shfl(x) => {
                    let (b, c) = (w.read(x.b, l), w.read(x.c, l));
                    let (j, _) = source_lane(x.mode, l as u32, b.v as u32, c.v as u32);
                    let j = j as usize;
                    if !b.full(Type::B32) {
                        self.operand(w, warp, x.b, l, pc)
                    } else if !c.full(Type::B32) {
                        self.operand(w, warp, x.c, l, pc)
                    } else if rv.unsure && mm != 0 {
                        mm
                    } else if rv.lanes >> j & 1 == 1 {
                        let Op::Shfl(xj) = op(j) else {
                            unreachable!("shfl.sync pairs shfl.sync")
                        };
                        self.operand(w, warp, xj.a, j, rv.pc[j])
                    } else {
                        // Its membermask: as it arrived (sm_70+), or as it
                        // reads now (a lockstep target runs at once).
                        let mask = match w.lane[l] {
                            Lane::Waiting(arr) => arr.mask,
                            Lane::Running
                            | Lane::Done
                            | Lane::Exited
                            | Lane::AtBarrier
                            | Lane::Absent => {
                                x.membermask.map_or(u32::MAX, |m| w.read(m, l).v as u32)
                            }
                        };
                        let cause = if mask >> j & 1 == 0 {
                            Cause::OutsideMembermask {
                                lane: l as u32,
                                source: j as u32,
                                membermask: mask,
                            }
                        } else if w.lane[j] == Lane::Absent {
                            Cause::AbsentSource {
                                lane: l as u32,
                                source: j as u32,
                            }
                        } else {
                            Cause::ExitedSource {
                                lane: l as u32,
                                source: j as u32,
                            }
                        };
                        self.origins.root(pc, cause)
                    }
                }
                Op::Vote(_) | Op::Match(_) | Op::Redux(_) => {
                    if rv.unsure && mm != 0 {
                        mm
                    } else {
                        shared
                    }
                }
                Op::Activemask(_) | Op::Glue(_) | Op::Control(_) | Op::LaneOp(_) => 0,
            };
        }
        if self.races_on {
            let ws = self.warps.get_mut(&warp).expect("entered");
            ws.clocks.sync(rv.lanes);
        }
    }

    fn after_rendezvous(&mut self, w: &Warp, rv: &Rendezvous) {
        let warp = Self::ctx(w).place.warp;
        let prog = w.prog();
        for l in lanes(rv.lanes) {
            let pc = rv.pc[l];
            let inst = &prog.insts[pc];
            for (d, _) in inst.op.dests() {
                let Dest::Reg(r) = d else { continue };
                let v = w.read_keep_nan(Operand::Reg(r), l);
                let node = if v.full(prog.decl(r).ty) {
                    0
                } else if self.rv[l] != 0 {
                    self.origins.carry(self.rv[l], pc)
                } else {
                    self.origins.root(pc, Cause::Computed)
                };
                self.warps.get_mut(&warp).expect("entered").regs[r.index()][l] = node;
            }
        }
    }

    fn into_any(self: Box<Self>) -> Box<dyn Any> {
        self
    }
}

impl WarpShadow {
    /// Lane `l`'s own clock entry (its tick).
    fn clocks_tick(&self, l: usize) -> u32 {
        self.clocks.tick(l)
    }
}
