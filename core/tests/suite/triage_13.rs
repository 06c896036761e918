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
/// a sink `mov` before the `exit`) is not widened: N1's detector there
/// would also take session 10's `k2-inner.found` and `.fresh-pred`
/// (triage.md), so its variants hold no idiom. No hardware row of these
/// variants yet (the main session runs `devrun/s13h/run.sh`).
#[test]
fn the_widened_k1_needs_its_whole_shape() {
    use crate::idioms::log_case;
    use warp_core::idioms::{idioms_in_case, Idiom};
    for (name, expected) in [
        ("k1x.found", vec![Idiom::GuardRedefinedByCollective]),
        ("k1x.no-dead-exit", vec![Idiom::GuardRedefinedByCollective]),
        ("k1x.fresh-pred", vec![]),
        ("n1s.found", vec![]),
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
