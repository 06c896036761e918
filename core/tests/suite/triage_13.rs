//! The findings of session 13's `--avoid all` hunt (2026-11-28-m, issue
//! #35): a 330-s -O3 hunt on an H200 through the driver's JIT linker, seed
//! 0x3d01 (`docs/log/gpu-2026-11-28-m/a/found`), each against every
//! detector; the triage is `docs/log/gpu-2026-11-28-m/triage.md`.

/// A table row per finding of `a/found` (its class, the idioms the
/// detectors find with its inputs and without) and the counts per first
/// idiom ([`crate::idioms::print_triage`]); run by hand:
/// `cargo test -p warp-core --test suite triage_of_the_found_cases_of_2026_11_28_m -- --ignored --nocapture`.
#[test]
#[ignore = "prints the triage table of docs/log/gpu-2026-11-28-m/triage.md"]
fn triage_of_the_found_cases_of_2026_11_28_m() {
    assert_eq!(
        crate::idioms::print_triage("gpu-2026-11-28-m", &["a/found"]),
        21
    );
}

/// The same table for session 13's -O2 hunt (`b/found`, 20 findings: a
/// 300-s `warpdiff fuzz --avoid all --gpu-opt-level 2`, seed 0x3d02, on
/// the H200 through the driver's JIT linker); run by hand:
/// `cargo test -p warp-core --test suite triage_of_the_o2_found_cases_of_2026_11_28_m -- --ignored --nocapture`.
#[test]
#[ignore = "prints the triage table of docs/log/gpu-2026-11-28-m/b/found"]
fn triage_of_the_o2_found_cases_of_2026_11_28_m() {
    assert_eq!(
        crate::idioms::print_triage("gpu-2026-11-28-m", &["b/found"]),
        20
    );
}

/// NZ's variants (`docs/log/gpu-2026-11-28-m/nz/`, call a; `nz2/`, call b):
/// each through the driver's JIT linker on the H200 at -O0 (every one
/// right), -O1 and -O3 (`nz/levels.txt`, `b/nz2-levels.txt`: the same
/// answer at both). The expected values of each variant's `.expect` lines
/// are by hand from the PTX ISA; whether it diverged is the hardware's.
const NZ: &[crate::idioms::HwRow] = &[
    ("nz/nz.found", true, "+0.0 for -(+0.0)"),
    ("nz/nz.f2-one", true, "-4.0 for -(1.0)"),
    ("nz/nz.f2-half", true, "-8.0 for -(0.5)"),
    ("nz/nz.f2-three", true, "-1.5 for -(3.0)"),
    ("nz/nz.f2-minus-one", true, "4.0 for -(-1.0)"),
    (
        "nz/nz.f2-two",
        false,
        "-(2.0): the integer negation is the same bits",
    ),
    ("nz/nz.not-p4", true, "@!%p4 with %p4 1: -4.0"),
    ("nz/nz.abs-not-neg", true, "abs.f32 of -1.0 gives 4.0"),
    ("nz/nz.add-not-neg", false, "add.f32 for the neg"),
    ("nz/nz.mov-not-neg", false, "mov.f32 for the neg"),
    ("nz/nz.no-mov-f32", false, "no mov.f32 of 0"),
    ("nz/nz.no-mov-laneid", false, "no mov.b32 of %laneid"),
    ("nz/nz.swap-movs", false, "the two movs swapped"),
    ("nz/nz.imm-for-laneid", false, "mov.b32 of 5 for %laneid"),
    ("nz/nz.p4-one", false, "both writes run"),
    ("nz/nz.neg-s32", false, "neg.s32"),
    ("nz/nz.neg-f64", false, "neg.f64"),
    ("nz2/nz.between", true, "an add between: -4.0"),
    (
        "nz2/nz.reg-for-laneid",
        true,
        "mov.b32 of a register for %laneid: -4.0",
    ),
    ("nz2/nz.two-guards", false, "the second write under %p5"),
    ("nz2/nz.guarded-neg", false, "the neg under %p5 (1)"),
    ("nz2/nz.ftz", false, "neg.ftz.f32"),
    (
        "nz2/nz.mov-reg-first",
        false,
        "the first write a mov.f32 of a register",
    ),
    (
        "nz2/nz.one-mov-b32-imm",
        false,
        "the first write a mov.b32 of 7",
    ),
];

/// The XZ variants (`docs/log/gpu-2026-11-28-m/xz/`, call b, the H200
/// through the linker, right at -O0, the same answer at -O1 and -O3): N20
/// with the `xor` before the branch whose fall-through exits.
const XZ: &[crate::idioms::HwRow] = &[
    ("xz/xz.found", true, "lane 0 stores 0, not 0xffffffff"),
    ("xz/xz.lane-3", true, "lane 3 stores 3, not 0xfffffffc"),
    ("xz/xz.input", true, "an input register for %laneid"),
    (
        "xz/xz.after",
        true,
        "the xor between the setp and the branch",
    ),
    ("xz/xz.no-exit", false, "no exit"),
    ("xz/xz.not", false, "not.b32"),
    ("xz/xz.xor-0f0f", false, "xor by 0x0f0f0f0f"),
    ("xz/xz.eq-not", false, "setp.eq with @!p"),
];

