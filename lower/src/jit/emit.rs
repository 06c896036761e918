//! The lowering driver: control flow with min-PC reconvergence, fuel, lane
//! masks and operand access. The instruction families' own lowering lives
//! beside this file, one file per family, named as in `warp-core`'s
//! interpreter.
//!
//! # How min-PC scheduling becomes straight code
//!
//! Under min-PC, the lanes with the lowest program counter run together.
//! After an ordinary instruction at `i` they all move to `i + 1`, which is
//! then the lowest pc, so the group only changes where other lanes can be
//! waiting: at *park points* (the program start, every label, and the
//! instruction after every `bra` and `exit`). The body is cut into
//! *segments* between consecutive park points. Each segment is one block
//! entry that merges the lanes parked there into the running group `conv`,
//! then runs its instructions for that group.
//!
//! - `bra L` forward: the lanes that take it park at `L`; the others go on.
//! - `bra L` backward: the lanes that do not take it park after the `bra`;
//!   the others jump to `L`, which is then the lowest pc (every parked lane
//!   is past the `bra`).
//! - `exit`: the exiting lanes leave the group.
//! - When the group becomes empty, the scheduler picks the lowest park point
//!   with waiting lanes; when there is none, the warp is finished.
//!
//! Fuel is charged per segment: a segment of `n` instructions needs `n`
//! steps, and when fewer remain, the run stops at the instruction where the
//! interpreter would have, with the same error.

use super::layout::{wide, Layout};
use super::{activemask, alu, matching, redux, shfl, vote};
use cranelift_codegen::ir::condcodes::IntCC;
use cranelift_codegen::ir::types::{I32, I32X4, I64};
use cranelift_codegen::ir::{Block, InstBuilder, MemFlagsData, Value};
use cranelift_frontend::{FunctionBuilder, Variable};
use std::collections::BTreeMap;
use warp_core::ir::{Dest, Guard, Inst, Op, Operand, Program, Reg, Type, WARP};

/// Memory flags for every state access: the buffer is valid, aligned and
/// never traps.
pub fn mf() -> MemFlagsData {
    MemFlagsData::trusted()
}

/// The emitter of one program.
pub struct Emitter<'a, 'b> {
    /// The Cranelift builder.
    pub b: &'a mut FunctionBuilder<'b>,
    /// The program.
    pub prog: &'a Program,
    /// The state layout.
    pub lay: &'a Layout,
    /// The state pointer (function argument).
    pub state: Value,
    conv: Variable,
    exited: Variable,
    fuel: Variable,
    /// Park point → (its segment's block, its waiting-lanes variable).
    parks: BTreeMap<usize, (Block, Variable)>,
    /// Mask vectors of the running group, computed once per segment.
    conv_vecs: Option<[Value; 8]>,
    /// Whether the running group is statically the whole warp: in the
    /// first segment, when no label stands at the start, every lane is
    /// there and none has exited, so unguarded writes need no blending.
    full: bool,
}

/// The lanes one instruction runs on; the masks are built on first use.
#[derive(Clone, Copy)]
pub struct Lanes {
    /// The running group (converged lanes) as an i32 mask.
    pub conv: Value,
    guard: Option<Guard>,
    exec: Option<Value>,
    vecs: Option<[Value; 8]>,
}

/// A run-time lane inside [`Emitter::lane_loop`]: the lane index and the
/// state pointer advanced by `lane * 4` and `lane * 8`.
#[derive(Clone, Copy)]
pub struct At {
    /// The lane (i32, 0..32).
    pub lane: Value,
    /// `state + lane * 4`: add a 32-bit array's base offset.
    pub p4: Value,
    /// `state + lane * 8`: add a 64-bit array's base offset.
    pub p8: Value,
}

