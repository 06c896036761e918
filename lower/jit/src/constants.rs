//! Registers a kernel only ever sets to one immediate, read as that
//! immediate (issue #36). Compilers put a `shfl`'s lane operand, clamp and
//! `membermask` in registers (`mov.u32 %r7, 16; mov.u32 %r8, -1;
//! shfl.sync.bfly.b32 %r9|%p1, %r5, %r7, %r6, %r8;`), and a shared
//! array's address (`mov.u32 %r35, smem; st.shared.u32 [%r36], ...`); the
//! lowering has fast paths for immediates there (constant shuffles, a
//! rendezvous that completes at once, an address the same on every lane)
//! that a register hides.
//!
//! A register qualifies when its only write in the program is one
//! unguarded `mov` of an immediate (not `.pred`): wherever every lane that
//! comes to a read has executed that `mov` before (`uninit.rs`'s
//! analysis), the lane's value there is the immediate. Such reads become
//! the immediate; an address `[%r+off]` becomes `[imm+off]`. The `mov`
//! stays, so the register's value is unchanged. A `shfl`'s `a` is read on
//! other lanes, which need not have executed the `mov`: it stays a
//! register.

use super::uninit::{holds, written_before};
use warp_core::ir::{Dest, Glue, Op, Operand, Program, Reg, Type};

/// `prog` with the reads of its one-immediate registers replaced by the
/// immediate, or `None` when it has none to replace.
pub fn fold(prog: &Program) -> Option<Program> {
    let nregs = prog.regs.len();
    let mut writes = vec![0usize; nregs];
    let mut value: Vec<Option<u64>> = vec![None; nregs];
    for inst in &prog.insts {
        for r in inst.op.written() {
            writes[r.index()] += 1;
        }
        if let (
            None,
            Op::Glue(Glue::Mov {
                d: Dest::Reg(r),
                a: Operand::Imm(v),
                ..
            }),
        ) = (inst.guard, &inst.op)
        {
            value[r.index()] = Some(*v);
        }
    }
    let constant = |r: Reg| -> Option<u64> {
        let ty = prog.decl(r).ty;
        if writes[r.index()] != 1 || ty == Type::Pred {
            return None;
        }
        value[r.index()].map(|v| v & ty.mask())
    };
    if !(0..nregs).any(|r| constant(Reg(r as u32)).is_some()) {
        return None;
    }
    let before = written_before(prog);
    let mut out = prog.clone();
    let mut changed = false;
    for (inst, before) in out.insts.iter_mut().zip(&before) {
        let Some(before) = before else { continue };
        let known = |r: Reg| constant(r).filter(|_| holds(before, r));
        // A shfl's `a` (its first source) is read on other lanes too.
        let shfl = matches!(inst.op, Op::Shfl(_));
        for (i, (o, _, _)) in inst.op.sources_mut().into_iter().enumerate() {
            if shfl && i == 0 {
                continue;
            }
            if let Operand::Reg(r) = *o {
                if let Some(v) = known(r) {
                    *o = Operand::Imm(v);
                    changed = true;
                }
            }
        }
        if let Op::LaneOp(x) = &mut inst.op {
            if let Some(a) = &mut x.addr {
                if let Some(v) = a.base.and_then(known) {
                    a.base = None;
                    a.offset = v.wrapping_add(a.offset as u64) as i64;
                    changed = true;
                }
            }
        }
    }
    changed.then_some(out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use warp_core::text::parse_module;

    /// nvcc's shuffle operands become immediates, a shared array's
    /// address register an address; a register written twice, a shfl's
    /// `a` and a read before the `mov` do not.
    #[test]
    fn one_immediate_registers_are_read_as_it() {
        let src = ".version 9.0\n.target sm_90\n.address_size 64\n.visible .entry k(.param .u64 k_param_0)\n{\n\
                   \t.reg .pred %p<3>;\n\t.reg .b32 %r<12>;\n\t.reg .b64 %rd<4>;\n\t.shared .align 4 .b8 smem[64];\n\
                   \tadd.u32 %r9, %r6, 1;\n\
                   \tmov.u32 %r5, 7;\n\tmov.u32 %r6, 31;\n\tmov.u32 %r7, 16;\n\tmov.u32 %r8, -1;\n\
                   \tshfl.sync.bfly.b32 %r10|%p1, %r5, %r7, %r6, %r8;\n\
                   \tmov.u32 %r1, smem;\n\tst.shared.u32 [%r1+4], %r10;\n\
                   \tmov.u32 %r2, 3;\n\tmov.u32 %r2, 4;\n\tadd.u32 %r11, %r2, %r7;\n\tret;\n}\n";
        let m = parse_module(src).unwrap_or_else(|e| panic!("{e}"));
        let p = &m.kernels[0].program;
        let f = fold(p).expect("something to fold");
        let text = |p: &Program, i: usize| warp_core::text::inst_text(p, &p.insts[i]);
        // Read before its mov: a register.
        assert_eq!(text(&f, 0), text(p, 0));
        let shfl = text(&f, 5);
        assert!(
            shfl.contains("%r5") && shfl.contains(", 16, 31, 0xffffffff"),
            "{shfl}"
        );
        // smem is the kernel's first shared variable: at 0.
        let st = text(&f, 7);
        assert!(st.starts_with("st.shared.u32 [4], %r10"), "{st}");
        let add = text(&f, 10);
        assert!(add.contains("%r2") && add.contains("16"), "{add}");
    }
}