/// The variant `docs/log/gpu-2026-11-28-m/NAME`.
fn variant(name: &str) -> warp_core::ir::Case {
    crate::idioms::log_case(&format!("gpu-2026-11-28-m/{name}"))
}

/// N33's detector (`neg-f32-computed-as-integer`) names every NZ variant
/// that diverged on the H200 and no other idiom does; it names none that
/// agreed but two whose program is the shape and whose inputs make it
/// right: `nz.f2-two` (2.0: the integer negation is the right bits) and
/// `nz.p4-one` (`%p4` 1: the two writes run and overwrite the `neg`).
/// N20's detector, widened, names every XZ variant that diverged and none
/// that agreed.
#[test]
fn nz_and_xz_variants_of_2026_11_28_m_against_the_detectors() {
    use warp_core::idioms::Idiom::{NegF32ComputedAsInteger as Nz, XorAllOnesOfKnownValue as Xz};
    let mut named: Vec<(&str, warp_core::idioms::Idiom)> =
        NZ.iter().filter(|r| r.1).map(|r| (r.0, Nz)).collect();
    named.extend(XZ.iter().filter(|r| r.1).map(|r| (r.0, Xz)));
    let wrong = crate::idioms::variants_against_detectors(
        &[NZ, XZ],
        variant,
        &named,
        &[("nz/nz.f2-two", Nz), ("nz/nz.p4-one", Nz)],
        &[],
    );
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
}

/// The hunt's `xor.b32-337d869f` is N20 (by the XZ variants above), named
/// by N20's detector alone, with its inputs and without.
#[test]
fn the_hunts_xor_finding_is_n20() {
    use warp_core::idioms::{idioms, idioms_in_case, Idiom};
    let case = variant("a/found/xor.b32-337d869f");
    assert_eq!(
        idioms_in_case(&case.program, &case.inputs),
        vec![Idiom::XorAllOnesOfKnownValue]
    );
    assert_eq!(idioms(&case.program), vec![Idiom::XorAllOnesOfKnownValue]);
}

/// The finding of `a/found` that is a known bug's shape which its
/// detector missed for a detail of the reduction (triage.md, group K1X),
/// wrong on the H200 from -O1 to -O4 and right at -O0 (the finding's own
/// level sweep, its `// class` line) with K1's value: `not.b64-989d5d72`
/// (lane 30 alone: `@%p3 not.b64 %bd2, 0`, then `@%p0 vote.any.pred %p3,
/// !%p3`, which makes `%p3` 0: the GPU's `%bd2` 0 is the `not` skipped,
/// its guard read after the vote, where the reference has
/// 0xffffffffffffffff), which the unreachable `exit` after `bra L1` hid
/// from K1's scan. Named, with its inputs and alone, by K1's detector only.
#[test]
fn the_widened_k1_names_its_finding_of_2026_11_28_m() {
    use crate::idioms::log_case;
    use warp_core::idioms::{idioms, idioms_in_case, Idiom};
    let file = "gpu-2026-11-28-m/a/found/not.b64-989d5d72";
    let case = log_case(file);
    let k1 = vec![Idiom::GuardRedefinedByCollective];
    assert_eq!(idioms_in_case(&case.program, &case.inputs), k1, "{file}");
    assert_eq!(idioms(&case.program), k1, "{file} alone");
}

/// The widening of K1 (the scan passes an instruction no lane reaches)
/// keeps its whole shape: on the triage's variants
/// (`docs/log/gpu-2026-11-28-m/triage/experiments/`) it fires where the
/// variant keeps it (the found case, and the form the detector took
/// before: `k1x.no-dead-exit`) and not where the one change removes the
/// bug's precondition: `k1x.fresh-pred` makes the vote write a fresh
/// predicate (no redefinition of the guard). N1S (`n1s.*`, N1's shape with
/// a sink `mov` before the `exit`) was not widened by H45; H46 widened it
/// by the H200's rows (`n1s.found` wrong from -O1, `n1s.lp0-given` right),
/// where the loop writes the branch's guard (session 10's
/// `k2-inner.fresh-pred`, right, has a guard the loop never writes), so
/// `n1s.found` holds N1 now. The hardware rows are in `variants`.
#[test]
fn the_widened_k1_needs_its_whole_shape() {
    use crate::idioms::log_case;
    use warp_core::idioms::{idioms_in_case, Idiom};
    for (name, expected) in [
        ("k1x.found", vec![Idiom::GuardRedefinedByCollective]),
        ("k1x.no-dead-exit", vec![Idiom::GuardRedefinedByCollective]),
        ("k1x.fresh-pred", vec![]),
        ("n1s.found", vec![Idiom::LoopWriteHoistedAboveExit]),
        ("n1s.no-dead-mov", vec![Idiom::LoopWriteHoistedAboveExit]),
        ("n1s.lp0-given", vec![]),
    ] {
        let case = log_case(&format!("gpu-2026-11-28-m/triage/experiments/{name}"));
        assert_eq!(
            idioms_in_case(&case.program, &case.inputs),
            expected,
            "{name}"
        );
    }
}