/// The park points of a program: start, labels, after `bra`/`exit`, end.
fn park_points(prog: &Program) -> Vec<usize> {
    let mut v = vec![0, prog.insts.len()];
    v.extend(prog.labels.iter().map(|l| l.at));
    for (i, inst) in prog.insts.iter().enumerate() {
        if inst.op.is_control_flow() {
            v.push(i + 1);
        }
    }
    v.sort_unstable();
    v.dedup();
    v
}

impl<'a, 'b> Emitter<'a, 'b> {
    /// Emits the whole function body into `b` (whose entry block has the
    /// state pointer parameter).
    pub fn emit_function(b: &'a mut FunctionBuilder<'b>, prog: &'a Program, lay: &'a Layout) {
        let entry = b.create_block();
        b.append_block_params_for_function_params(entry);
        b.switch_to_block(entry);
        b.seal_block(entry);
        let state = b.block_params(entry)[0];
        let conv = b.declare_var(I32);
        let exited = b.declare_var(I32);
        let fuel = b.declare_var(I64);
        let mut e = Emitter {
            b,
            prog,
            lay,
            state,
            conv,
            exited,
            fuel,
            parks: BTreeMap::new(),
            conv_vecs: None,
            full: false,
        };
        let points = park_points(prog);
        for &p in &points {
            let blk = e.b.create_block();
            let var = e.b.declare_var(I32);
            e.parks.insert(p, (blk, var));
        }
        // Entry: every lane at pc 0, nothing parked, nothing exited.
        let zero = e.b.ins().iconst(I32, 0);
        let all = e.b.ins().iconst(I32, -1);
        for &(_, var) in e.parks.values() {
            e.b.def_var(var, zero);
        }
        e.b.def_var(e.conv, all);
        let ex = e.load(I32, lay.exited as i32);
        e.b.def_var(e.exited, ex);
        let fu = e.load(I64, lay.fuel as i32);
        e.b.def_var(e.fuel, fu);
        let first = e.parks[&0].0;
        e.b.ins().jump(first, &[]);

        let sched = e.b.create_block();
        let out_of_fuel = e.b.create_block();
        e.b.append_block_param(out_of_fuel, I64);
        let len = prog.insts.len();
        for w in points.windows(2) {
            e.segment(w[0], w[1], sched, out_of_fuel);
        }
        // The end of the program: the lanes that reach it are done.
        let (end_blk, _) = e.parks[&len];
        e.b.switch_to_block(end_blk);
        e.finish();

        // The scheduler: the lowest park point with waiting lanes.
        e.b.switch_to_block(sched);
        for &p in points.iter().filter(|&&p| p < len) {
            let (blk, var) = e.parks[&p];
            let w = e.b.use_var(var);
            let next = e.b.create_block();
            let zero = e.b.ins().iconst(I32, 0);
            e.b.def_var(e.conv, zero);
            e.b.ins().brif(w, blk, &[], next, &[]);
            e.b.switch_to_block(next);
        }
        e.finish();

        // Out of fuel: record where, and stop.
        e.b.switch_to_block(out_of_fuel);
        let at = e.b.block_params(out_of_fuel)[0];
        let at32 = e.b.ins().ireduce(I32, at);
        e.store(at32, lay.fail_pc as i32);
        let ex = e.b.use_var(e.exited);
        e.store(ex, lay.exited as i32);
        let one = e.b.ins().iconst(I32, 1);
        e.b.ins().return_(&[one]);
        e.b.seal_all_blocks();
    }

    /// Stores the exited mask and remaining fuel and returns 0.
    fn finish(&mut self) {
        let ex = self.b.use_var(self.exited);
        self.store(ex, self.lay.exited as i32);
        let fu = self.b.use_var(self.fuel);
        self.store(fu, self.lay.fuel as i32);
        let zero = self.b.ins().iconst(I32, 0);
        self.b.ins().return_(&[zero]);
    }

