//! The generator: over a few thousand seeds of random bytes every case
//! prints and parses back to the same program, runs on the interpreter, and
//! at least 95 % of the runs are usable (no UB, no error); every form of the
//! IR and every feature is generated; the same bytes give the same case.
//! `cargo test -p warp-core --test suite gen:: -- --nocapture` prints the coverage.

use crate::common;
use arbitrary::{Arbitrary, Unstructured};
use common::bytes;
use warp_core::gen::{all_forms, generate, generate_with_stats, Config, Stats, TestCase};
use warp_core::interp::Interp;
use warp_core::text::{parse, print};

const SEEDS: u64 = 2000;
const BYTES: usize = 4096;

/// Prints, parses back and compares; runs on the interpreter.
fn check(seed: u64, tc: &TestCase, stats: &mut Stats) {
    let text = print(&tc.to_case());
    let back = parse(&text).unwrap_or_else(|e| panic!("seed {seed}: {e}\n{text}"));
    assert_eq!(back.program, tc.program, "seed {seed}: round trip\n{text}");
    assert_eq!(back.inputs, tc.inputs, "seed {seed}: round trip\n{text}");
    let lines: Vec<u32> = back.program.insts.iter().map(|i| i.line).collect();
    let ours: Vec<u32> = tc.program.insts.iter().map(|i| i.line).collect();
    assert_eq!(lines, ours, "seed {seed}: line numbers\n{text}");
    let run = Interp::new(&tc.program).run(&tc.inputs);
    if let Err(e) = &run {
        panic!("seed {seed}: {e}\n{text}");
    }
    stats.record_run(&run);
}

#[test]
fn random_bytes_give_valid_cases_covering_every_form() {
    let cfg = Config::default();
    let mut stats = Stats::default();
    let mut exhausted = 0;
    for seed in 0..SEEDS {
        let data = bytes(seed, BYTES);
        let mut u = Unstructured::new(&data);
        let tc = generate_with_stats(&mut u, &cfg, &mut stats)
            .unwrap_or_else(|e| panic!("seed {seed}: {e}"));
        exhausted += u.is_empty() as u32;
        check(seed, &tc, &mut stats);
    }
    println!("{stats}");
    println!("{exhausted} of {SEEDS} cases ran out of bytes");
    assert!(
        stats.usable_share() >= 0.95,
        "only {:.2} % usable",
        100.0 * stats.usable_share()
    );
    // Every UB run is one made on purpose.
    assert_eq!(stats.ub_runs, stats.ub_intended, "unintended UB");
    assert!(stats.ub_intended > 0, "no case was made UB on purpose");
    let missing = stats.missing_forms();
    assert!(missing.is_empty(), "forms never generated: {missing:?}");
    let missing = stats.missing_features();
    assert!(missing.is_empty(), "features never generated: {missing:?}");
}

#[test]
fn swarm_configs_give_valid_cases() {
    let mut stats = Stats::default();
    for seed in 0..200 {
        let data = bytes(seed ^ 0x5eed, BYTES);
        let mut u = Unstructured::new(&data);
        let cfg = Config::arbitrary(&mut u).expect("a config");
        let tc = generate_with_stats(&mut u, &cfg, &mut stats)
            .unwrap_or_else(|e| panic!("seed {seed}: {e}"));
        check(seed, &tc, &mut stats);
    }
    println!(
        "swarm: {} cases, {} usable of {} runs, {} UB on purpose, {} repaired away",
        stats.cases, stats.usable, stats.runs, stats.ub_intended, stats.repairs
    );
    assert_eq!(stats.ub_runs, stats.ub_intended, "unintended UB");
}

#[test]
fn same_bytes_same_case() {
    for seed in [1, 7, 42, 1234] {
        let data = bytes(seed, BYTES);
        let cfg = Config::default();
        let a = generate(&mut Unstructured::new(&data), &cfg).unwrap();
        let b = generate(&mut Unstructured::new(&data), &cfg).unwrap();
        assert_eq!(a, b);
        assert_eq!(print(&a.to_case()), print(&b.to_case()));
    }
}

#[test]
fn few_or_no_bytes_still_give_a_case() {
    for n in [0, 1, 7, 64] {
        let data = bytes(3, n);
        let tc = generate(&mut Unstructured::new(&data), &Config::default()).unwrap();
        let out = Interp::new(&tc.program).run(&tc.inputs).unwrap();
        assert!(out.ub.is_none());
    }
}

#[test]
fn all_forms_are_distinct() {
    let forms = all_forms();
    let mut sorted = forms.clone();
    sorted.sort();
    sorted.dedup();
    assert_eq!(sorted.len(), forms.len());
    for f in [
        "shfl.sync.up",
        "shfl.idx",
        "vote.ballot",
        "vote.sync.uni",
        "match.all.sync.b64",
        "redux.sync.min.f32.abs.NaN",
        "redux.sync.add.s32",
        "activemask",
        "mov.pred",
        "mul.lo.u64",
        "mul.f32",
        "setp.lt.and.s32",
        "selp.f32",
        "bra",
        "exit",
    ] {
        assert!(forms.iter().any(|x| x == f), "{f} missing from all_forms()");
    }
}

#[test]
fn extreme_hand_written_configs_are_clamped() {
    let mut cfg = Config {
        insts: std::ops::RangeInclusive::new(10_000, 0),
        regs_per_type: 0..=100,
        max_depth: 99,
        max_loop_depth: 99,
        max_trips: 1_000,
        ub_ratio: (7, 0),
        ..Config::default()
    };
    cfg.weights.loops = u32::MAX;
    cfg.weights.branch = u32::MAX;
    let data = bytes(9, BYTES);
    let tc = generate(&mut Unstructured::new(&data), &cfg).unwrap();
    assert!(tc.program.insts.len() <= 300);
    Interp::new(&tc.program).run(&tc.inputs).unwrap();
}