/// The idioms every detector finds in each variant of the 2026-11-28-m
/// triage (`docs/log/gpu-2026-11-28-m/triage/experiments/`), beside what
/// its `PREDICT.txt` says; run by hand:
/// `cargo test -p warp-core --test suite idioms_of_the_triage_variants_of_2026_11_28_m -- --ignored --nocapture`.
#[test]
#[ignore = "prints the detectors on the variants of docs/log/gpu-2026-11-28-m/triage.md"]
fn idioms_of_the_triage_variants_of_2026_11_28_m() {
    assert_eq!(crate::idioms::print_variant_idioms("gpu-2026-11-28-m"), 53);
}

/// The LC variants (N34): `lc/` with one input register (call b) and
/// `lc4/` with the found case's ten (call c), each through the driver's
/// JIT linker on the H200 at -O0, -O1 and -O3 (`b/lc-levels.txt`,
/// `c/lc4-levels.txt`); "diverged" is the compile helper's death
/// (SIGSEGV) at -O1 and -O3, every variant compiling and agreeing at -O0.
const LC: &[crate::idioms::HwRow] = &[
    (
        "lc/lc3.found",
        false,
        "the found program with one input: compiles",
    ),
    ("lc/lc3.p-input", false, "compiles"),
    ("lc/lc3.no-div", false, "compiles"),
    ("lc/lc3.div-after", false, "compiles"),
    ("lc/lc3.sqrt-approx", false, "compiles"),
    ("lc/lc3.rem-u32", false, "compiles"),
    ("lc/lc3.vote-sync", false, "compiles"),
    ("lc/lc3.no-vote", false, "compiles"),
    ("lc/lc3.setp-const", false, "compiles"),
    ("lc/lc3.match-laneid", false, "compiles"),
    ("lc/lc3.ballot-used", false, "compiles"),
    ("lc4/lc4.found", true, "the linker dies (-O1, -O3)"),
    ("lc4/lc4.p-input", true, "%p2 an input: the linker dies"),
    ("lc4/lc4.vote-sync", true, "vote.sync.uni: the linker dies"),
    (
        "lc4/lc4.match-laneid",
        true,
        "match.all of %laneid: the linker dies",
    ),
    ("lc4/lc4.regs-8", false, "eight inputs: compiles"),
    ("lc4/lc4.regs-5", false, "five inputs: compiles"),
    ("lc4/lc4.no-div", false, "compiles"),
    ("lc4/lc4.div-after", false, "compiles"),
    ("lc4/lc4.sqrt-approx", false, "compiles"),
    ("lc4/lc4.rem-u32", false, "rem.u32 of immediates: compiles"),
    ("lc4/lc4.no-vote", false, "compiles"),
    ("lc4/lc4.setp-const", false, "compiles"),
    (
        "lc4/lc4.ballot-any",
        false,
        "vote.sync.any for the ballot: compiles",
    ),
    // The hunts' findings (each class `compiler`: the helper died from
    // -O1 in the finding's own level sweep, -O0 right).
    (
        "a/found/engine-failed-8e0b1b75",
        true,
        "vote.uni, div.rz.f32",
    ),
    (
        "a/found/engine-failed-23f7459c",
        true,
        "vote.sync.uni, sqrt.rm.ftz.f32",
    ),
    (
        "a/found/engine-failed-8ec0347c",
        true,
        "vote.sync.any, div.rn.f64",
    ),
    (
        "b/found/engine-failed-a6b961a0",
        true,
        "a setp's q, div.rn.ftz.f32",
    ),
    (
        "b/found/engine-failed-ee8c79aa",
        true,
        "rem.s16, the ballot overwritten",
    ),
    (
        "d/found/engine-failed-17f2c2f6",
        true,
        "the sqrt after a guarded ballot",
    ),
    (
        "d/found/engine-failed-2c879a0f",
        true,
        "setp.gt.s32, div.rp.ftz.f32",
    ),
];

