//! The reducer: it refuses inputs the predicate rejects (or that are
//! invalid), is deterministic for a seed, never calls the predicate twice on
//! one candidate, and shrinks a generated 200-instruction case to a handful
//! of instructions that still satisfy a synthetic predicate.
//! `cargo test -p warp-core --test suite reduce:: -- --nocapture` prints the figures.

use crate::common;
use arbitrary::Unstructured;
use common::bytes;
use std::collections::HashSet;
use std::time::Instant;
use warp_core::gen::{generate, Config, TestCase};
use warp_core::interp::Interp;
use warp_core::ir::Dest;
use warp_core::reduce::{ReduceError, Reduced, Reducer};
use warp_core::text::{parse, print};

fn case(src: &str) -> TestCase {
    let c = parse(src).unwrap_or_else(|e| panic!("{e}\n{src}"));
    TestCase {
        program: c.program,
        inputs: c.inputs,
    }
}

/// A generated case of exactly `insts` instructions (before closing
/// blocks) with no deliberate UB, whose body contains `form`.
fn generated(insts: usize, form: &str) -> (u64, TestCase) {
    let cfg = Config {
        insts: insts..=insts,
        ub_ratio: (0, 1),
        deprecated_ratio: (0, 1),
        ..Config::default()
    };
    for seed in 0.. {
        let data = bytes(seed, 64 * insts + 4096);
        let tc = generate(&mut Unstructured::new(&data), &cfg).expect("a case");
        let has = tc.program.insts.iter().any(|i| i.op.form_name() == form);
        let ok = Interp::new(&tc.program)
            .run(&tc.inputs)
            .is_ok_and(|o| o.ub.is_none());
        if has && ok && tc.program.insts.len() >= insts {
            return (seed, tc);
        }
    }
    unreachable!()
}

/// Whether `tc` prints and parses back to itself and runs without UB.
fn assert_valid(tc: &TestCase) {
    let text = print(&tc.to_case());
    let back = parse(&text).unwrap_or_else(|e| panic!("{e}\n{text}"));
    assert_eq!(back.program, tc.program, "round trip\n{text}");
    assert_eq!(back.inputs, tc.inputs, "round trip\n{text}");
    let out = Interp::new(&tc.program).run(&tc.inputs).expect("runs");
    assert!(out.ub.is_none(), "UB: {:?}\n{text}", out.ub);
}

/// The synthetic predicate: register `reg` is defined on lane 3 at the end,
/// and the body still has an instruction of form `form`.
fn defined_on_lane3_with<'a>(reg: &'a str, form: &'a str) -> impl Fn(&TestCase) -> bool + 'a {
    move |tc: &TestCase| {
        let Some(r) = tc.program.reg(reg) else {
            return false;
        };
        let has = tc.program.insts.iter().any(|i| i.op.form_name() == form);
        has && Interp::new(&tc.program)
            .run(&tc.inputs)
            .is_ok_and(|o| o.ub.is_none() && o.get(r, 3).is_some())
    }
}

/// The last register written in `tc` that is defined on lane 3 at the end.
fn last_defined_on_lane3(tc: &TestCase) -> String {
    let out = Interp::new(&tc.program).run(&tc.inputs).unwrap();
    tc.program
        .insts
        .iter()
        .rev()
        .find_map(|i| {
            // `d`, or `p` of `setp`.
            let d = i.op.dests().first().map_or(Dest::Sink, |(d, _)| *d);
            match d {
                Dest::Reg(r) if out.get(r, 3).is_some() => Some(tc.program.decl(r).name.clone()),
                Dest::Reg(_) | Dest::Sink => None,
            }
        })
        .expect("a register defined on lane 3")
}

#[test]
fn refuses_an_uninteresting_input() {
    let tc = case(
        ".reg .b32 Rx, Ry;\n.lanes Rx = 5;\n\
         shfl.sync.bfly.b32 Ry, Rx, 1, 0x1f, 0xffffffff;\n",
    );
    let mut calls = 0;
    let r = Reducer::new().run(&tc, |_| {
        calls += 1;
        false
    });
    assert_eq!(r, Err(ReduceError::NotInteresting));
    assert_eq!(calls, 1, "only the input is tried");
    assert!(ReduceError::NotInteresting
        .to_string()
        .contains("interesting"));
}

