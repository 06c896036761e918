//! `ld` and `st` of PTX modules' kernels (issue #36), lowered inline, as
//! `warp-core`'s `interp/memory_ops.rs` runs them: each access computes
//! its host address from the memory words of the state (`code.rs`'s
//! `Lending`: the launch buffers' table, the parameters, the CTA's static
//! and dynamic shared memory, the warp's local memory) after checking in
//! the generated code that it is aligned and lies wholly inside one of
//! them, then loads or stores the bytes itself.
//!
//! - The whole warp at once: a 32-bit `ld`/`st` whose 32 lanes all
//!   execute at consecutive addresses inside one buffer or shared memory
//!   (what `a[tid]` makes in a full warp) is one check of the 32
//!   addresses and the 128 bytes, then eight 16-byte loads or stores.
//! - Gathered: a 32-bit `ld.shared` at addresses in a 32-bit register
//!   whose 32 lanes all execute, each address aligned and inside the
//!   static shared memory (a tile's column, one word for every lane), is
//!   one vector check of the 32 addresses, then a load per lane with no
//!   branch.
//! - Four lanes at a time: a 32-bit `ld`/`st` whose four lanes `4k..4k+3`
//!   all execute at consecutive addresses inside one buffer or shared
//!   memory is one 16-byte load or store.
//! - Once for the warp: an `ld` of an address without a register
//!   (`ld.param.u64 %rd1, [k_param_0]`) loads once and writes every
//!   executing lane.
//! - Otherwise per executing lane, lowest first.
//!
//! Each path falls to the next before it touches memory when its checks
//! say no, so the lane loop decides every fault, as it always did.
//!
//! Anything the checks refuse goes to the run time (`runtime.rs`:
//! `host_ld`, `host_st`): an access to a module `.global`/`.const`
//! variable, which it performs, or a faulty one (out of bounds,
//! misaligned, a store to `.param`), for which it records the error
//! naming lane, `%tid`, instruction and address, as it did for every
//! access before. So the fast paths decide nothing a run could observe:
//! where they say no, the run time says the same as always.

use super::builder::{AddrFact, At, Emitter, FactKind};
use super::lane_ops::{mask, read};
use super::layout::{mem, wide, Layout};
use super::rows::{self, Lane0, Row};
use super::runtime;
use cranelift_codegen::ir::condcodes::IntCC;
use cranelift_codegen::ir::types::{I32, I32X4, I64, I64X2, I8};
use cranelift_codegen::ir::{Block, InstBuilder, MemFlagsData, Value};
use cranelift_frontend::Variable;
use warp_core::ir::{
    windows, BinOp, Dest, Glue, Guard, Inst, IntOp, LaneOp, LaneOpKind, Op, Operand, Reg, Space,
    Type, WARP,
};

/// Memory flags of an access to host memory: checked, so it never traps;
/// not known aligned (a 16-byte vector access need not be).
fn heap() -> MemFlagsData {
    MemFlagsData::new().with_notrap()
}

/// One `ld`/`st` as the lowering sees it.
struct Access<'x> {
    x: &'x LaneOp,
    pc: usize,
    space: Space,
    store: bool,
    /// The element type (the instruction's).
    ty: Type,
    /// Bytes per element.
    size: u64,
    /// Elements (`.v2`, `.v4`).
    n: usize,
}

/// Lowers `ld`/`st` `x` at `pc` under `guard`.
pub fn emit(e: &mut Emitter, guard: Option<Guard>, x: &LaneOp, pc: usize) {
    // Loaded already by an earlier gather of its column where that
    // gather's variable is 1 ([`gather`]).
    let preloaded = e.preloaded.iter().find(|&&(p, _)| p == pc).map(|&(_, v)| v);
    let Some(var) = preloaded else {
        return emit_access(e, guard, x, pc);
    };
    let (access, done) = (e.b.create_block(), e.b.create_block());
    let flag = e.b.use_var(var);
    e.b.ins().brif(flag, done, &[], access, &[]);
    e.switch_to(access);
    emit_access(e, guard, x, pc);
    e.b.ins().jump(done, &[]);
    e.switch_to(done);
}

/// [`emit`] of an access no gather loaded before.
fn emit_access(e: &mut Emitter, guard: Option<Guard>, x: &LaneOp, pc: usize) {
    let (space, load) = x.access().expect("memory_ops lowers ld and st");
    let store = !load;
    let ty = if store { x.srcs[0].1 } else { x.dests[0].1 };
    let acc = Access {
        x,
        pc,
        space,
        store,
        ty,
        size: (ty.bits() as u64).div_ceil(8),
        n: if store { x.srcs.len() } else { x.dests.len() },
    };
    let mut l = e.lanes(guard);
    let exec = e.exec(&mut l);
    if once_for_the_warp(x) {
        once(e, &acc, exec, &mut l);
    } else if four_at_a_time(e, &acc) {
        let (groups, done) = (e.b.create_block(), e.b.create_block());
        if gathers(e, &acc) {
            let other = e.b.create_block();
            let gathered = fact_var(e);
            whole_warp(e, &acc, exec, done, other);
            e.switch_to(other);
            gather(e, &acc, exec, done, groups, gathered);
        } else {
            whole_warp(e, &acc, exec, done, groups);
        }
        e.switch_to(groups);
        e.group_loop(|e, off, _| group(e, &acc, exec, off));
        e.b.ins().jump(done, &[]);
        e.switch_to(done);
    } else if gathers(e, &acc) {
        let (lanes, done) = (e.b.create_block(), e.b.create_block());
        let gathered = fact_var(e);
        gather(e, &acc, exec, done, lanes, gathered);
        e.switch_to(lanes);
        e.lane_loop_over(exec, |e, at| lane(e, &acc, at));
        e.b.ins().jump(done, &[]);
        e.switch_to(done);
    } else {
        e.lane_loop_over(exec, |e, at| lane(e, &acc, at));
    }
}

/// Whether lane op `x` is an `ld` loaded once for the warp ([`once`]: an `ld`
/// of an address without a register, outside local memory), its
/// destinations written through `Emitter::write_all`.
pub fn once_for_the_warp(x: &LaneOp) -> bool {
    let Some((space, load)) = x.access() else {
        return false;
    };
    load && x.addr.is_some_and(|a| a.base.is_none())
        && matches!(
            space,
            Space::Param | Space::Global | Space::Const | Space::Shared
        )
}

/// Whether `acc` has the gather path ([`gather`]): a 32-bit `ld.shared`
/// of one element into a 32-bit register at an address in a 32-bit
/// register (whose offset is below 2^31 either way).
fn gathers(e: &Emitter, acc: &Access) -> bool {
    let b32 = |r| e.reg_type(r).bits() == 32;
    !acc.store
        && acc.n == 1
        && acc.size == 4
        && acc.space == Space::Shared
        && acc
            .x
            .addr
            .is_some_and(|a| a.offset.unsigned_abs() < 1 << 31)
        && acc.x.addr.and_then(|a| a.base).is_some_and(b32)
        && matches!(acc.x.dests[0].0, Dest::Reg(r) if b32(r))
}

