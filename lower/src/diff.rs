//! `warpdiff diff`: run each file on every available engine and compare
//! with the reference interpreter on its defined lanes.

use warp_core::compare::{compare, DiffReport};
use warp_core::interp::Interp;
use warp_core::text::parse;
use warp_lower::engines;

/// Runs `diff` over `files`; returns the exit status: 1 if any engine
/// diverged, else 2 if a file had an error, else 3 if a file hit UB (and
/// so was not compared), else 0. A GPU divergence that the file records as
/// known ([`warp_core::corpus::KNOWN_GPU_DIVERGENCE`]) is shown, not
/// counted.
pub fn diff(files: &[String], fuel: u64) -> u8 {
    let (mut diverged, mut error, mut ub) = (false, false, false);
    for file in files {
        let case = match std::fs::read_to_string(file)
            .map_err(|e| format!("{file}: cannot read: {e}"))
            .and_then(|s| parse(&s).map_err(|e| e.with_file(file)))
        {
            Ok(c) => c,
            Err(m) => {
                println!("{file}: error: {m}");
                error = true;
                continue;
            }
        };
        let reference = match Interp::new(&case.program).with_fuel(fuel).run(&case.inputs) {
            Ok(r) => r,
            Err(e) => {
                println!("{file}: error: interp: {e}");
                error = true;
                continue;
            }
        };
        if let Some(u) = &reference.ub {
            println!("{file}: not compared: {u}");
            ub = true;
            continue;
        }
        let mut line = format!("{file}: interp");
        for name in engines::ENGINES.iter().filter(|n| **n != "interp") {
            if *name == "gpu" {
                if let Some(what) = warp_core::corpus::gpu_fails(&case) {
                    line.push_str(&format!(
                        ", gpu not run (the file says it hangs there: {what})"
                    ));
                    continue;
                }
            }
            let engine = engines::for_one_run(name).expect("listed");
            let compiled = match engine.compile(&case.program, fuel) {
                Ok(c) => c,
                Err(skip) => {
                    line.push_str(&format!(", {name} skipped ({skip})"));
                    continue;
                }
            };
            match compiled.run(&case.inputs) {
                Err(e) => {
                    line.push_str(&format!(", {name} FAILED: {e}"));
                    diverged = true;
                }
                Ok(out) => {
                    let diffs = compare(&reference, &out);
                    let known = (*name == "gpu")
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
        println!("{}", line.trim_end());
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
