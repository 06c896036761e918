//! Named idioms of known GPU-compiler bugs: program shapes that a PTX
//! compiler miscompiled on an H200 (each found by the fuzzer, reduced,
//! and explained from the SASS in its `corpus/` file). Once a bug is known
//! it would be found again thousands of times, so the fuzzer can avoid its
//! idiom (`warpdiff fuzz --avoid NAME`: the generator removes what makes
//! it) and triage recognises it in a divergence (the case is counted as
//! that known bug, not as a new one).
//!
//! Each idiom is recognised from the program text alone — a sufficient
//! shape, not a proof that the compiler fails on it. What a bug does to a
//! run ([`Effect`]: a wrong value, a kernel that never finishes, a fault)
//! is recorded per idiom ([`Idiom::effects`]), so that the fuzz loop can
//! count a hang or a fault on a known idiom as that bug.

use crate::ir::{
    Activemask, BinOp, CmpOp, Control, Dest, FloatOp, Glue, Guard, Inputs, IntOp, LaneOp,
    LaneOpKind, Match, MatchMode, Op, Operand, Program, ReduxOp, Reg, Rounding, Type, UnOp,
};

mod ballot_crash;
mod bfind64_undefined;
mod copy_exit;
mod divisor_clobbered;
mod fall_through;
mod known_guard;
mod loop_rewritten_guard;
mod match_join;
mod neg_as_integer;
mod or64_after_exit;
mod shape;
mod shfl_range_guard;
mod unwritten;

use ballot_crash::unused_ballot_of_vote_after_math_call;
use bfind64_undefined::bfind64_of_never_written;
use copy_exit::predicate_copy_guards_exit;
use divisor_clobbered::div_rp_of_neg_of_guarded_activemask;
use fall_through::fixed_on_fall_through;
use loop_rewritten_guard::ballot_guard_read_after_loop_rewrite;
use match_join::match_at_join_of_two_paths;
use neg_as_integer::neg_f32_before_guarded_imm_and_laneid;
use or64_after_exit::or64_low_word_ones_in_loop_after_exit;
use shape::{
    calls_math_subroutine, copy_into_itself, labelled, loops, mask_value, predicate_self_copy,
    straight_writer,
};
use shfl_range_guard::collective_under_out_of_range_shuffle_predicate;
use unwritten::Lazy;

