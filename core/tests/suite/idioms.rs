//! The idioms of the known compiler bugs: every bug's detector fires on
//! each of its cases and on no case of another bug (the matrix below), the
//! hardware cases and hand cases that are no bug have none, the
//! instruction a detector names is the one whose removal takes the idiom
//! away, and a generator told to avoid an idiom (or all of them) makes
//! cases without it.

use arbitrary::{Arbitrary, Unstructured};
use warp_core::gen::{generate_with_stats, Config, Stats, TestCase};
use warp_core::idioms::{idioms, idioms_in_case, known_for, Effect, Idiom};
use warp_core::ir::{Case, Program};
use warp_core::rng::Rng;
use warp_core::text::parse;

fn corpus(name: &str) -> Program {
    corpus_file(&format!("{name}.ptx"))
}

/// A file under `corpus/`, by its path there.
fn corpus_file(file: &str) -> Program {
    corpus_case(file).program
}

/// A file under `corpus/`, by its path there, with its inputs.
pub fn corpus_case(file: &str) -> Case {
    let path = format!("{}/../corpus/{file}", env!("CARGO_MANIFEST_DIR"));
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"));
    parse(&text).unwrap_or_else(|e| panic!("{path}: {e:?}"))
}

/// Every known bug of docs/findings.md (and the hang and fault shapes),
/// its detector, and its cases under `corpus/`. The detectors of N3, N4,
/// N15 and N16 need a register that may have no value on some path; as
/// `Idiom::find` does, the matrix takes it that no register has an entry
/// value.
const BUGS: &[(&str, Option<Idiom>, &[&str])] = &[
    (
        "K1",
        Some(Idiom::GuardRedefinedByCollective),
        &[
            "shl.b64-8b46bd59.ptx",
            "sub.s64-446c1297.ptx",
            "repro/k1-guard-redefined/case.ptx",
            "repro/k1-guard-redefined-other-guard/case.ptx",
            "hang-fault-h200.ptx",
            // The 2026-11-27-h triage (docs/log/gpu-2026-11-27-h/triage.md):
            // found by session 8's `--avoid all` hunts, explained by the
            // widened detector, the widening decided on the H200.
            "../docs/log/gpu-2026-11-27-h/found-O2/max.u64-14f8c882.ptx.txt",
            "../docs/log/gpu-2026-11-27-h/found-O2/cnot.b64-d949760d.ptx.txt",
            "../docs/log/gpu-2026-11-27-h/found-O2/input-b36850ee.ptx.txt",
            "../docs/log/gpu-2026-11-27-h/found-O2/input-dc93bea3.ptx.txt",
            "../docs/log/gpu-2026-11-27-h/found-O1/min.u64-0df98d25.ptx.txt",
            "../docs/log/gpu-2026-11-27-h/found-O1/input-58592b2e.ptx.txt",
        ],
    ),
    (
        "K2",
        Some(Idiom::GuardFoldedAfterExit),
        &[
            "vote.sync.any-6be43972.ptx",
            "sub.f32-27e7f0a1.ptx",
            "repro/k2-folded-after-exit/case.ptx",
            // A branch over the loop to a label that is no exit (triage
            // group G5, 2026-11-27): the loop writing a copy instead agrees
            // on the H200, and with the code after the label removed (the
            // second file) it still diverges.
            "../docs/log/gpu-2026-11-27/triage/k2-wide-branch-not-to-exit.ptx.txt",
            "../docs/log/gpu-2026-11-27/triage/experiments/k2-wide.branch-to-end.ptx.txt",
            // The 2026-11-27-h triage (docs/log/gpu-2026-11-27-h/triage.md):
            // found by session 8's `--avoid all` hunts, explained by the
            // widened detector, the widening decided on the H200.
            "../docs/log/gpu-2026-11-27-h/found-O1/vote.ballot-ea6b6639.ptx.txt",
        ],
    ),
    (
        "K5",
        Some(Idiom::UnusedCollectiveSplitsWarp),
        &[
            "redux.sync.xor.b32-6c379852.ptx",
            "repro/k5-unused-collective/case.ptx",
            // A sub-warp later mask (triage group G2, 2026-11-27): K5
            // applied by hand gives the H200's values.
            "../docs/log/gpu-2026-11-27/triage/k5-subwarp-later-mask.ptx.txt",
            // An unused `match.all.sync` whose membermask is each lane's
            // own bit, then a sub-warp `match.any.sync` (the H200's run of
            // 2026-11-27-d, candidate N10): K5 applied by hand (the later
            // mask replaced by the per-lane one) gives the GPU's values.
            "../docs/log/gpu-2026-11-27-d/found/w-match.any.sync.b32-4473260e.ptx.txt",
            "../docs/log/gpu-2026-11-27-d/found/w-match.any.sync.b32-9c2c517d.ptx.txt",
            // The 2026-11-27-h triage (docs/log/gpu-2026-11-27-h/triage.md):
            // found by session 8's `--avoid all` hunts, explained by the
            // widened detector, the widening decided on the H200.
            "../docs/log/gpu-2026-11-27-h/found-O2/match.all.sync.b64-83151703.ptx.txt",
            "../docs/log/gpu-2026-11-27-h/found-O2/match.any.sync.b32-2dd0ef94.ptx.txt",
            "../docs/log/gpu-2026-11-27-h/found-O2/match.any.sync.b32-b71dc632.ptx.txt",
            "../docs/log/gpu-2026-11-27-h/found-O2/match.any.sync.b64-26369c11.ptx.txt",
            "../docs/log/gpu-2026-11-27-h/found-O2/match.any.sync.b64-3d55dc9f.ptx.txt",
            "../docs/log/gpu-2026-11-27-h/found-O2/match.any.sync.b32-684c8953.ptx.txt",
            "../docs/log/gpu-2026-11-27-h/found-O2/redux.sync.add.s32-95b51c23.ptx.txt",
            "../docs/log/gpu-2026-11-27-h/found-O2/shfl.sync.bfly-13ffa1a9.ptx.txt",
            "../docs/log/gpu-2026-11-27-h/found-O2/shfl.sync.bfly-84d615aa.ptx.txt",
            "../docs/log/gpu-2026-11-27-h/found-O2/shfl.sync.idx-abaa1cb2.ptx.txt",
            "../docs/log/gpu-2026-11-27-h/found-O2/vote.sync.ballot-df8463a1.ptx.txt",
            "../docs/log/gpu-2026-11-27-h/found-O2/match.all.sync.b64-53adfd8b.ptx.txt",
            "../docs/log/gpu-2026-11-27-h/found-O1/match.all.sync.b32-48fd8572.ptx.txt",
            "../docs/log/gpu-2026-11-27-h/found-O1/match.all.sync.b64-6f12a67c.ptx.txt",
            "../docs/log/gpu-2026-11-27-h/found-O1/match.any.sync.b32-34a1afcd.ptx.txt",
            "../docs/log/gpu-2026-11-27-h/found-O1/redux.sync.add.u32-2c09f6b8.ptx.txt",
            "../docs/log/gpu-2026-11-27-h/found-O1/redux.sync.add.u32-cd894cf9.ptx.txt",
            "../docs/log/gpu-2026-11-27-h/found-O1/redux.sync.add.u32-ffb6c23e.ptx.txt",
            "../docs/log/gpu-2026-11-27-h/found-O1/abs.f32-411bc731.ptx.txt",
            "../docs/log/gpu-2026-11-27-h/found-O1/shfl.sync.bfly-027283a7.ptx.txt",
            "../docs/log/gpu-2026-11-27-h/found-O1/shfl.sync.bfly-29edbf06.ptx.txt",
            "../docs/log/gpu-2026-11-27-h/found-O1/shfl.sync.down-3b282ecb.ptx.txt",
            "../docs/log/gpu-2026-11-27-h/found-O1/shfl.sync.down-50aa3ca3.ptx.txt",
            "../docs/log/gpu-2026-11-27-h/found-O1/shfl.sync.idx-1f568e7c.ptx.txt",
            "../docs/log/gpu-2026-11-27-h/found-O1/shfl.sync.idx-ac72e37b.ptx.txt",
            "../docs/log/gpu-2026-11-27-h/found-O2/match.any.sync.b64-3db99160.ptx.txt",
            "../docs/log/gpu-2026-11-27-h/found-O1/match.any.sync.b32-bb874a83.ptx.txt",
            "../docs/log/gpu-2026-11-27-h/found-O1/redux.sync.add.s32-801a9c84.ptx.txt",
            "../docs/log/gpu-2026-11-27-h/found-O1/vote.sync.ballot-acb33d6f.ptx.txt",
            "../docs/log/gpu-2026-11-27-h/found-O2/match.all.sync.b32-767a1584.ptx.txt",
            "../docs/log/gpu-2026-11-27-h/found-O2/vote.sync.ballot-82703eba.ptx.txt",
            "../docs/log/gpu-2026-11-27-h/found-O2/shfl.sync.idx-fcc55c43.ptx.txt",
        ],
    ),
    (
        "N1",
        Some(Idiom::LoopWriteHoistedAboveExit),
        &[
            "setp.gt.s32-7181e72d.ptx",
            "repro/n1-loop-write-hoisted/case.ptx",
            // The 2026-11-27-h triage (docs/log/gpu-2026-11-27-h/triage.md):
            // found by session 8's `--avoid all` hunts, explained by the
            // widened detector, the widening decided on the H200.
            "../docs/log/gpu-2026-11-27-h/found-O1/setp.gt.s32-ef00434d.ptx.txt",
        ],
    ),
    (
        "N2",
        Some(Idiom::ShuffleOfShuffledImmediate),
        &[
            "shfl.sync.down-f8cd95db.ptx",
            "repro/n2-shuffle-of-shuffle/case.ptx",
        ],
    ),
    (
        "N3",
        Some(Idiom::LoopReadBeforeWrite),
        &[
            "mov.f32-af6984f1.ptx",
            "repro/n3-loop-read-before-write/case.ptx",
            // The H200's -O2 hunts of 2026-11-27-f, every other idiom
            // avoided: wrong from -O2 (not tried further); brev.b64 with no
            // write of the read register before the loop at all.
            "../docs/log/gpu-2026-11-27-f/found-h200-O2/min.f32-734338f8.ptx.txt",
            "../docs/log/gpu-2026-11-27-f/found-h200-O2/brev.b64-9b1fac2a.ptx.txt",
        ],
    ),
    (
        "N4",
        Some(Idiom::RepeatAfterOneSidedWrite),
        &[
            "sub.s32-653c4955.ptx",
            "repro/n4-one-sided-write/case.ptx",
            // Triage group G6 (2026-11-27): wrong from -O2 on the H200, right
            // at every level with an entry value for the one-sided register.
            "../docs/log/gpu-2026-11-27/triage/n4-one-sided-write.ptx.txt",
            // Found again 2026-11-27-e (-O2), and its reductions by hand:
            // each wrong from -O2, without the exit or the shfl.sync too.
            "../docs/log/gpu-2026-11-27-e/found/w-setp.le.s32-64a5f55a.ptx.txt",
            "../docs/log/gpu-2026-11-27-e/experiments/n4-ctr.orig.ptx.txt",
            "../docs/log/gpu-2026-11-27-e/experiments/n4-ctr.reduced.ptx.txt",
            "../docs/log/gpu-2026-11-27-e/experiments/n4-ctr.reduced-no-exit.ptx.txt",
            "../docs/log/gpu-2026-11-27-e/experiments/n4-ctr.reduced-no-shfl.ptx.txt",
            // The H200's -O2 hunts of 2026-11-27-f, every other idiom
            // avoided: each wrong from -O2 (not tried further); the last
            // repeats `and.b32 %ctr0, %b6, 3` of an input register.
            "../docs/log/gpu-2026-11-27-f/found-h200-O2/and.b32-84cfdf0d.ptx.txt",
            "../docs/log/gpu-2026-11-27-f/found-h200-O2/setp.le.s32-6a520780.ptx.txt",
            "../docs/log/gpu-2026-11-27-f/found-h200-O2/sub.s32-3e34adc7.ptx.txt",
            "../docs/log/gpu-2026-11-27-f/found-h200-O2/sub.s32-3f6415ad.ptx.txt",
            "../docs/log/gpu-2026-11-27-f/found-h200-O2-b/setp.le.s32-73159738.ptx.txt",
            // The 2026-11-27-h triage (docs/log/gpu-2026-11-27-h/triage.md):
            // found by session 8's `--avoid all` hunts, explained by the
            // widened detector, the widening decided on the H200.
            "../docs/log/gpu-2026-11-27-h/found-O2/setp.ne.b32-ca2e022b.ptx.txt",
        ],
    ),
    (
        "S1",
        Some(Idiom::ShiftAmountConvertedFromF32),
        &[
            "shr.u64-fb04d2e7.ptx",
            "repro/s1-f2i-shift-amount/case.ptx",
            // A `neg.f32` writes the amount (the H100's perturbed run of
            // 2026-11-27-f; wrong at every level on the H100 and the H200).
            "shr.s64-66eee37a.ptx",
            "../docs/log/gpu-2026-11-27-f/experiments/s1-mov-f32.ptx.txt",
            // A `selp.f32` writes the amount (session 11's -O3 hunt, H200:
            // wrong at every level, -O0 too).
            "shl.b64-b0c622d7.ptx",
        ],
    ),
    (
        "hang",
        Some(Idiom::LoopGuardRewrittenHangs),
        &["hang-f7163bc7.ptx", "repro/hang-f7163bc7/case.ptx"],
    ),
    (
        "fault",
        Some(Idiom::ZeroMembermaskCollectiveFaults),
        &[
            "hang-7d93fc80.ptx",
            "repro/h100-fault-7d93fc80/case.ptx",
            // The same shape as a wrong value on the H200 (triage group
            // G10, 2026-11-27): without the mask-0 collective, or with the
            // vote's mask full, it agrees.
            "../docs/log/gpu-2026-11-27/triage/zero-mask-wrong-value.ptx.txt",
        ],
    ),
    (
        "N5",
        Some(Idiom::Shl64ImmediateAmountWraps),
        &[
            "shl.b64-e76daa37.ptx",
            "shl.b64-7ea77b79.ptx",
            "../docs/log/gpu-2026-11-27/triage/experiments/shl64-imm.amount-64.ptx.txt",
        ],
    ),
    (
        "N6",
        Some(Idiom::F32AddImmediatesTieMisrounded),
        &[
            "add.f32-6f3cd99b.ptx",
            // `sub.f32` ties (the H100's -O1 hunt of 2026-11-27-f).
            "sub.f32-e28ce7e3.ptx",
            "sub.f32-39d348dd.ptx",
        ],
    ),
    (
        "N7",
        Some(Idiom::PredicateRedefinedPastBranch),
        &[
            "mul.lo.u64-3af54cac.ptx",
            "mov.b64-6059a2c4.ptx",
            "selp.u64-3af54cac-unguarded.ptx",
            "selp.b64-6059a2c4-unguarded.ptx",
            // The 2026-11-27-h triage (docs/log/gpu-2026-11-27-h/triage.md):
            // found by session 8's `--avoid all` hunts, explained by the
            // widened detector, the widening decided on the H200.
            "../docs/log/gpu-2026-11-27-h/found-O2/mov.s64-1a2c1b7d.ptx.txt",
            "../docs/log/gpu-2026-11-27-h/found-O2/max.u64-329dcf95.ptx.txt",
            "../docs/log/gpu-2026-11-27-h/found-O2/mov.f32-d402eee3.ptx.txt",
            "../docs/log/gpu-2026-11-27-h/found-O1/max.f64-ba5bf9cf.ptx.txt",
            "../docs/log/gpu-2026-11-27-h/found-O1/cvt.rz.f64.s8-3e6401d2.ptx.txt",
            "../docs/log/gpu-2026-11-27-h/found-O2/mul.lo.u64-cb4d2f6b.ptx.txt",
        ],
    ),
    (
        "N8",
        Some(Idiom::BfeS32ImmediatePositionPastMsb),
        &[
            "bfe.s32-98ab3621.ptx",
            // The positions 233, 125, 253 and 135 (the H200's runs of
            // 2026-11-27-d; m2-bfe.s32-a12c5e65 is m1's program again).
            "../docs/log/gpu-2026-11-27-d/found/w-bfe.s32-945dd7ee.ptx.txt",
            "../docs/log/gpu-2026-11-27-d/found/w-bfe.s32-fd5c29cc.ptx.txt",
            "../docs/log/gpu-2026-11-27-d/found/m1-bfe.s32-a12c5e65.ptx.txt",
            "../docs/log/gpu-2026-11-27-d/found/m2-bfe.s32-a4c71c79.ptx.txt",
        ],
    ),
    (
        "N9",
        Some(Idiom::Bfi32ImmediateLengthWraps),
        &[
            "bfi.b32-977bbe53.ptx",
            "bfi.b32-d914d391.ptx",
            // The length 33, then a `mov` (the reducer kept the form it
            // diverged on), and the length 65 again from the 90 s run
            // (m2-bfi.b32-575bc48d is the same program).
            "../docs/log/gpu-2026-11-27-d/found/w-mov.s32-d719ee08.ptx.txt",
            "../docs/log/gpu-2026-11-27-d/found/m1-bfi.b32-575bc48d.ptx.txt",
            // The length 32 (found 2026-11-27-e) and the experiment with
            // 64: both 0 mod 32, both wrong from -O1.
            "../docs/log/gpu-2026-11-27-e/found/w-bfi.b32-5bc7004e.ptx.txt",
            "../docs/log/gpu-2026-11-27-e/experiments/n9.len64.ptx.txt",
        ],
    ),
    (
        "N11",
        Some(Idiom::MovRecomputedAfterActivemaskRewrite),
        &[
            "cvt.u8.u32-3837dfe5.ptx",
            // The rewrite under a fresh predicate: still wrong from -O1.
            "../docs/log/gpu-2026-11-27-e/experiments/cvt-u8-late.fresh-guard.ptx.txt",
        ],
    ),
    (
        "N12",
        Some(Idiom::NarrowCvtKeepsStaleUpperHalf),
        &[
            "cvt.rni.s8.f32-7852faa9.ptx",
            // Each wrong from -O2 (the upper half the membermask's).
            "../docs/log/gpu-2026-11-27-e/experiments/cvt-s8-high.cvt-s16.ptx.txt",
            "../docs/log/gpu-2026-11-27-e/experiments/cvt-s8-high.cvt-u8.ptx.txt",
            "../docs/log/gpu-2026-11-27-e/experiments/cvt-s8-high.mask-other.ptx.txt",
            "../docs/log/gpu-2026-11-27-e/experiments/cvt-s8-high.minus-one.ptx.txt",
            // The 2026-11-27-h triage (docs/log/gpu-2026-11-27-h/triage.md):
            // found by session 8's `--avoid all` hunts, explained by the
            // widened detector, the widening decided on the H200.
            "../docs/log/gpu-2026-11-27-h/found-O1/cvt.rzi.s8.f32-69d939ba.ptx.txt",
        ],
    ),
    (
        "N13",
        Some(Idiom::CnotAmountOf16BitShift),
        &[
            "shr.b16-cnot-amount.ptx",
            // The crash case with one of its two collectives removed:
            // compiles, wrong from -O1.
            "../docs/log/gpu-2026-11-27-e/experiments/crash.no-match.ptx.txt",
            "../docs/log/gpu-2026-11-27-e/experiments/crash.no-vote.ptx.txt",
            // `cvt.sat.u16.u32` of the cnot (2026-11-27-f: reduced on the
            // H100 from the H200's 47058c4e, which is listed too).
            "cvt.sat.u16.u32-cnot.ptx",
            "../docs/log/gpu-2026-11-27-e/found/m1-cvt.sat.u16.u32-47058c4e.ptx.txt",
            // An 8-bit `cvt.sat` of the cnot (session 6's H200 -O2 hunt,
            // explained in session 8: docs/log/gpu-2026-11-27-h/exp8c/j1).
            "../docs/log/gpu-2026-11-27-f/found-h200-O2-b/cvt.rn.f32.u32-e1549039.ptx.txt",
        ],
    ),
    (
        "N14",
        Some(Idiom::CnotShift16CrashesPtxas),
        &[
            "engine-failed-1d47c952.ptx",
            "engine-failed-f62eea63.ptx",
            // ptxas exit 139 at -O1 and -O3 on each (ptxas.txt).
            "../docs/log/gpu-2026-11-27-e/experiments/crash.shl-b16.ptx.txt",
            "../docs/log/gpu-2026-11-27-e/experiments/crash.value-reg.ptx.txt",
            "../docs/log/gpu-2026-11-27-e/experiments/crash.cnot-of-input.ptx.txt",
        ],
    ),
    (
        "N15",
        Some(Idiom::LoopCopyOfNeverWrittenReplacesMerge),
        &[
            "activemask-e9a8567e.ptx",
            "repro/n15-merge-replaced-by-never-written/case.ptx",
            "../docs/log/gpu-2026-11-27-e/found/w-activemask-e9a8567e.ptx.txt",
            // %laneid for the activemask: wrong from -O2.
            "../docs/log/gpu-2026-11-27-e/experiments/merge-undef.laneid.ptx.txt",
        ],
    ),
    (
        "N16",
        Some(Idiom::PopcOverwritesXorCopy),
        &[
            "xor.b64-a5b0dc52.ptx",
            "repro/n16-popc-overwrites-copy/case.ptx",
            "../docs/log/gpu-2026-11-27-e/found/w-xor.b64-a5b0dc52.ptx.txt",
        ],
    ),
    (
        "N17",
        Some(Idiom::AbsCompareFoldedIgnoringNan),
        &[
            "cvt.sat.s8.s32-491fa571.ptx",
            "mul.hi.s32-7b6e8bb9.ptx",
            "repro/n17-abs-nan-compare-folded/case.ptx",
            // Each wrong from -O1 on the H100 and the H200 (2026-11-27-f).
            "../docs/log/gpu-2026-11-27-f/experiments/n17-ge-zero.ptx.txt",
            "../docs/log/gpu-2026-11-27-f/experiments/n17-lt-swapped.ptx.txt",
            "../docs/log/gpu-2026-11-27-f/experiments/n17-neg-abs.ptx.txt",
        ],
    ),
    // Experiment 8 (2026-11-27): each reduced finding wrong from -O1 on the
    // H100; its variants are in `the_idioms_of_experiment_8_*` below.
    (
        "N18",
        Some(Idiom::AbsResultTakenAsNonNegative),
        &[
            "cvt.rz.f32.u16-18dd0967.ptx",
            // Session 8's H200 -O2 hunt: `0 < |0x8000|` folded to true.
            "../docs/log/gpu-2026-11-27-h/found-O2/setp.lt.and.s16-f9d590ad.ptx.txt",
        ],
    ),
    (
        "N19",
        Some(Idiom::UnpackHighHalfOfKnownValue),
        &["mov.b32-a3c20380.ptx"],
    ),
    (
        "N20",
        Some(Idiom::XorAllOnesOfKnownValue),
        &["xor.b32-9d79eba7.ptx"],
    ),
    (
        "N21",
        Some(Idiom::RoundedFtzCvtShift16LosesFlush),
        &["shr.s16-1d8328b8.ptx"],
    ),
    // Session 8: the driver's JIT crash at -O0 (H100 and H200), and abs of a
    // choice with -0.0 (H200; found by session 6's -O2 hunt).
    (
        "N22",
        Some(Idiom::VoteLoopTwoBackEdgesCrashesJitO0),
        &[
            "engine-failed-1613932f.ptx",
            "repro/n22-vote-loop-crashes-jit-O0/case.ptx",
        ],
    ),
    (
        "N23",
        Some(Idiom::AbsOfChoiceKeepsNegativeZero),
        &[
            "abs.f32-09057ed4.ptx",
            "repro/n23-abs-of-select-keeps-negative-zero/case.ptx",
        ],
    ),
    (
        "N24",
        Some(Idiom::MatchAllExitJoinCrashes),
        &[
            "engine-failed-30bca45c.ptx",
            "engine-failed-a4706223.ptx",
            "repro/n24-match-all-register-mask-exit-crashes/case.ptx",
            "../docs/log/gpu-2026-11-27-h/crash2/z0-found-O1.ptx.txt",
        ],
    ),
    (
        "N25",
        Some(Idiom::CnotPairNarrowCvtFromF64),
        &[
            "cvt.rmi.u8.f64-cnot64-twice.ptx",
            "repro/n25-cnot64-twice-narrow-cvt-from-f64/case.ptx",
        ],
    ),
    (
        "N26",
        Some(Idiom::PredicateCopyLostAfterMathCall),
        &[
            "mov.s32-85bb24ab.ptx",
            "repro/n26-predicate-copy-lost-after-math-call/case.ptx",
        ],
    ),
    // Session 11's rows (issue #35): the candidates MJ, N26X and OR64 of
    // the 2026-11-28-j triage, made N27, N28 and N29 by the H200's
    // transcripts (docs/log/gpu-2026-11-28-k/).
    (
        "N27",
        Some(Idiom::MatchAtJoinOfTwoPaths),
        &[
            "match.all.sync.b64-66cbd4dc.ptx",
            "match.any.sync.b64-925e3038.ptx",
            "repro/mj-match-at-join-of-two-paths/case.ptx",
        ],
    ),
    (
        "N28",
        Some(Idiom::PredicateCopyLostAtExit),
        &[
            "input-57155f24.ptx",
            "repro/n26x-predicate-copy-lost-at-exit/case.ptx",
        ],
    ),
    (
        "N29",
        Some(Idiom::Or64LowWordOnesDropsHighWord),
        &[
            "or.b64-306b84b5.ptx",
            "repro/or64-low-word-ones-drops-high-word/case.ptx",
        ],
    ),
    // Session 12's row: the two findings of session 11's -O3 hunt that
    // needed their batch, decided by the H200 (docs/log/gpu-2026-11-28-l/).
    (
        "N30",
        Some(Idiom::Bfind64OfNeverWrittenTakenAsUniform),
        &[
            "activemask-9ac0fd8e.ptx",
            "match.all.sync.b32-1087411f.ptx",
            "repro/ub64-bfind64-of-never-written/case.ptx",
            "repro/ub64-bfind64-of-never-written-match/case.ptx",
        ],
    ),
    // Session 13's rows: NZ of the 2026-11-28-l triage, decided by the
    // H200's variants (docs/log/gpu-2026-11-28-m/nz/).
    (
        "N33",
        Some(Idiom::NegF32ComputedAsInteger),
        &[
            "neg.f32-8ef1e843.ptx",
            "repro/nz-neg-f32-as-integer-negation/case.ptx",
        ],
    ),
    // LC: session 10's candidate, made N34 by the three-instruction
    // crashes of session 13's -O3 hunt (docs/log/gpu-2026-11-28-m/).
    (
        "N34",
        Some(Idiom::UnusedBallotAfterMathCallCrashesLinker),
        &[
            "engine-failed-8e0b1b75.ptx",
            "repro/lc-unused-ballot-after-math-call-crashes-linker/case.ptx",
        ],
    ),
    // Session 13's row: the candidate LR of sessions 11 and 12's triages
    // (docs/log/gpu-2026-11-28-k/, docs/log/gpu-2026-11-28-l/).
    (
        "N31",
        Some(Idiom::BallotGuardReadAfterLoopRewrite),
        &[
            "input-cc33e847.ptx",
            "fma.rn.f64-6d56780c.ptx",
            "repro/lr-guard-read-after-loop-rewrite/case.ptx",
        ],
    ),
    // Session 13's row (H44): SP, session 8's candidate, with session 12's
    // second finding (docs/log/gpu-2026-11-28-l/triage.md).
    (
        "N32",
        Some(Idiom::CollectiveUnderOutOfRangeShufflePredicate),
        &[
            "redux.sync.min.u32-938185ad.ptx",
            "redux.sync.add.s32-ba615066.ptx",
            "repro/sp-redux-under-out-of-range-shfl-predicate/case.ptx",
        ],
    ),
    // DV: session 13's default-level hunt, decided by the H200's variants
    // (docs/log/gpu-2026-11-28-m/dv/).
    (
        "N35",
        Some(Idiom::DivisorClobberedByDivCall),
        &[
            "neg.f32-dc2b107c.ptx",
            "repro/dv-divisor-clobbered-by-div-call/case.ptx",
        ],
    ),
];

