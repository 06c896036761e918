//! `warpdiff run`: run case files on an engine and print the results.

use crate::{json, table};
use warp_core::check::{check_expect, MismatchReport};
use warp_core::interp::DEFAULT_FUEL;
use warp_core::text::parse;
use warp_lower::engines;

/// Parsed command-line options of `run` (and `diff`).
pub struct Options {
    /// The engine's name.
    pub engine: String,
    /// `--json`.
    pub json: bool,
    /// `--fuel`.
    pub fuel: u64,
    /// The files, in order.
    pub files: Vec<String>,
}

impl Options {
    /// Parses the arguments after the command.
    pub fn parse(args: &[String]) -> Result<Options, String> {
        let mut o = Options {
            engine: "interp".to_string(),
            json: false,
            fuel: DEFAULT_FUEL,
            files: Vec::new(),
        };
        let mut it = args.iter();
        while let Some(a) = it.next() {
            match a.as_str() {
                "--json" => o.json = true,
                "--engine" => {
                    o.engine = it.next().ok_or("--engine needs a value")?.clone();
                }
                "--fuel" => {
                    let v = it.next().ok_or("--fuel needs a value")?;
                    o.fuel = v.parse().map_err(|_| format!("bad --fuel `{v}`"))?;
                }
                "--" => o.files.extend(it.by_ref().cloned()),
                f if f.starts_with("--") => return Err(format!("unknown option `{f}`")),
                f => o.files.push(f.to_string()),
            }
        }
        if engines::by_name(&o.engine).is_none() {
            return Err(format!(
                "unknown engine `{}` (available: {})",
                o.engine,
                engines::ENGINES.join(", ")
            ));
        }
        if o.files.is_empty() {
            return Err("no files given".to_string());
        }
        Ok(o)
    }
}

/// How one file ended, in increasing order of severity for the exit status.
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
enum Status {
    Ok,
    Mismatch,
    Ub,
    Error,
}

/// Runs every file and returns the exit status.
pub fn run(o: &Options) -> u8 {
    let mut worst = Status::Ok;
    for file in &o.files {
        let st = run_file(o, file);
        worst = worst.max(st);
    }
    match worst {
        Status::Ok => 0,
        Status::Mismatch => 1,
        Status::Ub => 3,
        Status::Error => 2,
    }
}

fn report_error(o: &Options, file: &str, msg: String) -> Status {
    if o.json {
        println!("{}", json::error(file, &msg));
    } else {
        println!("== {file} ==\nerror: {msg}\n");
    }
    Status::Error
}

fn run_file(o: &Options, file: &str) -> Status {
    let src = match std::fs::read_to_string(file) {
        Ok(s) => s,
        Err(e) => return report_error(o, file, format!("{file}: cannot read: {e}")),
    };
    let case = match parse(&src) {
        Ok(c) => c,
        Err(e) => return report_error(o, file, e.with_file(file)),
    };
    let engine = engines::for_one_run(&o.engine).expect("checked in Options::parse");
    let compiled = match engine.compile(&case.program, o.fuel) {
        Ok(c) => c,
        Err(skip) => {
            return report_error(o, file, format!("{file}: {} skips it: {skip}", o.engine))
        }
    };
    let out = match compiled.run(&case.inputs) {
        Ok(out) => out,
        Err(e) => return report_error(o, file, format!("{file}: {e}")),
    };
    if let Some(ub) = &out.ub {
        if o.json {
            println!("{}", json::ub(file, ub));
        } else {
            println!("== {file} ({}) ==\n{file}:{}: {ub}\n", o.engine, ub.line);
        }
        return Status::Ub;
    }
    if o.json {
        println!("{}", json::outcome(file, &o.engine, &case.program, &out));
    } else {
        let steps = if out.steps > 0 {
            format!(", {} warp steps", out.steps)
        } else {
            String::new()
        };
        println!(
            "== {file} ({}{steps}) ==\n{}",
            o.engine,
            table::outcome(&case.program, &out)
        );
    }
    if case.expect.regs.is_empty() {
        return Status::Ok;
    }
    // The reference's run says where NaN bits are open (any NaN matches).
    let reference = if o.engine == "interp" {
        Some(out.clone())
    } else {
        warp_core::interp::Interp::new(&case.program)
            .with_fuel(o.fuel)
            .run(&case.inputs)
            .ok()
    };
    let mism = check_expect(&case.expect, &out, o.engine == "interp", reference.as_ref());
    if mism.is_empty() {
        if !o.json {
            println!("expect: all {} registers match\n", case.expect.regs.len());
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
        eprint!("{text}");
    } else {
        println!("{text}");
    }
    Status::Mismatch
}
