//! A GPU batch as it ran, kept next to a finding that agrees alone (the
//! `.batch.txt` file of [`crate::fuzz::retry`]; the format is in
//! docs/case-format.md): every case of the batch, in the order the batch
//! ran them, each a case text as `warp_core::text::print` writes it (the
//! program with its input set), under a marker line that gives its index
//! and says which one diverged. `warpdiff diff --gpu-batch-file FILE` runs it
//! again as one batch.

use std::io::Write as _;
use std::path::{Path, PathBuf};
use warp_core::gen::TestCase;

/// The start of the line before each case of a batch file:
/// `// ==== batch case N ====` or `// ==== batch case N (diverged) ====`.
pub const MARK: &str = "// ==== batch case ";

/// What the marker of the diverged case says after its index.
const DIVERGED: &str = " (diverged)";

/// A batch read back from its file.
#[derive(Clone, Debug)]
pub struct SavedBatch {
    /// The comment lines before the first case, without `// `.
    pub header: Vec<String>,
    /// The cases, in the order the batch ran them.
    pub cases: Vec<TestCase>,
    /// The index of the case that diverged.
    pub diverged: usize,
}

/// The text of a batch file: `notes` as its header, then each case of
/// `cases` under its marker, `diverged` marked.
pub fn batch_text(cases: &[&TestCase], diverged: usize, notes: &[String]) -> String {
    let mut s = format!(
        "// warpdiff GPU batch: {} case(s), run as one batch in this order; case {diverged} diverged.\n",
        cases.len()
    );
    for n in notes {
        for l in n.lines() {
            s.push_str(&format!("// {l}\n"));
        }
    }
    for (i, c) in cases.iter().enumerate() {
        let mark = if i == diverged { DIVERGED } else { "" };
        s.push_str(&format!("{MARK}{i}{mark} ====\n"));
        s.push_str(&warp_core::text::print(&c.to_case()));
        if !s.ends_with('\n') {
            s.push('\n');
        }
    }
    s
}

/// Reads and parses the batch file at `file`: the error says what is wrong
/// and where (the file, and the line and column for a parse error).
pub fn read_batch(file: &Path) -> Result<SavedBatch, String> {
    let name = file.display().to_string();
    let text = std::fs::read_to_string(file).map_err(|e| format!("{name}: {e}"))?;
    parse_batch(&text, &name)
}

/// Reads a batch file's text (`file` names it in errors, which give the
/// line and column in the whole file).
pub fn parse_batch(text: &str, file: &str) -> Result<SavedBatch, String> {
    let mut header = Vec::new();
    // Each case: the line its marker is on (1-based), whether it is the
    // diverged one, its text.
    let mut parts: Vec<(usize, bool, String)> = Vec::new();
    for (n, line) in text.lines().enumerate() {
        if let Some(rest) = line.trim_end().strip_prefix(MARK) {
            let Some(body) = rest.strip_suffix(" ====") else {
                return Err(format!(
                    "{file}:{}:1: a marker line that does not end with ` ====`",
                    n + 1
                ));
            };
            let (index, diverged) = match body.strip_suffix(DIVERGED) {
                Some(i) => (i, true),
                None => (body, false),
            };
            if index.parse::<usize>().ok() != Some(parts.len()) {
                return Err(format!(
                    "{file}:{}:{}: expected case {} here, found `{index}`",
                    n + 1,
                    MARK.len() + 1,
                    parts.len()
                ));
            }
            parts.push((n + 1, diverged, String::new()));
            continue;
        }
        match parts.last_mut() {
            Some((_, _, t)) => {
                t.push_str(line);
                t.push('\n');
            }
            None => {
                if let Some(c) = line.trim().strip_prefix("//") {
                    header.push(c.trim().to_string());
                } else if !line.trim().is_empty() {
                    return Err(format!(
                        "{file}:{}:1: only comments may come before the first `{MARK}0 ====` line",
                        n + 1
                    ));
                }
            }
        }
    }
    let mut cases = Vec::with_capacity(parts.len());
    let mut diverged = Vec::new();
    for (i, (at, d, t)) in parts.iter().enumerate() {
        let case = warp_core::text::parse(t).map_err(|e| {
            format!(
                "{file}:{}:{}: {} (case {i})",
                *at as u32 + e.line,
                e.col,
                e.msg
            )
        })?;
        if *d {
            diverged.push(i);
        }
        cases.push(TestCase {
            program: case.program,
            inputs: case.inputs,
        });
    }
    match diverged.as_slice() {
        [d] => Ok(SavedBatch {
            header,
            cases,
            diverged: *d,
        }),
        [] => Err(format!(
            "{file}: no case is marked `(diverged)` ({} case(s))",
            cases.len()
        )),
        more => Err(format!(
            "{file}: {} cases are marked `(diverged)`; a batch file has one",
            more.len()
        )),
    }
}

