//! `warpdiff run`: run case files on an engine and print the results.

use crate::cli::RunArgs;
use crate::engines::spec::EngineSpec;
use crate::engines::{self, EngineSet};
use crate::output::{json, table};
use crate::{errln, outln};
use warp_core::check::{check_expect, check_stop, MismatchReport};
use warp_core::engine::{CompileError, Engine};
use warp_core::oracle::compile_guarded;

/// How one file ended, in increasing order of severity for the exit status.
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
enum Status {
    Ok,
    Mismatch,
    Ub,
    Error,
}

/// Runs every file and returns the exit status.
pub fn run(o: &RunArgs) -> u8 {
    if o.kernel.wanted() {
        return crate::cmd::run_kernel::run(o);
    }
    let set = match EngineSet::open(std::slice::from_ref(&o.engine), &o.ext.options()) {
        Ok(s) => s,
        Err(m) => {
            errln!("warpdiff run: {m}");
            return 2;
        }
    };
    let engine: Box<dyn Engine> = match &o.engine {
        EngineSpec::Builtin(n) => {
            engines::for_one_run_limited(n, o.limits.jit()).expect("every built-in is an engine")
        }
        EngineSpec::Cmd(_) => Box::new(set.external[0].clone()),
    };
    let mut worst = Status::Ok;
    for file in &o.files {
        let st = run_file(o, &file.display().to_string(), engine.as_ref());
        worst = worst.max(st);
    }
    match worst {
        Status::Ok => 0,
        Status::Mismatch => 1,
        Status::Ub => 3,
        Status::Error => 2,
    }
}

fn report_error(o: &RunArgs, file: &str, msg: String) -> Status {
    if o.json {
        outln!("{}", json::error(file, &msg));
    } else {
        outln!("== {file} ==\nerror: {msg}\n");
    }
    Status::Error
}

/// Reads and parses a case file; the error names the file, and the line
/// and column where the text is wrong.
pub fn read_case(file: &str) -> Result<warp_core::ir::Case, String> {
    std::fs::read_to_string(file)
        .map_err(|e| format!("{file}: cannot read: {e}"))
        .and_then(|s| warp_core::text::parse(&s).map_err(|e| e.with_file(file)))
}

fn run_file(o: &RunArgs, file: &str, engine: &dyn Engine) -> Status {
    let case = match read_case(file) {
        Ok(c) => c,
        Err(m) => return report_error(o, file, m),
    };
    let name = engine.name();
    let compiled = match compile_guarded(engine, &case.program, o.limits.fuel) {
        Ok(c) => c,
        Err(CompileError::Skip(skip)) => {
            return report_error(o, file, format!("{file}: {name} skips it: {skip}"))
        }
        Err(CompileError::Failed(m)) => {
            return report_error(o, file, format!("{file}: {name} failed to compile it: {m}"))
        }
    };
    let out = match compiled.run(&case.inputs) {
        Ok(out) => out,
        Err(e) => return report_error(o, file, format!("{file}: {name}: {e}")),
    };
    if let Some(ub) = &out.ub {
        if o.json {
            outln!("{}", json::ub(file, ub));
        } else {
            outln!("== {file} ({name}) ==\n{file}:{}: {ub}\n", ub.line);
        }
        return Status::Ub;
    }
    if o.json {
        outln!("{}", json::outcome(file, name, &case.program, &out));
    } else {
        let mut steps = if out.steps > 0 {
            format!(", {} warp steps", out.steps)
        } else {
            String::new()
        };
        if let Some(s) = out.stop {
            steps.push_str(&format!(", out of fuel before line {}", s.line));
        }
        outln!(
            "== {file} ({name}{steps}) ==\n{}",
            table::outcome(&case.program, &out)
        );
    }
    if let Some(why) = check_stop(&case.expect, &out) {
        let text = format!("{file}: {name} {why}");
        if o.json {
            errln!("{text}");
        } else {
            outln!("{text}\n");
        }
        return Status::Mismatch;
    }
    if case.expect.regs.is_empty() {
        return Status::Ok;
    }
    // The reference's run says where NaN bits are open (any NaN matches).
    let is_reference = name == "interp";
    let reference = if is_reference {
        Some(out.clone())
    } else {
        warp_core::interp::Interp::new(&case.program)
            .with_fuel(o.limits.fuel)
            .run(&case.inputs)
            .ok()
    };
    let mism = check_expect(&case.expect, &out, is_reference, reference.as_ref());
    if mism.is_empty() {
        if !o.json {
            outln!("expect: all {} registers match\n", case.expect.regs.len());
        }
        return Status::Ok;
    }
    // In --json mode stdout carries exactly one object per file; the
    // mismatches go to stderr.
    let report = MismatchReport {
        program: &case.program,
        mismatches: &mism,
    };
    let text = format!(
        "{file}: .expect differs on {} lane(s):\n{report}",
        mism.len()
    );
    if o.json {
        errln!("{}", text.trim_end());
    } else {
        outln!("{text}");
    }
    Status::Mismatch
}
