//! Pass 7: fewer and narrower registers.
//!
//! - Drop the registers no instruction names (with their `.lanes`), all at
//!   once, then one by one (the predicate may look a register up by name),
//!   re-indexing every `Reg` in operands, destinations, guards and inputs.
//! - Narrow 64-bit registers to 32 bits: the registers and 64-bit
//!   instructions that share operands form groups (union-find); each group
//!   is narrowed at once (`.b64`→`.b32`, `.u64`→`.u32`, `.s64`→`.s32`,
//!   `match.*.b64`→`.b32`, immediates and inputs truncated). A group that
//!   still mixes widths fails the round-trip check and is left alone.

use crate::gen::TestCase;
use crate::ir::*;
use crate::reduce::edit::remove_regs;
use crate::reduce::search::Search;

/// Which registers some instruction names.
fn named(tc: &TestCase) -> Vec<bool> {
    let mut used = vec![false; tc.program.regs.len()];
    for inst in &tc.program.insts {
        for r in inst.regs() {
            used[r.index()] = true;
        }
    }
    used
}

/// Drops unused registers.
fn drop_unused(s: &mut Search<'_, '_>) {
    let used = named(s.cur());
    if used.iter().all(|u| *u) {
        return;
    }
    if let Some(cand) = remove_regs(s.cur(), &used) {
        if s.try_case(cand) {
            return;
        }
    }
    let mut r = s.cur().program.regs.len();
    while r > 0 && !s.exhausted() {
        r -= 1;
        if named(s.cur())[r] {
            continue;
        }
        let keep: Vec<bool> = (0..s.cur().program.regs.len()).map(|k| k != r).collect();
        if let Some(cand) = remove_regs(s.cur(), &keep) {
            s.try_case(cand);
        }
    }
}

/// The 32-bit type of the same kind as a 64-bit `ty`.
fn narrow(ty: Type) -> Type {
    match ty {
        Type::B64 => Type::B32,
        Type::U64 => Type::U32,
        Type::S64 => Type::S32,
        Type::B32 | Type::U32 | Type::S32 | Type::F32 | Type::Pred => ty,
        // Only PTX modules use these; the reducer works on cases.
        Type::B16 | Type::U16 | Type::S16 | Type::F64 | Type::B8 | Type::U8 | Type::S8 => ty,
    }
}

/// Whether `op` is a 64-bit instruction (its type, or `match .b64`).
fn wide_op(op: &Op) -> bool {
    match op {
        Op::Match(m) => m.wide,
        Op::Glue(g) => g.ty().bits() == 64,
        Op::Shfl(_)
        | Op::Vote(_)
        | Op::Redux(_)
        | Op::Activemask(_)
        | Op::Control(_)
        | Op::LaneOp(_) => false,
    }
}

/// `op` made 32-bit, its immediates truncated.
fn narrow_op(op: &mut Op) {
    match op {
        Op::Match(m) => m.wide = false,
        Op::Glue(g) => {
            let ty = g.ty_mut();
            *ty = narrow(*ty);
        }
        Op::Shfl(_)
        | Op::Vote(_)
        | Op::Redux(_)
        | Op::Activemask(_)
        | Op::Control(_)
        | Op::LaneOp(_) => {}
    }
    for (o, ty, _) in op.sources_mut() {
        if let Operand::Imm(v) = o {
            *v &= ty.mask();
        }
    }
}

/// Union-find root of `x`.
fn find(parent: &mut [usize], mut x: usize) -> usize {
    while parent[x] != x {
        parent[x] = parent[parent[x]];
        x = parent[x];
    }
    x
}

/// Narrows groups of 64-bit registers and instructions.
fn narrow_groups(s: &mut Search<'_, '_>) {
    let tc = s.cur();
    let nr = tc.program.regs.len();
    let ni = tc.program.insts.len();
    // Items: registers 0..nr, then instructions nr..nr+ni.
    let mut parent: Vec<usize> = (0..nr + ni).collect();
    let wide_reg = |r: Reg| tc.program.decl(r).ty.bits() == 64;
    let mut member = vec![false; nr + ni];
    for (i, inst) in tc.program.insts.iter().enumerate() {
        let wide = wide_op(&inst.op);
        member[nr + i] = wide;
        for r in inst.regs() {
            if wide_reg(r) {
                member[r.index()] = true;
                let (a, b) = (find(&mut parent, r.index()), find(&mut parent, nr + i));
                parent[a] = b;
            }
        }
    }
    let mut roots: Vec<usize> = Vec::new();
    for (x, &m) in member.iter().enumerate() {
        if m {
            let root = find(&mut parent, x);
            if !roots.contains(&root) {
                roots.push(root);
            }
        }
    }
    let groups: Vec<Vec<usize>> = roots
        .iter()
        .map(|&root| {
            (0..nr + ni)
                .filter(|&x| member[x] && find(&mut parent, x) == root)
                .collect()
        })
        .collect();
    for group in groups {
        if s.exhausted() {
            return;
        }
        let mut cand = s.cur().clone();
        for &x in &group {
            if x < nr {
                let ty = narrow(cand.program.regs[x].ty);
                cand.program.regs[x].ty = ty;
                for (r, v) in &mut cand.inputs.lanes {
                    if r.index() == x {
                        *v = v.map(|y| y & ty.mask());
                    }
                }
            } else {
                narrow_op(&mut cand.program.insts[x - nr].op);
            }
        }
        s.try_case(cand);
    }
}

/// Runs the pass.
pub(crate) fn run(s: &mut Search<'_, '_>) {
    drop_unused(s);
    narrow_groups(s);
}
