//! `Interp::single_pass` (the generator's probes): the first run's view
//! of definedness only, with none of the second run's answers, and the
//! same values.

use warp_core::interp::Interp;
use warp_core::ir::Reg;

/// Even lanes go round the loop once, odd lanes twice. The odd lanes'
/// second `activemask` runs without the even lanes, whose one execution of
/// it came before, in lockstep with them: certainly absent, which only a
/// second run knows (`interp/converge.rs`).
const LOOP: &str = "\
.version 8.0
.target sm_90
.reg .u32 %n, %a, %i;
.reg .pred %p;
.lanes %n = 1 2 1 2 1 2 1 2 1 2 1 2 1 2 1 2 1 2 1 2 1 2 1 2 1 2 1 2 1 2 1 2;
    mov.u32 %i, 0;
L:
    activemask.b32 %a;
    add.u32 %i, %i, 1;
    setp.lt.u32 %p, %i, %n;
    @%p bra L;
";

#[test]
fn a_single_pass_run_knows_only_what_the_first_run_knows() {
    let case = warp_core::text::parse(LOOP).expect("parses");
    let a = Reg(1);
    let full = Interp::new(&case.program).run(&case.inputs).expect("runs");
    let one = Interp::new(&case.program)
        .single_pass()
        .run(&case.inputs)
        .expect("runs");
    for out in [&full, &one] {
        assert!(out.ub.is_none());
        for l in 0..32 {
            // Values: the whole warp at the first pass, the odd lanes at
            // the second.
            let want = if l % 2 == 0 { 0xffff_ffff } else { 0xaaaa_aaaa };
            assert_eq!(out.values[a.index()][l], want, "lane {l}");
        }
    }
    for l in 0..32 {
        // Even lanes: the whole warp was certainly converged at the first
        // pass, in both runs.
        if l % 2 == 0 {
            assert_eq!(full.defined_bits[a.index()][l] & 0xffff_ffff, 0xffff_ffff);
            assert_eq!(one.defined_bits[a.index()][l] & 0xffff_ffff, 0xffff_ffff);
            continue;
        }
        // Odd lanes: the full run knows the even lanes absent (defined 0),
        // the single pass knows only the odd lanes, certainly together.
        assert_eq!(
            full.defined_bits[a.index()][l] & 0xffff_ffff,
            0xffff_ffff,
            "lane {l}, full run"
        );
        assert_eq!(
            one.defined_bits[a.index()][l] & 0xffff_ffff,
            0xaaaa_aaaa,
            "lane {l}, single pass"
        );
    }
    assert_eq!(full.defined[a.index()], u32::MAX);
    assert_eq!(one.defined[a.index()], 0x5555_5555);
}
