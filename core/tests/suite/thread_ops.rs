//! The lane ops (PTX's thread-level instructions) of PTX modules, one lane
//! at a time (`interp::lane_ops::eval`), against the values
//! `data/thread_ops.txt` works out by hand from the PTX ISA pages.

use warp_core::interp::lane_ops::eval;
use warp_core::ir::{Dest, Op, Operand};
use warp_core::text::parse_module;

/// `(instruction, expected bits)` of `data/thread_ops.txt` (`None`: the
/// ISA leaves the result unspecified).
fn cases() -> Vec<(String, Option<u64>)> {
    let text = include_str!("../data/thread_ops.txt");
    text.lines()
        .filter(|l| !l.trim().is_empty() && !l.starts_with('#'))
        .map(|l| {
            let (inst, want) = l.split_once(" => ").expect("`inst => bits`");
            let want = (want != "-").then(|| u64::from_str_radix(want, 16).expect("hex bits"));
            (inst.to_string(), want)
        })
        .collect()
}

#[test]
fn thread_level_instructions_compute_what_the_isa_pages_say() {
    let mut body = String::new();
    let cases = cases();
    assert!(cases.len() > 70, "the whole table");
    for (inst, _) in &cases {
        body.push_str(&format!("\t{inst};\n"));
    }
    let src = format!(
        ".version 9.0\n.target sm_90\n.address_size 64\n.visible .entry k()\n{{\n\
         \t.reg .pred %p<2>;\n\t.reg .b32 %r<2>;\n\t.reg .f32 %f<2>;\n\
         \t.reg .b64 %rd<2>;\n\t.reg .f64 %fd<2>;\n{body}\tret;\n}}\n"
    );
    let m = parse_module(&src).unwrap_or_else(|e| panic!("{e}"));
    let insts = &m.kernels[0].program.insts;
    let mut fails = Vec::new();
    for (i, (text, want)) in cases.iter().enumerate() {
        let Op::LaneOp(x) = &insts[i].op else {
            panic!("`{text}` is not a thread-level instruction");
        };
        let mut args = [0u64; 4];
        for (k, (o, _)) in x.srcs.iter().enumerate() {
            let Operand::Imm(v) = o else {
                panic!("`{text}`: immediates only")
            };
            args[k] = *v;
        }
        // As the destination register holds it (a value narrower than the
        // register comes back extended to 64 bits).
        let reg_mask = match x.dests[0].0 {
            Dest::Reg(r) => m.kernels[0].program.decl(r).ty.mask(),
            Dest::Sink => u64::MAX,
        };
        let got = eval(x, args).map(|v| v & reg_mask);
        if got != *want {
            fails.push(format!("`{text}`: got {got:x?}, want {want:x?}"));
        }
    }
    assert!(fails.is_empty(), "{}", fails.join("\n"));
}