/// The cases that hold a second bug's idiom as well, each with why: the
/// only pairs of a detector and another bug's case where it may fire.
const ALSO: &[(&str, Idiom, &str)] = &[
    (
        "sub.f32-27e7f0a1.ptx",
        Idiom::LoopWriteHoistedAboveExit,
        "N1's shape since 2026-11-27-h (an exit branched over in the loop, `@!%p1 bra L1; exit; \
         L1:`, then `setp.gt.s32 %lp0` with no value before the loop); the lanes that leave there \
         leave in the first trip, where %lp0 has no value yet, so a hoisted write cannot show",
    ),
    (
        "hang-fault-h200.ptx",
        Idiom::GuardFoldedAfterExit,
        "`@%p0 exit`, then a loop that writes %p0 (setp's |%p0) and reads it (the shfl's guard); \
         with the guard folded, the reference sends lane 2 into the mask-0 shfl.sync: the fault",
    ),
    (
        "hang-f7163bc7.ptx",
        Idiom::GuardFoldedAfterExit,
        "`@!%p1 exit`, then a loop whose collective writes and reads %p1; with its guard folded \
         to true the reference reports sync-deadlock: the hang",
    ),
    (
        "repro/hang-f7163bc7/case.ptx",
        Idiom::GuardFoldedAfterExit,
        "the same program as hang-f7163bc7.ptx",
    ),
    (
        "hang-7d93fc80.ptx",
        Idiom::UnusedCollectiveSplitsWarp,
        "the reduction left the per-lane vote.sync.uni unread before full-mask collectives; the \
         unreduced program, generated with every idiom avoided, read its result",
    ),
    (
        "repro/h100-fault-7d93fc80/case.ptx",
        Idiom::UnusedCollectiveSplitsWarp,
        "the same program as hang-7d93fc80.ptx",
    ),    (
        "engine-failed-1d47c952.ptx",
        Idiom::CnotAmountOf16BitShift,
        "N14's shape is N13's with two .sync collectives before the shift: without one of them the module compiles and the value is wrong (crash.no-match, crash.no-vote)",
    ),
    (
        "engine-failed-f62eea63.ptx",
        Idiom::CnotAmountOf16BitShift,
        "N14's shape is N13's with two .sync collectives before the shift: without one of them the module compiles and the value is wrong (crash.no-match, crash.no-vote)",
    ),
    (
        "../docs/log/gpu-2026-11-27-e/experiments/crash.shl-b16.ptx.txt",
        Idiom::CnotAmountOf16BitShift,
        "N14's shape is N13's with two .sync collectives before the shift: without one of them the module compiles and the value is wrong (crash.no-match, crash.no-vote)",
    ),
    (
        "../docs/log/gpu-2026-11-27-e/experiments/crash.value-reg.ptx.txt",
        Idiom::CnotAmountOf16BitShift,
        "N14's shape is N13's with two .sync collectives before the shift: without one of them the module compiles and the value is wrong (crash.no-match, crash.no-vote)",
    ),
    (
        "../docs/log/gpu-2026-11-27-e/experiments/crash.cnot-of-input.ptx.txt",
        Idiom::CnotAmountOf16BitShift,
        "N14's shape is N13's with two .sync collectives before the shift: without one of them the module compiles and the value is wrong (crash.no-match, crash.no-vote)",
    ),
];

