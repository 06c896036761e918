//! GPU results from schedules the reference's observed convergence model
//! does not predict but the PTX ISA allows.
//!
//! An unperturbed GPU is compared with the reference in the *observed*
//! model: where every H200 experiment kept the warp together, the
//! reference says so, and an `activemask` there is the whole group. The
//! ISA promises less: `activemask` "merely reads current execution mask",
//! and which threads run together is certain only at a `.sync` rendezvous
//! ("threads that are convergent at one point need not be at the next",
//! the model of [`warp_core::interp::Interp::spec_model`]).
//!
//! Runs at -O0 on H100s and H200s of 2026-11-27 (`docs/log/gpu-2026-11-27-g/`)
//! found, about once in 150,000 programs, an `activemask` of a part of the
//! warp where the observed model has all of it, agreeing when run again
//! alone. Most were a 64-bit `bfind` on a register with no value: its
//! machine code branches per lane on the high word, and what an unwritten
//! register holds changes from run to run; the reference now knows that
//! branch (`branches_per_lane` in `core/src/interp/converge.rs`). One
//! (`corpus/cases/activemask-schedule-in-batch-h200.ptx`) has no such
//! instruction: the H200, in a batch on a busy host, ran lanes apart where
//! every other run kept them together.
//!
//! Such a result is no compiler bug and no error of the reference's
//! semantics, so the fuzz loop counts it apart instead of reducing it:
//! when **every** differing bit is one the spec model leaves undefined
//! (or the program is undefined behaviour in the spec model, where the
//! ISA promises nothing), **and** the case, run again alone on the same
//! GPU, agrees with the reference. A result that the spec model rules
//! out, or that happens again, is a divergence as before.

use warp_core::compare::Diff;
use warp_core::gen::TestCase;
use warp_core::interp::Interp;
use warp_core::oracle::{Disagreement, Divergence};

/// Whether every bit on which the GPU's result `d` differs from the
/// observed-model reference is one the spec convergence model leaves
/// undefined for `case` (or the spec model finds the program undefined
/// behaviour on these inputs). Exited-lane and bounded-run differences
/// and engine failures are never schedule effects here.
pub fn allowed_by_spec_model(case: &TestCase, d: &Divergence) -> bool {
    let Disagreement::Values(diffs) = &d.what else {
        return false;
    };
    let Ok(spec) = Interp::new(&case.program).spec_model().run(&case.inputs) else {
        return false;
    };
    if spec.ub.is_some() {
        return true;
    }
    diffs.iter().all(|diff| match diff {
        Diff::Lane {
            reg, lane, other, ..
        } => {
            let i = reg.index();
            let defined = spec.defined_bits.get(i).map_or(0, |b| b[*lane]);
            let value = spec.values.get(i).map_or(0, |v| v[*lane]);
            (other ^ value) & defined == 0
        }
        Diff::Exited { .. } | Diff::Stop { .. } => false,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use warp_core::oracle::diverges;

    /// An `activemask` at the kernel's start: the observed model has the
    /// whole warp there (every H200 experiment started it together:
    /// 0xffffffff on every lane), the spec model only each lane's own bit.
    /// A GPU that gives each half of the warp itself differs from the
    /// observed reference on bits the spec model leaves open; one that
    /// clears a lane's own bit does not.
    const START: &str = "\
.version 6.3
.target sm_70
.reg .b32 %r0;
    activemask.b32 %r0;
";

    fn case() -> TestCase {
        let c = warp_core::text::parse(START).expect("parses");
        TestCase {
            program: c.program,
            inputs: c.inputs,
        }
    }

    fn gpu_gives(tc: &TestCase, r0: impl Fn(usize) -> u64) -> Box<Divergence> {
        let reference = Interp::new(&tc.program).run(&tc.inputs).expect("runs");
        let mut other = reference.clone();
        let i = tc
            .program
            .regs
            .iter()
            .position(|r| r.name == "%r0")
            .unwrap();
        for lane in 0..32 {
            other.values[i][lane] = r0(lane);
        }
        diverges("gpu", &tc.program, &reference, &other).expect("differs")
    }

    #[test]
    fn half_a_warp_at_the_start_is_a_schedule_the_isa_allows() {
        let tc = case();
        // Lanes 0-15 and 16-31 each alone.
        let d = gpu_gives(&tc, |l| if l < 16 { 0x0000_ffff } else { 0xffff_0000 });
        assert!(allowed_by_spec_model(&tc, &d));
    }

    #[test]
    fn a_mask_without_the_lane_itself_is_no_schedule() {
        let tc = case();
        // Lane 0 is active at its own activemask: its bit must be set.
        let d = gpu_gives(&tc, |l| if l == 0 { 0xffff_fffe } else { 0xffff_ffff });
        assert!(!allowed_by_spec_model(&tc, &d));
    }
}
