//! More input sets for one program (`gen::vary_inputs`): only the data
//! inputs change, the varied sets stay defined, and the interpreter's
//! one-pass run on them (`Interp::run_reusing`) gives exactly what its
//! full run gives.

use crate::common;
use arbitrary::Unstructured;
use common::bytes;
use warp_core::gen::{control_regs, data_inputs, generate, vary_inputs, Config};
use warp_core::interp::Interp;
use warp_core::text::parse;

/// By hand: `%r1` decides a branch (through `p`), `%r2` is a membermask,
/// `%r3` a collective's guard (through `q`), `%r4` an `activemask`'s guard
/// (through `s`); `%r5` only flows into arithmetic and a shuffled value,
/// `%r6` is never read. `%r7` reaches the branch through `%r8`, `%r9`
/// only through an instruction whose destination is data.
#[test]
fn control_registers_by_hand() {
    let text = "\
.reg .b32 %r1, %r2, %r3, %r4, %r5, %r6, %r7, %r8, %r9, %d, %e;
.reg .pred p, q, s;
    add.u32 %r8, %r7, 1;
    add.u32 %d, %r9, %r5;
    setp.lt.u32 p, %r1, %r8;
    setp.ne.u32 q, %r3, 0;
    setp.ne.u32 s, %r4, 0;
@q  shfl.sync.idx.b32 %e, %r5, 0, 0x1f, %r2;
@s  activemask.b32 %d;
@p  bra L;
    mul.lo.u32 %d, %d, %r5;
L:
";
    let case = parse(text).expect("the program parses");
    let prog = &case.program;
    let control = control_regs(prog);
    let named: Vec<&str> = prog
        .regs
        .iter()
        .zip(&control)
        .filter(|(_, &c)| c)
        .map(|(d, _)| d.name.as_str())
        .collect();
    assert_eq!(
        named,
        ["%r1", "%r2", "%r3", "%r4", "%r7", "%r8", "p", "q", "s"]
    );
}

/// Over generated cases: each varied set keeps every control input and
/// the fuel, changes some data input, is defined wherever the case is,
/// and its one-pass reference run equals the full run.
#[test]
fn varied_inputs_stay_defined_and_reuse_the_first_run() {
    let cfg = Config::default();
    let (mut cases, mut with_data, mut sets, mut changed) = (0, 0, 0, 0);
    let mut rotated_ub = 0;
    for seed in 0..400u64 {
        let data = bytes(seed, 4096);
        let Ok(tc) = generate(&mut Unstructured::new(&data), &cfg) else {
            continue;
        };
        let interp = Interp::new(&tc.program).with_fuel(100_000);
        let Ok((first, Some(answers))) = interp.run_keeping(&tc.inputs) else {
            continue; // UB on purpose, or out of fuel: nothing to vary from
        };
        assert!(first.ub.is_none());
        cases += 1;
        let control = control_regs(&tc.program);
        if data_inputs(&tc.inputs, &control) == 0 {
            continue;
        }
        with_data += 1;
        for k in 0..8u64 {
            let b = bytes(seed << 8 | k, 512);
            let v = vary_inputs(
                &tc.program,
                &tc.inputs,
                &control,
                &mut Unstructured::new(&b),
            );
            sets += 1;
            assert_eq!(v.fuel, tc.inputs.fuel, "seed {seed}");
            assert_eq!(v.lanes.len(), tc.inputs.lanes.len(), "seed {seed}");
            for ((r, a), (r2, b)) in tc.inputs.lanes.iter().zip(&v.lanes) {
                assert_eq!(r, r2, "seed {seed}: the same registers in order");
                if control[r.index()] {
                    assert_eq!(
                        a,
                        b,
                        "seed {seed}: control input {} kept",
                        tc.program.decl(*r).name
                    );
                }
            }
            changed += (v != tc.inputs) as u32;
            let full = interp
                .run(&v)
                .unwrap_or_else(|e| panic!("seed {seed} set {k}: {e}"));
            if let Some(ub) = &full.ub {
                panic!("seed {seed} set {k}: the varied set is undefined: {ub}");
            }
            let once = interp.run_reusing(&v, &answers).expect("the one-pass run");
            assert_eq!(once, full, "seed {seed} set {k}");
        }
        // Control inputs changed too (every lane rotated by 5): the path
        // check sends what differs to the full run.
        let mut rotated = tc.inputs.clone();
        for (_, lanes) in &mut rotated.lanes {
            lanes.rotate_left(5);
        }
        let full = interp.run(&rotated);
        assert_eq!(
            interp.run_reusing(&rotated, &answers),
            full,
            "seed {seed} rotated"
        );
        rotated_ub += full.is_ok_and(|o| o.ub.is_some()) as u32;
    }
    println!("{cases} defined cases, {with_data} with data inputs, {sets} varied sets, {changed} changed, {rotated_ub} rotated sets undefined");
    assert!(cases >= 300, "{cases}");
    assert!(
        with_data * 2 >= cases,
        "{with_data} of {cases} cases have data inputs"
    );
    assert!(changed * 10 >= sets * 9, "{changed} of {sets} sets changed");
}
