//! The control-flow shapes of a finished program, read from its branches
//! (not from what the generator meant to build, so repairs cannot inflate
//! them): what [`Stats::shapes`](super::Stats::shapes) counts, so that a
//! fuzzing run shows which shapes it reached.
//!
//! A *loop* is the range `[head, bra]` of a backward `bra` to `head`; an
//! *if-region* the instructions strictly between a forward `bra` and its
//! target.

use crate::ir::{Control, Inputs, Op, Program};

/// Every shape counted, in the order the summary prints them.
pub const SHAPES: &[&str] = &[
    "label at pc 0",
    "forward bra into a loop head",
    "loop with two back edges",
    "loop entered from two places",
    "bra out of a loop",
    "bra out of nested loops",
    "bra into a later block",
    "exit inside a loop",
    "guarded exit nested twice",
    "run stops by its fuel",
];

/// The loops of `prog`: `(head, bra)` of every backward branch, as index
/// ranges `head..=bra` of `Program::insts`.
pub(crate) fn loops(prog: &Program) -> Vec<(usize, usize)> {
    prog.insts
        .iter()
        .enumerate()
        .filter_map(|(i, inst)| {
            let h = prog.labels[inst.op.branch_target()?.0 as usize].at;
            (h <= i).then_some((h, i))
        })
        .collect()
}

/// The shapes of [`SHAPES`] that `prog` run on `inputs` has, each once
/// (all but the last read from the branches; the last is a bounded run,
/// `.fuel`, which the generator sets only where the run stops by it).
pub fn shapes(prog: &Program, inputs: &Inputs) -> Vec<&'static str> {
    let at = |t: crate::ir::LabelId| prog.labels[t.0 as usize].at;
    // (from, to) of every branch, split by direction.
    let mut back = Vec::new();
    let mut fwd = Vec::new();
    for (i, inst) in prog.insts.iter().enumerate() {
        if let Some(t) = inst.op.branch_target() {
            let to = at(t);
            if to <= i {
                back.push((i, to));
            } else {
                fwd.push((i, to));
            }
        }
    }
    let in_loop = |k: usize, &(b, h): &(usize, usize)| h <= k && k <= b;
    let in_if = |k: usize, &(i, t): &(usize, usize)| i < k && k < t;
    let mut found = Vec::new();
    let mut note = |name: &'static str, yes: bool| {
        if yes {
            found.push(name);
        }
    };
    note("label at pc 0", back.iter().any(|&(_, h)| h == 0));
    note(
        "forward bra into a loop head",
        fwd.iter().any(|&(_, t)| back.iter().any(|&(_, h)| h == t)),
    );
    note(
        "loop with two back edges",
        back.iter()
            .any(|&(b, h)| back.iter().any(|&(b2, h2)| h2 == h && b2 != b)),
    );
    // Entered from outside: by falling into its head (when the head is not
    // pc 0) and by forward branches from before it landing in it.
    note(
        "loop entered from two places",
        back.iter().any(|l| {
            let fall = l.1 > 0 && falls_through(prog, l.1 - 1);
            let jumps = fwd
                .iter()
                .filter(|&&(i, t)| i < l.1 && in_loop(t, l))
                .count();
            usize::from(fall) + jumps >= 2
        }),
    );
    let leaves = |&(i, t): &(usize, usize)| {
        back.iter()
            .filter(|l| in_loop(i, l) && !in_loop(t, l))
            .count()
    };
    note("bra out of a loop", fwd.iter().any(|j| leaves(j) >= 1));
    note(
        "bra out of nested loops",
        fwd.iter().any(|j| leaves(j) >= 2),
    );
    note(
        "bra into a later block",
        fwd.iter()
            .any(|&(i, t)| fwd.iter().any(|r| r.0 > i && in_if(t, r))),
    );
    let exits = prog
        .insts
        .iter()
        .enumerate()
        .filter(|(_, inst)| matches!(inst.op, Op::Control(Control::Exit)));
    let mut in_loop_exit = false;
    let mut deep_guarded = false;
    for (k, inst) in exits {
        let loops = back.iter().filter(|l| in_loop(k, l)).count();
        let ifs = fwd.iter().filter(|r| in_if(k, r)).count();
        in_loop_exit |= loops > 0;
        deep_guarded |= inst.guard.is_some() && loops + ifs >= 2;
    }
    note("exit inside a loop", in_loop_exit);
    note("guarded exit nested twice", deep_guarded);
    note("run stops by its fuel", inputs.fuel.is_some());
    found
}

/// Whether instruction `k` can fall through to `k + 1` (it is not an
/// unguarded `bra` or `exit`).
fn falls_through(prog: &Program, k: usize) -> bool {
    let inst = &prog.insts[k];
    inst.guard.is_some() || !inst.op.is_control_flow()
}

#[cfg(test)]
mod tests {
    use super::shapes;
    use crate::text::parse;

    /// The shapes of a body (registers `p`, `q` declared).
    fn of(body: &str) -> Vec<&'static str> {
        let text = format!(".reg .pred p, q;\n.reg .b32 r;\n{body}");
        let case = parse(&text).expect("parses");
        shapes(&case.program, &case.inputs)
    }

    #[test]
    fn a_loop_at_pc0_with_two_back_edges() {
        let s = of("H: add.u32 r, r, 1;\n@p bra H;\nmov.b32 r, 0;\n@q bra H;\n");
        assert_eq!(s, ["label at pc 0", "loop with two back edges"]);
    }

    #[test]
    fn a_forward_branch_into_a_loop_head_enters_it_twice() {
        let s = of("@p bra H;\nmov.b32 r, 1;\nH: add.u32 r, r, 1;\n@q bra H;\n");
        assert_eq!(
            s,
            [
                "forward bra into a loop head",
                "loop entered from two places"
            ]
        );
    }

    #[test]
    fn break_out_of_two_loops_and_guarded_exit_inside_them() {
        let s = of("A: mov.b32 r, 1;\nB: @p bra OUT;\n@q exit;\n@q bra B;\n@p bra A;\nOUT: mov.b32 r, 2;\n");
        assert_eq!(
            s,
            [
                "label at pc 0",
                "bra out of a loop",
                "bra out of nested loops",
                "exit inside a loop",
                "guarded exit nested twice"
            ]
        );
    }

    #[test]
    fn a_jump_into_the_arm_of_a_later_if() {
        let s =
            of("@p bra IN;\n@q bra SKIP;\nmov.b32 r, 1;\nIN: mov.b32 r, 2;\nSKIP: mov.b32 r, 3;\n");
        assert_eq!(s, ["bra into a later block"]);
        // Not into a block when the jump lands past its end.
        let s = of("@p bra OUT;\n@q bra SKIP;\nmov.b32 r, 1;\nSKIP: mov.b32 r, 3;\nOUT: exit;\n");
        assert!(s.is_empty(), "{s:?}");
    }
}