#[test]
fn refuses_an_invalid_input() {
    // Lane 0 executes a collective whose membermask leaves it out: UB.
    let tc = case(
        ".reg .b32 Rx, Ry;\n.lanes Rx = 5;\n\
         shfl.sync.bfly.b32 Ry, Rx, 1, 0x1f, 0xfffffffe;\n",
    );
    let r = Reducer::new().run(&tc, |_| true);
    match r {
        Err(ReduceError::Invalid(why)) => assert!(why.contains("not-in-membermask"), "{why}"),
        other => panic!("expected Invalid, got {other:?}"),
    }
    // A `.pred` input of 2 prints as 0 and does not parse back to itself.
    let mut tc = case(".reg .pred p;\n.reg .b32 Rx;\n.lanes p = 1;\nselp.b32 Rx, 1, 2, p;\n");
    tc.inputs.lanes[0].1 = [2; 32];
    match Reducer::new().run(&tc, |_| true) {
        Err(ReduceError::Invalid(why)) => assert!(why.contains("parsing back"), "{why}"),
        other => panic!("expected Invalid, got {other:?}"),
    }
}

#[test]
fn an_interesting_empty_case_is_the_answer() {
    let tc = case(".reg .b32 Rx;\n.lanes Rx = 5;\nadd.u32 Rx, Rx, 1;\n");
    let r = Reducer::new().run(&tc, |_| true).unwrap();
    assert!(r.case.program.insts.is_empty() && r.case.program.regs.is_empty());
    assert_eq!((r.tried, r.accepted), (2, 1));
}

#[test]
fn same_seed_same_result() {
    let (_, tc) = generated(40, "shfl.sync.down");
    let reg = last_defined_on_lane3(&tc);
    let run = |seed| {
        let mut seen: Vec<String> = Vec::new();
        let r = Reducer::new()
            .seed(seed)
            .on_new_smallest(|c| seen.push(print(&c.to_case())))
            .run(&tc, defined_on_lane3_with(&reg, "shfl.sync.down"))
            .unwrap();
        (r, seen)
    };
    let (a, sa) = run(7);
    let (b, sb) = run(7);
    assert_eq!(a, b);
    assert_eq!(sa, sb, "the same sequence of smallest cases");
    assert_eq!(sa.len(), a.accepted);
    assert_eq!(sa.last(), Some(&print(&a.case.to_case())));
}

#[test]
fn never_tries_a_candidate_twice() {
    let tc = case(
        ".reg .b32 Rx, Ry, Rz;\n.reg .pred p;\n\
         .lanes Rx = 0 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20 21 22 23 24 25 26 27 28 29 30 31;\n\
         setp.lt.u32 p, Rx, 16;\n\
         @p shfl.sync.down.b32 Ry|p, Rx, 1, 0x1f, 0xffff;\n\
         add.u32 Rz, Ry, Rx;\n",
    );
    let mut texts: Vec<String> = Vec::new();
    // Interesting while the case still has its `shfl` and three registers:
    // most candidates are refused, so the search goes through every pass.
    let r = Reducer::new()
        .run(&tc, |c| {
            texts.push(print(&c.to_case()));
            c.program.regs.len() >= 3
                && c.program
                    .insts
                    .iter()
                    .any(|i| i.op.form_name() == "shfl.sync.down")
        })
        .unwrap();
    let unique: HashSet<&String> = texts.iter().collect();
    assert_eq!(unique.len(), texts.len(), "a candidate was tried twice");
    assert_eq!(r.tried, texts.len());
    println!(
        "tiny case: {} predicate calls, {} accepted, {} instructions left",
        r.tried,
        r.accepted,
        r.case.program.insts.len()
    );
    assert_valid(&r.case);
    // A second run from the result finds nothing new to accept.
    let mut again = 0;
    let r2 = Reducer::new()
        .run(&r.case, |c| {
            again += 1;
            c.program.regs.len() >= 3
                && c.program
                    .insts
                    .iter()
                    .any(|i| i.op.form_name() == "shfl.sync.down")
        })
        .unwrap();
    assert_eq!(r2.accepted, 0);
    assert_eq!(r2.case, r.case);
}

#[test]
fn attempts_bound_the_predicate_calls() {
    let (_, tc) = generated(40, "shfl.sync.down");
    let mut calls = 0;
    let r = Reducer::new()
        .attempts(25)
        .run(&tc, |_| {
            calls += 1;
            calls % 3 == 1
        })
        .unwrap();
    assert_eq!(r.tried, calls);
    assert!(calls <= 25, "{calls} calls");
}

