//! `warpdiff diff`: run each file on every engine named (by default every
//! built-in one) and compare with the reference interpreter on its defined
//! lanes. A PTX module with `--launch`/`--kernel` is compared by
//! [`crate::cmd::diff_kernel`], a GPU batch kept by `fuzz`
//! (`--gpu-batch-file`) by [`crate::cmd::diff_batch`], or reduced to the
//! batch mates its divergence needs (`--reduce-batch`) by
//! [`crate::cmd::reduce_batch`].

use crate::cli::DiffArgs;
use crate::cmd::run::read_case;
use crate::engines::spec::{flatten, ENGINES};
use crate::engines::EngineSet;
use crate::{errln, outln};
use warp_core::compare::{compare, DiffReport};
use warp_core::engine::{CompileError, RunError};
use warp_core::interp::Interp;
use warp_core::oracle::compile_guarded;

/// Runs `diff` over the files; returns the exit status: 1 if any engine
/// diverged (or failed on a valid program), else 2 if a file had an error,
/// else 3 if a file hit UB (and so was not compared), else 0. A GPU
/// divergence that the file records as known
/// ([`warp_core::corpus::KNOWN_GPU_DIVERGENCE`]) is shown, not counted.
pub fn diff(a: &DiffArgs) -> u8 {
    if a.kernel.wanted() {
        return crate::cmd::diff_kernel::diff(a);
    }
    if let (Some(file), true) = (&a.gpu_batch_file, a.reduce_batch) {
        return crate::cmd::reduce_batch::reduce_batch(file, a.seconds, a.max_tests);
    }
    if let Some(file) = &a.gpu_batch_file {
        return crate::cmd::diff_batch::diff_batch(file);
    }
    let set = match EngineSet::open(&flatten(&a.engines, ENGINES), &a.ext.options()) {
        Ok(s) => s,
        Err(m) => {
            errln!("warpdiff diff: {m}");
            return 2;
        }
    };
    let others = set.others(a.limits.jit(), |_| true, true);
    let (mut diverged, mut error, mut ub) = (false, false, false);
    for file in &a.files {
        let file = file.display().to_string();
        let case = match read_case(&file) {
            Ok(c) => c,
            Err(m) => {
                outln!("{file}: error: {m}");
                error = true;
                continue;
            }
        };
        let reference = match Interp::new(&case.program)
            .with_fuel(a.limits.fuel)
            .run(&case.inputs)
        {
            Ok(r) => r,
            Err(e) => {
                outln!("{file}: error: interp: {e}");
                error = true;
                continue;
            }
        };
        if let Some(u) = &reference.ub {
            outln!("{file}: not compared: {u}");
            ub = true;
            continue;
        }
        let mut line = format!("{file}: interp");
        for engine in &others {
            let name = engine.name();
            if name == "gpu" {
                if let Some(what) = warp_core::corpus::gpu_fails(&case) {
                    line.push_str(&format!(
                        ", gpu not run (the file says it hangs there: {what})"
                    ));
                    continue;
                }
            }
            let compiled = match compile_guarded(engine.as_ref(), &case.program, a.limits.fuel) {
                Ok(c) => c,
                Err(CompileError::Skip(skip)) => {
                    line.push_str(&format!(", {name} skipped ({skip})"));
                    continue;
                }
                Err(CompileError::Failed(m)) => {
                    line.push_str(&format!(", {name} FAILED to compile it: {m}"));
                    diverged = true;
                    continue;
                }
            };
            match compiled.run(&case.inputs) {
                Err(RunError::Unavailable(skip)) => {
                    line.push_str(&format!(", {name} skipped ({skip})"));
                }
                Err(e) => {
                    line.push_str(&format!(", {name} FAILED: {e}"));
                    diverged = true;
                }
                Ok(out) => {
                    let diffs = compare(&reference, &out);
                    let known = (name == "gpu")
                        .then(|| warp_core::corpus::known_gpu_divergence(&case))
                        .flatten();
                    if diffs.is_empty() {
                        line.push_str(&format!(" = {name}"));
                    } else if let Some(why) = known {
                        // Recorded and explained in the file: not a new
                        // divergence.
                        line.push_str(&format!(
                            ", {name} differs on {} lane(s) as recorded (known GPU divergence: {why})",
                            diffs.len()
                        ));
                    } else {
                        diverged = true;
                        let r = DiffReport {
                            program: &case.program,
                            reference: "interp",
                            other: name,
                            diffs: &diffs,
                        };
                        line.push_str(&format!(
                            ", {name} DIVERGES on {} lane(s):\n{r}",
                            diffs.len()
                        ));
                    }
                }
            }
        }
        outln!("{}", line.trim_end());
    }
    if diverged {
        1
    } else if error {
        2
    } else if ub {
        3
    } else {
        0
    }
}