#[test]
fn every_detector_fires_on_its_bugs_cases_and_on_no_other_bugs() {
    for (file, idiom, why) in ALSO {
        assert!(
            BUGS.iter().any(|(_, _, files)| files.contains(file)),
            "ALSO names {file}, no bug's case ({why})"
        );
        assert!(
            !BUGS
                .iter()
                .any(|(_, d, files)| *d == Some(*idiom) && files.contains(file)),
            "ALSO names {file} for {}, which is its own bug's",
            idiom.name()
        );
    }
    let mut wrong = Vec::new();
    let mut pairs = 0;
    for &(bug, detector, _) in BUGS {
        let Some(detector) = detector else { continue };
        for &(case_bug, case_detector, files) in BUGS {
            for &file in files {
                let case = corpus_case(file);
                let fires = detector.find(&case.program).is_some();
                // With the case's inputs (its `.lanes` registers have entry
                // values) the answer is the same on every bug's case.
                if detector.find_in_case(&case.program, &case.inputs).is_some() != fires {
                    wrong.push(format!(
                        "{bug}'s detector {} on {file}: find and find_in_case differ",
                        detector.name()
                    ));
                }
                let own = case_detector == Some(detector);
                let also = ALSO.iter().any(|&(f, i, _)| f == file && i == detector);
                pairs += 1;
                if fires != (own || also) {
                    wrong.push(format!(
                        "{bug}'s detector {} {} on {file} ({case_bug}'s case{})",
                        detector.name(),
                        if fires { "fires" } else { "does not fire" },
                        if also { ", listed in ALSO" } else { "" },
                    ));
                }
            }
        }
    }
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
    // 40 detectors, 186 cases.
    assert_eq!(pairs, 40 * 186);
    // Every detector is someone's: none is left out of the matrix.
    for idiom in Idiom::ALL {
        assert!(
            BUGS.iter().any(|(_, d, _)| *d == Some(idiom)),
            "{} has no cases in BUGS",
            idiom.name()
        );
    }
}

/// Removes instruction `k` as the generator does under `--avoid`, labels
/// kept before the instructions they stood before.
fn remove(prog: &mut Program, k: usize) {
    prog.insts.remove(k);
    for l in prog.labels.iter_mut() {
        if l.at > k {
            l.at -= 1;
        }
    }
}

#[test]
fn removing_what_each_detector_names_takes_its_idiom_away() {
    for &(bug, detector, files) in BUGS {
        let Some(detector) = detector else { continue };
        for &file in files {
            let mut prog = corpus_file(file);
            let n = prog.insts.len();
            let mut removed = 0;
            while let Some(k) = detector.find(&prog) {
                assert!(k < prog.insts.len(), "{bug} {file}: index {k}");
                remove(&mut prog, k);
                removed += 1;
                assert!(removed <= n, "{bug} {file}: {} never goes", detector.name());
            }
            assert!(removed >= 1, "{bug} {file}");
        }
    }
}

#[test]
fn the_hardware_cases_have_no_idiom() {
    for file in [
        "scan-up-sync-h200",
        "rscan-down-sync-h200",
        "bfly-sync-h200",
        "legacy-shfl-vote-h200",
        "activemask-split-after-groups-h200",
        "cases/sync-wait-exit-later-h200",
        "cases/sync-other-instruction-h200",
        // The experiments of 2026-11-27 that took a new bug's idiom away:
        // each agrees with the reference at every level on the H200.
        "cases/shl64-amount-63-h200",
        "cases/shl64-amount-in-register-h200",
        "cases/f32-add-tie-operand-in-register-h200",
        "cases/f32-add-not-a-tie-h200",
        "cases/pred-read-mov-renamed-h200",
        "cases/pred-read-mul-renamed-h200",
    ] {
        assert_eq!(idioms(&corpus(file)), [], "{file}");
    }
}

#[test]
fn where_each_idiom_is_and_what_removing_takes_away() {
    // The collective that redefines the guard is the one to remove; a
    // label between the two makes it no idiom.
    let p = parse(".reg .pred p;\n.reg .b32 r;\n@p add.u32 r, r, 1;\n@p vote.sync.any.pred p, p, 0xffffffff;\n")
        .expect("parses")
        .program;
    assert_eq!(Idiom::GuardRedefinedByCollective.find(&p), Some(1));
    let p = parse(
        ".reg .pred p;\n.reg .b32 r;\n@p add.u32 r, r, 1;\nvote.sync.any.pred p, p, 0xffffffff;\n",
    )
    .expect("parses")
    .program;
    assert_eq!(
        Idiom::GuardRedefinedByCollective.find(&p),
        None,
        "unguarded: the scan"
    );
    // A label that a branch from before the guarded instruction targets
    // (another path joins) makes it no idiom; one no branch targets does
    // not (2026-11-27-h: `k1-label.targeted-label` right, `k1-label.found`
    // wrong on the H200).
    let p = parse(".reg .pred p, q;\n.reg .b32 r;\n@q bra L;\n@p add.u32 r, r, 1;\nL: @p vote.sync.any.pred p, p, 0xffffffff;\n")
        .expect("parses")
        .program;
    assert_eq!(Idiom::GuardRedefinedByCollective.find(&p), None);
    let p = parse(".reg .pred p;\n.reg .b32 r;\n@p add.u32 r, r, 1;\nL: @p vote.sync.any.pred p, p, 0xffffffff;\n")
        .expect("parses")
        .program;
    assert_eq!(Idiom::GuardRedefinedByCollective.find(&p), Some(1));
    // A match whose result is read later is no idiom, nor one whose
    // result is stored at the end (2026-11-27-h: `k5-movimm.vote-result-read`
    // right at every level on the H200); one overwritten unread is.
    let src = ".reg .b32 r, s;\nmatch.any.sync.b32 r, 0, 0x0000ffff;\nredux.sync.add.u32 s, 1, 0xffffffff;\n";
    let k5 =
        |src: &str| Idiom::UnusedCollectiveSplitsWarp.find(&parse(src).expect("parses").program);
    assert_eq!(k5(&format!("{src}mov.b32 r, 0;\n")), Some(0));
    assert_eq!(k5(src), None, "stored at the end");
    assert_eq!(k5(&format!("{src}add.u32 s, s, r;\nmov.b32 r, 0;\n")), None);
    // A read by an instruction whose results are all sinks is no read.
    assert_eq!(k5(&format!("{src}mov.b32 _, r;\nmov.b32 r, 0;\n")), Some(0));
    for idiom in Idiom::ALL {
        assert_eq!(Idiom::from_name(idiom.name()), Some(idiom));
    }
    assert_eq!(Idiom::from_name("nope"), None);
    assert_eq!(
        Idiom::from_name("unused-match-splits-warp"),
        Some(Idiom::UnusedCollectiveSplitsWarp),
        "the older name, in corpus headers"
    );
}

/// The shapes the H200 hunt of 2026-11-23 showed beyond the first
/// findings of each bug (reduced cases; their SASS is quoted in the issue
/// #16 note): each is recognised by its widened idiom.
#[test]
fn the_widened_idioms_recognise_the_later_findings() {
    let prog = |src: &str| parse(src).expect("parses").program;
    // K1 under another guard: `@!%p0 add`, then `@!%p4 vote.sync.uni %p0`
    // (ptxas: VOTE.EQ P0, !P0, then SEL R2, R2, RZ, P0 for the add).
    let k1 = prog(
        ".reg .u64 %rd1;\n.reg .pred %p0, %p1, %p3, %p4;\n    @!%p3 exit;\n    @!%p0 add.s64 %rd1, 0, 0;\n    @!%p4 vote.sync.uni.pred %p0, !%p1, 9;\n    @!%p4 vote.sync.ballot.b32 _, %p0, 9;\n",
    );
    assert_eq!(Idiom::GuardRedefinedByCollective.find(&k1), Some(2));
    // K2 through a branch to an exit: `@%p1 bra L0; ... L0: exit`, then a
    // loop that writes and reads %p1.
    let k2 = prog(
        ".reg .u32 %r2;\n.reg .f32 %f0;\n.reg .pred %p1, %p3, %lp0;\n.reg .s32 %ctr0;\n    @%p1 bra L0;\n    bra L1;\nL0:\n    exit;\nL1:\n    mov.s32 %ctr0, 6;\nL2:\n    sub.s32 %ctr0, %ctr0, 1;\n    @!%p1 shfl.sync.down.b32 %r2, %f0, 0, 0, 0xffffffff;\n    @!%p3 shfl.sync.down.b32 %f0|%p1, 0, 0, 0, 0x1ffff;\n    setp.gt.s32 %lp0, %ctr0, 0;\n    @%lp0 bra L2;\n",
    );
    assert_eq!(Idiom::GuardFoldedAfterExit.find(&k2), Some(6));
    // K5 with an unused `vote.sync.uni` in disjoint groups before a
    // full-mask shuffle (ptxas: WARPSYNC.EXCLUSIVE R5, then SHFL.IDX).
    let k5 = prog(
        ".reg .b32 %b0, %m2;\n.reg .pred %p1;\n    vote.sync.uni.pred _, %p1, %m2;\n    shfl.sync.idx.b32 %b0, 1, 0, 0, 0xffffffff;\n",
    );
    assert_eq!(Idiom::UnusedCollectiveSplitsWarp.find(&k5), Some(0));
    // ... but not when the vote's result is read.
    let read = prog(
        ".reg .b32 %b0, %m2;\n.reg .pred %p1, %q;\n    vote.sync.uni.pred %q, %p1, %m2;\n    shfl.sync.idx.b32 %b0, 1, 0, 0, 0xffffffff;\n    @%q mov.b32 %b0, 0;\n",
    );
    assert_eq!(Idiom::UnusedCollectiveSplitsWarp.find(&read), None);
    // N1 needs a write after the exit to a register the loop is the first
    // to write; one written before the loop is no idiom.
    let n1 = ".reg .pred %p1, %lp0;\n.reg .s32 %ctr0;\nL0:\n    sub.s32 %ctr0, %ctr0, 1;\n    @!%p1 exit;\n    setp.gt.s32 %lp0, %ctr0, 0;\n    @%lp0 bra L0;\n";
    assert_eq!(Idiom::LoopWriteHoistedAboveExit.find(&prog(n1)), Some(1));
    let before = ".reg .pred %p1, %lp0;\n.reg .s32 %ctr0;\n    setp.gt.s32 %lp0, %ctr0, 0;\nL0:\n    @!%p1 exit;\n    setp.gt.s32 %lp0, %ctr0, 0;\n    @%lp0 bra L0;\n";
    assert_eq!(Idiom::LoopWriteHoistedAboveExit.find(&prog(before)), None);
    // N2 needs a first shuffle that can read an exited or non-member lane.
    let n2 = ".reg .b32 %b1, %s2;\n    shfl.sync.bfly.b32 %b1, 1, 1, 0, 0xffffffff;\n    shfl.sync.down.b32 %s2, %b1, 1, 0x1f, 0xffffffff;\n";
    assert_eq!(Idiom::ShuffleOfShuffledImmediate.find(&prog(n2)), None);
    let n2_partial = n2.replacen("0xffffffff", "0xb6db6db6", 1);
    assert_eq!(
        Idiom::ShuffleOfShuffledImmediate.find(&prog(&n2_partial)),
        Some(1)
    );
}

/// The three idioms added for S1 and the hang and fault shapes: where
/// each is, and the changes that take it away (the other half of the
/// shape missing).
#[test]
fn the_shift_hang_and_fault_idioms_need_their_whole_shape() {
    let prog = |src: &str| parse(src).expect("parses").program;
    // S1: the shift is found through the mov.f32 that writes its amount,
    // anywhere in the program; the mov is what removing takes away.
    let s1 = ".reg .b32 %b1;\n.reg .u64 %rd2;\n    mov.f32 %b1, 0f00000001;\n    shr.u64 %rd2, 1, %b1;\n";
    assert_eq!(Idiom::ShiftAmountConvertedFromF32.find(&prog(s1)), Some(0));
    let later = ".reg .b32 %b1;\n.reg .u64 %rd2;\n    shl.b64 %rd2, 1, %b1;\n    mov.f32 %b1, 0f3f800000;\n";
    assert_eq!(
        Idiom::ShiftAmountConvertedFromF32.find(&prog(later)),
        Some(1)
    );
    for (why, src) in [
        (
            "a 32-bit shift",
            s1.replace(".u64 %rd2", ".u32 %rd2")
                .replace("shr.u64", "shr.u32"),
        ),
        (
            "a mov.b32 write",
            s1.replace("mov.f32 %b1, 0f00000001", "mov.b32 %b1, 1"),
        ),
        ("an immediate amount", s1.replace("1, %b1", "1, 1")),
    ] {
        assert_eq!(
            Idiom::ShiftAmountConvertedFromF32.find(&prog(&src)),
            None,
            "{why}"
        );
    }
    // The hang: the guarded collective in the loop is what is named.
    let hang = corpus("hang-f7163bc7");
    assert_eq!(Idiom::LoopGuardRewrittenHangs.find(&hang), Some(2));
    let text = std::fs::read_to_string(format!(
        "{}/../corpus/hang-f7163bc7.ptx",
        env!("CARGO_MANIFEST_DIR")
    ))
    .expect("reads");
    for (why, from, to) in [
        (
            "no collective after the loop",
            "    shfl.sync.idx.b32 _, 0, 0, 0, 0xa0000000;\n",
            "",
        ),
        (
            "a mask-0 collective after the loop",
            "0, 0xa0000000;\n.expect",
            "0, 0;\n.expect",
        ),
        (
            "an unguarded collective",
            "    @%p1 shfl.sync.up",
            "    shfl.sync.up",
        ),
        ("a guard the loop does not write", "_|%p1, 0, 1", "_, 0, 1"),
    ] {
        assert!(text.contains(from), "{why}: {from}");
        let p = parse(&text.replacen(from, to, 1)).expect("parses").program;
        assert_eq!(Idiom::LoopGuardRewrittenHangs.find(&p), None, "{why}");
    }
    // Written by another instruction of the loop, after the collective.
    let other = ".reg .pred %p1, %lp0;\n.reg .s32 %ctr0;\nL0:\n    @%p1 vote.sync.any.pred _, %p1, 0xffffffff;\n    setp.gt.s32 %p1, %ctr0, 3;\n    sub.s32 %ctr0, %ctr0, 1;\n    setp.gt.s32 %lp0, %ctr0, 0;\n    @%lp0 bra L0;\n    redux.sync.add.u32 _, 1, 0xffffffff;\n";
    assert_eq!(Idiom::LoopGuardRewrittenHangs.find(&prog(other)), Some(0));
    // The fault: the mask-0 collective is what is named; both halves are
    // needed (the case's header: without either it agrees).
    let fault = corpus("hang-7d93fc80");
    assert_eq!(
        Idiom::ZeroMembermaskCollectiveFaults.find(&fault),
        Some(fault.insts.len() - 1)
    );
    let mut no_vote = fault.clone();
    remove(&mut no_vote, 1);
    assert_eq!(Idiom::ZeroMembermaskCollectiveFaults.find(&no_vote), None);
    let mut no_tail = fault.clone();
    remove(&mut no_tail, fault.insts.len() - 1);
    assert_eq!(Idiom::ZeroMembermaskCollectiveFaults.find(&no_tail), None);
    // The mask-0 collective before the register-mask one is no idiom (K5's
    // case has them in that order).
    let before =
        ".reg .b32 %m0;\n    redux.sync.add.s32 _, 0, 0;\n    redux.sync.max.s32 _, 0, %m0;\n";
    assert_eq!(
        Idiom::ZeroMembermaskCollectiveFaults.find(&prog(before)),
        None
    );
}