/// A known bug's idiom.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Idiom {
    /// A guarded instruction, then (with no label or branch between) a
    /// guarded collective (under any guard) that writes its guard
    /// predicate: the compiler evaluates the earlier guard after the
    /// redefinition. (An unguarded collective writing it is the ISA's own
    /// scan example, which the H200 runs right:
    /// `corpus/scan-up-sync-h200.ptx`.) (`corpus/shl.b64-8b46bd59.ptx`,
    /// `corpus/sub.s64-446c1297.ptx`; under another guard: `@!%p0 add`,
    /// then `@!%p4 vote.sync.uni %p0`, found 2026-11-23.)
    /// Since the triage of 2026-11-27-h
    /// (`docs/log/gpu-2026-11-27-h/triage.md`): the scan goes on past a
    /// label that only branches after the guarded instruction target (one
    /// no branch targets, or a forward branch's join), and past forward
    /// branches (`k1-label.found` and `k1-branch.found` wrong from -O1;
    /// with the label made a join, or a fresh predicate written, right).
    /// Since the triage of 2026-11-28-j
    /// (`docs/log/gpu-2026-11-28-j/triage.md`, its variants run on an H100
    /// through the driver's JIT linker at -O0, -O1, -O3): past a loop that
    /// keeps the guard (`k1-loop.found` wrong from -O1), and a branch no lane
    /// reaches makes no join (`k1-exit.found`); a fresh predicate, right.
    GuardRedefinedByCollective,
    /// `@p exit` (either polarity), or `@p bra L` where `L` is an unguarded
    /// `exit`, the end of the program or any label past the loop, then a
    /// loop that both writes `p` and reads it: the compiler folds `p` to
    /// its value after the exit (`corpus/vote.sync.any-6be43972.ptx`,
    /// `corpus/sub.f32-27e7f0a1.ptx`). A branch over the loop to a label
    /// that is no exit does the same (H200, 2026-11-27, triage group G5,
    /// `docs/log/gpu-2026-11-27/triage.md`: `@!%p0 bra L0` over a loop
    /// that copies `%p0` and rewrites it, `L0` followed by more code, wrong
    /// at -O1 to -O4; with the loop writing a copy `%p5` instead of `%p0`
    /// it agrees at every level, and with the code after `L0` removed it
    /// still diverges).
    /// Since the triage of 2026-11-27-h
    /// (`docs/log/gpu-2026-11-27-h/triage.md`): an unguarded `exit` that a
    /// guarded branch just before it skips (`@%p bra L; exit; L:`) is a
    /// guarded exit (`k2-branch.found` wrong from -O1).
    /// Since the triage of 2026-11-28-j
    /// (`docs/log/gpu-2026-11-28-j/triage.md`, its variants run on an H100
    /// through the driver's JIT linker at -O0, -O1, -O3): instructions may
    /// stand between that branch and the `exit` (`k2-inner.found`), and a
    /// branch into the loop's entry that is the only way there counts
    /// (`k2-enter.found`, wrong from -O1); a copy of `p` into itself is no
    /// rewrite (`k2-enter.p6-input` right).
    GuardFoldedAfterExit,
    /// A `match`, `vote` or `redux` whose result no one reads (a sink, or
    /// a register overwritten before any read), with a register membermask
    /// (per-lane groups) and then a collective with an immediate membermask
    /// (the full mask or a sub-warp one), or with an immediate membermask
    /// that is not the full mask and then one with the full mask: the
    /// compiler drops the unused collective but keeps its
    /// `WARPSYNC.EXCLUSIVE` and runs the later collective per group
    /// (`corpus/redux.sync.xor.b32-6c379852.ptx`; with a dropped
    /// `vote.sync.uni` or `redux.sync`, found 2026-11-23; a sub-warp later
    /// mask and overwritten results in 11 of the H200's findings of
    /// 2026-11-27, `docs/log/gpu-2026-11-27/triage.md`, group G2).
    /// Widened by the triage of 2026-11-27-h
    /// (`docs/log/gpu-2026-11-27-h/triage.md`, its variants run on an H200
    /// at -O0 to -O3): a read by an instruction whose results are all
    /// sinks (`mov.pred _, %p`) is no read (group A, nine findings that
    /// nothing else explains); the predicate of a `match.all` of an
    /// immediate and the result of `redux.sync.{min,max,and,or}` of an
    /// immediate are known without the collective, so reading them keeps
    /// nothing (group C: `k5-sink.read-immediate-value` wrong from -O1,
    /// with the value in a register right); a later membermask register
    /// whose last write, no label between, is an unguarded `mov` of an
    /// immediate is that immediate (group B); in a loop only a read before
    /// the next rewrite counts (group L). A result nothing rewrites is
    /// stored by the case, so it is used (`k5-movimm.vote-result-read`
    /// right at every level).
    /// Since the triage of 2026-11-28-j
    /// (`docs/log/gpu-2026-11-28-j/triage.md`, its variants run on an H100
    /// through the driver's JIT linker at -O0, -O1, -O3): a read by an
    /// instruction whose results are all dead (two steps deep) is no read
    /// (`k5t-*.found` wrong from -O1, the reader's result kept right); the
    /// predicate of a `match.all` of a register nothing writes is known, as
    /// of an immediate (`k5u.found`; with an input or `%laneid`, right); a
    /// guarded overwrite whose guard a branch fixes overwrites
    /// (`k5g-branch.found`; an input's guard, right).
    /// Since the triage of 2026-11-28-k (`docs/log/gpu-2026-11-28-k/triage.md`,
    /// group K5G2): also `@!p` after a `setp.and` of two immediates whose
    /// comparison is false into `p` (`k5g2.found` wrong from -O1).
    /// A copy of the result into itself (`mov.pred %p0, %p0`) is no read
    /// (group K5L: `k5l.found` wrong at -O3; a copy into a fresh stored
    /// predicate, right).
    /// Since the triage of 2026-11-28-l (`docs/log/gpu-2026-11-28-l/triage.md`,
    /// its variants run on an H200 through the driver's JIT linker at -O0,
    /// -O1, -O3): a read by an instruction no lane reaches is no read
    /// (K5U: `k5u.found` wrong from -O1, `k5u.reader-reachable` right); the
    /// predicate of a `match.all` of a register an unguarded `mov` of an
    /// immediate just wrote is known (K5M: `k5m.found`, `.b64-found` wrong
    /// from -O1, `.value-input` right); a guarded overwrite overwrites where
    /// the text fixes its guard: a `setp` of a register with itself or the
    /// second destination of a constant `setp.and` (K5S, K5Q: `.found` wrong
    /// from -O1, the same guard an input true on every lane right), a
    /// branch around an `exit` (K5X: `k5x.found` wrong from -O1). It also
    /// hangs (K5H: see [`Idiom::effects`]).
    /// Since the triage of 2026-11-28-m (`docs/log/gpu-2026-11-28-m/triage.md`,
    /// group K5R, on the H200 through the linker at -O0 to -O3): a read by
    /// a `setp` whose value does not depend on it (`setp.ge.and.s32 %p1, 0,
    /// 1, %p2`) is no read (`k5r.found` wrong from -O2, `.reader-uses` with
    /// `setp.ge.or` right).
    UnusedCollectiveSplitsWarp,
    /// A loop whose body has a guarded `exit` and, after it, a write to a
    /// register that nothing writes before the loop: the compiler hoists
    /// the write above the exit, so the exit path sees this iteration's
    /// value instead of the last one (`corpus/setp.gt.s32-7181e72d.ptx`;
    /// with an entry value the H200 runs it right).
    /// Since the triage of 2026-11-27-h
    /// (`docs/log/gpu-2026-11-27-h/triage.md`): an unguarded `exit` that a
    /// guarded branch skips counts (`n1-branch.found` wrong from -O1); the
    /// write computes from a register or `%laneid`, and with a case's
    /// inputs a register with an entry value is none of it
    /// (`n1-branch.lp0-given` right at every level).
    /// Since the triage of 2026-11-28-m (`docs/log/gpu-2026-11-28-m/triage.md`,
    /// group N1S): instructions that compute nothing may stand between that
    /// branch and the `exit` where the loop writes the branch's guard
    /// (`n1s.found` wrong on the H200 from -O1, `.lp0-given` right).
    LoopWriteHoistedAboveExit,
    /// A `shfl.sync` of an immediate, then a `shfl.sync` of its result,
    /// where the first can read an exited or non-member lane (an `exit`
    /// comes before it, or its membermask is not the immediate full mask):
    /// the compiler folds the second shuffle to its input as if it were
    /// warp-uniform (`corpus/shfl.sync.down-f8cd95db.ptx`).
    /// Since the triage of 2026-11-28-k (`docs/log/gpu-2026-11-28-k/triage.md`,
    /// group N2W): the second shuffle may be a non-`.sync` `shfl` (sm_70:
    /// `shfl.bfly.b32 %f0, %r2, 16, 31`, `n2w.found` wrong on the H200 from
    /// -O1; the first of `%laneid` or of an input, right).
    ShuffleOfShuffledImmediate,
    /// A 64-bit `shl`/`shr` whose `.b32` shift amount is a register that
    /// a `mov.f32` writes anywhere in the program: the compiler converts
    /// the register's value as a float to an integer (`F2I.U64.TRUNC`)
    /// instead of shifting by its bits, at every level, -O0 too (S1:
    /// `mov.f32 %b1, 0f00000001; shr.u64 %rd2, 1, %b1` shifts by 0, not 1;
    /// `corpus/shr.u64-fb04d2e7.ptx`, `corpus/repro/s1-f2i-shift-amount/`,
    /// whose ptxas -O0 SASS reads `MOV R4, 0x1`, `F2I.U64.TRUNC R2, R4`).
    /// Any `.f32` instruction writing the amount does the same: the H100's
    /// perturbed -O0 run of 2026-11-27 (session 6) found `neg.f32 %b1,
    /// 0f00000000; shr.s64 %sd2, 1, %b1` (`corpus/shr.s64-66eee37a.ptx`),
    /// where the amount 0x80000000 (-0.0's bits) gives `%sd2` = 1 at every
    /// level on the H100 and the H200 (the amount converted to 0), and the
    /// ISA's shift by 0x80000000 (clamped to 64) gives 0; the same with
    /// `mov.b32 %b1, 0x80000000` agrees at every level, `mov.f32 %b1,
    /// 0f80000000` diverges at every level (H200,
    /// `docs/log/gpu-2026-11-27-f/`). A `selp.f32` of the amount too:
    /// session 11's -O3 hunt (H200) found `selp.f32 %b3, 0f00000000,
    /// 0f00000001, %p0; shl.b64 %bd2, 1, %b3` with `%p0` false, `%bd2` 1
    /// at every level where the ISA's shift by 1 gives 2
    /// (`corpus/shl.b64-b0c622d7.ptx`): any instruction whose destination
    /// is typed `.f32` counts.
    ShiftAmountConvertedFromF32,
    /// A guarded `.sync` collective inside a loop (between a label and a
    /// backward `bra` to it) whose guard predicate an instruction of the
    /// loop writes (in `corpus/hang-f7163bc7.ptx` the collective itself),
    /// then a `.sync` collective after the loop that lanes can execute (a
    /// membermask other than the immediate 0, which no lane of a defined
    /// run executes): where lanes leave the loop at different trips, the
    /// kernel never finishes at -O1 to -O4 and finishes right at -O0 (the
    /// lanes still looping and those that left wait in different
    /// collectives). Two hunting runs of 2026-11 (issue #34) hung on this
    /// shape within seconds, one of them with every other idiom avoided.
    /// In `hang-f7163bc7` the loop follows `@!%p1 exit`, so
    /// [`Idiom::GuardFoldedAfterExit`] holds too, and that fold explains
    /// its hang: with the collective's guard folded to true, the reference
    /// itself reports lanes 29 and 31 waiting in the two collectives
    /// (`sync-deadlock`). The unreduced program (its case seed,
    /// regenerated at the commit that found it) holds both idioms as well.
    LoopGuardRewrittenHangs,
    /// A `.sync` collective whose membermask is a register (in the case,
    /// each lane its own bit), then a later `.sync` collective with the
    /// immediate membermask 0, which no lane of a defined run executes (a
    /// lane outside its membermask is undefined behaviour): the kernel
    /// raises `CUDA_ERROR_ILLEGAL_INSTRUCTION` at -O1 to -O4 and finishes
    /// right at -O0 (H100, 2026-11-24; `corpus/hang-7d93fc80.ptx`,
    /// `corpus/repro/h100-fault-7d93fc80/`). Both are needed: without the
    /// mask-0 collective, or without the register-mask one, it agrees. Not
    /// explained yet: at -O3 the register-mask `vote.sync` becomes
    /// `WARPSYNC.EXCLUSIVE R7` before a full-warp `MATCH.ALL`, the mark of
    /// [`Idiom::UnusedCollectiveSplitsWarp`], whose idiom the reduced case
    /// holds too; the unreduced program (87 instructions, generated with
    /// every idiom avoided) read the vote's result, had group masks
    /// (`activemask & %grp`) rather than single bits and no mask-0
    /// collective (its later collectives had the mask 3): the reduction
    /// made both, so this idiom is the reduced shape and its near
    /// relatives, not every program of this bug.
    ZeroMembermaskCollectiveFaults,
    /// N5: `shl.b64 d, a, IMM` with an immediate amount IMM above 63. The
    /// PTX ISA (`shl`, docs.nvidia.com/cuda/parallel-thread-execution/
    /// #logic-and-shift-instructions-shl): "Shift a left by the amount
    /// specified by unsigned 32-bit value in b", and "Shift amounts greater
    /// than the register width N are clamped to N" (the rule the reference
    /// follows, `interp/alu.rs`), so `d` is 0; the reference and -O0 give
    /// 0. From -O1 on the compiler folds the shift as if the
    /// amount were taken mod 64: `1 << 0x35358885` gives 1 and `1 << 64`
    /// gives 1 (`corpus/shl.b64-e76daa37.ptx`), `1 << 0x55555555` gives
    /// 0x200000, the amount mod 64 being 21 (`corpus/shl.b64-7ea77b79.ptx`).
    /// The H200's experiments of 2026-11-27
    /// (`docs/log/gpu-2026-11-27/triage.md`, G7): the amount 63 agrees at
    /// every level, 64 diverges from -O1, and the amount 0x35358885 from a
    /// register agrees at every level (`corpus/cases/shl64-*-h200.ptx`).
    /// Only `shl.b64` was seen; `shr` and the 32-bit shifts with amounts
    /// above their width are not recognised until a case shows them, and
    /// an immediate `a` (the whole shift a constant) is recognised though
    /// no case had one.
    Shl64ImmediateAmountWraps,
    /// N6: `add.f32 d, IMM, IMM` (no rounding modifier) whose exact sum
    /// lies halfway between two neighbouring f32 values. The PTX ISA
    /// (`add` (floating point), docs.nvidia.com/cuda/parallel-thread-execution/
    /// #floating-point-instructions-add): "An add instruction with no
    /// rounding modifier defaults to round-to-nearest-even and may be
    /// optimized aggressively by the code optimizer. In particular, mul/add
    /// sequences with no rounding modifiers may be optimized to use
    /// fused-multiply-add instructions on the target device." A lone add
    /// has nothing to fuse with, so its value is the sum rounded to nearest
    /// even; the reference and -O0 (the hardware's `FADD`) give it. From
    /// -O1 on the compiler folds the sum and rounds the tie the other way:
    /// 20 + (-95450288) = -95450268 gives `0fccb60e93` (-95450264, odd,
    /// toward zero) where round-to-nearest-even gives `0fccb60e94`
    /// (`corpus/add.f32-6f3cd99b.ptx`). The H200's experiments of
    /// 2026-11-27 (`docs/log/gpu-2026-11-27/triage.md`, G8): the same add
    /// with one operand in
    /// a register agrees at every level, and 19 instead of 20 (no tie, the
    /// nearest value `0fccb60e94`) agrees at every level
    /// (`corpus/cases/f32-add-*-h200.ptx`), so the folder rounds to nearest
    /// and only the tie goes wrong (toward zero or to odd: one case cannot
    /// tell them apart). `sub.f32` of two immediates whose exact difference
    /// is a tie does the same (the H100's -O1 hunt and the H200's
    /// experiments of 2026-11-27, session 6: `sub.f32 %f1, 0f4b4f0b76,
    /// 0f40200000`, 13569910 - 2.5 = 13569907.5, gives `0f4b4f0b73`
    /// (13569907, odd) where round-to-nearest-even gives `0f4b4f0b74`,
    /// from -O1 on both GPUs in the driver's JIT compiler, while ptxas
    /// -O3 folds it right (`HFMA2.MMA R7, ...` = 0x4b4f0b74), as for the
    /// add: `corpus/sub.f32-e28ce7e3.ptx`, `corpus/sub.f32-39d348dd.ptx`).
    /// `mul` ties and an explicit `add.rn.f32` (which warpdiff's IR has no
    /// form for) were not tried.
    /// Since the triage of 2026-11-28-i
    /// (`docs/log/gpu-2026-11-28-i/triage.md`, its variants run on an H100
    /// at -O0 to -O3): an operand may be a register whose last write, no
    /// label between, is an unguarded `mov.f32` of an immediate or
    /// `neg.f32` of one (`n6-mov.found`, `n6-neg.found` wrong from -O1;
    /// with that operand an input, or no tie, right at every level).
    F32AddImmediatesTieMisrounded,
    /// N7: an instruction X that reads a predicate `p` (as its guard, or
    /// as a source such as `selp`'s selector) and writes a register, then
    /// (in the same block, `p` unchanged) a conditional forward branch
    /// `@q bra L`, and on its fall-through path, before `L`, an instruction
    /// that is no collective writing `p` (in the cases a `setp`), with X's
    /// result still live at `L`: the compiler computes X as if it read `p`
    /// after that write. In the PTX ISA an instruction's guard (`@p`,
    /// section "Predicated Execution") and `selp`'s selector are read when
    /// the instruction runs: `selp` (docs.nvidia.com/cuda/
    /// parallel-thread-execution/#comparison-and-selection-instructions-selp):
    /// "Conditional selection. If c is True, a is stored in d, b otherwise
    /// ... `d = (c == 1) ? a : b;`", and `bra`: "Conditional branches are
    /// specified by using a guard predicate" (the text as the ptx-90-parser
    /// crate's copy of the ISA pages gives it); no rule lets a later write
    /// of `p` change what an earlier instruction read. Cases:
    /// `@%p2 mul.lo.u64 %bd1, 0, 0; @!%p0 bra L2; setp.lt.and.s32 _|%p2,
    /// ...; L2:`, where every lane runs the mul (0) and none takes the
    /// branch, gives `%bd1` = 1, its input (`corpus/mul.lo.u64-3af54cac.ptx`);
    /// `@%p3 mov.b64 %bd2, 0; @%lp0 bra L3; ...; setp.eq.s32 %p3, 1, 1; L3:`,
    /// where no lane runs the mov, gives `%bd2` = 0
    /// (`corpus/mov.b64-6059a2c4.ptx`). The H200's experiments of
    /// 2026-11-27 (`docs/log/gpu-2026-11-27/triage.md`, G9): the guarded
    /// instruction replaced by an unguarded `selp` reading `p` still
    /// diverges from -O1 (`corpus/selp.u64-3af54cac-unguarded.ptx`,
    /// `corpus/selp.b64-6059a2c4-unguarded.ptx`), and the `setp` writing a
    /// fresh predicate instead agrees at every level
    /// (`corpus/cases/pred-read-*-renamed-h200.ptx`). K1
    /// ([`Idiom::GuardRedefinedByCollective`]) is the same late read with a
    /// guarded collective as the writer and no branch between; this one
    /// needs the branch (the reducer kept it in both cases, each with no
    /// lane taking it) and a writer that is no collective. Both cases also
    /// hold a `.sync` vote reading `p` that the reducer could not remove;
    /// whether it is needed was not tried.
    /// Since the triage of 2026-11-27-h
    /// (`docs/log/gpu-2026-11-27-h/triage.md`): the writer may be an
    /// unguarded collective (`vote.uni`, `vote.sync.all`: `n7-vote.found`,
    /// `n7-coll.found` wrong from -O1; a guarded one is K1's), and on the
    /// taken side where the fall-through jumps over it to the join
    /// (`n7-taken.found`).
    /// Since the triage of 2026-11-28-j
    /// (`docs/log/gpu-2026-11-28-j/triage.md`, its variants run on an H100
    /// through the driver's JIT linker at -O0, -O1, -O3): X's guard read,
    /// with the rewrite on one path anywhere forward of X (past labels that
    /// only paths through X reach and forward branches; right after X in a
    /// block an earlier branch skips): `n7-*.found` wrong from -O1, with a
    /// fresh predicate right.
    /// Since the triage of 2026-11-28-k (`docs/log/gpu-2026-11-28-k/triage.md`,
    /// group K1U): the fall-through's scan passes a `bra` to itself
    /// (`k1u.found` wrong on the H200 from -O1; a fresh predicate, right).
    PredicateRedefinedPastBranch,
    /// N8: `bfe.s32 d, a, POS, len` with an immediate position POS past
    /// the msb (above 31). The PTX ISA (`bfe`, docs.nvidia.com/cuda/
    /// parallel-thread-execution/#integer-arithmetic-instructions-bfe):
    /// "If the start position is beyond the msb of the input, the
    /// destination d is filled with the replicated sign bit of the
    /// extracted field", whose pseudocode takes the sign bit as
    /// `a[min(pos+len-1,msb)]` (for a non-zero length), here `a[31]`; the
    /// reference follows it (`interp/lane_ops.rs`), and -O0 agrees. From
    /// -O1 on the compiler gives 0xffffffff on every lane for `bfe.s32 d,
    /// %laneid, POS, 1`, whose sign bit `%laneid[31]` is 0 on every lane:
    /// lane 0, where `a` is 0, gets all ones too, so the value is no field
    /// of `a` (`corpus/bfe.s32-98ab3621.ptx`, POS 65). Found by the
    /// H200's runs of 2026-11-27 (`docs/log/gpu-2026-11-27-d/`,
    /// `found/w-bfe.s32-*`, `found/m1-bfe.s32-*`, `found/m2-bfe.s32-*`)
    /// with POS 65, 125, 135, 233 and 253, `a` = `%laneid` and the length
    /// 1 in every case, each wrong at -O1 to -O4. Not tried: a position
    /// from 32 to 64, other lengths (the detector takes any), a position
    /// in a register, other `a`, and the other types (that run's
    /// divergences name `bfe.s32` only: none on `bfe.u32`, `.u64` or
    /// `.s64`, which are not recognised). The H200's experiments of
    /// 2026-11-27-e (`docs/log/gpu-2026-11-27-e/triage.md`): the
    /// positions 32, 64 and 65, the length 2, and `a` with bit 31 set on
    /// half the lanes all give 0xffffffff on every lane from -O1 (the -O3
    /// SASS stores the constant: `MOV R7, 0xffffffff`); the position 31,
    /// the length 0 (the ISA's sign bit is then 0, and the GPU gives 0),
    /// a position in a register, `bfe.u32` and `bfe.s64` with the
    /// position 65 agree at every level. The detector takes a position
    /// above 31 with any length but an immediate 0.
    BfeS32ImmediatePositionPastMsb,
    /// N9: `bfi.b32 f, a, b, pos, LEN` with an immediate length LEN above
    /// 32. The PTX ISA (`bfi`, docs.nvidia.com/cuda/
    /// parallel-thread-execution/#integer-arithmetic-instructions-bfi):
    /// `len = d & 0xff; f = b; for (i=0; i<len && pos+i<=msb; i++) {
    /// f[pos+i] = a[i]; }`, so every bit from `pos` to 31 is replaced; the
    /// reference follows it, and -O0 agrees. From -O1 on the compiler
    /// inserts as if the length were taken mod 32: `bfi.b32 %f0, 0,
    /// %laneid, 1, 65` clears bit 1 only (lane 6 gives 4, where the ISA
    /// gives `%laneid & 1` = 0: `corpus/bfi.b32-977bbe53.ptx`); the length
    /// 33 does the same (`docs/log/gpu-2026-11-27-d/found/w-mov.s32-*`,
    /// so not mod 64); the length 48 leaves bits 17 and up of `b` as they
    /// were (`corpus/bfi.b32-d914d391.ptx`: lanes 28 to 31 keep `b`; the
    /// reference with the length 16 gives the GPU's values). Found by the
    /// H200's runs of 2026-11-27 (`found/w-bfi.b32-*`, `found/m1-bfi.b32-*`,
    /// `found/m2-bfi.b32-*`, `found/w-mov.s32-*`), `pos` 1 in every case,
    /// each wrong at -O1 to -O4. The H200's experiments of 2026-11-27-e
    /// (`docs/log/gpu-2026-11-27-e/triage.md`): the length 32 and the
    /// length 64 (each 0 mod 32) leave `b` unchanged from -O1, so the
    /// idiom is a length of 32 or more (at -O3 the whole `bfi` is folded
    /// to `LOP3.LUT R5, RZ, RZ, R7, 0xe2`, which is `b` = `%laneid`: the
    /// insert mask folded to 0; -O0 computes it with `BMSK`); the lengths
    /// 31, 63 and 255 (31 mod 32, which from position 1 covers bit 31 as
    /// the ISA does) agree at every level, as do a length of 32 or 65 in a
    /// register, `bfi.b64` with the lengths 64 and 65, and the position 0
    /// with the length 32 (the detector takes that one too: the value of
    /// a program holding it is right, but it is the same fold's shape).
    Bfi32ImmediateLengthWraps,
    /// N11: a guarded `mov d, r` (register source), an instruction that
    /// reads `d`, then (straight-line, no label or branch between) a
    /// guarded `activemask` that rewrites `r`: the compiler recomputes the
    /// reader's `d` from `r` after the rewrite (H200, 2026-11-27-e,
    /// `corpus/cvt.u8.u32-3837dfe5.ptx`: `@!%p2 mov.b32 %b1, %r0;
    /// cvt.u8.u32 %h1, %b1; ...; @!%p2 activemask.b32 %r0`, where every
    /// lane's `%r0` is 0 when the mov runs, gives `%h1` = 254, the low byte
    /// of the later activemask 0xfffffffe, from -O1; `%b1` itself is
    /// right). The ptxas -O3 SASS selects `%b1` once right (`SEL R15, R7,
    /// R0, P2`, stored), then rewrites R7 in place (`@!P3 VOTE.ANY R7, PT,
    /// PT`) and selects again for the cvt (`SEL R17, R7, R0, P2`, `LOP3.LUT
    /// R17, R17, 0xff`). The PTX ISA (`mov`): "Write register d with the
    /// value of a"; a later write of `a` does not reach `d` or what was
    /// computed from it. Experiments (`docs/log/gpu-2026-11-27-e/`): the
    /// rewrite by `mov.b32 %r0, 77` instead of the activemask agrees at
    /// every level (the select is not repeated: `SEL R7, R7, 0x4d, P2`
    /// comes after the cvt's `LOP3`), and so do the mov unguarded, the case
    /// without its first (unrelated) guarded `activemask` and the case
    /// without its final `vote.sync.ballot`; the rewrite under a fresh
    /// predicate still diverges. The detector asks for the mov, the read
    /// and the guarded activemask only, so it also fires on the two
    /// variants without the first activemask or the ballot, which agreed.
    MovRecomputedAfterActivemaskRewrite,
    /// N12: a guarded `cvt` to an 8- or 16-bit integer type whose
    /// destination is a 32-bit register, after an `exit` and then a
    /// `shfl.sync`: the compiler merges the converted value into the
    /// register's old value with a byte permute that keeps only its low
    /// 16 bits, in a register that then holds the shuffle's membermask, so
    /// the upper half of `d` is the membermask's (H200, 2026-11-27-e,
    /// `corpus/cvt.rni.s8.f32-7852faa9.ptx`: `@%p3 exit; @%p0 xor.b64 ...;
    /// shfl.sync.up.b32 _|%p4, 0, 0, 0, 0xb6db6db6; @!%p3 cvt.rni.s8.f32
    /// %s1, 0f00000000` gives `%s1` = 0xb6db0000 from -O2, where the ISA
    /// (`cvt`: for an integer destination narrower than the register, the
    /// value is sign- or zero-extended to the register's width, as -O0 and
    /// the reference give) gives 0). The ptxas -O3 SASS: `IMAD.MOV.U32 R7,
    /// RZ, RZ, -0x4924924a` (0xb6db6db6), `F2I.S8.NTZ R8, RZ`, `PRMT R7,
    /// R8, 0x7610, R7`. Experiments: the mask 0xaaaaaaaa gives 0xaaaa0000,
    /// the values -1 and 1 give 0xb6dbffff and 0xb6db0001, `.s16` and
    /// `.u8` destinations diverge too; `cvt.rni.s32.f32`, the cvt
    /// unguarded, no shuffle, no lane exiting (with the full mask), and no
    /// `xor.b64` agree at every level. The detector does not look at the
    /// guarded `xor.b64` before the shuffle (without it the case agreed)
    /// nor at whether a lane really exits.
    /// Since the triage of 2026-11-27-h
    /// (`docs/log/gpu-2026-11-27-h/triage.md`): also with the `cvt` at a
    /// branch's target after a `shfl.sync` (the branch in the exit's place;
    /// `narrow-cvt-join.found` wrong from -O1, and right without the
    /// shuffle).
    /// Since the triage of 2026-11-28-i
    /// (`docs/log/gpu-2026-11-28-i/triage.md`, its variants run on an H100
    /// at -O0 to -O3): after the exit, with no shuffle, a half of a 64-bit
    /// immediate (a `match.b64`'s value, a `mov.b64`'s, before or after
    /// the `cvt`) gives the upper half (`n12-match.found`: 0xdbb70000;
    /// `n12-mov.found`: 0x27370000; other immediates give their halves,
    /// 0x12340000 and 0x33330000), wrong from -O2; without it, unguarded,
    /// to `.s32` or without the exit right at every level. A `shfl.sync`
    /// in the match's place, N12's shape without its `xor.b64`, agreed.
    /// Since the triage of 2026-11-28-j
    /// (`docs/log/gpu-2026-11-28-j/triage.md`, its variants run on an H100
    /// through the driver's JIT linker at -O0, -O1, -O3): the register's own
    /// old upper half (an input), the `cvt` under a guard a branch on its
    /// negation fixes, a shuffle between (`n12-own.found`, wrong at -O3).
    /// Since the triage of 2026-11-28-k (`docs/log/gpu-2026-11-28-k/triage.md`,
    /// group N12E): or a guarded `exit` right after the `cvt` in the
    /// shuffle's place (`n12e.found` wrong on the H200 at -O3; without the
    /// exit, right).
    /// Since the triage of 2026-11-28-m (`docs/log/gpu-2026-11-28-m/triage.md`,
    /// group N12F): after the exit, with no shuffle, a `mov` of an
    /// immediate into another 32-bit register before the exit under the
    /// `cvt`'s guard gives the upper half (`n12f.found`: 0xffff0000;
    /// `n12f.filler-other`: 0x12340000; to `.s32` right).
    NarrowCvtKeepsStaleUpperHalf,
    /// N13: `cnot.b32 c, a`, then a 16-bit `shl.b16`/`shr.b16`/`shr.u16`
    /// whose shift amount is `c` (unchanged between): the compiler gets the
    /// shift wrong from -O1 (H200, 2026-11-27-e,
    /// `corpus/shr.b16-cnot-amount.ptx`: `cnot.b32 %b0, %laneid; shr.b16
    /// %h1, 1, %b0` gives 0 on lanes 1 to 31 at -O1, where the amount is 0
    /// and the ISA's `shr` gives 1, and 1 on lane 0 at -O2 to -O4, where
    /// the amount is 1 and the ISA gives 0). The PTX ISA: `cnot`, "d =
    /// (a==0) ? 1 : 0"; `shr`: "Shift a right by the amount specified by
    /// unsigned 32-bit value in b". Experiments: the amount `and.b32 %b0,
    /// %laneid, 1`, a `shr.b32` and a `shr.s16` agree at every level. With
    /// two `.sync` collectives before the shift the compiler crashes
    /// instead ([`Idiom::CnotShift16CrashesPtxas`], whose cases hold this
    /// idiom too). A `cvt.sat` to 16 bits of the `cnot`'s result is the
    /// same bug (the H100's and H200's runs of 2026-11-27, session 6:
    /// `cnot.b32 %b1, %laneid; cvt.sat.u16.u32 %rh0, %b1` gives 0 on lane
    /// 0, where `cnot` gives 1 and the saturation keeps it, from -O1 on
    /// both GPUs and through ptxas -O3: `corpus/cvt.sat.u16.u32-cnot.ptx`,
    /// reduced on the H100 from the H200's `cvt.sat.u16.u32-47058c4e` of
    /// 2026-11-27-e). Why one bug: in both the ptxas -O3 SASS computes the
    /// `cnot` right (`ISETP.EQ.U32.AND P0, PT, R7, RZ, PT`, `SEL R0, RZ,
    /// 0xffffffff, !P0`, then `-R0`, stored) and the 16-bit consumer does
    /// not read it: the shift reads R0 before the `SEL` writes it
    /// (`LOP3.LUT R5, R0, 0xffff` at 0x30, the `SEL` at 0xa0), and the cvt
    /// is folded to the constant 0 (`HFMA2.MMA R5, -RZ, RZ, 0, 0`), as a
    /// consumer of an undefined value may be; the unreduced case gave the
    /// value of a later write of the same register (2 where `and.b32 %b1,
    /// %laneid, 2` follows). `cvt.u16.u32` (no `.sat`) of the `cnot`, and
    /// the `cvt.sat` of `and.b32 %b1, %laneid, 1`, agree at every level.
    /// An 8-bit `cvt.sat` too (H200, 2026-11-27, session 8,
    /// `docs/log/gpu-2026-11-27-h/exp8c-levels-h200.txt`: `cnot.b32 %b0,
    /// %laneid; cvt.sat.u8.u32 %b1, %b0` gives 192 on every lane from -O1,
    /// from session 6's `cvt.rn.f32.u32-e1549039`; the same with `setp` and
    /// `selp` in the `cnot`'s place, or `cvt.rn.f32.u32` of the `cnot`
    /// directly, agree).
    CnotAmountOf16BitShift,
    /// N14, a compiler crash: [`Idiom::CnotAmountOf16BitShift`]'s shape
    /// with two or more `.sync` collectives before the shift: ptxas dies
    /// with SIGSEGV (exit 139) from -O1 and compiles the module at -O0
    /// (H200 host, ptxas 13.0 and the driver's JIT of 580.159.04,
    /// 2026-11-27-e: `corpus/engine-failed-1d47c952.ptx`, `cnot.b32 %b0,
    /// %laneid; match.any.sync.b32 %m2, %laneid, 0xffffffff;
    /// vote.sync.any.pred _, !%p1, %m2; shr.b16 %h1, 1, %b0`;
    /// `corpus/engine-failed-f62eea63.ptx`, a never-executed `@%p1
    /// shfl.sync.up.b32` with membermask 0 and an unused `match.any.sync`
    /// before `cnot` and `shr.u16`). Experiments
    /// (`docs/log/gpu-2026-11-27-e/ptxas.txt`): `shl.b16`, the shifted value
    /// 3 or a register, and `cnot` of an input register crash too; without
    /// the `match.any` (the vote's mask the immediate full mask) or without
    /// the vote the module compiles and the value is wrong (N13); with
    /// `and` or `not` for the `cnot`, or `shr.b32`/`shr.s16`, it compiles
    /// and agrees. In `warpdiff fuzz` the driver's JIT runs in a compile
    /// helper process, which dies: the batch is refused ("failed to fill
    /// whole buffer"), the case compiled alone fails the same way, and it
    /// is reported as an `engine-failed` divergence; `warpdiff diff`, which
    /// compiles in its own process, dies with exit status 139.
    CnotShift16CrashesPtxas,
    /// N17: an ordered `setp.f32` (`gt`, `ge`, `lt`, `le`, either operand
    /// order) of `abs.f32 a, x` (or of its `neg.f32`) against an immediate
    /// that makes the comparison true for every value `|x|` (or `-|x|`) can
    /// take but NaN — `|x| > c` with `c < 0`, `|x| >= c` with `c <= 0`,
    /// `-|x| < c` with `c > 0`, `-|x| <= c` with `c >= 0`: the compiler
    /// folds it to true, which is wrong where `x` is a NaN. The PTX ISA
    /// (`setp`, docs.nvidia.com/cuda/parallel-thread-execution/
    /// #comparison-and-selection-instructions-setp, "Floating Point
    /// Comparison Operators": "If either operand is NaN, the result is
    /// False" for `eq`, `ne`, `lt`, `le`, `gt`, `ge`, and `abs.f32` of a
    /// NaN is a NaN). Found by the H100's -O1 hunt of 2026-11-27 (session
    /// 6) twice (`corpus/cvt.sat.s8.s32-491fa571.ptx`: `abs.f32 %f3, %f0;
    /// setp.gt.f32 %p2, %f3, 0fcf000000` with `%f0` = 0xffc00000 on lane
    /// 10 gives `%p2` = 1 there; `corpus/mul.hi.s32-7b6e8bb9.ptx`, the
    /// constant -7.0 and the NaN 0x7f800001). The H200's experiments
    /// (`corpus/repro/n17-abs-nan-compare-folded/`, `docs/log/
    /// gpu-2026-11-27-f/`): `|x| > -2^31` with NaN on lanes 1 to 3 gives 1
    /// there from -O1 and through ptxas -O3, whose SASS stores the constant
    /// (`HFMA2.MMA R9, -RZ, RZ, 0, 5.96e-08`, the word 1) where -O0
    /// compares (`FSETP.GT.AND P0, PT, R8, -2.147e+09`); `|x| >= 0`, `-2^31
    /// < |x|` and `-|x| < 1` diverge the same way; a positive constant
    /// (`|x| > 1`), no `abs` (`x > -2^31`) and `ne` (`|x| != -1`) agree at
    /// every level.
    AbsCompareFoldedIgnoringNan,
    /// N3: in a loop, an instruction reads (as a source) a register `x`
    /// that may have no value there, from the loop's entry (never written,
    /// or written from a register that was: in the case `mov.f32 %f0, %f2`
    /// before the loop, `%f2` written by nothing, which gives `%f0` no
    /// value either), with no write of `x` between the loop head and the
    /// read; later in the body an unguarded instruction that is no
    /// collective writes `x` from sources that have a value: lanes that
    /// loop again read that value, but the compiler gives every trip's
    /// read the entry's nothing. H200 2026-11-23
    /// (`corpus/mov.f32-af6984f1.ptx`,
    /// `corpus/repro/n3-loop-read-before-write/`: `mov.f32 %f0, %f2; L3:
    /// ...; mov.f32 %b2, %f0; mov.f32 %f0, 0f00000001; ...; @%lp0 bra L3`,
    /// lanes 28 to 31 looping twice, where the reference gives `%b2` = 1,
    /// the second trip's read of the body's 1, and the GPU 0 from -O2 on
    /// the H100 and the H200; the ptxas -O3 SASS stores `%b2` from R13,
    /// which nothing writes, and loads the constant after the loop, `MOV
    /// R11, 0x1`). Found again by the H200's -O2 hunt of 2026-11-27-f with
    /// every other idiom avoided (`docs/log/gpu-2026-11-27-f/found-h200-O2/
    /// min.f32-734338f8`, the same shape with `min.f32`, and
    /// `brev.b64-9b1fac2a`, whose `%bd2` has no write before the loop at
    /// all, read by `brev.b64` and rewritten by `xor.b64 %bd2, 0, 1`: both
    /// wrong from -O2; neither tried further). The reference gives a
    /// register no value until something writes it (no `.lanes` line, no
    /// write: the interpreter's `never_written`), so the first trip's read
    /// is of nothing and the later trips' of the body's write, which is
    /// what it reports. A guard read is left out (K2's loops read their
    /// guard before they rewrite it, [`Idiom::GuardFoldedAfterExit`]), as
    /// is a rewrite by a collective, whose result depends on the other
    /// lanes (K2's `shfl.sync` writing its predicate). With an entry
    /// value for the register (which [`Idiom::find_in_case`] does not
    /// count) it agrees at every level on an H100, as does the loop with
    /// the register without a value copied on the back edge instead of
    /// the entry (N15's side; `docs/log/gpu-2026-11-27-g/exp7-levels-h100.txt`).
    /// Since the triage of 2026-11-28-i
    /// (`docs/log/gpu-2026-11-28-i/triage.md`, its variants run on an H100
    /// at -O0 to -O3): the body's rewrite may be guarded (`@%p1 mov.f32
    /// %f1, 1` after `max.f32 %f0, 0, %f1`: `n3-guarded.found`, and
    /// `n3-guarded2.found`, wrong from -O2; with an entry value right).
    /// The same two with the rewrite unguarded agreed at every level: the
    /// detector is wider than the bug there.
    LoopReadBeforeWrite,
    /// N4: an unguarded instruction writes a register `r` from an
    /// expression (an `and`, a `shr` ... of `%laneid` or of registers) on
    /// one side of a forward branch, where the lanes that take the branch
    /// skip it with `r` never written; at or after the branch's label (the
    /// join) an instruction computes the same expression (the same
    /// operation, type and sources, its sources not rewritten between),
    /// into `r` or another register: the compiler replaces the repeat by
    /// the one-sided result, nothing on the lanes that skipped it. H200
    /// 2026-11-23 (`corpus/sub.s32-653c4955.ptx`,
    /// `corpus/repro/n4-one-sided-write/`: `@%p3 bra L0; and.b32 %ctr0,
    /// %laneid, 7; L0: sub.s32 %ctr0, %ctr0, 1; ...; and.b32 %ctr0,
    /// %laneid, 7; sub.s32 %ctr0, %ctr0, 1`, every lane taking the branch,
    /// gives 0xffffffff on every lane for `(lane & 7) - 1` from -O2, the
    /// H100 and the H200 alike; its ptxas -O3 SASS computes the `and` once,
    /// on the one side only, `@!P0 LOP3.LUT R0, R9, 0x7, RZ, 0xc0, !PT`,
    /// and the final `%ctr0` from it, `IADD3 R7, R0, -0x1, RZ`, stored:
    /// R0 is written by nothing on the path every lane takes, and the
    /// repeat is gone); triage group G6 of 2026-11-27
    /// (`docs/log/gpu-2026-11-27/triage/n4-one-sided-write.ptx.txt`, the
    /// one-sided `and.b32 %s2, %laneid, 15` in a skipped loop, the repeat
    /// into `%s0`); 2026-11-27-e (`docs/log/gpu-2026-11-27-e/experiments/
    /// n4-ctr.reduced.ptx.txt`: `shr.u32 %ctr0, %laneid, 2` on the
    /// untaken side, `shr.u32 %ctr1, %laneid, 2` after the join, wrong
    /// from -O2, and still wrong without its `exit` or its `shfl.sync`).
    /// An entry value for the one-sided register, or the repeat by another
    /// expression of the same value (`and.b32 %s0, %laneid, 0x8000000f`,
    /// `div.u32 %ctr1, %laneid, 4`), agree at every level. The detector
    /// asks for a write whose expression reads at least one register or
    /// `%laneid` (a constant repeated is no expression to number), by a
    /// glue instruction (`mov`, the ALU operations, `setp`, `selp`).
    /// Since the triage of 2026-11-27-h
    /// (`docs/log/gpu-2026-11-27-h/triage.md`): outside loops, the repeat
    /// may read other registers defined just before by the same expression
    /// of immediates and `%laneid` (`n4-vn.found` wrong from -O2).
    RepeatAfterOneSidedWrite,
    /// N15: in a loop, after a branch out of the loop whose guard the loop
    /// computes (its exit test), a `mov d, s` copies a register `s` that
    /// may have no value into `d`, where `d` was written before the loop
    /// with a value that is no constant: lanes that leave before the copy
    /// keep `d`'s entry value, but the compiler replaces the merge of the
    /// two at the loop's exit by `s`. H200 2026-11-27
    /// (`corpus/activemask-e9a8567e.ptx`,
    /// `corpus/repro/n15-merge-replaced-by-never-written/`: `activemask.b32
    /// %b4; mov.s32 %ctr0, 1; L0: setp.le.s32 %lp0, %ctr0, 0; @%lp0 bra L1;
    /// @!%p4 bra L2; mov.b32 %b4, %b3; bra L0`, every lane leaving at the
    /// first trip, gives `%b4` = 3 or 4 where the activemask is 0xffffffff,
    /// from -O1, the H100 and the H200 alike; the ptxas -O3 SASS has no
    /// `VOTE.ANY` at all and stores `%b4` from R5, which nothing writes:
    /// `STG.E desc[UR4][R2.64+0x100], R5`). The experiments of 2026-11-27-e
    /// (`docs/log/gpu-2026-11-27-e/experiments/merge-undef.*`): `%laneid`
    /// for the activemask diverges from -O2; an entry value for `%b3`, a
    /// constant for the activemask (`mov.b32 %b4, 0x5a5a`) and the loop
    /// without its counter test (its only exit the loop-invariant `@!%p4
    /// bra L2`) agree at every level, so the detector asks for an exit
    /// test the loop writes and an entry value of `d` that is no constant.
    /// Since the triage of 2026-11-27-h
    /// (`docs/log/gpu-2026-11-27-h/triage.md`): with a case's inputs, an
    /// input's entry value is `d`'s write before the loop
    /// (`n15-input.found` wrong from -O2, right with the copied register
    /// given a value).
    /// Since the triage of 2026-11-28-k (`docs/log/gpu-2026-11-28-k/triage.md`,
    /// groups N15L and N15P): or a read of `d` in the body before the copy
    /// in place of the exit test, in a loop with no branch but its back
    /// edge (H31's N15W: `n15l.found`, a float, and
    /// `n15p.found`, a guard, wrong on the H200 at -O3; the never-written
    /// register an input, or no back edge, right).
    /// Since the triage of 2026-11-28-m (`docs/log/gpu-2026-11-28-m/triage.md`,
    /// group N15I): or an exit test the loop does not write, where the
    /// back edge is guarded (`n15i.found` wrong on the H200 from -O2).
    LoopCopyOfNeverWrittenReplacesMerge,
    /// N16: `xor d, x, 0` (a copy of `x`), then a loop that counts `x`'s
    /// bits (`popc`, with `x` not rewritten between) and after that, in
    /// the body, copies a register that may have no value into `x`
    /// (unguarded `mov x, s`), `d` not rewritten up to the loop's end: the
    /// compiler keeps `d` and `x` in one register, counts the bits in
    /// place and `d` is overwritten with the count. H200 2026-11-27
    /// (`corpus/xor.b64-a5b0dc52.ptx`,
    /// `corpus/repro/n16-popc-overwrites-copy/`: `xor.b64 %bd0, %bd2, 0;
    /// ...; L2: popc.b64 %b0, %bd2; mov.b64 %bd2, %bd1; @%p2 bra L3; bra
    /// L2`, `%bd1` never written, gives `%bd0` = 3, 4, 4, 5 on lanes 28 to
    /// 31, the bit counts of 28 to 31, from -O2, the H100 and the H200
    /// alike; the ptxas -O3 SASS keeps `%bd0` and `%bd2` in R6:R7, counts
    /// in place, `POPC R6, R6`, `POPC R7, R7`, and stores `%bd0` from it,
    /// `STG.E.64 desc[UR4][R2.64+0x300], R6`). The experiments of
    /// 2026-11-27-e (`docs/log/gpu-2026-11-27-e/experiments/
    /// xor64-undef.*`): an entry value for `%bd1`, no `mov`, and `xor.b64
    /// %bd0, %bd2, 5` (no copy) agree at every level, as does the case
    /// without its `max.f32` of a never-written register before the loop
    /// (`no-max`), which the detector does not ask for: it fires there
    /// (a sufficient shape, wider than the bug).
    PopcOverwritesXorCopy,
    /// N18: an integer `abs.s16`/`abs.s32` whose source may be the most
    /// negative value of its type (a register, whose value the detector
    /// does not track, or that immediate), its result read (directly, or
    /// through `mov`s of the same width, none rewritten between) by an
    /// unsigned int-to-float `cvt.f32.u16`/`cvt.f32.u32` of the same width
    /// or by a signed compare with 0 that no non-negative value passes
    /// (`setp.lt.sNN x, 0` or `setp.ge.sNN x, 0`, either operand order):
    /// the compiler takes `abs`'s result as non-negative. The PTX ISA
    /// (`abs`, docs.nvidia.com/cuda/parallel-thread-execution/
    /// #integer-arithmetic-instructions-abs): "Take the absolute value of a
    /// and store it in d", `d = |a|;`, with no exception for the most
    /// negative value, whose absolute value does not fit: the reference and
    /// -O0 give the value itself (0x8000 for `.s16`), which `cvt.u16` reads
    /// as 32,768. Case (`corpus/cvt.rz.f32.u16-18dd0967.ptx`): `abs.s16 %h0,
    /// %rh2; cvt.rz.f32.u16 %b2, %h0` with `%rh2` = 0x8000 on lane 25 gives
    /// -32,768.0 (0xc7000000) where the reference gives 32,768.0
    /// (0x47000000), a value no `.u16` conversion can give for any 16 bits;
    /// the ptxas 13.0 -O3 SASS converts as signed: `IABS R0, R0; PRMT R13,
    /// R0, 0x7710, RZ; I2F.S16.RZ R7, R13`. The H100's runs at every level
    /// of the driver's JIT (2026-11-27, experiment 8): -O0 agrees, -O1 to
    /// -O4 differ on the case, on `abs.s32` with `cvt.rz.f32.u32` (lane 25
    /// 0xcf000000 for 0x80000000) and on `abs.s32` then `setp.lt.s32 %p0,
    /// %r0, 0` (folded to false on lane 25); they agree at every level with
    /// `cvt.rz.f32.s16` (a signed conversion), `cvt.u32.u16` (an integer
    /// widening), `shr.u32 %r1, %r0, 31` and `cvt.rn.f64.u32`. The H200's
    /// (experiment 8b): `abs.s64` with `cvt.rz.f32.u64`, `setp.gt.u32 %p0,
    /// %r0, 0x7fffffff` (an unsigned compare) and `neg.s32` of the `abs`
    /// then `setp.gt.s32 ..., 0` agree at every level. So the detector
    /// takes 16 and 32 bits, an `.f32` destination and a signed compare
    /// with 0 read straight from the `abs` (or its copies).
    /// Since the triage of 2026-11-28-i
    /// (`docs/log/gpu-2026-11-28-i/triage.md`, its variants run on an H100
    /// at -O0 to -O3): also the high half of its product with 1 or 2
    /// (`mul.hi.s16`, computed as an unsigned one: 0 and 1 where the
    /// reference gives 0xffff) and its sign shifted down (`shr.s16 x, 15`,
    /// computed as a logical shift: 1), wrong from -O1; the same `mul.hi`
    /// of the input itself right at every level.
    /// Since the triage of 2026-11-28-j
    /// (`docs/log/gpu-2026-11-28-j/triage.md`, its variants run on an H100
    /// through the driver's JIT linker at -O0, -O1, -O3): `mul.hi` by any
    /// positive immediate (`mul.hi.s16` by 31 of the abs of 0x8000: 15, the
    /// unsigned product's high half; `n18-mulhi31.found`).
    AbsResultTakenAsNonNegative,
    /// N19: `setp.ne p, r, K` of a register (or `%laneid`) `r` against an
    /// immediate `K`, then `@p bra L` (forward): the instructions only the
    /// fall-through reaches run where `r == K`; among them `mov.b32 {_,
    /// h}, r` (an unpack writing a part of `r` above the lowest, where that
    /// part of `K` differs from `K`'s lowest part): the compiler gives `h`
    /// the low half of `K`. The unpack gives each destination its part of
    /// `r`, the lowest part to the first (the ISA's `mov` with a vector
    /// destination; the reference's `LaneOpKind::Unpack`). Case
    /// (`corpus/mov.b32-a3c20380.ptx`): `setp.ne.u32 %p0, %laneid, 1; @%p0
    /// bra L0; @!%p0 mov.b32 {_, %rh1}, %laneid; L0:` gives `%rh1` = 1 on
    /// lane 1, where `%laneid`'s high half is 0; the ptxas 13.0 -O3 SASS
    /// stores the constant 1 (`@!P0 SEL R5, R0, 0x1, P0`). The H100's runs at
    /// every level (2026-11-27, experiment 8): -O0 agrees, -O1 to -O4
    /// differ on the case, with the `mov` unguarded, and with a `.lanes`
    /// input `%r0` = 0x00050001 compared with 0x00050001 (every lane 1, not
    /// 5); they agree at every level with no branch (only the guard), with
    /// the unpack's source computed by `add` before the branch (not the
    /// compared register), and with the low half. The H200's (experiment
    /// 8b): the input variant followed by `add.u32 %r0, %r0, 0` differs from
    /// -O1; `shr.u32 %r1, %laneid, 16` and `bfe.u32 %r1, %laneid, 16, 16`
    /// for the unpack, and `setp.eq` with `@!%p0 bra` for the guard, agree
    /// at every level (so the detector asks for `ne` and `@p`).
    /// [`Idiom::XorAllOnesOfKnownValue`] has the same guard and may be the
    /// same rule of the compiler (an operation on a value a branch's
    /// equality fixed, lost); its operation differs, and neither detector
    /// fires on the other's cases.
    UnpackHighHalfOfKnownValue,
    /// N20: [`Idiom::UnpackHighHalfOfKnownValue`]'s guard (`setp.ne p, r,
    /// K; @p bra L`), then on the fall-through, before `L`, `xor.b32 d, r,
    /// 0xffffffff` (either operand order; all ones of the `xor`'s width,
    /// which is the compare's): the compiler gives `d` the value `K`, not
    /// its complement. The PTX ISA `xor`: `d = a ^ b`. Case
    /// (`corpus/xor.b32-9d79eba7.ptx`): `setp.ne.u32 %p0, %laneid, 0; @%p0
    /// bra L4; xor.b32 %f5, %laneid, 0xffffffff; L4:` gives lane 0 `%f5` = 0,
    /// not 0xffffffff; the ptxas 13.0 -O3 SASS stores zero (`@!P0 MOV R7,
    /// RZ`). The H100's runs at every level (2026-11-27, experiment 8): -O0
    /// agrees, -O1 to -O4 differ on the case, with a `.b32` destination,
    /// and on lane 3 (`setp.ne ..., 3`: 3, not 0xfffffffc); they agree at
    /// every level with `xor` by 0x0000ffff, with no branch, and with `mov`
    /// of 0xffffffff. The H200's (experiment 8b): an input register
    /// compared with 0x00050001 differs from -O1 (0x50001, not
    /// 0xfffafffe); `not.b32`, `xor` by 0xfffffff0, `add.u32 ..., 5` and
    /// `neg.s32` of `%laneid` agree at every level.
    /// Since the triage of 2026-11-28-j
    /// (`docs/log/gpu-2026-11-28-j/triage.md`, its variants run on an H100
    /// through the driver's JIT linker at -O0, -O1, -O3): also at the target
    /// of `@!p bra L` that nothing else enters, and past an inner branch
    /// forward on the fall-through (`n20-target.found`, `n20-inner.found`,
    /// `n20-target.lane-5` giving 5; `xor` with 0x0f0f0f0f right).
    /// Since session 13 (`docs/log/gpu-2026-11-28-m/xz/`, the H200 through
    /// the linker at -O1 and -O3): also with the `xor` before the branch
    /// (or between the `setp` and it) when the fall-through ends at an
    /// unguarded `exit`: `xor.b32 %b3, 0xffffffff, %laneid; setp.ne.u32
    /// %p2, %laneid, 0; @%p2 bra L0; exit; L0:` stores 0 for lane 0
    /// (`a/found/xor.b32-337d869f`); without the `exit` it is right.
    XorAllOnesOfKnownValue,
    /// N21: `cvt.rpi.ftz.u32.f32` (or `.s32`) of a register (or of a
    /// positive subnormal immediate), its result the shift amount of a
    /// 16-bit `shl`/`shr` (unchanged between): the compiler converts the
    /// amount again for the 16-bit shift without the flush. The PTX ISA
    /// (`cvt`, docs.nvidia.com/cuda/parallel-thread-execution/
    /// #data-movement-and-conversion-instructions-cvt): "For
    /// `cvt.ftz.dtype.f32` float-to-integer conversions and
    /// `cvt.ftz.f32.f32` float-to-float conversions with integer rounding,
    /// subnormal inputs are flushed to sign-preserving zero", so a
    /// subnormal's amount is 0; `shr`: "Shift amounts greater than the
    /// register width N are clamped to N". Case
    /// (`corpus/shr.s16-1d8328b8.ptx`): `cvt.rpi.ftz.u32.f32 %b0, %b2;
    /// shr.s16 %rh1, 1, %b0` with `%b2` the bits 1 (a subnormal) gives 0
    /// where the reference gives 1 (`1 >> 0`); the ptxas 13.0 -O3 SASS
    /// converts without the flush for the 16-bit shift (`F2I.S16.CEIL.NTZ R9,
    /// R5`: ceil of the subnormal, 1) and shifts by it (`SHF.R.S32.HI R9, RZ,
    /// R9, R0`). The H100's runs at every level (2026-11-27, experiment 8):
    /// -O0 agrees, -O1 to -O4 differ on the case and on `shr.s16` of a
    /// register; they agree at every level with the `cvt` alone, without
    /// `.ftz`, and with a 32-bit `shr.s32`. The H200's (experiment 8b):
    /// `shr.u16`, `shl.b16`, and the subnormal 0x00400000 with `shr.s16 %rh1,
    /// 2, %b0` (1, not 2) differ from -O1; `cvt.rpi.u32.f64` (no `.ftz`)
    /// and `cvt.rmi.ftz.s32.f32` of the negative subnormal 0x80000001 before
    /// `shl.b16` agree at every level. Only `.rpi` is taken: a lost flush
    /// changes no `.rni`/`.rzi` result (a subnormal rounds to 0 either way)
    /// and no `.rmi.u32` one (floor of a negative subnormal, -1, saturates
    /// to 0); `.rmi.s32` of a negative subnormal could change (-1, not 0)
    /// but agreed on the H200, and `.rpi.s32` was not tried. S1
    /// ([`Idiom::ShiftAmountConvertedFromF32`]) is a 64-bit shift whose
    /// amount an `.f32` instruction wrote; neither detector fires on the
    /// other's cases.
    /// Since the triage of 2026-11-28-j
    /// (`docs/log/gpu-2026-11-28-j/triage.md`, its variants run on an H100
    /// through the driver's JIT linker at -O0, -O1, -O3): `cvt.rmi.u32.f32`
    /// (with or without `.ftz`) of a register too: -3.0, 0 by saturation,
    /// shifts as if by -3 (`n21-rmi.found`, `n21-rmi.no-ftz`; 3.0 right).
    RoundedFtzCvtShift16LosesFlush,
    /// N22 (a compiler crash): a `vote` (any mode, `.sync` or not) in a
    /// loop with two back edges to its header and a guarded branch in the
    /// body to a point between them, the loop entered by a branch from
    /// inside another loop: the driver's PTX JIT dies with SIGSEGV at -O0
    /// and compiles the program at -O1 to -O4, on an H100 and an H200
    /// (2026-11-27, session 8: `corpus/engine-failed-1613932f.ptx`, found by
    /// `warpdiff fuzz --gpu-opt-level 0` as a compile helper that died;
    /// `corpus/repro/n22-vote-loop-crashes-jit-O0/`). Standalone `ptxas
    /// -O0` compiles the reproducer's kernel. The H100's variants
    /// (`docs/log/gpu-2026-11-27-h/crash-variants-h100.txt`):
    /// `vote.sync.ballot` and `vote.any.pred` in place of the deprecated
    /// `vote.ballot` crash too; a `mov` in the `vote`'s place, one back edge
    /// (the second removed), no guarded branch between the back edges, and
    /// no back edge of the outer loop all compile and agree.
    VoteLoopTwoBackEdgesCrashesJitO0,
    /// N23: `abs.f32` (or `abs.ftz.f32`) of a register that holds -0.0 or
    /// another `.f32` immediate, chosen by a guarded `mov` over an
    /// unguarded one or by a `selp` of two immediates: the compiler pushes
    /// the `abs` into the choice and folds it keeping -0.0's sign, where
    /// the ISA's `abs` clears the sign bit (2026-11-27, session 8: found
    /// by the H200's -O2 hunt of session 6,
    /// `corpus/abs.f32-09057ed4.ptx`: `mov.f32 %f3, 0f00000001; @%p2 mov.f32
    /// %f3, 0f80000000; abs.f32 %f3, %f3` gives 0x80000000 from -O1 where
    /// `%p2` holds). ptxas -O3 SASS: `FSEL R7, -RZ, 1.4e-45, P0`. The
    /// H200's variants (`docs/log/gpu-2026-11-27-h/exp8c-levels-h200.txt`):
    /// 1.0 in place of the subnormal, `%p2` on every other lane, a `selp`
    /// in place of the guarded `mov` and `abs.ftz` differ from -O1; `abs`
    /// of -0.0 with no choice, -1.0 in place of -0.0 and `neg.f32` in place
    /// of `abs` agree at every level.
    /// Since the triage of 2026-11-28-j
    /// (`docs/log/gpu-2026-11-28-j/triage.md`, its variants run on an H100
    /// through the driver's JIT linker at -O0, -O1, -O3): a `neg.f32` of an
    /// immediate as either write of the choice (`n23-neg.found`; unguarded,
    /// right).
    AbsOfChoiceKeepsNegativeZero,
    /// N24 (a compiler crash): a `match.all.sync` with an unused result
    /// whose predicate guards an `exit`, a branch from before the `exit` to
    /// a label after it, and a `.sync` collective at or after that label:
    /// `ptxas` -O1 to -O3 and the driver's JIT at -O1 to -O4 die with
    /// SIGSEGV, and -O0 compiles it, on an H100 and an H200. Two forms, as
    /// the hardware showed them:
    /// - the `match` not a branch target (found by session 8's hunts as
    ///   compile helpers that died: `corpus/engine-failed-30bca45c.ptx`, H200
    ///   -O2, and `engine-failed-792bd400`, H100 -O1; reproducer
    ///   `corpus/repro/n24-match-all-register-mask-exit-crashes/`): it
    ///   crashes only with a register membermask no instruction wrote before
    ///   (data) and a `shfl.sync` or `match.sync` with an immediate mask
    ///   after the join (`docs/log/gpu-2026-11-27-h/crash2-variants-h100.txt`,
    ///   `docs/log/gpu-2026-11-28-i/n24-variants-h100.txt`: the mask
    ///   immediate or from `activemask`, a `vote.sync`, `bar.warp.sync` or
    ///   `mov` after, a register mask after, no branch, `@!p exit`, the
    ///   result read, no `exit` all compile). One variant the detector takes
    ///   and the H100 compiled: the branch over a `match.all.sync.b64`
    ///   (`y9`), where the other found case's `.b64` `match` crashes;
    /// - the `match` itself a branch target, reached from two paths (session
    ///   9's -O3 hunt: `corpus/engine-failed-a4706223.ptx`, the immediate
    ///   mask 0 on a `match` no lane runs): any mask crashes (0, 1, 0xffff,
    ///   the full mask, a register), and so does a `vote.sync` or
    ///   `shfl.sync` after the join; without the `exit` it compiles
    ///   (`docs/log/gpu-2026-11-28-i/n26-variants-h100.txt`).
    ///
    /// One bug, not two: both need the same four parts (the `match.all`
    /// predicate, the `exit` it guards, the join past it, a collective
    /// after), and without the `exit` both compile; the second form needs
    /// less of the mask and of the later collective.
    MatchAllExitJoinCrashes,
    /// N25: `cnot.b64` of a `cnot.b64` result (its bits 0 or 1), converted
    /// by `cvt.{rni,rzi,rmi,rpi}` to an 8- or 16-bit integer from `.f64`:
    /// the compiler rewrites the conversion as `x != 0.0 ? 1 : 0`, taking the
    /// integer range {0, 1} of the bits for the float's, where the bits 1
    /// are the subnormal 4.9e-324 as an `.f64` (a `.b64` register read as
    /// `.f64` gives its bits), which every such rounding but `.rpi` takes
    /// to 0 (with `.rpi` both give 1, so the detector's `.rpi` cases are
    /// right by chance). ptxas -O3 SASS: `DSETP.NEU.AND
    /// P0, PT, R6, RZ, PT` then `SEL R9, RZ, 0x1, !P0` where -O0 has
    /// `F2I.U8.F64.FLOOR`. Wrong from -O1 on an H100 and an H200
    /// (2026-11-28, session 9: session 6's H200 -O2 lead `j4`,
    /// `corpus/cvt.rmi.u8.f64-cnot64-twice.ptx`,
    /// `corpus/repro/n25-cnot64-twice-narrow-cvt-from-f64/`). The variants
    /// (`docs/log/gpu-2026-11-28-i/j4-levels-h100.txt`, `-h200.txt`):
    /// `.rzi`, `.rni`, `.u16` and `.s8` destinations differ too; one
    /// `cnot`, a 32-bit destination, the 32-bit version (`cnot.b32` twice
    /// into `cvt.rmi.u8.f32`), `setp` + `selp` or `and.b64 x, 1` in place
    /// of the two `cnot`s agree at every level. Not N13: N13's consumer
    /// reads the `cnot.b32` register before it is written.
    CnotPairNarrowCvtFromF64,
    /// N26: a predicate copied by `and.pred d, a, a` (or `or.pred`), then,
    /// in the same block, `a` rewritten (unguarded), then `@d bra L`
    /// forward: the compiler takes `d` for `a` and branches on the new `a`
    /// or on a predicate register it never wrote. PTX ISA, "Logic and Shift
    /// Instructions: and": `d = a & b`, read when the instruction runs; a
    /// later write of `a` does not change `d`. Found through the driver's
    /// JIT linker (`cuLinkAddData`: a relocatable compile, as `ptxas -c`),
    /// where the copy is lost after an instruction compiled to a call of
    /// the compiler's own subroutine (IEEE `sqrt`, `div`, integer
    /// `div`/`rem`) before it: the SASS (`ptxas -O3 -c`) keeps the source
    /// in `P1`, saves it across `CALL.ABS.NOINC`, and branches on `P0`,
    /// which the caller never writes and the `sqrt` slow path leaves false
    /// (`mov.s32-85bb24ab`: `%s0` = 0 on every lane where 1 is right, wrong
    /// from -O1 through the linker, right at every level of the whole-program
    /// compile; H200, 2026-11-28, session 10,
    /// `docs/log/gpu-2026-11-28-j/`). The variants (`variants/n26v`): no
    /// call before the copy (none, or the `sqrt` after it), `mov.pred` for
    /// the copy, `and` of two predicates, no rewrite, or `selp` in place of
    /// the branch agree; `sqrt.rn`, `div.rn`, `rem.s16`, a used `sqrt`, `or.pred`
    /// and a rewrite from an input or a never-written register differ, the
    /// last three in the whole-program compile too (where the `sqrt`'s slow
    /// path is inlined), and each of those three agrees without the `sqrt`
    /// in both compiles. With `sqrt.approx` (no call) the result changed
    /// with what ran on the GPU before (wrong in a fresh context, right
    /// after a kernel that filled the registers: the branch read a
    /// predicate register no instruction wrote), so it is no variant of
    /// either answer. Widened by session 11's H200 call
    /// (`docs/log/gpu-2026-11-28-k/`): a guarded forward branch that the
    /// lanes fall past before the copy stands for the call (`n4-lead-branch`,
    /// no `sqrt`: wrong at -O2 and -O3 through the linker, its SASS branching
    /// on `P2`, which nothing writes; `x2-bra`, `x3-sqrt-bra`: the branch on
    /// the copy dropped), and after a call `@d exit` stands for the branch
    /// (`n1-exit`: the exit path's store guarded by the never-written `P0`),
    /// unless `a` is rewritten by a `mov` of an immediate (N26X's shape,
    /// [`Idiom::PredicateCopyLostAtExit`]).
    PredicateCopyLostAfterMathCall,
    /// MJ (N27 of `docs/findings.md`, issue #35; the triage of
    /// 2026-11-28-j, decided by session 11's H200 call,
    /// `docs/log/gpu-2026-11-28-k/`): a `match.sync` at a label that member
    /// lanes reach by different paths (a forward branch to it, and the
    /// fall-through into it): `match.all` of a per-lane value with a
    /// sub-warp membermask (immediate or register), or `match.any` whose
    /// membermask register a `match` of a per-lane value wrote there.
    /// `corpus/match.all.sync.b64-66cbd4dc.ptx` (H100 -O3 hunt of
    /// 2026-11-28-i: lane 21 branches to `L12`, lane 11 falls into it;
    /// `match.all.sync.b64 _|%p0, %sd0, 0x200800` of 0 and 21 gives `%p0` =
    /// 1 on both, where the ISA's `.all` gives false for different values;
    /// the SASS sets `P0` by `PLOP3.LUT P0, PT, PT, PT, PT, 0x80, 0x0` and
    /// has no `MATCH`) and `corpus/match.any.sync.b64-925e3038.ptx` (H200
    /// -O3 hunt of 2026-11-28-j: lanes 12 and 17 at `L7` by two paths; the
    /// second `match.any.sync.b64 %s0, 0, %m1`, each lane's mask its own
    /// bit, gives 0x21000 on both, where no lane outside a lane's
    /// membermask can be in its result; the SASS runs `WARPSYNC R7;
    /// MATCH.ANY.U64 R5, RZ` over the converged lanes). Wrong from -O1
    /// through the driver's JIT linker and whole-program (H200, H100). On
    /// the H200: `vote.sync`, `shfl.sync`, `redux.sync`, `match.any` with
    /// an immediate membermask at the same join, and one path, right.
    MatchAtJoinOfTwoPaths,
    /// N26X (N28 of `docs/findings.md`, issue #35; the triage of
    /// 2026-11-28-j, decided by session 11's H200 call): after a forward
    /// branch the lanes fall past, `or.pred d, a, a` (or `and.pred`), `a`
    /// rewritten by `mov.pred a, imm`, then `@d exit`: the exiting lanes
    /// lose the store of an input register nothing writes.
    /// `corpus/input-57155f24.ptx` (H200 default-level hunt of
    /// 2026-11-28-j): `@!%p1 bra L0; or.pred %p3, %p0, %p0; mov.pred %p0, 0;
    /// @%p3 exit; L0:` with `%p0` = `%p1` = 1 gives `%b0` (1) as 0 on every
    /// lane, from -O1 through the linker and whole-program. Not N26's rule
    /// (the name keeps the draft's): the SASS computes the exit's guard
    /// from `%p0`'s input and has no store of `%b0` before the `EXIT`.
    /// Without the leading branch, with `setp` for the rewrite, or no copy
    /// right on the H200; a branch for the `exit` is N26's shape.
    PredicateCopyLostAtExit,
    /// OR64 (N29 of `docs/findings.md`, issue #35; the triage of
    /// 2026-11-28-j, decided by session 11's H200 call): after `@p exit`
    /// that no lane takes and an instruction, a loop whose body runs `@!p
    /// or.b64 d, 0xffffffff, d` (or `or.b64` of 0xffffffff00000000, or
    /// `and.b64` of 0xffffffff): the word the immediate leaves unchanged is
    /// lost. `corpus/or.b64-306b84b5.ptx` (H200 default-level hunt of
    /// 2026-11-28-j): `%bd3` = 0xc8a1da4178976f04 gives 0xffffffff, not
    /// 0xc8a1da41ffffffff (the immediate a 64-bit integer), from -O2
    /// through the linker and at -O3 whole-program, right at -O1 (H200;
    /// the H100 at -O3 through the linker). The SASS writes the low word
    /// alone in the loop and reuses the pair's high register for a
    /// temporary of the exit path's stores.
    Or64LowWordOnesDropsHighWord,
    /// UB64 (N30 of `docs/findings.md`, issue #35; the two findings of
    /// session 11's -O3 hunt that needed their batch, decided by session
    /// 12's H200 calls): a 64-bit `bfind` of a register the program never
    /// wrote, in a program with a collective or `activemask`. `ptxas` takes
    /// the never-written register as the same on every lane: the per-lane
    /// branch of the `bfind`'s expansion gets no `BSSY`/`BSYNC` and
    /// uniform registers and unsynchronised collectives are used across it,
    /// and where the kernels before it left values that differ between
    /// lanes the warp splits there: `corpus/activemask-9ac0fd8e.ptx` reads
    /// `activemask` back as 0, `corpus/match.all.sync.b32-1087411f.ptx`
    /// gets a full-mask `match.all.sync` mask without lanes 12 and 13, at
    /// -O3 through the driver's JIT linker after their 8 mates, right at
    /// -O0 and alone; right when the source has any value
    /// (`idioms/bfind64_undefined.rs`).
    Bfind64OfNeverWrittenTakenAsUniform,
    /// NZ (N33 of `docs/findings.md`, issue #35; session 12's -O1 hunt,
    /// decided by session 13's H200 variants): `neg.f32 d, a` (or
    /// `abs.f32`), then `@p mov.f32 d, IMM` and `@p mov.b32 d, %laneid`
    /// (or of a register) that do not run: the compiler computes the `neg` as an integer
    /// negation of the bits (`IADD3 R11, -R7, RZ, RZ`), so
    /// `corpus/neg.f32-8ef1e843.ptx` gives +0.0 for -(+0.0) and the variants
    /// -4.0 for -(1.0), from -O1 through the driver's JIT linker and
    /// whole-program, right at -O0 (`idioms/neg_as_integer.rs`).
    NegF32ComputedAsInteger,
    /// LC (N34 of `docs/findings.md`, issue #35; session 10's candidate,
    /// found again by sessions 12 and 13): a predicate from a `vote` (or a
    /// `match.all` or a `setp`), a `div`/`rem`/`sqrt` the compiler
    /// implements with a subroutine, and a `vote.sync.ballot` of that
    /// predicate whose result is unused (discarded or overwritten unread),
    /// the subroutine before or after it in its block: the driver's JIT
    /// linker (`cuLinkAddData`)
    /// dies of SIGSEGV from -O1. `corpus/engine-failed-8e0b1b75.ptx`:
    /// `vote.uni.pred %p2, %p2; div.rz.f32 _, 0, 0; vote.sync.ballot.b32 _,
    /// %p2, 0xffffffff` (`idioms/ballot_crash.rs`).
    UnusedBallotAfterMathCallCrashesLinker,
    /// LR (N31 of `docs/findings.md`, issue #35; session 11's
    /// `input-cc33e847` and session 12's `fma.rn.f64-6d56780c`, triages of
    /// 2026-11-28-k and 2026-11-28-l, decided by their H200 rows): an
    /// instruction guarded by `p`, then a loop whose body writes `p`, with
    /// an unused full-mask `vote.sync.ballot` of `p` before the loop and a
    /// guarded collective before the guarded instruction (the guarded
    /// ballot itself in `corpus/fma.rn.f64-6d56780c.ptx`, a never-run
    /// mask-0 `@%p0 shfl.sync` in `corpus/input-cc33e847.ptx`; narrowed so
    /// by session 13's H200 variants). The GPU runs the
    /// guarded instruction under the value the later loop gives `p`, from
    /// -O1 through the driver's JIT linker (right at -O0); without the
    /// ballot, with the ballot of another predicate, or with the loop
    /// writing another predicate, right (`idioms/loop_rewritten_guard.rs`).
    BallotGuardReadAfterLoopRewrite,
    /// SP (N32 of `docs/findings.md`; session 8's candidate, decided by
    /// session 12's H200 triage, `docs/log/gpu-2026-11-28-l/triage.md`;
    /// narrowed by session 13's variants to a `redux.sync` into a register
    /// that may have no value): a `redux.sync` guarded, in straight-line
    /// code, by the predicate of a
    /// `shfl.idx` whose immediate `b` and `c` put the source lane out of
    /// range on every lane (the ISA's `pval = (j <= maxLane)` false: `c` = 0
    /// makes each lane's segment lane 0 alone, so source lane 1 is out of
    /// range), or by a `vote` of that predicate, where the guard lets every
    /// lane run it. The GPU does not run the collective at -O1 (right at
    /// -O0 and -O3): `corpus/redux.sync.min.u32-938185ad.ptx` (`@!%p2
    /// redux.sync.min.u32 %r0, 1` gives 3, a never-written `%r0`, for 1) and
    /// `corpus/redux.sync.add.s32-ba615066.ptx` (`@%p7 redux.sync.add.s32`
    /// under `vote.sync.uni.pred %p7, %p3`); with the source lane in range,
    /// or the same guard from a `setp`, right
    /// (`idioms/shfl_range_guard.rs`).
    CollectiveUnderOutOfRangeShufflePredicate,
    /// DV (N35 of `docs/findings.md`, issue #35; session 13's default-level
    /// hunt, decided by its H200 variants): a never-run guarded
    /// `activemask` writes `a`, `neg.f32 d, a` (or `abs.f32`), and `d` is
    /// the divisor of a `div.rp.f32`: through the driver's JIT linker from
    /// -O2 `d` reads back as the division's subroutine left its argument
    /// register (0 for 0x80000001), which the caller keeps `d` in
    /// (`idioms/divisor_clobbered.rs`).
    DivisorClobberedByDivCall,
}

