//! The one corpus replay harness: every case file under `corpus/` (the
//! H200 results and minimized regressions in `corpus/*.ptx`, the
//! hand-computed per-form cases in `corpus/cases/`, and any other folder
//! below it) replayed on an engine, one named test per file, each checking
//! the file's `.expect` lines lane by lane.
//!
//! Every engine's crate has a `tests/replay.rs` (`harness = false`) that
//! calls [`main`] with its engine, so the interpreter, the JIT and the GPU
//! replay the same files the same way:
//!
//! ```text
//! fn main() {
//!     warp_core::replay::main(|| Box::new(warp_core::interp::InterpEngine));
//! }
//! ```
//!
//! - Tests are named `ENGINE::FOLDER/STEM` (`jit::corpus/scan-up-sync-h200`,
//!   `interp::cases/shfl-sync-up-basic`); the usual harness command line
//!   works (libtest-mimic): a filter, `--exact`, `--skip`, `--list`,
//!   `--ignored`, `--nocapture`.
//! - The interpreter checks undefined lanes too (`_` must be undefined) and
//!   must not hit undefined behaviour; other engines report every lane as
//!   defined and are checked on the lanes `.expect` defines.
//! - A file without `.expect` or `.stop` fails: it checks nothing.
//! - An engine that cannot run a program (a [`Skip`]: no GPU, a target the
//!   device lacks) makes its test *ignored* with the reason; a skip never
//!   passes. A file whose header says the GPU hangs on it (`gpu-fails:`)
//!   or records an understood GPU divergence (`known-gpu-divergence:`) is
//!   ignored on the GPU with that reason.
//!
//! # Blessing
//!
//! `BLESS=1 cargo test -p warp-core --test replay` makes each test of the
//! reference rewrite its file's `.expect` lines from the interpreter's
//! outcome instead of checking them: the registers the file already expects
//! (every declared register when it expects none), with `_` on undefined
//! lanes. Everything else in the file stays byte for byte as written (see
//! `bless.rs`); files are written atomically and listed at the end. Under
//! `BLESS` other engines check the expectations being blessed, so a blessed
//! run still fails where they disagree with the interpreter. A program with
//! undefined behaviour or that runs out of fuel is never blessed. Review
//! the diff before committing: the corpus holds results measured on an
//! H200, and a change to them means the interpreter has changed its mind
//! about real hardware.

mod bless;

use crate::check::{check_expect, check_stop, MismatchReport};
use crate::compare::{compare, DiffReport};
use crate::engine::{CompileError, Engine, RunError, Skip};
use crate::interp::{Interp, DEFAULT_FUEL};
use crate::ir::{Case, Expect, Reg};
use crate::oracle::compile_guarded;
use crate::outcome::Outcome;
use crate::text::parse;
use libtest_mimic::{Arguments, Completion, Failed, Trial};
use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::sync::Mutex;

/// The command that rewrites the corpus's `.expect` lines.
pub const BLESS_COMMAND: &str = "BLESS=1 cargo test -p warp-core --test replay";

/// Files rewritten by this run under `BLESS` (printed at the end).
static BLESSED: Mutex<Vec<String>> = Mutex::new(Vec::new());

/// The repository's `corpus/` folder.
pub fn corpus_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../corpus")
}

/// Folders of whole PTX modules: `corpus/kernels/` (`.entry` kernels as
/// compilers emit them, with parameters and memory, which the case format
/// does not load yet: issue #13) and `corpus/repro/` (the standalone
/// reproducers `warpdiff repro` wrote for each compiler bug: `kernel.ptx`
/// is the harness module, `case.ptx` a copy of the corpus case) and
/// `corpus/check/` (the bug patterns `warpdiff check` reports, with their
/// launches). Replay leaves them out rather than fail on them.
pub const MODULE_DIRS: &[&str] = &["kernels", "repro", "check"];

/// Every `.ptx` case file under `dir`, in every folder below it but
/// [`MODULE_DIRS`], sorted.
pub fn case_files(dir: &Path) -> Vec<PathBuf> {
    let mut v = Vec::new();
    let mut todo = vec![dir.to_path_buf()];
    while let Some(d) = todo.pop() {
        let entries = std::fs::read_dir(&d).unwrap_or_else(|e| panic!("{}: {e}", d.display()));
        for e in entries {
            let p = e.unwrap_or_else(|e| panic!("{}: {e}", d.display())).path();
            if p.is_dir() {
                if !p
                    .file_name()
                    .is_some_and(|n| MODULE_DIRS.iter().any(|m| n == *m))
                {
                    todo.push(p);
                }
            } else if p.extension().is_some_and(|x| x == "ptx") {
                v.push(p);
            }
        }
    }
    v.sort();
    v
}

