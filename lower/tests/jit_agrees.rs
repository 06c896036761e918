//! The JIT agrees with the reference interpreter bit for bit on every
//! defined lane of every register (and on the exited lanes) for every
//! `corpus/` file and every hand-computed interpreter case, and stops with
//! the same fuel error on an endless loop.

mod common;
use common::ptx_files;
use warp_core::compare::{compare, DiffReport};
use warp_core::interp::{Interp, RunError};
use warp_core::text::parse;
use warp_lower::jit::JitProgram;

fn check_dir(dir: &str, at_least: usize) {
    let fs = ptx_files(dir);
    assert!(fs.len() >= at_least, "{dir}: only {} files", fs.len());
    let mut failures = Vec::new();
    for f in &fs {
        let name = f.display().to_string();
        let case = parse(&std::fs::read_to_string(f).expect("read")).expect("parses");
        let reference = Interp::new(&case.program)
            .run(&case.inputs)
            .expect("interp runs");
        assert!(reference.ub.is_none(), "{name}: UB");
        let jit = JitProgram::compile(&case.program).unwrap_or_else(|e| panic!("{name}: {e}"));
        let out = jit.run(&case.inputs).expect("jit runs");
        let diffs = compare(&reference, &out);
        if !diffs.is_empty() {
            let r = DiffReport {
                program: &case.program,
                reference: "interp",
                other: "jit",
                diffs: &diffs,
            };
            failures.push(format!("{name}:\n{r}"));
        }
    }
    assert!(
        failures.is_empty(),
        "{} of {} differ:\n{}",
        failures.len(),
        fs.len(),
        failures.join("\n")
    );
}

#[test]
fn corpus_agrees() {
    check_dir("../corpus", 10);
}

#[test]
fn interpreter_unit_cases_agree() {
    check_dir("../core/tests/cases", 50);
}

#[test]
fn fuel_error_is_the_same() {
    let src = ".reg .b32 Rx;\n.reg .pred p;\n.lanes Rx = 0;\n    setp.eq.u32 p, %laneid, 3;\nTOP:\n    add.u32 Rx, Rx, 1;\n@p  exit;\n    bra TOP;\n";
    let case = parse(src).expect("parses");
    for fuel in [0, 1, 5, 1000, 1001, 1002] {
        let want = Interp::new(&case.program).with_fuel(fuel).run(&case.inputs);
        let jit = JitProgram::compile(&case.program)
            .expect("compiles")
            .with_fuel(fuel);
        let got = jit.run(&case.inputs);
        match (want, got) {
            (Err(a), Err(b)) => assert_eq!(a, b, "fuel {fuel}"),
            (a, b) => panic!("fuel {fuel}: interp {a:?}, jit {b:?}"),
        }
    }
    let e = JitProgram::compile(&case.program)
        .expect("compiles")
        .with_fuel(10)
        .run(&case.inputs);
    assert!(matches!(e, Err(RunError::OutOfFuel { steps: 10, .. })));
}