/// N34's detector names every LC variant whose compile died, and no other
/// detector names any; it also names the variants of the same text shape
/// that compiled with fewer input registers (`lc3.found`, `lc3.p-input`,
/// `lc3.vote-sync`, `lc3.match-laneid`, `lc4.regs-8`, `lc4.regs-5`: the
/// kernel's other registers decide the crash too, which the text does not
/// show) and those whose subroutine the compiler folds away (`rem.u32 7,
/// 3`: `lc3.rem-u32`, `lc4.rem-u32`), and, since the hunts' findings
/// widened it to a `setp` writer and a subroutine after the ballot, the
/// variants of those forms that compiled here (`lc3`/`lc4` `.setp-const`,
/// `.div-after`): listed as wider.
#[test]
fn lc_variants_of_2026_11_28_m_against_the_detectors() {
    use warp_core::idioms::Idiom::UnusedBallotAfterMathCallCrashesLinker as Lc;
    let named: Vec<(&str, warp_core::idioms::Idiom)> =
        LC.iter().filter(|r| r.1).map(|r| (r.0, Lc)).collect();
    let wider: Vec<(&str, warp_core::idioms::Idiom)> = [
        "lc/lc3.found",
        "lc/lc3.p-input",
        "lc/lc3.vote-sync",
        "lc/lc3.match-laneid",
        "lc/lc3.rem-u32",
        "lc4/lc4.regs-8",
        "lc4/lc4.regs-5",
        "lc/lc3.div-after",
        "lc/lc3.setp-const",
        "lc4/lc4.div-after",
        "lc4/lc4.setp-const",
        "lc4/lc4.rem-u32",
    ]
    .into_iter()
    .map(|n| (n, Lc))
    .collect();
    let wrong = crate::idioms::variants_against_detectors(&[LC], variant, &named, &wider, &[]);
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
}

/// The printer of [`triage_of_the_found_cases_of_2026_11_28_m`] for call
/// d's hunt at the driver's default level (`d/found`, 19 files); run by
/// hand: `cargo test -p warp-core --test suite
/// triage_of_the_default_level_hunt_of_2026_11_28_m -- --ignored --nocapture`.
#[test]
#[ignore = "prints the triage table of docs/log/gpu-2026-11-28-m/d/found"]
fn triage_of_the_default_level_hunt_of_2026_11_28_m() {
    assert_eq!(
        crate::idioms::print_triage("gpu-2026-11-28-m", &["d/found"]),
        19
    );
}

/// Call d's `xor.b32-b0ad7a54` (the driver's default level; its own level
/// sweep: right at -O0, wrong from -O1 with N20's value, lane 0 `%b6` 0
/// where the reference has 0xffffffff) is N20 with a second `@%p4 bra`
/// on the fall-through, which no lane there takes: named by N20's
/// detector alone since it passes such a branch, with its inputs and
/// without.
#[test]
fn the_default_level_hunts_xor_finding_is_n20() {
    use warp_core::idioms::{idioms, idioms_in_case, Idiom};
    let case = variant("d/found/xor.b32-b0ad7a54");
    assert_eq!(
        idioms_in_case(&case.program, &case.inputs),
        vec![Idiom::XorAllOnesOfKnownValue]
    );
    assert_eq!(idioms(&case.program), vec![Idiom::XorAllOnesOfKnownValue]);
}

/// The DV variants (`docs/log/gpu-2026-11-28-m/dv/`, call e: the H200
/// through the driver's JIT linker at -O0 to -O3, `e/dv-levels.txt`; every
/// one right at -O0 and -O1, the same answer at -O2 and -O3) and the two
/// findings of call d's hunt they came from (each wrong from -O2 in its
/// level sweep): N35's detector names every one that went wrong and none
/// that ran right, and no other detector names any.
#[test]
fn dv_variants_of_2026_11_28_m_against_the_detectors() {
    use warp_core::idioms::Idiom::DivisorClobberedByDivCall as Dv;
    let rows: &[crate::idioms::HwRow] = &[
        ("dv/dv.found", true, "%f0 gpu 0, interp 0x80000001"),
        ("dv/dv.div-used", true, "%f0 gpu 0"),
        ("dv/dv.abs", true, "%f0 gpu 0, interp 0x00000001"),
        (
            "dv/dv.normal",
            true,
            "%f0 gpu 0x470501b0, interp 0xcd072c5e",
        ),
        ("dv/dv.no-activemask", false, "no guarded activemask"),
        ("dv/dv.no-div", false, "no div"),
        ("dv/dv.div-rn", false, "div.rn"),
        ("dv/dv.mov-for-neg", false, "mov.b32 for the neg"),
        ("dv/dv.normal-no-neg", false, "the divisor an input"),
        ("d/found/neg.f32-dc2b107c", true, "the finding (-O2)"),
    ];
    let named: Vec<(&str, warp_core::idioms::Idiom)> =
        rows.iter().filter(|r| r.1).map(|r| (r.0, Dv)).collect();
    let wrong = crate::idioms::variants_against_detectors(&[rows], variant, &named, &[], &[]);
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
}
/// The variants of the 2026-11-28-m triage and what the H200 (driver
/// 580.159.04) did with each through the driver's JIT linker at -O0, -O1,
/// -O2 (the groups judged at -O2, and LR3) and -O3
/// (`docs/log/gpu-2026-11-28-m/triage/results/table.md`, the main
/// session's run of `devrun/s13h/run.sh`; `NAME-OL.txt` the raw output):
/// whether it diverged (wrong, hung or crashed at any level; every variant
/// agreed at -O0) and what the GPU did. The expected answers are those
/// hardware results, not `PREDICT.txt` (ten went otherwise than
/// predicted, marked).
mod variants {
    use crate::idioms::{log_case, HwRow};
    use warp_core::ir::Case;

