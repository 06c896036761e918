//! [`ParseError`]: what the case format's and the PTX module's parsers
//! (and the lexer under them), the `.launch` format's and the expected
//! outputs' readers report, at a line and column (and, once known, a file).

use std::fmt;

/// A syntax or type error at a 1-based line and column, in a file when
/// the reader knows its name ([`ParseError::in_file`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ParseError {
    /// The file's name, as given to the reader (`None`: a text with no
    /// file, or one not named yet).
    pub file: Option<String>,
    /// 1-based line.
    pub line: u32,
    /// 1-based column.
    pub col: u32,
    /// What is wrong.
    pub msg: String,
}

impl ParseError {
    /// Builds an error.
    pub fn new(line: u32, col: u32, msg: impl Into<String>) -> Self {
        ParseError {
            file: None,
            line,
            col,
            msg: msg.into(),
        }
    }

    /// The same error, in file `file`.
    pub fn in_file(mut self, file: &str) -> Self {
        self.file = Some(file.to_string());
        self
    }

    /// Formats as `FILE:LINE:COL: message`.
    pub fn with_file(&self, file: &str) -> String {
        format!("{file}:{}:{}: {}", self.line, self.col, self.msg)
    }
}

impl fmt::Display for ParseError {
    /// `FILE:LINE:COL: message`, or `LINE:COL: message` with no file.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if let Some(file) = &self.file {
            write!(f, "{file}:")?;
        }
        write!(f, "{}:{}: {}", self.line, self.col, self.msg)
    }
}

impl std::error::Error for ParseError {}

/// The message as the command line prints it (callers whose errors are
/// strings take a `ParseError` with `?`).
impl From<ParseError> for String {
    fn from(e: ParseError) -> String {
        e.to_string()
    }
}
