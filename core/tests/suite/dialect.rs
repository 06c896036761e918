//! One dialect (issue #39): a case file reads every instruction a kernel
//! body runs, except what needs memory or a launch; every form of the
//! lane ops and of the glue's other types prints and parses back as itself;
//! the special registers of a case read as one warp of one CTA.

use warp_core::interp::Interp;
use warp_core::ir::*;
use warp_core::text::{parse, print};

/// Declarations every snippet below may use (the names compilers write).
const DECLS: &str = "\
.reg .b16 %rs<4>;
.reg .b32 %r<8>;
.reg .b64 %rd<4>;
.reg .f32 %f<4>;
.reg .f64 %fd<4>;
.reg .pred %p<3>;
";

/// The lines the issue quotes and the forms it lists as rejected by case
/// files before: each must now parse in a case.
const ACCEPTED: &[&str] = &[
    "add.rn.f32 %f1, %f2, %f3;",
    "cvt.u64.u32 %rd1, %r1;",
    "mov.u32 %r1, %lanemask_lt;",
    "mov.pred %p1, -1;",
    ".loc 1 42 7",
    ".file 1 \"kernel.cu\"",
    "cvt.rzi.s32.f32 %r1, %f1;",
    "cvt.sat.s8.s32 %r1, %r2;",
    "cvt.rn.f32.f64 %f1, %fd1;",
    "cvt.f64.f32 %fd1, %f1;",
    "cvt.u16.u32 %rs1, %r1;",
    "mul.wide.s32 %rd1, %r1, %r2;",
    "mul.wide.u16 %r1, %rs1, %rs2;",
    "mad.lo.s32 %r1, %r2, %r3, %r4;",
    "mad.hi.u32 %r1, %r2, %r3, %r4;",
    "mad.wide.u32 %rd1, %r2, %r3, %rd2;",
    "div.s32 %r1, %r2, %r3;",
    "rem.u64 %rd1, %rd2, %rd3;",
    "neg.s32 %r1, %r2;",
    "abs.s64 %rd1, %rd2;",
    "bfe.u32 %r1, %r2, 8, 4;",
    "bfi.b32 %r1, %r2, %r3, 16, 8;",
    "prmt.b32 %r1, %r2, %r3, 0x3210;",
    "shf.l.wrap.b32 %r1, %r2, %r3, %r4;",
    "shf.r.clamp.b32 %r1, %r2, %r3, 40;",
    "brev.b32 %r1, %r2;",
    "clz.b64 %r1, %rd1;",
    "bfind.u32 %r1, %r2;",
    "bfind.shiftamt.s64 %r1, %rd1;",
    "add.rn.f64 %fd1, %fd2, %fd3;",
    "fma.rn.f64 %fd1, %fd2, %fd3, %fd1;",
    "div.rn.f64 %fd1, %fd2, %fd3;",
    "sqrt.rn.f32 %f1, %f2;",
    "add.rz.ftz.sat.f32 %f1, %f2, %f3;",
    "mul.rn.ftz.f32 %f1, %f2, %f3;",
    "neg.f64 %fd1, %fd2;",
    "setp.lt.f64 %p1, %fd1, %fd2;",
    "selp.f64 %fd1, %fd2, %fd3, %p1;",
    "mov.f64 %fd1, 0d3ff0000000000000;",
    "add.s16 %rs1, %rs2, %rs3;",
    "setp.lt.u16 %p1, %rs1, %rs2;",
    "selp.b16 %rs1, %rs2, 7, %p1;",
    "mov.u32 %r1, %tid.x;",
    "mov.u32 %r1, %ntid.x;",
    "mov.u32 %r1, %ctaid.y;",
    "mov.u32 %r1, WARP_SZ;",
    "mov.b64 %rd1, {%r1, %r2};",
    "mov.b64 {%r1, %r2}, %rd1;",
    "mov.b32 {%rs1, %rs2}, %r1;",
    "vote.sync.ballot.b32 %r1, 1, -1;",
    "bar.warp.sync -1;",
    "ret;",
];

fn case_of(line: &str) -> String {
    format!("{DECLS}    {line}\n")
}

#[test]
fn a_case_reads_what_kernel_bodies_run() {
    let mut bad = Vec::new();
    for line in ACCEPTED {
        let src = case_of(line);
        match parse(&src) {
            Ok(case) => {
                // And prints as something that reads back the same.
                let again = parse(&print(&case))
                    .unwrap_or_else(|e| panic!("`{line}` prints unreadably: {e}"));
                assert_eq!(again, case, "`{line}` changes when printed");
            }
            Err(e) => bad.push(format!("`{line}`: {e}")),
        }
    }
    assert!(bad.is_empty(), "rejected:\n  {}", bad.join("\n  "));
}

