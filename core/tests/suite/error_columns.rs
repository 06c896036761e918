//! Errors of the `.launch` and expected-output readers point at the
//! offending word (issue #41): hand-written inputs, columns counted by
//! hand (1-based, a tab one column), and the typed error's fields.

use std::path::Path;
use warp_core::launch::{parse_expected, Launch};
use warp_core::text::ParseError;

/// The error `Launch::parse` gives for `src` (as file `k.launch`).
fn launch_error(src: &str) -> ParseError {
    Launch::parse(src, "k.launch", Path::new(".")).expect_err("a bad launch")
}

/// `(line, col, message)` of an error, and that it names its file.
fn at(e: &ParseError, file: &str) -> (u32, u32, String) {
    assert_eq!(e.file.as_deref(), Some(file), "{e}");
    (e.line, e.col, e.msg.clone())
}

#[test]
fn a_bad_hex_word_is_named_at_its_column_with_its_index() {
    // `buffer in u32 1 2 zz`: buffer 1-6, in 8-9, u32 11-13, 1 at 15, 2 at
    // 17, zz at 19.
    let e = launch_error("kernel k\nbuffer in u32 1 2 zz\n");
    assert_eq!(
        at(&e, "k.launch"),
        (2, 19, "bad hex word `zz` (word 3 of the list)".into())
    );
    assert_eq!(
        e.to_string(),
        "k.launch:2:19: bad hex word `zz` (word 3 of the list)"
    );
    // A tab is one column: `buffer\tin u32 0 g` puts g at 17.
    let e = launch_error("kernel k\nbuffer\tin u32 0 g\n");
    assert_eq!((e.line, e.col), (2, 17), "{e}");
    // The fill word: `buffer out fill xyz 4` puts xyz at 17.
    let e = launch_error("kernel k\nbuffer out fill xyz 4\n");
    assert_eq!((e.line, e.col), (2, 17), "{e}");
    assert!(e.msg.starts_with("bad hex word `xyz`"), "{e}");
}

#[test]
fn other_bad_words_of_a_launch_are_named_at_their_column() {
    // `  buffer out fill 0 many`: buffer 3-8, out 10-12, fill 14-17, 0 at
    // 19, many at 21.
    let e = launch_error("kernel k\n  buffer out fill 0 many\n");
    assert_eq!(at(&e, "k.launch"), (2, 21, "bad count `many`".into()));
    // `param n value 12z`: 12z at 15.
    let e = launch_error("kernel k\nparam n value 12z\n");
    assert_eq!(at(&e, "k.launch"), (2, 15, "bad number `12z`".into()));
    // `param p buffer nope` (line 3): the buffer's name at 16.
    let e = launch_error("kernel k\nbuffer a fill 0 1\nparam p buffer nope\n");
    assert_eq!(at(&e, "k.launch"), (3, 16, "no buffer named `nope`".into()));
    // `block 32,0`: the dimensions at 7.
    let e = launch_error("kernel k\nblock 32,0\n");
    assert_eq!((e.line, e.col), (2, 7), "{e}");
    // An unknown directive: its first word, at 3 after two spaces.
    let e = launch_error("kernel k\n  grdi 4\n");
    assert_eq!((e.line, e.col), (2, 3), "{e}");
}

#[test]
fn a_bad_word_of_an_expected_output_is_named_at_its_column() {
    // `out: 00000001 ________ 1x`: out: 1-4, the words at 6, 15, 24.
    let e = parse_expected("# c\nout: 00000001 ________ 1x\n", "k.expect").expect_err("1x");
    assert_eq!(at(&e, "k.expect").0, 2);
    assert_eq!(e.col, 24, "{e}");
    assert!(e.msg.starts_with("bad word `1x`"), "{e}");
    assert!(
        e.to_string().starts_with("k.expect:2:24: bad word `1x`"),
        "{e}"
    );
    // A line with no `name:`: its first word, at 3.
    let e = parse_expected("  junk\n", "k.expect").expect_err("no name");
    assert_eq!((e.line, e.col), (1, 3), "{e}");
}