#[test]
fn reduces_a_generated_200_instruction_case() {
    let form = "shfl.sync.down";
    let t = Instant::now();
    let (seed, tc) = generated(200, form);
    let gen_time = t.elapsed();
    let reg = last_defined_on_lane3(&tc);
    let pred = defined_on_lane3_with(&reg, form);
    assert!(pred(&tc));
    let t = Instant::now();
    let mut smallest = Vec::new();
    let Reduced {
        case,
        tried,
        accepted,
    } = Reducer::new()
        .seed(1)
        .on_new_smallest(|c| {
            let n = c.program.insts.len();
            if smallest.last() != Some(&n) {
                smallest.push(n);
            }
        })
        .run(&tc, &pred)
        .unwrap();
    let took = t.elapsed();
    let text = print(&case.to_case());
    println!(
        "generated case (bytes seed {seed}, {:.2?}): {} instructions, {} registers, {} labels, {} inputs; \
         predicate: `{reg}` defined on lane 3 and a `{form}`",
        gen_time,
        tc.program.insts.len(),
        tc.program.regs.len(),
        tc.program.labels.len(),
        tc.inputs.lanes.len(),
    );
    println!(
        "reduced in {took:.2?}: {} instructions, {} registers, {} labels, {} inputs; \
         {tried} predicate calls, {accepted} accepted; instruction counts of the new smallest cases {:?}\n{text}",
        case.program.insts.len(),
        case.program.regs.len(),
        case.program.labels.len(),
        case.inputs.lanes.len(),
        smallest,
    );
    assert!(tc.program.insts.len() >= 200);
    assert!(case.program.insts.len() <= 10, "{text}");
    assert!(pred(&case), "the result is still interesting");
    assert_valid(&case);
    // Line numbers are those of the printed text.
    let back = parse(&text).unwrap();
    let lines: Vec<u32> = back.program.insts.iter().map(|i| i.line).collect();
    let ours: Vec<u32> = case.program.insts.iter().map(|i| i.line).collect();
    assert_eq!(lines, ours);
}

/// Many generated cases (every flavour: loops, exits, deprecated forms,
/// `.f32` redux), each reduced under a stricter predicate: a register keeps
/// its value on lane 3, the same lanes exit, and a form of the case stays.
#[test]
fn reduces_many_generated_cases_to_valid_interesting_ones() {
    let cfg = Config {
        insts: 20..=120,
        ..Config::default()
    };
    let t = Instant::now();
    let (mut cases, mut before, mut after, mut calls) = (0, 0, 0, 0);
    for seed in 0..30u64 {
        let data = bytes(seed + 1000, 16384);
        let tc = generate(&mut Unstructured::new(&data), &cfg).expect("a case");
        let Ok(out) = Interp::new(&tc.program).run(&tc.inputs) else {
            continue;
        };
        if out.ub.is_some() {
            continue;
        }
        let forms: Vec<String> = tc
            .program
            .insts
            .iter()
            .map(|i| i.op.form_name())
            .filter(|f| !f.starts_with("mov"))
            .collect();
        let form = forms[seed as usize % forms.len()].clone();
        let reg = last_defined_on_lane3(&tc);
        let want = out.get(tc.program.reg(&reg).unwrap(), 3);
        let pred = |c: &TestCase| {
            let Some(r) = c.program.reg(&reg) else {
                return false;
            };
            c.program.insts.iter().any(|i| i.op.form_name() == form)
                && Interp::new(&c.program)
                    .run(&c.inputs)
                    .is_ok_and(|o| o.ub.is_none() && o.get(r, 3) == want && o.exited == out.exited)
        };
        let red = Reducer::new().seed(seed).run(&tc, pred).unwrap();
        assert!(pred(&red.case), "seed {seed}");
        assert_valid(&red.case);
        cases += 1;
        before += tc.program.insts.len();
        after += red.case.program.insts.len();
        calls += red.tried;
    }
    println!(
        "{cases} generated cases: {before} -> {after} instructions, {calls} predicate calls, {:.2?}",
        t.elapsed()
    );
    assert!(cases >= 20);
    assert!(after * 10 <= before, "{before} -> {after}");
}