/// `corpus/NAME` or `cases/NAME` (the folder under the corpus root, or
/// `corpus` for its top), without `.ptx`: the test's name after `ENGINE::`.
pub fn test_name(root: &Path, path: &Path) -> String {
    let rel = path.strip_prefix(root).unwrap_or(path).with_extension("");
    let rel = rel.to_string_lossy().replace('\\', "/");
    if rel.contains('/') {
        rel
    } else {
        format!("corpus/{rel}")
    }
}

/// Runs every corpus file on the engine `make` builds, as one test per
/// file, and exits with the harness's status.
pub fn main(make: fn() -> Box<dyn Engine>) -> ! {
    let args = Arguments::from_args();
    let bless = bless_requested();
    let root = corpus_dir();
    let files = case_files(&root);
    let engine = make().name();
    let mut trials: Vec<Trial> = files
        .iter()
        .map(|file| {
            let file = file.clone();
            let name = test_name(&root, &file);
            Trial::ignorable_test(format!("{engine}::{name}"), move || {
                replay(make().as_ref(), &file, &name, bless)
            })
        })
        .collect();
    if files.is_empty() {
        trials.push(Trial::test("corpus-is-empty", move || {
            Err(format!("no .ptx files under {}", root.display()).into())
        }));
    }
    let conclusion = libtest_mimic::run(&args, trials);
    if bless && !args.list {
        let blessed = BLESSED.lock().unwrap_or_else(|e| e.into_inner());
        if blessed.is_empty() {
            println!("BLESS: no corpus file changed");
        } else {
            println!(
                "BLESS: rewrote the `.expect` lines of {} file(s):",
                blessed.len()
            );
            for f in blessed.iter() {
                println!("  {f}");
            }
        }
    }
    conclusion.exit()
}

/// `BLESS` set to anything but empty or `0`.
fn bless_requested() -> bool {
    std::env::var_os("BLESS").is_some_and(|v| !v.is_empty() && v != "0")
}

/// Replays one file on `engine`: `Completed`, or `Ignored` with why (a
/// skip, a GPU failure or divergence the file records).
pub fn replay(
    engine: &dyn Engine,
    path: &Path,
    name: &str,
    bless: bool,
) -> Result<Completion, Failed> {
    let name = format!("{name}.ptx");
    let engine_name = engine.name();
    let src = std::fs::read_to_string(path).map_err(|e| format!("{name}: {e}"))?;
    let case = parse(&src).map_err(|e| e.with_file(&name))?;
    let is_reference = engine_name == "interp";
    if bless && is_reference {
        bless_file(path, &name, &src, &case)?;
        return Ok(Completion::Completed);
    }
    let expect = if bless {
        // What the reference's test of this file is writing into it.
        blessed_expect(&case, &name)?
    } else {
        if case.expect.regs.is_empty() && case.expect.stop.is_none() {
            return Err(format!(
                "{name}: no `.expect` or `.stop` lines, so it checks nothing; add them by hand or \
                 write them from the interpreter with `{BLESS_COMMAND}`"
            )
            .into());
        }
        case.expect.clone()
    };
    if engine_name == "gpu" {
        if let Some(what) = crate::corpus::gpu_fails(&case) {
            // A hung kernel would switch the GPU off for every later test.
            return Ok(Completion::ignored_with(format!(
                "{name}: not run on the GPU, it hangs there: {what}"
            )));
        }
    }
    let out = match run(engine, &case, &name)? {
        Ok(out) => out,
        Err(skip) => return Ok(Completion::ignored_with(format!("{engine_name}: {skip}"))),
    };
    if let Some(ub) = &out.ub {
        return Err(format!("{name}: {engine_name}: {ub}").into());
    }
    // The interpreter's run says where NaN bits are open (any NaN matches).
    let reference = Interp::new(&case.program).run(&case.inputs).ok();
    if let Some(why) = check_stop(&expect, &out) {
        return Err(format!("{name}: `{engine_name}` {why}").into());
    }
    let mismatches = check_expect(&expect, &out, is_reference, reference.as_ref());
    if mismatches.is_empty() {
        return agrees_everywhere(&case, &name, engine_name, reference.as_ref(), &out);
    }
    if engine_name == "gpu" {
        if let Some(why) = crate::corpus::known_gpu_divergence(&case) {
            return Ok(Completion::ignored_with(format!(
                "{name}: known GPU divergence on {} lane(s): {why}",
                mismatches.len()
            )));
        }
    }
    let mut msg = String::new();
    let regs = {
        let mut r: Vec<Reg> = mismatches.iter().map(|m| m.reg).collect();
        r.dedup();
        r.len()
    };
    let _ = writeln!(
        msg,
        "{name}: `{engine_name}` differs from `.expect` on {} lane(s) of {regs} register(s):",
        mismatches.len()
    );
    let _ = write!(
        msg,
        "{}",
        MismatchReport {
            program: &case.program,
            mismatches: &mismatches,
        }
    );
    if bless {
        let _ = write!(
            msg,
            "(under BLESS, `{engine_name}` is checked against the interpreter's outcome being \
             blessed: the two engines disagree)"
        );
    } else if is_reference {
        let _ = write!(
            msg,
            "If the interpreter is right and the file is wrong, rewrite its `.expect` lines \
             from the interpreter (then review the diff): {BLESS_COMMAND}"
        );
    } else {
        let _ = write!(
            msg,
            "Blessing rewrites `.expect` from the interpreter, so it fixes this only when \
             `interp::` fails on the same lanes: {BLESS_COMMAND}"
        );
    }
    Err(msg.into())
}

