//! Tokens of the `.ptx` case format, each with its line and column.

use super::error::ParseError;

/// What a token is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    /// A name, opcode or directive: `shfl.sync.up.b32`, `.reg`, `%r3`, `_`.
    Word,
    /// A numeric literal: `12`, `-1`, `0x1f`, `0f3f800000`, `1.5`.
    Number,
    /// One punctuation character: `, ; | @ ! : < > = { } ( ) [ ] +`.
    Punct,
    /// A string literal `"..."` (PTX modules' `.file` and `.pragma`), its
    /// text with the quotes.
    Str,
}

/// One token.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Token {
    /// What it is.
    pub kind: Kind,
    /// Its text as written.
    pub text: String,
    /// 1-based line.
    pub line: u32,
    /// 1-based column (in characters).
    pub col: u32,
}

/// A `//` comment and the line it is on.
#[derive(Clone, Debug)]
pub struct Comment {
    /// Text after `//`, with one leading space removed.
    pub text: String,
    /// 1-based line.
    pub line: u32,
}

fn word_start(c: char) -> bool {
    c.is_ascii_alphabetic() || matches!(c, '_' | '$' | '%' | '.')
}

fn word_char(c: char) -> bool {
    c.is_ascii_alphanumeric() || matches!(c, '_' | '$' | '.')
}

/// Splits `src` into tokens and `//` comments. `/* */` comments are skipped.
pub fn lex(src: &str) -> Result<(Vec<Token>, Vec<Comment>), ParseError> {
    let chars: Vec<char> = src.chars().collect();
    let mut toks = Vec::new();
    let mut comments = Vec::new();
    let (mut i, mut line, mut col) = (0usize, 1u32, 1u32);
    while i < chars.len() {
        let c = chars[i];
        let (tl, tc) = (line, col);
        if c == '\n' {
            i += 1;
            line += 1;
            col = 1;
            continue;
        }
        if c.is_whitespace() {
            i += 1;
            col += 1;
            continue;
        }
        if c == '/' && chars.get(i + 1) == Some(&'/') {
            let start = i + 2;
            let mut end = start;
            while end < chars.len() && chars[end] != '\n' {
                end += 1;
            }
            let text: String = chars[start..end].iter().collect();
            let text = text.strip_prefix(' ').unwrap_or(&text).trim_end();
            comments.push(Comment {
                text: text.to_string(),
                line,
            });
            col += (end - i) as u32;
            i = end;
            continue;
        }
        if c == '/' && chars.get(i + 1) == Some(&'*') {
            i += 2;
            col += 2;
            loop {
                if i >= chars.len() {
                    return Err(ParseError::new(tl, tc, "unterminated `/*` comment"));
                }
                if chars[i] == '*' && chars.get(i + 1) == Some(&'/') {
                    i += 2;
                    col += 2;
                    break;
                }
                if chars[i] == '\n' {
                    line += 1;
                    col = 1;
                } else {
                    col += 1;
                }
                i += 1;
            }
            continue;
        }
        let start = i;
        let kind = if c.is_ascii_digit()
            || (c == '-' && chars.get(i + 1).is_some_and(|d| d.is_ascii_digit()))
        {
            i += 1;
            while i < chars.len() && (chars[i].is_ascii_alphanumeric() || chars[i] == '.') {
                // An exponent sign: `1e-3`, `2.5E+7` (not inside hex literals).
                i += 1;
                let is_hex = chars[start..].starts_with(&['0', 'x'])
                    || chars[start..].starts_with(&['0', 'X'])
                    || chars[start..].starts_with(&['0', 'f'])
                    || chars[start..].starts_with(&['0', 'd']);
                if !is_hex
                    && matches!(chars[i - 1], 'e' | 'E')
                    && matches!(chars.get(i), Some('+') | Some('-'))
                {
                    i += 1;
                }
            }
            Kind::Number
        } else if word_start(c) {
            i += 1;
            while i < chars.len() && word_char(chars[i]) {
                i += 1;
            }
            Kind::Word
        } else if ",;|@!:<>={}()[]+".contains(c) {
            i += 1;
            Kind::Punct
        } else if c == '"' {
            i += 1;
            while i < chars.len() && chars[i] != '"' && chars[i] != '\n' {
                i += 1;
            }
            if chars.get(i) != Some(&'"') {
                return Err(ParseError::new(tl, tc, "unterminated string literal"));
            }
            i += 1;
            Kind::Str
        } else {
            return Err(ParseError::new(
                tl,
                tc,
                format!("unexpected character `{}`", c.escape_default()),
            ));
        };
        col += (i - start) as u32;
        toks.push(Token {
            kind,
            text: chars[start..i].iter().collect(),
            line: tl,
            col: tc,
        });
    }
    Ok((toks, comments))
}
