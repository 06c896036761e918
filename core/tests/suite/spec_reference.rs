//! The reference in the spec convergence model (`Interp::spec_model`), the
//! one a GPU with a perturbed schedule is compared with
//! (`Engine::spec_convergence`, `oracle::reference_interp`): on the H200's
//! own results of a perturbed run it defines no bit the hardware broke,
//! where the observed model does.

use warp_core::engine::{CompileError, Compiled, Engine};
use warp_core::interp::Interp;
use warp_core::ir::{Program, WARP};
use warp_core::oracle::reference_interp;
use warp_core::text::parse;

/// `p-activemask-79c52614`, found by `warpdiff fuzz --gpu-perturb 7` at
/// -O0 on an H200 (docs/log/gpu-2026-11-27-e/found/): the lanes slept for
/// different times before `activemask`, and the H200 gave lane 0 the mask
/// 1 and every other lane 0xfffffffe (the header's lines), where the
/// observed model says 0xffffffff on every lane.
const CASE: &str = "
.version 6.3
.target sm_70
.reg .b32 %b0, %b1;
.reg .u32 %r1;
.reg .s32 %s0;
.reg .f32 %f1;
.reg .u64 %rd1;
.reg .s64 %sd0;
.lanes %s0 = 0;
.lanes %f1 = 0f00000000;
.lanes %rd1 = 0;
    shfl.idx.b32 _, 0, 0, 0;
    bfind.shiftamt.s64 _, %sd0;
    activemask.b32 %r1;
    mov.u64 %sd0, 0;
";

/// The H200's `%r1`, lane by lane (the found case's header).
fn h200_r1(lane: usize) -> u64 {
    if lane == 0 {
        1
    } else {
        0xffff_fffe
    }
}

#[test]
fn the_perturbed_h200_activemask_lies_on_the_spec_models_defined_bits_only() {
    let case = parse(CASE).expect("parses");
    let r1 = case.program.reg("%r1").expect("%r1").index();
    let spec = Interp::new(&case.program)
        .spec_model()
        .run(&case.inputs)
        .expect("runs");
    let observed = Interp::new(&case.program).run(&case.inputs).expect("runs");
    assert!(spec.ub.is_none() && observed.ub.is_none());
    let mut observed_broken = 0;
    for lane in 0..WARP {
        let h = h200_r1(lane);
        // Spec: the lane's own bit is defined and set (it is active), and
        // the H200 agrees on every bit the model defines.
        let bits = spec.defined_bits[r1][lane];
        assert_eq!(bits >> lane & 1, 1, "lane {lane}: own bit defined");
        assert_eq!(
            spec.values[r1][lane] >> lane & 1,
            1,
            "lane {lane}: own bit set"
        );
        assert_eq!(
            spec.values[r1][lane] & bits,
            h & bits,
            "lane {lane}: spec model defines {bits:#x} of {:#x}, the H200 gave {h:#x}",
            spec.values[r1][lane]
        );
        // Observed: every bit defined, 0xffffffff, which the H200 broke.
        let ob = observed.defined_bits[r1][lane];
        if observed.values[r1][lane] & ob != h & ob {
            observed_broken += 1;
        }
    }
    assert_eq!(
        observed_broken, WARP,
        "the observed model is what the H200 broke on every lane"
    );
}

/// An engine that promises only the spec model's convergence.
struct Perturbed;

impl Engine for Perturbed {
    fn name(&self) -> &'static str {
        "perturbed"
    }
    fn spec_convergence(&self) -> bool {
        true
    }
    fn compile<'p>(
        &self,
        _prog: &'p Program,
        _fuel: u64,
    ) -> Result<Box<dyn Compiled + 'p>, CompileError> {
        unreachable!("only asked which model it needs")
    }
}

#[test]
fn the_oracle_compares_a_perturbed_engine_in_the_spec_model() {
    let case = parse(CASE).expect("parses");
    let r1 = case.program.reg("%r1").expect("%r1").index();
    let fuel = 1 << 20;
    let spec = reference_interp(&case.program, &[&Perturbed], fuel)
        .run(&case.inputs)
        .expect("runs");
    let plain = reference_interp(&case.program, &[], fuel)
        .run(&case.inputs)
        .expect("runs");
    // Lane 0 of `%r1`: the spec model defines only bit 0 (the others are
    // lanes that may have parted), the observed model all 32.
    assert_eq!(spec.defined_bits[r1][0], 1);
    assert_eq!(plain.defined_bits[r1][0], 0xffff_ffff);
}