/// Past `.expect`: a CPU engine must also agree with the interpreter on
/// every defined bit of every register (`.expect` may name only some) and
/// on the exited lanes. Not the GPU: its known divergences are excused by
/// the file's header, which only `.expect` is checked against.
fn agrees_everywhere(
    case: &Case,
    name: &str,
    engine_name: &str,
    reference: Option<&Outcome>,
    out: &Outcome,
) -> Result<Completion, Failed> {
    let Some(reference) = reference.filter(|_| engine_name != "interp" && engine_name != "gpu")
    else {
        return Ok(Completion::Completed);
    };
    let diffs = compare(reference, out);
    if diffs.is_empty() {
        return Ok(Completion::Completed);
    }
    Err(format!(
        "{name}: `{engine_name}` agrees with `.expect` but not with the interpreter elsewhere:\n{}",
        DiffReport {
            program: &case.program,
            reference: "interp",
            other: engine_name,
            diffs: &diffs,
        }
    )
    .into())
}

/// Compiles and runs `case` on `engine`: the outcome, or the engine's
/// skip; an engine failure (or panic) fails the test.
fn run(engine: &dyn Engine, case: &Case, name: &str) -> Result<Result<Outcome, Skip>, Failed> {
    let compiled = match compile_guarded(engine, &case.program, DEFAULT_FUEL) {
        Ok(c) => c,
        Err(CompileError::Skip(skip)) => return Ok(Err(skip)),
        Err(CompileError::Failed(m)) => {
            return Err(format!("{name}: {} failed to compile it: {m}", engine.name()).into())
        }
    };
    match compiled.run(&case.inputs) {
        Ok(out) => Ok(Ok(out)),
        Err(RunError::Unavailable(skip)) => Ok(Err(skip)),
        Err(err) => Err(format!("{name}: {}: {err}", engine.name()).into()),
    }
}

/// The `.expect` registers blessing writes: those the file expects, else
/// every declared register, with the interpreter's values (`None` where
/// undefined). Fails on undefined behaviour or running out of fuel.
fn blessed_expect(case: &Case, name: &str) -> Result<Expect, Failed> {
    let out = Interp::new(&case.program)
        .run(&case.inputs)
        .map_err(|e| format!("{name}: not blessed: interp: {e}"))?;
    if let Some(ub) = &out.ub {
        return Err(format!("{name}: not blessed: interp: {ub}").into());
    }
    let regs: Vec<Reg> = if case.expect.regs.is_empty() {
        (0..case.program.regs.len())
            .map(|i| Reg(i as u32))
            .collect()
    } else {
        case.expect.regs.iter().map(|(r, _)| *r).collect()
    };
    Ok(Expect {
        regs: regs
            .into_iter()
            .map(|r| (r, std::array::from_fn(|lane| out.bits(r, lane))))
            .collect(),
        stop: out.stop.map(|s| s.line),
    })
}

/// Rewrites `path`'s `.expect` lines from the interpreter, if they change.
fn bless_file(path: &Path, name: &str, src: &str, case: &Case) -> Result<(), Failed> {
    let mut blessed = case.clone();
    blessed.expect = blessed_expect(case, name)?;
    if blessed.expect == case.expect {
        return Ok(());
    }
    let text = match bless::splice_expect(src, &blessed) {
        Some(t) if parse(&t).as_ref() == Ok(&blessed) => t,
        _ => {
            let t = crate::text::print(&blessed);
            if parse(&t).as_ref() != Ok(&blessed) {
                return Err(format!(
                    "{name}: not blessed: the rewritten file does not parse back to the same case"
                )
                .into());
            }
            println!("BLESS: {name}: reprinted whole (comments inside the body are lost)");
            t
        }
    };
    if text == src {
        return Ok(());
    }
    bless::write_atomically(path, &text).map_err(|e| format!("{name}: not blessed: {e}"))?;
    BLESSED
        .lock()
        .unwrap_or_else(|e| e.into_inner())
        .push(name.to_string());
    Ok(())
}