/// What a known bug was seen to do to a GPU run of a program with its
/// idiom (the cases named in each [`Idiom`]'s documentation).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Effect {
    /// The kernel finishes, with a value the reference defines wrong in
    /// some lane.
    WrongValue,
    /// The kernel never finishes: lanes wait in a `.sync` collective for
    /// members that never come (the batch's deadline ends it).
    Hang,
    /// The kernel raises a sticky error (`CUDA_ERROR_ILLEGAL_INSTRUCTION`)
    /// that leaves its context unusable.
    Fault,
    /// The PTX compiler dies (ptxas inside the driver's JIT: SIGSEGV)
    /// on the module: no kernel runs. `warpdiff fuzz` reports it as an
    /// `engine-failed` divergence (the compile helper process died, so the
    /// driver "refused" the batch and then the case alone); the GPU and its
    /// context are unaffected.
    CompilerCrash,
}

impl Idiom {
    /// Every idiom.
    pub const ALL: [Idiom; 40] = [
        Idiom::GuardRedefinedByCollective,
        Idiom::GuardFoldedAfterExit,
        Idiom::UnusedCollectiveSplitsWarp,
        Idiom::LoopWriteHoistedAboveExit,
        Idiom::ShuffleOfShuffledImmediate,
        Idiom::ShiftAmountConvertedFromF32,
        Idiom::LoopGuardRewrittenHangs,
        Idiom::ZeroMembermaskCollectiveFaults,
        Idiom::Shl64ImmediateAmountWraps,
        Idiom::F32AddImmediatesTieMisrounded,
        Idiom::PredicateRedefinedPastBranch,
        Idiom::BfeS32ImmediatePositionPastMsb,
        Idiom::Bfi32ImmediateLengthWraps,
        Idiom::MovRecomputedAfterActivemaskRewrite,
        Idiom::NarrowCvtKeepsStaleUpperHalf,
        // The crash before N13, whose idiom its cases hold too: the first
        // idiom a finding holds is the one its triage names.
        Idiom::CnotShift16CrashesPtxas,
        Idiom::CnotAmountOf16BitShift,
        Idiom::AbsCompareFoldedIgnoringNan,
        Idiom::LoopReadBeforeWrite,
        Idiom::RepeatAfterOneSidedWrite,
        Idiom::LoopCopyOfNeverWrittenReplacesMerge,
        Idiom::PopcOverwritesXorCopy,
        Idiom::AbsResultTakenAsNonNegative,
        Idiom::UnpackHighHalfOfKnownValue,
        Idiom::XorAllOnesOfKnownValue,
        Idiom::RoundedFtzCvtShift16LosesFlush,
        Idiom::VoteLoopTwoBackEdgesCrashesJitO0,
        Idiom::AbsOfChoiceKeepsNegativeZero,
        Idiom::MatchAllExitJoinCrashes,
        Idiom::CnotPairNarrowCvtFromF64,
        Idiom::PredicateCopyLostAfterMathCall,
        Idiom::MatchAtJoinOfTwoPaths,
        Idiom::PredicateCopyLostAtExit,
        Idiom::Or64LowWordOnesDropsHighWord,
        Idiom::Bfind64OfNeverWrittenTakenAsUniform,
        Idiom::NegF32ComputedAsInteger,
        Idiom::UnusedBallotAfterMathCallCrashesLinker,
        Idiom::BallotGuardReadAfterLoopRewrite,
        Idiom::CollectiveUnderOutOfRangeShufflePredicate,
        Idiom::DivisorClobberedByDivCall,
    ];

