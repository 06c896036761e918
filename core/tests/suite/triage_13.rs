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

/// NZ's variants (`docs/log/gpu-2026-11-28-m/nz/`, call a): each through
/// the driver's JIT linker on the H200 at -O0 (every one right), -O1 and
/// -O3 (`nz/levels.txt`: the same answer at both). The expected values of
/// each variant's `.expect` lines are by hand from the PTX ISA; whether it
/// diverged is the hardware's.
const NZ: &[crate::idioms::HwRow] = &[
    ("nz.found", true, "+0.0 for -(+0.0)"),
    ("nz.f2-one", true, "-4.0 for -(1.0)"),
    ("nz.f2-half", true, "-8.0 for -(0.5)"),
    ("nz.f2-three", true, "-1.5 for -(3.0)"),
    ("nz.f2-minus-one", true, "4.0 for -(-1.0)"),
    (
        "nz.f2-two",
        false,
        "-(2.0): the integer negation is the same bits",
    ),
    ("nz.not-p4", true, "@!%p4 with %p4 1: -4.0"),
    ("nz.abs-not-neg", true, "abs.f32 of -1.0 gives 4.0"),
    ("nz.add-not-neg", false, "add.f32 for the neg"),
    ("nz.mov-not-neg", false, "mov.f32 for the neg"),
    ("nz.no-mov-f32", false, "no mov.f32 of 0"),
    ("nz.no-mov-laneid", false, "no mov.b32 of %laneid"),
    ("nz.swap-movs", false, "the two movs swapped"),
    ("nz.imm-for-laneid", false, "mov.b32 of 5 for %laneid"),
    ("nz.p4-one", false, "both writes run"),
    ("nz.neg-s32", false, "neg.s32"),
    ("nz.neg-f64", false, "neg.f64"),
];

/// N33's detector (`neg-f32-computed-as-integer`) names every NZ variant
/// that diverged on the H200 and no other idiom does; it names none that
/// agreed but two whose program is the shape and whose inputs make it
/// right: `nz.f2-two` (2.0: the integer negation is the right bits) and
/// `nz.p4-one` (`%p4` 1: the two writes run and overwrite the `neg`).
#[test]
fn nz_variants_of_2026_11_28_m_against_the_detectors() {
    use warp_core::idioms::Idiom::NegF32ComputedAsInteger as Nz;
    let variant = |name: &str| crate::idioms::log_case(&format!("gpu-2026-11-28-m/nz/{name}"));
    let named: Vec<(&str, warp_core::idioms::Idiom)> =
        NZ.iter().filter(|r| r.1).map(|r| (r.0, Nz)).collect();
    let wrong = crate::idioms::variants_against_detectors(
        &[NZ],
        variant,
        &named,
        &[("nz.f2-two", Nz), ("nz.p4-one", Nz)],
        &[],
    );
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
}
