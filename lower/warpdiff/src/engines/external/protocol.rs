//! The messages of the external-engine protocol (`docs/engine-protocol.md`
//! is the specification; this file is its Rust side): one JSON object per
//! line, warpdiff → engine on the engine's stdin, engine → warpdiff on its
//! stdout, each with a `"type"`.
//!
//! - `hello` both ways: warpdiff names the protocol version it speaks, the
//!   engine its name, version and wishes.
//! - `run` (warpdiff → engine): one PTX module and its jobs, each job one
//!   warp with its input buffer (and, unless the engine declines it, the
//!   job as a `.ptx` case).
//! - `result` (engine → warpdiff): one entry per job, in order: its output
//!   buffer, or an error, or a skip.
//! - `error` (engine → warpdiff): the engine refuses a whole request.
//!
//! Buffers travel as lowercase hex of their bytes: little-endian `u64`
//! words, 16 hex digits each (exact in every language's JSON reader, unlike
//! 64-bit numbers).

use serde::{Deserialize, Serialize};

/// The protocol version this warpdiff speaks.
pub const PROTOCOL: u32 = 1;

/// Longest engine name accepted in a handshake.
pub const MAX_NAME: usize = 40;

/// warpdiff's `hello`.
#[derive(Debug, Serialize)]
pub struct HelloRequest<'a> {
    /// Always `"hello"`.
    #[serde(rename = "type")]
    pub kind: &'static str,
    /// [`PROTOCOL`].
    pub protocol: u32,
    /// warpdiff's own version.
    pub warpdiff: &'a str,
}

/// A `run` request.
#[derive(Debug, Serialize)]
pub struct RunRequest<'a> {
    /// Always `"run"`.
    #[serde(rename = "type")]
    pub kind: &'static str,
    /// Counts up from 1 over the engine's life (restarts included); the
    /// `result` or `error` answering it carries it back.
    pub id: u64,
    /// The module all the jobs run in.
    pub module: ModuleMsg<'a>,
    /// The jobs, in the order their results must come back.
    pub jobs: Vec<JobMsg>,
}

/// The module of a request.
#[derive(Debug, Serialize)]
pub struct ModuleMsg<'a> {
    /// The module's `.version`, e.g. `7.8`.
    pub version: String,
    /// The module's `.target`, e.g. `sm_90`.
    pub target: String,
    /// The PTX text (absent when the engine said `"ptx": false`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub ptx: Option<&'a str>,
    /// Its kernels, `k0`, `k1`, ... in order.
    pub kernels: Vec<KernelMsg>,
}

/// One `.entry` of the module.
#[derive(Debug, Serialize)]
pub struct KernelMsg {
    /// The entry's name.
    pub name: String,
    /// Input `u64` words per job.
    pub in_words: usize,
    /// Output `u64` words per job.
    pub out_words: usize,
    /// The request's jobs this kernel runs, in block order: `jobs[b]` is
    /// block `b` (`%ctaid.x`).
    pub jobs: Vec<usize>,
}

/// One job (one warp).
#[derive(Debug, Serialize)]
pub struct JobMsg {
    /// Index of its kernel in `module.kernels`.
    pub kernel: usize,
    /// Its block in that kernel's launch (`%ctaid.x`).
    pub block: usize,
    /// Output `u64` words the result must have (the kernel's `out_words`).
    pub out_words: usize,
    /// Its input words as hex ([`hex`]), `in_words` of them.
    pub input: String,
    /// The job as a `.ptx` case: the program with `.lanes` inputs (absent
    /// when the engine said `"cases": false`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub case: Option<String>,
}

/// Any message an engine sends.
#[derive(Debug, Deserialize)]
#[serde(tag = "type", rename_all = "lowercase")]
pub enum FromEngine {
    /// The answer to warpdiff's `hello`.
    Hello(Hello),
    /// The answer to a `run`.
    Result(RunResult),
    /// The engine refuses a request (or, with no id, the handshake).
    Error(Refusal),
}

/// The engine's `hello`.
#[derive(Clone, Debug, Deserialize)]
pub struct Hello {
    /// The protocol version it speaks: must be [`PROTOCOL`].
    pub protocol: u32,
    /// Its name: letters, digits, `.`, `_`, `+`, `-`, at most
    /// [`MAX_NAME`]; not a built-in engine's.
    pub name: String,
    /// Its version: printable ASCII without blanks, at most [`MAX_NAME`].
    pub version: String,
    /// The most jobs it takes in one request (default: no limit).
    #[serde(default)]
    pub max_jobs: Option<usize>,
    /// Whether requests carry the module's PTX text (default true).
    #[serde(default = "yes")]
    pub ptx: bool,
    /// Whether jobs carry their `.ptx` case (default true).
    #[serde(default = "yes")]
    pub cases: bool,
}

fn yes() -> bool {
    true
}

/// The engine's `result`.
#[derive(Debug, Deserialize)]
pub struct RunResult {
    /// The request's id.
    pub id: u64,
    /// One entry per job of the request, in order.
    pub jobs: Vec<JobResultMsg>,
}

