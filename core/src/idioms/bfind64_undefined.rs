//! UB64 (N30 of `docs/findings.md`; the two findings of session 11's -O3
//! hunt that needed their batch, decided by session 12's H200 calls,
//! `docs/log/gpu-2026-11-28-l/`): a 64-bit `bfind` of a register the
//! program never wrote, in a program with warp-level instructions. `ptxas`
//! expands a 64-bit `bfind` into a per-lane branch on the high word's sign
//! (`ISETP.GE.AND P1, PT, R0, RZ, PT; @!P1 BRA; FLO.U32.SH ...; BRA;
//! FLO.U32.SH ... ~...`). Where the source has a value that branch is
//! wrapped in `BSSY`/`BSYNC`; where the source was never written the
//! compiler takes it as the same on every lane: no `BSSY`/`BSYNC`, and
//! values kept in uniform registers (`UR`) across it, and collectives after
//! it with no `WARPSYNC`. But the register holds whatever the kernels run
//! before it left there, which differs from lane to lane: the warp splits
//! at the branch and stays split, one side overwrites a uniform register
//! (`USHF.R.U32.HI UR10, URZ, UR10, UR10`) before the other side reads it
//! (`MOV R19, UR10`: `activemask` read back as 0, which no running lane can
//! see), and a full-mask `match.all.sync` runs on part of the warp (lanes
//! 12 and 13 missing from its mask).
//!
//! Shown on the H200 at -O3 through the driver's JIT linker (session 12,
//! call b): in both minimal batches (`activemask-9ac0fd8e`,
//! `match.all.sync.b32-1087411f`; 8 mates each) the case differs 3 of 3
//! runs as kept, and agrees 3 of 3 with the `bfind` removed, with its
//! source given 0 or 0xffffffff00000000 by a `mov` first, or given a
//! per-lane value whose high word's sign alternates (then the compiler
//! knows the lanes may part); right at -O0 in every form. The two findings
//! had the `.s64` `.shiftamt` form; two findings earlier sessions left
//! `unknown` have `bfind.u64` of a never-written register and go wrong after
//! the same mates (`vote.sync.ballot-8cdefcfb` from -O1,
//! `match.any.sync.b32-0506119a` at -O3; `redux.sync.max.u32-927061b4` at
//! -O3 after the 118 cases before `activemask-9ac0fd8e` in its whole
//! batch), right with the `bfind` removed (calls e and g): the detector
//! takes any 64-bit `bfind`.
//!
//! The register analysis is `idioms/unwritten.rs`'s: a source that may lack
//! a value on some path from the entry (a case's `.lanes` registers have
//! one in [`super::Idiom::find_in_case`]).

use super::unwritten::Lazy;
use crate::ir::{IntOp, LaneOpKind, Op, Operand, Program, Reg};

/// Whether `op` is a warp-level instruction whose result depends on which
/// lanes run it together: a collective or `activemask`.
fn warp_level(op: &Op) -> bool {
    match op {
        Op::Shfl(_) | Op::Vote(_) | Op::Match(_) | Op::Redux(_) | Op::Activemask(_) => true,
        Op::Glue(_) | Op::Control(_) | Op::LaneOp(_) => false,
    }
}

/// The 64-bit source register of instruction `i` when it is a `bfind` of
/// a 64-bit register.
fn bfind64_source(prog: &Program, i: usize) -> Option<Reg> {
    let Op::LaneOp(x) = &prog.insts[i].op else {
        return None;
    };
    let LaneOpKind::Int(IntOp::Bfind { .. }) = x.kind else {
        return None;
    };
    match x.srcs.first() {
        Some((Operand::Reg(r), ty)) if ty.bits() == 64 => Some(*r),
        _ => None,
    }
}

/// The first 64-bit `bfind` whose source may lack a value there, in a
/// program with a warp-level instruction: its index.
pub(super) fn bfind64_of_never_written(
    prog: &Program,
    has_entry: &dyn Fn(Reg) -> bool,
) -> Option<usize> {
    if !prog.insts.iter().any(|x| warp_level(&x.op)) {
        return None;
    }
    let u = Lazy::new(prog, has_entry);
    (0..prog.insts.len()).find(|&i| bfind64_source(prog, i).is_some_and(|r| u.get().may_lack(i, r)))
}