/// The three idioms of the H200's findings of 2026-11-27 (N5, N6, N7):
/// where each is, and the changes that take it away (the experiments that
/// made each divergence go away, and the other halves of each shape).
#[test]
fn the_idioms_of_2026_11_27_need_their_whole_shape() {
    let prog = |src: &str| parse(src).expect("parses").program;
    // N5: the shift is what is named; an amount of 63, an amount in a
    // register and a 32-bit shift are no idiom.
    let n5 = ".reg .b64 %bd2;\n.reg .s64 %sd2, %sd3;\n.reg .u32 %r9;\n    mul.lo.s64 %sd2, 1, %sd3;\n    shl.b64 %bd2, %sd2, 64;\n";
    assert_eq!(Idiom::Shl64ImmediateAmountWraps.find(&prog(n5)), Some(1));
    for (why, src) in [
        ("the amount 63", n5.replace(", 64;", ", 63;")),
        ("the amount in a register", n5.replace(", 64;", ", %r9;")),
        (
            "a 32-bit shift",
            n5.replace("shl.b64 %bd2, %sd2, 64", "shl.b32 %r9, %r9, 64"),
        ),
    ] {
        assert_eq!(
            Idiom::Shl64ImmediateAmountWraps.find(&prog(&src)),
            None,
            "{why}"
        );
    }
    // N6: two immediates whose exact sum is a tie, in either order; the
    // experiments' no-tie and register operand are no idiom, nor is an
    // exact sum.
    let n6 = ".reg .f32 %f1, %f2;\n    add.f32 %f1, 0f41a00000, 0fccb60e96;\n";
    assert_eq!(
        Idiom::F32AddImmediatesTieMisrounded.find(&prog(n6)),
        Some(0)
    );
    for (src, tie) in [
        ("add.f32 %f1, 0fccb60e96, 0f41a00000", true),
        // 1 + 2^-24: halfway between 1 and 1 + 2^-23.
        ("add.f32 %f1, 0f3f800000, 0f33800000", true),
        // 1 + 2^-25: below the midpoint.
        ("add.f32 %f1, 0f3f800000, 0f33000000", false),
        ("add.f32 %f1, 0f41980000, 0fccb60e96", false),
        ("add.f32 %f1, %f2, 0fccb60e96", false),
        ("add.f32 %f1, 0f3f800000, 0f3f800000", false),
        ("add.f32 %f1, 0f7f800000, 0f3f800000", false),
        // sub (2026-11-27-f): 20 - (-95450288) = 95450308, halfway
        // between 95450304 and 95450312.
        ("sub.f32 %f1, 0f41a00000, 0fccb60e96", true),
        ("sub.f32 %f1, 0f41980000, 0fccb60e96", false),
        ("sub.f32 %f1, 0f3f800000, 0fb3800000", true),
        ("mul.f32 %f1, 0f3f800000, 0f33800000", false),
    ] {
        let p = prog(&format!(".reg .f32 %f1, %f2;\n    {src};\n"));
        assert_eq!(
            Idiom::F32AddImmediatesTieMisrounded.find(&p).is_some(),
            tie,
            "{src}"
        );
    }
    // N7: the write of the predicate past the branch is what is named.
    let n7 = ".reg .b64 %bd1;\n.reg .pred %p0, %p2, %p5;\n    @%p2 mul.lo.u64 %bd1, 0, 0;\n    @!%p0 bra L2;\n    setp.lt.s32 %p2, 0, 0;\nL2:\n";
    assert_eq!(Idiom::PredicateRedefinedPastBranch.find(&prog(n7)), Some(2));
    // An unguarded collective writer too (2026-11-27-h: `n7-coll.found`
    // wrong on the H200 from -O1, with a fresh predicate right), and the
    // write on the taken side where the fall-through jumps to the join
    // (`n7-taken.found`).
    let vote = n7.replace(
        "setp.lt.s32 %p2, 0, 0",
        "vote.sync.any.pred %p2, %p0, 0xffffffff",
    );
    assert_eq!(
        Idiom::PredicateRedefinedPastBranch.find(&prog(&vote)),
        Some(2)
    );
    let taken = n7.replace(
        "    @!%p0 bra L2;\n    setp.lt.s32 %p2, 0, 0;\nL2:\n",
        "    @!%p0 bra L1;\n    bra L2;\nL1:\n    setp.lt.s32 %p2, 0, 0;\nL2:\n",
    );
    assert_eq!(
        Idiom::PredicateRedefinedPastBranch.find(&prog(&taken)),
        Some(3)
    );
    let selp = n7.replace("@%p2 mul.lo.u64 %bd1, 0, 0", "selp.u64 %bd1, 0, %bd1, %p2");
    assert_eq!(
        Idiom::PredicateRedefinedPastBranch.find(&prog(&selp)),
        Some(2),
        "a selector read, as the unguarded experiments"
    );
    for (why, src) in [
        (
            "a fresh predicate written",
            n7.replace("setp.lt.s32 %p2", "setp.lt.s32 %p5"),
        ),
        ("no branch", n7.replace("    @!%p0 bra L2;\n", "")),
        (
            "an unconditional branch",
            n7.replace("@!%p0 bra L2", "bra L2"),
        ),
        (
            "the write at the join",
            n7.replace(
                "    setp.lt.s32 %p2, 0, 0;\nL2:\n",
                "L2:\n    setp.lt.s32 %p2, 0, 0;\n",
            ),
        ),
        (
            "a guarded collective writer (K1's)",
            n7.replace(
                "setp.lt.s32 %p2, 0, 0",
                "@%p5 vote.sync.any.pred %p2, %p0, 0xffffffff",
            ),
        ),
        (
            "the result rewritten before the join",
            n7.replace(
                "    setp.lt.s32 %p2, 0, 0;\n",
                "    mov.b64 %bd1, 7;\n    setp.lt.s32 %p2, 0, 0;\n",
            ),
        ),
    ] {
        assert_eq!(
            Idiom::PredicateRedefinedPastBranch.find(&prog(&src)),
            None,
            "{why}"
        );
    }
}

/// The two bit-field idioms of the H200's run of 2026-11-27-d (N8, N9):
/// the instruction is what is named; an immediate inside the range, a
/// register operand and the types no case had are no idiom.
#[test]
fn the_bit_field_idioms_need_their_whole_shape() {
    let prog = |src: &str| parse(src).expect("parses").program;
    let regs = ".reg .s32 %s0;\n.reg .u32 %r0;\n.reg .s64 %sd0;\n.reg .b32 %b0;\n.reg .b64 %bd0;\n";
    let n8 = format!("{regs}    mov.b32 %b0, 1;\n    bfe.s32 %s0, %laneid, 65, 1;\n");
    assert_eq!(
        Idiom::BfeS32ImmediatePositionPastMsb.find(&prog(&n8)),
        Some(1)
    );
    for (src, fires) in [
        ("bfe.s32 %s0, %laneid, 32, 1", true),
        ("bfe.s32 %s0, %laneid, 253, 2", true),
        // The length 0: the ISA's sign bit is 0, and the H200 gives 0
        // (2026-11-27-e, experiment n8.len0).
        ("bfe.s32 %s0, %laneid, 253, 0", false),
        ("bfe.s32 %s0, %laneid, 31, 1", false),
        ("bfe.s32 %s0, %laneid, %r0, 1", false),
        ("bfe.u32 %r0, %laneid, 65, 1", false),
        ("bfe.s64 %sd0, %sd0, 65, 1", false),
        ("bfi.b32 %b0, 0, %laneid, 65, 1", false),
    ] {
        let p = prog(&format!("{regs}    {src};\n"));
        assert_eq!(
            Idiom::BfeS32ImmediatePositionPastMsb.find(&p).is_some(),
            fires,
            "{src}"
        );
    }
    let n9 = format!("{regs}    mov.b32 %b0, 1;\n    bfi.b32 %b0, 0, %laneid, 1, 65;\n");
    assert_eq!(Idiom::Bfi32ImmediateLengthWraps.find(&prog(&n9)), Some(1));
    for (src, fires) in [
        ("bfi.b32 %b0, 0, %laneid, 1, 33", true),
        ("bfi.b32 %b0, 0, %laneid, 40, 255", true),
        // The length 32 (0 mod 32): wrong on the H200 (2026-11-27-e).
        ("bfi.b32 %b0, 0, %laneid, 1, 32", true),
        ("bfi.b32 %b0, 0, %laneid, 1, 31", false),
        ("bfi.b32 %b0, 0, %laneid, 1, %r0", false),
        ("bfi.b64 %bd0, 0, %bd0, 1, 65", false),
        ("bfe.s32 %s0, %laneid, 1, 65", false),
    ] {
        let p = prog(&format!("{regs}    {src};\n"));
        assert_eq!(
            Idiom::Bfi32ImmediateLengthWraps.find(&p).is_some(),
            fires,
            "{src}"
        );
    }
}

#[test]
fn what_each_known_bug_does_to_a_run() {
    use Effect::*;
    for idiom in Idiom::ALL {
        let effects = idiom.effects();
        assert!(!effects.is_empty(), "{}", idiom.name());
        assert_eq!(
            idiom.may_stop_the_gpu(),
            effects.contains(&Hang) || effects.contains(&Fault),
            "{}",
            idiom.name()
        );
    }
    let stops: Vec<&str> = Idiom::ALL
        .into_iter()
        .filter(|i| i.may_stop_the_gpu())
        .map(Idiom::name)
        .collect();
    assert_eq!(
        stops,
        [
            "guard-folded-after-exit",
            "unused-collective-splits-warp",
            "loop-guard-rewritten-hangs",
            "zero-membermask-collective-faults"
        ]
    );
    // Each recorded hang and fault is explained by a known idiom with that
    // effect; a wrong value on them by none (they never finish).
    let hang = corpus("hang-f7163bc7");
    assert_eq!(
        known_for(&hang, Hang),
        [Idiom::GuardFoldedAfterExit, Idiom::LoopGuardRewrittenHangs]
    );
    assert_eq!(known_for(&hang, Fault), [Idiom::GuardFoldedAfterExit]);
    assert_eq!(
        known_for(&corpus("hang-fault-h200"), Fault),
        [Idiom::GuardFoldedAfterExit]
    );
    for file in ["hang-7d93fc80.ptx", "repro/h100-fault-7d93fc80/case.ptx"] {
        assert_eq!(
            known_for(&corpus_file(file), Fault),
            [Idiom::ZeroMembermaskCollectiveFaults],
            "{file}"
        );
    }
    // The fault shape also gives wrong values (the H200, triage group G10).
    assert_eq!(
        known_for(
            &corpus_file("../docs/log/gpu-2026-11-27/triage/zero-mask-wrong-value.ptx.txt"),
            WrongValue
        ),
        [Idiom::ZeroMembermaskCollectiveFaults]
    );
    // A wrong value on a K1 case is K1; a hang there is no known bug.
    let k1 = corpus("shl.b64-8b46bd59");
    assert_eq!(
        known_for(&k1, WrongValue),
        [Idiom::GuardRedefinedByCollective]
    );
    assert_eq!(known_for(&k1, Hang), []);
    // A compiler crash (an `engine-failed` finding whose compile died) on
    // the crash cases is N14 alone; a wrong value there is N13's (without
    // one of the two collectives the module compiles, wrong).
    for file in ["engine-failed-1d47c952.ptx", "engine-failed-f62eea63.ptx"] {
        let p = corpus_file(file);
        assert_eq!(
            known_for(&p, CompilerCrash),
            [Idiom::CnotShift16CrashesPtxas],
            "{file}"
        );
        assert_eq!(
            known_for(&p, WrongValue),
            [Idiom::CnotAmountOf16BitShift],
            "{file}"
        );
    }
    assert_eq!(known_for(&corpus("shr.b16-cnot-amount"), CompilerCrash), []);
}

/// An experiment case of 2026-11-27-e (`docs/log/gpu-2026-11-27-e/`).
fn experiment(name: &str) -> Program {
    corpus_file(&format!(
        "../docs/log/gpu-2026-11-27-e/experiments/{name}.ptx.txt"
    ))
}

#[test]
fn the_idioms_of_2026_11_27_e_need_their_whole_shape() {
    // Where each is: the rewriting activemask, the cvt, the shift.
    assert_eq!(
        Idiom::MovRecomputedAfterActivemaskRewrite.find(&corpus("cvt.u8.u32-3837dfe5")),
        Some(6)
    );
    assert_eq!(
        Idiom::NarrowCvtKeepsStaleUpperHalf.find(&corpus("cvt.rni.s8.f32-7852faa9")),
        Some(3)
    );
    assert_eq!(
        Idiom::CnotAmountOf16BitShift.find(&corpus("shr.b16-cnot-amount")),
        Some(1)
    );
    assert_eq!(
        Idiom::CnotShift16CrashesPtxas.find(&corpus("engine-failed-1d47c952")),
        Some(3)
    );
    assert_eq!(
        Idiom::CnotShift16CrashesPtxas.find(&corpus("engine-failed-f62eea63")),
        Some(3)
    );
    // The H200's experiments that agreed at every level, where the
    // detector does not fire: each took away a part of the shape the
    // detector asks for.
    for (name, idiom) in [
        // The source rewritten by a mov, not an activemask; the mov
        // unguarded.
        (
            "cvt-u8-late.r0-written-77",
            Idiom::MovRecomputedAfterActivemaskRewrite,
        ),
        (
            "cvt-u8-late.mov-unguarded",
            Idiom::MovRecomputedAfterActivemaskRewrite,
        ),
        // No narrowing; the cvt unguarded; no shuffle.
        ("cvt-s8-high.cvt-s32", Idiom::NarrowCvtKeepsStaleUpperHalf),
        (
            "cvt-s8-high.cvt-unguarded",
            Idiom::NarrowCvtKeepsStaleUpperHalf,
        ),
        ("cvt-s8-high.no-shfl", Idiom::NarrowCvtKeepsStaleUpperHalf),
        // `and`/`not` for the cnot, a 32-bit shift, `shr.s16`.
        ("crash.amount-and", Idiom::CnotAmountOf16BitShift),
        ("crash.amount-not", Idiom::CnotAmountOf16BitShift),
        ("crash.shr-b32", Idiom::CnotAmountOf16BitShift),
        ("crash.shr-s16", Idiom::CnotAmountOf16BitShift),
        // One collective: compiles (and is N13's).
        ("crash.no-match", Idiom::CnotShift16CrashesPtxas),
        ("crash.no-vote", Idiom::CnotShift16CrashesPtxas),
        ("crash.no-collective", Idiom::CnotShift16CrashesPtxas),
        // N8 and N9: the length 0, a position or length in a register,
        // the other types, the length 31.
        ("n8.len0", Idiom::BfeS32ImmediatePositionPastMsb),
        ("n8.pos-reg", Idiom::BfeS32ImmediatePositionPastMsb),
        ("n8.pos31", Idiom::BfeS32ImmediatePositionPastMsb),
        ("n8.u32", Idiom::BfeS32ImmediatePositionPastMsb),
        ("n8.s64-pos65", Idiom::BfeS32ImmediatePositionPastMsb),
        ("n9.len31", Idiom::Bfi32ImmediateLengthWraps),
        ("n9.len-reg-32", Idiom::Bfi32ImmediateLengthWraps),
        ("n9.len-reg-65", Idiom::Bfi32ImmediateLengthWraps),
        ("n9.b64-len64", Idiom::Bfi32ImmediateLengthWraps),
        ("n9.b64-len65", Idiom::Bfi32ImmediateLengthWraps),
    ] {
        assert_eq!(idiom.find(&experiment(name)), None, "{name}");
    }
    // Experiments that agreed although the detector fires (a sufficient
    // shape, wider than the bug; each named in the idiom's documentation):
    // without the unrelated first activemask or the final ballot (N11), no
    // lane exiting or no xor before the shuffle (N12), and N9's lengths
    // whose value mod 32 covers bit 31 anyway, or the position 0.
    for (name, idiom) in [
        (
            "cvt-u8-late.no-first-activemask",
            Idiom::MovRecomputedAfterActivemaskRewrite,
        ),
        (
            "cvt-u8-late.no-ballot",
            Idiom::MovRecomputedAfterActivemaskRewrite,
        ),
        ("cvt-s8-high.no-exit", Idiom::NarrowCvtKeepsStaleUpperHalf),
        ("cvt-s8-high.no-xor", Idiom::NarrowCvtKeepsStaleUpperHalf),
        ("n9.len63", Idiom::Bfi32ImmediateLengthWraps),
        ("n9.len255", Idiom::Bfi32ImmediateLengthWraps),
        ("n9.pos0-len32", Idiom::Bfi32ImmediateLengthWraps),
    ] {
        assert!(idiom.find(&experiment(name)).is_some(), "{name}");
    }
}