    /// Emits the segment of instructions `[start, end)`.
    fn segment(&mut self, start: usize, end: usize, sched: Block, out_of_fuel: Block) {
        let (blk, var) = self.parks[&start];
        self.b.switch_to_block(blk);
        self.conv_vecs = None;
        self.full = start == 0 && !self.prog.labels.iter().any(|l| l.at == 0);
        // Merge the lanes parked here.
        let waiting = self.b.use_var(var);
        let conv = self.b.use_var(self.conv);
        let conv = self.b.ins().bor(conv, waiting);
        self.b.def_var(self.conv, conv);
        let zero = self.b.ins().iconst(I32, 0);
        self.b.def_var(var, zero);
        // Fuel: the whole segment runs for this group, or the run stops at
        // instruction `start + fuel`.
        let n = (end - start) as i64;
        let fuel = self.b.use_var(self.fuel);
        let short = self.b.ins().icmp_imm_s(IntCC::UnsignedLessThan, fuel, n);
        let ok = self.b.create_block();
        let at = self.b.ins().iadd_imm_s(fuel, start as i64);
        self.b.ins().brif(short, out_of_fuel, &[at.into()], ok, &[]);
        self.b.switch_to_block(ok);
        let fuel = self.b.ins().iadd_imm_s(fuel, -n);
        self.b.def_var(self.fuel, fuel);

        for pc in start..end {
            let inst = &self.prog.insts[pc];
            let is_last = pc + 1 == end;
            match &inst.op {
                Op::Bra { target } => {
                    debug_assert!(is_last, "a bra ends its segment");
                    let to = self.prog.label_target(*target);
                    self.bra(inst, to, end, sched);
                    return;
                }
                Op::Exit => {
                    debug_assert!(is_last, "an exit ends its segment");
                    let mut l = self.lanes(inst.guard);
                    let exec = self.exec(&mut l);
                    let ex = self.b.use_var(self.exited);
                    let ex = self.b.ins().bor(ex, exec);
                    self.b.def_var(self.exited, ex);
                    let rest = self.b.ins().band_not(l.conv, exec);
                    self.b.def_var(self.conv, rest);
                    let next = self.parks[&end].0;
                    self.b.ins().brif(rest, next, &[], sched, &[]);
                    return;
                }
                Op::Shfl { .. } => shfl::emit(self, inst),
                Op::Vote { .. } => vote::emit(self, inst),
                Op::Match { .. } => matching::emit(self, inst),
                Op::Redux { .. } => redux::emit(self, inst),
                Op::Activemask { .. } => activemask::emit(self, inst),
                Op::Mov { .. }
                | Op::Bin { .. }
                | Op::Un { .. }
                | Op::Setp { .. }
                | Op::Selp { .. } => alu::emit(self, inst),
            }
        }
        let next = self.parks[&end].0;
        self.b.ins().jump(next, &[]);
    }

    /// `@g bra L` at the end of a segment that ends at `end`.
    fn bra(&mut self, inst: &Inst, to: usize, end: usize, sched: Block) {
        let mut l = self.lanes(inst.guard);
        let taken = self.exec(&mut l);
        let stay = self.b.ins().band_not(l.conv, taken);
        if to == end {
            let next = self.parks[&end].0;
            self.b.ins().jump(next, &[]);
            return;
        }
        let (to_blk, to_var) = self.parks[&to];
        let (end_blk, end_var) = self.parks[&end];
        if to > end {
            // Forward: the taken lanes park at the target.
            let w = self.b.use_var(to_var);
            let w = self.b.ins().bor(w, taken);
            self.b.def_var(to_var, w);
            self.b.def_var(self.conv, stay);
            self.b.ins().brif(stay, end_blk, &[], sched, &[]);
        } else {
            // Backward: the others park after the bra.
            let w = self.b.use_var(end_var);
            let w = self.b.ins().bor(w, stay);
            self.b.def_var(end_var, w);
            self.b.def_var(self.conv, taken);
            self.b.ins().brif(taken, to_blk, &[], sched, &[]);
        }
    }

    // ---- memory ----

