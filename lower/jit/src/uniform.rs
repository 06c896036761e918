//! Which registers of a kernel hold one value on every lane of a warp
//! (uniformity analysis, issue #36): kernel parameters loaded by
//! `ld.param`, `%ctaid`, `%ntid`, `%nctaid`, immediates, and what
//! arithmetic makes of only those (nvcc's address chains: `cvta.to.global`
//! of a parameter, `mul.wide` of a block offset, `shl` of `%ctaid`).
//!
//! A register is *uniform* when every instruction that writes it
//!
//! - runs where every non-exited lane of the warp runs it together
//!   ([`converged`]),
//! - under no guard or a uniform one (so every lane writes, or none),
//! - and computes a pure function of uniform registers, immediates and
//!   the special registers that are the same on every lane of a warp
//!   (`%ntid`, `%ctaid`, `%nctaid`, `%warpid`, `%nwarpid`), or loads a kernel
//!   parameter (the same bytes for every lane).
//!
//! Then at every moment every non-exited lane holds the same value in it:
//! by induction over the writes a warp runs (each is run by every
//! non-exited lane at once, from operands that are equal on those lanes),
//! and before its first write a register is either never read or zeroed
//! on every lane (`uninit.rs`). A register that no instruction writes is
//! left out (the driver writes some of its own). The analysis is the greatest fixed point
//! of these rules (start with every register uniform, take off each one
//! with a write that breaks them until nothing changes), which the
//! induction over time makes sound even where registers feed each other.
//! Any doubt is "varying".
//!
//! The emitter (`builder.rs`) uses it where the running group is the
//! whole warp: every lane then exists and never exited, so each of the 32
//! copies of a uniform register holds its value, and it reads the
//! register as one scalar word (lane 0's) broadcast to the lanes, instead
//! of 8 or 16 vectors.

use warp_core::ir::{Control, Glue, LaneOpKind, Op, Operand, Program, Reg, Space, Special};

/// Per instruction, whether every non-exited lane of the warp runs it
/// together under the interpreter's min-PC schedule (which the JIT
/// compiles: `emit.rs`).
///
/// Conservatively, only in the code before the first target of a
/// backward branch (there every lane only moves forward, and the lanes
/// with the lowest pc always run first), where every lane that does not
/// exit passes through the instruction: no branch before it jumps past it
/// (a lane that takes it would skip it, and the lanes that do not would
/// run it without that lane). Where a lane can wait while others run on
/// (a `bar.sync` or `.sync` collective that not every lane runs together
/// with a membermask of the whole warp), everything after it counts as
/// divergent too.
pub fn converged(prog: &Program) -> Vec<bool> {
    let n = prog.insts.len();
    // The first pc a lane may reach again by a backward branch.
    let mut limit = n;
    for pc in 0..n {
        for s in prog.successors(pc) {
            if s <= pc {
                limit = limit.min(s);
            }
        }
    }
    let mut conv = vec![true; n];
    for pc in 0..n {
        for s in prog.successors(pc) {
            // A jump past the instructions between: some lanes skip them.
            if s > pc + 1 {
                for c in &mut conv[pc + 1..s.min(n)] {
                    *c = false;
                }
            }
        }
    }
    for (pc, c) in conv.iter_mut().enumerate() {
        *c &= pc < limit;
    }
    // A lane that waits at a barrier or collective while others run past
    // it: nothing after it is known converged.
    for pc in 0..n {
        let inst = &prog.insts[pc];
        let waits = matches!(&inst.op, Op::LaneOp(x) if x.is_barrier())
            || inst.op.rendezvous_key().is_some();
        if !waits {
            continue;
        }
        let whole = conv[pc]
            && inst.guard.is_none()
            && inst
                .op
                .membermask()
                .is_none_or(|m| full_membermask(prog, &conv, m, pc));
        if !whole {
            for c in &mut conv[pc + 1..] {
                *c = false;
            }
        }
    }
    conv
}

