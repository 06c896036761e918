//! Which registers a kernel's lane may still read after each instruction
//! (per-thread liveness over the instructions' control flow): the
//! emitter keeps a segment's register writes in SSA values and stores
//! them back to the warp state once, and not at all where no lane that
//! ran the instruction reads the register again (`builder.rs`:
//! `Emitter::flush`).
//!
//! A kernel's registers are not results (its results are its memory), so
//! a value that its own lane never reads again need not reach the state;
//! the lanes that did not run the instruction keep their old values in
//! the state either way (a write blends under the running lanes). Every
//! register an instruction names as a source, address or guard is a use
//! (whether the guard lets the lane run it or not: a `.sync` collective
//! reads its members' sources); only an unguarded write kills.

use warp_core::ir::{Op, Program, Reg};

/// Per instruction: the registers live after it, those it names, and
/// those that die before the state is next needed in memory.
pub struct Liveness {
    /// Words of a register set.
    words: usize,
    /// `after[pc]`: the registers some lane may read after `pc` runs.
    after: Vec<Vec<u64>>,
    /// `uses[pc]`: the registers `pc` reads (guard, sources, address),
    /// plus those it writes: a flush in the middle of its lowering keeps
    /// both.
    uses: Vec<Vec<u64>>,
    /// `short[pc]`: the registers not live where the straight run of
    /// instructions after `pc` that keep values in SSA values ends (the
    /// next other instruction or label): a write of one at `pc` is read
    /// from its SSA value or not at all.
    short: Vec<Vec<u64>>,
}

impl Liveness {
    /// The liveness of `prog`'s registers, a kernel's (no register is read
    /// after `exit`); `keeps_values[pc]`: whether instruction `pc`'s
    /// lowering reads its operands from the emitter's SSA values (a
    /// straight run of those needs the state in memory only at its end).
    pub fn of_kernel(prog: &Program, keeps_values: &[bool]) -> Liveness {
        let n = prog.insts.len();
        let words = prog.regs.len().div_ceil(64).max(1);
        let set = |regs: &mut dyn Iterator<Item = Reg>| {
            let mut s = vec![0u64; words];
            for r in regs {
                s[r.index() / 64] |= 1 << (r.index() % 64);
            }
            s
        };
        let mut uses = Vec::with_capacity(n);
        let mut kills = Vec::with_capacity(n);
        let mut succ = Vec::with_capacity(n);
        for (pc, inst) in prog.insts.iter().enumerate() {
            let mut read: Vec<Reg> = inst.guard.iter().map(|g| g.reg).collect();
            read.extend(inst.op.source_regs());
            if let Op::LaneOp(x) = &inst.op {
                read.extend(x.addr.and_then(|a| a.base));
            }
            let written = inst.op.written();
            let mut named = read.clone();
            named.extend(written.iter().copied());
            uses.push((set(&mut read.into_iter()), set(&mut named.into_iter())));
            kills.push(if inst.guard.is_none() {
                set(&mut written.into_iter())
            } else {
                vec![0; words]
            });
            succ.push(prog.successors(pc));
        }
        // live_in(pc) = read(pc) | (after(pc) & !kill(pc)); after(pc) = the
        // union of its successors' live_in; to a fixed point, last first.
        let mut live_in = vec![vec![0u64; words]; n];
        let mut after = vec![vec![0u64; words]; n];
        let mut changed = true;
        while changed {
            changed = false;
            for pc in (0..n).rev() {
                let mut out = vec![0u64; words];
                for &s in &succ[pc] {
                    if s < n {
                        for (o, w) in out.iter_mut().zip(&live_in[s]) {
                            *o |= w;
                        }
                    }
                }
                let inn: Vec<u64> = (0..words)
                    .map(|i| uses[pc].0[i] | (out[i] & !kills[pc][i]))
                    .collect();
                if inn != live_in[pc] {
                    live_in[pc] = inn;
                    changed = true;
                }
                after[pc] = out;
            }
        }
        // Where the run after each instruction ends, last first.
        let mut label = vec![false; n + 1];
        for l in &prog.labels {
            label[l.at.min(n)] = true;
        }
        let mut short = vec![vec![0u64; words]; n];
        let mut end = n;
        for pc in (0..n).rev() {
            short[pc] = match live_in.get(end) {
                Some(l) => l.iter().map(|w| !w).collect(),
                None => vec![u64::MAX; words],
            };
            if label[pc] || !keeps_values[pc] {
                end = pc;
            }
        }
        Liveness {
            words,
            after,
            uses: uses.into_iter().map(|(_, named)| named).collect(),
            short,
        }
    }

