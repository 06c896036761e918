//! Later `ld.global` rows that a whole warp's `ld.global` can load early
//! (issue #36, the tiled transpose), judged from the program alone.
//!
//! Why: a tiled kernel reads its input rows one `ld.global` at a time,
//! each followed by its `st.shared` (nvcc's order: `ld [%rd5]; st.shared;
//! ld [%rd7]; st.shared; ...`). Lowered, the code between two row loads
//! (the shared address's vector arithmetic, the store's check and its
//! eight vector copies, the next row's address) is long enough that the
//! processor's out-of-order window holds about two rows: the rows' cache
//! misses are waited for one after the other (perf's cpu-clock samples on
//! the transpose at 1M: the four row loads about 30 % of the launch). So
//! where a whole warp's `ld.global` at a register of consecutive
//! addresses has taken its fast path (`memory_ops::whole_warp`), the
//! later row loads of the segment's copy whose addresses follow from its
//! own (lane 0's plus values that are the same on every lane, computed
//! from registers that hold them now) are checked and loaded right there,
//! so that every row's misses are in flight together.
//!
//! What makes it invisible: such a load only reads a launch buffer, and
//! nothing between writes global memory (no store outside `.shared`, no
//! atomic, fence, barrier or collective: no other warp runs between); its
//! register is read and written by nothing between; its address is
//! computed as the instructions between would compute it (only copies,
//! `add`, `sub`, `shl` by an immediate and `mul.wide` on the way, each
//! unguarded); and the early load happens only where every row's check
//! passes (aligned, inside one buffer): it never faults. Where a check
//! fails nothing is loaded early, and each row loads at its own
//! instruction as before, with its own checks and faults.

use super::builder::Emitter;
use super::inject;
use warp_core::ir::{BinOp, Dest, Glue, IntOp, LaneOp, LaneOpKind, Op, Operand, Reg, Space};

/// Lane 0's value of a register at a later instruction, as an expression
/// of the values the registers hold now (just after the early access).
#[derive(Clone, Debug, PartialEq)]
pub enum Lane0 {
    /// Lane 0's address of the early access's base register (64 bits).
    Base,
    /// Lane 0's value of a uniform register, which nothing writes
    /// between: read now.
    Now(Reg),
    /// An immediate of `bits` bits.
    Imm {
        /// The value, masked to `bits`.
        v: u64,
        /// 32 or 64.
        bits: u32,
    },
    /// `add` or `sub` (wrapping at `bits`).
    Bin {
        /// [`BinOp::Add`] or [`BinOp::Sub`].
        op: BinOp,
        /// The first source.
        a: Box<Lane0>,
        /// The second source.
        b: Box<Lane0>,
    },
    /// `shl` by an immediate below the width.
    Shl {
        /// The value shifted.
        a: Box<Lane0>,
        /// The amount.
        n: u32,
    },
    /// `mul.wide` of two 32-bit values into 64 bits.
    Wide {
        /// `.s32` (else `.u32`).
        signed: bool,
        /// The first source.
        a: Box<Lane0>,
        /// The second source.
        b: Box<Lane0>,
    },
}

impl Lane0 {
    /// Whether the expression has no [`Lane0::Base`]: the same value on
    /// every lane (its registers are uniform).
    fn uniform(&self) -> bool {
        match self {
            Lane0::Base => false,
            Lane0::Now(_) | Lane0::Imm { .. } => true,
            Lane0::Bin { a, b, .. } | Lane0::Wide { a, b, .. } => a.uniform() && b.uniform(),
            Lane0::Shl { a, .. } => a.uniform(),
        }
    }

    /// Whether the expression is a row of the base: the base plus or
    /// minus uniform values, so that its lanes are lane 0's plus `4 l`
    /// wherever the base's are.
    pub fn row(&self) -> bool {
        match self {
            Lane0::Base => true,
            Lane0::Bin {
                op: BinOp::Add,
                a,
                b,
            } => (a.row() && b.uniform()) || (a.uniform() && b.row()),
            Lane0::Bin {
                op: BinOp::Sub,
                a,
                b,
            } => a.row() && b.uniform(),
            Lane0::Bin { .. } | Lane0::Now(_) | Lane0::Imm { .. } | Lane0::Shl { .. } => false,
            Lane0::Wide { .. } => false,
        }
    }
}