/// A case as the fuzz loop makes it from a case seed
/// (`lower/warpdiff/src/fuzz/case.rs`, `case_from_seed`: 64 to 4063
/// bytes from the seed, a swarm `Config` from the first of them, then the
/// program), avoiding `avoid`; `None` when the bytes make no case or the
/// case has deliberate UB (inserted after the avoidance, and never
/// compared: the reference reports it, so no GPU runs it).
fn case_from_seed(seed: u64, avoid: &[Idiom]) -> Option<TestCase> {
    let mut r = Rng::new(seed);
    let len = 64 + r.index(4000);
    let bytes = r.bytes(len);
    let mut u = Unstructured::new(&bytes);
    let mut cfg = Config::arbitrary(&mut u).unwrap_or_default();
    cfg.avoid = avoid.to_vec();
    let mut stats = Stats::default();
    let tc = generate_with_stats(&mut u, &cfg, &mut stats).ok()?;
    (stats.ub_intended == 0).then_some(tc)
}

/// The case seeds these tests draw from.
fn seeds(n: usize) -> Vec<u64> {
    let mut r = Rng::new(0x1d10);
    (0..n).map(|_| r.next_u64()).collect()
}

#[test]
fn a_generator_avoiding_one_idiom_makes_none_of_it() {
    let seeds = seeds(240);
    // How many plain cases of the same seeds have each idiom: the check
    // below is not vacuous where they do.
    let mut plain = [0usize; Idiom::ALL.len()];
    for &seed in &seeds {
        if let Some(tc) = case_from_seed(seed, &[]) {
            for (n, idiom) in plain.iter_mut().zip(Idiom::ALL) {
                *n += usize::from(idiom.find(&tc.program).is_some());
            }
        }
    }
    // One stream per idiom, each on its own thread.
    let usable: Vec<usize> = std::thread::scope(|s| {
        let streams: Vec<_> = Idiom::ALL
            .into_iter()
            .map(|idiom| {
                let seeds = &seeds;
                s.spawn(move || {
                    let mut cases = 0;
                    for &seed in seeds {
                        let Some(tc) = case_from_seed(seed, &[idiom]) else {
                            continue;
                        };
                        cases += 1;
                        let held = idiom
                            .find(&tc.program)
                            .or_else(|| idiom.find_in_case(&tc.program, &tc.inputs));
                        assert_eq!(
                            held,
                            None,
                            "--avoid {} (case seed {seed:#x}):\n{}",
                            idiom.name(),
                            warp_core::text::print(&tc.to_case())
                        );
                    }
                    cases
                })
            })
            .collect();
        streams
            .into_iter()
            .map(|t| t.join().expect("no idiom left"))
            .collect()
    });
    for ((idiom, cases), n) in Idiom::ALL.into_iter().zip(usable).zip(plain) {
        assert!(cases > 200, "{}: {cases} usable cases", idiom.name());
        // S1's, the fault's and N6's shapes are rare in generated programs
        // (none in these seeds; N6 needs two immediates whose exact sum is
        // a tie; what their `find` names is checked on their cases
        // instead, above), and so is N5's since the generator draws 818
        // forms (a `shl.b64` by an immediate above 63: 7 of these 240
        // seeds with 246 forms, 2 with 818), and N8's and N9's (a `bfe.s32`
        // by an immediate position above 31, a `bfi.b32` by an immediate
        // length above 32: none in these seeds; the H200's 10-minute run
        // of 2026-11-27-d counted 11 divergences on the `bfe.s32` form and
        // 3 on `bfi` in 500,535 programs), and the four of 2026-11-27-e
        // (N11: 0 of these seeds, N12: 3, N13 and N14: 0; the H200's
        // 10-minute run found one program of each of N11 and N12 and one
        // of N14 in 376,518), and N17 (an ordered `setp.f32` of an
        // `abs.f32` against a constant that makes it true for every number:
        // 2 of the H100's 147,548 programs at -O1 of 2026-11-27-f),
        // and two of the four that need a register without a value (N15
        // and N16: 0 of these seeds; N3 is in 9, N4 in 9), and the four of
        // experiment 8 (N18 to N21: 0 of these seeds each), and N22, N23
        // and N24 (session 8: 0, 0 and 2 of these seeds), and N25 (session
        // 9: two 64-bit cnots in a row into a narrow cvt from .f64);
        // and session 11's N27, N28 and N29 (MJ, N26X, OR64: a `match` at
        // a join of two paths, a self-copy of a predicate guarding an
        // `exit` after a branch, a 64-bit `or`/`and` of a one-word mask in
        // a loop after an exit);
        // and session 13's N31 (LR: an unused full-mask ballot of a guard
        // and a loop that rewrites it; 0 of these seeds);
        // the others are common.
        let rare = matches!(
            idiom,
            Idiom::ShiftAmountConvertedFromF32
                | Idiom::ZeroMembermaskCollectiveFaults
                | Idiom::F32AddImmediatesTieMisrounded
                | Idiom::Shl64ImmediateAmountWraps
                | Idiom::BfeS32ImmediatePositionPastMsb
                | Idiom::Bfi32ImmediateLengthWraps
                | Idiom::MovRecomputedAfterActivemaskRewrite
                | Idiom::NarrowCvtKeepsStaleUpperHalf
                | Idiom::CnotAmountOf16BitShift
                | Idiom::CnotShift16CrashesPtxas
                | Idiom::AbsCompareFoldedIgnoringNan
                | Idiom::LoopCopyOfNeverWrittenReplacesMerge
                | Idiom::PopcOverwritesXorCopy
                | Idiom::AbsResultTakenAsNonNegative
                | Idiom::UnpackHighHalfOfKnownValue
                | Idiom::XorAllOnesOfKnownValue
                | Idiom::RoundedFtzCvtShift16LosesFlush
                | Idiom::VoteLoopTwoBackEdgesCrashesJitO0
                | Idiom::AbsOfChoiceKeepsNegativeZero
                | Idiom::MatchAllExitJoinCrashes
                | Idiom::CnotPairNarrowCvtFromF64
                | Idiom::PredicateCopyLostAfterMathCall
                | Idiom::MatchAtJoinOfTwoPaths
                | Idiom::PredicateCopyLostAtExit
                | Idiom::Or64LowWordOnesDropsHighWord
                | Idiom::Bfind64OfNeverWrittenTakenAsUniform
                | Idiom::NegF32ComputedAsInteger
                | Idiom::UnusedBallotAfterMathCallCrashesLinker
                | Idiom::BallotGuardReadAfterLoopRewrite
                | Idiom::CollectiveUnderOutOfRangeShufflePredicate
                | Idiom::DivisorClobberedByDivCall
        );
        assert!(
            rare || n >= 5,
            "{}: only {n} plain cases have it",
            idiom.name()
        );
    }
}

#[test]
fn a_generator_avoiding_every_idiom_makes_none() {
    let (mut found_without, mut cases) = (0, 0);
    for seed in seeds(400) {
        if let Some(tc) = case_from_seed(seed, &Idiom::ALL) {
            cases += 1;
            assert_eq!(
                idioms(&tc.program),
                [],
                "{}",
                warp_core::text::print(&tc.to_case())
            );
            assert_eq!(
                idioms_in_case(&tc.program, &tc.inputs),
                [],
                "{}",
                warp_core::text::print(&tc.to_case())
            );
        }
        if let Some(plain) = case_from_seed(seed, &[]) {
            found_without += usize::from(!idioms(&plain.program).is_empty());
        }
    }
    assert!(cases > 300, "{cases} usable cases");
    // The check is not vacuous: without --avoid the same seeds make idioms.
    assert!(found_without > 100, "{found_without} of 400 plain cases");
    // The plain `Config` (no swarm) avoids as well.
    let cfg = Config {
        avoid: Idiom::ALL.to_vec(),
        ..Config::default()
    };
    let mut rng = Rng::new(0x1d11);
    for _ in 0..100 {
        let bytes = rng.bytes(2048);
        let mut stats = Stats::default();
        let tc =
            generate_with_stats(&mut Unstructured::new(&bytes), &cfg, &mut stats).expect("a case");
        if stats.ub_intended == 0 {
            assert_eq!(
                idioms(&tc.program),
                [],
                "{}",
                warp_core::text::print(&tc.to_case())
            );
            assert_eq!(
                idioms_in_case(&tc.program, &tc.inputs),
                [],
                "{}",
                warp_core::text::print(&tc.to_case())
            );
        }
    }
}

/// The experiments of 2026-11-27-f (`docs/log/gpu-2026-11-27-f/`), run on
/// the H100 and the H200 at -O0 to -O4 and through ptxas -O3: those that
/// agreed at every level have none of the widened idioms or N17's, those
/// that diverged have theirs (in `BUGS`).
#[test]
fn the_idioms_of_2026_11_27_f_need_their_whole_shape() {
    let exp = |name: &str| {
        corpus_file(&format!(
            "../docs/log/gpu-2026-11-27-f/experiments/{name}.ptx.txt"
        ))
    };
    // Agreed at every level on both GPUs.
    for (name, idiom) in [
        // S1: the amount written by mov.b32, no .f32 writer.
        ("s1-mov-b32", Idiom::ShiftAmountConvertedFromF32),
        // N13: cvt without .sat, or the cvt.sat of an `and`.
        ("n13-cvt-nosat", Idiom::CnotAmountOf16BitShift),
        ("n13-cvt-sat-and", Idiom::CnotAmountOf16BitShift),
        // N17: a positive constant, no abs, `ne`.
        ("n17-pos-const", Idiom::AbsCompareFoldedIgnoringNan),
        ("n17-no-abs", Idiom::AbsCompareFoldedIgnoringNan),
        ("n17-ne-neg", Idiom::AbsCompareFoldedIgnoringNan),
    ] {
        assert!(
            idioms(&exp(name)).is_empty(),
            "{name} agreed: {:?}",
            idioms(&exp(name))
        );
        assert!(idiom.find(&exp(name)).is_none());
    }
    // Diverged from -O1 (at -O0 too for S1), each with its bug's idiom
    // alone.
    for (name, idiom) in [
        ("s1-neg-f32", Idiom::ShiftAmountConvertedFromF32),
        ("s1-mov-f32", Idiom::ShiftAmountConvertedFromF32),
        ("n6-sub-e28ce7e3", Idiom::F32AddImmediatesTieMisrounded),
        ("n13-cvt-sat", Idiom::CnotAmountOf16BitShift),
        ("n17-case", Idiom::AbsCompareFoldedIgnoringNan),
        ("n17-ge-zero", Idiom::AbsCompareFoldedIgnoringNan),
        ("n17-lt-swapped", Idiom::AbsCompareFoldedIgnoringNan),
        ("n17-neg-abs", Idiom::AbsCompareFoldedIgnoringNan),
    ] {
        assert_eq!(idioms(&exp(name)), vec![idiom], "{name}");
    }
    // N17's detector names the setp; N13's the cvt.sat; S1's the .f32
    // writer (the first instruction of each case below).
    assert_eq!(
        Idiom::AbsCompareFoldedIgnoringNan.find(&exp("n17-case")),
        Some(1)
    );
    assert_eq!(
        Idiom::CnotAmountOf16BitShift.find(&exp("n13-cvt-sat")),
        Some(1)
    );
    assert_eq!(
        Idiom::ShiftAmountConvertedFromF32.find(&exp("s1-neg-f32")),
        Some(0)
    );
    // The crash (N14) stays the shifts': a cvt.sat reader is N13 only.
    assert!(Idiom::CnotShift16CrashesPtxas
        .find(&exp("n13-cvt-sat"))
        .is_none());
}

/// N17's comparisons by hand: which constants make `|x| CMP c` (or
/// `-|x| CMP c`) true for every non-NaN x, from the ISA's ordered
/// comparisons; only those are the idiom.
#[test]
fn n17_fires_only_where_the_comparison_holds_for_every_number() {
    let case = |setp: &str, neg: bool| {
        let src = format!(
            ".version 9.1\n.target sm_90\n.reg .f32 %f0, %f1;\n.reg .pred %p0;\n    abs.f32 %f1, %f0;\n{}    {setp}\n",
            if neg { "    neg.f32 %f1, %f1;\n" } else { "" }
        );
        let prog = parse(&src)
            .unwrap_or_else(|e| panic!("{setp}: {e:?}"))
            .program;
        Idiom::AbsCompareFoldedIgnoringNan.find(&prog).is_some()
    };
    // |x| >= 0 for every number: gt with c < 0, ge with c <= 0 hold.
    assert!(case("setp.gt.f32 %p0, %f1, 0fbf800000;", false)); // > -1
    assert!(!case("setp.gt.f32 %p0, %f1, 0f80000000;", false)); // > -0: false at 0
    assert!(!case("setp.gt.f32 %p0, %f1, 0f00000000;", false)); // > 0: false at 0
    assert!(case("setp.ge.f32 %p0, %f1, 0f80000000;", false)); // >= -0
    assert!(case("setp.ge.f32 %p0, %f1, 0f00000000;", false)); // >= 0
    assert!(!case("setp.ge.f32 %p0, %f1, 0f00000001;", false)); // >= the least subnormal
    assert!(!case("setp.lt.f32 %p0, %f1, 0f7f800000;", false)); // < inf: false at inf
    assert!(!case("setp.gt.f32 %p0, %f1, 0fffc00000;", false)); // > NaN: never true
    assert!(!case("setp.eq.f32 %p0, %f1, 0fbf800000;", false));
    assert!(!case("setp.ne.f32 %p0, %f1, 0fbf800000;", false)); // agreed on both GPUs
                                                                // Swapped operands: c < |x| is |x| > c.
    assert!(case("setp.lt.f32 %p0, 0fbf800000, %f1;", false));
    assert!(case("setp.le.f32 %p0, 0f00000000, %f1;", false));
    assert!(!case("setp.gt.f32 %p0, 0fbf800000, %f1;", false));
    // -|x| <= -0 for every number: lt with c > 0, le with c >= 0 hold.
    assert!(case("setp.lt.f32 %p0, %f1, 0f3f800000;", true)); // < 1
    assert!(case("setp.le.f32 %p0, %f1, 0f00000000;", true)); // <= 0
    assert!(!case("setp.lt.f32 %p0, %f1, 0f00000000;", true)); // < 0: false at -0
    assert!(!case("setp.gt.f32 %p0, %f1, 0fbf800000;", true)); // > -1: false at -inf
}