/// Whether membermask `m` of the collective at `pc` is every lane: the
/// immediate `0xffffffff`, or a register whose only writes are unguarded
/// `mov`s of it that every lane runs before `pc` (nvcc's `mov.u32 %r8,
/// -1`).
fn full_membermask(prog: &Program, conv: &[bool], m: Operand, pc: usize) -> bool {
    let all = |o: Operand| matches!(o, Operand::Imm(v) if v as u32 == u32::MAX);
    match m {
        Operand::Imm(_) => all(m),
        Operand::Reg(r) => {
            let mut writes = prog
                .insts
                .iter()
                .enumerate()
                .filter(|(_, i)| i.op.written().contains(&r))
                .peekable();
            writes.peek().is_some()
                && writes.all(|(w, i)| {
                    w < pc
                        && conv[w]
                        && i.guard.is_none()
                        && matches!(i.op, Op::Glue(Glue::Mov { a, .. }) if all(a))
                })
        }
        Operand::NotPred(_) | Operand::LaneId => false,
    }
}

/// Whether special register `s` holds one value on every lane of a warp
/// (the CTA's shape and place, the grid's shape, the warp's index and the
/// CTA's warp count: `interp/place.rs`, whose values the launch writes to
/// every lane of the warp state).
pub fn same_on_every_lane(s: Special) -> bool {
    match s {
        Special::Ntid(_)
        | Special::Ctaid(_)
        | Special::Nctaid(_)
        | Special::WarpId
        | Special::NWarpId => true,
        Special::Tid(_)
        | Special::LanemaskEq
        | Special::LanemaskLe
        | Special::LanemaskLt
        | Special::LanemaskGe
        | Special::LanemaskGt => false,
    }
}

/// Whether `op` computes the same value on every lane that runs it when
/// its register sources are (`uni`): a pure function of its operands, a
/// lane-independent special register, or a load of a kernel parameter.
fn uniform_op(op: &Op, uni: &[bool]) -> bool {
    let srcs_uniform = op.sources().iter().all(|&(o, _, _)| match o {
        Operand::Reg(r) | Operand::NotPred(r) => uni[r.index()],
        Operand::Imm(_) => true,
        Operand::LaneId => false,
    });
    match op {
        Op::Glue(g) => {
            srcs_uniform
                && match g {
                    Glue::Mov { .. }
                    | Glue::Bin { .. }
                    | Glue::Un { .. }
                    | Glue::Setp { .. }
                    | Glue::Selp { .. } => true,
                }
        }
        Op::LaneOp(x) => {
            let addr_uniform = x.addr.and_then(|a| a.base).is_none_or(|r| uni[r.index()]);
            srcs_uniform
                && addr_uniform
                && match x.kind {
                    LaneOpKind::Special(s) => same_on_every_lane(s),
                    LaneOpKind::Cvta { .. }
                    | LaneOpKind::Cvt { .. }
                    | LaneOpKind::Int(_)
                    | LaneOpKind::Float { .. }
                    | LaneOpKind::FSetp(_)
                    | LaneOpKind::Pack
                    | LaneOpKind::Unpack => true,
                    // Every lane reads the same parameter bytes.
                    LaneOpKind::Ld(space) => space == Space::Param,
                    LaneOpKind::St(_)
                    | LaneOpKind::Bar
                    | LaneOpKind::Atom(_)
                    | LaneOpKind::Fence(_) => false,
                }
        }
        // Lanes exchange or combine values: another lane's value.
        Op::Shfl(_) | Op::Vote(_) | Op::Match(_) | Op::Redux(_) | Op::Activemask(_) => false,
        Op::Control(Control::Bra { .. } | Control::Exit) => false,
    }
}