    /// Its name (`--avoid NAME`, corpus headers).
    pub fn name(self) -> &'static str {
        match self {
            Idiom::GuardRedefinedByCollective => "guard-redefined-by-collective",
            Idiom::GuardFoldedAfterExit => "guard-folded-after-exit",
            Idiom::UnusedCollectiveSplitsWarp => "unused-collective-splits-warp",
            Idiom::LoopWriteHoistedAboveExit => "loop-write-hoisted-above-exit",
            Idiom::ShuffleOfShuffledImmediate => "shuffle-of-shuffled-immediate",
            Idiom::ShiftAmountConvertedFromF32 => "shift-amount-converted-from-f32",
            Idiom::LoopGuardRewrittenHangs => "loop-guard-rewritten-hangs",
            Idiom::ZeroMembermaskCollectiveFaults => "zero-membermask-collective-faults",
            Idiom::Shl64ImmediateAmountWraps => "shl64-immediate-amount-wraps",
            Idiom::F32AddImmediatesTieMisrounded => "f32-add-immediates-tie-misrounded",
            Idiom::PredicateRedefinedPastBranch => "predicate-redefined-past-branch",
            Idiom::BfeS32ImmediatePositionPastMsb => "bfe-s32-immediate-position-past-msb",
            Idiom::Bfi32ImmediateLengthWraps => "bfi32-immediate-length-wraps",
            Idiom::MovRecomputedAfterActivemaskRewrite => "mov-recomputed-after-activemask-rewrite",
            Idiom::NarrowCvtKeepsStaleUpperHalf => "narrow-cvt-keeps-stale-upper-half",
            Idiom::CnotAmountOf16BitShift => "cnot-amount-of-16-bit-shift",
            Idiom::CnotShift16CrashesPtxas => "cnot-shift16-crashes-ptxas",
            Idiom::AbsCompareFoldedIgnoringNan => "abs-compare-folded-ignoring-nan",
            Idiom::LoopReadBeforeWrite => "loop-read-before-write",
            Idiom::RepeatAfterOneSidedWrite => "repeat-after-one-sided-write",
            Idiom::LoopCopyOfNeverWrittenReplacesMerge => "merge-replaced-by-never-written",
            Idiom::PopcOverwritesXorCopy => "popc-overwrites-xor-copy",
            Idiom::AbsResultTakenAsNonNegative => "abs-result-taken-as-non-negative",
            Idiom::UnpackHighHalfOfKnownValue => "unpack-high-half-of-known-value",
            Idiom::XorAllOnesOfKnownValue => "xor-all-ones-of-known-value",
            Idiom::RoundedFtzCvtShift16LosesFlush => "rounded-ftz-cvt-shift16-loses-flush",
            Idiom::VoteLoopTwoBackEdgesCrashesJitO0 => "vote-loop-two-back-edges-crashes-jit-o0",
            Idiom::AbsOfChoiceKeepsNegativeZero => "abs-of-choice-keeps-negative-zero",
            Idiom::MatchAllExitJoinCrashes => "match-all-exit-join-crashes",
            Idiom::CnotPairNarrowCvtFromF64 => "cnot-pair-narrow-cvt-from-f64",
            Idiom::PredicateCopyLostAfterMathCall => "predicate-copy-lost-after-math-call",
            Idiom::MatchAtJoinOfTwoPaths => "match-at-join-of-two-paths",
            Idiom::PredicateCopyLostAtExit => "predicate-copy-lost-at-exit",
            Idiom::Or64LowWordOnesDropsHighWord => "or64-low-word-ones-drops-high-word",
            Idiom::Bfind64OfNeverWrittenTakenAsUniform => {
                "bfind64-of-never-written-taken-as-uniform"
            }
            Idiom::NegF32ComputedAsInteger => "neg-f32-computed-as-integer",
            Idiom::UnusedBallotAfterMathCallCrashesLinker => {
                "unused-ballot-after-math-call-crashes-linker"
            }
            Idiom::BallotGuardReadAfterLoopRewrite => "ballot-guard-read-after-loop-rewrite",
            Idiom::CollectiveUnderOutOfRangeShufflePredicate => {
                "collective-under-out-of-range-shuffle-predicate"
            }
            Idiom::DivisorClobberedByDivCall => "divisor-clobbered-by-div-call",
        }
    }

    /// The idiom called `name` (also the older name
    /// `unused-match-splits-warp`, which corpus headers written before the
    /// idiom covered `vote` and `redux` use).
    pub fn from_name(name: &str) -> Option<Idiom> {
        if name == "unused-match-splits-warp" {
            return Some(Idiom::UnusedCollectiveSplitsWarp);
        }
        Idiom::ALL.into_iter().find(|i| i.name() == name)
    }

    /// Where `prog` has the idiom: the index of the instruction whose
    /// removal takes it away (the later collective, the write in the loop,
    /// the unused collective, the exit in the loop, the second shuffle,
    /// the `mov.f32` that writes the shift amount, the guarded collective
    /// in the loop, the mask-0 collective, the shift, the add, the write
    /// of the predicate past the branch, the `bfe`, the `bfi`, the
    /// rewriting `activemask`, the `cvt`, the 16-bit shift or `cvt.sat`,
    /// the 16-bit shift, the `setp`, the read before the rewrite, the
    /// repeat after the join, the copy of the register that may lack a
    /// value, the copy into the counted register, the `cvt` or `setp` that
    /// reads the `abs`, the unpack, the `xor`, the 16-bit shift; for MJ
    /// the `match`, for N26X the predicate copy, for OR64 the `or.b64`, for
    /// UB64 the `bfind`, for NZ the `neg`, for LC and LR the ballot, for SP
    /// the guarded `redux`, for DV the `div`), or `None`.
    ///
    /// Some idioms (N3, N4, N15, N16, and N1, K5, N12, N30 and SP in part)
    /// need a register that may have no value on some path
    /// (`idioms/unwritten.rs`), and a program
    /// alone does not say which registers the inputs give one (a case's
    /// `.lanes` lines): `find` takes it that none has an entry value (a
    /// register is never written until an instruction writes it).
    /// [`Idiom::find_in_case`] counts a case's `.lanes` registers as
    /// written. The two can differ either way: an entry value takes away a
    /// register without a value (the H200's experiments that gave one,
    /// which agreed), and it can give a value to what the shape needs to
    /// have one (the sources of N3's rewrite, of N15's write before the
    /// loop); `--avoid` removes what either finds.
    pub fn find(self, prog: &Program) -> Option<usize> {
        self.find_given(prog, &|_| false)
    }

    /// [`Idiom::find`] for a case: the registers `inputs` gives values to
    /// (its `.lanes` lines) have them at the program's entry, so a shape
    /// that needs one of them without a value is not there. The same as
    /// `find` for every idiom but those that need a register without a
    /// value.
    pub fn find_in_case(self, prog: &Program, inputs: &Inputs) -> Option<usize> {
        self.find_given(prog, &|r| inputs.get(r).is_some())
    }

    /// Where `prog` has the idiom when the registers `has_entry` is true
    /// for start with a value.
    fn find_given(self, prog: &Program, has_entry: &dyn Fn(Reg) -> bool) -> Option<usize> {
        match self {
            Idiom::GuardRedefinedByCollective => guard_redefined(prog),
            Idiom::GuardFoldedAfterExit => folded_after_exit(prog),
            Idiom::UnusedCollectiveSplitsWarp => unused_collective(prog, has_entry),
            Idiom::LoopWriteHoistedAboveExit => write_hoisted_above_exit(prog, has_entry),
            Idiom::ShuffleOfShuffledImmediate => shuffle_of_shuffled_immediate(prog),
            Idiom::ShiftAmountConvertedFromF32 => shift_amount_from_f32(prog),
            Idiom::LoopGuardRewrittenHangs => loop_guard_rewritten(prog),
            Idiom::ZeroMembermaskCollectiveFaults => zero_membermask_after_register_mask(prog),
            Idiom::Shl64ImmediateAmountWraps => shl64_immediate_amount_over_63(prog),
            Idiom::F32AddImmediatesTieMisrounded => f32_add_immediates_tie(prog),
            Idiom::PredicateRedefinedPastBranch => predicate_redefined_past_branch(prog)
                .or_else(|| predicate_redefined_on_one_path(prog)),
            Idiom::BfeS32ImmediatePositionPastMsb => bfe_s32_position_past_msb(prog),
            Idiom::Bfi32ImmediateLengthWraps => bfi32_length_32_or_more(prog),
            Idiom::MovRecomputedAfterActivemaskRewrite => mov_recomputed_after_activemask(prog),
            Idiom::NarrowCvtKeepsStaleUpperHalf => narrow_cvt_after_exit_and_shuffle(prog)
                .or_else(|| narrow_cvt_at_branch_target(prog))
                .or_else(|| narrow_cvt_under_known_guard(prog, has_entry)),
            Idiom::CnotAmountOf16BitShift => cnot_amount_of_16_bit_shift(prog),
            Idiom::CnotShift16CrashesPtxas => cnot_shift16_after_two_collectives(prog),
            Idiom::AbsCompareFoldedIgnoringNan => abs_compare_always_true(prog),
            Idiom::LoopReadBeforeWrite => loop_read_before_write(prog, has_entry),
            Idiom::RepeatAfterOneSidedWrite => repeat_after_one_sided_write(prog, has_entry),
            Idiom::LoopCopyOfNeverWrittenReplacesMerge => loop_copy_replaces_merge(prog, has_entry),
            Idiom::PopcOverwritesXorCopy => popc_overwrites_xor_copy(prog, has_entry),
            Idiom::AbsResultTakenAsNonNegative => abs_read_as_non_negative(prog),
            Idiom::UnpackHighHalfOfKnownValue => unpack_high_half_of_fixed(prog),
            Idiom::XorAllOnesOfKnownValue => {
                xor_all_ones_of_fixed(prog).or_else(|| xor_all_ones_before_exit_branch(prog))
            }
            Idiom::RoundedFtzCvtShift16LosesFlush => rpi_ftz_cvt_amount_of_16_bit_shift(prog),
            Idiom::VoteLoopTwoBackEdgesCrashesJitO0 => {
                vote_loop_two_back_edges_entered_from_loop(prog)
            }
            Idiom::AbsOfChoiceKeepsNegativeZero => abs_of_choice_with_negative_zero(prog),
            Idiom::MatchAllExitJoinCrashes => match_all_exit_join(prog),
            Idiom::CnotPairNarrowCvtFromF64 => cnot_pair_narrow_cvt_from_f64(prog),
            Idiom::PredicateCopyLostAfterMathCall => predicate_copy_lost_after_math_call(prog),
            Idiom::MatchAtJoinOfTwoPaths => match_at_join_of_two_paths(prog),
            Idiom::PredicateCopyLostAtExit => predicate_copy_guards_exit(prog),
            Idiom::Or64LowWordOnesDropsHighWord => or64_low_word_ones_in_loop_after_exit(prog),
            Idiom::Bfind64OfNeverWrittenTakenAsUniform => bfind64_of_never_written(prog, has_entry),
            Idiom::NegF32ComputedAsInteger => neg_f32_before_guarded_imm_and_laneid(prog),
            Idiom::UnusedBallotAfterMathCallCrashesLinker => {
                unused_ballot_of_vote_after_math_call(prog, &dead_after)
            }
            Idiom::BallotGuardReadAfterLoopRewrite => {
                ballot_guard_read_after_loop_rewrite(prog, &dead_after)
            }
            Idiom::CollectiveUnderOutOfRangeShufflePredicate => {
                collective_under_out_of_range_shuffle_predicate(prog, has_entry)
            }
            Idiom::DivisorClobberedByDivCall => div_rp_of_neg_of_guarded_activemask(prog),
        }
    }

    /// What programs with this idiom were seen to do on the GPU, the most
    /// common first:
    /// - `guard-folded-after-exit` also hangs and faults where the folded
    ///   guard guards a collective: with the fold applied by hand (the
    ///   guard of the loop's collective dropped) the reference reports
    ///   `sync-deadlock` for `corpus/hang-f7163bc7.ptx` (which hangs at
    ///   -O4), and for `corpus/hang-fault-h200.ptx` (which faults at -O4)
    ///   lane 2 executing the final `shfl.sync` with membermask 0 that no
    ///   lane reaches otherwise (`not-in-membermask`). Both hold this
    ///   idiom.
    /// - `guard-redefined-by-collective` gives wrong values only:
    ///   `hang-fault-h200` holds its idiom too, but with its mistake
    ///   applied by hand (the guarded `setp` moved after the collective
    ///   that redefines its guard) the reference runs it cleanly, every
    ///   lane exiting before the mask-0 `shfl.sync`: that fault is the
    ///   fold's.
    ///   On 2026-11-27 the H200 hung at -O1 to -O4 on a K1 finding
    ///   (`hang-fa0585c3`, docs/log/gpu-2026-11-27/triage.md) whose hang the
    ///   reference reproduces with K1's mistake applied by hand, and still
    ///   hung with the guarded `mov` replaced by a `selp` reading the same
    ///   predicate. That does not decide it: by
    ///   [`Idiom::PredicateRedefinedPastBranch`]'s experiments a `selp`'s
    ///   selector is read late like a guard, so the `selp` kept the late
    ///   read. Until an experiment that removes the redefinition decides
    ///   it, K1 stays at wrong values.
    /// - `zero-membermask-collective-faults` faults (H100 2026-11-24, H200
    ///   2026-11-27) and also gives wrong values: on the H200 the reduced
    ///   `shr.b32-d59e4241` of the same shape finishes with the odd lanes
    ///   skipping a block, at -O1 to -O4, and agrees at every level without
    ///   the mask-0 collective or with the register mask made the full mask
    ///   (triage group G10).
    /// - `unused-collective-splits-warp` (K5) also hangs: since the triage
    ///   of 2026-11-28-l (`docs/log/gpu-2026-11-28-l/triage.md`, group K5H)
    ///   two of the hunt's hangs, each K5's unused collective in groups
    ///   before full-mask collectives that the lanes then reach apart,
    ///   hung alone on the H200 through the driver's JIT linker
    ///   (`k5h.found` at -O1 and -O3, `k5h2.found` at -O1), ran at -O0, and
    ///   ran at every level with the unused collective's mask full
    ///   (`.full-mask`) or, for `k5h`, without lane 0's branch
    ///   (`.no-branch`): K5's split with lanes that wait at different
    ///   collectives. A fault is not in its effects: `hang-087222ff` was
    ///   found as an illegal-instruction fault in its batch, but reduced and
    ///   alone it hangs.
    /// - `loop-guard-rewritten-hangs` hangs, and the other idioms give wrong
    ///   values.
    pub fn effects(self) -> &'static [Effect] {
        match self {
            Idiom::GuardFoldedAfterExit => &[Effect::WrongValue, Effect::Hang, Effect::Fault],
            Idiom::LoopGuardRewrittenHangs => &[Effect::Hang],
            Idiom::ZeroMembermaskCollectiveFaults => &[Effect::Fault, Effect::WrongValue],
            Idiom::UnusedCollectiveSplitsWarp => &[Effect::WrongValue, Effect::Hang],
            Idiom::GuardRedefinedByCollective
            | Idiom::LoopWriteHoistedAboveExit
            | Idiom::ShuffleOfShuffledImmediate
            | Idiom::ShiftAmountConvertedFromF32
            | Idiom::Shl64ImmediateAmountWraps
            | Idiom::F32AddImmediatesTieMisrounded
            | Idiom::PredicateRedefinedPastBranch
            | Idiom::BfeS32ImmediatePositionPastMsb
            | Idiom::Bfi32ImmediateLengthWraps
            | Idiom::MovRecomputedAfterActivemaskRewrite
            | Idiom::NarrowCvtKeepsStaleUpperHalf
            | Idiom::CnotAmountOf16BitShift
            | Idiom::AbsCompareFoldedIgnoringNan
            | Idiom::LoopReadBeforeWrite
            | Idiom::RepeatAfterOneSidedWrite
            | Idiom::LoopCopyOfNeverWrittenReplacesMerge
            | Idiom::PopcOverwritesXorCopy
            | Idiom::AbsResultTakenAsNonNegative
            | Idiom::UnpackHighHalfOfKnownValue
            | Idiom::XorAllOnesOfKnownValue
            | Idiom::RoundedFtzCvtShift16LosesFlush
            | Idiom::AbsOfChoiceKeepsNegativeZero
            | Idiom::CnotPairNarrowCvtFromF64
            | Idiom::PredicateCopyLostAfterMathCall
            | Idiom::MatchAtJoinOfTwoPaths
            | Idiom::PredicateCopyLostAtExit
            | Idiom::Or64LowWordOnesDropsHighWord
            | Idiom::Bfind64OfNeverWrittenTakenAsUniform
            | Idiom::NegF32ComputedAsInteger
            | Idiom::BallotGuardReadAfterLoopRewrite
            | Idiom::CollectiveUnderOutOfRangeShufflePredicate
            | Idiom::DivisorClobberedByDivCall => &[Effect::WrongValue],
            Idiom::CnotShift16CrashesPtxas
            | Idiom::VoteLoopTwoBackEdgesCrashesJitO0
            | Idiom::MatchAllExitJoinCrashes
            | Idiom::UnusedBallotAfterMathCallCrashesLinker => &[Effect::CompilerCrash],
        }
    }

    /// Whether programs with this idiom were seen to hang or fault: a
    /// batch holding one may lose its process or context on the GPU.
    pub fn may_stop_the_gpu(self) -> bool {
        self.effects()
            .iter()
            .any(|e| matches!(e, Effect::Hang | Effect::Fault))
    }
}