/// A case file under `docs/log/`, by its path there (without `.ptx.txt`).
pub fn log_case(file: &str) -> Case {
    corpus_case(&format!("../docs/log/{file}.ptx.txt"))
}

/// The four idioms that need a register without a value (N3, N4, N15,
/// N16): where each is, and what the hardware experiments that agreed at
/// every level changed. An entry value (a `.lanes` line) is in the inputs,
/// not the program: `find` still fires there, `find_in_case` does not.
#[test]
fn the_never_written_idioms_need_their_whole_shape() {
    // Where each is: the read before the rewrite (`mov.f32 %b2, %f0`), the
    // repeat after the join (`and.b32 %ctr0, %laneid, 7`), the copy of the
    // never-written register (`mov.b32 %b4, %b3`; `mov.b64 %bd2, %bd1`).
    for (file, idiom, at) in [
        ("mov.f32-af6984f1.ptx", Idiom::LoopReadBeforeWrite, 3),
        ("sub.s32-653c4955.ptx", Idiom::RepeatAfterOneSidedWrite, 4),
        (
            "activemask-e9a8567e.ptx",
            Idiom::LoopCopyOfNeverWrittenReplacesMerge,
            5,
        ),
        ("xor.b64-a5b0dc52.ptx", Idiom::PopcOverwritesXorCopy, 6),
    ] {
        let case = corpus_case(file);
        assert_eq!(idiom.find(&case.program), Some(at), "{file}");
        assert_eq!(
            idiom.find_in_case(&case.program, &case.inputs),
            Some(at),
            "{file}"
        );
        assert_eq!(
            idioms_in_case(&case.program, &case.inputs),
            [idiom],
            "{file}: its bug's idiom alone"
        );
    }
    // Agreed at every level on the H200, the shape gone from the program:
    // the repeat by another expression of the same value (N4), a constant
    // for the activemask or no loop counter (N15), `xor` with 5 or no copy
    // of the never-written register (N16).
    for (file, idiom) in [
        (
            "gpu-2026-11-27/triage/experiments/n4.and-other-expression",
            Idiom::RepeatAfterOneSidedWrite,
        ),
        (
            "gpu-2026-11-27/triage/experiments/n4.setp-other-expression",
            Idiom::RepeatAfterOneSidedWrite,
        ),
        (
            "gpu-2026-11-27-e/experiments/n4-ctr.ctr1-div",
            Idiom::RepeatAfterOneSidedWrite,
        ),
        (
            "gpu-2026-11-27-e/experiments/merge-undef.const",
            Idiom::LoopCopyOfNeverWrittenReplacesMerge,
        ),
        (
            "gpu-2026-11-27-e/experiments/merge-undef.no-ctr",
            Idiom::LoopCopyOfNeverWrittenReplacesMerge,
        ),
        (
            "gpu-2026-11-27-e/experiments/xor64-undef.xor-5",
            Idiom::PopcOverwritesXorCopy,
        ),
        (
            "gpu-2026-11-27-e/experiments/xor64-undef.no-mov",
            Idiom::PopcOverwritesXorCopy,
        ),
    ] {
        let case = log_case(file);
        assert_eq!(idiom.find(&case.program), None, "{file}");
        assert_eq!(
            idioms_in_case(&case.program, &case.inputs),
            [],
            "{file} agreed"
        );
    }
    // Agreed at every level on the H200 with an entry value for the
    // register nothing wrote: the program alone still has the shape, the
    // case does not.
    for (file, idiom) in [
        (
            "gpu-2026-11-27/triage/experiments/n4.and-entry-value",
            Idiom::RepeatAfterOneSidedWrite,
        ),
        (
            "gpu-2026-11-27/triage/experiments/n4.setp-entry-value",
            Idiom::RepeatAfterOneSidedWrite,
        ),
        (
            "gpu-2026-11-27-e/experiments/n4-ctr.ctr0-entry",
            Idiom::RepeatAfterOneSidedWrite,
        ),
        (
            "gpu-2026-11-27-e/experiments/n4-ctr.reduced-ctr0-entry",
            Idiom::RepeatAfterOneSidedWrite,
        ),
        (
            "gpu-2026-11-27-e/experiments/merge-undef.b3-defined",
            Idiom::LoopCopyOfNeverWrittenReplacesMerge,
        ),
        (
            "gpu-2026-11-27-e/experiments/xor64-undef.bd1-defined",
            Idiom::PopcOverwritesXorCopy,
        ),
    ] {
        let case = log_case(file);
        assert!(idiom.find(&case.program).is_some(), "{file}");
        assert_eq!(
            idioms_in_case(&case.program, &case.inputs),
            [],
            "{file} agreed"
        );
    }
    // Agreed although the detector fires: N16 without the `max.f32` of a
    // never-written register before the loop (the detector does not ask
    // for it).
    let no_max = log_case("gpu-2026-11-27-e/experiments/xor64-undef.no-max");
    assert_eq!(
        idioms_in_case(&no_max.program, &no_max.inputs),
        [Idiom::PopcOverwritesXorCopy]
    );
}

/// N3's shape by hand, from its case: each part taken away (not run on a
/// GPU) takes the idiom away; the copy before the loop is not a part.
#[test]
fn n3_needs_the_copy_of_nothing_the_read_and_the_rewrite() {
    let case = corpus_case("mov.f32-af6984f1.ptx");
    let text = warp_core::text::print(&case);
    let n3 = |src: &str| {
        let c = parse(src).unwrap_or_else(|e| panic!("{e:?}\n{src}"));
        Idiom::LoopReadBeforeWrite.find_in_case(&c.program, &c.inputs)
    };
    assert_eq!(n3(&text), Some(3));
    let variants = [
        // %f2 given an entry value: the copy before the loop has a value.
        text.replacen(".lanes %ctr0", ".lanes %f2 = 0f00000002;\n.lanes %ctr0", 1),
        // The copy before the loop from a constant.
        text.replacen("mov.f32 %f0, %f2;", "mov.f32 %f0, 0f00000002;", 1),
        // The rewrite from the never-written register (no value either).
        text.replacen("mov.f32 %f0, 0f00000001;", "mov.f32 %f0, %f2;", 1),
        // The read after the rewrite.
        text.replacen(
            "    mov.f32 %b2, %f0;\n    mov.f32 %f0, 0f00000001;",
            "    mov.f32 %f0, 0f00000001;\n    mov.f32 %b2, %f0;",
            1,
        ),
    ];
    for v in &variants {
        assert_ne!(v, &text, "the variant changes the case");
        assert_eq!(n3(v), None, "{v}");
    }
    // The rewrite guarded: still the idiom since the triage of 2026-11-28-i
    // (`n3-guarded.found`, `n3-guarded2.found`: a guarded rewrite wrong
    // from -O2 on the H100, docs/log/gpu-2026-11-28-i/triage.md).
    let guarded = text.replacen(
        "mov.f32 %f0, 0f00000001;",
        "@%lp0 mov.f32 %f0, 0f00000001;",
        1,
    );
    assert_ne!(guarded, text);
    assert_eq!(n3(&guarded), Some(3));
    // Without the copy before the loop `%f0` is never written at its
    // entry: still the idiom (as in brev.b64-9b1fac2a of 2026-11-27-f).
    let no_copy = text.replacen("    mov.f32 %f0, %f2;\n", "", 1);
    assert_ne!(no_copy, text);
    assert_eq!(n3(&no_copy), Some(2));
}

/// N4's and N15's shapes by hand: the repeat must come at or after the
/// join, and the loop must leave before the copy by a test it computes.
#[test]
fn n4_and_n15_need_the_join_and_the_exit_test() {
    let prog = |src: &str| parse(src).expect("parses").program;
    let n4 = ".reg .pred %p3;\n.reg .s32 %ctr0, %ctr1;\n    @%p3 bra L0;\n    and.b32 %ctr0, %laneid, 7;\nL0:\n    and.b32 %ctr1, %laneid, 7;\n";
    assert_eq!(Idiom::RepeatAfterOneSidedWrite.find(&prog(n4)), Some(2));
    // No branch around the write: it is no one-sided write.
    let both = n4.replacen("    @%p3 bra L0;\n", "", 1);
    assert_eq!(Idiom::RepeatAfterOneSidedWrite.find(&prog(&both)), None);
    // The register written before the branch: a value on both sides.
    let before = n4.replacen(
        "    @%p3 bra L0;\n",
        "    mov.s32 %ctr0, 1;\n    @%p3 bra L0;\n",
        1,
    );
    assert_eq!(Idiom::RepeatAfterOneSidedWrite.find(&prog(&before)), None);
    // A constant repeated is no expression.
    let constant = n4.replace("%laneid, 7", "7");
    let constant = constant.replace("and.b32", "mov.b32");
    assert_eq!(Idiom::RepeatAfterOneSidedWrite.find(&prog(&constant)), None);
    // The repeat's source rewritten between: another value.
    let rewritten = ".reg .pred %p3;\n.reg .s32 %ctr0, %ctr1, %s0;\n    @%p3 bra L0;\n    and.b32 %ctr0, %s0, 7;\nL0:\n    mov.s32 %s0, 3;\n    and.b32 %ctr1, %s0, 7;\n";
    assert_eq!(Idiom::RepeatAfterOneSidedWrite.find(&prog(rewritten)), None);

    let n15 = ".reg .b32 %b3, %b4;\n.reg .pred %p4, %lp0;\n.reg .s32 %ctr0;\n    activemask.b32 %b4;\n    mov.s32 %ctr0, 1;\nL0:\n    setp.le.s32 %lp0, %ctr0, 0;\n    @%lp0 bra L1;\n    @!%p4 bra L2;\n    mov.b32 %b4, %b3;\n    bra L0;\nL1:\nL2:\n";
    assert_eq!(
        Idiom::LoopCopyOfNeverWrittenReplacesMerge.find(&prog(n15)),
        Some(5)
    );
    // The copy before the exits: lanes that leave have copied.
    let first = n15.replacen(
        "    setp.le.s32 %lp0, %ctr0, 0;\n",
        "    mov.b32 %b4, %b3;\n    setp.le.s32 %lp0, %ctr0, 0;\n",
        1,
    );
    let first = first.replacen("    mov.b32 %b4, %b3;\n    bra L0;", "    bra L0;", 1);
    assert_eq!(
        Idiom::LoopCopyOfNeverWrittenReplacesMerge.find(&prog(&first)),
        None
    );
    // %b4 never written before the loop: no entry value to merge.
    let no_entry = n15.replacen("    activemask.b32 %b4;\n", "", 1);
    assert_eq!(
        Idiom::LoopCopyOfNeverWrittenReplacesMerge.find(&prog(&no_entry)),
        None
    );
}

/// What a variant that ran on a GPU says of the detectors on the program
/// alone (no entry values), beside the case with its inputs (which must
/// always give exactly the bug's idiom where it diverged, none where it
/// agreed).
#[derive(Clone, Copy, PartialEq, Eq)]
pub enum Alone {
    /// The same idioms as with the inputs.
    Same,
    /// At least the bug's idiom where it diverged (more may hold without
    /// the entry values).
    Contains,
    /// Nothing (the idiom needs the case's inputs).
    Any,
}

/// The variants of `rows` (file, diverged on the GPU, what changed) where
/// `idiom`'s detector disagrees with the hardware, each as a line: with
/// the case's inputs the variant must hold exactly `idiom` if it diverged
/// and nothing if it agreed, plus the idioms `also` names for it (another
/// bug's detector taking the variant, with why); `alone` says what the
/// program without its inputs must hold. `load` reads a variant by name.
pub fn variant_mismatches(
    idiom: Idiom,
    rows: &[(&str, bool, &str)],
    load: impl Fn(&str) -> Case,
    also: &[(&str, Idiom, &str)],
    alone: Alone,
) -> Vec<String> {
    let mut wrong = Vec::new();
    for &(name, diverged, what) in rows {
        let case = load(name);
        let mut want = if diverged { vec![idiom] } else { vec![] };
        want.extend(also.iter().filter(|a| a.0 == name).map(|a| a.1));
        let in_case = idioms_in_case(&case.program, &case.inputs);
        let found = idioms(&case.program);
        let alone_wrong = match alone {
            Alone::Same => found != want,
            Alone::Contains => diverged && !found.contains(&idiom),
            Alone::Any => false,
        };
        if in_case != want || alone_wrong {
            wrong.push(format!(
                "{name} ({}: {what}): {} expected {want:?}, find_in_case {in_case:?}, find {found:?}",
                if diverged { "diverged" } else { "agreed" },
                idiom.name(),
            ));
        }
    }
    wrong
}