/// A whole warp's `ld.shared` at any addresses (a column of a tile, one
/// word for every lane): when all 32 lanes execute and every lane's
/// address is aligned and inside the CTA's static shared memory (one
/// vector check of the 32 addresses), each lane loads its word with no
/// check of its own, and the code goes to `done`; otherwise, before
/// loading anything, to `lanes` (the lane loop: its own checks and faults
/// for every lane, as before).
///
/// The vector check covers the offsets of the later `ld.shared` of the
/// segment at the same register ([`gather_range`]: `[%r+32]`, `[%r+64]`
/// of a tile's column), and `gathered` (0 before, [`fact_var`]) is 1
/// after the loads: those accesses then check `gathered` alone
/// ([`FactKind::Gathered`]) while the register keeps its value. A range
/// wider than this access needs only makes its check stricter: where it
/// says no, the lane loop decides, as always.
fn gather(
    e: &mut Emitter,
    acc: &Access,
    exec: Value,
    done: Block,
    lanes: Block,
    gathered: Variable,
) {
    let a = acc.x.addr.expect("an address");
    let base_reg = a.base.expect("a base register");
    // The addresses before the first check ([`whole_warp`]).
    let regs = e.lay.regs[base_reg.index()] as i32;
    let v: [Value; 8] = std::array::from_fn(|j| e.load(I32X4, regs + 16 * j as i32));
    let full = e.b.ins().icmp_imm_s(IntCC::Equal, exec, -1);
    let off = a.offset;
    let known = e.facts.iter().find_map(|f| match f.kind {
        FactKind::Gathered { lo, hi, low }
            if f.reg == base_reg && lo <= off && off <= hi && low == off & 3 =>
        {
            Some(f.var)
        }
        _ => None,
    });
    if let Some(var) = known {
        let flag = e.b.use_var(var);
        let ok = e.b.ins().band(full, flag);
        check(e, ok, lanes);
    } else {
        check(e, full, lanes);
        // Lane `l` reads the 4 bytes at `v_l + o` (`v_l` zero-extended)
        // for every offset `o` in `min..=max`: inside `0..len` when `lo <=
        // v_l <= hi`, `lo = max(0, -min)`, `hi = len - 4 - max`; aligned
        // when `v_l & 3 == -o & 3` (the same for every `o`).
        let (min, max) = gather_range(e, acc, base_reg);
        let lo = (-min).max(0);
        let len = word(e, mem::SHARED + 1);
        let hi = e.b.ins().iadd_imm_s(len, -4 - max);
        let fits =
            e.b.ins()
                .icmp_imm_s(IntCC::SignedGreaterThanOrEqual, hi, lo);
        check(e, fits, lanes);
        let small = e.b.ins().icmp_imm_s(IntCC::SignedLessThan, hi, 1 << 32);
        check(e, small, lanes);
        let hi = e.b.ins().ireduce(I32, hi);
        let hi = e.b.ins().splat(I32X4, hi);
        // (`v >= 0` holds of every unsigned lane: no test.)
        let lo = (lo > 0).then(|| e.vconst_i32x4([lo as u32; 4]));
        let three = e.vconst_i32x4([3; 4]);
        let low_bits = e.vconst_i32x4([(-off & 3) as u32; 4]);
        let ok = all_true(e, &v, |e, v| {
            let below = e.b.ins().icmp(IntCC::UnsignedLessThanOrEqual, v, hi);
            let bits = e.b.ins().band(v, three);
            let aligned = e.b.ins().icmp(IntCC::Equal, bits, low_bits);
            let q = match lo {
                Some(lo) => {
                    let above = e.b.ins().icmp(IntCC::UnsignedGreaterThanOrEqual, v, lo);
                    e.b.ins().band(above, below)
                }
                None => below,
            };
            e.b.ins().band(q, aligned)
        });
        check(e, ok, lanes);
        if max > min {
            e.facts.push(AddrFact {
                reg: base_reg,
                kind: FactKind::Gathered {
                    lo: min,
                    hi: max,
                    low: off & 3,
                },
                var: gathered,
                stale: false,
            });
        }
    }
    let base = word(e, mem::SHARED);
    let Dest::Reg(d) = acc.x.dests[0].0 else {
        unreachable!("gathers")
    };
    // The later loads of the column this check covers that can load now
    // (the first time only: [`followers`]), into their registers.
    let later = if known.is_none() {
        followers(e, acc, base_reg)
    } else {
        Vec::new()
    };
    let loads: Vec<(i64, i32)> = std::iter::once((off, e.lay.regs[d.index()] as i32))
        .chain(
            later
                .iter()
                .map(|&(_, o, r)| (o, e.lay.regs[r.index()] as i32)),
        )
        .collect();
    for (j, &v) in v.iter().enumerate() {
        // Each lane's address once (Cranelift keeps one copy of the same
        // computation), each load next to its insertion (which folds it).
        for (i, &(o, dst)) in loads.iter().enumerate() {
            let mut w = None;
            for l in 0..4u8 {
                // The lane's address zero-extended as a vector (one
                // widening per two lanes), then taken out as a 64-bit word.
                let wide = if l < 2 {
                    e.b.ins().uwiden_low(v)
                } else {
                    e.b.ins().uwiden_high(v)
                };
                let x = e.b.ins().extractlane(wide, l % 2);
                let p = e.b.ins().iadd(base, x);
                let x = e.b.ins().load(I32, heap(), p, o as i32);
                w = Some(match w {
                    Some(w) => e.b.ins().insertlane(w, x, l),
                    None => e.b.ins().scalar_to_vector(I32X4, x),
                });
            }
            let (w, at) = (w.expect("4 lanes"), dst + 16 * j as i32);
            if i == 0 {
                e.store(w, at);
            } else {
                // A later load's register is dead until that load (no
                // lane reads it before): stored at once, past the
                // liveness that would drop it.
                let state = e.state;
                e.store_at(w, state, at);
            }
        }
    }
    for &(q, _, _) in &later {
        e.preloaded.push((q, gathered));
    }
    e.reads_done();
    let one = e.b.ins().iconst(I8, 1);
    e.b.def_var(gathered, one);
    e.b.ins().jump(done, &[]);
}

/// The offsets `min..=max` of `acc` (an `ld.shared` at 32-bit register
/// `reg`) and of the `ld.shared` of 32-bit words at `reg` that follow it
/// in its segment while `reg` keeps its value, those whose offsets have
/// its two low bits and lie within 2^31 (at most 64 instructions on: the
/// rows of a tile's column, `[%r21+32]`, `[%r21+64]`).
fn gather_range(e: &Emitter, acc: &Access, reg: Reg) -> (i64, i64) {
    let off = acc.x.addr.expect("an address").offset;
    let (mut min, mut max) = (off, off);
    let prog = e.prog;
    for pc in (acc.pc + 1..prog.insts.len()).take(64) {
        if prog.labels.iter().any(|l| l.at == pc) {
            break;
        }
        let op = &prog.insts[pc].op;
        if let Op::LaneOp(x) = op {
            let same = matches!(x.access(), Some((Space::Shared, true)))
                && x.dests.len() == 1
                && x.dests[0].1.bits() == 32
                && x.addr.is_some_and(|a| {
                    a.base == Some(reg)
                        && a.offset & 3 == off & 3
                        && a.offset.unsigned_abs() < 1 << 31
                });
            if same {
                let o = x.addr.expect("an address").offset;
                min = min.min(o);
                max = max.max(o);
            }
        }
        let ends = matches!(op, Op::Control(_))
            || matches!(op, Op::LaneOp(x) if x.is_barrier())
            || op.rendezvous_key().is_some();
        if ends || op.written().contains(&reg) {
            break;
        }
    }
    (min, max)
}