    /// Loads a `ty` at `state + off`.
    pub fn load(&mut self, ty: cranelift_codegen::ir::Type, off: i32) -> Value {
        self.b.ins().load(ty, mf(), self.state, off)
    }

    /// Stores `v` at `state + off`.
    pub fn store(&mut self, v: Value, off: i32) {
        self.b.ins().store(mf(), v, self.state, off);
    }

    /// `state + base + (lane & 31) * size` for a run-time lane.
    pub fn lane_addr(&mut self, base: u32, lane: Value, size: i64) -> Value {
        let l = self.b.ins().band_imm_s(lane, 31);
        let l = self.b.ins().uextend(I64, l);
        let l = self.b.ins().imul_imm_s(l, size);
        let p = self.b.ins().iadd(self.state, l);
        self.b.ins().iadd_imm_s(p, base as i64)
    }

    /// Offset of register `r`'s lane `l`.
    pub fn reg_off(&self, r: Reg, lane: usize) -> i32 {
        let size = if wide(self.prog.decl(r).ty) { 8 } else { 4 };
        (self.lay.regs[r.index()] + lane as u32 * size) as i32
    }

    // ---- lane masks ----

    /// The lanes an instruction with guard `g` executes on.
    pub fn lanes(&mut self, guard: Option<Guard>) -> Lanes {
        let conv = if self.full {
            self.b.ins().iconst(I32, -1)
        } else {
            self.b.use_var(self.conv)
        };
        Lanes {
            conv,
            guard,
            exec: None,
            vecs: None,
        }
    }

    /// The guard's lanes as eight i32x4 all-ones/zero vectors.
    fn guard_vecs(&mut self, g: Guard) -> [Value; 8] {
        let cc = if g.negated {
            IntCC::Equal
        } else {
            IntCC::NotEqual
        };
        let zero = self.b.ins().iconst(I32, 0);
        let z = self.b.ins().splat(I32X4, zero);
        std::array::from_fn(|k| {
            let p = self.load(I32X4, self.reg_off(g.reg, 4 * k));
            self.b.ins().icmp(cc, p, z)
        })
    }

    /// The executing lanes as an i32 mask.
    pub fn exec(&mut self, l: &mut Lanes) -> Value {
        if let Some(x) = l.exec {
            return x;
        }
        let x = match l.guard {
            None => l.conv,
            Some(g) => {
                let on = self.guard_vecs(g);
                let m = self.vecs_to_mask(&on);
                self.b.ins().band(m, l.conv)
            }
        };
        l.exec = Some(x);
        x
    }

    /// The executing lanes as eight i32x4 all-ones/zero vectors (lanes
    /// 4k..4k+3 in vector k), or `None` when every lane executes.
    pub fn vecs(&mut self, l: &mut Lanes) -> Option<[Value; 8]> {
        if let Some(v) = l.vecs {
            return Some(v);
        }
        let v = match (l.guard, self.full) {
            (None, true) => return None,
            (Some(g), true) => self.guard_vecs(g),
            (guard, false) => {
                let cv = match self.conv_vecs {
                    Some(v) => v,
                    None => {
                        let v = self.mask_vecs(l.conv);
                        self.conv_vecs = Some(v);
                        v
                    }
                };
                match guard {
                    None => cv,
                    Some(g) => {
                        let on = self.guard_vecs(g);
                        std::array::from_fn(|k| self.b.ins().band(on[k], cv[k]))
                    }
                }
            }
        };
        l.vecs = Some(v);
        Some(v)
    }

    /// The 32-bit mask of eight i32x4 all-ones/zero vectors.
    pub fn vecs_to_mask(&mut self, vecs: &[Value]) -> Value {
        let mut m = self.b.ins().iconst(I32, 0);
        for (k, &v) in vecs.iter().enumerate() {
            let hb = self.b.ins().vhigh_bits(I32, v);
            let hb = if k > 0 {
                self.b.ins().ishl_imm_s(hb, 4 * k as i64)
            } else {
                hb
            };
            m = self.b.ins().bor(m, hb);
        }
        m
    }

