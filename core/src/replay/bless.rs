//! Blessing: rewriting a case file's `.expect` lines from the reference
//! interpreter while leaving everything else byte for byte as written.

use crate::ir::Case;
use crate::text::print;
use std::ops::Range;
use std::path::Path;

/// `src` with its `.expect` directives replaced by `blessed`'s, printed by
/// [`print`] and put where the first one stood (at the end if there was
/// none); everything else is left as written. `None` if the directives
/// cannot be delimited.
pub(crate) fn splice_expect(src: &str, blessed: &Case) -> Option<String> {
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
pub(crate) fn write_atomically(path: &Path, text: &str) -> std::io::Result<()> {
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ir::{Reg, WARP};
    use crate::text::parse;
    use std::fmt::Write as _;

    /// Blessing's splicing on a file with comments everywhere, a multi-line
    /// `.expect`, one sharing its line, and `.expect` inside comments.
    #[test]
    fn splice_keeps_everything_else() -> Result<(), String> {
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
            return Err(format!("spans {found:?}, want {want:?}"));
        }
        let src = src.replace(".expect A2 = 0;\n", "");
        let case = parse(&src).map_err(|e| e.to_string())?;
        let mut blessed = case.clone();
        let b = case.program.reg("B").ok_or("B")?;
        blessed.expect.regs = vec![(
            b,
            std::array::from_fn(|l| {
                crate::ir::Bits::from_option((l != 0).then_some(l as u64), crate::ir::Type::B32)
            }),
        )];
        let got = splice_expect(&src, &blessed).ok_or("splice failed")?;
        let mut b_line = String::from(".expect B = _");
        for l in 1..WARP {
            let _ = write!(b_line, " {l}");
        }
        let want = src.replace(".expect A = 3; .expect B =\n  4;", &format!("{b_line};"));
        if got != want || parse(&got).as_ref() != Ok(&blessed) {
            return Err(format!("spliced:\n{got}\nwanted:\n{want}"));
        }
        let none = ".reg .b32 A;\n.lanes A = 1;\n    mov.b32 A, 2;";
        let case = parse(none).map_err(|e| e.to_string())?;
        let mut blessed = case.clone();
        blessed.expect.regs = vec![(
            Reg(0),
            [crate::ir::Bits::full(2, crate::ir::Type::B32); WARP],
        )];
        let got = splice_expect(none, &blessed).ok_or("splice failed")?;
        if got != format!("{none}\n.expect A = 2;\n") {
            return Err(format!("appended:\n{got}"));
        }
        Ok(())
    }
}