    /// A variant's case.
    pub fn variant(name: &str) -> Case {
        log_case(&format!("gpu-2026-11-28-m/triage/experiments/{name}"))
    }

    /// K1 past an unreachable `exit` (K1X) and N1 with a sink `mov`
    /// before the `exit` (N1S).
    pub const K1X_N1S: &[HwRow] = &[
        (
            "k1x.found",
            true,
            "%bd2 lane 30 gpu 0, interp 0xffffffffffffffff (-O1, -O3)",
        ),
        ("k1x.no-dead-exit", true, "as the found case"),
        ("k1x.fresh-pred", false, "the vote writes a fresh %p4"),
        ("n1s.found", true, "%lp0 lane 8 gpu 0, interp 1 (-O1, -O3)"),
        ("n1s.no-dead-mov", true, "as the found case"),
        ("n1s.lp0-given", false, "%lp0 an input 0"),
    ];

    /// LR3: an unused ballot of the guard (or of a copy of it), an
    /// instruction under it, a later rewrite (sessions 11 and 12's LR).
    pub const LR3: &[HwRow] = &[
        (
            "lr3.found",
            true,
            "%bd4 lane 31 gpu 1, interp 0 (-O1, -O2, -O3)",
        ),
        ("lr3.no-vote", false, "the ballot removed"),
        (
            "lr3.rewrite-fresh",
            false,
            "the late mov.pred into a fresh %p5",
        ),
        (
            "lr3.no-copy",
            true,
            "%bd4 lane 31 gpu 1, interp 0 (-O1, -O2, -O3)",
        ),
        (
            "lr3.shr-found",
            true,
            "%bd0 lane 0 gpu 1, interp 0 (-O1, -O2, -O3)",
        ),
        (
            "lr3.shr-no-shfl",
            false,
            "the never-run mask-0 shfl.sync after the loop removed",
        ),
        (
            "lr3.mov64-found",
            true,
            "%rd0 lane 24 gpu 1, interp 0 (-O2, -O3; right at -O1)",
        ),
    ];

    /// N12 with new fillers (N12F, N12G): the `cvt`'s upper half another
    /// register's.
    pub const N12F: &[HwRow] = &[
        (
            "n12f.found",
            true,
            "%r2 lane 0 gpu 0xffff0000, interp 0 (-O2, -O3)",
        ),
        (
            "n12f.filler-other",
            true,
            "%r2 lane 0 gpu 0x12340000, interp 0 (-O2, -O3): %s1's upper half",
        ),
        ("n12f.s32", false, "the cvt to .s32"),
        (
            "n12g.found",
            true,
            "%b1 lane 22 gpu 0x80000000, interp 0 (-O2, -O3)",
        ),
        (
            "n12g.sd0-positive",
            false,
            "lane 22's %sd0 with the low word's sign bit clear",
        ),
        (
            "n12g.sd0-negative-23",
            true,
            "%b1 lane 22 gpu 0x80000000, interp 0 (-O2, -O3)",
        ),
    ];

    /// N15 with a loop-invariant exit test (N15I).
    pub const N15I: &[HwRow] = &[
        (
            "n15i.found",
            true,
            "%f1 lane 1 gpu 0f00000001, interp 0f00000000 (-O2, -O3)",
        ),
        ("n15i.f2-given", false, "%f2 an input 1.0"),
        (
            "n15i.lp0-given",
            true,
            "%f1 lane 1 gpu 0f00000001, interp 0f00000000 (-O2, -O3)",
        ),
        ("n15i.no-back-edge", false, "no back edge, no loop"),
    ];

    /// K5 whose unused vote is read by a `setp` that ignores it (K5R) and
    /// whose overwrite's known guard was written before a join (K5J).
    pub const K5: &[HwRow] = &[
        (
            "k5r.found",
            true,
            "%b0 lane 0 gpu 1, interp 0xffffffff (-O2, -O3)",
        ),
        (
            "k5r.reader-uses",
            false,
            "setp.ge.or: the vote's result used",
        ),
        (
            "k5r.no-reader",
            true,
            "%b0 lane 0 gpu 1, interp 0xffffffff (-O2, -O3; right at -O1)",
        ),
        ("k5r.full-mask", false, "the vote's mask full"),
        (
            "k5j.found",
            true,
            "%b2 lane 0 gpu 1, interp 0xffffffff (-O1, -O3)",
        ),
        (
            "k5j.no-join",
            false,
            "the branch, the never-run mask-0 ballot and L3 removed (predicted wrong)",
        ),
        ("k5j.full-mask", false, "the vote's mask full"),
    ];

    /// A guarded `match.any` whose guard a later unguarded `match.all`
    /// rewrites past a join (K1M).
    pub const K1M: &[HwRow] = &[
        (
            "k1m.found",
            true,
            "%r4 lane 29 gpu 3, interp 0x20000000 (-O1, -O3)",
        ),
        (
            "k1m.r4-given",
            true,
            "%r4 lane 29 gpu 85, interp 0x20000000 (-O1, -O3): the input 0x55, the match skipped",
        ),
        ("k1m.fresh-pred", false, "the last match.all writes %p0"),
    ];

