//! A rendezvous group of more collectives than the inline tiers complete
//! inline (`emit.rs`'s `INLINE_GROUP_MAX`, 16): the fast-code and inline
//! tunings then complete it with the shared helper, which reads the exited
//! lanes from the state (those tiers keep them in a variable, stored before
//! the call). Two halves of the warp take different paths of 12
//! `shfl.sync` each (membermask: the whole warp), after two lanes exit:
//! every shuffle is a rendezvous of both paths (one group of 24
//! collectives), which completes only when the exited lanes are no longer
//! waited for (with the exited lanes not stored, the fast-code tuning's
//! rendezvous never completed: checked by removing the store). Every tuning, whole and in
//! parts, equals the interpreter (the reference) on every register.

use warp_core::compare::compare;
use warp_core::interp::Interp;
use warp_jit::{JitProgram, Limits, Tuning};

/// Collectives per path.
const PER_PATH: usize = 12;

fn program() -> String {
    let mut s = String::from(".version 9.1\n.target sm_90\n.reg .pred p, q;\n.reg .b32 a");
    for i in 0..2 * PER_PATH {
        s += &format!(", x{i}");
    }
    s += ";\n";
    // Lanes 30 and 31 exit; the even lanes take the second path.
    let q: Vec<String> = (0..32).map(|l| ((l >= 30) as u32).to_string()).collect();
    let p: Vec<String> = (0..32).map(|l| ((l % 2 == 0) as u32).to_string()).collect();
    let a: Vec<String> = (0..32).map(|l| (l * 7 + 3).to_string()).collect();
    s += &format!(".lanes q = {};\n", q.join(" "));
    s += &format!(".lanes p = {};\n", p.join(" "));
    s += &format!(".lanes a = {};\n", a.join(" "));
    s += "    @q exit;\n    @p bra EVEN;\n";
    for i in 0..PER_PATH {
        s += &format!(
            "    shfl.sync.idx.b32 x{i}, a, {}, 31, 0xffffffff;\n",
            i % 5
        );
        s += "    add.u32 a, a, 1;\n";
    }
    s += "    bra DONE;\nEVEN:\n";
    for i in 0..PER_PATH {
        s += &format!(
            "    shfl.sync.idx.b32 x{}, a, {}, 31, 0xffffffff;\n",
            PER_PATH + i,
            (i + 2) % 7
        );
        s += "    xor.b32 a, a, 5;\n";
    }
    s += "DONE:\n";
    s
}

#[test]
fn big_group_completes_like_the_interpreter() {
    let case = warp_core::text::parse(&program()).expect("the program parses");
    let prog = &case.program;
    let reference = Interp::new(prog).run(&case.inputs).expect("runs");
    assert!(reference.ub.is_none(), "no undefined behaviour");
    // Every shuffle ran (on every lane that did not exit): the rendezvous
    // completed.
    assert_eq!(reference.exited, 0xc000_0000);
    for i in 0..2 * PER_PATH {
        let r = prog.reg(&format!("x{i}")).expect("declared");
        let lanes = if i < PER_PATH {
            0x2aaa_aaaa
        } else {
            0x1555_5555
        };
        assert_eq!(
            reference.defined[r.index()] & lanes,
            lanes,
            "x{i} is written on its path's lanes"
        );
    }
    for tuning in [Tuning::FastCode, Tuning::Inline, Tuning::FastCompile] {
        for parts in [None, Some(3)] {
            let jit = match parts {
                None => JitProgram::compile_with(prog, tuning),
                Some(n) => JitProgram::compile_in_parts(prog, tuning, Limits::default(), false, n),
            }
            .expect("compiles");
            let out = jit.run(&case.inputs).expect("runs");
            let diffs = compare(&reference, &out);
            assert!(
                diffs.is_empty(),
                "{tuning:?}, parts {parts:?}: {} lanes differ, the first {:?}",
                diffs.len(),
                &diffs[..diffs.len().min(3)]
            );
        }
    }
}
