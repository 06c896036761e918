//! Replays every `corpus/*.ptx` file on every engine in
//! [`warp_lower::engines::ENGINES`]: one test per file and engine, named
//! `ENGINE::FILE-STEM` (`interp::scan-up-sync-h200`, `jit::scan-up-sync-h200`),
//! each checking the file's `.expect` lines lane by lane.
//!
//! - The interpreter checks undefined lanes too (`_` must be undefined) and
//!   must not hit undefined behaviour; other engines report every lane as
//!   defined, so they are checked on the lanes `.expect` defines.
//! - A file without `.expect` fails: it checks nothing.
//! - An engine that cannot run a program ([`Skip`]) makes its test
//!   *ignored*, with the reason printed; a skip never passes.
//!
//! The usual test-harness command line works (libtest-mimic): a filter
//! (`cargo test -p warp-lower --test corpus_replay -- jit::`), `--exact`,
//! `--skip`, `--list`, `--nocapture`, `--test-threads`.
//!
//! # Blessing
//!
//! `BLESS=1 cargo test -p warp-lower --test corpus_replay` makes each
//! `interp::` test rewrite its file's `.expect` lines from the reference
//! interpreter's outcome instead of checking them: the registers the file
//! already expects (every declared register when it expects none), with
//! `_` on undefined lanes. Everything else in the file stays byte for byte
//! as written (header, body comments, layout): only the `.expect`
//! directives are replaced, where the first one stood, and the result must
//! parse back to the same case with the new expectations (otherwise the file
//! is reprinted whole with `warp_core::text::print`, which drops body
//! comments, and a note says so). Files are written atomically (a temporary
//! file in the same folder, then a rename), and the files that changed are
//! listed at the end. Under `BLESS` the other engines' tests check the
//! expectations being blessed, so a blessed run still fails where the JIT
//! and the interpreter disagree. A program with undefined behaviour or that
//! runs out of fuel is never blessed. Review the diff before committing: the
//! corpus holds results measured on an H200, and a change to them means the
//! interpreter has changed its mind about real hardware.

use libtest_mimic::{Arguments, Completion, Failed, Trial};
use std::fmt::Write as _;
use std::ops::Range;
use std::path::{Path, PathBuf};
use std::sync::Mutex;
use warp_core::check::{check_expect, MismatchReport};
use warp_core::engine::Skip;
use warp_core::interp::{Outcome, DEFAULT_FUEL};
use warp_core::ir::{Case, Expect, Reg, WARP};
use warp_core::text::{parse, print};
use warp_lower::engines::{by_name, ENGINES};

/// The command that rewrites the corpus's `.expect` lines.
const BLESS_COMMAND: &str = "BLESS=1 cargo test -p warp-lower --test corpus_replay";

/// Files rewritten by this run under `BLESS` (printed at the end).
static BLESSED: Mutex<Vec<String>> = Mutex::new(Vec::new());