/// The idioms `prog` has.
pub fn idioms(prog: &Program) -> Vec<Idiom> {
    Idiom::ALL
        .into_iter()
        .filter(|i| i.find(prog).is_some())
        .collect()
}

/// The idioms the case of `prog` and `inputs` has
/// ([`Idiom::find_in_case`]).
pub fn idioms_in_case(prog: &Program, inputs: &Inputs) -> Vec<Idiom> {
    Idiom::ALL
        .into_iter()
        .filter(|i| i.find_in_case(prog, inputs).is_some())
        .collect()
}

/// The idioms `prog` has that were seen to have `effect` ([`Idiom::effects`]):
/// the known bugs a GPU finding of that kind on `prog` may be, in
/// [`Idiom::ALL`]'s order; empty when it is none of them.
pub fn known_for(prog: &Program, effect: Effect) -> Vec<Idiom> {
    idioms(prog)
        .into_iter()
        .filter(|i| i.effects().contains(&effect))
        .collect()
}

fn is_collective(op: &Op) -> bool {
    match op {
        Op::Shfl(_) | Op::Vote(_) | Op::Match(_) | Op::Redux(_) => true,
        Op::Activemask(_) | Op::Glue(_) | Op::Control(_) | Op::LaneOp(_) => false,
    }
}

fn guard_redefined(prog: &Program) -> Option<usize> {
    for (i, inst) in prog.insts.iter().enumerate() {
        let Some(Guard { reg: p, .. }) = inst.guard else {
            continue;
        };
        if inst.op.is_control_flow() {
            continue;
        }
        let mut j = i + 1;
        while j < prog.insts.len() {
            let later = &prog.insts[j];
            if labelled(prog, j) && !joins_only_from(prog, i, j) {
                // Past a loop that does not write the guard (2026-11-28-j,
                // group K1: a one-trip loop of a `vote.sync.ballot`
                // between, `k1-loop.found`).
                match loop_keeping(prog, j, p) {
                    Some(b) => {
                        j = b + 1;
                        continue;
                    }
                    None => break,
                }
            }
            if unreachable(prog, j) {
                // No lane runs it (since the triage of 2026-11-28-m,
                // `docs/log/gpu-2026-11-28-m/triage.md`, group K1X: `bra
                // L1; exit; L1:` between, `a/found/not.b64-989d5d72`).
                j += 1;
                continue;
            }
            if later.op.is_control_flow() {
                // Past a forward branch only from an instruction that is no
                // collective (the shape the H200 confirmed, a guarded `cvt`).
                if forward_branch(prog, j) && !is_collective(&inst.op) {
                    j += 1;
                    continue;
                }
                break;
            }
            if later.guard.is_some() && is_collective(&later.op) && later.op.written().contains(&p)
            {
                return Some(j);
            }
            j += 1;
        }
    }
    None
}

/// Whether every branch to the labels at `j` comes from between `i` and
/// `j` (a label no branch targets, or the join of a forward branch after
/// `i`): every lane that reaches `j` went through `i` (2026-11-27-h: K1's
/// guarded collective past a label no branch targets, `found-O2/
/// max.u64-14f8c882`, and past the join of a forward branch,
/// `found-O1/input-58592b2e`).
/// Since the triage of 2026-11-28-j (group K1): a branch no lane can
/// reach (right after an unguarded `exit` or `bra`, no label at it) is no
/// way in (`exit; bra L5; L4: @!%p0 cvt ...; L5:`, `k1-exit.found`).
fn joins_only_from(prog: &Program, i: usize, j: usize) -> bool {
    prog.insts.iter().enumerate().all(|(k, x)| {
        x.op.branch_target()
            .is_none_or(|l| prog.labels[l.0 as usize].at != j || (i < k && k < j))
            || unreachable(prog, k)
    })
}

/// Whether no lane reaches instruction `k`: it follows an unguarded
/// `exit` or `bra`, with no label at it. Since the triage of 2026-11-28-k
/// (`docs/log/gpu-2026-11-28-k/triage.md`, group K1D) also an instruction
/// that follows an unreachable one with no label between (`exit; setp.gt.s32
/// _, 0, 0; bra L5`: session 10's `k1-exit.found` with a dead `setp`, wrong
/// on the H200 from -O1 as `c/found/cvt.rzi.f64.f64-91e96a1d`).
fn unreachable(prog: &Program, k: usize) -> bool {
    let mut k = k;
    while k > 0 && !labelled(prog, k) {
        let x = &prog.insts[k - 1];
        if x.guard.is_none()
            && (matches!(x.op, Op::Control(Control::Exit)) || x.op.branch_target().is_some())
        {
            return true;
        }
        k -= 1;
    }
    false
}

/// The back edge `b` of the loop whose head is instruction `h`, where the
/// only branches to `h` are back edges from inside it (at `b` the last),
/// no instruction of it writes `p`, and no branch leaves it: a loop the
/// scan for K1's collective may pass over.
fn loop_keeping(prog: &Program, h: usize, p: Reg) -> Option<usize> {
    let mut b = None;
    for (k, x) in prog.insts.iter().enumerate() {
        if let Some(l) = x.op.branch_target() {
            let t = prog.label_target(l);
            if t == h {
                if k < h {
                    return None;
                }
                b = b.max(Some(k));
            }
        }
    }
    let b = b?;
    let body = &prog.insts[h..=b];
    let leaves = (h..b).any(|k| {
        let x = &prog.insts[k];
        matches!(x.op, Op::Control(Control::Exit))
            || x.op
                .branch_target()
                .is_some_and(|l| !(h..=b).contains(&prog.label_target(l)))
    });
    let writes = body.iter().any(|x| x.op.written().contains(&p));
    (!leaves && !writes).then_some(b)
}

/// Whether instruction `k` is a branch forward (not an exit, not a loop's
/// back edge).
fn forward_branch(prog: &Program, k: usize) -> bool {
    prog.insts[k]
        .op
        .branch_target()
        .is_some_and(|l| prog.labels[l.0 as usize].at > k)
}

/// Whether `inst` reads `p` (as its guard or a source).
fn reads(inst: &crate::ir::Inst, p: Reg) -> bool {
    inst.guard.is_some_and(|g| g.reg == p)
        || inst
            .op
            .sources()
            .iter()
            .any(|(o, _, _)| matches!(o, Operand::Reg(r) | Operand::NotPred(r) if *r == p))
}

/// The guard of `inst` when it is a guarded exit: `@p exit`, or `@p bra L`
/// with an unguarded `exit` at `L` or `L` at the end of the program.
fn guarded_exit(prog: &Program, inst: &crate::ir::Inst) -> Option<Guard> {
    let g = inst.guard?;
    match &inst.op {
        Op::Control(Control::Exit) => Some(g),
        op => {
            let at = prog.labels[op.branch_target()?.0 as usize].at;
            let leaves = prog
                .insts
                .get(at)
                .is_none_or(|x| x.guard.is_none() && matches!(x.op, Op::Control(Control::Exit)));
            leaves.then_some(g)
        }
    }
}

/// The guard of `inst` when it is a guarded forward branch whose target
/// lies past instruction `b` (lanes that take it skip `b`).
fn guarded_branch_past(prog: &Program, inst: &crate::ir::Inst, b: usize) -> Option<Guard> {
    let g = inst.guard?;
    let at = prog.labels[inst.op.branch_target()?.0 as usize].at;
    (at > b).then_some(g)
}

/// The guard of the branch over instruction `i` when `i` is an unguarded
/// `exit` that the branch skips ([`branched_over`]): `@%p bra L; exit; L:`
/// leaves the lanes without `%p` (2026-11-27-h: `found-O1/
/// vote.ballot-ea6b6639`, K2's fold after it).
/// Since the triage of 2026-11-28-j (group K2W): instructions that are
/// no control flow may stand between the branch and the `exit` (`@%p2 bra
/// L1; mov.s32 _, 0; exit; L1:`, `k2-inner.found`).
/// Since the triage of 2026-11-28-l (`docs/log/gpu-2026-11-28-l/triage.md`,
/// group K2L): a label that no branch targets may stand on the `exit`
/// (`@!%p0 bra L1; L0: exit; L1:`, `d/found/vote.sync.any-d436cd9b`, K2's
/// fold on the H200 from -O1: lanes 16 and 18 end with `%p0` 1, `%p1` 0).
fn exit_branched_over(prog: &Program, i: usize) -> Option<Guard> {
    let x = &prog.insts[i];
    if x.guard.is_some() || !matches!(x.op, Op::Control(Control::Exit)) {
        return None;
    }
    // A label no branch targets joins no path (since the triage of
    // 2026-11-28-l, group K2L: `@!%p0 bra L1; L0: exit; L1:`).
    let joins = |k: usize| labelled(prog, k) && targeted(prog, k);
    let mut k = i;
    while k > 0 && !joins(k) && !prog.insts[k - 1].op.is_control_flow() {
        k -= 1;
    }
    if joins(k) || k == 0 {
        return None;
    }
    let b = &prog.insts[k - 1];
    let past =
        b.op.branch_target()
            .is_some_and(|l| prog.label_target(l) == i + 1);
    if past {
        b.guard
    } else {
        None
    }
}

/// Whether a branch of `prog` targets instruction `k`.
fn targeted(prog: &Program, k: usize) -> bool {
    prog.insts.iter().any(|x| {
        x.op.branch_target()
            .is_some_and(|l| prog.label_target(l) == k)
    })
}

/// The guard of `@p bra L` at `i` when `L` is entered only by it (the
/// instruction before `L` an unguarded `bra` or `exit`, no other branch to
/// `L`) and lies before the loop head `h`, with no write of `p` from `L`
/// to `h`: the loop runs with `p` known (2026-11-28-j, group K2W: `@!%p6
/// bra L1; bra L3; L1:` into a loop that rewrites `%p6`, `k2-enter.found`).
fn branch_into_loop(prog: &Program, i: usize, h: usize) -> Option<Guard> {
    let x = &prog.insts[i];
    let g = x.guard?;
    let t = prog.label_target(x.op.branch_target()?);
    if t <= i + 1 || t > h || !unreachable_but_by_label(prog, t) {
        return None;
    }
    let only = prog.insts.iter().enumerate().all(|(k, y)| {
        k == i
            || y.op
                .branch_target()
                .is_none_or(|l| prog.label_target(l) != t)
    });
    let kept = !prog.insts[t..h]
        .iter()
        .any(|y| y.op.written().contains(&g.reg));
    (only && kept).then_some(g)
}

/// Whether the instruction before `t` is an unguarded `exit` or `bra` (no
/// lane falls through into `t`).
fn unreachable_but_by_label(prog: &Program, t: usize) -> bool {
    t > 0 && {
        let x = &prog.insts[t - 1];
        x.guard.is_none()
            && (matches!(x.op, Op::Control(Control::Exit)) || x.op.branch_target().is_some())
    }
}

fn folded_after_exit(prog: &Program) -> Option<usize> {
    let loops = loops(prog);
    for (i, inst) in prog.insts.iter().enumerate() {
        for &(h, b) in loops.iter().filter(|&&(h, _)| h > i) {
            let Some(g) = guarded_exit(prog, inst)
                .or_else(|| guarded_branch_past(prog, inst, b))
                .or_else(|| exit_branched_over(prog, i))
                .or_else(|| branch_into_loop(prog, i, h))
            else {
                continue;
            };
            let body = &prog.insts[h..=b];
            // A copy of `p` into itself changes nothing, so folding `p`
            // there is right (2026-11-28-j: `k2-enter.p6-input`, the loop's
            // rewrite made `mov.pred %p6, %p6`, right at every level).
            let self_copy = |x: &crate::ir::Inst| matches!(x.op, Op::Glue(Glue::Mov { a: Operand::Reg(a), .. }) if a == g.reg);
            let write = body
                .iter()
                .position(|x| x.op.written().contains(&g.reg) && !self_copy(x));
            if let (Some(w), true) = (write, body.iter().any(|x| reads(x, g.reg))) {
                return Some(h + w);
            }
        }
    }
    None
}

fn unused_collective(prog: &Program, has_entry: &dyn Fn(Reg) -> bool) -> Option<usize> {
    let full = |m: &Operand| matches!(m, Operand::Imm(0xffff_ffff));
    // An immediate membermask other than 0: the later collective whose
    // groups the dropped one leaves behind (a mask of 0 no lane can run is
    // the fault shape's, not this).
    let immediate = |m: &Operand| matches!(m, Operand::Imm(v) if *v != 0);
    for (i, inst) in prog.insts.iter().enumerate() {
        if !matches!(inst.op, Op::Match(_) | Op::Vote(_) | Op::Redux(_)) {
            continue;
        }
        // With a register membermask (per-lane groups: the
        // `WARPSYNC.EXCLUSIVE` left behind), any later immediate mask runs
        // per group; with an immediate one that is not the full mask, a
        // later full mask does.
        let splits: &dyn Fn(&Operand) -> bool = match inst.op.membermask() {
            Some(Operand::Reg(_)) => &immediate,
            Some(m) if !full(&m) => &full,
            _ => continue,
        };
        let unread = inst
            .op
            .dests()
            .iter()
            .enumerate()
            .all(|(n, (d, _))| match d {
                crate::ir::Dest::Sink => true,
                crate::ir::Dest::Reg(d) => {
                    let known = folded_result(&inst.op, n)
                        || match_all_of_never_written(prog, i, n, has_entry)
                        || match_all_of_moved_immediate(prog, i, n);
                    (known && !guards_an_exit(prog, i, *d)) || dead_after(prog, i, *d)
                }
            });
        let later = (i + 1..prog.insts.len()).any(|k| {
            prog.insts[k]
                .op
                .membermask()
                .is_some_and(|m| splits(&mask_value(prog, k, m)))
        });
        if unread && later {
            return Some(i);
        }
    }
    None
}

/// Whether the compiler knows result `n` of the collective `op` (in
/// [`Op::dests`]'s order) without running it: the predicate of a
/// `match.all` of an immediate (every member has the same value, so it is
/// true) or the result of a `redux.sync.{min,max,and,or}` of an immediate
/// (the immediate itself). Such a result read later is no reason to keep
/// the collective (2026-11-27-h: `match.all.sync _|%p, 0, %m` with `%p`
/// read by the later `vote.sync.ballot`, `found-O1/
/// vote.sync.ballot-acb33d6f`, and `redux.sync.min.s32 %s, 0, %m` with `%s`
/// read after the later collective, `found-O1/redux.sync.add.s32-801a9c84`,
/// split the warp as K5 does). A `match`'s mask result is the membermask,
/// a register: not counted (N24's crashing `match` reads it).
fn folded_result(op: &Op, n: usize) -> bool {
    match op {
        Op::Match(m) => n == 1 && m.mode == MatchMode::All && matches!(m.a, Operand::Imm(_)),
        Op::Redux(r) => {
            let idempotent = match r.op {
                ReduxOp::Min(_) | ReduxOp::Max(_) | ReduxOp::And | ReduxOp::Or => true,
                ReduxOp::Add(_) | ReduxOp::Xor | ReduxOp::FMin { .. } | ReduxOp::FMax { .. } => {
                    false
                }
            };
            n == 0 && idempotent && matches!(r.a, Operand::Imm(_))
        }
        Op::Shfl(_)
        | Op::Vote(_)
        | Op::Activemask(_)
        | Op::Glue(_)
        | Op::Control(_)
        | Op::LaneOp(_) => false,
    }
}

/// Whether instruction `i` is a `match.all` of a register that nothing
/// writes before it (no entry value, no write above it or in a loop around
/// it) and `n` its predicate result: the compiler may take the never-written
/// value as one constant, so every member has the same and the predicate
/// is known, as for [`folded_result`]'s immediate (2026-11-28-j: eight
/// findings, `match.all.sync.b32 _|%p0, %s2, %m2` of the never-written
/// `%s2` with `%p0` stored, `a/found-replay/match.any.sync.b32-ac585f68`;
/// `k5u.found` wrong, `k5u.value-input` right, docs/log/gpu-2026-11-28-j/triage.md).
fn match_all_of_never_written(
    prog: &Program,
    i: usize,
    n: usize,
    has_entry: &dyn Fn(Reg) -> bool,
) -> bool {
    let Op::Match(m) = &prog.insts[i].op else {
        return false;
    };
    let Operand::Reg(r) = m.a else {
        return false;
    };
    let writes = |x: &crate::ir::Inst| x.op.written().contains(&r);
    n == 1
        && m.mode == MatchMode::All
        && !has_entry(r)
        && !prog.insts[..i].iter().any(writes)
        && !loops(prog)
            .iter()
            .any(|&(h, b)| h <= i && i <= b && prog.insts[h..=b].iter().any(writes))
}

/// Whether instruction `i` is a `match.all` of a register whose last
/// write, no label between, is an unguarded `mov` of an immediate
/// ([`mask_value`]) and `n` its predicate result: known, as of the
/// immediate itself ([`folded_result`]). Since the triage of 2026-11-28-l
/// (`docs/log/gpu-2026-11-28-l/triage.md`, group K5M): `mov.s32 %sd2, 0;
/// match.all.sync.b32 _|%p0, %sd2, %m1` with `%p0` only stored, then a
/// full-mask `shfl.sync.idx` (`k5m.found`, and `k5m.b64-found` with
/// `mov.b32 %b1, 0`, wrong on the H200 from -O1; `k5m.value-input`, the
/// `mov` removed and `%sd2` an input 0, right at every level).
fn match_all_of_moved_immediate(prog: &Program, i: usize, n: usize) -> bool {
    let Op::Match(m) = &prog.insts[i].op else {
        return false;
    };
    n == 1
        && m.mode == MatchMode::All
        && matches!(m.a, Operand::Reg(_))
        && matches!(mask_value(prog, i, m.a), Operand::Imm(_))
}

/// Whether an `exit` after instruction `i` is guarded by `d` before any
/// write of `d`: a folded `match.all` predicate that guards an exit so is
/// N24's crash ([`Idiom::MatchAllExitJoinCrashes`]), not K5.
fn guards_an_exit(prog: &Program, i: usize, d: Reg) -> bool {
    for y in &prog.insts[i + 1..] {
        if matches!(y.op, Op::Control(Control::Exit)) && y.guard.is_some_and(|g| g.reg == d) {
            return true;
        }
        if y.op.written().contains(&d) {
            return false;
        }
    }
    false
}

