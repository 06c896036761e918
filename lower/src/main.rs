//! `warpdiff`: run, compare and fuzz PTX warp-level programs.
//!
//! ```text
//! warpdiff run [--engine interp] [--json] [--fuel N] FILE...
//! ```

mod json;
mod run;
mod table;

use std::process::ExitCode;

const USAGE: &str = "\
usage: warpdiff run [--engine interp] [--json] [--fuel N] FILE...

  run      run each .ptx case file and print its final registers per lane
           (a table, or with --json one JSON object per file, one per line);
           files with .expect lines are checked against them
  --engine which engine runs the files (only `interp`, the reference, so far)
  --json   machine-readable output
  --fuel   maximum warp steps before a run stops (default 1000000)

exit status: 0 every file ran (and matched its .expect), 1 an .expect
mismatch, 3 a file hit undefined behaviour, 2 a file could not be read,
parsed or finished (or bad arguments)";

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    match args.first().map(String::as_str) {
        Some("run") => match run::Options::parse(&args[1..]) {
            Ok(opts) => ExitCode::from(run::run(&opts)),
            Err(e) => {
                eprintln!("warpdiff run: {e}\n\n{USAGE}");
                ExitCode::from(2)
            }
        },
        Some("-h" | "--help" | "help") => {
            println!("{USAGE}");
            ExitCode::SUCCESS
        }
        Some(other) => {
            eprintln!("warpdiff: unknown command `{other}`\n\n{USAGE}");
            ExitCode::from(2)
        }
        None => {
            eprintln!("{USAGE}");
            ExitCode::from(2)
        }
    }
}