/// A later row load: the `ld.global` at `pc` into 32-bit register `dest`,
/// at lane 0's address `addr` (its base register's, before its offset).
#[derive(Clone, Debug, PartialEq)]
pub struct Row {
    /// The instruction.
    pub pc: usize,
    /// Its register.
    pub dest: Reg,
    /// Lane 0's value of its base register at `pc`, a row of the early
    /// access's base ([`Lane0::row`]).
    pub addr: Lane0,
}

/// The most rows one access loads early (a 32-row tile read by 8 rows of
/// threads reads 4; 8 rows are 8 KiB of the state in flight).
const MAX_ROWS: usize = 8;

/// The most instructions looked at after the early access.
const WINDOW: usize = 96;

/// Where the block runs the whole warp in straight-line code with liveness
/// known, and `x` is a global `ld` (`load`) or `st` whose base is a 64-bit
/// register: the end of the straight line and the base; else `None`.
fn whole_warp_global(e: &Emitter, x: &LaneOp, load: bool) -> Option<(usize, Reg)> {
    let (Some(end), true, Some(_)) = (e.copy_end, e.is_full(), &e.live) else {
        return None;
    };
    let base = x.addr.and_then(|a| a.base)?;
    (e.reg_type(base).bits() == 64 && x.access() == Some((Space::Global, load)))
        .then_some((end, base))
}

/// The later row loads that the `ld.global` `x` at `pc` loads early once
/// its whole-warp fast path has run (its 32 lanes executed at consecutive
/// addresses from lane 0's): in a kernel segment's copy for the whole
/// warp (`Emitter::copy_end`), each unguarded `ld.global` of one 32-bit
/// word into a 32-bit register (of vectors, not one word) at a register
/// that is a row of `x`'s base ([`Row`]), such that nothing between `pc`
/// and it may write global memory, reads or writes its register, or is
/// rewritten by a planted bug, with no label between. Empty where `x`'s
/// base is not a 64-bit register.
pub fn rows(e: &Emitter, pc: usize, x: &LaneOp) -> Vec<Row> {
    let Some((end, base)) = whole_warp_global(e, x, true) else {
        return Vec::new();
    };
    let prog = e.prog;
    let mut taken: Vec<Reg> = x.dests.iter().filter_map(|d| reg(d.0)).collect();
    taken.push(base);
    let mut touched: Vec<Reg> = Vec::new();
    let mut out = Vec::new();
    for q in (pc + 1..end.min(prog.insts.len())).take(WINDOW) {
        if out.len() == MAX_ROWS
            || prog.labels.iter().any(|l| l.at == q)
            || inject::rewrite(prog, q).is_some()
        {
            break;
        }
        let inst = &prog.insts[q];
        if let (Op::LaneOp(y), None) = (&inst.op, inst.guard) {
            if let Some(d) = row_load(e, y) {
                if !taken.contains(&d) && !touched.contains(&d) {
                    let at = y.addr.and_then(|a| a.base).expect("row_load");
                    let finder = Finder { e, from: pc, base };
                    if let Some(addr) = finder.lane0(at, q, 0).filter(Lane0::row) {
                        out.push(Row {
                            pc: q,
                            dest: d,
                            addr,
                        });
                        taken.push(d);
                        continue;
                    }
                }
            }
        }
        if may_write_global(&inst.op) {
            break;
        }
        touched.extend(inst.guard.map(|g| g.reg));
        touched.extend(inst.op.source_regs());
        touched.extend(inst.op.written());
        if let Op::LaneOp(y) = &inst.op {
            touched.extend(y.addr.and_then(|a| a.base));
        }
    }
    out
}

