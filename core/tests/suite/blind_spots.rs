//! The contexts the fuzz summary's blind-spot report counts, recorded from
//! a reference run of a hand-written program (bits worked out by hand:
//! converged 1, divergent 2, in a loop 4, after exit 8, under a guard 16).

use warp_core::gen::{Stats, CONTEXTS};
use warp_core::interp::Interp;
use warp_core::text::parse;

#[test]
fn contexts_of_each_executed_instruction() {
    assert_eq!(
        CONTEXTS,
        [
            "converged",
            "divergent",
            "in a loop",
            "after exit",
            "under a guard"
        ]
    );
    let case = parse(
        "\
.reg .pred p, q;
.reg .b32 r;
.reg .u32 c;
    setp.eq.u32 p, %laneid, 0;
@p  exit;
    setp.lt.u32 q, %laneid, 16;
@q  bra SKIP;
    and.b32 r, %laneid, 3;
SKIP:
    mov.u32 c, 2;
L:
    sub.u32 c, c, 1;
    setp.ne.u32 q, c, 0;
@q  bra L;
",
    )
    .expect("parses");
    let out = Interp::new(&case.program).run(&case.inputs).expect("runs");
    let mut stats = Stats::default();
    stats.record_contexts(&case.program, [&out]);
    let bits = |form: &str| stats.contexts.get(form).copied();
    // Before any exit, the whole warp.
    assert_eq!(bits("setp.eq.u32"), Some(1));
    // `@p exit` with the whole warp, under a guard.
    assert_eq!(bits("exit"), Some(1 | 16));
    // After lane 0 exited, lanes 1-31 are every live lane: converged.
    assert_eq!(bits("setp.lt.u32"), Some(1 | 8));
    // Lanes 16-31 only, while 1-15 wait at SKIP: divergent.
    assert_eq!(bits("and.b32"), Some(2 | 8));
    // The loop body with every live lane.
    assert_eq!(bits("sub.u32"), Some(1 | 4 | 8));
    // Two `bra`s: the forward one guarded, the back edge guarded in a loop.
    assert_eq!(bits("bra"), Some(1 | 4 | 8 | 16));
    let spots = stats.blind_spots();
    let never_div = &spots[1].1;
    assert!(never_div.contains(&"sub.u32".to_string()));
    assert!(!never_div.contains(&"and.b32".to_string()));
}

/// The runs of one program on several input sets are recorded together:
/// an instruction's contexts are those of every run (bits by hand: `x`
/// decides whether lanes 0-15 branch past `add`).
#[test]
fn contexts_of_several_runs_of_one_program_add_up() {
    let src = |x: &str| {
        format!(
            "\
.reg .pred p;
.reg .u32 x, r;
.lanes x = {x};
    setp.lt.u32 p, %laneid, x;
@p  bra SKIP;
    add.u32 r, x, 1;
SKIP:
    mov.u32 r, 2;
"
        )
    };
    // x = 0: no lane branches, `add` runs with the whole warp; x = 16:
    // lanes 0-15 wait at SKIP, `add` runs with lanes 16-31 only.
    let none = parse(&src("0")).expect("parses");
    let half = parse(&src("16")).expect("parses");
    let run = |c: &warp_core::ir::Case| Interp::new(&c.program).run(&c.inputs).expect("runs");
    let (a, b) = (run(&none), run(&half));
    let mut one = Stats::default();
    one.record_contexts(&none.program, [&a]);
    assert_eq!(one.contexts.get("add.u32").copied(), Some(1));
    let mut both = Stats::default();
    both.record_contexts(&none.program, [&a, &b]);
    assert_eq!(both.contexts.get("add.u32").copied(), Some(1 | 2));
    // `bra` is guarded in both; `mov` runs converged after SKIP in both.
    assert_eq!(both.contexts.get("bra").copied(), Some(1 | 16));
    assert_eq!(both.contexts.get("mov.u32").copied(), Some(1));
    // No run: nothing recorded.
    let mut no = Stats::default();
    no.record_contexts(&none.program, []);
    assert!(no.contexts.is_empty());
}