/// Per register of `prog` (a kernel), whether it is uniform (the module
/// doc's rules).
pub fn uniform_regs(prog: &Program) -> Vec<bool> {
    let conv = converged(prog);
    // A register no instruction writes is not one the rules can vouch
    // for: the driver writes some itself (`rendezvous.rs`'s registers of
    // a group whose members stand at different instructions).
    let mut uni = vec![false; prog.regs.len()];
    for inst in &prog.insts {
        for r in inst.op.written() {
            uni[r.index()] = true;
        }
    }
    loop {
        let mut changed = false;
        for (pc, inst) in prog.insts.iter().enumerate() {
            let written = inst.op.written();
            if written.iter().all(|r| !uni[r.index()]) {
                continue;
            }
            let guard_ok = inst.guard.is_none_or(|g| uni[g.reg.index()]);
            if !(conv[pc] && guard_ok && uniform_op(&inst.op, &uni)) {
                for r in written {
                    uni[r.index()] = false;
                }
                changed = true;
            }
        }
        if !changed {
            return uni;
        }
    }
}

/// Of the uniform registers `uni` of `prog` (a kernel), those the
/// emitter can keep as one word, lane 0's place in the state, with the
/// other 31 lanes' places never written nor read (`builder.rs`: a write
/// stores the word, a read broadcasts it): every instruction that reads
/// one as a source reads it through the emitter's vector reads
/// (`vector_reads`; the guard of any instruction is read so), every write
/// of one is unguarded and goes through the emitter's vector writes
/// (`vector_writes`) from such registers only, and none is read before
/// its first write (`zeroed`: those the launch zeroes on every lane).
/// Registers read any other way (a memory operand's base, a collective's
/// sources, a lane loop) stay vectors. A greatest fixed point, as
/// [`uniform_regs`].
pub fn scalar_regs(
    prog: &Program,
    uni: &[bool],
    zeroed: &[Reg],
    vector_reads: impl Fn(&Op) -> bool,
    vector_writes: impl Fn(&Op) -> bool,
) -> Vec<bool> {
    let mut s = uni.to_vec();
    for r in zeroed {
        s[r.index()] = false;
    }
    for inst in &prog.insts {
        if let Op::LaneOp(x) = &inst.op {
            if let Some(r) = x.addr.and_then(|a| a.base) {
                s[r.index()] = false;
            }
        }
        if !vector_reads(&inst.op) {
            for r in inst.op.source_regs() {
                s[r.index()] = false;
            }
        }
    }
    loop {
        let mut changed = false;
        for inst in &prog.insts {
            let written = inst.op.written();
            if written.iter().all(|r| !s[r.index()]) {
                continue;
            }
            let ok = inst.guard.is_none()
                && vector_writes(&inst.op)
                && inst.op.source_regs().iter().all(|r| s[r.index()]);
            if !ok {
                for r in written {
                    s[r.index()] = false;
                }
                changed = true;
            }
        }
        if !changed {
            return s;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The kernel `src`'s uniform registers that it writes, by name (one
    /// it never writes is uniform too: zero, or never read).
    fn uniform(src: &str) -> Vec<String> {
        let module = warp_core::text::parse_module(src).expect("the kernel parses");
        let prog = &module.kernel("k").expect("the kernel").program;
        let uni = uniform_regs(prog);
        let written: Vec<Reg> = prog.insts.iter().flat_map(|i| i.op.written()).collect();
        let mut names: Vec<String> = (prog.regs.iter().zip(&uni).enumerate())
            .filter(|&(i, (_, &u))| u && written.iter().any(|r| r.index() == i))
            .map(|(_, (d, _))| d.name.clone())
            .collect();
        names.sort();
        names
    }

    const HEAD: &str = ".version 7.0\n.target sm_80\n.address_size 64\n";

    /// nvcc's address chain: a parameter, `%ctaid` and `%ntid` and what
    /// arithmetic makes of them are uniform; `%tid` and all it touches is
    /// not; neither is a register written under a varying guard, nor one
    /// written where a varying branch lets some lanes skip the write.
    #[test]
    fn address_chains_are_uniform_and_lane_values_are_not() {
        let src = format!(
            "{HEAD}.visible .entry k(.param .u64 k_param_0) {{\n\
            .reg .pred %p<3>;\n.reg .b32 %r<9>;\n.reg .b64 %rd<6>;\n\
            ld.param.u64 %rd1, [k_param_0];\n\
            cvta.to.global.u64 %rd2, %rd1;\n\
            mov.u32 %r1, %ctaid.x;\n\
            mov.u32 %r2, %ntid.x;\n\
            mul.lo.s32 %r3, %r1, %r2;\n\
            mov.u32 %r4, %tid.x;\n\
            add.s32 %r5, %r3, %r4;\n\
            mul.wide.s32 %rd3, %r3, 4;\n\
            add.s64 %rd4, %rd2, %rd3;\n\
            setp.eq.s32 %p1, %r4, 0;\n\
            @%p1 mov.u32 %r6, 1;\n\
            setp.eq.s32 %p2, %r1, 0;\n\
            @%p2 mov.u32 %r7, 1;\n\
            @%p1 bra L;\n\
            mov.u32 %r8, 2;\n\
            mul.wide.s32 %rd5, %r5, 4;\n\
            L:\n\
            add.s32 %r8, %r8, 1;\n\
            exit;\n}}\n"
        );
        assert_eq!(
            uniform(&src),
            ["%p2", "%r1", "%r2", "%r3", "%r7", "%rd1", "%rd2", "%rd3", "%rd4"]
        );
    }

    /// In a loop every lane may be at another iteration: nothing written
    /// from its head on is uniform, not even a counter of immediates.
    #[test]
    fn nothing_written_in_a_loop_is_uniform() {
        let src = format!(
            "{HEAD}.visible .entry k() {{\n\
            .reg .pred %p<2>;\n.reg .b32 %r<4>;\n\
            mov.u32 %r1, 0;\n\
            mov.u32 %r3, %tid.x;\n\
            L:\n\
            add.s32 %r1, %r1, 1;\n\
            mov.u32 %r2, 7;\n\
            setp.lt.u32 %p1, %r1, %r3;\n\
            @%p1 bra L;\n\
            exit;\n}}\n"
        );
        assert_eq!(uniform(&src), Vec::<String>::new());
    }

    /// A `bar.sync` or `.sync` collective that lanes reach apart (in
    /// divergent code, or with a membermask of some lanes) lets others run
    /// past it: nothing after it is uniform. One every lane runs with the
    /// whole warp's membermask (nvcc's `mov.u32 %r, -1`) keeps it.
    #[test]
    fn collectives_lanes_reach_apart_end_uniformity() {
        let body = |mask: &str| {
            format!(
                "{HEAD}.visible .entry k() {{\n\
                .reg .b32 %r<6>;\n\
                mov.u32 %r1, %tid.x;\n\
                mov.u32 %r2, {mask};\n\
                shfl.sync.bfly.b32 %r3, %r1, 1, 31, %r2;\n\
                mov.u32 %r4, %ctaid.x;\n\
                exit;\n}}\n"
            )
        };
        assert_eq!(uniform(&body("-1")), ["%r2", "%r4"]);
        assert_eq!(uniform(&body("65535")), ["%r2"]);
        let src = format!(
            "{HEAD}.visible .entry k() {{\n\
            .reg .pred %p<2>;\n.reg .b32 %r<4>;\n\
            mov.u32 %r1, %tid.x;\n\
            setp.eq.s32 %p1, %r1, 0;\n\
            @%p1 bra L;\n\
            bar.sync 0;\n\
            L:\n\
            mov.u32 %r2, %ctaid.x;\n\
            bar.sync 0;\n\
            mov.u32 %r3, %ctaid.y;\n\
            exit;\n}}\n"
        );
        assert_eq!(uniform(&src), Vec::<String>::new());
    }
}
