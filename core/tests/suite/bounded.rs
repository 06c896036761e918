//! Bounded runs (`.fuel N`): stopping for want of fuel is an outcome with a
//! state and a place, written in the case format and compared between
//! engines; and blame by first difference (`warp_core::blame`), which
//! bisects bounded runs. Expected states are counted by hand, one warp step
//! per instruction a converged group executes.

use warp_core::blame::{first_difference, FirstDifference};
use warp_core::check::{check_expect, check_stop};
use warp_core::engine::{CompileError, Compiled, Engine, RunError};
use warp_core::interp::Interp;
use warp_core::ir::{BinOp, Glue, Inputs, Op, Program};
use warp_core::oracle::{check, Verdict};
use warp_core::outcome::Outcome;
use warp_core::text::{parse, print};

/// Lines 1-5 directives, 6 the label, 7-10 the body.
const LOOP: &str = "\
.reg .s32 c, n;
.reg .pred p;
.lanes c = 0;
.lanes n = 3;
.fuel 7;
L:
    add.s32 c, c, 1;
    setp.lt.s32 p, c, n;
@p  bra L;
    mov.s32 n, c;
";

#[test]
fn a_uniform_loop_stops_after_its_fuel_with_the_state_there() {
    // Steps: add (c=1), setp (p), bra, add (c=2), setp, bra, add (c=3):
    // the 7th step leaves the setp of line 8 to run next.
    let text = format!("{LOOP}.expect c = 3;\n.expect p = 1;\n.expect n = 3;\n.stop 8;\n");
    let case = parse(&text).expect("parses");
    assert_eq!(case.inputs.fuel, Some(7));
    assert_eq!(case.expect.stop, Some(8));
    let out = Interp::new(&case.program)
        .run(&case.inputs)
        .expect("a bounded run");
    assert_eq!(out.steps, 7);
    assert_eq!(out.stop.map(|s| (s.pc, s.line)), Some((1, 8)));
    assert_eq!(check_stop(&case.expect, &out), None);
    assert!(check_expect(&case.expect, &out, true, None).is_empty());
    // The format prints it back (with `.version`/`.target` lines added,
    // so the setp and the `.stop` naming it move down together).
    let printed = print(&case);
    let again = parse(&printed).expect("reparses");
    assert_eq!(again.expect.stop, Some(10), "{printed}");
    assert_eq!(print(&again), printed);
}

#[test]
fn with_fuel_to_spare_the_run_ends_and_a_stop_line_is_a_mismatch() {
    // 3 iterations of 3 steps, the last bra not taken, then mov: 10 steps.
    let case = parse(&LOOP.replace(".fuel 7;", ".fuel 10;")).expect("parses");
    let out = Interp::new(&case.program).run(&case.inputs).expect("runs");
    assert_eq!((out.steps, out.stop), (10, None));
    let mut expect = case.expect.clone();
    expect.stop = Some(8);
    let why = check_stop(&expect, &out).expect("a mismatch");
    assert!(why.contains("ran to its end"), "{why}");
}

#[test]
fn a_divergent_loop_stops_where_min_pc_leaves_it() {
    // Lane 0 has n = 1, the others n = 2. Steps: 1 add (c = 1 everywhere),
    // 2 setp (p = 0 on lane 0, 1 elsewhere), 3 bra (lanes 1-31 back to L,
    // lane 0 on to the mov), 4 add (lanes 1-31: c = 2), 5 setp (p = 0):
    // next for the lowest pc is lanes 1-31's bra on line 9.
    let src = LOOP
        .replace(
            ".lanes n = 3;",
            &format!(".lanes n = 1{};", " 2".repeat(31)),
        )
        .replace(".fuel 7;", ".fuel 5;");
    let case = parse(&src).expect("parses");
    let out = Interp::new(&case.program).run(&case.inputs).expect("runs");
    assert_eq!(out.stop.map(|s| s.line), Some(9));
    let c = case.program.reg("c").expect("c");
    let p = case.program.reg("p").expect("p");
    assert_eq!(out.get(c, 0), Some(1));
    assert!((1..32).all(|l| out.get(c, l) == Some(2)));
    assert!((0..32).all(|l| out.get(p, l) == Some(0)));
}

#[test]
fn bad_fuel_and_stop_directives_name_line_and_column() {
    let e = parse(".reg .b32 r;\n.fuel many;\n").expect_err("not a number");
    assert_eq!((e.line, e.col), (2, 7), "{e}");
    let e = parse(".fuel 3;\n.fuel 4;\n").expect_err("twice");
    assert_eq!(e.line, 2, "{e}");
    assert!(e.to_string().contains("twice"), "{e}");
}

/// The interpreter run on a copy of the program with `add` turned into
/// `sub`: a planted wrong lowering of one instruction.
struct AddIsSub(Program);

impl AddIsSub {
    fn new(p: &Program) -> Self {
        let mut p = p.clone();
        for inst in &mut p.insts {
            if let Op::Glue(Glue::Bin { op, .. }) = &mut inst.op {
                if *op == BinOp::Add {
                    *op = BinOp::Sub;
                }
            }
        }
        AddIsSub(p)
    }
}

impl Compiled for AddIsSub {
    fn run(&self, inputs: &Inputs) -> Result<Outcome, RunError> {
        Ok(Interp::new(&self.0).run(inputs)?)
    }
}