#[test]
fn a_case_refuses_only_memory_and_launches() {
    for line in [
        "ld.global.u32 %r1, [%rd1];",
        "st.shared.u32 [%rd1+4], %r1;",
        "ld.local.u32 %r1, [%rd1];",
        "cvta.to.global.u64 %rd1, %rd2;",
        "bar.sync 0;",
        "barrier.sync.aligned 0;",
        "call.uni f, (%r1);",
        ".param .b32 p;",
        ".local .b32 x;",
    ] {
        let e = parse(&case_of(line)).expect_err(line).to_string();
        assert!(
            e.contains("--launch") && e.contains("a case file does not have"),
            "`{line}`: {e}"
        );
    }
}

/// A register of each type, named after it, for the round trip below.
fn reg_of(prog: &mut Program, ty: Type, k: usize) -> Reg {
    // 8-bit values live in 32-bit registers (`cvt` may write wider ones).
    let ty = if ty.bits() == 8 { Type::B32 } else { ty };
    let name = format!("%{}_{k}", ty.name());
    match prog.reg(&name) {
        Some(r) => r,
        None => {
            prog.regs.push(RegDecl { name, ty });
            Reg(prog.regs.len() as u32 - 1)
        }
    }
}

/// Every form of the rest of the dialect, with registers for operands,
/// prints and parses back as itself, and is the form it was made as.
#[test]
fn every_dialect_form_round_trips() {
    let mut prog = Program::default();
    let mut ops: Vec<Op> = dialect_glue_forms().into_iter().map(Op::Glue).collect();
    ops.extend(lane_op_forms().into_iter().map(Op::LaneOp));
    for op in &mut ops {
        let mut k = 0;
        for (d, ty) in op.dests_mut() {
            *d = Dest::Reg(reg_of(&mut prog, ty, k));
            k += 1;
        }
        for (o, ty, _) in op.sources_mut() {
            *o = Operand::Reg(reg_of(&mut prog, ty, k));
            k += 1;
        }
    }
    let forms: Vec<String> = ops.iter().map(Op::form_name).collect();
    for (i, op) in ops.into_iter().enumerate() {
        prog.insts.push(Inst {
            guard: None,
            op,
            line: i as u32,
        });
    }
    let case = Case {
        program: prog,
        ..Case::default()
    };
    let text = print(&case);
    let back = parse(&text).unwrap_or_else(|e| panic!("{e}\n{text}"));
    assert_eq!(back.program.insts.len(), forms.len());
    for (inst, form) in back.program.insts.iter().zip(&forms) {
        assert_eq!(&inst.op.form_name(), form);
    }
    assert_eq!(back, case, "print → parse changed a form");
    // Form names are unique.
    let all = all_forms();
    let set: std::collections::BTreeSet<&String> = all.iter().collect();
    assert_eq!(set.len(), all.len(), "duplicate form names");
}

/// The special registers of a case are those of one warp of one CTA of
/// 32 threads (ISA "Special Registers": `%tid` "a predefined, read-only,
/// per-thread special register initialized with the thread identifier
/// within the CTA", `%ntid` the CTA's shape, `%ctaid` the CTA's index,
/// `%lanemask_lt` "a 32-bit mask with bits set in positions less than the
/// thread's lane number in the warp").
#[test]
fn special_registers_read_one_warp_of_one_cta() {
    let src = "\
.reg .u32 t, n, c, nc, lt, le, eq, ge, gt, w;
    mov.u32 t, %tid.x;
    mov.u32 n, %ntid.x;
    mov.u32 c, %ctaid.x;
    mov.u32 nc, %nctaid.x;
    mov.u32 lt, %lanemask_lt;
    mov.u32 le, %lanemask_le;
    mov.u32 eq, %lanemask_eq;
    mov.u32 ge, %lanemask_ge;
    mov.u32 gt, %lanemask_gt;
    mov.u32 w, WARP_SZ;
";
    let case = parse(src).expect("parses");
    let out = Interp::new(&case.program).run(&case.inputs).expect("runs");
    for lane in 0..WARP {
        let v = |r: u32| out.values[r as usize][lane];
        let bit = 1u64 << lane;
        assert_eq!(v(0), lane as u64, "%tid.x");
        assert_eq!(v(1), 32, "%ntid.x");
        assert_eq!(v(2), 0, "%ctaid.x");
        assert_eq!(v(3), 1, "%nctaid.x");
        assert_eq!(v(4), bit - 1, "%lanemask_lt");
        assert_eq!(v(5), (bit << 1) - 1, "%lanemask_le");
        assert_eq!(v(6), bit, "%lanemask_eq");
        assert_eq!(v(7), 0xffff_ffff & !(bit - 1), "%lanemask_ge");
        assert_eq!(v(8), 0xffff_ffff & !((bit << 1) - 1), "%lanemask_gt");
        assert_eq!(v(9), 32, "WARP_SZ");
    }
}
