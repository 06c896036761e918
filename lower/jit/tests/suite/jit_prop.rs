//! Property: on random programs from the generator (straight-line and
//! branchy, every instruction form, swarm-varied configurations), the JIT
//! (every tuning, whole and in parts) equals the interpreter on every defined lane of every register and on
//! the exited lanes. Runs for about `PROP_SECONDS` (default 3) seconds;
//! `PROP_SEED` picks another seed. A failure prints the case as a `.ptx`
//! file ready to go into `corpus/`.

use arbitrary::{Arbitrary, Unstructured};
use std::time::{Duration, Instant};
use warp_core::compare::{compare, DiffReport};
use warp_core::gen::{generate, Config};
use warp_core::interp::Interp;
use warp_core::rng::Rng;
use warp_jit::{JitProgram, Limits, Tuning};

#[test]
fn jit_equals_interpreter_on_random_programs() {
    let secs: u64 = std::env::var("PROP_SECONDS")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(3);
    let seed: u64 = std::env::var("PROP_SEED")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(0x9e37_79b9_7f4a_7c15);
    let mut rng = Rng::new(seed);
    let deadline = Instant::now() + Duration::from_secs(secs);
    let (mut cases, mut compared, mut branchy, mut ub, mut bounded) =
        (0u64, 0u64, 0u64, 0u64, 0u64);
    let mut split_functions = 0u64;
    while Instant::now() < deadline || cases < 50 {
        cases += 1;
        let bytes = rng.bytes(64 + (cases as usize * 37) % 2000);
        let mut u = Unstructured::new(&bytes);
        // Every other case draws its own configuration (swarm testing).
        let cfg = if cases % 2 == 0 {
            Config::arbitrary(&mut u).unwrap_or_default()
        } else {
            Config::default()
        };
        let Ok(tc) = generate(&mut u, &cfg) else {
            continue;
        };
        let Ok(reference) = Interp::new(&tc.program).run(&tc.inputs) else {
            continue;
        };
        if reference.ub.is_some() {
            ub += 1;
            continue;
        }
        if tc.inputs.fuel.is_some() {
            bounded += 1;
        }
        // Every tuning: the inline lowering (optimised or not) and the
        // calls of shared helpers.
        // Each whole, and in parts of 1 to 4 instructions (every jump
        // between parts through the dispatcher, `parts.rs`).
        let parts = 1 + cases as usize % 4;
        let tunings = [Tuning::FastCode, Tuning::FastCompile, Tuning::Inline];
        for (tuning, split) in tunings
            .into_iter()
            .flat_map(|t| [(t, None), (t, Some(parts))])
        {
            // A bounded run (`.fuel`) needs the stepped code, which can
            // stop between any two instructions.
            let stepped = tc.inputs.fuel.is_some();
            let jit = match split {
                Some(n) => {
                    JitProgram::compile_in_parts(&tc.program, tuning, Limits::default(), stepped, n)
                }
                None if stepped => {
                    JitProgram::compile_stepped(&tc.program, tuning, Limits::default())
                }
                None => JitProgram::compile_with(&tc.program, tuning),
            }
            .expect("every interpreter program compiles");
            if let Some(n) = split {
                // One function per part (and the completion code).
                let len = tc.program.insts.len();
                assert!(
                    jit.functions() >= len.div_ceil(n),
                    "{len} instructions in parts of {n}: {} functions",
                    jit.functions()
                );
                split_functions += jit.functions() as u64;
            }
            let out = jit
                .run(&tc.inputs)
                .expect("the JIT runs what the interpreter ran");
            let diffs = compare(&reference, &out);
            if !diffs.is_empty() {
                let report = DiffReport {
                    program: &tc.program,
                    reference: "interp",
                    other: "jit",
                    diffs: &diffs,
                };
                let text = warp_core::text::print(&tc.to_case());
                let path = std::env::temp_dir().join("warpdiff-jit-prop-failure.ptx");
                let _ = std::fs::write(&path, &text);
                panic!(
                    "case {cases} diverges with {tuning:?}, parts of {split:?} instructions (saved as {}):\n{report}\n{text}",
                    path.display()
                );
            }
        }
        compared += 1;
        if tc
            .program
            .insts
            .iter()
            .any(|i| i.op.branch_target().is_some())
        {
            branchy += 1;
        }
    }
    println!(
        "{cases} cases: {compared} compared ({branchy} with branches), {ub} UB skipped, {bounded} of them bounded runs; {split_functions} functions compiled in parts"
    );
    assert!(
        compared > cases / 2,
        "too few usable cases: {compared} of {cases}"
    );
    assert!(branchy > 0, "no branchy program was compared");
    assert!(bounded > 0, "no bounded run was compared");
}