/// Writes `text` as `dir/STEM.batch.txt`, or, when that name is taken
/// (the same case found again), `STEM.batch-2.txt`, `-3`...: never
/// overwriting (each name is created new). Returns the path.
pub fn write_batch(dir: &Path, stem: &str, text: &str) -> std::io::Result<PathBuf> {
    std::fs::create_dir_all(dir)?;
    for n in 1u32.. {
        let name = match n {
            1 => format!("{stem}.batch.txt"),
            _ => format!("{stem}.batch-{n}.txt"),
        };
        let path = dir.join(name);
        match std::fs::OpenOptions::new()
            .write(true)
            .create_new(true)
            .open(&path)
        {
            Ok(mut f) => {
                f.write_all(text.as_bytes())?;
                f.sync_all()?;
                return Ok(path);
            }
            Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => continue,
            Err(e) => return Err(e),
        }
    }
    Err(std::io::Error::other("no free batch file name"))
}

#[cfg(test)]
mod tests {
    use super::{batch_text, parse_batch, write_batch, MARK};
    use warp_core::gen::TestCase;

    fn case(body: &str) -> TestCase {
        let c = warp_core::text::parse(body).expect("parses");
        TestCase {
            program: c.program,
            inputs: c.inputs,
        }
    }

    #[test]
    fn a_batch_prints_and_reads_back_in_order() {
        let a = case(".reg .b32 r;\n.lanes r = 5;\npopc.b32 r, r;\n");
        let b = case(".reg .b32 s;\n.lanes s = 7;\nbrev.b32 s, s;\n");
        let text = batch_text(&[&a, &b, &a], 1, &["Found by a test.".to_string()]);
        assert!(text.contains(&format!("{MARK}1 (diverged) ====")), "{text}");
        let back = parse_batch(&text, "t.batch.txt").expect("reads back");
        assert_eq!(back.diverged, 1);
        assert_eq!(back.cases.len(), 3);
        assert_eq!(back.cases[0].program, a.program);
        assert_eq!(back.cases[1].program, b.program);
        assert_eq!(back.cases[1].inputs, b.inputs);
        assert_eq!(back.cases[2].inputs, a.inputs);
        assert!(back.header.iter().any(|h| h == "Found by a test."));
    }

    #[test]
    fn errors_name_the_line_in_the_whole_file() {
        let text =
            "// a batch\n// ==== batch case 0 (diverged) ====\n.reg .b32 r;\npopc.b32 r, q;\n";
        let e = parse_batch(text, "x.batch.txt").expect_err("q is not declared");
        assert!(e.starts_with("x.batch.txt:4:"), "{e}");
        let none = "// ==== batch case 0 ====\n.reg .b32 r;\npopc.b32 r, r;\n";
        let e = parse_batch(none, "y").expect_err("nothing marked");
        assert!(e.contains("no case is marked"), "{e}");
        let skipped = "// ==== batch case 1 ====\n";
        assert!(parse_batch(skipped, "z")
            .expect_err("out of order")
            .starts_with("z:1:"));
    }

    #[test]
    fn a_second_batch_of_the_same_finding_gets_its_own_name() {
        let d = std::env::temp_dir().join(format!("warpdiff-batch-file-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&d);
        let p1 = write_batch(&d, "popc.b32-1234abcd", "one").expect("writes");
        let p2 = write_batch(&d, "popc.b32-1234abcd", "two").expect("writes");
        assert_ne!(p1, p2);
        assert!(p1.ends_with("popc.b32-1234abcd.batch.txt"), "{p1:?}");
        assert!(p2.ends_with("popc.b32-1234abcd.batch-2.txt"), "{p2:?}");
        assert_eq!(std::fs::read_to_string(&p1).expect("read"), "one");
        assert_eq!(std::fs::read_to_string(&p2).expect("read"), "two");
        let _ = std::fs::remove_dir_all(&d);
    }
}