/// The later `st.global` rows of the segment's copy whose lines the
/// `st.global` `x` at `pc` touches early once its whole-warp fast path
/// has run (`memory_ops::touch_early`): `(pc, lane 0's address of its
/// base register)` of each unguarded `st.global` of one 32-bit word from
/// a 32-bit register at a register that is a row of `x`'s base
/// ([`Lane0::row`]), up to a label, a planted bug's rewrite, a barrier,
/// a collective or control. Touching a line reads it and throws the value
/// away, so nothing else between matters: a store between at the same
/// bytes, or an address found wrong, would only make the touch useless,
/// never wrong (the touch is checked in bounds like any access). Empty
/// where `x`'s base is not a 64-bit register.
///
/// Why: the transpose's output rows miss the cache, and a store waits
/// for its line in the store buffer, whose stores the processor commits
/// one after the other: loaded first, the rows' lines come in together.
pub fn store_rows(e: &Emitter, pc: usize, x: &LaneOp) -> Vec<(usize, Lane0)> {
    let Some((end, base)) = whole_warp_global(e, x, false) else {
        return Vec::new();
    };
    let prog = e.prog;
    let finder = Finder { e, from: pc, base };
    let mut out = Vec::new();
    for q in (pc + 1..end.min(prog.insts.len())).take(WINDOW) {
        if out.len() == MAX_ROWS
            || prog.labels.iter().any(|l| l.at == q)
            || inject::rewrite(prog, q).is_some()
        {
            break;
        }
        let inst = &prog.insts[q];
        let op = &inst.op;
        let ends = match op {
            Op::LaneOp(y) => y.is_barrier(),
            Op::Glue(_) => op.rendezvous_key().is_some(),
            Op::Shfl(_)
            | Op::Vote(_)
            | Op::Match(_)
            | Op::Redux(_)
            | Op::Activemask(_)
            | Op::Control(_) => true,
        };
        if ends {
            break;
        }
        let Op::LaneOp(y) = op else { continue };
        if inst.guard.is_some() || !row_store(e, y) {
            continue;
        }
        let at = y.addr.and_then(|a| a.base).expect("row_store");
        if let Some(addr) = finder.lane0(at, q, 0).filter(Lane0::row) {
            out.push((q, addr));
        }
    }
    out
}

/// Whether `st` `y` is a row store's shape: an `st.global` of one 32-bit
/// word from a 32-bit register at an address in a 64-bit register.
fn row_store(e: &Emitter, y: &LaneOp) -> bool {
    if y.access() != Some((Space::Global, false)) || y.srcs.len() != 1 {
        return false;
    }
    let (Operand::Reg(v), t) = y.srcs[0] else {
        return false;
    };
    y.addr.and_then(|a| a.base).is_some_and(|b| {
        e.reg_type(b).bits() == 64
            && t.bits() == 32
            && e.reg_type(v).bits() == 32
            && y.addr.is_some_and(|a| a.offset.unsigned_abs() < 1 << 31)
    })
}

/// The destination of `ld` `y` where it is a row load's shape: an
/// `ld.global` of one 32-bit word into a 32-bit register kept as vectors,
/// at an address in a 64-bit register.
fn row_load(e: &Emitter, y: &LaneOp) -> Option<Reg> {
    if y.access() != Some((Space::Global, true)) || y.dests.len() != 1 {
        return None;
    }
    let (Dest::Reg(d), t) = y.dests[0] else {
        return None;
    };
    let base = y.addr.and_then(|a| a.base)?;
    let fits = t.bits() == 32
        && e.reg_type(d).bits() == 32
        && !e.scalar.get(d.index()).copied().unwrap_or(false)
        && e.reg_type(base).bits() == 64
        && y.addr.is_some_and(|a| a.offset.unsigned_abs() < 1 << 31);
    fits.then_some(d)
}

/// Whether `op` may write global memory or end the straight line (a store
/// outside `.shared`, an atomic, a fence, a barrier, a collective, control).
fn may_write_global(op: &Op) -> bool {
    match op {
        Op::LaneOp(x) => match x.kind {
            LaneOpKind::St(space) => space != Space::Shared,
            LaneOpKind::Atom(_) | LaneOpKind::Fence(_) | LaneOpKind::Bar => true,
            LaneOpKind::Ld(_)
            | LaneOpKind::Special(_)
            | LaneOpKind::Int(_)
            | LaneOpKind::Float { .. }
            | LaneOpKind::FSetp(_)
            | LaneOpKind::Cvt { .. }
            | LaneOpKind::Cvta { .. }
            | LaneOpKind::Pack
            | LaneOpKind::Unpack => false,
        },
        Op::Glue(_) => op.rendezvous_key().is_some(),
        Op::Shfl(_)
        | Op::Vote(_)
        | Op::Match(_)
        | Op::Redux(_)
        | Op::Activemask(_)
        | Op::Control(_) => true,
    }
}