    /// N27's family: a `match.all` of an `activemask` after lanes leave a
    /// loop at different trips (MJL), a full-mask `vote.sync.all` at a
    /// join (MJV).
    pub const MJ: &[HwRow] = &[
        ("mjl.found", true, "%p0 lane 1 gpu 0, interp 1 (-O1, -O3)"),
        ("mjl.value-laneid", false, "the match.all of %laneid"),
        (
            "mjl.s3-input",
            false,
            "%s3 an input, no activemask in the loop",
        ),
        (
            "mjl.match-any",
            false,
            "match.any for the match.all (predicted wrong)",
        ),
        ("mjv.found", true, "%p0 lane 0 gpu 1, interp 0 (-O1, -O3)"),
        ("mjv.no-bra", false, "one path into L5"),
        (
            "mjv.no-mask0",
            false,
            "the never-run mask-0 vote.sync.any removed (predicted wrong)",
        ),
        (
            "mjv.any",
            false,
            "vote.sync.any at the join (predicted wrong)",
        ),
    ];

    /// S64: two findings that looked like a signed compare with 1 off by
    /// one; the rows refute that (the `-minus1` and `.le-s32` rows went
    /// wrong too).
    pub const S64: &[HwRow] = &[
        (
            "s64.am-found",
            true,
            "%r4 lane 0 gpu 3 (-O1) or 0 (-O3), interp 0xffffffff; the input %p0 gpu 0, interp 1",
        ),
        (
            "s64.am-minus1",
            true,
            "as the found case with %bd0 -1 (predicted right)",
        ),
        ("s64.am-p6-input", false, "no setp.lt.s64, %p6 an input 1"),
        (
            "s64.le-found",
            true,
            "%p0 lane 0 gpu 1, interp 0 (-O1, -O3)",
        ),
        (
            "s64.le-minus1",
            true,
            "as the found case with %rd0 -1 (predicted right)",
        ),
        (
            "s64.le-s32",
            true,
            "as the found case with setp.le.s32 (predicted right)",
        ),
        (
            "s64.le-no-dead-block",
            false,
            "the never-run setp.ge.s32 and match.any removed",
        ),
    ];

    /// The hangs (each alone, `--gpu-deadline-ms 1500`): K5H4 (K5) and
    /// K5HB (session 12's K5H3).
    pub const HANG: &[HwRow] = &[
        ("k5h4.found", true, "hang (-O1, -O3)"),
        ("k5h4.full-mask", false, "the unused match's mask full"),
        ("k5hb.found", true, "hang (-O1, -O3)"),
        (
            "k5hb.full-mask",
            false,
            "the group shuffle's mask full (predicted a hang)",
        ),
        ("k5hb.no-legacy", false, "the legacy shfl.idx removed"),
    ];

    /// Every group's rows (53 variants).
    pub const ALL: &[&[HwRow]] = &[K1X_N1S, LR3, N12F, N15I, K5, K1M, MJ, S64, HANG];
}

/// Every variant of `PREDICT.txt` has one hardware row, and every row a
/// variant.
#[test]
fn every_variant_of_2026_11_28_m_has_a_hardware_row() {
    assert_eq!(
        crate::idioms::predict_lists_the_rows("gpu-2026-11-28-m/triage/experiments", variants::ALL),
        53
    );
}

/// What every detector finds (with the case's inputs) in each of the 53
/// variants, against the hardware: a variant that diverged holds exactly
/// the idiom [`NAMED`] gives it, or none if it is in [`OPEN`]; one that
/// agreed holds none, but those of [`WIDER`].
#[test]
fn every_variant_of_2026_11_28_m_against_the_detectors() {
    let wrong = crate::idioms::variants_against_detectors(
        variants::ALL,
        variants::variant,
        NAMED,
        WIDER,
        OPEN,
    );
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
}

/// The variants that diverged on the H200 and the detector that names
/// each.
const NAMED: &[(&str, warp_core::idioms::Idiom)] = {
    use warp_core::idioms::Idiom::*;
    &[
        ("k1x.found", GuardRedefinedByCollective),
        ("k1x.no-dead-exit", GuardRedefinedByCollective),
        // N1 since H46's widening: a sink `mov` between the branch and the
        // `exit`, the branch's guard `%p0` rewritten in the loop.
        ("n1s.found", LoopWriteHoistedAboveExit),
        ("n1s.no-dead-mov", LoopWriteHoistedAboveExit),
        // N7's shape (the ballot and the `or` read `%p3`, which the
        // fall-through of `@%p0 bra L4` rewrites), and LR2's.
        ("lr3.no-copy", PredicateRedefinedPastBranch),
        // LR (N31): the guarded ballot of the guard itself before the
        // guarded `mov.f64`, the loop's `mov.pred %p2, %p0`.
        ("lr3.shr-found", BallotGuardReadAfterLoopRewrite),
        // K5 since H46's widening: the vote's only reader, a `setp.and`
        // false whatever the vote, is no read.
        ("k5r.found", UnusedCollectiveSplitsWarp),
        ("k5r.no-reader", UnusedCollectiveSplitsWarp),
        ("k5h4.found", UnusedCollectiveSplitsWarp),
        // N12 since H46's widening: `@!%p2 mov.s32 %s1, IMM` before the
        // exit under the `cvt`'s guard, `%s1`'s upper half in `%r2`.
        ("n12f.found", NarrowCvtKeepsStaleUpperHalf),
        ("n12f.filler-other", NarrowCvtKeepsStaleUpperHalf),
        // N15 since H46's widening: a loop-invariant exit test before the
        // copy of the never-written `%f2`, a guarded back edge.
        ("n15i.found", LoopCopyOfNeverWrittenReplacesMerge),
        ("n15i.lp0-given", LoopCopyOfNeverWrittenReplacesMerge),
    ]
};