/// Whether reading a register in `x` uses its value: not when every
/// destination of `x` is a sink (`mov.pred _, %p`, `setp.ne.s32 _, %r, 0`,
/// `vote.ballot.b32 _, %p`): such an instruction computes nothing anyone
/// reads, and a compiler drops it (2026-11-27-h: 22 of session 8's
/// findings read K5's unused result only so).
fn uses_what_it_reads(x: &crate::ir::Inst) -> bool {
    x.op.is_control_flow() || x.op.dests().is_empty() || !x.op.written().is_empty()
}

/// Whether the value instruction `i` writes to `d` is never read: going
/// forward, an unguarded write of `d` comes before any read (a value that
/// nothing rewrites is stored at the end: used); in a loop around `i`
/// with no such write before its back edge, the path on from the loop's
/// head back to `i` counts too (the next trip may read it before the
/// write). A read by an instruction whose results are all sinks is no read
/// ([`uses_what_it_reads`]).
/// Widened by the triage of 2026-11-28-j (docs/log/gpu-2026-11-28-j/triage.md):
/// a read by an instruction whose own results are all dead so (two steps
/// deep: `mov.pred %p0, %p0` or `vote.sync.ballot.b32 %s0, %p0` whose
/// result is overwritten unread) is no read either (group K5T, twelve
/// findings; `k5t-copy.found` wrong, `k5t-copy.copy-kept` right); and a
/// guarded write counts as a write where its guard is known to hold
/// ([`guard_known_true`]; group K5G, two findings).
/// Since the triage of 2026-11-28-l (docs/log/gpu-2026-11-28-l/triage.md,
/// group K5U): a read by an instruction no lane reaches ([`unreachable`])
/// is no read (`d/found/shfl.sync.up-34bbfcce`: K5's per-lane vote read
/// only by `@!%p0 mov.b32 %m1, 0` after an unguarded `bra L1`; the later
/// full-mask `shfl.sync.up` gave lanes 1-31 0 on the H200 from -O1, K5's
/// value for groups of one lane).
/// Since the triage of 2026-11-28-m (`docs/log/gpu-2026-11-28-m/triage.md`,
/// group K5R): a read by a `setp` whose results do not depend on it
/// ([`known_guard::setp_ignores_its_predicate`]) is no read.
fn dead_after(prog: &Program, i: usize, d: Reg) -> bool {
    dead_after_within(prog, i, d, 2)
}

/// [`dead_after`], following reads by instructions whose results are
/// dead `depth` steps further.
fn dead_after_within(prog: &Program, i: usize, d: Reg, depth: u32) -> bool {
    // A copy of `d` into itself changes nothing: neither a read nor a
    // write (since the triage of 2026-11-28-k, group K5L). An instruction
    // no lane reaches reads nothing (since the triage of 2026-11-28-l,
    // group K5U: `bra L1; @!%p0 mov.b32 %m1, 0; L1:`).
    let read = |k: usize| {
        let x = &prog.insts[k];
        // Since the triage of 2026-11-28-m (group K5R): a `setp` whose
        // value does not depend on what it reads.
        let ignored = copy_into_itself(x, d) || known_guard::setp_ignores_its_predicate(x);
        reads(x, d)
            && !unreachable(prog, k)
            && !ignored
            && uses_what_it_reads(x)
            && !(depth > 0 && results_dead(prog, k, depth - 1))
    };
    let kill = |k: usize| {
        let x = &prog.insts[k];
        x.op.written().contains(&d)
            && !copy_into_itself(x, d)
            && (x.guard.is_none() || guard_known_true(prog, k))
    };
    for (h, b) in loops(prog) {
        if h > i || i > b || (i + 1..=b).any(kill) {
            continue;
        }
        for k in h..=i {
            if read(k) {
                return false;
            }
            if kill(k) {
                break;
            }
        }
    }
    for k in i + 1..prog.insts.len() {
        if read(k) {
            return false;
        }
        if kill(k) {
            return true;
        }
    }
    // Not rewritten: the case stores it at the end, which uses it (the
    // H200's `k5-subwarp.result-read` of 2026-11-27 and the H200's
    // `k5-movimm.vote-result-read` and `k5-sink.sink-read-value-in-register`
    // of 2026-11-27-h, each a result only stored, agreed at every level).
    false
}

/// Whether instruction `k` computes registers that are all dead after it
/// ([`dead_after_within`] with `depth`): no control flow, at least one
/// register result.
fn results_dead(prog: &Program, k: usize, depth: u32) -> bool {
    let x = &prog.insts[k];
    let written = x.op.written();
    !x.op.is_control_flow()
        && !written.is_empty()
        && written
            .iter()
            .all(|r| dead_after_within(prog, k, *r, depth))
}

/// Whether the guard of instruction `k` is known to hold there from the
/// program text: on the fall-through of `@p bra` (forward) or `@p exit`
/// with the guard `@!p` (or the other way round), no label and no write
/// of `p` between (2026-11-28-j: `@%p0 bra L2; ...; @!%p0 mov.b32 %s5, 0`,
/// `a/found-replay/match.any.sync.b32-638a027c`, `k5g-branch.found` wrong
/// from -O1 on the H100, `k5g-branch.other-guard` with an input's guard
/// right). (A guard from `setp.ne %p1, %rd1, %rd1` was tried too:
/// `k5g-setp.guard-unknown`, an unknown guard, went as wrong, so it
/// decided nothing and is not taken.)
/// Since the triage of 2026-11-28-k: also `@!p` where `p`'s last write is
/// a `setp.and` of false constants (K5G2).
/// Since the triage of 2026-11-28-l (`docs/log/gpu-2026-11-28-l/triage.md`,
/// groups K5S, K5Q, K5X; decided by the H200's rows, where the same
/// overwrite under an input's guard, true on every lane, agreed): any
/// `setp` whose value for the guard is constant ([`known_guard::setp_known`]:
/// immediates, a register compared with itself, either destination), and
/// the scan passes a label that only an unguarded `bra` around an `exit`
/// reaches ([`known_guard::exit_block_before`]). N12's detector
/// (`narrow_cvt_under_known_guard`) reads this too, so these guards count
/// for it as well; no finding of any log changes N12's naming by that (every
/// log's printer, H42), and no N12 variant tested such a guard.
fn guard_known_true(prog: &Program, k: usize) -> bool {
    let Some(g) = prog.insts[k].guard else {
        return false;
    };
    let mut at = k;
    while at > 0 {
        if labelled(prog, at) {
            match known_guard::exit_block_before(prog, at) {
                Some(b) => {
                    at = b;
                    continue;
                }
                None => return false,
            }
        }
        let x = &prog.insts[at - 1];
        if x.op.is_control_flow() {
            let skips = matches!(x.op, Op::Control(Control::Exit)) || forward_branch(prog, at - 1);
            return skips
                && x.guard
                    .is_some_and(|q| q.reg == g.reg && q.negated != g.negated);
        }
        if x.op.written().contains(&g.reg) {
            return known_guard::setp_known(x, g.reg) == Some(!g.negated);
        }
        at -= 1;
    }
    false
}

fn write_hoisted_above_exit(prog: &Program, has_entry: &dyn Fn(Reg) -> bool) -> Option<usize> {
    for (h, b) in loops(prog) {
        for e in h..b {
            let x = &prog.insts[e];
            if !matches!(x.op, Op::Control(Control::Exit))
                || (x.guard.is_none()
                    && !branched_over(prog, e)
                    && !branched_over_past_sinks(prog, e, h, b))
            {
                continue;
            }
            // A write after the exit that computes from a register or
            // `%laneid` (a hoisted constant is no different value), to a
            // register with no value before the loop.
            let fresh = prog.insts[e + 1..=b].iter().any(|x| {
                no_constant(x)
                    && x.op.written().iter().any(|r| {
                        !has_entry(*r)
                            && !prog.insts[..h].iter().any(|y| y.op.written().contains(r))
                    })
            });
            if fresh {
                return Some(e);
            }
        }
    }
    None
}

/// Whether instruction `e` of the loop `h..=b` is skipped by a guarded
/// branch ([`branched_over`]) with instructions that compute nothing
/// between the branch and `e` (no control flow, no collective, every
/// result a sink, no label at them or at `e`), where the loop writes the
/// branch's guard (so a lane may take the `exit` on a later trip, which N1
/// needs). Since the triage of 2026-11-28-m
/// (`docs/log/gpu-2026-11-28-m/triage.md`, group N1S): `@%p0 bra L4;
/// mov.b32 _, 0; exit; L4:` in a loop that rewrites `%p0`
/// (`a/found/setp.gt.s32-a1a57ec2`; `n1s.found` and `.no-dead-mov` wrong
/// on the H200 from -O1 with N1's value, `.lp0-given`, `%lp0` given an
/// entry value, right). Session 10's `k2-inner.fresh-pred` (the same
/// `@%p2 bra L1; mov.s32 _, 0; exit; L1:`, right on the H100) has a guard
/// the loop never writes: no lane leaves on a later trip there.
fn branched_over_past_sinks(prog: &Program, e: usize, h: usize, b: usize) -> bool {
    let sink = |k: usize| {
        let x = &prog.insts[k];
        !x.op.is_control_flow()
            && !is_collective(&x.op)
            && !x.op.dests().is_empty()
            && x.op.written().is_empty()
    };
    let mut k = e;
    while k > h && !labelled(prog, k) && sink(k - 1) {
        k -= 1;
    }
    if k == e || k == 0 || labelled(prog, k) {
        return false;
    }
    let branch = &prog.insts[k - 1];
    let past = branch.op.branch_target().is_some_and(|l| {
        let t = prog.labels[l.0 as usize].at;
        t > e && (e + 1..t).all(|j| unreachable(prog, j))
    });
    past && branch
        .guard
        .is_some_and(|g| written_in(prog, h, b + 1, g.reg))
}

/// Whether instruction `e` is skipped by a guarded branch just before it
/// to the instruction after it (`@!%p bra L; exit; L:` is `@%p exit`;
/// 2026-11-27-h: `found-O1/setp.gt.s32-ef00434d`).
/// Since the triage of 2026-11-28-l (`docs/log/gpu-2026-11-28-l/triage.md`,
/// group N1B): or to a label past instructions no lane reaches
/// ([`unreachable`]: `@%p0 bra L2; exit; bra L3; L2:`, `d/found/
/// setp.gt.s32-59a91017`, whose exiting lanes got N1's hoisted `setp` on
/// the H200 from -O1).
fn branched_over(prog: &Program, e: usize) -> bool {
    e > 0
        && prog.insts[e - 1].guard.is_some()
        && prog.insts[e - 1].op.branch_target().is_some_and(|l| {
            let t = prog.labels[l.0 as usize].at;
            t > e && (e + 1..t).all(|k| unreachable(prog, k))
        })
}

fn shuffle_of_shuffled_immediate(prog: &Program) -> Option<usize> {
    for (i, inst) in prog.insts.iter().enumerate() {
        let Op::Shfl(first) = &inst.op else { continue };
        let (Some(mask), Operand::Imm(_), crate::ir::Dest::Reg(d)) =
            (first.membermask, first.a, first.d)
        else {
            continue;
        };
        let exit_before = prog.insts[..i]
            .iter()
            .any(|x| matches!(x.op, Op::Control(Control::Exit)));
        if mask == Operand::Imm(0xffff_ffff) && !exit_before {
            continue;
        }
        for (j, later) in prog.insts.iter().enumerate().skip(i + 1) {
            if let Op::Shfl(second) = &later.op {
                // `.sync` or not (group N2W of 2026-11-28-k).
                if second.a == Operand::Reg(d) {
                    return Some(j);
                }
            }
            if later.op.written().contains(&d) {
                break;
            }
        }
    }
    None
}

/// A `.sync` collective (one with a membermask).
fn is_sync_collective(op: &Op) -> bool {
    op.membermask().is_some()
}

fn shift_amount_from_f32(prog: &Program) -> Option<usize> {
    for inst in &prog.insts {
        let Op::Glue(Glue::Bin {
            op: BinOp::Shl | BinOp::Shr,
            ty,
            b: Operand::Reg(amount),
            ..
        }) = inst.op
        else {
            continue;
        };
        if ty.bits() != 64 {
            continue;
        }
        let f32_write = prog.insts.iter().position(|x| writes_as_f32(x, amount));
        if f32_write.is_some() {
            return f32_write;
        }
    }
    None
}

/// Whether `x` writes `r` as an `.f32` result: any destination typed
/// `.f32` (`mov.f32`, `neg.f32`, `selp.f32`, a conversion to `.f32`, a
/// lane op's `.f32` destination).
fn writes_as_f32(x: &crate::ir::Inst, r: Reg) -> bool {
    x.op.dests()
        .iter()
        .any(|(d, t)| *d == Dest::Reg(r) && *t == Type::F32)
}

fn loop_guard_rewritten(prog: &Program) -> Option<usize> {
    let waits_after = |b: usize| {
        prog.insts[b + 1..]
            .iter()
            .any(|x| x.op.membermask().is_some_and(|m| m != Operand::Imm(0)))
    };
    for (h, b) in loops(prog) {
        if !waits_after(b) {
            continue;
        }
        let body = &prog.insts[h..=b];
        for (k, x) in body.iter().enumerate() {
            let Some(g) = x.guard else { continue };
            if is_sync_collective(&x.op) && body.iter().any(|y| y.op.written().contains(&g.reg)) {
                return Some(h + k);
            }
        }
    }
    None
}

fn zero_membermask_after_register_mask(prog: &Program) -> Option<usize> {
    let first = prog
        .insts
        .iter()
        .position(|x| matches!(x.op.membermask(), Some(Operand::Reg(_))))?;
    prog.insts
        .iter()
        .enumerate()
        .skip(first + 1)
        .find(|(_, x)| x.op.membermask() == Some(Operand::Imm(0)))
        .map(|(j, _)| j)
}

fn shl64_immediate_amount_over_63(prog: &Program) -> Option<usize> {
    prog.insts.iter().position(|x| {
        matches!(
            x.op,
            Op::Glue(Glue::Bin { op: BinOp::Shl, ty, b: Operand::Imm(n), .. })
                if ty.bits() == 64 && n > 63
        )
    })
}

fn f32_add_immediates_tie(prog: &Program) -> Option<usize> {
    (0..prog.insts.len()).find(|&i| {
        let Op::Glue(Glue::Bin {
            op,
            ty: Type::F32,
            a,
            b,
            ..
        }) = prog.insts[i].op
        else {
            return false;
        };
        let (Some(a), Some(b)) = (f32_constant(prog, i, a), f32_constant(prog, i, b)) else {
            return false;
        };
        // a - b is a + (-b): the sign bit of b flipped.
        (op == BinOp::Add && f32_sum_is_tie(a, b))
            || (op == BinOp::Sub && f32_sum_is_tie(a, b ^ 0x8000_0000))
    })
}

/// The bits of `o`, read by instruction `at`, when the compiler knows them:
/// an immediate, or (since the triage of 2026-11-28-i,
/// `docs/log/gpu-2026-11-28-i/triage.md`) a register whose last write, no
/// label between, is an unguarded `mov.f32` of an immediate or `neg.f32`
/// of one (`n6-mov.found`, `n6-neg.found`).
fn f32_constant(prog: &Program, at: usize, o: Operand) -> Option<u32> {
    match o {
        Operand::Imm(v) => Some(v as u32),
        Operand::Reg(r) => {
            let w = &prog.insts[straight_writer(prog, r, at)?];
            if w.guard.is_some() {
                return None;
            }
            if let Op::Glue(Glue::Mov {
                ty: Type::F32,
                a: Operand::Imm(v),
                ..
            }) = w.op
            {
                return Some(v as u32);
            }
            let Op::Glue(Glue::Un {
                op: UnOp::Neg,
                ty: Type::F32,
                a: Operand::Imm(v),
                ..
            }) = w.op
            else {
                return None;
            };
            Some(v as u32 ^ 0x8000_0000)
        }
        Operand::NotPred(_) | Operand::LaneId => None,
    }
}

/// Whether the exact sum of the f32 values with bits `a` and `b` lies
/// halfway between two neighbouring finite f32 values. Such a midpoint has
/// 25 significant bits, so it is an f64; the f64 sum is exact exactly when
/// its error term (Knuth's two-sum) is 0, and a sum that is not exact is
/// no midpoint.
fn f32_sum_is_tie(a: u32, b: u32) -> bool {
    let (a, b) = (f64::from(f32::from_bits(a)), f64::from(f32::from_bits(b)));
    let s = a + b;
    if !s.is_finite() {
        return false;
    }
    let bb = s - a;
    let err = (a - (s - bb)) + (b - bb);
    if err != 0.0 {
        return false;
    }
    let r = s as f32;
    if f64::from(r) == s || !r.is_finite() {
        return false;
    }
    let other = if s > f64::from(r) {
        r.next_up()
    } else {
        r.next_down()
    };
    other.is_finite() && (f64::from(r) + f64::from(other)) / 2.0 == s
}

fn predicate_redefined_past_branch(prog: &Program) -> Option<usize> {
    let n = prog.insts.len();
    for (i, x) in prog.insts.iter().enumerate() {
        if x.op.is_control_flow() {
            continue;
        }
        let mut preds: Vec<Reg> = x.guard.map(|g| g.reg).into_iter().collect();
        preds.extend(x.op.sources().iter().filter_map(|(o, _, _)| match o {
            Operand::Reg(r) | Operand::NotPred(r) if prog.decl(*r).ty == Type::Pred => Some(*r),
            _ => None,
        }));
        for p in preds {
            let results: Vec<Reg> = x.op.written().into_iter().filter(|r| *r != p).collect();
            if results.is_empty() {
                continue;
            }
            // The first control-flow instruction after X, in X's block,
            // with `p` unchanged up to it.
            let mut k = i + 1;
            while k < n
                && !labelled(prog, k)
                && !prog.insts[k].op.is_control_flow()
                && !prog.insts[k].op.written().contains(&p)
            {
                k += 1;
            }
            if k >= n || labelled(prog, k) || prog.insts[k].guard.is_none() {
                continue;
            }
            let Some(target) = prog.insts[k].op.branch_target() else {
                continue;
            };
            let t = prog.labels[target.0 as usize].at;
            if t <= k + 1 {
                continue;
            }
            // On the fall-through path, before the label: a write of `p`
            // by no collective, with one of X's results not yet rewritten
            // on the way (so X's value reaches the join).
            // The taken side too, where the fall-through ends in a jump
            // over it to the join (2026-11-27-h: `@%p2 bra L0; bra L1; L0:
            // setp ...; L1:`, `found-O2/mul.lo.u64-cb4d2f6b`).
            let last = &prog.insts[t - 1];
            let taken = if last.guard.is_none() {
                last.op
                    .branch_target()
                    .map(|l| prog.labels[l.0 as usize].at)
                    .filter(|&join| join > t)
                    .map_or(t..t, |join| t..join.min(n))
            } else {
                t..t
            };
            for side in [k + 1..t.min(n), taken] {
                for w in side.clone() {
                    let y = &prog.insts[w];
                    // Past a one-instruction loop, a `bra` to itself (it
                    // writes nothing): since the triage of 2026-11-28-k
                    // (group K1U: `@%p1 bra L5; L6: @%lp0 bra L6;
                    // shfl.sync.bfly.b32 _|%p2, ...; L5:`, `k1u.found` wrong
                    // on the H200 from -O1, as without the loop).
                    if y.op.is_control_flow() && !self_loop(prog, w) {
                        break;
                    }
                    // A collective writer only unguarded (a guarded one is K1's).
                    if (!is_collective(&y.op) || y.guard.is_none()) && y.op.written().contains(&p) {
                        let live = results.iter().any(|r| {
                            !prog.insts[k + 1..w]
                                .iter()
                                .any(|z| z.guard.is_none() && z.op.written().contains(r))
                        });
                        if live {
                            return Some(w);
                        }
                    }
                }
            }
        }
    }
    None
}

/// Whether instruction `w` is a branch to itself (a loop of one
/// instruction, `L: @%p bra L`).
fn self_loop(prog: &Program, w: usize) -> bool {
    prog.insts[w]
        .op
        .branch_target()
        .is_some_and(|l| prog.label_target(l) == w)
}

/// N7 as the triage of 2026-11-28-j widened it
/// (`docs/log/gpu-2026-11-28-j/triage.md`, group N7W): X is guarded by
/// `p` and writes a register; going on from X through forward branches and labels
/// that only paths through X reach ([`joins_only_from`]), with no `exit`
/// or loop between, the first write of `p` (by no guarded collective) is
/// on one path only (a forward branch before it, X's own or an earlier
/// one, goes past it) and one of X's results is not yet rewritten there.
/// Found cases: the write at a label after X that nothing targets
/// (`@%p2 mov.s64 %sd1, 0; L6: @!%p0 bra L7; setp.eq.s32 %p2, 0, 1; L7:`,
/// `n7-label.found`), at a branch's target (`@!%p0 cnot.b16 ...; @!%p2 bra
/// L0; @!%p3 bra L1; L0: setp.le.or.u32 %p0, ...; L1:`, `n7-target.found`;
/// `n7-neg.found`; `mov.pred %p0, %p3` there, `n7-movpred.found`), right
/// after X inside a branch's skipped block (`@!%p0 bra L0; @%p2 mov.s32
/// %b1, 0; setp.ne.b32 %p2, %laneid, 0; ... L0:`, `n7-before.found`).
fn predicate_redefined_on_one_path(prog: &Program) -> Option<usize> {
    let n = prog.insts.len();
    let loops = loops(prog);
    for (i, x) in prog.insts.iter().enumerate() {
        if x.op.is_control_flow() || loops.iter().any(|&(h, b)| h <= i && i <= b) {
            continue;
        }
        // Its guard only: N26's copy `or.pred %p3, %p0, %p0; mov.pred %p0,
        // 0; @%p3 exit` in a block a branch skips diverges with `or.pred`
        // and agrees with `mov.pred %p3, %p0` (`n26x.found`,
        // `n26x.mov-pred`), which a late read of the source cannot tell.
        if let Some(g) = x.guard {
            let p = g.reg;
            let results: Vec<Reg> = x.op.written().into_iter().filter(|r| *r != p).collect();
            if results.is_empty() {
                continue;
            }
            for w in i + 1..n {
                if labelled(prog, w) && !joins_only_from(prog, i, w) {
                    break;
                }
                let y = &prog.insts[w];
                if unreachable(prog, w) {
                    break;
                }
                if y.op.is_control_flow() {
                    if forward_branch(prog, w) {
                        continue;
                    }
                    break;
                }
                if !y.op.written().contains(&p) {
                    continue;
                }
                let writer = !is_collective(&y.op) || y.guard.is_none();
                let one_path = (0..w).any(|c| {
                    prog.insts[c]
                        .op
                        .branch_target()
                        .is_some_and(|l| prog.label_target(l) > w)
                });
                let live = results.iter().any(|r| {
                    !prog.insts[i + 1..w]
                        .iter()
                        .any(|z| z.guard.is_none() && z.op.written().contains(r))
                });
                if writer && one_path && live {
                    return Some(w);
                }
                break;
            }
        }
    }
    None
}

/// The `bfe`/`bfi` of instruction `x` (`op`) of type `ty`: its sources
/// (the instruction type is the first source's).
fn bit_field_sources(x: &crate::ir::Inst, op: IntOp, ty: Type) -> Option<&[(Operand, Type)]> {
    match &x.op {
        Op::LaneOp(LaneOp {
            kind: LaneOpKind::Int(k),
            srcs,
            ..
        }) if *k == op && srcs.first().is_some_and(|(_, t)| *t == ty) => Some(srcs),
        _ => None,
    }
}

fn bfe_s32_position_past_msb(prog: &Program) -> Option<usize> {
    prog.insts.iter().position(|x| {
        bit_field_sources(x, IntOp::Bfe, Type::S32).is_some_and(|s| {
            matches!(s.get(1), Some((Operand::Imm(pos), _)) if *pos > 31)
                && !matches!(s.get(2), Some((Operand::Imm(0), _)))
        })
    })
}