    /// Eight i32x4 all-ones/zero vectors from a 32-bit lane mask.
    pub fn mask_vecs(&mut self, mask: Value) -> [Value; 8] {
        let bits = self.vconst_i32x4([1, 2, 4, 8]);
        let zero = self.b.ins().iconst(I32, 0);
        let z = self.b.ins().splat(I32X4, zero);
        std::array::from_fn(|k| {
            let m = if k > 0 {
                self.b.ins().ushr_imm_s(mask, 4 * k as i64)
            } else {
                mask
            };
            let s = self.b.ins().splat(I32X4, m);
            let s = self.b.ins().band(s, bits);
            self.b.ins().icmp(IntCC::NotEqual, s, z)
        })
    }

    /// An i32x4 constant.
    pub fn vconst_i32x4(&mut self, lanes: [u32; 4]) -> Value {
        let mut bytes = Vec::with_capacity(16);
        for l in lanes {
            bytes.extend_from_slice(&l.to_le_bytes());
        }
        let c = self.b.func.dfg.constants.insert(bytes.into());
        self.b.ins().vconst(I32X4, c)
    }

    // ---- operands ----

    /// Operand `o` on lane `lane` as a scalar of `width` bits (32 or 64;
    /// `.pred` is read as an i32 0/1).
    pub fn read(&mut self, o: Operand, lane: usize, width: u32) -> Value {
        let ty = if width == 64 { I64 } else { I32 };
        match o {
            Operand::Reg(r) => {
                let off = self.reg_off(r, lane);
                self.load(ty, off)
            }
            Operand::NotPred(r) => {
                let off = self.reg_off(r, lane);
                let v = self.load(I32, off);
                self.b.ins().bxor_imm_s(v, 1)
            }
            Operand::Imm(v) => self.b.ins().iconst(ty, v as i64),
            Operand::LaneId => self.b.ins().iconst(ty, lane as i64),
        }
    }

    /// Operand `o` on lanes `4k..4k+3` as an i32x4 (32-bit operands only).
    pub fn read_vec(&mut self, o: Operand, k: usize) -> Value {
        match o {
            Operand::Reg(r) => {
                let off = self.reg_off(r, 4 * k);
                self.load(I32X4, off)
            }
            Operand::NotPred(r) => {
                let off = self.reg_off(r, 4 * k);
                let v = self.load(I32X4, off);
                let one = self.vconst_i32x4([1; 4]);
                self.b.ins().bxor(v, one)
            }
            Operand::Imm(v) => {
                let s = self.b.ins().iconst(I32, v as u32 as i64);
                self.b.ins().splat(I32X4, s)
            }
            Operand::LaneId => {
                let k = 4 * k as u32;
                self.vconst_i32x4([k, k + 1, k + 2, k + 3])
            }
        }
    }

    /// Emits a loop over the 32 lanes; `body` emits one iteration for the
    /// lane it is given (an i32 in 0..32), with `At` addressing that lane.
    pub fn lane_loop(&mut self, body: impl FnOnce(&mut Self, At)) {
        let head = self.b.create_block();
        let iter = self.b.create_block();
        let done = self.b.create_block();
        self.b.append_block_param(head, I32);
        let zero = self.b.ins().iconst(I32, 0);
        self.b.ins().jump(head, &[zero.into()]);
        self.b.switch_to_block(head);
        let lane = self.b.block_params(head)[0];
        let more = self
            .b
            .ins()
            .icmp_imm_s(IntCC::UnsignedLessThan, lane, WARP as i64);
        self.b.ins().brif(more, iter, &[], done, &[]);
        self.b.switch_to_block(iter);
        let l64 = self.b.ins().uextend(I64, lane);
        let off4 = self.b.ins().ishl_imm_s(l64, 2);
        let p4 = self.b.ins().iadd(self.state, off4);
        let off8 = self.b.ins().ishl_imm_s(l64, 3);
        let p8 = self.b.ins().iadd(self.state, off8);
        body(self, At { lane, p4, p8 });
        let next = self.b.ins().iadd_imm_s(lane, 1);
        self.b.ins().jump(head, &[next.into()]);
        self.b.switch_to_block(done);
    }