/// The later `ld.shared` of the segment's copy for the whole warp at
/// `reg` (a gather's column, [`gather_range`]) that [`gather`] may load
/// with `acc`, once its check passed: `(pc, offset, destination)` of each
/// unguarded load of one 32-bit word into a 32-bit register (not this
/// access's, nor another such load's) at an offset the check covers,
/// such that nothing between the two reads or writes that register,
/// writes `reg`, or may write
/// shared memory (a store outside `.global`, an atomic, a fence, a
/// barrier or anything that ends the segment), and no other warp runs
/// between (no barrier). Loading them early then reads the same bytes
/// into registers no lane reads before, and no lane can fault: the check
/// covered every lane's address at every offset.
fn followers(e: &Emitter, acc: &Access, reg: Reg) -> Vec<(usize, i64, Reg)> {
    let Some(end) = e.copy_end else {
        return Vec::new();
    };
    if !e.is_full() {
        return Vec::new();
    }
    let off = acc.x.addr.expect("an address").offset;
    let (min, max) = gather_range(e, acc, reg);
    let prog = e.prog;
    // This load's register and the later loads' taken so far.
    let mut taken: Vec<Reg> = match acc.x.dests[0].0 {
        Dest::Reg(d) => vec![d],
        Dest::Sink => return Vec::new(),
    };
    let mut out = Vec::new();
    // Registers some instruction between read or wrote.
    let mut touched: Vec<Reg> = Vec::new();
    for q in acc.pc + 1..end.min(prog.insts.len()) {
        if prog.labels.iter().any(|l| l.at == q) || super::inject::rewrite(prog, q).is_some() {
            break;
        }
        let inst = &prog.insts[q];
        let op = &inst.op;
        if let Op::LaneOp(x) = op {
            let one_word = x.dests.len() == 1
                && x.dests[0].1.bits() == 32
                && matches!(x.dests[0].0, Dest::Reg(d) if e.reg_type(d).bits() == 32);
            let at = x.addr.filter(|a| {
                a.base == Some(reg) && a.offset & 3 == off & 3 && min <= a.offset && a.offset <= max
            });
            if let (Some((Space::Shared, true)), true, Some(a), None) =
                (x.access(), one_word, at, inst.guard)
            {
                let Dest::Reg(d) = x.dests[0].0 else {
                    unreachable!("one_word")
                };
                if d != reg && !taken.contains(&d) && !touched.contains(&d) {
                    out.push((q, a.offset, d));
                    taken.push(d);
                    continue;
                }
            }
        }
        let may_write_shared = match op {
            Op::LaneOp(x) => match x.kind {
                LaneOpKind::St(_) => !matches!(x.access(), Some((Space::Global, false))),
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
            Op::Glue(_) => false,
            // Collectives and control end the segment's straight line.
            Op::Shfl(_)
            | Op::Vote(_)
            | Op::Match(_)
            | Op::Redux(_)
            | Op::Activemask(_)
            | Op::Control(_) => true,
        };
        let mut regs: Vec<Reg> = inst.guard.iter().map(|g| g.reg).collect();
        regs.extend(op.source_regs());
        regs.extend(op.written());
        if let Op::LaneOp(x) = op {
            regs.extend(x.addr.and_then(|a| a.base));
        }
        let ends = may_write_shared
            || op.rendezvous_key().is_some()
            || matches!(op, Op::Control(_))
            || op.written().contains(&reg);
        if ends {
            break;
        }
        touched.extend(regs);
    }
    out
}

/// A fact's variable ([`AddrFact`]), 0 here: the access that sets it to
/// 1 on its fast path is emitted next, from this block, which so comes
/// before every later use.
fn fact_var(e: &mut Emitter) -> Variable {
    let var = e.b.declare_var(I8);
    let zero = e.b.ins().iconst(I8, 0);
    e.b.def_var(var, zero);
    var
}

/// The host pointer of `bytes` consecutive bytes from the first lane's
/// address `a0` (plus the instruction's offset): aligned to 4 and wholly
/// inside one buffer or the shared memory ([`resolve`], `lane0` the lane
/// its faults would name); otherwise the code goes to `slow` before
/// touching memory. Leaves the builder in the block that has it.
fn consecutive_at(
    e: &mut Emitter,
    acc: &Access,
    a0: Value,
    bytes: u64,
    lane0: Value,
    slow: Block,
) -> Value {
    let offset = acc.x.addr.expect("an address").offset;
    let ea = e.b.ins().iadd_imm_s(a0, offset);
    let aligned = e.b.ins().band_imm_s(ea, 3);
    let aligned = e.b.ins().icmp_imm_s(IntCC::Equal, aligned, 0);
    check(e, aligned, slow);
    let got = e.b.create_block();
    e.b.append_block_param(got, I64);
    resolve(e, acc, ea, bytes, lane0, false, got, slow);
    e.switch_to(got);
    e.b.block_params(got)[0]
}

/// Where the warp state keeps the register an `ld` writes or an `st`
/// stores (the paths that take one register: [`four_at_a_time`]).
fn data_reg(e: &Emitter, acc: &Access) -> i32 {
    match (acc.x.srcs.first(), acc.x.dests.first()) {
        (Some(&(Operand::Reg(r), _)), _) if acc.store => e.lay.regs[r.index()] as i32,
        (_, Some(&(Dest::Reg(r), _))) if !acc.store => e.lay.regs[r.index()] as i32,
        _ => unreachable!("four_at_a_time"),
    }
}

/// Whether `test` (a lane-wise comparison) holds on every lane of every
/// vector of `vs`: the tests and-ed together, then `vall_true`.
fn all_true(
    e: &mut Emitter,
    vs: &[Value],
    mut test: impl FnMut(&mut Emitter, Value) -> Value,
) -> Value {
    let mut acc = None;
    for &v in vs {
        let q = test(e, v);
        acc = Some(match acc {
            Some(p) => e.b.ins().band(p, q),
            None => q,
        });
    }
    e.b.ins().vall_true(acc.expect("at least one vector"))
}

/// Whether `acc` has the four-lanes path: one 32-bit element per lane
/// at an address in a register, from or into a 32-bit register.
fn four_at_a_time(e: &Emitter, acc: &Access) -> bool {
    let narrow_reg = |r| !wide(e.reg_type(r));
    acc.n == 1
        && acc.size == 4
        && acc.x.addr.and_then(|a| a.base).is_some()
        && acc.space != Space::Local
        && if acc.store {
            matches!(acc.x.srcs[0].0, Operand::Reg(r) if narrow_reg(r))
        } else {
            matches!(acc.x.dests[0].0, Dest::Reg(r) if narrow_reg(r))
        }
}

/// An `ld` at an address without a register: loaded once (for the lowest
/// executing lane, which names itself if it faults), written to every
/// executing lane.
fn once(e: &mut Emitter, acc: &Access, exec: Value, l: &mut super::builder::Lanes) {
    // The lane vectors the writes blend with, built where they dominate
    // the writes (and whatever later code of the segment uses them).
    e.vecs(l);
    let (yes, done) = (e.b.create_block(), e.b.create_block());
    e.b.ins().brif(exec, yes, &[], done, &[]);
    e.switch_to(yes);
    let lane = e.b.ins().ctz(exec);
    let off = acc.x.addr.expect("an address").offset;
    let base = e.b.ins().iconst(I64, off);
    for (k, &(d, _)) in acc.x.dests.iter().enumerate() {
        let v = element(e, acc, lane, base, k, None);
        let Dest::Reg(r) = d else { continue };
        let v = mask(e, v, e.reg_type(r).bits());
        e.write_all(d, l, v);
    }
    e.b.ins().jump(done, &[]);
    e.switch_to(done);
}

/// The whole warp at once: when all 32 lanes execute at consecutive
/// addresses (lane `l` at the first's `+ 4 l`: `a[tid]` in a full warp)
/// that one buffer or shared memory holds, aligned, the access is eight
/// 16-byte loads or stores after one check of the 128 bytes, and goes to
/// `done`; otherwise, before touching any memory, to `groups` (the group
/// loop, which gives every lane its own checks and faults as before).
///
/// Where an earlier access of the segment proved the register's lanes
/// consecutive ([`FactKind::Consecutive`]: the same register, or one
/// that `add`s a uniform register to it, `emit.rs`), the 32 addresses are
/// not compared again: its variable, the running lanes and lane 0's
/// address decide. This access's fast path proves it in turn.
fn whole_warp(e: &mut Emitter, acc: &Access, exec: Value, done: Block, groups: Block) {
    let a = acc.x.addr.expect("an address");
    let base_reg = a.base.expect("a base register");
    let regs = e.lay.regs[base_reg.index()] as i32;
    let wide_base = wide(e.reg_type(base_reg));
    let known = e
        .facts
        .iter()
        .find(|f| f.reg == base_reg && f.kind == FactKind::Consecutive)
        .copied();
    // A deferred row's lanes are written before any slower path reads
    // them ([`defer_row`]).
    let stale = known
        .filter(|f| f.stale)
        .map(|f| (f.var, e.b.create_block()));
    let slow = stale.map_or(groups, |(_, mat)| mat);
    let consecutive = fact_var(e);
    // The later rows of the segment's copy this load loads early on its
    // fast path, so that their cache misses overlap ([`rows`]), and their
    // variable, 0 until they are loaded (not those an earlier load took).
    let early: Vec<Row> = if acc.store {
        Vec::new()
    } else {
        rows::rows(e, acc.pc, acc.x)
            .into_iter()
            .filter(|r| !e.preloaded.iter().any(|&(q, _)| q == r.pc))
            .collect()
    };
    let early_var = (!early.is_empty()).then(|| fact_var(e));
    // The later rows of the copy this store touches ([`touch_early`]).
    let touch = if acc.store && !e.touched.contains(&acc.pc) {
        rows::store_rows(e, acc.pc, acc.x)
            .into_iter()
            .filter(|(q, _)| !e.touched.contains(q))
            .collect()
    } else {
        Vec::new()
    };
    let full = e.b.ins().icmp_imm_s(IntCC::Equal, exec, -1);
    let a0 = if let Some(AddrFact { var, .. }) = known {
        let flag = e.b.use_var(var);
        let ok = e.b.ins().band(full, flag);
        let a0 = e.load_lane0(if wide_base { I64X2 } else { I32X4 }, regs);
        check(e, ok, slow);
        if wide_base {
            a0
        } else {
            e.b.ins().uextend(I64, a0)
        }
    } else {
        // The addresses before the first check: the instruction before
        // that computed them usually left them in SSA values (the check's
        // block switch forgets what is known).
        let v: Vec<Value> = if wide_base {
            (0..16).map(|j| e.load(I64X2, regs + 16 * j)).collect()
        } else {
            (0..8).map(|j| e.load(I32X4, regs + 16 * j)).collect()
        };
        check(e, full, groups);
        let (a0, eq) = if wide_base {
            let a0 = e.b.ins().extractlane(v[0], 0);
            let s = e.b.ins().splat(I64X2, a0);
            let mut j = 0;
            let eq = all_true(e, &v, |e, v| {
                let steps = e.vconst_i64x2([8 * j, 8 * j + 4]);
                j += 1;
                let want = e.b.ins().iadd(s, steps);
                e.b.ins().icmp(IntCC::Equal, v, want)
            });
            (a0, eq)
        } else {
            let a0 = e.b.ins().extractlane(v[0], 0);
            let s = e.b.ins().splat(I32X4, a0);
            let mut j = 0;
            let eq = all_true(e, &v, |e, v| {
                let steps = e.vconst_i32x4([j, j + 4, j + 8, j + 12]);
                j += 16;
                let want = e.b.ins().iadd(s, steps);
                e.b.ins().icmp(IntCC::Equal, v, want)
            });
            let a0 = e.b.ins().uextend(I64, a0);
            (a0, eq)
        };
        check(e, eq, groups);
        e.facts.push(AddrFact {
            reg: base_reg,
            kind: FactKind::Consecutive,
            var: consecutive,
            stale: false,
        });
        a0
    };
    let lane0 = e.b.ins().iconst(I32, 0);
    let p = consecutive_at(e, acc, a0, 4 * WARP as u64, lane0, slow);
    if !touch.is_empty() {
        touch_early(e, acc, &touch, a0);
    }
    let off = data_reg(e, acc);
    for k in 0..WARP as i32 / 4 {
        if acc.store {
            let v = e.load(I32X4, off + 16 * k);
            e.b.ins().store(heap(), v, p, 16 * k);
        } else {
            let v = e.b.ins().load(I32X4, heap(), p, 16 * k);
            e.store(v, off + 16 * k);
        }
    }
    // The address is read: unless it is read again later, it need not
    // reach the state on this path.
    e.reads_done();
    let one = e.b.ins().iconst(I8, 1);
    e.b.def_var(consecutive, one);
    if let Some(var) = early_var {
        load_early(e, &early, a0, var, done);
    }
    e.b.ins().jump(done, &[]);
    if let Some((var, mat)) = stale {
        e.switch_to(mat);
        e.b.set_cold_block(mat);
        let flag = e.b.use_var(var);
        let fill = e.b.create_block();
        e.b.ins().brif(flag, fill, &[], groups, &[]);
        e.switch_to(fill);
        write_row(e, base_reg);
        e.b.ins().jump(groups, &[]);
    }
}

/// Loads the later rows `early` ([`rows::rows`]) of a whole-warp
/// `ld.global` whose base register's lanes are `a0` (lane 0's, an i64)
/// plus `4 l`, on its fast path: each row's lane 0 address computed as
/// the instructions before it will compute it, each checked as
/// [`whole_warp`] checks a row it knows consecutive (aligned, 128 bytes in
/// one buffer); where one check fails the code goes to `done` having
/// loaded nothing early, and every row loads at its own instruction as
/// before. Else the rows' words go into their registers (which no lane
/// reads before those instructions: stored at once, past the liveness
/// that would drop them), the rows are [`Emitter::preloaded`] under
/// `var`, and `var` is 1.
///
/// Why: the row loads of a tiled kernel (the transpose's four) miss the
/// cache; loaded at their own instructions, with a `st.shared` and its
/// checks between, they were waited for one or two at a time.
fn load_early(e: &mut Emitter, early: &[Row], a0: Value, var: Variable, done: Block) {
    let prog = e.prog;
    let mut at = Vec::new();
    for row in early {
        let Op::LaneOp(x) = &prog.insts[row.pc].op else {
            unreachable!("rows: an ld")
        };
        let acc = Access {
            x,
            pc: row.pc,
            space: Space::Global,
            store: false,
            ty: x.dests[0].1,
            size: 4,
            n: 1,
        };
        let base = lane0_of(e, &row.addr, a0);
        let lane0 = e.b.ins().iconst(I32, 0);
        let p = consecutive_at(e, &acc, base, 4 * WARP as u64, lane0, done);
        at.push((p, e.lay.regs[row.dest.index()] as i32));
    }
    let state = e.state;
    for &(p, dst) in &at {
        for k in 0..WARP as i32 / 4 {
            let v = e.b.ins().load(I32X4, heap(), p, 16 * k);
            e.store_at(v, state, dst + 16 * k);
        }
    }
    for row in early {
        e.preloaded.push((row.pc, var));
    }
    let one = e.b.ins().iconst(I8, 1);
    e.b.def_var(var, one);
}

/// Touches the lines of this whole-warp `st.global`'s 128 bytes and of
/// its later rows `touch` ([`rows::store_rows`]), on its fast path and
/// before its stores: a 4-byte load at the start, the middle and the end
/// of each row (every line 128 bytes touch), the value thrown away, each
/// row checked first as [`whole_warp`] checks one (aligned, inside one
/// buffer: a row whose check fails is not touched). Nothing a run could
/// observe changes: the loads read bytes of the launch's buffers and
/// write nothing. `a0` is lane 0's address of this store's base.
///
/// Why: the transpose's output rows miss the cache, and the stores wait
/// for their lines one after another in the store buffer (by PTX
/// variants of the transpose at 1M: about 3 ms of 5); loads of the same
/// lines are in flight together, and the stores then find them.
fn touch_early(e: &mut Emitter, acc: &Access, touch: &[(usize, Lane0)], a0: Value) {
    let prog = e.prog;
    let after = e.b.create_block();
    let mut rows: Vec<(Access, Value)> = Vec::new();
    let own = Access {
        x: acc.x,
        pc: acc.pc,
        space: acc.space,
        store: true,
        ty: acc.ty,
        size: acc.size,
        n: acc.n,
    };
    rows.push((own, a0));
    for (q, addr) in touch {
        let Op::LaneOp(x) = &prog.insts[*q].op else {
            unreachable!("store_rows: an st")
        };
        let row = Access {
            x,
            pc: *q,
            space: Space::Global,
            store: true,
            ty: x.srcs[0].1,
            size: 4,
            n: 1,
        };
        let base = lane0_of(e, addr, a0);
        rows.push((row, base));
        e.touched.push(*q);
    }
    for (row, base) in &rows {
        let next = e.b.create_block();
        let lane0 = e.b.ins().iconst(I32, 0);
        let p = consecutive_at(e, row, *base, 4 * WARP as u64, lane0, next);
        // A load that may trap is never dropped as unused (it cannot
        // trap here: checked just above).
        for off in [0, 64, 124] {
            e.b.ins().load(I32, MemFlagsData::new(), p, off);
        }
        e.b.ins().jump(next, &[]);
        e.switch_to(next);
    }
    e.b.ins().jump(after, &[]);
    e.switch_to(after);
}

/// The value of expression `x` ([`Lane0`]) where the early access's base
/// has lane 0's address `a0`: each operation as the instruction it stands
/// for computes it on lane 0.
fn lane0_of(e: &mut Emitter, x: &Lane0, a0: Value) -> Value {
    match x {
        Lane0::Base => a0,
        Lane0::Now(r) => {
            let bits = e.reg_type(*r).bits();
            e.read(Operand::Reg(*r), 0, bits)
        }
        Lane0::Imm { v, bits: 64 } => e.b.ins().iconst(I64, *v as i64),
        Lane0::Imm { v, .. } => e.b.ins().iconst(I32, *v as u32 as i64),
        Lane0::Bin { op, a, b } => {
            let (a, b) = (lane0_of(e, a, a0), lane0_of(e, b, a0));
            debug_assert!(matches!(op, BinOp::Add | BinOp::Sub), "rows: add or sub");
            if *op == BinOp::Sub {
                e.b.ins().isub(a, b)
            } else {
                e.b.ins().iadd(a, b)
            }
        }
        Lane0::Shl { a, n } => {
            let a = lane0_of(e, a, a0);
            e.b.ins().ishl_imm_s(a, *n as i64)
        }
        Lane0::Wide { signed, a, b } => {
            let (a, b) = (lane0_of(e, a, a0), lane0_of(e, b, a0));
            let (a, b) = if *signed {
                (e.b.ins().sextend(I64, a), e.b.ins().sextend(I64, b))
            } else {
                (e.b.ins().uextend(I64, a), e.b.ins().uextend(I64, b))
            };
            e.b.ins().imul(a, b)
        }
    }
}

/// Writes every lane of `reg`, a row whose state holds lane 0's value
/// alone ([`defer_row`]): lane `l` gets lane 0's value plus `4 l`,
/// wrapping at the register's width. Called in a block that knows
/// nothing of the state (entered from several), left unfilled.
fn write_row(e: &mut Emitter, reg: Reg) {
    let regs = e.lay.regs[reg.index()] as i32;
    let mf = super::builder::mf();
    if wide(e.reg_type(reg)) {
        let a0 = e.b.ins().load(I64, mf, e.state, regs);
        let s = e.b.ins().splat(I64X2, a0);
        for j in 0..WARP as u64 / 2 {
            let steps = e.vconst_i64x2([8 * j, 8 * j + 4]);
            let v = e.b.ins().iadd(s, steps);
            e.b.ins().store(mf, v, e.state, regs + 16 * j as i32);
        }
    } else {
        let a0 = e.b.ins().load(I32, mf, e.state, regs);
        let s = e.b.ins().splat(I32X4, a0);
        for j in 0..WARP as u32 / 4 {
            let steps = e.vconst_i32x4([16 * j, 16 * j + 4, 16 * j + 8, 16 * j + 12]);
            let v = e.b.ins().iadd(s, steps);
            e.b.ins().store(mf, v, e.state, regs + 16 * j as i32);
        }
    }
}

/// The register that instruction `inst` writes and the one it reads
/// where it passes a [`FactKind::Consecutive`] on ([`passed_on`]) from
/// register `from` (known consecutive), judged from the program alone:
/// an unguarded copy, or an integer `add`/`sub` of a uniform register or
/// an immediate, of `from` at its width, in a whole warp's code.
fn passes_on_from(e: &Emitter, inst: &Inst, from: Reg) -> Option<Reg> {
    if !e.is_full() || inst.guard.is_some() {
        return None;
    }
    let same_on_every_lane = |o: Operand| match o {
        Operand::Imm(_) => true,
        Operand::Reg(r) => r != from && e.uniform.get(r.index()).copied().unwrap_or(false),
        Operand::NotPred(_) | Operand::LaneId => false,
    };
    let is_from = |o: Operand| o == Operand::Reg(from);
    let (ty, d) = if let Op::Glue(Glue::Mov {
        ty,
        d: Dest::Reg(d),
        a,
    }) = inst.op
    {
        if !is_from(a) {
            return None;
        }
        (ty, d)
    } else if let Op::Glue(Glue::Bin {
        op,
        ty,
        d: Dest::Reg(d),
        a,
        b,
    }) = inst.op
    {
        let first = (op == BinOp::Add || op == BinOp::Sub) && is_from(a) && same_on_every_lane(b);
        let second = op == BinOp::Add && same_on_every_lane(a) && is_from(b);
        if !(first || second) {
            return None;
        }
        (ty, d)
    } else {
        return None;
    };
    let width = |r: Reg| e.reg_type(r).bits();
    let fits =
        !ty.is_float() && ty.bits() >= 32 && width(d) == ty.bits() && width(from) == ty.bits();
    fits.then_some(d)
}

/// Whether instruction `inst` at `pc`, which passes on a consecutive
/// fact ([`passed_on`] said so), is lowered as a deferred row
/// ([`defer_row`]): in a kernel segment's copy for the whole warp
/// (`Emitter::copy_end`), when every later read of the register it
/// writes, until it is written again, is the address of a whole-warp
/// `ld`/`st` of the copy ([`whole_warp`], which writes the lanes before
/// any slower path) or a row deferred in turn, and the register is dead
/// after the copy.
pub fn defers(e: &Emitter, inst: &Inst, pc: usize) -> bool {
    let Some(end) = e.copy_end else {
        return false;
    };
    // The consecutive operand: the one a fact names.
    let known = |o: Operand| match o {
        Operand::Reg(r) => e
            .facts
            .iter()
            .any(|f| f.reg == r && f.kind == FactKind::Consecutive)
            .then_some(r),
        Operand::Imm(_) | Operand::NotPred(_) | Operand::LaneId => None,
    };
    let from = if let Op::Glue(Glue::Mov {
        a: Operand::Reg(x), ..
    }) = inst.op
    {
        x
    } else if let Op::Glue(Glue::Bin { a, b, .. }) = inst.op {
        let Some(x) = known(a).or_else(|| known(b)) else {
            return false;
        };
        x
    } else {
        return false;
    };
    match passes_on_from(e, inst, from) {
        Some(d) => only_rows_read(e, pc, d, end, 0),
        None => false,
    }
}

/// Whether register `d`, written at `pc`, is read after it (until it is
/// written again, within the copy ending at `end`) only as the address
/// of whole-warp `ld`/`st` ([`whole_warp`]) and by rows deferred in turn
/// ([`defers`]), and is dead after the copy. Any doubt is "no".
fn only_rows_read(e: &Emitter, pc: usize, d: Reg, end: usize, depth: u32) -> bool {
    let Some(live) = &e.live else {
        return false;
    };
    if depth > 16 || end > e.prog.insts.len() {
        return false;
    }
    let prog = e.prog;
    for q in pc + 1..end {
        let inst = &prog.insts[q];
        if super::inject::rewrite(prog, q).is_some() {
            return false;
        }
        let by_guard = inst.guard.is_some_and(|g| g.reg == d);
        let by_source = inst.op.source_regs().contains(&d);
        let (by_addr, access) = if let Op::LaneOp(x) = &inst.op {
            (x.addr.and_then(|a| a.base) == Some(d), x.access().is_some())
        } else {
            (false, false)
        };
        let writes = inst.op.written().contains(&d);
        if by_guard || by_source || by_addr {
            let ok = if by_addr && access {
                let Op::LaneOp(x) = &inst.op else {
                    unreachable!("an access")
                };
                !by_guard && !by_source && !writes && whole_warp_access(e, x)
            } else if by_source && !by_guard && !by_addr && !writes {
                match passes_on_from(e, inst, d) {
                    Some(next) => only_rows_read(e, q, next, end, depth + 1),
                    None => false,
                }
            } else {
                false
            };
            if !ok {
                return false;
            }
        } else if writes {
            // Written again by every lane: later reads read the new value.
            return inst.guard.is_none();
        }
    }
    !live.keeps(end - 1, d.index(), true)
}

/// Whether `ld`/`st` `x` takes [`whole_warp`] first (an address in a
/// register, [`emit`]'s `four_at_a_time`), judged from the program alone.
fn whole_warp_access(e: &Emitter, x: &LaneOp) -> bool {
    let Some((space, load)) = x.access() else {
        return false;
    };
    let narrow_reg = |r: Reg| !wide(e.reg_type(r));
    let (n, ty) = if load {
        (x.dests.len(), x.dests.first().map(|d| d.1))
    } else {
        (x.srcs.len(), x.srcs.first().map(|s| s.1))
    };
    n == 1
        && ty.is_some_and(|t| (t.bits() as u64).div_ceil(8) == 4)
        && x.addr.and_then(|a| a.base).is_some()
        && space != Space::Local
        && if load {
            matches!(x.dests[0].0, Dest::Reg(r) if narrow_reg(r))
        } else {
            matches!(x.srcs[0].0, Operand::Reg(r) if narrow_reg(r))
        }
}

/// Begins instruction `inst` as a deferred row ([`defers`]) of `fact`
/// (what [`passed_on`] passes on to it): where the fact's variable is 1
/// (its source's lanes are consecutive), the row's lane 0 alone is
/// computed and stored (lane 0's value of the copy, `add`, `sub`: one
/// scalar operation instead of 16 or 8 vector ones), and the code goes to
/// the returned block; elsewhere it goes on in a fresh block, where the
/// caller lowers the instruction as usual and then jumps to the returned
/// block. The lanes themselves are written by the first reader that
/// needs them ([`whole_warp`]'s slower paths, [`write_row`]).
pub fn defer_row(e: &mut Emitter, inst: &Inst, fact: AddrFact) -> Block {
    let (fast, slow, join) = (e.b.create_block(), e.b.create_block(), e.b.create_block());
    let flag = e.b.use_var(fact.var);
    e.b.ins().brif(flag, fast, &[], slow, &[]);
    e.switch_to(fast);
    // `defers` took only a copy, an `add` or a `sub` ([`passes_on_from`]).
    let (ty, d, v) = if let Op::Glue(Glue::Mov {
        ty,
        d: Dest::Reg(d),
        a,
    }) = inst.op
    {
        let w = ty.bits();
        (ty, d, lane0(e, a, w))
    } else if let Op::Glue(Glue::Bin {
        op,
        ty,
        d: Dest::Reg(d),
        a,
        b,
    }) = inst.op
    {
        let w = ty.bits();
        let (x, y) = (lane0(e, a, w), lane0(e, b, w));
        debug_assert!(op == BinOp::Add || op == BinOp::Sub, "defers: add or sub");
        let v = if op == BinOp::Sub {
            e.b.ins().isub(x, y)
        } else {
            e.b.ins().iadd(x, y)
        };
        (ty, d, v)
    } else {
        unreachable!("defers: a copy, add or sub")
    };
    debug_assert!(matches!(ty.bits(), 32 | 64), "defers: 32 or 64 bits");
    let at = e.lay.regs[d.index()] as i32;
    e.store(v, at);
    e.b.ins().jump(join, &[]);
    e.switch_to(slow);
    join
}

/// Whether lane op `inst` at `pc` is lowered as a deferred source row
/// ([`defer_source`]): in a kernel segment's copy for the whole warp, an
/// unguarded `mul.wide` of a 32-bit register by 4 (an index scaled to
/// bytes: `mul.wide.s32 %rd4, %r11, 4`) whose product is read only as
/// [`defers`] allows (by the rows that add it to a base, then their
/// whole-warp accesses).
pub fn defers_source(e: &Emitter, inst: &Inst, pc: usize) -> bool {
    let Some(end) = e.copy_end else {
        return false;
    };
    if !e.is_full() || inst.guard.is_some() || super::inject::rewrite(e.prog, pc).is_some() {
        return false;
    }
    match scaled_index(e, inst) {
        Some((_, d)) => only_rows_read(e, pc, d, end, 0),
        None => false,
    }
}

/// The index register and the product of `inst` when it is `mul.wide` of
/// a 32-bit register by the immediate 4 into a 64-bit register.
fn scaled_index(e: &Emitter, inst: &Inst) -> Option<(Reg, Reg)> {
    let Op::LaneOp(x) = &inst.op else {
        return None;
    };
    if x.kind != LaneOpKind::Int(IntOp::MulWide) || x.srcs.len() != 2 || x.dests.len() != 1 {
        return None;
    }
    let (Operand::Reg(i), t) = x.srcs[0] else {
        return None;
    };
    let (Dest::Reg(d), dt) = x.dests[0] else {
        return None;
    };
    let four = matches!(x.srcs[1].0, Operand::Imm(v) if v as u32 == 4);
    let fits = t.bits() == 32
        && e.reg_type(i).bits() == 32
        && dt.bits() == 64
        && e.reg_type(d).bits() == 64
        && i != d;
    (four && fits).then_some((i, d))
}

/// Begins `mul.wide` `inst` ([`defers_source`]) as a deferred row: where
/// its index's 32 lanes are lane 0's plus `l` with no wrap at 32 bits
/// (one vector check of the 8 vectors), the products are lane 0's plus
/// `4 l`, and only lane 0's is computed and stored; the code goes to the
/// returned block. Elsewhere it goes on in a fresh block, where the
/// caller lowers the instruction as usual and then jumps to the returned
/// block. The fact to add after the instruction (its product
/// consecutive, stale, where the check held) comes back too.
pub fn defer_source(e: &mut Emitter, inst: &Inst) -> (Block, AddrFact) {
    let (i, d) = scaled_index(e, inst).expect("defers_source");
    let Op::LaneOp(x) = &inst.op else {
        unreachable!("defers_source: a lane op")
    };
    let signed = x.srcs[0].1.is_signed();
    let var = fact_var(e);
    let v: [Value; 8] = std::array::from_fn(|k| e.read_vec(Operand::Reg(i), k));
    let x0 = e.b.ins().extractlane(v[0], 0);
    let s = e.b.ins().splat(I32X4, x0);
    let mut k = 0;
    let consecutive = all_true(e, &v, |e, v| {
        let steps = e.vconst_i32x4([k, k + 1, k + 2, k + 3]);
        k += 4;
        let want = e.b.ins().iadd(s, steps);
        e.b.ins().icmp(IntCC::Equal, v, want)
    });
    // Lane 31's `x0 + 31` does not wrap: each lane's widened index is
    // then lane 0's plus `l`.
    let (x64, no_wrap) = if signed {
        let x64 = e.b.ins().sextend(I64, x0);
        let ok =
            e.b.ins()
                .icmp_imm_s(IntCC::SignedLessThanOrEqual, x64, i32::MAX as i64 - 31);
        (x64, ok)
    } else {
        let x64 = e.b.ins().uextend(I64, x0);
        let ok =
            e.b.ins()
                .icmp_imm_s(IntCC::UnsignedLessThanOrEqual, x64, u32::MAX as i64 - 31);
        (x64, ok)
    };
    let ok = e.b.ins().band(consecutive, no_wrap);
    let (fast, slow, join) = (e.b.create_block(), e.b.create_block(), e.b.create_block());
    e.b.ins().brif(ok, fast, &[], slow, &[]);
    e.switch_to(fast);
    let d0 = e.b.ins().ishl_imm_s(x64, 2);
    let at = e.lay.regs[d.index()] as i32;
    e.store(d0, at);
    let one = e.b.ins().iconst(I8, 1);
    e.b.def_var(var, one);
    e.b.ins().jump(join, &[]);
    e.switch_to(slow);
    let fact = AddrFact {
        reg: d,
        kind: FactKind::Consecutive,
        var,
        stale: true,
    };
    (join, fact)
}

/// Lane 0's value of operand `o` as a `width`-bit integer.
fn lane0(e: &mut Emitter, o: Operand, width: u32) -> Value {
    match o {
        Operand::Imm(v) if width == 32 => e.b.ins().iconst(I32, v as u32 as i64),
        _ => e.read(o, 0, width),
    }
}

/// The fact instruction `inst` at `pc` passes on to the register it
/// writes, lowered as it stands (`emit.rs` calls this before lowering
/// it, and adds the fact after forgetting those of the registers it
/// writes): where every lane of the warp runs it (a segment of the whole
/// warp, no guard), a copy (`mov`) or an integer `add`/`sub` of a
/// uniform register or an immediate of the width of a register whose
/// lanes are known consecutive ([`FactKind::Consecutive`]) leaves its
/// destination's lanes consecutive under the same variable (each lane
/// adds the same value, wrapping at the same width).
pub fn passed_on(e: &Emitter, inst: &Inst) -> Option<AddrFact> {
    if !e.is_full() || inst.guard.is_some() || e.facts.is_empty() {
        return None;
    }
    let consecutive = |r: Reg| {
        e.facts
            .iter()
            .find(|f| f.reg == r && f.kind == FactKind::Consecutive)
            .copied()
    };
    let same_on_every_lane = |o: Operand| match o {
        Operand::Imm(_) => true,
        Operand::Reg(r) => e.uniform.get(r.index()).copied().unwrap_or(false),
        Operand::NotPred(_) | Operand::LaneId => false,
    };
    let reg = |o: Operand| match o {
        Operand::Reg(r) => Some(r),
        Operand::Imm(_) | Operand::NotPred(_) | Operand::LaneId => None,
    };
    let (ty, d, x) = if let Op::Glue(Glue::Mov {
        ty,
        d: Dest::Reg(d),
        a: Operand::Reg(x),
    }) = inst.op
    {
        (ty, d, x)
    } else if let Op::Glue(Glue::Bin {
        op,
        ty,
        d: Dest::Reg(d),
        a,
        b,
    }) = inst.op
    {
        let a_consecutive = reg(a).is_some_and(|r| consecutive(r).is_some());
        let x = if matches!(op, BinOp::Add | BinOp::Sub) && a_consecutive && same_on_every_lane(b) {
            reg(a)
        } else if op == BinOp::Add && same_on_every_lane(a) {
            reg(b)
        } else {
            None
        };
        (ty, d, x?)
    } else {
        return None;
    };
    let width = |r: Reg| e.reg_type(r).bits();
    let fits = !ty.is_float() && ty.bits() >= 32 && width(d) == ty.bits() && width(x) == ty.bits();
    let fact = consecutive(x)?;
    // (Its lanes are computed: `emit.rs` marks a deferred row stale.)
    fits.then_some(AddrFact {
        reg: d,
        stale: false,
        ..fact
    })
}

/// The four lanes of the group at byte offset `off` (an i64, 16 k) of a
/// 32-bit array: one 16-byte access when all four execute at consecutive
/// addresses that one buffer or shared memory holds, else lane by lane.
fn group(e: &mut Emitter, acc: &Access, exec: Value, off: Value) {
    let a = acc.x.addr.expect("an address");
    let base_reg = a.base.expect("a base register");
    let (vector, scalar, next) = (e.b.create_block(), e.b.create_block(), e.b.create_block());
    let first = e.b.ins().ushr_imm_s(off, 2);
    let first = e.b.ins().ireduce(I32, first);
    let nib = e.b.ins().ushr(exec, first);
    let nib = e.b.ins().band_imm_s(nib, 15);
    let all = e.b.ins().icmp_imm_s(IntCC::Equal, nib, 15);
    e.b.ins().brif(all, vector, &[], scalar, &[]);

    // Four consecutive addresses, lanes 4k..4k+3.
    e.switch_to(vector);
    let regs = e.lay.regs[base_reg.index()] as i32;
    let (a0, consecutive) = if wide(e.reg_type(base_reg)) {
        let off2 = e.b.ins().ishl_imm_s(off, 1);
        let p = e.b.ins().iadd(e.state, off2);
        let lo = e.b.ins().load(I64X2, super::builder::mf(), p, regs);
        let hi = e.b.ins().load(I64X2, super::builder::mf(), p, regs + 16);
        let a0 = e.b.ins().extractlane(lo, 0);
        let s = e.b.ins().splat(I64X2, a0);
        let steps_lo = e.vconst_i64x2([0, 4]);
        let steps_hi = e.vconst_i64x2([8, 12]);
        let want_lo = e.b.ins().iadd(s, steps_lo);
        let want_hi = e.b.ins().iadd(s, steps_hi);
        let eq_lo = e.b.ins().icmp(IntCC::Equal, lo, want_lo);
        let eq_hi = e.b.ins().icmp(IntCC::Equal, hi, want_hi);
        let eq = e.b.ins().band(eq_lo, eq_hi);
        (a0, e.b.ins().vall_true(eq))
    } else {
        let p = e.b.ins().iadd(e.state, off);
        let v = e.b.ins().load(I32X4, super::builder::mf(), p, regs);
        let a0 = e.b.ins().extractlane(v, 0);
        let s = e.b.ins().splat(I32X4, a0);
        let steps = e.vconst_i32x4([0, 4, 8, 12]);
        let want = e.b.ins().iadd(s, steps);
        let eq = e.b.ins().icmp(IntCC::Equal, v, want);
        let a0 = e.b.ins().uextend(I64, a0);
        (a0, e.b.ins().vall_true(eq))
    };
    check(e, consecutive, scalar);
    let p = consecutive_at(e, acc, a0, 16, first, scalar);
    let off = data_reg(e, acc);
    // The four lanes of the register: state + 4 * first lane.
    let regs_at = {
        let first64 = e.b.ins().uextend(I64, first);
        let byte = e.b.ins().ishl_imm_s(first64, 2);
        e.b.ins().iadd(e.state, byte)
    };
    if acc.store {
        let v = e.b.ins().load(I32X4, super::builder::mf(), regs_at, off);
        e.b.ins().store(heap(), v, p, 0);
    } else {
        let v = e.b.ins().load(I32X4, heap(), p, 0);
        e.store_at(v, regs_at, off);
    }
    e.b.ins().jump(next, &[]);

    e.switch_to(scalar);
    let lanes = e.b.ins().iconst(I32, 15);
    let lanes = e.b.ins().ishl(lanes, first);
    let lanes = e.b.ins().band(lanes, exec);
    e.lane_loop_over(lanes, |e, at| lane(e, acc, at));
    e.b.ins().jump(next, &[]);
    e.switch_to(next);
}

/// Continues in a fresh block when `ok` (an integer scalar) is not 0;
/// else goes to `slow`.
fn check(e: &mut Emitter, ok: Value, slow: Block) {
    let next = e.b.create_block();
    e.b.ins().brif(ok, next, &[], slow, &[]);
    e.switch_to(next);
}

/// Whether `a + size <= len` without wrapping around (i64 values): `a <
/// len` too.
fn within(e: &mut Emitter, a: Value, len: Value, size: u64) -> Value {
    let below = e.b.ins().icmp(IntCC::UnsignedLessThan, a, len);
    let end = e.b.ins().iadd_imm_s(a, size as i64);
    let fits = e.b.ins().icmp(IntCC::UnsignedLessThanOrEqual, end, len);
    e.b.ins().band(below, fits)
}

/// Memory word `i` of the state (`layout.rs`'s `mem`): written before the
/// call, never by the code, so the load may move (out of a loop, say).
fn word(e: &mut Emitter, i: u32) -> Value {
    let flags = super::builder::mf().with_readonly().with_can_move();
    e.b.ins().load(I64, flags, e.state, Layout::mem(i))
}

/// Emits code that finds the host address of the `size` bytes at
/// address `ea` (an i64) of `acc`'s space for `lane` (an i32), and jumps
/// with it to `got` (whose parameter it is); where the bytes are not all
/// in one launch buffer, the parameters, shared memory or (`local`) the
/// lane's local memory, or `acc` stores to the parameters, it goes to
/// `slow`. Leaves the emitter in no block.
#[allow(clippy::too_many_arguments)]
fn resolve(
    e: &mut Emitter,
    acc: &Access,
    ea: Value,
    size: u64,
    lane: Value,
    local: bool,
    got: Block,
    slow: Block,
) {
    match acc.space {
        Space::Global | Space::Const => global(e, ea, size, got, slow),
        Space::Shared => shared(e, ea, size, got, slow),
        Space::Local if local => local_lane(e, ea, size, lane, got, slow),
        Space::Local => {
            e.b.ins().jump(slow, &[]);
        }
        Space::Param if acc.store => {
            e.b.ins().jump(slow, &[]);
        }
        Space::Param => {
            let len = word(e, mem::PARAM + 1);
            let ok = within(e, ea, len, size);
            check(e, ok, slow);
            let base = word(e, mem::PARAM);
            let p = e.b.ins().iadd(base, ea);
            e.b.ins().jump(got, &[p.into()]);
        }
        Space::Generic => {
            // The shared window, the local window, else a global address
            // (as `interp::memory::resolve`).
            let (in_shared, not_shared) = (e.b.create_block(), e.b.create_block());
            let s = e.b.ins().iadd_imm_s(ea, -(windows::SHARED as i64));
            let is =
                e.b.ins()
                    .icmp_imm_s(IntCC::UnsignedLessThan, s, windows::WINDOW as i64);
            e.b.ins().brif(is, in_shared, &[], not_shared, &[]);
            e.switch_to(in_shared);
            shared(e, s, size, got, slow);
            e.switch_to(not_shared);
            let l = e.b.ins().iadd_imm_s(ea, -(windows::LOCAL as i64));
            let is =
                e.b.ins()
                    .icmp_imm_s(IntCC::UnsignedLessThan, l, windows::WINDOW as i64);
            let (in_local, in_global) = (e.b.create_block(), e.b.create_block());
            e.b.ins().brif(is, in_local, &[], in_global, &[]);
            e.switch_to(in_local);
            if local {
                local_lane(e, l, size, lane, got, slow);
            } else {
                e.b.ins().jump(slow, &[]);
            }
            e.switch_to(in_global);
            global(e, ea, size, got, slow);
        }
    }
}

/// [`resolve`] of a global address: launch buffer `k` holds
/// `BUFFERS + k * BUFFER_STRIDE ..` (`interp::grid`'s layout).
fn global(e: &mut Emitter, ea: Value, size: u64, got: Block, slow: Block) {
    const _: () = assert!(windows::BUFFER_STRIDE == 1 << 32);
    let off = e.b.ins().iadd_imm_s(ea, -(windows::BUFFERS as i64));
    let k = e.b.ins().ushr_imm_s(off, 32);
    let nbuf = word(e, mem::NBUF);
    let ok = e.b.ins().icmp(IntCC::UnsignedLessThan, k, nbuf);
    check(e, ok, slow);
    let o = e.b.ins().band_imm_s(off, 0xffff_ffff);
    let table = word(e, mem::BUFFERS);
    let entry = e.b.ins().ishl_imm_s(k, 4);
    let entry = e.b.ins().iadd(table, entry);
    let len = e.b.ins().load(I64, heap().with_readonly(), entry, 8);
    // `o` is below 2^32: `o + size` does not wrap.
    let end = e.b.ins().iadd_imm_s(o, size as i64);
    let ok = e.b.ins().icmp(IntCC::UnsignedLessThanOrEqual, end, len);
    check(e, ok, slow);
    let ptr = e.b.ins().load(I64, heap().with_readonly(), entry, 0);
    let p = e.b.ins().iadd(ptr, o);
    e.b.ins().jump(got, &[p.into()]);
}

/// [`resolve`] of an address `a` of the shared space: the static shared
/// memory from 0, the dynamic from `windows::DYNAMIC_SHARED`.
fn shared(e: &mut Emitter, a: Value, size: u64, got: Block, slow: Block) {
    let (in_static, not_static) = (e.b.create_block(), e.b.create_block());
    let len = word(e, mem::SHARED + 1);
    let ok = within(e, a, len, size);
    e.b.ins().brif(ok, in_static, &[], not_static, &[]);
    e.switch_to(in_static);
    let base = word(e, mem::SHARED);
    let p = e.b.ins().iadd(base, a);
    e.b.ins().jump(got, &[p.into()]);
    e.switch_to(not_static);
    let d = e.b.ins().iadd_imm_s(a, -(windows::DYNAMIC_SHARED as i64));
    let len = word(e, mem::DYNAMIC + 1);
    let ok = within(e, d, len, size);
    check(e, ok, slow);
    let base = word(e, mem::DYNAMIC);
    let p = e.b.ins().iadd(base, d);
    e.b.ins().jump(got, &[p.into()]);
}

/// [`resolve`] of an address `a` of `lane`'s local space: its bytes
/// follow the lower lanes'.
fn local_lane(e: &mut Emitter, a: Value, size: u64, lane: Value, got: Block, slow: Block) {
    let len = word(e, mem::LOCAL + 1);
    let ok = within(e, a, len, size);
    check(e, ok, slow);
    let base = word(e, mem::LOCAL);
    let l = e.b.ins().band_imm_s(lane, 31);
    let l = e.b.ins().uextend(I64, l);
    let before = e.b.ins().imul(l, len);
    let p = e.b.ins().iadd(base, before);
    let p = e.b.ins().iadd(p, a);
    e.b.ins().jump(got, &[p.into()]);
}

/// One lane's `ld`/`st`, every element.
fn lane(e: &mut Emitter, acc: &Access, at: At) {
    let a = acc.x.addr.expect("an address");
    let base = match a.base {
        Some(r) => {
            let ty = e.reg_type(r);
            let v = read(e, Operand::Reg(r), ty, at);
            e.b.ins().iadd_imm_s(v, a.offset)
        }
        None => e.b.ins().iconst(I64, a.offset),
    };
    for k in 0..acc.n {
        if acc.store {
            let (o, ty) = acc.x.srcs[k];
            let v = read(e, o, ty, at);
            element(e, acc, at.lane, base, k, Some(v));
        } else {
            let v = element(e, acc, at.lane, base, k, None);
            if let Dest::Reg(r) = acc.x.dests[k].0 {
                let v = mask(e, v, e.reg_type(r).bits());
                let v = if wide(e.reg_type(r)) {
                    v
                } else {
                    e.b.ins().ireduce(I32, v)
                };
                e.write_lane(acc.x.dests[k].0, at, v);
            }
        }
    }
}

/// Element `k` of the access at `base` (an i64) for `lane` (an i32):
/// stores `value` (`Some`), or returns the loaded value (an i64, zero- or
/// sign-extended from the element type; 0 for a store). A refused access
/// calls the run time.
fn element(
    e: &mut Emitter,
    acc: &Access,
    lane: Value,
    base: Value,
    k: usize,
    value: Option<Value>,
) -> Value {
    let slow = e.b.create_block();
    e.b.set_cold_block(slow);
    let join = e.b.create_block();
    e.b.append_block_param(join, I64);
    let got = e.b.create_block();
    e.b.append_block_param(got, I64);
    // A vector is aligned to its whole size, an element to its own.
    let align = if acc.n > 1 {
        acc.size * acc.n as u64
    } else {
        acc.size
    };
    let ea = e.b.ins().iadd_imm_s(base, (k as u64 * acc.size) as i64);
    let low = e.b.ins().band_imm_s(base, (align - 1) as i64);
    let aligned = e.b.ins().icmp_imm_s(IntCC::Equal, low, 0);
    check(e, aligned, slow);
    resolve(e, acc, ea, acc.size, lane, true, got, slow);

    e.switch_to(got);
    let p = e.b.block_params(got)[0];
    let signed = acc.ty.is_signed();
    let v = match value {
        Some(v) => {
            match acc.size {
                1 => e.b.ins().istore8(heap(), v, p, 0),
                2 => e.b.ins().istore16(heap(), v, p, 0),
                4 => e.b.ins().istore32(heap(), v, p, 0),
                _ => e.b.ins().store(heap(), v, p, 0),
            };
            e.b.ins().iconst(I64, 0)
        }
        None => match (acc.size, signed) {
            (1, true) => e.b.ins().sload8(I64, heap(), p, 0),
            (1, false) => e.b.ins().uload8(I64, heap(), p, 0),
            (2, true) => e.b.ins().sload16(I64, heap(), p, 0),
            (2, false) => e.b.ins().uload16(I64, heap(), p, 0),
            (4, true) => e.b.ins().sload32(heap(), p, 0),
            (4, false) => e.b.ins().uload32(heap(), p, 0),
            _ => e.b.ins().load(I64, heap(), p, 0),
        },
    };
    e.b.ins().jump(join, &[v.into()]);

    e.switch_to(slow);
    let pc = e.b.ins().iconst(I64, acc.pc as i64);
    let lane = e.b.ins().uextend(I64, lane);
    let kv = e.b.ins().iconst(I64, k as i64);
    let v = match value {
        Some(v) => {
            let f = runtime::host_st as *const () as usize;
            e.call_host(f, &[pc, lane, base, v, kv])
        }
        None => {
            let f = runtime::host_ld as *const () as usize;
            e.call_host(f, &[pc, lane, base, kv])
        }
    };
    e.b.ins().jump(join, &[v.into()]);
    e.switch_to(join);
    e.b.block_params(join)[0]
}

/// [`resolve`] for an atomic `x` at `pc` (`atomic.rs`) on `size` bytes at
/// `ea` of `space` for `lane`: a launch buffer or the CTA's shared memory
/// go to `got`, anything else (module variables, `.local`, faults) to
/// `slow`.
#[allow(clippy::too_many_arguments)]
pub(crate) fn resolve_atomic(
    e: &mut Emitter,
    x: &LaneOp,
    pc: usize,
    space: Space,
    ea: Value,
    size: u64,
    lane: Value,
    got: Block,
    slow: Block,
) {
    let acc = Access {
        x,
        pc,
        space,
        store: true,
        ty: x.srcs[0].1,
        size,
        n: 1,
    };
    resolve(e, &acc, ea, size, lane, false, got, slow);
}