    /// Whether register `r`, written at `pc`, is read later only before the
    /// state is next needed in memory (or not at all): its store can wait.
    pub fn dies_soon(&self, pc: usize, r: usize) -> bool {
        self.short[pc][r / 64] & 1 << (r % 64) != 0
    }

    /// Whether a flush while `pc` is lowered must store register `r`: it
    /// is live after `pc`, or (unless `pc` has read its operands,
    /// `reads_done`) `pc` names it.
    pub fn keeps(&self, pc: usize, r: usize, reads_done: bool) -> bool {
        let (i, bit) = (r / 64, 1u64 << (r % 64));
        debug_assert!(i < self.words, "a register of the program");
        self.after[pc][i] & bit != 0 || !reads_done && self.uses[pc][i] & bit != 0
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A value read only by the next instruction is dead after it; one
    /// read after a loop's back edge stays live through the loop; a
    /// guarded write does not kill; nothing is live after `exit`.
    #[test]
    fn liveness_of_a_small_kernel() {
        let src = ".version 7.0\n.target sm_80\n.address_size 64\n\
            .visible .entry k() {\n\
            .reg .b32 %r<6>;\n.reg .pred %p<2>;\n\
            mov.u32 %r1, %tid.x;\n\
            add.s32 %r2, %r1, 1;\n\
            mov.u32 %r3, 0;\n\
            LOOP:\n\
            add.s32 %r3, %r3, %r2;\n\
            setp.lt.u32 %p1, %r3, 100;\n\
            @%p1 bra LOOP;\n\
            @%p1 mov.u32 %r4, 7;\n\
            mov.u32 %r5, %r4;\n\
            exit;\n}\n";
        let module = warp_core::text::parse_module(src).expect("the kernel parses");
        let prog = &module.kernel("k").expect("the kernel").program;
        assert_eq!(prog.insts.len(), 9, "one instruction per line");
        let l = Liveness::of_kernel(prog, &vec![true; prog.insts.len()]);
        let reg = |name: &str| prog.reg(name).expect("declared").index();
        let (r1, r2, r3, r4, r5) = (reg("%r1"), reg("%r2"), reg("%r3"), reg("%r4"), reg("%r5"));
        let add = 1;
        assert!(!l.keeps(add, r1, true), "%r1 is dead after its last read");
        assert!(l.keeps(add, r1, false), "but named by the add");
        assert!(l.keeps(add, r2, true), "%r2 is read in the loop");
        let bra = 5;
        assert!(l.keeps(bra, r2, true), "live around the back edge");
        assert!(l.keeps(bra, r3, true), "%r3 too");
        assert!(
            l.keeps(bra, r4, true),
            "the guarded mov may keep the old %r4"
        );
        let last = 7;
        assert!(!l.keeps(last, r5, true), "nothing is read after exit");
        assert!(!l.keeps(last, r4, true));
        // The runs: every instruction keeps values; the label at 3 ends
        // the first run, where %r2 and %r3... are live, %r1 is not.
        assert!(l.dies_soon(0, r1), "%r1 is dead at the label");
        assert!(!l.dies_soon(1, r2), "%r2 is live at the label");
        assert!(
            l.dies_soon(6, r4) && l.dies_soon(7, r5),
            "nothing is live at the end"
        );
    }
}