fn bfi32_length_32_or_more(prog: &Program) -> Option<usize> {
    prog.insts.iter().position(|x| {
        bit_field_sources(x, IntOp::Bfi, Type::B32)
            .is_some_and(|s| matches!(s.get(3), Some((Operand::Imm(len), _)) if *len >= 32))
    })
}

fn mov_recomputed_after_activemask(prog: &Program) -> Option<usize> {
    for (i, x) in prog.insts.iter().enumerate() {
        let (
            Some(_),
            Op::Glue(Glue::Mov {
                d: Dest::Reg(d),
                a: Operand::Reg(r),
                ..
            }),
        ) = (x.guard, &x.op)
        else {
            continue;
        };
        let mut read = false;
        for j in i + 1..prog.insts.len() {
            let y = &prog.insts[j];
            if labelled(prog, j) || y.op.is_control_flow() {
                break;
            }
            let rewrites =
                matches!(y.op, Op::Activemask(Activemask { d: Dest::Reg(w) }) if w == *r);
            if read && rewrites && y.guard.is_some() {
                return Some(j);
            }
            read |= reads(y, *d);
            let w = y.op.written();
            if w.contains(r) || w.contains(d) {
                break;
            }
        }
    }
    None
}

/// Whether `x` is a `cvt` to an integer type of 16 bits or fewer whose
/// destination register is declared with 32 bits.
fn narrow_cvt_into_32_bits(prog: &Program, x: &crate::ir::Inst) -> bool {
    let Op::LaneOp(LaneOp {
        kind: LaneOpKind::Cvt { .. },
        dests,
        ..
    }) = &x.op
    else {
        return false;
    };
    dests.first().is_some_and(|(d, t)| {
        !t.is_float()
            && t.bits() <= 16
            && matches!(d, Dest::Reg(r) if prog.decl(*r).ty.bits() == 32)
    })
}

fn narrow_cvt_after_exit_and_shuffle(prog: &Program) -> Option<usize> {
    let exit = prog
        .insts
        .iter()
        .position(|x| matches!(x.op, Op::Control(Control::Exit)))?;
    let n = prog.insts.len();
    let shfl = (exit + 1..n).find(|&k| {
        let x = &prog.insts[k];
        matches!(x.op, Op::Shfl(_)) && is_sync_collective(&x.op)
    });
    let after_shfl = shfl.and_then(|s| {
        (s + 1..n).find(|&k| {
            let x = &prog.insts[k];
            x.guard.is_some() && narrow_cvt_into_32_bits(prog, x)
        })
    });
    if after_shfl.is_some() {
        return after_shfl;
    }
    // Since the triage of 2026-11-28-i (`docs/log/gpu-2026-11-28-i/
    // triage.md`, group N12): the register whose upper half the merge
    // keeps may also hold a half of a 64-bit immediate, a `match.b64`'s
    // value or a `mov.b64`'s, before or after the `cvt` (`n12-match.found`:
    // 0xdbb70000, the top of the match's 0xdbb7c8c5a7f37dd3;
    // `n12-mov.found`: 0x27370000 from `mov.b64 %bd1, 0xd289754427374ac9`
    // after the `cvt`); without it the H100 agreed (`n12-match.no-match`,
    // `n12-mov.no-mov`, which keeps a `mov.f32` of an immediate).
    let filler = (exit + 1..n).any(|k| {
        let op = &prog.insts[k].op;
        matches!(op, Op::Match(m) if m.wide && matches!(m.a, Operand::Imm(_)))
            || matches!(op, Op::Glue(Glue::Mov { ty, a: Operand::Imm(_), .. }) if ty.bits() == 64)
    });
    let cvt = (exit + 1..n).find(|&k| {
        let x = &prog.insts[k];
        x.guard.is_some() && narrow_cvt_into_32_bits(prog, x)
    });
    if filler {
        return cvt;
    }
    // Since the triage of 2026-11-28-m (`docs/log/gpu-2026-11-28-m/
    // triage.md`, group N12F): or a `mov` of an immediate into another
    // 32-bit register before the exit, under the `cvt`'s own guard
    // (`@!%p2 mov.s32 %s1, 0xffffffff; @%p2 exit; ...; @!%p2 cvt.rzi.s8.f32
    // %r2, 0`: `%r2` 0xffff0000 on the H200 from -O2, 0x12340000 with
    // `%s1`'s immediate 0x12345678, `n12f.found` and `.filler-other`; to
    // `.s32`, right). The H100's `n12-match.no-match` (no filler, right)
    // has nothing before its exit.
    let guarded_mov_before = |k: usize| {
        let x = &prog.insts[k];
        prog.insts[..exit].iter().any(|y| {
            y.guard == x.guard
                && matches!(y.op, Op::Glue(Glue::Mov { ty, d: Dest::Reg(r), a: Operand::Imm(_) })
                    if ty.bits() == 32 && !x.op.written().contains(&r))
        })
    };
    cvt.filter(|&k| guarded_mov_before(k))
}

/// A guarded `cvt` to an 8- or 16-bit integer type into a 32-bit register
/// at the target of a branch, after a `shfl.sync` (2026-11-27-h,
/// `found-O1/cvt.rzi.s8.f32-69d939ba`: `@%p2 bra L0; shfl.sync.bfly.b32 _,
/// 0, 0, 0, 0; bra L1; L0: @%p2 cvt.rzi.s8.f32 %r2, %b3`, the upper half
/// of `%r2` the never-run shuffle's membermask 0: N12's mistake with the
/// branch in the exit's place; on the H200 without the shuffle, unguarded,
/// or to `.s32` it agrees at every level).
fn narrow_cvt_at_branch_target(prog: &Program) -> Option<usize> {
    (0..prog.insts.len()).find(|&k| {
        let x = &prog.insts[k];
        x.guard.is_some()
            && narrow_cvt_into_32_bits(prog, x)
            && prog.insts[..k]
                .iter()
                .any(|y| matches!(y.op, Op::Shfl(_)) && is_sync_collective(&y.op))
            && prog.insts[..k].iter().enumerate().any(|(b, y)| {
                y.op.branch_target()
                    .is_some_and(|l| prog.labels[l.0 as usize].at == k)
                    && b < k
            })
    })
}

/// Since the triage of 2026-11-28-j (`docs/log/gpu-2026-11-28-j/
/// triage.md`, group N12W): a guarded `cvt` to an 8- or 16-bit integer
/// type into a 32-bit register that has an entry value, on the
/// fall-through of a branch on its own guard's negation (the guard known
/// to hold, [`guard_known_true`]), a shuffle between: the register's own
/// old upper half is kept (`@!%p1 bra L0; shfl.idx.b32 ...; @%p1
/// cvt.rzi.u8.f32 %r1, %b2`, %r1 0x79c06530 on entry, 0x79c00000 after:
/// `n12-own.found`, wrong at -O3 on the H100, right at -O1; without the
/// shuffle, unguarded or to `.u32` right at every level).
/// Since the triage of 2026-11-28-k (`docs/log/gpu-2026-11-28-k/triage.md`,
/// group N12E): a guarded `exit` right after the `cvt` in the shuffle's
/// place (`@!%p0 bra L6; @%p0 cvt.rmi.s16.f32 %s0, 0; @%p1 exit; L6:`,
/// `n12e.found` wrong on the H200 at -O3; without the exit, the branch or
/// the guard, or to `.s32`, right at every level).
fn narrow_cvt_under_known_guard(prog: &Program, has_entry: &dyn Fn(Reg) -> bool) -> Option<usize> {
    (0..prog.insts.len()).find(|&k| {
        let x = &prog.insts[k];
        let entry = x.op.written().first().is_some_and(|r| has_entry(*r));
        // By a branch, not an `exit` (2026-11-28-i's `n12-match.no-match`
        // and `n12-mov.no-mov`, `@%p2 exit; ... @!%p2 cvt.rzi.s8.f32` of an
        // input register, agreed on the H100).
        let branch = (0..k)
            .rev()
            .find(|&j| prog.insts[j].op.is_control_flow())
            .filter(|&j| prog.insts[j].op.branch_target().is_some());
        // A shuffle (any, the legacy `shfl` too) between the branch and
        // the `cvt`: without it the H100 agreed (`n12-own.no-shfl`).
        let shuffled = branch.is_some_and(|j| {
            prog.insts[j + 1..k]
                .iter()
                .any(|y| matches!(y.op, Op::Shfl(_)))
        });
        // Or, since the triage of 2026-11-28-k (group N12E), a guarded
        // `exit` right after the `cvt` (straight code between): without
        // the exit the H200 agreed (`n12e.no-exit`).
        let exit_after = (k + 1..prog.insts.len())
            .take_while(|&j| !labelled(prog, j))
            .find(|&j| prog.insts[j].op.is_control_flow())
            .is_some_and(|j| {
                prog.insts[j].guard.is_some()
                    && matches!(prog.insts[j].op, Op::Control(Control::Exit))
            });
        x.guard.is_some()
            && narrow_cvt_into_32_bits(prog, x)
            && entry
            && (shuffled || exit_after)
            && guard_known_true(prog, k)
    })
}

/// The 16-bit shifts whose amount a `cnot.b32` wrote (unchanged since),
/// and with `cvt_sat` also the `cvt.sat`s to a 16-bit integer of such a
/// result: (the `cnot`, the reader).
fn cnot_amounts_of_16_bit_shifts(prog: &Program, cvt_sat: bool) -> Vec<(usize, usize)> {
    let mut found = Vec::new();
    for (i, x) in prog.insts.iter().enumerate() {
        let Op::Glue(Glue::Un {
            op: UnOp::Cnot,
            ty: Type::B32,
            d: Dest::Reg(c),
            ..
        }) = x.op
        else {
            continue;
        };
        for j in i + 1..prog.insts.len() {
            let y = &prog.insts[j];
            if let Op::Glue(Glue::Bin {
                op: BinOp::Shl | BinOp::Shr,
                ty: Type::B16 | Type::U16,
                b: Operand::Reg(amount),
                ..
            }) = y.op
            {
                if amount == c {
                    found.push((i, j));
                }
            }
            if cvt_sat && sat_cvt_to_16_bits_of(y, c) {
                found.push((i, j));
            }
            if y.op.written().contains(&c) {
                break;
            }
        }
    }
    found
}

/// Whether `y` is a `cvt.sat` to an 8- or 16-bit integer type reading `c`.
fn sat_cvt_to_16_bits_of(y: &crate::ir::Inst, c: Reg) -> bool {
    let Op::LaneOp(LaneOp {
        kind: LaneOpKind::Cvt { sat: true, .. },
        dests,
        srcs,
        ..
    }) = &y.op
    else {
        return false;
    };
    let to16 = dests
        .first()
        .is_some_and(|(_, t)| !t.is_float() && t.bits() <= 16);
    to16 && srcs.first().is_some_and(|(o, _)| *o == Operand::Reg(c))
}

fn cnot_amount_of_16_bit_shift(prog: &Program) -> Option<usize> {
    cnot_amounts_of_16_bit_shifts(prog, true)
        .first()
        .map(|&(_, j)| j)
}

fn cnot_shift16_after_two_collectives(prog: &Program) -> Option<usize> {
    cnot_amounts_of_16_bit_shifts(prog, false)
        .into_iter()
        .find(|&(_, j)| {
            prog.insts[..j]
                .iter()
                .filter(|x| is_sync_collective(&x.op))
                .count()
                >= 2
        })
        .map(|(_, j)| j)
}

/// Which values a register can hold as its last writer before an
/// instruction made it: `Some(true)` for `abs.f32 r, x` (`|x|`, from +0
/// to +inf or NaN), `Some(false)` for `neg.f32` of such a register
/// (`-|x|`), else `None`. Straight-line: the last writer before `at` in
/// program order.
fn abs_sign(prog: &Program, r: Reg, at: usize) -> Option<bool> {
    let k = (0..at)
        .rev()
        .find(|&k| prog.insts[k].op.written().contains(&r))?;
    match prog.insts[k].op {
        Op::Glue(Glue::Un {
            op: UnOp::Abs,
            ty: Type::F32,
            ..
        }) => Some(true),
        Op::Glue(Glue::Un {
            op: UnOp::Neg,
            ty: Type::F32,
            a: Operand::Reg(x),
            ..
        }) => (abs_sign(prog, x, k) == Some(true)).then_some(false),
        _ => None,
    }
}

/// Whether `v CMP c` holds for every non-NaN `v` of `|x|` (`abs`) or of
/// `-|x|` (not `abs`).
fn always_true(abs: bool, cmp: CmpOp, c: f32) -> bool {
    if c.is_nan() {
        return false;
    }
    match (abs, cmp) {
        (true, CmpOp::Gt) => c < 0.0,
        (true, CmpOp::Ge) => c <= 0.0,
        (false, CmpOp::Lt) => c > 0.0,
        (false, CmpOp::Le) => c >= 0.0,
        (_, CmpOp::Eq | CmpOp::Ne | CmpOp::Lt | CmpOp::Le | CmpOp::Gt | CmpOp::Ge) => false,
    }
}

/// `cmp` with its operands swapped (`c < a` is `a > c`).
fn swapped(cmp: CmpOp) -> CmpOp {
    match cmp {
        CmpOp::Lt => CmpOp::Gt,
        CmpOp::Le => CmpOp::Ge,
        CmpOp::Gt => CmpOp::Lt,
        CmpOp::Ge => CmpOp::Le,
        CmpOp::Eq | CmpOp::Ne => cmp,
    }
}

fn abs_compare_always_true(prog: &Program) -> Option<usize> {
    prog.insts.iter().enumerate().find_map(|(j, x)| {
        let Op::Glue(Glue::Setp {
            cmp,
            ty: Type::F32,
            a,
            b,
            ..
        }) = x.op
        else {
            return None;
        };
        let (r, c, cmp) = match (a, b) {
            (Operand::Reg(r), Operand::Imm(c)) => (r, c, cmp),
            (Operand::Imm(c), Operand::Reg(r)) => (r, c, swapped(cmp)),
            _ => return None,
        };
        let abs = abs_sign(prog, r, j)?;
        always_true(abs, cmp, f32::from_bits(c as u32)).then_some(j)
    })
}

/// Whether an instruction in `prog.insts[from..to]` writes `r`.
fn written_in(prog: &Program, from: usize, to: usize, r: Reg) -> bool {
    prog.insts[from.min(to)..to]
        .iter()
        .any(|x| x.op.written().contains(&r))
}

fn loop_read_before_write(prog: &Program, has_entry: &dyn Fn(Reg) -> bool) -> Option<usize> {
    let u = Lazy::new(prog, has_entry);
    for (h, b) in loops(prog) {
        for j in h..=b {
            for r in prog.insts[j].op.source_regs() {
                if written_in(prog, h, j, r) {
                    continue;
                }
                // The body's rewrite: by no collective (a collective's
                // result depends on the other lanes: K2's loops rewrite
                // their predicate so), with a value; guarded or not since
                // the triage of 2026-11-28-i (`n3-guarded.found`,
                // `n3-guarded2.found`).
                let mut rewrites = (j + 1..=b).filter(|&w| {
                    let y = &prog.insts[w];
                    !is_collective(&y.op)
                        && !matches!(y.op, Op::Activemask(_))
                        && y.op.written().contains(&r)
                });
                if rewrites.any(|w| !u.get().reads_lacking(prog, w)) && u.get().may_lack(j, r) {
                    return Some(j);
                }
            }
        }
    }
    None
}

/// `op` with every destination a sink: the expression it computes.
fn expression(op: &Op) -> Op {
    let mut e = op.clone();
    for (d, _) in e.dests_mut() {
        *d = Dest::Sink;
    }
    e
}

fn repeat_after_one_sided_write(prog: &Program, has_entry: &dyn Fn(Reg) -> bool) -> Option<usize> {
    let u = Lazy::new(prog, has_entry);
    let writes: Vec<Vec<Reg>> = prog.insts.iter().map(|x| x.op.written()).collect();
    let branches: Vec<(usize, usize)> = prog
        .insts
        .iter()
        .enumerate()
        .filter_map(|(k, x)| Some((k, prog.labels[x.op.branch_target()?.0 as usize].at)))
        .collect();
    for (i, w) in prog.insts.iter().enumerate() {
        if w.guard.is_some() || !matches!(w.op, Op::Glue(_)) || writes[i].is_empty() {
            continue;
        }
        let srcs = w.op.source_regs();
        let computed =
            w.op.sources()
                .iter()
                .any(|(o, _, _)| !matches!(o, Operand::Imm(_)));
        if !computed || srcs.iter().any(|s| writes[i].contains(s)) {
            continue;
        }
        // The forward branches from before the write to a label past it
        // (the joins of the lanes that skip it).
        let joins: Vec<(usize, usize)> = branches
            .iter()
            .copied()
            .filter(|&(k, t)| k < i && t > i)
            .collect();
        if joins.is_empty() {
            continue;
        }
        // A repeat by another name counts only outside loops: the H200's
        // `n4.and-entry-value` (2026-11-27), whose one-sided `setp` in a loop
        // is repeated so after the join, agreed at every level.
        let in_loop = loops(prog).iter().any(|&(h, b)| h <= i && i <= b);
        // The repeat at or after a join, the write's sources unchanged since
        // the write, where the lanes that take that branch have a written
        // register without a value.
        let e = expression(&w.op);
        for (j, (x, written)) in prog.insts.iter().zip(&writes).enumerate().skip(i + 1) {
            if expression(&x.op) == e || (!in_loop && same_by_definitions(prog, i, j)) {
                let skipped = joins
                    .iter()
                    .any(|&(k, t)| t <= j && writes[i].iter().any(|r| u.get().may_lack(k, *r)));
                if skipped {
                    return Some(j);
                }
            }
            if srcs.iter().any(|s| written.contains(s)) {
                break;
            }
        }
    }
    None
}

/// The instruction that gives `r` its value at `at`: its last write before
/// `at`, unguarded, with no label between (no other path joins).
fn definition(prog: &Program, at: usize, r: Reg) -> Option<usize> {
    let k = (0..at)
        .rev()
        .find(|&k| prog.insts[k].op.written().contains(&r))?;
    let joined = (k + 1..=at).any(|j| labelled(prog, j));
    (prog.insts[k].guard.is_none() && !joined).then_some(k)
}

/// Whether instructions `i` and `j` compute the same expression where
/// their register sources differ only by name: each pair of differing
/// sources defined ([`definition`]) by the same expression of immediates
/// and `%laneid` (2026-11-27-h: `and.b32 %r3, %laneid, 8; setp.ne.b32 %p1,
/// %r3, 0` on one side, `and.b32 %b4, %laneid, 8; setp.ne.b32 %p6, %b4, 0`
/// after the join, `found-O2/setp.ne.b32-ca2e022b`).
fn same_by_definitions(prog: &Program, i: usize, j: usize) -> bool {
    let a = expression(&prog.insts[i].op);
    let mut b = expression(&prog.insts[j].op);
    let sa = a.sources();
    let mut renamed = false;
    {
        let sb = b.sources_mut();
        if sa.len() != sb.len() {
            return false;
        }
        for ((oa, _, _), (ob, _, _)) in sa.iter().zip(sb) {
            if oa == ob {
                continue;
            }
            let (Operand::Reg(ra), Operand::Reg(rb)) = (*oa, *ob) else {
                return false;
            };
            let (Some(da), Some(db)) = (definition(prog, i, ra), definition(prog, j, rb)) else {
                return false;
            };
            let (xa, xb) = (&prog.insts[da].op, &prog.insts[db].op);
            if !matches!(xa, Op::Glue(_))
                || !xa.source_regs().is_empty()
                || expression(xa) != expression(xb)
            {
                return false;
            }
            *ob = Operand::Reg(ra);
            renamed = true;
        }
    }
    renamed && a == b
}

/// Whether `x` writes a value that is no constant: it reads a register or
/// `%laneid`, or reads nothing (`activemask`).
fn no_constant(x: &crate::ir::Inst) -> bool {
    let sources = x.op.sources();
    sources.is_empty()
        || sources
            .iter()
            .any(|(o, _, _)| !matches!(o, Operand::Imm(_)))
}

fn loop_copy_replaces_merge(prog: &Program, has_entry: &dyn Fn(Reg) -> bool) -> Option<usize> {
    let u = Lazy::new(prog, has_entry);
    for (h, b) in loops(prog) {
        for c in h..=b {
            let Op::Glue(Glue::Mov {
                d: Dest::Reg(d),
                a: Operand::Reg(s),
                ..
            }) = prog.insts[c].op
            else {
                continue;
            };
            // Before the loop, `d`'s last write, unguarded and no constant
            // and reading no register without a value; or none, `d`'s value
            // an input (2026-11-27-h: `found-O2/input-66763180`).
            let entry = match (0..h)
                .rev()
                .find(|&k| prog.insts[k].op.written().contains(&d))
            {
                Some(k) => {
                    let x = &prog.insts[k];
                    x.guard.is_none() && no_constant(x) && !u.get().reads_lacking(prog, k)
                }
                None => has_entry(d),
            };
            if !entry {
                continue;
            }
            // Before the copy, an exit test of the loop: a guarded branch out
            // of it whose guard the loop writes. Or, since the triage of
            // 2026-11-28-m (`docs/log/gpu-2026-11-28-m/triage.md`, group
            // N15I), whose guard the loop does not write, where the back
            // edge is guarded (the loop has a second way out):
            // `L4: @%p1 bra L5; mov.f32 %f1, %f2; @%lp0 bra L4; L5:` with
            // `%p1` an input 1 (`n15i.found`, and `n15i.lp0-given` with the
            // back edge's guard an input too, wrong on the H200 from -O2;
            // with `%f2` an input, or without the back edge, right). With an
            // unguarded back edge the loop-invariant exit test agreed at
            // every level (2026-11-27-e's `merge-undef.no-ctr`).
            let guarded_back_edge = prog.insts[b].guard.is_some();
            let leaves = (h..c).any(|e| {
                let x = &prog.insts[e];
                let (Some(g), Some(l)) = (x.guard, x.op.branch_target()) else {
                    return false;
                };
                let t = prog.labels[l.0 as usize].at;
                (t > b || t < h) && (guarded_back_edge || written_in(prog, h, b + 1, g.reg))
            });
            // Or, since the triage of 2026-11-28-k (groups N15L and N15P,
            // H31's N15W): a read of `d` earlier in the body, before the
            // copy (`L9: min.f32 %f2, %f1, %f2; mov.f32 %f1, %f0; @%lp0 bra
            // L9`, `n15l.found`; `L1: @%p2 cvt.rp.f64.u32 %fd2, 0; mov.pred
            // %p2, %p0; @%lp0 bra L1`, `n15p.found`: both wrong on the H200
            // at -O3, right with the never-written register an input or
            // without the back edge).
            // A loop whose only way on is its back edge's fall-through (no
            // branch in the body: N16's loop, `popc.b64 %b0, %bd2; mov.b64
            // %bd2, %bd1; @%p2 bra L3; bra L2`, leaves by a branch out).
            let read_before = (h..b).all(|e| !prog.insts[e].op.is_control_flow())
                && (h..c).any(|e| reads(&prog.insts[e], d));
            // `d`'s entry value a value, `s` maybe none.
            if (leaves || read_before) && u.get().may_lack(c, s) {
                return Some(c);
            }
        }
    }
    None
}

