//! The registers a kernel's warp could read before writing them, which a
//! launch zeroes before each warp runs (`launch.rs`): so that no value a
//! warp of an earlier CTA left in a reused state is ever seen, and a
//! launch's bytes do not depend on which thread ran which CTA. (The
//! reference leaves such values undefined; the JIT gives 0, as a fresh
//! state would.) Zeroing only these, not every register, keeps a warp's
//! start cheap: nvcc's kernels write every register before reading it.
//!
//! A lane follows one path through the program, so a register is written
//! before a lane reads it when every path from the start to the read
//! writes it with an unguarded instruction (a guarded one may leave the
//! lane's value as it was): a forward "definitely written" analysis over
//! the instructions. `shfl`'s `a` is read on other lanes too, which may
//! not have written it (they diverged, exited or do not exist): always
//! zeroed.

use warp_core::ir::{Control, Op, Operand, Program, Reg};

/// Per instruction of `prog`, the registers every lane that comes to it
/// has written before (with an unguarded instruction), as a bit set of
/// register indices; `None` where no lane comes.
pub fn written_before(prog: &Program) -> Vec<Option<Vec<u64>>> {
    let n = prog.insts.len();
    let words = prog.regs.len().div_ceil(64);
    // `before[i]`: the registers written on every path to instruction i
    // (`None`: no path found yet).
    let mut before: Vec<Option<Vec<u64>>> = vec![None; n];
    if n == 0 {
        return before;
    }
    before[0] = Some(vec![0; words]);
    let mut work = vec![0usize];
    while let Some(i) = work.pop() {
        let inst = &prog.insts[i];
        let mut after = before[i].clone().expect("reached");
        if inst.guard.is_none() {
            for r in inst.op.written() {
                after[r.index() / 64] |= 1 << (r.index() % 64);
            }
        }
        let mut next = Vec::with_capacity(2);
        match &inst.op {
            Op::Control(Control::Bra { target }) => {
                next.push(prog.label_target(*target));
                if inst.guard.is_some() {
                    next.push(i + 1);
                }
            }
            Op::Control(Control::Exit) => {
                if inst.guard.is_some() {
                    next.push(i + 1);
                }
            }
            _ => next.push(i + 1),
        }
        for j in next.into_iter().filter(|&j| j < n) {
            let changed = match &mut before[j] {
                Some(b) => {
                    let mut changed = false;
                    for (w, a) in b.iter_mut().zip(&after) {
                        let m = *w & a;
                        changed |= m != *w;
                        *w = m;
                    }
                    changed
                }
                slot @ None => {
                    *slot = Some(after.clone());
                    true
                }
            };
            if changed {
                work.push(j);
            }
        }
    }
    before
}

/// Whether bit set `set` (of [`written_before`]) holds register `r`.
pub fn holds(set: &[u64], r: Reg) -> bool {
    set[r.index() / 64] >> (r.index() % 64) & 1 == 1
}

/// The registers of `prog` that some lane could read before writing
/// them, or that `shfl` reads from other lanes, in register order.
pub fn read_before_written(prog: &Program) -> Vec<Reg> {
    let nregs = prog.regs.len();
    let before = written_before(prog);
    let mut zeroed = vec![false; nregs];
    for (i, inst) in prog.insts.iter().enumerate() {
        let Some(written) = &before[i] else { continue };
        let mut read: Vec<Reg> = inst.guard.map(|g| g.reg).into_iter().collect();
        for (o, _, _) in inst.op.sources() {
            if let Operand::Reg(r) | Operand::NotPred(r) = o {
                read.push(r);
            }
        }
        if let Op::LaneOp(x) = &inst.op {
            read.extend(x.addr.and_then(|a| a.base));
        }
        for r in read {
            if !holds(written, r) {
                zeroed[r.index()] = true;
            }
        }
        if let Op::Shfl(x) = &inst.op {
            if let Operand::Reg(r) = x.a {
                zeroed[r.index()] = true;
            }
        }
    }
    (0..nregs)
        .filter(|&r| zeroed[r])
        .map(|r| Reg(r as u32))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use warp_core::text::parse_module;

    fn names(src: &str) -> Vec<String> {
        let m = parse_module(src).unwrap_or_else(|e| panic!("{e}"));
        let p = &m.kernels[0].program;
        read_before_written(p)
            .into_iter()
            .map(|r| p.decl(r).name.clone())
            .collect()
    }

    const HEAD: &str = ".version 9.0\n.target sm_90\n.address_size 64\n.visible .entry k(.param .u64 k_param_0)\n{\n\t.reg .pred %p<3>;\n\t.reg .b32 %r<9>;\n\t.reg .b64 %rd<4>;\n";

    /// Written on every path: not zeroed; written on one branch only, or
    /// under a guard, or by nobody: zeroed; `shfl`'s source: zeroed.
    #[test]
    fn registers_read_before_written_on_some_path() {
        let src = format!(
            "{HEAD}\tld.param.u64 %rd1, [k_param_0];\n\tmov.u32 %r1, %tid.x;\n\
             \tsetp.eq.u32 %p1, %r1, 0;\n\t@%p1 bra $L1;\n\tmov.u32 %r2, 1;\n\tmov.u32 %r3, 1;\n\
             \tbra $L2;\n$L1:\n\tmov.u32 %r2, 2;\n\t@%p1 mov.u32 %r3, 2;\n$L2:\n\
             \tadd.u32 %r4, %r2, %r3;\n\tadd.u32 %r5, %r4, %r6;\n\
             \tshfl.sync.bfly.b32 %r7, %r5, 1, 31, -1;\n\
             \tst.global.u32 [%rd1], %r7;\n\tret;\n}}\n"
        );
        assert_eq!(names(&src), ["%r3", "%r5", "%r6"]);
    }

    /// A loop: a register written in the body before it is read there is
    /// written on every path to the read; one read before its write in the
    /// body is not (the first iteration).
    #[test]
    fn loops() {
        let src = format!(
            "{HEAD}\tmov.u32 %r1, 0;\n$L1:\n\tmov.u32 %r2, %r1;\n\tadd.u32 %r3, %r4, 1;\n\
             \tmov.u32 %r4, 5;\n\tadd.u32 %r1, %r1, 1;\n\tsetp.lt.u32 %p1, %r1, 4;\n\
             \t@%p1 bra $L1;\n\tret;\n}}\n"
        );
        assert_eq!(names(&src), ["%r4"]);
    }
}