/// The register of a destination.
fn reg(d: Dest) -> Option<Reg> {
    match d {
        Dest::Reg(r) => Some(r),
        Dest::Sink => None,
    }
}

/// Finds lane 0's value of registers at later instructions as
/// expressions of the values now, just after the access at `from`.
struct Finder<'e, 'a, 'b> {
    e: &'e Emitter<'a, 'b>,
    from: usize,
    /// The access's base register.
    base: Reg,
}

impl Finder<'_, '_, '_> {
    /// Lane 0's value of `r` just before instruction `at`.
    fn lane0(&self, r: Reg, at: usize, depth: u32) -> Option<Lane0> {
        if depth > 12 {
            return None;
        }
        let prog = self.e.prog;
        let w = (self.from..at)
            .rev()
            .find(|&k| prog.insts[k].op.written().contains(&r));
        let Some(w) = w else {
            return if r == self.base {
                Some(Lane0::Base)
            } else if self.e.uniform.get(r.index()).copied().unwrap_or(false) {
                Some(Lane0::Now(r))
            } else {
                None
            };
        };
        let inst = &prog.insts[w];
        if w == self.from || inst.guard.is_some() {
            return None;
        }
        let bits = self.e.reg_type(r).bits();
        if bits != 32 && bits != 64 {
            return None;
        }
        match &inst.op {
            Op::Glue(Glue::Mov { ty, d, a }) if *d == Dest::Reg(r) && ty.bits() == bits => {
                self.operand(*a, w, bits, depth)
            }
            Op::Glue(Glue::Bin { op, ty, d, a, b })
                if *d == Dest::Reg(r) && !ty.is_float() && ty.bits() == bits =>
            {
                match (op, b) {
                    (BinOp::Add | BinOp::Sub, _) => Some(Lane0::Bin {
                        op: *op,
                        a: Box::new(self.operand(*a, w, bits, depth)?),
                        b: Box::new(self.operand(*b, w, bits, depth)?),
                    }),
                    (BinOp::Shl, Operand::Imm(n)) if *n < bits as u64 => Some(Lane0::Shl {
                        a: Box::new(self.operand(*a, w, bits, depth)?),
                        n: *n as u32,
                    }),
                    _ => None,
                }
            }
            Op::LaneOp(x)
                if x.kind == LaneOpKind::Int(IntOp::MulWide)
                    && bits == 64
                    && x.dests.len() == 1
                    && x.dests[0].0 == Dest::Reg(r)
                    && x.dests[0].1.bits() == 64
                    && x.srcs.len() == 2 =>
            {
                // Both sources as the first's type (`interp::lane_ops`).
                let ((a, t), (b, _)) = (x.srcs[0], x.srcs[1]);
                if t.bits() != 32 {
                    return None;
                }
                Some(Lane0::Wide {
                    signed: t.is_signed(),
                    a: Box::new(self.operand(a, w, 32, depth)?),
                    b: Box::new(self.operand(b, w, 32, depth)?),
                })
            }
            _ => None,
        }
    }

    /// Lane 0's value of operand `o` of instruction `w`, `bits` wide.
    fn operand(&self, o: Operand, w: usize, bits: u32, depth: u32) -> Option<Lane0> {
        match o {
            Operand::Imm(v) => Some(Lane0::Imm {
                v: if bits == 64 { v } else { v & 0xffff_ffff },
                bits,
            }),
            Operand::Reg(r) if self.e.reg_type(r).bits() == bits => self.lane0(r, w, depth + 1),
            Operand::Reg(_) | Operand::NotPred(_) | Operand::LaneId => None,
        }
    }
}