    /// Operand `o` on the run-time lane `at` as a scalar of `width` bits.
    pub fn read_at(&mut self, o: Operand, at: At, width: u32) -> Value {
        let ty = if width == 64 { I64 } else { I32 };
        match o {
            Operand::Reg(r) => {
                let (p, base) = self.reg_at(r, at);
                self.b.ins().load(ty, mf(), p, base)
            }
            Operand::NotPred(r) => {
                let (p, base) = self.reg_at(r, at);
                let v = self.b.ins().load(I32, mf(), p, base);
                self.b.ins().bxor_imm_s(v, 1)
            }
            Operand::Imm(v) => self.b.ins().iconst(ty, v as i64),
            Operand::LaneId if width == 64 => self.b.ins().uextend(I64, at.lane),
            Operand::LaneId => at.lane,
        }
    }

    /// The lane pointer and base offset of register `r` at lane `at`.
    fn reg_at(&self, r: Reg, at: At) -> (Value, i32) {
        let p = if wide(self.prog.decl(r).ty) {
            at.p8
        } else {
            at.p4
        };
        (p, self.lay.regs[r.index()] as i32)
    }

    /// Writes scalar `v` to `d` at lane `at` where bit `lane` of `exec`
    /// is set.
    pub fn write_at(&mut self, d: Dest, at: At, exec: Value, v: Value) {
        let Dest::Reg(r) = d else { return };
        let (p, base) = self.reg_at(r, at);
        let ty = self.b.func.dfg.value_type(v);
        let old = self.b.ins().load(ty, mf(), p, base);
        let bit = self.b.ins().ushr(exec, at.lane);
        let bit = self.b.ins().band_imm_s(bit, 1);
        let v = self.b.ins().select(bit, v, old);
        self.b.ins().store(mf(), v, p, base);
    }

    /// Writes i32x4 vector `v` to lanes `4k..4k+3` of 32-bit `d` where the
    /// lanes are executing.
    pub fn write_vec(&mut self, d: Dest, k: usize, l: &mut Lanes, v: Value) {
        let Dest::Reg(r) = d else { return };
        let off = self.reg_off(r, 4 * k);
        let v = match self.vecs(l) {
            Some(vecs) => {
                let old = self.load(I32X4, off);
                self.b.ins().bitselect(vecs[k], v, old)
            }
            None => v,
        };
        self.store(v, off);
    }

    /// Copies 32 × u32 from scratch array `i` into 32-bit `d` on the
    /// executing lanes.
    pub fn write_from_scratch(&mut self, d: Dest, i: u32, l: &mut Lanes) {
        for k in 0..WARP / 4 {
            let v = self.load(I32X4, (self.lay.scratch(i) + 16 * k as u32) as i32);
            self.write_vec(d, k, l, v);
        }
    }

    /// The base offset of 32 lanes of operand `o` (`width` bits each):
    /// a register's own storage, or scratch array `scratch` filled with the
    /// immediate or `%laneid` values.
    pub fn lanes_base(&mut self, o: Operand, width: u32, scratch: u32) -> u32 {
        match o {
            Operand::Reg(r) => self.lay.regs[r.index()],
            Operand::NotPred(_) | Operand::Imm(_) | Operand::LaneId => {
                let base = self.lay.scratch(scratch);
                let size = width / 8;
                for lane in 0..WARP {
                    let v = self.read(o, lane, width);
                    self.store(v, (base + lane as u32 * size) as i32);
                }
                base
            }
        }
    }

    /// The type a program register was declared with.
    pub fn reg_type(&self, r: Reg) -> Type {
        self.prog.decl(r).ty
    }
}