fn popc_overwrites_xor_copy(prog: &Program, has_entry: &dyn Fn(Reg) -> bool) -> Option<usize> {
    let u = Lazy::new(prog, has_entry);
    let loops = loops(prog);
    for (i, x) in prog.insts.iter().enumerate() {
        let Op::Glue(Glue::Bin {
            op: BinOp::Xor,
            d: Dest::Reg(d),
            a,
            b,
            ..
        }) = x.op
        else {
            continue;
        };
        let v = match (a, b) {
            (Operand::Reg(v), Operand::Imm(0)) | (Operand::Imm(0), Operand::Reg(v)) => v,
            _ => continue,
        };
        if x.guard.is_some() || v == d {
            continue;
        }
        for &(h, e) in loops.iter().filter(|&&(h, _)| h > i) {
            if written_in(prog, i + 1, h, v) || written_in(prog, i + 1, e + 1, d) {
                continue;
            }
            // In the body: a popc of `v` (not rewritten since the head),
            // then an unguarded copy into `v` of a register that may lack a
            // value.
            let popc = (h..=e).find(|&p| {
                matches!(prog.insts[p].op, Op::Glue(Glue::Un { op: UnOp::Popc, a: Operand::Reg(r), .. }) if r == v)
                    && !written_in(prog, h, p, v)
            });
            let Some(p) = popc else { continue };
            let copy = (p + 1..=e).find(|&m| {
                let y = &prog.insts[m];
                matches!(y.op, Op::Glue(Glue::Mov { d: Dest::Reg(r), a: Operand::Reg(s), .. })
                    if r == v && y.guard.is_none() && u.get().may_lack(m, s))
            });
            if copy.is_some() {
                return copy;
            }
        }
    }
    None
}

/// The integer `abs` of `x`: its destination, source and type.
fn int_abs(x: &crate::ir::Inst) -> Option<(Reg, Operand, Type)> {
    let Op::LaneOp(LaneOp {
        kind: LaneOpKind::Int(IntOp::Abs),
        dests,
        srcs,
        ..
    }) = &x.op
    else {
        return None;
    };
    match (dests.first(), srcs.first()) {
        (Some((Dest::Reg(d), _)), Some((a, ty))) => Some((*d, *a, *ty)),
        _ => None,
    }
}

/// Whether `y` reads one of `holders` (each `bits` wide) as a value that
/// no non-negative one gives: the source of a `cvt.f32` from an unsigned
/// integer type of that width, or of an ordered `setp` of that signed
/// width against 0, on either side (`x < 0`, `x >= 0`; `0 < x`: session
/// 8's H200 -O2 hunt, `setp.lt.and.s16 %p0, 0, |0x8000|, %p0` gave 1 from
/// -O1, docs/log/gpu-2026-11-27-h/found-O2/setp.lt.and.s16-f9d590ad).
fn reads_as_non_negative(y: &crate::ir::Inst, holders: &[Reg], bits: u32) -> bool {
    let held = |o: &Operand| matches!(o, Operand::Reg(r) if holders.contains(r));
    if let Op::LaneOp(LaneOp {
        kind: LaneOpKind::Cvt { .. },
        dests,
        srcs,
        ..
    }) = &y.op
    {
        let to_f32 = dests.first().is_some_and(|(_, t)| *t == Type::F32);
        return to_f32
            && srcs.first().is_some_and(|(o, t)| {
                held(o) && matches!(t, Type::U16 | Type::U32) && t.bits() == bits
            });
    }
    // Since the triage of 2026-11-28-i (`docs/log/gpu-2026-11-28-i/
    // triage.md`): the high half of its product with 1 or 2 (0 for every
    // non-negative value; `n18-mulhi.found`, `n18-mulhi.by-2`) and its sign
    // shifted down (`shr.sNN d, x, NN-1`; `n18-mulhi.shr-sign`). Since the
    // triage of 2026-11-28-j (`docs/log/gpu-2026-11-28-j/triage.md`, group
    // N18W): the product with any positive immediate, whose high half the
    // GPU computes as unsigned (`mul.hi.s16 %rh1, 31, %rh1` of the abs of
    // 0x8000: 15, not 0xfff0; `n18-mulhi31.found`).
    if let Op::Glue(Glue::Bin { op, ty, a, b, .. }) = y.op {
        let small = |o: &Operand| matches!(o, Operand::Imm(k) if *k > 0 && *k < 1u64 << (bits - 1));
        let mul_hi = op == BinOp::MulHi && ((held(&a) && small(&b)) || (small(&a) && held(&b)));
        let sign = op == BinOp::Shr
            && held(&a)
            && matches!(b, Operand::Imm(k) if k >= u64::from(bits) - 1);
        return ty.is_signed() && ty.bits() == bits && (mul_hi || sign);
    }
    let Op::Glue(Glue::Setp { cmp, ty, a, b, .. }) = y.op else {
        return false;
    };
    if !ty.is_signed() || ty.bits() != bits {
        return false;
    }
    let ordered = matches!(cmp, CmpOp::Lt | CmpOp::Le | CmpOp::Gt | CmpOp::Ge);
    ordered && ((held(&a) && b == Operand::Imm(0)) || (a == Operand::Imm(0) && held(&b)))
}

fn abs_read_as_non_negative(prog: &Program) -> Option<usize> {
    for (i, x) in prog.insts.iter().enumerate() {
        let Some((d, a, ty)) = int_abs(x) else {
            continue;
        };
        let bits = ty.bits();
        let most_negative = 1u64 << (bits - 1);
        let may_be_most_negative = match a {
            Operand::Reg(_) => true,
            Operand::Imm(v) => v & ty.mask() == most_negative,
            Operand::NotPred(_) | Operand::LaneId => false,
        };
        if !matches!(bits, 16 | 32) || !may_be_most_negative {
            continue;
        }
        // The registers holding the result: `d` and its copies.
        let mut holders = vec![d];
        for (j, y) in prog.insts.iter().enumerate().skip(i + 1) {
            if reads_as_non_negative(y, &holders, bits) {
                return Some(j);
            }
            let mut copy = None;
            if let Op::Glue(Glue::Mov {
                ty: t,
                d: Dest::Reg(c),
                a: Operand::Reg(s),
            }) = y.op
            {
                if holders.contains(&s) && t.bits() == bits {
                    copy = Some(c);
                }
            }
            if y.guard.is_none() {
                let written = y.op.written();
                holders.retain(|h| !written.contains(h));
            }
            holders.extend(copy);
            if holders.is_empty() {
                break;
            }
        }
    }
    None
}

/// The part `k` (of `bits` bits) of `v`.
fn part(v: u64, k: usize, bits: u32) -> u64 {
    let shift = k as u32 * bits;
    if shift >= 64 {
        0
    } else {
        let mask = if bits >= 64 {
            u64::MAX
        } else {
            (1 << bits) - 1
        };
        (v >> shift) & mask
    }
}

fn unpack_high_half_of_fixed(prog: &Program) -> Option<usize> {
    for f in fixed_on_fall_through(prog)
        .into_iter()
        .filter(|f| !f.widened)
    {
        for j in f.reach.clone() {
            let Op::LaneOp(LaneOp {
                kind: LaneOpKind::Unpack,
                dests,
                srcs,
                ..
            }) = &prog.insts[j].op
            else {
                continue;
            };
            let Some(&(whole, t)) = srcs.first() else {
                continue;
            };
            if whole != f.what || t.bits() != f.bits || dests.is_empty() {
                continue;
            }
            let w = f.bits / dests.len() as u32;
            let low = part(f.value, 0, w);
            let wrong = dests
                .iter()
                .enumerate()
                .skip(1)
                .any(|(k, (d, _))| matches!(d, Dest::Reg(_)) && part(f.value, k, w) != low);
            if wrong {
                return Some(j);
            }
        }
    }
    None
}

/// N20 with the `xor` before the branch (session 13's -O3 hunt,
/// `docs/log/gpu-2026-11-28-m/a/found/xor.b32-337d869f`, decided by the
/// H200's variants in `docs/log/gpu-2026-11-28-m/xz/`): `xor.b32 d, r,
/// 0xffffffff` (either operand order), then, in the same block, `setp.ne
/// p, r, K; @p bra L` forward, whose fall-through ends at an unguarded
/// `exit`: the exiting lanes (`r == K`) store `K`, not its complement
/// (lane 0: 0, not 0xffffffff). The `xor` may stand between the `setp` and
/// the branch (`xz.after`), `r` may be an input register (`xz.input`); with
/// no `exit` (`xz.no-exit`), `not.b32` (`xz.not`), `xor` by 0x0f0f0f0f
/// (`xz.xor-0f0f`) or `setp.eq` with `@!p` (`xz.eq-not`) it is right. Its
/// index: the `xor`.
fn xor_all_ones_before_exit_branch(prog: &Program) -> Option<usize> {
    let exit_at = |e: usize| {
        e < prog.insts.len()
            && !labelled(prog, e)
            && prog.insts[e].guard.is_none()
            && matches!(prog.insts[e].op, Op::Control(Control::Exit))
    };
    fixed_on_fall_through(prog)
        .into_iter()
        .filter(|f| !f.widened && f.bits == 32 && exit_at(f.reach.end))
        .find_map(|f| {
            // The `xor` in the branch's block: before the `setp` with
            // `what` kept up to it, or between the `setp` and the branch.
            let writes_what = |i: usize| {
                matches!(f.what, Operand::Reg(r) if prog.insts[i].op.written().contains(&r))
            };
            let mut j = f.branch;
            while j > 0 && !labelled(prog, j) && !prog.insts[j - 1].op.is_control_flow() {
                j -= 1;
                let Op::Glue(Glue::Bin {
                    op: BinOp::Xor,
                    ty,
                    d: Dest::Reg(d),
                    a,
                    b,
                }) = prog.insts[j].op
                else {
                    if j < f.setp && writes_what(j) {
                        return None;
                    }
                    continue;
                };
                let ones = Operand::Imm(ty.mask());
                let of_what = (a == f.what && b == ones) || (a == ones && b == f.what);
                // `d` kept from the `xor` to the `exit`.
                let kept = (j + 1..f.reach.end).all(|k| !prog.insts[k].op.written().contains(&d));
                if ty.bits() == 32 && prog.insts[j].guard.is_none() && of_what && kept {
                    return Some(j);
                }
            }
            None
        })
}

fn xor_all_ones_of_fixed(prog: &Program) -> Option<usize> {
    for f in fixed_on_fall_through(prog) {
        for j in f.reach.clone() {
            let Op::Glue(Glue::Bin {
                op: BinOp::Xor,
                ty,
                a,
                b,
                ..
            }) = prog.insts[j].op
            else {
                continue;
            };
            let ones = Operand::Imm(ty.mask());
            let of_fixed = (a == f.what && b == ones) || (a == ones && b == f.what);
            if ty.bits() == 32 && ty.bits() == f.bits && of_fixed {
                return Some(j);
            }
        }
    }
    None
}

/// Whether `x` is `cvt.rpi.ftz.{u32,s32}.f32` of a register or of a
/// positive subnormal: its destination register.
fn rpi_ftz_cvt_to_int32(x: &crate::ir::Inst) -> Option<Reg> {
    let Op::LaneOp(LaneOp {
        kind:
            LaneOpKind::Cvt {
                rnd: Some(rnd @ (Rounding::Rp | Rounding::Rm)),
                int_round: true,
                ftz,
                ..
            },
        dests,
        srcs,
        ..
    }) = &x.op
    else {
        return None;
    };
    // Since the triage of 2026-11-28-j (`docs/log/gpu-2026-11-28-j/
    // triage.md`, group N21W): `cvt.rmi{.ftz}.u32.f32` of a register too,
    // with or without `.ftz` (-3.0 saturates to 0; the shift went as if by
    // -3: `n21-rmi.found`, `n21-rmi.no-ftz` wrong from -O1 on the H100,
    // `n21-rmi.positive` of 3.0 right).
    let rm = *rnd == Rounding::Rm;
    if !rm && !ftz {
        return None;
    }
    let source = match srcs.first() {
        Some((Operand::Reg(_), Type::F32)) => true,
        Some((Operand::Imm(v), Type::F32)) => !rm && (1..=0x007f_ffff).contains(&(v & 0xffff_ffff)),
        _ => false,
    };
    match dests.first() {
        Some((Dest::Reg(c), Type::U32)) if source => Some(*c),
        Some((Dest::Reg(c), Type::S32)) if source && !rm => Some(*c),
        _ => None,
    }
}

fn rpi_ftz_cvt_amount_of_16_bit_shift(prog: &Program) -> Option<usize> {
    for (i, x) in prog.insts.iter().enumerate() {
        let Some(c) = rpi_ftz_cvt_to_int32(x) else {
            continue;
        };
        for (j, y) in prog.insts.iter().enumerate().skip(i + 1) {
            if let Op::Glue(Glue::Bin {
                op: BinOp::Shl | BinOp::Shr,
                ty,
                b: Operand::Reg(amount),
                ..
            }) = y.op
            {
                if amount == c && ty.bits() == 16 {
                    return Some(j);
                }
            }
            if y.op.written().contains(&c) {
                break;
            }
        }
    }
    None
}

/// The register an `abs.f32` (or `abs.ftz.f32`) reads, if `x` is one.
fn abs_f32_source(x: &crate::ir::Inst) -> Option<Reg> {
    if let Op::Glue(Glue::Un {
        op: UnOp::Abs,
        ty: Type::F32,
        a,
        ..
    }) = &x.op
    {
        return if let Operand::Reg(r) = a {
            Some(*r)
        } else {
            None
        };
    }
    let Op::LaneOp(LaneOp {
        kind: LaneOpKind::Float {
            op: FloatOp::Abs, ..
        },
        dests,
        srcs,
        ..
    }) = &x.op
    else {
        return None;
    };
    let to_f32 = dests.first().is_some_and(|(_, t)| *t == Type::F32);
    match srcs.first() {
        Some((Operand::Reg(r), _)) if to_f32 => Some(*r),
        _ => None,
    }
}

/// -0.0 as an `.f32` immediate.
const NEGATIVE_ZERO_F32: u64 = 0x8000_0000;

/// Whether `o` is an `.f32` immediate, and -0.0 when `neg_zero`.
fn f32_imm(o: &Operand, neg_zero: bool) -> bool {
    matches!(o, Operand::Imm(c) if !neg_zero || (*c & 0xffff_ffff) == NEGATIVE_ZERO_F32)
}

/// The `.f32` constant `x` writes when it is a `mov.{f32,b32}` of an
/// immediate, a `neg.f32` of one (its sign flipped) or, since the triage
/// of 2026-11-28-k (group N23A: `abs.f32 %f0, 0f00000001; @%p1 neg.f32
/// %f0, 0; abs.f32 %f0, %f0`, -0.0 on the H200 from -O1,
/// `c/found/abs.f32-0065bdde`), an `abs.f32` of one (its sign cleared).
fn f32_constant_write(x: &crate::ir::Inst) -> Option<u64> {
    if let Op::Glue(Glue::Mov {
        ty: Type::F32 | Type::B32,
        a: Operand::Imm(c),
        ..
    }) = x.op
    {
        return Some(c);
    }
    if let Op::Glue(Glue::Un {
        op: UnOp::Neg,
        ty: Type::F32,
        a: Operand::Imm(c),
        ..
    }) = x.op
    {
        return Some(c ^ NEGATIVE_ZERO_F32);
    }
    if let Op::Glue(Glue::Un {
        op: UnOp::Abs,
        ty: Type::F32,
        a: Operand::Imm(c),
        ..
    }) = x.op
    {
        return Some(c & !NEGATIVE_ZERO_F32);
    }
    None
}

fn abs_of_choice_with_negative_zero(prog: &Program) -> Option<usize> {
    prog.insts.iter().enumerate().find_map(|(j, x)| {
        let r = abs_f32_source(x)?;
        // The last write of `r` before the `abs`, with no label between.
        let k = (0..j)
            .rev()
            .find(|&k| prog.insts[k].op.written().contains(&r))?;
        if (k + 1..=j).any(|i| labelled(prog, i)) {
            return None;
        }
        let w = &prog.insts[k];
        let chosen = if let Op::Glue(Glue::Selp {
            ty: Type::F32 | Type::B32,
            a,
            b,
            ..
        }) = &w.op
        {
            // `selp.f32 r, a, b, c` of two immediates, one -0.0.
            w.guard.is_none()
                && f32_imm(a, false)
                && f32_imm(b, false)
                && (f32_imm(a, true) || f32_imm(b, true))
        } else if let Some(a) = f32_constant_write(w) {
            // `@p mov.f32 r, c` over an unguarded `mov.f32 r, c'`, one of
            // the two -0.0; since the triage of 2026-11-28-j
            // (`docs/log/gpu-2026-11-28-j/triage.md`, group N23W) either may
            // be a `neg.f32` of an immediate (`@%p1 neg.f32 %f0, 0`,
            // `n23-neg.found`).
            let earlier = (0..k)
                .rev()
                .find(|&e| prog.insts[e].op.written().contains(&r))
                .filter(|&e| !(e + 1..=k).any(|i| labelled(prog, i)));
            let neg_zero = |c: u64| (c & 0xffff_ffff) == NEGATIVE_ZERO_F32;
            w.guard.is_some()
                && earlier.is_some_and(|e| {
                    let y = &prog.insts[e];
                    y.guard.is_none()
                        && f32_constant_write(y).is_some_and(|b| neg_zero(a) || neg_zero(b))
                })
        } else {
            false
        };
        chosen.then_some(j)
    })
}

fn vote_loop_two_back_edges_entered_from_loop(prog: &Program) -> Option<usize> {
    let ls = loops(prog);
    let at = |x: &crate::ir::Inst| x.op.branch_target().map(|t| prog.labels[t.0 as usize].at);
    for (i, inst) in prog.insts.iter().enumerate() {
        if !matches!(inst.op, Op::Vote(_)) {
            continue;
        }
        for &(h, b1) in &ls {
            if !(h <= i && i < b1) {
                continue;
            }
            // A second back edge to the same header after the first.
            let Some(b2) = ls
                .iter()
                .filter(|&&(h2, b)| h2 == h && b > b1)
                .map(|&(_, b)| b)
                .min()
            else {
                continue;
            };
            // A guarded branch in the body past the first back edge, at or
            // before the second.
            let forward = (i + 1..b1).any(|k| {
                let x = &prog.insts[k];
                x.guard.is_some() && at(x).is_some_and(|t| b1 < t && t <= b2)
            });
            // The loop entered by a branch from inside another loop.
            let entered = prog.insts.iter().enumerate().any(|(k, x)| {
                at(x) == Some(h) && k < h && ls.iter().any(|&(oh, ob)| oh <= k && k < ob && ob < h)
            });
            if forward && entered {
                return Some(i);
            }
        }
    }
    None
}

fn match_all_exit_join(prog: &Program) -> Option<usize> {
    // Whether a branch among `insts[..before]` jumps to a label at `at`.
    let branched_to = |at: usize, before: usize| {
        prog.labels.iter().enumerate().any(|(l, label)| {
            label.at == at
                && prog.insts[..before]
                    .iter()
                    .any(|b| b.op.branch_target().is_some_and(|t| t.0 as usize == l))
        })
    };
    for (i, x) in prog.insts.iter().enumerate() {
        let Op::Match(Match {
            mode: MatchMode::All,
            d: Dest::Sink,
            p: Some(Dest::Reg(p)),
            membermask,
            ..
        }) = x.op
        else {
            continue;
        };
        // A later `exit` guarded by the predicate (not negated), before it
        // is rewritten.
        let mut exit = None;
        for (j, y) in prog.insts.iter().enumerate().skip(i + 1) {
            if matches!(y.op, Op::Control(Control::Exit))
                && y.guard.is_some_and(|g| g.reg == p && !g.negated)
            {
                exit = Some(j);
                break;
            }
            if y.op.written().contains(&p) {
                break;
            }
        }
        let Some(e) = exit else {
            continue;
        };
        // Then a `.sync` collective at or after a label past the `exit`
        // that a branch from before the `exit` jumps to (the join of a path
        // around it).
        let Some(k) = (e + 1..prog.insts.len()).find(|&k| is_sync_collective(&prog.insts[k].op))
        else {
            continue;
        };
        if !(e + 1..=k).any(|at| branched_to(at, e)) {
            continue;
        }
        // The `match` itself a branch target: any mask, any collective.
        if branched_to(i, i) {
            return Some(k);
        }
        // Else: the mask a register no instruction before wrote (data; with
        // `activemask` writing it, or an immediate, it compiled), and the
        // later collective a `shfl.sync` or `match.sync` with an immediate
        // mask (a `vote.sync` or a register mask compiled).
        let Operand::Reg(m) = membermask else {
            continue;
        };
        if prog.insts[..i].iter().any(|y| y.op.written().contains(&m)) {
            continue;
        }
        let later = &prog.insts[k].op;
        let shfl_or_match = matches!(later, Op::Shfl(_) | Op::Match(_));
        if shfl_or_match && matches!(later.membermask(), Some(Operand::Imm(_))) {
            return Some(k);
        }
    }
    None
}

/// The source register of an unguarded `cnot.b64` written at `k`.
fn cnot64_source(prog: &Program, k: usize) -> Option<Reg> {
    let x = &prog.insts[k];
    let Op::Glue(Glue::Un {
        op: UnOp::Cnot,
        ty: Type::B64,
        a: Operand::Reg(a),
        ..
    }) = x.op
    else {
        return None;
    };
    x.guard.is_none().then_some(a)
}

fn cnot_pair_narrow_cvt_from_f64(prog: &Program) -> Option<usize> {
    prog.insts.iter().enumerate().find_map(|(j, y)| {
        let Op::LaneOp(LaneOp {
            kind: LaneOpKind::Cvt {
                int_round: true, ..
            },
            dests,
            srcs,
            ..
        }) = &y.op
        else {
            return None;
        };
        let narrow = dests
            .first()
            .is_some_and(|(_, t)| !t.is_float() && t.bits() <= 16);
        let Some(&(Operand::Reg(x), Type::F64)) = srcs.first() else {
            return None;
        };
        let second = straight_writer(prog, x, j)?;
        let inner = cnot64_source(prog, second)?;
        let first = straight_writer(prog, inner, second)?;
        cnot64_source(prog, first)?;
        narrow.then_some(j)
    })
}

fn predicate_copy_lost_after_math_call(prog: &Program) -> Option<usize> {
    let n = prog.insts.len();
    // A math call in the copy's block, or the block entered by falling
    // past a guarded forward branch (session 11's H200 variants
    // `n4-lead-branch`, `x2-bra`: the branch stands for the call).
    let mut call_in_block = false;
    let mut after_branch = false;
    for (i, x) in prog.insts.iter().enumerate() {
        if labelled(prog, i) {
            call_in_block = false;
            after_branch = false;
        }
        if calls_math_subroutine(&x.op) {
            call_in_block = true;
        }
        if x.op.is_control_flow() {
            call_in_block = false;
            after_branch = x.guard.is_some()
                && x.op
                    .branch_target()
                    .is_some_and(|l| prog.labels[l.0 as usize].at > i);
            continue;
        }
        let Some((d, a)) = predicate_self_copy(x) else {
            continue;
        };
        if !(call_in_block || after_branch) {
            continue;
        }
        // In the block after the copy: `a` rewritten unguarded (with `d`
        // untouched), then the block's end a forward branch on `d`, or,
        // after a math call with `a` rewritten by no `mov` of an immediate
        // (that is N26X's shape, `copy_exit.rs`), an `exit` on `d`
        // (`n1-exit`).
        let mut rewritten = false;
        let mut mov_imm = false;
        let mut k = i + 1;
        while k < n && !labelled(prog, k) && !prog.insts[k].op.is_control_flow() {
            let w = prog.insts[k].op.written();
            if w.contains(&d) {
                break;
            }
            if prog.insts[k].guard.is_none() && w.contains(&a) {
                rewritten = true;
                mov_imm |= matches!(
                    prog.insts[k].op,
                    Op::Glue(Glue::Mov {
                        a: Operand::Imm(_),
                        ..
                    })
                );
            }
            k += 1;
        }
        if !rewritten || k >= n || labelled(prog, k) {
            continue;
        }
        let y = &prog.insts[k];
        let on_copy = y.guard.is_some_and(|g| g.reg == d);
        let forward =
            y.op.branch_target()
                .is_some_and(|l| prog.labels[l.0 as usize].at > k);
        let exit = matches!(y.op, Op::Control(Control::Exit)) && call_in_block && !mov_imm;
        if on_copy && (forward || exit) {
            return Some(i);
        }
    }
    None
}