fn main() {
    let args = Arguments::from_args();
    let bless = bless_requested();
    let files = corpus_files();
    let mut trials = Vec::new();
    for &engine in ENGINES {
        for file in &files {
            let stem = file
                .file_stem()
                .map(|s| s.to_string_lossy().into_owned())
                .unwrap_or_default();
            let file = file.clone();
            trials.push(Trial::ignorable_test(
                format!("{engine}::{stem}"),
                move || replay(engine, &file, bless),
            ));
        }
    }
    trials.push(Trial::test("self-test::bless-splice", splice_self_test));
    if files.is_empty() {
        trials.push(Trial::test("corpus-is-empty", || {
            Err(format!("no .ptx files in {}", corpus_dir().display()).into())
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
    conclusion.exit();
}

/// `BLESS` set to anything but empty or `0`.
fn bless_requested() -> bool {
    std::env::var_os("BLESS").is_some_and(|v| !v.is_empty() && v != "0")
}

fn corpus_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../corpus")
}

/// `corpus/*.ptx`, sorted.
fn corpus_files() -> Vec<PathBuf> {
    let dir = corpus_dir();
    let mut v: Vec<PathBuf> = std::fs::read_dir(&dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .map(|e| e.expect("directory entry").path())
        .filter(|p| p.extension().is_some_and(|x| x == "ptx"))
        .collect();
    v.sort();
    v
}

/// `corpus/NAME.ptx`, for messages.
fn display_name(path: &Path) -> String {
    match path.file_name() {
        Some(n) => format!("corpus/{}", n.to_string_lossy()),
        None => path.display().to_string(),
    }
}

/// One test: `engine` on `path`.
fn replay(engine: &str, path: &Path, bless: bool) -> Result<Completion, Failed> {
    let name = display_name(path);
    let src = std::fs::read_to_string(path).map_err(|e| format!("{name}: {e}"))?;
    let case = parse(&src).map_err(|e| e.with_file(&name))?;
    let is_reference = engine == "interp";
    if bless && is_reference {
        bless_file(path, &name, &src, &case)?;
        return Ok(Completion::Completed);
    }
    let expect = if bless {
        // What the `interp::` test of this file is writing into it.
        blessed_expect(&case, &name)?
    } else {
        if case.expect.regs.is_empty() {
            return Err(format!(
                "{name}: no `.expect` lines, so it checks nothing; add them by hand or \
                 write them from the interpreter with `{BLESS_COMMAND}`"
            )
            .into());
        }
        case.expect.clone()
    };
    if engine == "gpu" {
        if let Some(what) = warp_core::corpus::gpu_fails(&case) {
            // A hung kernel would switch the GPU off for every later test.
            return Ok(Completion::ignored_with(format!(
                "{name}: not run on the GPU, it hangs there: {what}"
            )));
        }
    }
    let out = match run(engine, &case, &name)? {
        Ok(out) => out,
        Err(skip) => return Ok(Completion::ignored_with(format!("{engine}: {skip}"))),
    };
    if let Some(ub) = &out.ub {
        return Err(format!("{name}: {engine}: {ub}").into());
    }
    // The interpreter's run says where NaN bits are open (any NaN matches).
    let reference = warp_core::interp::Interp::new(&case.program)
        .run(&case.inputs)
        .ok();
    let mismatches = check_expect(&expect, &out, is_reference, reference.as_ref());
    if mismatches.is_empty() {
        return Ok(Completion::Completed);
    }
    if engine == "gpu" {
        if let Some(why) = warp_core::corpus::known_gpu_divergence(&case) {
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
        "{name}: `{engine}` differs from `.expect` on {} lane(s) of {regs} register(s):",
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
            "(under BLESS, `{engine}` is checked against the interpreter's outcome being blessed: \
             the two engines disagree)"
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

/// Compiles and runs `case` on `engine`: the outcome, or the engine's skip.
fn run(engine: &str, case: &Case, name: &str) -> Result<Result<Outcome, Skip>, Failed> {
    let Some(e) = by_name(engine) else {
        return Ok(Err(Skip {
            reason: format!("engine `{engine}` is not available in this build"),
        }));
    };
    let compiled = match e.compile(&case.program, DEFAULT_FUEL) {
        Ok(c) => c,
        Err(skip) => return Ok(Err(skip)),
    };
    let out = compiled
        .run(&case.inputs)
        .map_err(|err| format!("{name}: {engine}: {err}"))?;
    Ok(Ok(out))
}

/// The `.expect` registers blessing writes: those the file expects, else
/// every declared register, with the interpreter's values (`None` where
/// undefined). Fails on undefined behaviour or running out of fuel.
fn blessed_expect(case: &Case, name: &str) -> Result<Expect, Failed> {
    let out = match run("interp", case, name)? {
        Ok(out) => out,
        Err(skip) => return Err(format!("{name}: the interpreter skipped it: {skip}").into()),
    };
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
            .map(|r| (r, std::array::from_fn(|lane| out.get(r, lane))))
            .collect(),
    })
}

/// Rewrites `path`'s `.expect` lines from the interpreter, if they change.
fn bless_file(path: &Path, name: &str, src: &str, case: &Case) -> Result<(), Failed> {
    let mut blessed = case.clone();
    blessed.expect = blessed_expect(case, name)?;
    if blessed.expect == case.expect {
        return Ok(());
    }
    let text = match splice_expect(src, &blessed) {
        Some(t) if parse(&t).as_ref() == Ok(&blessed) => t,
        _ => {
            let t = print(&blessed);
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
    write_atomically(path, &text).map_err(|e| format!("{name}: not blessed: {e}"))?;
    BLESSED
        .lock()
        .unwrap_or_else(|e| e.into_inner())
        .push(name.to_string());
    Ok(())
}

/// `src` with its `.expect` directives replaced by `blessed`'s, printed by
/// [`print`] and put where the first one stood (at the end if there was
/// none); everything else is left as written. `None` if the directives
/// cannot be delimited.
fn splice_expect(src: &str, blessed: &Case) -> Option<String> {
    let printed = print(blessed);
    let lines: Vec<&str> = printed
        .lines()
        .filter(|l| l.starts_with(".expect "))
        .collect();
    if lines.len() != blessed.expect.regs.len() {
        return None;
    }
    let spans = expect_spans(src)?;
    let mut out = String::with_capacity(src.len() + 64);
    match spans.first() {
        None => {
            out.push_str(src);
            if !out.is_empty() && !out.ends_with('\n') {
                out.push('\n');
            }
            for l in &lines {
                out.push_str(l);
                out.push('\n');
            }
        }
        Some(_) => {
            let mut at = 0;
            for (i, span) in spans.iter().enumerate() {
                let mut span = whole_lines(src, span.clone());
                if i > 0 && !src[..span.end].ends_with('\n') {
                    // A directive removed from a shared line takes its
                    // trailing blanks with it.
                    let blanks = src[span.end..]
                        .find(|c| c != ' ' && c != '\t')
                        .unwrap_or(src.len() - span.end);
                    span.end += blanks;
                }
                out.push_str(&src[at..span.start]);
                if i == 0 {
                    out.push_str(&lines.join("\n"));
                    if src[..span.end].ends_with('\n') {
                        out.push('\n');
                    }
                }
                at = span.end;
            }
            out.push_str(&src[at..]);
        }
    }
    Some(out)
}

/// `span` widened to whole lines when only blanks share its lines: from the
/// start of its first line, through the newline ending its last.
fn whole_lines(src: &str, span: Range<usize>) -> Range<usize> {
    let line_start = src[..span.start].rfind('\n').map_or(0, |i| i + 1);
    let before_blank = src[line_start..span.start]
        .chars()
        .all(|c| c == ' ' || c == '\t');
    let rest = &src[span.end..];
    let line_end = rest.find('\n').map_or(src.len(), |i| span.end + i + 1);
    let after_blank = src[span.end..line_end].chars().all(|c| c.is_whitespace());
    if before_blank && after_blank {
        line_start..line_end
    } else {
        span
    }
}

/// The byte ranges of every `.expect ... ;` directive in `src`, skipping
/// `//` and `/* */` comments (as the lexer does). `None` if one has no `;`.
fn expect_spans(src: &str) -> Option<Vec<Range<usize>>> {
    fn word_char(c: u8) -> bool {
        c.is_ascii_alphanumeric() || matches!(c, b'_' | b'$' | b'.')
    }
    /// Index just past the comment starting at `i`, if one does.
    fn skip_comment(b: &[u8], i: usize) -> Option<usize> {
        match (b[i], b.get(i + 1)) {
            (b'/', Some(b'/')) => Some(
                b[i..]
                    .iter()
                    .position(|&c| c == b'\n')
                    .map_or(b.len(), |n| i + n),
            ),
            (b'/', Some(b'*')) => Some(
                b[i + 2..]
                    .windows(2)
                    .position(|w| w == b"*/")
                    .map_or(b.len(), |n| i + 2 + n + 2),
            ),
            _ => None,
        }
    }
    const DIRECTIVE: &[u8] = b".expect";
    let b = src.as_bytes();
    let mut spans = Vec::new();
    let mut i = 0;
    while i < b.len() {
        if let Some(next) = skip_comment(b, i) {
            i = next;
            continue;
        }
        let starts_word = i == 0 || !word_char(b[i - 1]);
        let is_directive = b[i..].starts_with(DIRECTIVE)
            && b.get(i + DIRECTIVE.len()).is_none_or(|&c| !word_char(c));
        if !(starts_word && is_directive) {
            i += 1;
            continue;
        }
        let start = i;
        i += DIRECTIVE.len();
        loop {
            if i >= b.len() {
                return None;
            }
            if let Some(next) = skip_comment(b, i) {
                i = next;
                continue;
            }
            i += 1;
            if b[i - 1] == b';' {
                break;
            }
        }
        spans.push(start..i);
    }
    Some(spans)
}

/// Writes `text` to `path` through a temporary file in the same folder and
/// a rename, so readers see the old file or the new one, never a part.
fn write_atomically(path: &Path, text: &str) -> std::io::Result<()> {
    let dir = path.parent().unwrap_or(Path::new("."));
    let file = path
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    let tmp = dir.join(format!(".{file}.bless-{}.tmp", std::process::id()));
    let result = std::fs::write(&tmp, text).and_then(|()| std::fs::rename(&tmp, path));
    if result.is_err() {
        let _ = std::fs::remove_file(&tmp);
    }
    result
}

/// Blessing's splicing on a file with comments everywhere, a multi-line
/// `.expect`, one sharing its line, and `.expect` inside comments.
fn splice_self_test() -> Result<(), Failed> {
    let src = "\
// header
.reg .b32 A, B; // .expect A = 1;
.lanes A = 3;
    // body comment /* .expect B = 9; */
    add.u32 B, A, 1;   // keep me
.expect A = 3; .expect B =
  4; // trailing
/* .expect A = 5; */
.expect A2 = 0;
";
    // `A2` is undeclared: drop that line for the parse, keep it for spans.
    let spans = expect_spans(src).ok_or("no spans")?;
    let found: Vec<&str> = spans.iter().map(|s| &src[s.clone()]).collect();
    let want = [".expect A = 3;", ".expect B =\n  4;", ".expect A2 = 0;"];
    if found != want {
        return Err(format!("spans {found:?}, want {want:?}").into());
    }
    let src = src.replace(".expect A2 = 0;\n", "");
    let case = parse(&src).map_err(|e| e.to_string())?;
    let mut blessed = case.clone();
    let b = case.program.reg("B").ok_or("B")?;
    blessed.expect.regs = vec![(b, std::array::from_fn(|l| (l != 0).then_some(l as u64)))];
    let got = splice_expect(&src, &blessed).ok_or("splice failed")?;
    let mut b_line = String::from(".expect B = _");
    for l in 1..WARP {
        let _ = write!(b_line, " {l}");
    }
    let want = src.replace(".expect A = 3; .expect B =\n  4;", &format!("{b_line};"));
    if got != want || parse(&got).as_ref() != Ok(&blessed) {
        return Err(format!("spliced:\n{got}\nwanted:\n{want}").into());
    }
    let none = ".reg .b32 A;\n.lanes A = 1;\n    mov.b32 A, 2;";
    let case = parse(none).map_err(|e| e.to_string())?;
    let mut blessed = case.clone();
    blessed.expect.regs = vec![(Reg(0), [Some(2); WARP])];
    let got = splice_expect(none, &blessed).ok_or("splice failed")?;
    if got != format!("{none}\n.expect A = 2;\n") {
        return Err(format!("appended:\n{got}").into());
    }
    Ok(())
}