/// One job's entry in a `result`: exactly one of the three fields.
#[derive(Debug, Deserialize)]
pub struct JobResultMsg {
    /// The output words as hex.
    #[serde(default)]
    pub output: Option<String>,
    /// The engine failed on this job: why (a finding).
    #[serde(default)]
    pub error: Option<String>,
    /// The engine cannot run this job (a feature it lacks): why (counted,
    /// never a finding, never agreement).
    #[serde(default)]
    pub skip: Option<String>,
}

/// The engine's `error`.
#[derive(Debug, Deserialize)]
pub struct Refusal {
    /// The request refused (absent when refusing the handshake).
    #[serde(default)]
    pub id: Option<u64>,
    /// Why.
    pub message: String,
}

/// `words` as lowercase hex of their little-endian bytes.
pub fn hex(words: &[u64]) -> String {
    const DIGITS: &[u8; 16] = b"0123456789abcdef";
    let mut s = String::with_capacity(words.len() * 16);
    for w in words {
        for b in w.to_le_bytes() {
            s.push(DIGITS[(b >> 4) as usize] as char);
            s.push(DIGITS[(b & 15) as usize] as char);
        }
    }
    s
}

/// The words of a hex buffer ([`hex`]'s inverse; either case of digit).
pub fn unhex(s: &str) -> Result<Vec<u64>, String> {
    let bytes = s.as_bytes();
    if !bytes.len().is_multiple_of(16) {
        return Err(format!(
            "{} hex digits, not a whole number of 64-bit words (16 digits each)",
            bytes.len()
        ));
    }
    let digit = |c: u8| -> Result<u64, String> {
        (c as char)
            .to_digit(16)
            .map(u64::from)
            .ok_or_else(|| format!("`{}` is not a hex digit", c.escape_ascii()))
    };
    bytes
        .chunks(16)
        .map(|w| {
            let mut v = 0u64;
            for (i, pair) in w.chunks(2).enumerate() {
                let byte = digit(pair[0])? << 4 | digit(pair[1])?;
                v |= byte << (8 * i);
            }
            Ok(v)
        })
        .collect()
}

/// Why a handshake's name or version is not accepted, if it is not.
pub fn check_hello(h: &Hello, builtin: &[&str]) -> Result<(), String> {
    if h.protocol != PROTOCOL {
        return Err(format!(
            "it speaks protocol {}; this warpdiff speaks protocol {PROTOCOL}",
            h.protocol
        ));
    }
    let name_ok = !h.name.is_empty()
        && h.name.len() <= MAX_NAME
        && h.name.starts_with(|c: char| c.is_ascii_alphanumeric())
        && h.name
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || matches!(c, '.' | '_' | '+' | '-'));
    if !name_ok {
        return Err(format!(
            "its name {:?} is not 1 to {MAX_NAME} letters, digits, `.`, `_`, `+` or `-` (starting with a letter or digit)",
            h.name
        ));
    }
    if builtin.contains(&h.name.as_str()) {
        return Err(format!(
            "its name `{}` is a built-in engine's; choose another",
            h.name
        ));
    }
    let version_ok = !h.version.is_empty()
        && h.version.len() <= MAX_NAME
        && h.version.chars().all(|c| c.is_ascii_graphic());
    if !version_ok {
        return Err(format!(
            "its version {:?} is not 1 to {MAX_NAME} printable characters without blanks",
            h.version
        ));
    }
    if h.max_jobs == Some(0) {
        return Err("its max_jobs is 0".to_string());
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hex_round_trips_little_endian() {
        let w = [0x0123_4567_89ab_cdef, 0, u64::MAX];
        let h = hex(&w);
        assert!(h.starts_with("efcdab8967452301"), "{h}");
        assert_eq!(unhex(&h).unwrap(), w);
        assert_eq!(unhex(&h.to_uppercase()).unwrap(), w);
        assert!(unhex("abc").unwrap_err().contains("whole number"));
        assert!(unhex("zz00000000000000").unwrap_err().contains("hex digit"));
    }

    #[test]
    fn a_hello_reply_with_defaults_and_checks() {
        let h: FromEngine =
            serde_json::from_str(r#"{"type":"hello","protocol":1,"name":"sim","version":"0.1"}"#)
                .unwrap();
        let FromEngine::Hello(h) = h else {
            panic!("a hello")
        };
        assert!(h.ptx && h.cases && h.max_jobs.is_none());
        assert!(check_hello(&h, &["jit"]).is_ok());
        let bad = Hello {
            name: "jit".into(),
            ..h.clone()
        };
        assert!(check_hello(&bad, &["jit"])
            .unwrap_err()
            .contains("built-in"));
        let bad = Hello {
            name: "a\nb".into(),
            ..h.clone()
        };
        assert!(check_hello(&bad, &[]).is_err());
        let bad = Hello {
            protocol: 2,
            ..h.clone()
        };
        assert!(check_hello(&bad, &[]).unwrap_err().contains("protocol 2"));
    }
}