/// Prints, for every reduced finding (`*.ptx.txt`) in the folders `dirs`
/// of `docs/log/LOG/`, its `class:` line and the idioms every current
/// detector finds in it with its inputs (`idioms_in_case`) and as a
/// program alone (`idioms`), then the counts per folder of the first idiom
/// (or `none`); returns how many files it read.
pub fn print_triage(log: &str, dirs: &[&'static str]) -> usize {
    let root = format!("{}/../docs/log/{log}", env!("CARGO_MANIFEST_DIR"));
    let mut files = Vec::new();
    for &dir in dirs {
        for e in std::fs::read_dir(format!("{root}/{dir}")).expect("the folder") {
            let path = e.expect("an entry").path();
            if path.to_string_lossy().ends_with(".ptx.txt") {
                files.push((dir, path));
            }
        }
    }
    files.sort();
    let mut counts = std::collections::BTreeMap::<(&str, String), usize>::new();
    for (dir, path) in &files {
        let text = std::fs::read_to_string(path).expect("readable");
        let case = parse(&text).unwrap_or_else(|e| panic!("{}: {e:?}", path.display()));
        let with_inputs = idioms_in_case(&case.program, &case.inputs);
        let alone = idioms(&case.program);
        let names = |v: &[Idiom]| v.iter().map(|i| i.name()).collect::<Vec<_>>().join(", ");
        let first = |v: &[Idiom]| match v.first() {
            Some(i) => i.name().to_string(),
            None => "none".to_string(),
        };
        let class = text
            .lines()
            .find_map(|l| l.trim_start_matches("//").trim().strip_prefix("class:"))
            .unwrap_or("?")
            .trim();
        println!(
            "| {dir}/{} | {class} | {} | {} |",
            path.file_name().expect("a name").to_string_lossy(),
            names(&with_inputs),
            names(&alone)
        );
        *counts.entry((dir, first(&with_inputs))).or_default() += 1;
        *counts.entry(("all", first(&with_inputs))).or_default() += 1;
        *counts
            .entry(("all, program alone", first(&alone)))
            .or_default() += 1;
    }
    println!("{} files", files.len());
    for ((dir, idiom), n) in &counts {
        println!("{dir}\t{idiom}\t{n}");
    }
    let total: usize = counts
        .iter()
        .filter(|((d, _), _)| *d == "all")
        .map(|(_, n)| n)
        .sum();
    assert_eq!(total, files.len());
    files.len()
}

/// Triage of the reduced findings of 2026-11-27-f (the -O1 and -O2 hunts
/// with `--avoid all` of the then 18 idioms); run by hand:
/// `cargo test -p warp-core --test suite triage_of_the_found -- --ignored --nocapture`.
#[test]
#[ignore = "prints the triage table of docs/log/gpu-2026-11-27-f/README.md"]
fn triage_of_the_found_cases_of_2026_11_27_f() {
    let dirs = [
        "found-h100-O1",
        "found-h100-O1-b",
        "found-h200-O2",
        "found-h200-O2-b",
    ];
    assert!(print_triage("gpu-2026-11-27-f", &dirs) > 200);
}

/// The triage of session 8's `--avoid all` hunts (2026-11-27-h):
/// `found-O2/` (H200, the driver's JIT at -O2) and `found-O1/` (H100,
/// -O1); run by hand:
/// `cargo test -p warp-core --test suite triage_of_the_found_cases_of_2026_11_27_h -- --ignored --nocapture`.
#[test]
#[ignore = "prints the triage table of docs/log/gpu-2026-11-27-h/triage.md"]
fn triage_of_the_found_cases_of_2026_11_27_h() {
    assert_eq!(
        print_triage("gpu-2026-11-27-h", &["found-O2", "found-O1"]),
        70
    );
}

/// The idioms every detector finds in each experiment variant of the
/// 2026-11-27-h triage (`docs/log/gpu-2026-11-27-h/triage/experiments/`),
/// beside what `PREDICT.txt` says the hypothesis predicts; run by hand:
/// `cargo test -p warp-core --test suite idioms_of_the_triage_variants -- --ignored --nocapture`.
#[test]
#[ignore = "prints the detectors on the variants of docs/log/gpu-2026-11-27-h/triage.md"]
fn idioms_of_the_triage_variants_of_2026_11_27_h() {
    assert!(print_variant_idioms("gpu-2026-11-27-h") > 0);
}

/// Prints, for each variant `PREDICT.txt` lists in
/// `docs/log/LOG/triage/experiments/`, the idioms every detector finds in it
/// (with its inputs, and as a program alone) beside the prediction; returns
/// how many it printed.
pub fn print_variant_idioms(log: &str) -> usize {
    print_variant_idioms_in(&format!("{log}/triage/experiments"))
}

/// [`print_variant_idioms`] for the variants in `docs/log/DIR/`.
pub fn print_variant_idioms_in(dir: &str) -> usize {
    let path = format!(
        "{}/../docs/log/{dir}/PREDICT.txt",
        env!("CARGO_MANIFEST_DIR")
    );
    let predict = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"));
    let mut n = 0;
    for line in predict.lines() {
        let (name, says) = line.split_once(' ').expect("NAME PREDICTION");
        let case = log_case(&format!("{dir}/{name}"));
        let names = |v: &[Idiom]| v.iter().map(|i| i.name()).collect::<Vec<_>>().join(", ");
        println!(
            "{name} ({says}): {} (program alone: {})",
            names(&idioms_in_case(&case.program, &case.inputs)),
            names(&idioms(&case.program))
        );
        n += 1;
    }
    n
}

/// A triage's hardware row: (variant, diverged on the GPU, what).
pub type HwRow = (&'static str, bool, &'static str);

/// Asserts that the variants `docs/log/DIR/PREDICT.txt` lists are the
/// names of `rows`, each once; returns how many.
pub fn predict_lists_the_rows(dir: &str, rows: &[&[HwRow]]) -> usize {
    let path = format!(
        "{}/../docs/log/{dir}/PREDICT.txt",
        env!("CARGO_MANIFEST_DIR")
    );
    let predict = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"));
    let mut listed: Vec<&str> = predict
        .lines()
        .map(|l| l.split_once(' ').expect("NAME PREDICTION").0)
        .collect();
    let mut names: Vec<&str> = rows.iter().flat_map(|g| g.iter().map(|r| r.0)).collect();
    listed.sort_unstable();
    names.sort_unstable();
    assert_eq!(listed, names, "{dir}");
    names.len()
}

/// The rows of `group` whose variant name starts with `prefix` (one
/// subgroup, e.g. `k5s.`).
pub fn rows_of(group: &[HwRow], prefix: &str) -> Vec<HwRow> {
    group
        .iter()
        .filter(|r| r.0.starts_with(prefix))
        .copied()
        .collect()
}

/// A triage's hardware rows against the detectors: for each `(name,
/// diverged, what)` of `rows` (the case from `variant`), a variant that
/// diverged must hold exactly the idiom `named` gives it, or none if it is
/// in `open`; one that agreed none, but the idiom `wider` gives it. Returns
/// what is wrong, one line each.
pub fn variants_against_detectors(
    rows: &[&[(&str, bool, &str)]],
    variant: fn(&str) -> Case,
    named: &[(&str, Idiom)],
    wider: &[(&str, Idiom)],
    open: &[(&str, &str)],
) -> Vec<String> {
    let mut wrong = Vec::new();
    for &(name, diverged, what) in rows.iter().copied().flatten() {
        let case = variant(name);
        let found = idioms_in_case(&case.program, &case.inputs);
        let named = named.iter().find(|n| n.0 == name).map(|n| n.1);
        let wider = wider.iter().find(|n| n.0 == name).map(|n| n.1);
        let open = open.iter().any(|n| n.0 == name);
        let want = match (diverged, named, wider, open) {
            (true, Some(i), None, false) | (false, None, Some(i), false) => vec![i],
            (true, None, None, true) | (false, None, None, false) => vec![],
            _ => {
                wrong.push(format!("{name}: listed wrongly for its hardware row"));
                continue;
            }
        };
        if found != want {
            wrong.push(format!(
                "{name} ({what}): expected {want:?}, found {found:?}"
            ));
        }
    }
    wrong
}

/// The variants of experiment 8 (2026-11-27), run on an H100 at every
/// level of the driver's JIT (`exp8`) and on an H200 (`exp8b`, marked):
/// the program text of each (its `.version 9.1` and `.target sm_90` lines
/// left out), whether it diverged (at -O1 to -O4, agreeing at -O0) or
/// agreed at every level, and what the GPU gave or what the variant
/// changed. The expected answers are those hardware results.
mod experiment_8 {
    use super::{log_case, Case};

    /// A variant's case, from the session-8 log folder that holds what ran
    /// on the GPU: `exp8/` (H100: a*, b*, c*, d*), `exp8b/` (H200: e*, f*,
    /// g*, h*), `exp8c/` (H200: i*, j*, k*, l*), `crash/` (H100: x*).
    pub fn variant(name: &str) -> Case {
        let dir = match name.as_bytes()[0] {
            b'a'..=b'd' => "exp8",
            b'e'..=b'h' => "exp8b",
            b'i'..=b'l' => "exp8c",
            b'y' | b'z' => "crash2",
            _ => "crash",
        };
        log_case(&format!("gpu-2026-11-27-h/{dir}/{name}"))
    }

    /// N18's variants: (file, diverged, what the GPU gave or what changed).
    pub const N18_VARIANTS: &[(&str, bool, &str)] = &[
        (
            "a0-abs16-cvt-u16",
            true,
            "the case: lane 25 gpu 0xc7000000, interp 0x47000000",
        ),
        (
            "a1-abs32-cvt-u32",
            true,
            "lane 25 gpu 0xcf000000, interp 0x4f000000",
        ),
        ("a4-abs32-setp-lt", true, "lane 25 gpu 0, interp 1"),
        ("a2-abs16-cvt-s16", false, "a signed conversion"),
        ("a3-abs16-cvt-u32-u16", false, "an integer widening"),
        ("a5-abs32-shr", false, "the sign bit by a shift"),
        ("a6-abs32-cvt-f64-u32", false, "an .f64 destination"),
        ("f1-abs-s64-cvt-u64", false, "64 bits (H200)"),
        ("f2-abs32-setp-lt-u", false, "an unsigned compare (H200)"),
        (
            "f3-neg-abs-setp",
            false,
            "neg of the abs before the compare (H200)",
        ),
    ];

    /// N19's variants: (file, diverged, what the GPU gave or what changed).
    pub const N19_VARIANTS: &[(&str, bool, &str)] = &[
        (
            "b0-unpack-hi-branch",
            true,
            "the case: lane 1 gpu 1, interp 0",
        ),
        (
            "b1-unpack-hi-branch-unguarded",
            true,
            "lane 1 gpu 1, interp 0",
        ),
        ("b5-unpack-hi-input", true, "every lane gpu 1, interp 5"),
        (
            "e9-unpack-hi-known-nonconst",
            true,
            "every lane gpu 1, interp 5 (H200)",
        ),
        (
            "b2-unpack-hi-guard-only",
            false,
            "no branch, the guard only",
        ),
        (
            "b3-unpack-hi-branch-0x30000",
            false,
            "the source computed before the branch",
        ),
        ("b4-unpack-lo-branch", false, "the low half"),
        (
            "e1-shr16-known-lane",
            false,
            "shr.u32 16 for the unpack (H200)",
        ),
        (
            "e8-bfe-hi-known-lane",
            false,
            "bfe.u32 16, 16 for the unpack (H200)",
        ),
        ("e6-unpack-hi-seteq", false, "setp.eq and @!p bra (H200)"),
    ];

    /// N20's variants: (file, diverged, what the GPU gave or what changed).
    pub const N20_VARIANTS: &[(&str, bool, &str)] = &[
        (
            "c0-xor-lane0",
            true,
            "the case: lane 0 gpu 0, interp 0xffffffff",
        ),
        ("c1-xor-lane0-b32", true, "lane 0 gpu 0, interp 0xffffffff"),
        ("c3-xor-lane3", true, "lane 3 gpu 3, interp 0xfffffffc"),
        (
            "e5-xor-known-input",
            true,
            "every lane gpu 0x50001, interp 0xfffafffe (H200)",
        ),
        ("c2-xor-lane0-0xffff", false, "xor with 0x0000ffff"),
        ("c4-xor-nobranch", false, "no branch"),
        ("c5-mov-nan-lane0", false, "mov of 0xffffffff"),
        ("e2-not-known-lane", false, "not.b32 (H200)"),
        (
            "e3-xor-fff0-known-lane",
            false,
            "xor with 0xfffffff0 (H200)",
        ),
        ("e4-add-known-lane", false, "add (H200)"),
        ("e7-neg-known-lane", false, "neg (H200)"),
    ];

    /// N21's variants: (file, diverged, what the GPU gave or what changed).
    pub const N21_VARIANTS: &[(&str, bool, &str)] = &[
        (
            "d0-cvt-rpi-ftz-shr16",
            true,
            "the case: every lane gpu 0, interp 1",
        ),
        (
            "d4-cvt-rpi-ftz-shr16-reg",
            true,
            "every lane gpu 0, interp 1",
        ),
        (
            "g1-rpi-ftz-shr16-u16",
            true,
            "every lane gpu 0, interp 1 (H200)",
        ),
        (
            "g4-rni-ftz-shr16",
            true,
            "the subnormal 0x00400000: every lane gpu 1, interp 2 (H200)",
        ),
        (
            "g5-rpi-ftz-shl16",
            true,
            "every lane gpu 2, interp 1 (H200)",
        ),
        ("d1-cvt-rpi-ftz-alone", false, "no shift"),
        ("d2-cvt-rpi-shr16", false, "no .ftz"),
        ("d3-cvt-rpi-ftz-shr32", false, "a 32-bit shift"),
        (
            "g2-rmi-ftz-shl16",
            false,
            ".rmi.s32 of the negative subnormal 0x80000001 (H200)",
        ),
        (
            "g3-rpi-ftz-f64-shr16",
            false,
            "cvt.rpi.u32.f64, no .ftz (H200)",
        ),
    ];

    /// N22's variants (the H100, each alone at -O0: diverged means the
    /// driver's JIT died).
    pub const N22_VARIANTS: &[(&str, bool, &str)] = &[
        ("x0-found", true, "the case: SIGSEGV at -O0"),
        ("x1-vote-sync", true, "vote.sync.ballot: SIGSEGV at -O0"),
        ("x6-vote-any", true, "vote.any.pred: SIGSEGV at -O0"),
        ("x2-mov-for-vote", false, "a mov in the vote's place"),
        ("x3-one-latch", false, "one back edge"),
        (
            "x4-no-inner-exit-test",
            false,
            "no guarded branch between the back edges",
        ),
        ("x5-no-outer-loop", false, "no back edge of the outer loop"),
    ];

    /// N23's variants (H200, every level).
    pub const N23_VARIANTS: &[(&str, bool, &str)] = &[
        (
            "i0-abs-guarded-negzero",
            true,
            "the case: gpu 0x80000000, interp 0",
        ),
        (
            "i3-abs-guarded-negzero-normal",
            true,
            "1.0 for the other constant",
        ),
        (
            "i5-abs-guarded-negzero-mixed",
            true,
            "the guard on every other lane",
        ),
        ("i6-abs-selp-negzero", true, "a selp of the two immediates"),
        ("i7-abs-ftz-guarded-negzero", true, "abs.ftz.f32"),
        ("i1-abs-negzero-straight", false, "-0.0 with no choice"),
        ("i2-abs-guarded-neg1", false, "-1.0 in place of -0.0"),
        ("i4-neg-guarded-negzero", false, "neg.f32 in place of abs"),
    ];

    /// N13's 8-bit `cvt.sat` (H200, every level). j4 (two 64-bit `cnot`s
    /// into `cvt.rmi.u8.f64`, wrong from -O1) is left out: no detector
    /// explains it yet.
    pub const N13_VARIANTS: &[(&str, bool, &str)] = &[
        ("j0-cnot-cvtsat-u8-cvt-f32", true, "every lane gpu 192.0"),
        ("j1-cnot-cvtsat-u8", true, "every lane gpu 192"),
        (
            "j2-setp-selp-cvtsat-u8-cvt-f32",
            false,
            "setp and selp in the cnot's place",
        ),
        (
            "j3-cnot-cvt-f32",
            false,
            "cvt.rn.f32.u32 of the cnot directly",
        ),
        (
            "j5-cnot64-once-cvt-rmi-u8-f64",
            false,
            "one 64-bit cnot into cvt.rmi.u8.f64",
        ),
        ("j6-mov64-cvt-rmi-u8-f64", false, "no cnot"),
        (
            "j7-cnot64-twice-cvt-rmi-s32-f64",
            false,
            "a 32-bit destination",
        ),
    ];

    /// N24's variants (the H100, each alone at -O1 and -O3 and through
    /// ptxas -O3: diverged means the compiler died; -O0 compiled each).
    pub const N24_VARIANTS: &[(&str, bool, &str)] = &[
        (
            "y0-found-O2",
            true,
            "the H200 -O2 hunt's case: SIGSEGV from -O1",
        ),
        (
            "z0-found-O1",
            true,
            "the H100 -O1 hunt's case: SIGSEGV from -O1",
        ),
        (
            "y1-mask-entry-value",
            true,
            "an entry value for the mask: SIGSEGV",
        ),
        ("y5-branch-not-taken", true, "the match run: SIGSEGV"),
        // y2 (no exit: compiled and agreed) is left out: K5's detector fires
        // on it (its `match` result unused before a later collective), though
        // it agreed; N24's does not.
        (
            "y3-mov-for-shfl",
            false,
            "a mov in the later collective's place",
        ),
        ("y4-match-any", false, "match.any.sync"),
        ("y6-immediate-mask", false, "an immediate membermask"),
    ];
}

/// Each new detector fires on every variant of its bug that diverged, and
/// on none that agreed; on a variant that diverged no other detector
/// fires, and on one that agreed none at all.
#[test]
fn the_idioms_of_experiment_8_fire_on_the_variants_that_diverged() {
    let mut wrong = Vec::new();
    for (idiom, variants) in [
        (
            Idiom::AbsResultTakenAsNonNegative,
            experiment_8::N18_VARIANTS,
        ),
        (
            Idiom::UnpackHighHalfOfKnownValue,
            experiment_8::N19_VARIANTS,
        ),
        (Idiom::XorAllOnesOfKnownValue, experiment_8::N20_VARIANTS),
        (
            Idiom::RoundedFtzCvtShift16LosesFlush,
            experiment_8::N21_VARIANTS,
        ),
        (
            Idiom::VoteLoopTwoBackEdgesCrashesJitO0,
            experiment_8::N22_VARIANTS,
        ),
        (
            Idiom::AbsOfChoiceKeepsNegativeZero,
            experiment_8::N23_VARIANTS,
        ),
        (Idiom::CnotAmountOf16BitShift, experiment_8::N13_VARIANTS),
        (Idiom::MatchAllExitJoinCrashes, experiment_8::N24_VARIANTS),
    ] {
        assert!(variants.iter().any(|v| v.1) && variants.iter().any(|v| !v.1));
        wrong.extend(variant_mismatches(
            idiom,
            variants,
            experiment_8::variant,
            &[],
            Alone::Same,
        ));
    }
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
}

/// Where each new idiom is (the instruction whose removal takes it away),
/// and the edges of each shape by hand.
#[test]
fn the_idioms_of_experiment_8_need_their_whole_shape() {
    let prog = |src: &str| {
        parse(src)
            .unwrap_or_else(|e| panic!("{src}: {e:?}"))
            .program
    };
    // The reader of the abs, the unpack, the xor, the 16-bit shift.
    for (file, idiom, at) in [
        (
            "cvt.rz.f32.u16-18dd0967.ptx",
            Idiom::AbsResultTakenAsNonNegative,
            1,
        ),
        ("mov.b32-a3c20380.ptx", Idiom::UnpackHighHalfOfKnownValue, 2),
        ("xor.b32-9d79eba7.ptx", Idiom::XorAllOnesOfKnownValue, 2),
        (
            "shr.s16-1d8328b8.ptx",
            Idiom::RoundedFtzCvtShift16LosesFlush,
            1,
        ),
    ] {
        assert_eq!(idiom.find(&corpus_file(file)), Some(at), "{file}");
    }
    // N18: through a copy, with the compare's operands swapped (0 > x is
    // x < 0); an immediate source that is not the most negative value, a
    // copy rewritten before the read, and a compare with 1 are no idiom.
    let n18 = |body: &str| {
        Idiom::AbsResultTakenAsNonNegative
            .find(&prog(&format!(
                ".reg .s32 %r0, %r1, %r2;\n.reg .b32 %f0;\n.reg .pred %p0;\n{body}"
            )))
            .is_some()
    };
    assert!(n18(
        "    abs.s32 %r0, %r2;\n    mov.b32 %r1, %r0;\n    setp.gt.s32 %p0, 0, %r1;\n"
    ));
    assert!(n18(
        "    abs.s32 %r0, %r2;\n    mov.b32 %r1, %r0;\n    cvt.rn.f32.u32 %f0, %r1;\n"
    ));
    assert!(n18(
        "    abs.s32 %r0, 0x80000000;\n    setp.ge.s32 %p0, %r0, 0;\n"
    ));
    assert!(!n18(
        "    abs.s32 %r0, 0x7fffffff;\n    setp.ge.s32 %p0, %r0, 0;\n"
    ));
    assert!(!n18(
        "    abs.s32 %r0, %r2;\n    mov.b32 %r1, %r0;\n    mov.b32 %r1, 5;\n    setp.lt.s32 %p0, %r1, 0;\n"
    ));
    assert!(!n18(
        "    abs.s32 %r0, %r2;\n    setp.lt.s32 %p0, %r0, 1;\n"
    ));
    // `abs > 0` too: the H200 folded `0 < |0x8000|` (session 8's -O2
    // hunt, setp.lt.and.s16-f9d590ad) to true from -O1.
    assert!(n18("    abs.s32 %r0, %r2;\n    setp.gt.s32 %p0, %r0, 0;\n"));
    // N19: a K whose halves are equal leaves the high half right; a label
    // between the branch and the unpack (another path joins) and `@!p`
    // are no idiom; a wider unpack's upper parts count.
    let n19 = |k: &str, tail: &str| {
        Idiom::UnpackHighHalfOfKnownValue
            .find(&prog(&format!(
                ".reg .pred %p0;\n.reg .u16 %rh1;\n.reg .b32 %r0;\n.reg .b16 %h0, %h1, %h2, %h3;\n.reg .b64 %d0;\n    setp.ne.u32 %p0, %r0, {k};\n{tail}"
            )))
            .is_some()
    };
    let unpack = "    @%p0 bra L0;\n    mov.b32 {_, %rh1}, %r0;\nL0:\n";
    assert!(n19("0x00050001", unpack));
    assert!(!n19("0x00050005", unpack));
    assert!(!n19("1", &unpack.replace("@%p0", "@!%p0")));
    assert!(!n19(
        "1",
        "    @%p0 bra L0;\nL1:\n    mov.b32 {_, %rh1}, %r0;\nL0:\n"
    ));
    let wide = |k: &str| {
        Idiom::UnpackHighHalfOfKnownValue
            .find(&prog(&format!(
                ".reg .pred %p0;\n.reg .b16 %h0;\n.reg .b64 %d0;\n    setp.ne.u64 %p0, %d0, {k};\n    @%p0 bra L0;\n    mov.b64 {{_, _, %h0, _}}, %d0;\nL0:\n"
            )))
            .is_some()
    };
    assert!(wide("0x0000000100000000"));
    assert!(!wide("0x0000000000000000"));
    // N20: all ones in either operand order; another value is no idiom.
    let n20 = |xor: &str| {
        Idiom::XorAllOnesOfKnownValue
            .find(&prog(&format!(
                ".reg .pred %p0;\n.reg .b32 %r0, %r1;\n    setp.ne.u32 %p0, %r0, 7;\n    @%p0 bra L0;\n    {xor}\nL0:\n"
            )))
            .is_some()
    };
    assert!(n20("xor.b32 %r1, %r0, 0xffffffff;"));
    assert!(n20("xor.b32 %r1, 0xffffffff, %r0;"));
    assert!(!n20("xor.b32 %r1, %r0, 0xfffffffe;"));
    assert!(!n20("xor.b32 %r1, %r1, 0xffffffff;"));
    // N21: `.rpi` with `.u32` or `.s32`, of a register or a positive
    // subnormal; a normal immediate, `.rzi`, and an amount rewritten
    // before the shift are no idiom.
    let n21 = |cvt: &str, tail: &str| {
        Idiom::RoundedFtzCvtShift16LosesFlush
            .find(&prog(&format!(
                ".reg .b32 %b0, %b2;\n.reg .u16 %rh1;\n    {cvt}\n{tail}    shr.u16 %rh1, 1, %b0;\n"
            )))
            .is_some()
    };
    assert!(n21("cvt.rpi.ftz.s32.f32 %b0, %b2;", ""));
    assert!(n21("cvt.rpi.ftz.u32.f32 %b0, 0f00000001;", ""));
    assert!(!n21("cvt.rpi.ftz.u32.f32 %b0, 0f3f800000;", ""));
    assert!(!n21("cvt.rpi.ftz.u32.f32 %b0, 0f80000001;", ""));
    assert!(!n21("cvt.rzi.ftz.u32.f32 %b0, %b2;", ""));
    assert!(!n21(
        "cvt.rpi.ftz.u32.f32 %b0, %b2;",
        "    mov.b32 %b0, 1;\n"
    ));
}

/// The variants of the 2026-11-27-h triage
/// (`docs/log/gpu-2026-11-27-h/triage.md`), run on an H200 at -O0 to -O3
/// (`docs/log/gpu-2026-11-27-h/triage/levels-h200.txt`): for each widened
/// detector, its variants (file, whether it diverged (at -O1 to -O3, or
/// from -O2 for N4's and N15's, and agreed at -O0) or agreed at every
/// level, and what the GPU gave or what the variant changed). The
/// expected answers are those hardware results.
mod triage_h {
    use super::{log_case, Case};

    /// A variant's case, from `docs/log/gpu-2026-11-27-h/triage/experiments/`.
    pub fn variant(name: &str) -> Case {
        log_case(&format!("gpu-2026-11-27-h/triage/experiments/{name}"))
    }

    /// K5's widenings: a known result (group C), a membermask register an
    /// unguarded `mov` of an immediate wrote (B), the path round a loop
    /// (L); a stored result is used.
    pub const K5: &[(&str, bool, &str)] = &[
        ("k5-sink.found", true, "each lane its own bit: lane 1 gpu 2"),
        ("k5-sink.no-sink-read", true, "lane 1 gpu 2"),
        (
            "k5-sink.read-immediate-value",
            true,
            "the predicate of a match.all of 0 read: lane 1 gpu 2",
        ),
        (
            "k5-sink.read-value-in-register",
            false,
            "the value an input register, its predicate read",
        ),
        (
            "k5-sink.sink-read-value-in-register",
            false,
            "the value an input register, read by a sink and stored",
        ),
        ("k5-movimm.found", true, "lane 0 gpu 255, its 8-lane group"),
        ("k5-movimm.immediate", true, "lane 0 gpu 255"),
        ("k5-movimm.p1-given", true, "lane 0 gpu 255"),
        ("k5-movimm.mask-input", false, "the later mask an input"),
        (
            "k5-movimm.vote-result-read",
            false,
            "the vote's result stored",
        ),
        ("k5-loop.found", true, "lane 2 gpu 0, interp 1"),
        ("k5-loop.p0-given", true, "lane 2 gpu 0, interp 1"),
        (
            "k5-loop.result-stored",
            false,
            "the vote's result read before the overwrite",
        ),
    ];

    /// K1 past a label no branch targets, and past a forward branch.
    /// `k1-branch.no-branch` (agreed) is left out: K1's detector of `main`
    /// fires on it (a guarded `cvt`, then a guarded `shfl.sync` that
    /// rewrites its guard, nothing between), and it agreed at every level:
    /// that shape needs more than K1's detector asks (the branch).
    pub const K1: &[(&str, bool, &str)] = &[
        ("k1-label.found", true, "lane 0 gpu 0, interp 1"),
        ("k1-label.no-label", true, "lane 0 gpu 0, interp 1"),
        ("k1-label.fresh-pred", false, "a fresh predicate"),
        (
            "k1-label.targeted-label",
            false,
            "a branch from before to the label",
        ),
        ("k1-branch.found", true, "lane 16 gpu 0, interp 1"),
        ("k1-branch.fresh-pred", false, "a fresh predicate"),
    ];

    /// K2 with the exit branched over.
    pub const K2: &[(&str, bool, &str)] = &[
        ("k2-branch.found", true, "lane 28 gpu 0, interp 0xf0000000"),
        (
            "k2-branch.guarded-exit",
            true,
            "lane 28 gpu 0, interp 0xf0000000",
        ),
        ("k2-branch.loop-writes-other", false, "the loop writes %p1"),
    ];

    /// N1 with the exit branched over.
    pub const N1: &[(&str, bool, &str)] = &[
        ("n1-branch.found", true, "lane 30 gpu 0, interp 1"),
        ("n1-branch.guarded-exit", true, "lane 30 gpu 0, interp 1"),
        ("n1-branch.lp0-given", false, "%lp0 given a value"),
    ];

    /// N4 with the repeat through another register (from -O2).
    pub const N4: &[(&str, bool, &str)] = &[
        ("n4-vn.found", true, "lane 8 gpu 0, interp 1 (-O2, -O3)"),
        ("n4-vn.p1-given", false, "%p1 given a value"),
        ("n4-vn.other-expression", false, "and with 9"),
    ];

    /// N7 with an unguarded collective writer, and on the taken side.
    pub const N7: &[(&str, bool, &str)] = &[
        ("n7-vote.found", true, "lane 0 gpu 1, interp 0"),
        ("n7-vote.p0-given", true, "lane 0 gpu 1, interp 0"),
        ("n7-vote.setp-writer", true, "lane 0 gpu 1, interp 0"),
        ("n7-vote.fresh-pred", false, "a fresh predicate"),
        ("n7-coll.found", true, "lane 0 gpu 0d..01, interp 0"),
        ("n7-coll.setp-writer", true, "lane 0 gpu 0d..01, interp 0"),
        ("n7-coll.fresh-pred", false, "a fresh predicate"),
        ("n7-taken.found", true, "lane 30 gpu 1, interp 0"),
        ("n7-taken.on-fall-through", true, "lane 30 gpu 1, interp 0"),
        ("n7-taken.fresh-pred", false, "a fresh predicate"),
    ];

    /// N12 at a branch target after a `shfl.sync`.
    pub const N12: &[(&str, bool, &str)] = &[
        (
            "narrow-cvt-join.found",
            true,
            "lane 29 gpu 0xff80, interp 0xffffff80",
        ),
        ("narrow-cvt-join.no-shfl", false, "the shfl.sync removed"),
        ("narrow-cvt-join.unguarded", false, "the cvt unguarded"),
        ("narrow-cvt-join.cvt-s32", false, "cvt.rzi.s32.f32"),
    ];

    /// N15 with the register's value an input (its idiom holds only with
    /// the case's inputs: the program alone has no entry value to merge).
    pub const N15: &[(&str, bool, &str)] = &[
        ("n15-input.found", true, "lane 0 gpu 1, interp 0 (-O2, -O3)"),
        (
            "n15-input.p2-written-before",
            true,
            "lane 0 gpu 1, interp 0 (-O2, -O3)",
        ),
        ("n15-input.p4-given", false, "%p4 given a value"),
    ];
}

/// Each widened detector of the 2026-11-27-h triage fires, with the
/// case's inputs (as the GPU ran it), on every variant of its bug that
/// diverged on the H100 and on none that agreed; on a variant that
/// diverged no other detector fires, and on one that agreed none at all.
/// The program alone has no entry values, so more idioms may hold there;
/// it still holds the bug's idiom wherever the case diverged (but N15's
/// with an input for its entry value, which needs the inputs).
#[test]
fn the_widened_idioms_of_the_2026_11_27_h_triage_fire_on_the_variants_that_diverged() {
    let mut wrong = Vec::new();
    for (idiom, variants) in [
        (Idiom::UnusedCollectiveSplitsWarp, triage_h::K5),
        (Idiom::GuardRedefinedByCollective, triage_h::K1),
        (Idiom::GuardFoldedAfterExit, triage_h::K2),
        (Idiom::LoopWriteHoistedAboveExit, triage_h::N1),
        (Idiom::RepeatAfterOneSidedWrite, triage_h::N4),
        (Idiom::PredicateRedefinedPastBranch, triage_h::N7),
        (Idiom::NarrowCvtKeepsStaleUpperHalf, triage_h::N12),
        (Idiom::LoopCopyOfNeverWrittenReplacesMerge, triage_h::N15),
    ] {
        assert!(variants.iter().any(|v| v.1) && variants.iter().any(|v| !v.1));
        // N15's idiom here needs the case's inputs (an input as its entry
        // value).
        let alone = if idiom == Idiom::LoopCopyOfNeverWrittenReplacesMerge {
            Alone::Any
        } else {
            Alone::Contains
        };
        wrong.extend(variant_mismatches(
            idiom,
            variants,
            triage_h::variant,
            &[],
            alone,
        ));
    }
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
}