/// An engine with the planted bug, with or without bounded runs.
struct Buggy {
    bounded: bool,
}

impl Engine for Buggy {
    fn name(&self) -> &'static str {
        "buggy"
    }

    fn bounded_runs(&self) -> bool {
        self.bounded
    }

    fn compile<'p>(
        &self,
        p: &'p Program,
        _fuel: u64,
    ) -> Result<Box<dyn Compiled + 'p>, CompileError> {
        Ok(Box::new(AddIsSub::new(p)))
    }
}

/// The wrong `add` result reaches the end only through a `mov`: `x` is
/// overwritten with a right value afterwards.
const COPIED: &str = "\
.reg .u32 a, b, x, y;
.lanes a = 5;
.lanes b = 7;
    add.u32 x, a, b;
    mov.u32 y, x;
    mov.u32 x, a;
";

#[test]
fn the_first_difference_is_the_wrong_instruction_not_the_mov_that_carries_it() {
    let case = parse(COPIED).expect("parses");
    let engine = AddIsSub::new(&case.program);
    let f = first_difference(&case.program, &case.inputs, &engine, 3);
    assert_eq!(f, Some(FirstDifference { step: 1, pc: 0 }));

    let form = |bounded| match check(&case.program, &case.inputs, &[&Buggy { bounded }], 1000) {
        Verdict::Diverge(d) => d.form,
        other => panic!("the planted bug diverges: {other:?}"),
    };
    assert_eq!(form(true), "add.u32");
    // The last writer of the differing register is the innocent `mov`.
    assert_eq!(form(false), "mov.u32");
}

#[test]
fn engines_are_compared_on_where_a_bounded_run_stops() {
    // The planted bug makes `c` go down: the loop of LOOP never ends, so
    // with .fuel 10 it stops before a different instruction than the
    // reference, which ends after exactly 10 steps.
    let case = parse(&LOOP.replace(".fuel 7;", ".fuel 10;")).expect("parses");
    match check(
        &case.program,
        &case.inputs,
        &[&Buggy { bounded: true }],
        1000,
    ) {
        Verdict::Diverge(d) => {
            assert_eq!(d.form, "add.s32", "blamed on the first step that differs");
        }
        other => panic!("a divergence: {other:?}"),
    }
}

/// An engine whose taken back edges cost two warp steps (the second
/// charged after the `bra`, saturating): the JIT's `fuel-in-loops` planted
/// bug, modelled on the interpreter's own bounded runs.
struct BackEdgeCostsTwo(Program);

impl Compiled for BackEdgeCostsTwo {
    fn run(&self, inputs: &Inputs) -> Result<Outcome, RunError> {
        let at = |j: u64| {
            let run = Inputs {
                lanes: inputs.lanes.clone(),
                fuel: Some(j),
            };
            Interp::new(&self.0).run(&run).map_err(RunError::from)
        };
        let Some(mut fuel) = inputs.fuel else {
            return Ok(Interp::new(&self.0).run(inputs)?);
        };
        let mut j = 0;
        loop {
            let Some(stop) = at(j)?.stop else {
                return at(j); // the run ended
            };
            if fuel == 0 {
                return at(j);
            }
            fuel -= 1;
            j += 1;
            let next = at(j)?.stop.map(|s| s.pc);
            let back = self.0.insts[stop.pc]
                .op
                .branch_target()
                .is_some_and(|t| Some(self.0.label_target(t)) == next && next <= Some(stop.pc));
            if back {
                fuel = fuel.saturating_sub(1);
            }
        }
    }
}

#[test]
fn fuel_spent_wrongly_is_blamed_on_the_step_that_spent_it() {
    // LOOP's steps: 1 add, 2 setp, 3 bra (taken), 4 add, ... With the
    // back edge costing two, 4 steps of fuel run only add, setp, bra: the
    // engine then stands where the reference stood after 3 steps. The
    // first difference is at step 4, but step 4 (the add) never ran on it:
    // the blame is step 3, the `bra` at pc 2.
    let case = parse(&LOOP.replace(".fuel 7;\n", "")).expect("parses");
    let engine = BackEdgeCostsTwo(case.program.clone());
    let f = first_difference(&case.program, &case.inputs, &engine, 10);
    assert_eq!(f, Some(FirstDifference { step: 3, pc: 2 }));
}

#[test]
fn a_header_added_in_front_moves_the_stop_line_with_its_instruction() {
    // LOOP with .fuel 7 stops before the setp of line 8 (counted above).
    let text = format!("{LOOP}.expect c = 3;\n.expect p = 1;\n.expect n = 3;\n.stop 8;\n");
    let mut case = parse(&text).expect("parses");
    case.header = vec!["written up".to_string(), "with two lines".to_string()];
    let printed = print(&case);
    // Two header lines and the printed `.version`/`.target`: the setp of
    // line 8 is printed on line 12.
    assert!(
        printed.contains("\n    setp.lt.s32 p, c, n;\n"),
        "{printed}"
    );
    assert_eq!(printed.lines().nth(11), Some("    setp.lt.s32 p, c, n;"));
    assert!(printed.contains("\n.stop 12;\n"), "{printed}");
    let again = parse(&printed).expect("parses back");
    let out = Interp::new(&again.program)
        .run(&again.inputs)
        .expect("runs");
    assert_eq!(check_stop(&again.expect, &out), None);
}