/// The variants that agreed on the H200 but hold a detector's idiom: the
/// detector is wider than its bug there. `lr3.shr-no-shfl`: LR's shape
/// (a guarded ballot of the guard before the guarded `mov.f64`, the loop's
/// rewrite) without the never-run mask-0 `@!%p2 shfl.sync.idx` after the
/// loop, right on the H200 where `lr3.shr-found` went wrong: in this form
/// the shuffle is needed, while LR2's `lr2.found` (its ballot guarded by
/// another predicate) needed none; which part of the shuffle matters is
/// not known (triage.md). `k5j.no-join`: K5's shape (the per-lane
/// `vote.sync.uni`, overwritten under the guard the false
/// `setp.lt.f32` fixes, the full-mask ballot) without the branch over the
/// never-run mask-0 ballot, right on the H200 where `k5j.found` went wrong.
const WIDER: &[(&str, warp_core::idioms::Idiom)] = &[
    (
        "lr3.shr-no-shfl",
        warp_core::idioms::Idiom::BallotGuardReadAfterLoopRewrite,
    ),
    (
        "k5j.no-join",
        warp_core::idioms::Idiom::UnusedCollectiveSplitsWarp,
    ),
];

/// The variants that diverged on the H200 with no detector firing, each
/// with why (triage.md's decisions, section of helper H46).
const OPEN: &[(&str, &str)] = &[
    (
        "lr3.found",
        "LR through a copy, the rewrite past a branch (no loop): LR's detector wants a loop",
    ),
    (
        "lr3.mov64-found",
        "LR with a four-lane ballot mask and the guard written by a guarded vote",
    ),
    ("n12g.found", "N12, a 64-bit input as the filler"),
    ("n12g.sd0-negative-23", "N12, a 64-bit input as the filler"),
    (
        "k5j.found",
        "K5 with a join or a never-run mask-0 ballot (not decided)",
    ),
    ("k1m.found", "a late guard read past a join (candidate K1J)"),
    (
        "k1m.r4-given",
        "a late guard read past a join (candidate K1J)",
    ),
    (
        "mjl.found",
        "new: a match.all of an activemask taken as uniform",
    ),
    (
        "mjv.found",
        "a vote.sync.all at a join after a never-run mask-0 vote",
    ),
    (
        "s64.am-found",
        "an input predicate read back 0 (not the compare)",
    ),
    (
        "s64.am-minus1",
        "an input predicate read back 0 (not the compare)",
    ),
    (
        "s64.le-found",
        "a setp's predicate read back 1 (a never-run setp's value?)",
    ),
    (
        "s64.le-minus1",
        "a setp's predicate read back 1 (a never-run setp's value?)",
    ),
    (
        "s64.le-s32",
        "a setp's predicate read back 1 (a never-run setp's value?)",
    ),
    (
        "k5hb.found",
        "a group shfl.sync and a lone legacy shfl (both needed)",
    ),
];

/// The two findings of `a/found` whose detector H46 widened by the
/// triage's rows: `mov.b32-a90f6e39` (K5R, wrong on the H200 from -O2 to
/// -O4, right at -O0 and -O1, its `// class` line: each lane's `%b0` its
/// own bit where the full-mask `match.all`'s mask 0xffffffff is right,
/// the per-lane `vote.sync.all` read only by `setp.ge.and.s32 %p1, 0, 1,
/// %p2`, false whatever `%p2`) is named by K5's detector only, with its
/// inputs and alone; `input-1e8a4b65` (N15I, wrong from -O2: `%f1` lane N
/// reads N, the register the never-written `%f2` was given, where its
/// input 0 is right; the loop's exit test `@%p1 bra L5` reads an input
/// the loop never writes) by N15's only, with its inputs (alone `%f1` has
/// no entry value, which N15 needs).
#[test]
fn the_widened_k5_and_n15_name_their_findings_of_2026_11_28_m() {
    use crate::idioms::log_case;
    use warp_core::idioms::{idioms, idioms_in_case, Idiom};
    let k5 = log_case("gpu-2026-11-28-m/a/found/mov.b32-a90f6e39");
    let want = vec![Idiom::UnusedCollectiveSplitsWarp];
    assert_eq!(idioms_in_case(&k5.program, &k5.inputs), want);
    assert_eq!(idioms(&k5.program), want, "alone");
    let n15 = log_case("gpu-2026-11-28-m/a/found/input-1e8a4b65");
    assert_eq!(
        idioms_in_case(&n15.program, &n15.inputs),
        vec![Idiom::LoopCopyOfNeverWrittenReplacesMerge]
    );
    assert_eq!(idioms(&n15.program), vec![], "alone");
}

/// Each detector widened by the H200's rows of this triage (K5: a read by
/// a `setp` whose value does not depend on it is no read; N1: a sink
/// instruction between the branch and the `exit`, the branch's guard
/// written in the loop; N12: a `mov` of an immediate into another 32-bit
/// register before the `exit` under the `cvt`'s guard; N15: a
/// loop-invariant exit test where the back edge is guarded) fires, with
/// the case's inputs, on every variant of its subgroup that diverged on
/// the H200 and on none that agreed, and no other detector fires on them:
/// `k5r.reader-uses` (`setp.ge.or`, `%p1` = `%p2`: the vote used) and
/// `k5r.full-mask` right; `n1s.lp0-given` (`%lp0` has an entry value)
/// right; `n12f.s32` (the `cvt` to `.s32`) right; `n15i.f2-given` (the
/// copied register has a value) and
/// `n15i.no-back-edge` (no loop) right.
#[test]
fn the_widened_idioms_of_the_2026_11_28_m_triage_fire_on_the_variants_that_diverged() {
    use crate::idioms::{rows_of, variant_mismatches, Alone};
    use warp_core::idioms::Idiom;
    let mut wrong = Vec::new();
    for (idiom, rows, alone) in [
        (
            Idiom::UnusedCollectiveSplitsWarp,
            rows_of(variants::K5, "k5r."),
            Alone::Same,
        ),
        (
            Idiom::LoopWriteHoistedAboveExit,
            rows_of(variants::K1X_N1S, "n1s."),
            // `%lp0`'s entry value is an input (`.lp0-given`): alone it has none.
            Alone::Contains,
        ),
        (
            Idiom::NarrowCvtKeepsStaleUpperHalf,
            rows_of(variants::N12F, "n12f."),
            Alone::Same,
        ),
        (
            Idiom::LoopCopyOfNeverWrittenReplacesMerge,
            rows_of(variants::N15I, "n15i."),
            // `%f1`'s entry value is an input: alone it has none.
            Alone::Any,
        ),
    ] {
        assert!(rows.iter().any(|v| v.1) && rows.iter().any(|v| !v.1));
        wrong.extend(variant_mismatches(
            idiom,
            &rows,
            variants::variant,
            &[],
            alone,
        ));
    }
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
}

/// `setp.gt.s32-a1a57ec2` (N1S, wrong on the H200 from -O1 to -O4, right
/// at -O0: lanes 8-11 exit on the loop's second trip and store `%lp0` 0,
/// the second trip's `setp.gt` hoisted above the exit, where the first
/// trip's 1 is right) is named by N1's detector only since H46's widening
/// (the sink `mov.b32 _, 0` between `@%p0 bra L4` and the `exit`, `%p0`
/// rewritten in the loop), with its inputs and alone.
#[test]
fn the_widened_n1_names_its_finding_of_2026_11_28_m() {
    use crate::idioms::log_case;
    use warp_core::idioms::{idioms, idioms_in_case, Idiom};
    let case = log_case("gpu-2026-11-28-m/a/found/setp.gt.s32-a1a57ec2");
    let n1 = vec![Idiom::LoopWriteHoistedAboveExit];
    assert_eq!(idioms_in_case(&case.program, &case.inputs), n1);
    assert_eq!(idioms(&case.program), n1, "alone");
}

/// `cvt.rzi.s8.f32-7d63691e` (N12F, wrong on the H200 from -O2 to -O4,
/// right at -O0 and -O1: `%r2` 0xffff0000, the `cvt`'s 0 in the low half
/// and `%s1`'s 0xffffffff in the upper half, where 0 is right) is named by
/// N12's detector only since H46's widening (`@!%p2 mov.s32 %s1,
/// 0xffffffff` before `@%p2 exit`, under the `cvt`'s guard), with its
/// inputs and alone.
#[test]
fn the_widened_n12_names_its_finding_of_2026_11_28_m() {
    use crate::idioms::log_case;
    use warp_core::idioms::{idioms, idioms_in_case, Idiom};
    let case = log_case("gpu-2026-11-28-m/a/found/cvt.rzi.s8.f32-7d63691e");
    let n12 = vec![Idiom::NarrowCvtKeepsStaleUpperHalf];
    assert_eq!(idioms_in_case(&case.program, &case.inputs), n12);
    assert_eq!(idioms(&case.program), n12, "alone");
}
