//! Launching a PTX module's kernel: what a launch is (grid, block, the
//! buffers and the parameter values), its sidecar text format, and what a
//! launch leaves in its buffers, with the expected-output format that
//! `corpus/kernels/*.expect` and the GPU's `*.gpu.txt` share.
//!
//! The `.launch` format, one directive per line, `#` or `//` comments:
//!
//! ```text
//! kernel warp_sum_xor
//! grid 1                          # X[,Y[,Z]]
//! block 64
//! shared 256                      # bytes of dynamic shared memory (optional)
//! buffer in u32 ffffffd9 fffffffe 00000023 ...   # 32-bit words, hex
//! buffer out fill aaaaaaaa 64                    # 64 words of aaaaaaaa
//! buffer raw file input.bin                      # bytes of a file (beside the .launch)
//! param warp_sum_xor_param_0 buffer in           # a pointer to a buffer
//! param warp_sum_xor_param_1 buffer out
//! param n value 64                               # a scalar, decimal or 0x hex
//! ```
//!
//! The expected-output format, one buffer per line, 32-bit words in hex,
//! `________` for a word not every rule defines:
//!
//! ```text
//! # comment
//! out: ffffffbe ffffffbe ...
//! ```

mod error;

pub use error::LaunchError;

use crate::ir::{windows, Kernel, Module};
use crate::text::ParseError;
use crate::ub::{AccessFault, Ub};
use std::io::{self, Write};
use std::path::Path;

/// The most shared memory (static and dynamic) a CTA has on sm_90.
pub const MAX_SHARED: u64 = 227 * 1024;

/// The most local memory a thread has.
pub const MAX_LOCAL: u64 = 512 * 1024;

/// A buffer the launch passes: its name and initial bytes.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Buffer {
    /// Its name (for `param ... buffer NAME` and the output).
    pub name: String,
    /// Initial contents (all defined).
    pub bytes: Vec<u8>,
}

/// A kernel parameter's value.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ParamValue {
    /// The generic address of the buffer with this index.
    Buffer(usize),
    /// A scalar, truncated to the parameter's size.
    Value(u64),
}

/// One launch of one kernel.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Launch {
    /// The `.entry` to run.
    pub kernel: String,
    /// CTAs per dimension.
    pub grid: [u32; 3],
    /// Threads per CTA per dimension.
    pub block: [u32; 3],
    /// Bytes of dynamic shared memory per CTA (what `.extern .shared`
    /// arrays address; 0 when the kernel has none).
    pub shared: u32,
    /// The buffers, in order (buffer `k` is at
    /// [`windows::BUFFERS`] `+ k *`
    /// [`BUFFER_STRIDE`](crate::ir::windows::BUFFER_STRIDE)).
    pub buffers: Vec<Buffer>,
    /// `(parameter name, value)`.
    pub params: Vec<(String, ParamValue)>,
}

/// A launch's buffers after the run, byte by byte with their definedness.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BufferOut {
    /// The buffer's name.
    pub name: String,
    /// Its bytes.
    pub bytes: Vec<u8>,
    /// Per byte, whether every rule defines it.
    pub defined: Vec<bool>,
}

impl BufferOut {
    /// The buffer as 32-bit little-endian words, `None` where a byte of the
    /// word is undefined (a tail shorter than 4 bytes is zero-padded).
    pub fn u32s(&self) -> Vec<Option<u32>> {
        self.bytes
            .chunks(4)
            .zip(self.defined.chunks(4))
            .map(|(b, d)| {
                d.iter().all(|&x| x).then(|| {
                    let mut w = [0u8; 4];
                    w[..b.len()].copy_from_slice(b);
                    u32::from_le_bytes(w)
                })
            })
            .collect()
    }

    /// The buffer as `f32` values ([`BufferOut::u32s`]'s words as bits).
    pub fn f32s(&self) -> Vec<Option<f32>> {
        self.u32s()
            .into_iter()
            .map(|w| w.map(f32::from_bits))
            .collect()
    }

    /// The buffer as 32-bit little-endian words in hex, `________` where a
    /// byte is undefined (a tail shorter than 4 bytes is padded).
    pub fn words(&self) -> Vec<String> {
        self.bytes
            .chunks(4)
            .zip(self.defined.chunks(4))
            .map(|(b, d)| {
                if d.iter().all(|&x| x) {
                    let mut w = [0u8; 4];
                    w[..b.len()].copy_from_slice(b);
                    format!("{:08x}", u32::from_le_bytes(w))
                } else {
                    "________".to_string()
                }
            })
            .collect()
    }

    /// `name: w0 w1 ...`, the expected-output format's line: the words of
    /// [`BufferOut::words`], written straight into one string (a kernel's
    /// buffer of a million words took longer to print word by word than
    /// the JIT took to compute it).
    pub fn line(&self) -> String {
        let mut s = line_start(&self.name, self.bytes.len(), self.bytes.len().div_ceil(4));
        push_words(&mut s, &self.bytes, Some(&self.defined));
        String::from_utf8(s).expect("a name and ASCII")
    }

    /// [`BufferOut::line`] and a newline, written to `w` a piece at a time
    /// ([`write_line`]).
    pub fn write_line(&self, w: &mut dyn Write) -> io::Result<()> {
        write_line(w, &self.name, &self.bytes, Some(&self.defined))
    }
}

/// Words of a buffer formatted per write of [`write_line`]: 144 KiB of
/// text, so that a line of millions of words needs no room of its own.
const LINE_CHUNK_WORDS: usize = 16 * 1024;

/// Writes the line [`BufferOut::line`] writes for a buffer `name` of
/// `bytes` (`defined` per byte; `None`: every byte defined) and a newline
/// to `w`, formatting a piece of the words at a time (no string of the
/// whole line: a buffer of 4 MB is 9 MB of text).
pub fn write_line(
    w: &mut dyn Write,
    name: &str,
    bytes: &[u8],
    defined: Option<&[bool]>,
) -> io::Result<()> {
    write_line_in(w, name, bytes, defined, LINE_CHUNK_WORDS)
}

/// [`write_line`] with the words formatted on up to `threads` threads at
/// once, each a contiguous share of at least 64 Ki words (a buffer of
/// millions of words: formatting it took longer than the JIT's launch),
/// then written in order: the same text.
pub fn write_line_threads(
    w: &mut dyn Write,
    name: &str,
    bytes: &[u8],
    defined: Option<&[bool]>,
    threads: usize,
) -> io::Result<()> {
    write_line_threads_in(w, name, bytes, defined, threads, 4 * LINE_CHUNK_WORDS)
}

/// [`write_line_threads`], shares of at least `min_words` words.
fn write_line_threads_in(
    w: &mut dyn Write,
    name: &str,
    bytes: &[u8],
    defined: Option<&[bool]>,
    threads: usize,
    min_words: usize,
) -> io::Result<()> {
    let words = bytes.len().div_ceil(4);
    let threads = threads.min(words / min_words.max(1));
    if threads <= 1 {
        return write_line(w, name, bytes, defined);
    }
    // Shares of whole words: only the last may end in a short tail.
    let share = 4 * words.div_ceil(threads);
    let texts: Vec<Vec<u8>> = std::thread::scope(|sc| {
        let handles: Vec<_> = (0..bytes.len().div_ceil(share))
            .map(|i| {
                let (at, end) = (i * share, ((i + 1) * share).min(bytes.len()));
                let d = defined.map(|d| &d[at..end]);
                sc.spawn(move || {
                    let mut s = Vec::with_capacity(9 * (end - at).div_ceil(4));
                    push_words(&mut s, &bytes[at..end], d);
                    s
                })
            })
            .collect();
        handles
            .into_iter()
            .map(|h| h.join().unwrap_or_else(|p| std::panic::resume_unwind(p)))
            .collect()
    });
    w.write_all(&line_start(name, bytes.len(), 0))?;
    for t in &texts {
        w.write_all(t)?;
    }
    w.write_all(b"\n")
}

/// [`write_line`], `chunk` words per write.
fn write_line_in(
    w: &mut dyn Write,
    name: &str,
    bytes: &[u8],
    defined: Option<&[bool]>,
    chunk: usize,
) -> io::Result<()> {
    let mut s = line_start(name, bytes.len(), chunk);
    let step = 4 * chunk;
    let pieces = bytes.len().div_ceil(step).max(1);
    for i in 0..pieces {
        let at = i * step;
        let end = (at + step).min(bytes.len());
        push_words(&mut s, &bytes[at..end], defined.map(|d| &d[at..end]));
        if i + 1 == pieces {
            s.push(b'\n');
        }
        w.write_all(&s)?;
        s.clear();
    }
    Ok(())
}

/// `name:` (and a space when the buffer is empty), with room for `words`
/// words after it.
fn line_start(name: &str, len: usize, words: usize) -> Vec<u8> {
    let mut s = Vec::with_capacity(name.len() + 2 + 9 * words);
    s.extend_from_slice(name.as_bytes());
    s.push(b':');
    if len == 0 {
        s.push(b' ');
    }
    s
}

/// Appends ` w0 w1 ...` to `s`: each 32-bit little-endian word of `bytes`
/// as eight hex digits, `________` where a byte of it is not `defined`
/// (`None`: every byte is); a tail shorter than 4 bytes padded with zeros.
fn push_words(s: &mut Vec<u8>, bytes: &[u8], defined: Option<&[bool]>) {
    // Two hex digits of every byte value.
    const HEX2: [[u8; 2]; 256] = {
        let digits = b"0123456789abcdef";
        let mut t = [[0u8; 2]; 256];
        let mut i = 0;
        while i < 256 {
            t[i] = [digits[i >> 4], digits[i & 15]];
            i += 1;
        }
        t
    };
    // ' ' and eight hex digits per word.
    let hex = |w: &[u8]| {
        let mut v = [0u8; 4];
        v[..w.len()].copy_from_slice(w);
        let [a, b, c, d] = u32::from_le_bytes(v)
            .to_be_bytes()
            .map(|x| HEX2[x as usize]);
        [b' ', a[0], a[1], b[0], b[1], c[0], c[1], d[0], d[1]]
    };
    if defined.is_none_or(|d| d.iter().all(|&x| x)) {
        // Fixed-size copies into room made at once.
        let whole = bytes.len() / 4;
        let at = s.len();
        s.resize(at + 9 * whole, 0);
        for (out, w) in s[at..].chunks_exact_mut(9).zip(bytes.chunks_exact(4)) {
            out.copy_from_slice(&hex(w));
        }
        let tail = &bytes[4 * whole..];
        if !tail.is_empty() {
            s.extend_from_slice(&hex(tail));
        }
    } else if let Some(defined) = defined {
        for (b, d) in bytes.chunks(4).zip(defined.chunks(4)) {
            if d.iter().all(|&x| x) {
                s.extend_from_slice(&hex(b));
            } else {
                s.extend_from_slice(b" ________");
            }
        }
    }
}

/// What a launch did.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LaunchOutcome {
    /// Every buffer after the run.
    pub buffers: Vec<BufferOut>,
    /// Undefined behaviour that ended the run, with the CTA and warp where
    /// it happened (`cta (x,y,z) warp w`); the buffers then mean nothing.
    pub ub: Option<(String, Ub)>,
    /// Warp steps summed over every warp, as the interpreter counts them
    /// (a converged group executing one instruction is one step); 0 from
    /// the engines that do not count them (the JIT, the GPU).
    pub steps: u64,
}

impl LaunchOutcome {
    /// The faulty memory access that ended the run, if undefined behaviour
    /// ended it there: the interpreter's report of what the JIT returns as
    /// [`LaunchError::Fault`].
    pub fn fault(&self) -> Option<&AccessFault> {
        self.ub.as_ref().and_then(|(_, ub)| ub.fault.as_deref())
    }
}

/// The parameter space of a launch of `k`: each `.param`'s value
/// (`values`, in the kernel's order, as [`Launch::bind`] gives them) at its
/// offset, little-endian, a buffer as its generic address; and per byte
/// whether a parameter covers it. Every engine lays it out so.
pub fn param_space(k: &Kernel, values: &[ParamValue]) -> (Vec<u8>, Vec<bool>) {
    let mut bytes = vec![0u8; k.param_size as usize];
    let mut defined = vec![false; k.param_size as usize];
    for (p, v) in k.params.iter().zip(values) {
        let v = match v {
            ParamValue::Buffer(i) => windows::BUFFERS + *i as u64 * windows::BUFFER_STRIDE,
            ParamValue::Value(v) => *v,
        };
        let n = (p.size as usize).min(8);
        let at = p.offset as usize;
        bytes[at..at + n].copy_from_slice(&v.to_le_bytes()[..n]);
        defined[at..at + n].iter_mut().for_each(|d| *d = true);
    }
    (bytes, defined)
}

/// `X[,Y[,Z]]` as three dimensions.
pub fn parse_dims(s: &str) -> Result<[u32; 3], String> {
    let parts: Vec<&str> = s.split(',').map(str::trim).collect();
    if parts.is_empty() || parts.len() > 3 {
        return Err(format!("`{s}`: expected X[,Y[,Z]]"));
    }
    let mut d = [1u32; 3];
    for (i, p) in parts.iter().enumerate() {
        d[i] = match p.parse::<u32>() {
            Ok(n) if n > 0 => n,
            _ => return Err(format!("`{s}`: `{p}` is not a positive number")),
        };
    }
    Ok(d)
}

/// A number written in decimal or `0x` hex (negative decimals as two's
/// complement).
fn number(s: &str) -> Option<u64> {
    if let Some(h) = s.strip_prefix("0x") {
        u64::from_str_radix(h, 16).ok()
    } else if let Some(d) = s.strip_prefix('-') {
        d.parse::<u64>().ok().map(|v| v.wrapping_neg())
    } else {
        s.parse().ok()
    }
}

/// Hex 32-bit words as little-endian bytes; the error names the bad word
/// and gives its index in `ws`.
fn words(ws: &[&str]) -> Result<Vec<u8>, (usize, String)> {
    let mut out = Vec::new();
    for (i, w) in ws.iter().enumerate() {
        let v = u32::from_str_radix(w, 16).map_err(|_| {
            (
                i,
                format!("bad hex word `{w}` (word {} of the list)", i + 1),
            )
        })?;
        out.extend_from_slice(&v.to_le_bytes());
    }
    Ok(out)
}

/// The 1-based column of `tok`, a slice of `line`, in `line`.
fn column_of(line: &str, tok: &str) -> usize {
    (tok.as_ptr() as usize)
        .checked_sub(line.as_ptr() as usize)
        .filter(|&o| o <= line.len())
        .map_or(1, |o| o + 1)
}

/// Built in code (instead of a `.launch` file): each method sets one thing
/// and returns the launch.
///
/// ```
/// use warp_core::launch::{Launch, ParamValue};
/// let l = Launch::new("saxpy")
///     .grid([2, 1, 1])
///     .block([64, 1, 1])
///     .buffer_f32("x", &[1.0, 2.0])
///     .buffer_u32("y", &[0, 0])
///     .param_value("n", 2)
///     .param_value("a", 2.5f32.to_bits() as u64)
///     .param_buffer("x_ptr", "x")
///     .param_buffer("y_ptr", "y");
/// assert_eq!(l.buffers[1].bytes, vec![0; 8]);
/// assert_eq!(l.params[2], ("x_ptr".to_string(), ParamValue::Buffer(0)));
/// ```
impl Launch {
    /// CTAs per dimension.
    pub fn grid(mut self, grid: [u32; 3]) -> Launch {
        self.grid = grid;
        self
    }

    /// Threads per CTA per dimension.
    pub fn block(mut self, block: [u32; 3]) -> Launch {
        self.block = block;
        self
    }

    /// Bytes of dynamic shared memory per CTA.
    pub fn dynamic_shared(mut self, bytes: u32) -> Launch {
        self.shared = bytes;
        self
    }

    /// One more buffer, `name`, holding `bytes` (a buffer of that name
    /// already there is replaced in place).
    pub fn buffer_bytes(mut self, name: &str, bytes: Vec<u8>) -> Launch {
        match self.buffers.iter_mut().find(|b| b.name == name) {
            Some(b) => b.bytes = bytes,
            None => self.buffers.push(Buffer {
                name: name.to_string(),
                bytes,
            }),
        }
        self
    }

    /// A buffer of 32-bit words (little-endian, as the GPU stores them).
    pub fn buffer_u32(self, name: &str, words: &[u32]) -> Launch {
        let bytes = words.iter().flat_map(|w| w.to_le_bytes()).collect();
        self.buffer_bytes(name, bytes)
    }

    /// A buffer of `f32` values.
    pub fn buffer_f32(self, name: &str, values: &[f32]) -> Launch {
        let bytes = values.iter().flat_map(|v| v.to_le_bytes()).collect();
        self.buffer_bytes(name, bytes)
    }

    /// Parameter `param` is the address of the buffer named `buffer` (add
    /// the buffer first; a name no buffer has is reported when the launch
    /// runs: [`Launch::bind`]).
    pub fn param_buffer(mut self, param: &str, buffer: &str) -> Launch {
        let i = self
            .buffers
            .iter()
            .position(|b| b.name == buffer)
            .unwrap_or(usize::MAX);
        self.params.push((param.to_string(), ParamValue::Buffer(i)));
        self
    }

    /// Parameter `param` is the scalar `value` (truncated to the
    /// parameter's size; a float as its bits: `2.5f32.to_bits() as u64`).
    pub fn param_value(mut self, param: &str, value: u64) -> Launch {
        self.params
            .push((param.to_string(), ParamValue::Value(value)));
        self
    }

    /// A launch of `kernel` on one thread, with no buffers or parameters.
    pub fn new(kernel: &str) -> Launch {
        Launch {
            kernel: kernel.to_string(),
            grid: [1; 3],
            block: [1; 3],
            shared: 0,
            buffers: Vec::new(),
            params: Vec::new(),
        }
    }

    /// The kernel this launch names in `module`, and each of the kernel's
    /// parameters' values in the kernel's order: what every engine starts
    /// from. Errors: no such kernel, a block over 1024 threads or with an
    /// empty dimension, a parameter without a value or a value for no
    /// parameter, a buffer index past the buffers.
    pub fn bind<'m>(
        &self,
        module: &'m Module,
    ) -> Result<(&'m Kernel, Vec<ParamValue>), LaunchError> {
        let Some(k) = module.kernel(&self.kernel) else {
            let names: Vec<&str> = module.kernels.iter().map(|k| k.name.as_str()).collect();
            return Err(LaunchError::Invalid(format!(
                "no kernel `{}` in the module (it has: {})",
                self.kernel,
                names.join(", ")
            )));
        };
        let threads: u64 = self.block.iter().map(|&d| u64::from(d)).product();
        if threads > 1024 {
            return Err(LaunchError::Invalid(format!(
                "kernel `{}`: a block of {threads} threads: the most a CTA has is 1024",
                k.name
            )));
        }
        if self.grid.contains(&0) || self.block.contains(&0) {
            return Err(LaunchError::Invalid(format!(
                "kernel `{}`: grid {:?} block {:?} has an empty dimension",
                k.name, self.grid, self.block
            )));
        }
        for (n, _) in &self.params {
            if !k.params.iter().any(|p| p.name == *n) {
                let names: Vec<&str> = k.params.iter().map(|p| p.name.as_str()).collect();
                return Err(LaunchError::Invalid(format!(
                    "kernel `{}` has no parameter `{n}` (it has: {})",
                    k.name,
                    names.join(", ")
                )));
            }
        }
        // sm_90's limits: 227 KiB of shared memory per CTA, 512 KiB of
        // local memory per thread.
        let shared = k.shared_size + u64::from(self.shared);
        if shared > MAX_SHARED {
            return Err(LaunchError::Invalid(format!(
                "kernel `{}`: {shared} bytes of shared memory per CTA ({} static, {} dynamic); the most an sm_90 CTA has is {MAX_SHARED}",
                k.name, k.shared_size, self.shared
            )));
        }
        if k.local_size > MAX_LOCAL {
            return Err(LaunchError::Invalid(format!(
                "kernel `{}`: {} bytes of local memory per thread; the most is {MAX_LOCAL}",
                k.name, k.local_size
            )));
        }
        let mut values = Vec::with_capacity(k.params.len());
        for p in &k.params {
            let Some((_, v)) = self.params.iter().find(|(n, _)| *n == p.name) else {
                return Err(LaunchError::Invalid(format!(
                    "kernel `{}`: parameter `{}` has no value (give `param {} buffer NAME` or `param {} value V`)",
                    k.name, p.name, p.name, p.name
                )));
            };
            if let ParamValue::Buffer(i) = v {
                if *i == usize::MAX {
                    return Err(LaunchError::Invalid(format!(
                        "kernel `{}`: parameter `{}` names a buffer the launch does not have (`param_buffer` before its `buffer_*`?)",
                        k.name, p.name
                    )));
                }
                if *i >= self.buffers.len() {
                    return Err(LaunchError::Invalid(format!(
                        "kernel `{}`: parameter `{}` names buffer {i}, and the launch has {}",
                        k.name,
                        p.name,
                        self.buffers.len()
                    )));
                }
            }
            values.push(v.clone());
        }
        Ok((k, values))
    }

    /// Parses a `.launch` file's text; `dir` is where `file` buffers are
    /// read from. Errors name `file:line:col`, the column that of the
    /// offending word.
    pub fn parse(src: &str, file: &str, dir: &Path) -> Result<Launch, ParseError> {
        let mut l = Launch::new("");
        let mut pending: Vec<(String, String, usize, usize)> = Vec::new();
        for (i, raw) in src.lines().enumerate() {
            let line = i + 1;
            let text = raw.split('#').next().unwrap_or("");
            let text = text.split("//").next().unwrap_or("");
            let toks: Vec<&str> = text.split_whitespace().collect();
            let Some(&first) = toks.first() else { continue };
            let col = column_of(raw, first);
            let at =
                |col: usize, m: String| ParseError::new(line as u32, col as u32, m).in_file(file);
            let bad = |m: String| at(col, m);
            // An error about one token points at it.
            let bad_at = |tok: &str, m: String| at(column_of(raw, tok), m);
            match (first, &toks[1..]) {
                ("kernel", [name]) => l.kernel = name.to_string(),
                ("grid", [d]) => l.grid = parse_dims(d).map_err(|m| bad_at(d, m))?,
                ("block", [d]) => l.block = parse_dims(d).map_err(|m| bad_at(d, m))?,
                ("shared", [n]) => {
                    l.shared = n
                        .parse()
                        .map_err(|_| bad_at(n, format!("bad byte count `{n}`")))?
                }
                ("buffer", [name, "u32", ws @ ..]) => l.buffers.push(Buffer {
                    name: name.to_string(),
                    bytes: words(ws).map_err(|(i, m)| bad_at(ws[i], m))?,
                }),
                ("buffer", [name, "fill", w, n]) => {
                    let one = words(&[w]).map_err(|(_, m)| bad_at(w, m))?;
                    let n: usize = n
                        .parse()
                        .map_err(|_| bad_at(n, format!("bad count `{n}`")))?;
                    l.buffers.push(Buffer {
                        name: name.to_string(),
                        bytes: one.repeat(n),
                    });
                }
                ("buffer", [name, "file", path]) => {
                    let p = dir.join(path);
                    let bytes = std::fs::read(&p)
                        .map_err(|e| bad(format!("cannot read `{}`: {e}", p.display())))?;
                    l.buffers.push(Buffer {
                        name: name.to_string(),
                        bytes,
                    });
                }
                ("param", [name, "buffer", buf]) => pending.push((
                    name.to_string(),
                    buf.to_string(),
                    line,
                    column_of(raw, buf),
                )),
                ("param", [name, "value", v]) => {
                    let v = number(v).ok_or_else(|| bad_at(v, format!("bad number `{v}`")))?;
                    l.params.push((name.to_string(), ParamValue::Value(v)));
                }
                _ => {
                    return Err(bad(format!(
                        "unknown or malformed line `{}` (expected kernel, grid, block, shared, buffer NAME u32|fill|file ..., param NAME buffer|value ...)",
                        text.trim()
                    )))
                }
            }
        }
        for (name, buf, line, col) in pending {
            let Some(i) = l.buffers.iter().position(|b| b.name == buf) else {
                return Err(ParseError::new(
                    line as u32,
                    col as u32,
                    format!("no buffer named `{buf}`"),
                )
                .in_file(file));
            };
            l.params.push((name, ParamValue::Buffer(i)));
        }
        if l.kernel.is_empty() {
            return Err(ParseError::new(1, 1, "no `kernel NAME` line").in_file(file));
        }
        Ok(l)
    }
}

/// An expected-output file: `(buffer name, words)`, `None` for `________`.
pub type Expected = Vec<(String, Vec<Option<u32>>)>;

/// Parses an expected-output file (`.expect`, `.gpu.txt`). Errors name
/// `file:line:col`, the column that of the offending word.
pub fn parse_expected(src: &str, file: &str) -> Result<Expected, ParseError> {
    let mut out = Vec::new();
    for (i, raw) in src.lines().enumerate() {
        let t = raw.trim();
        if t.is_empty() || t.starts_with('#') {
            continue;
        }
        let Some((name, ws)) = t.split_once(':') else {
            return Err(ParseError::new(
                i as u32 + 1,
                column_of(raw, t) as u32,
                "expected `name: words...`",
            )
            .in_file(file));
        };
        let ws = ws
            .split_whitespace()
            .map(|w| {
                if w == "________" {
                    Ok(None)
                } else {
                    u32::from_str_radix(w, 16).map(Some).map_err(|_| {
                        ParseError::new(
                            i as u32 + 1,
                            column_of(raw, w) as u32,
                            format!("bad word `{w}` (8 hex digits, or ________ for undefined)"),
                        )
                        .in_file(file)
                    })
                }
            })
            .collect::<Result<Vec<_>, _>>()?;
        out.push((name.trim().to_string(), ws));
    }
    Ok(out)
}

/// Compares a launch's buffers with the expected words: every listed
/// buffer, every word the expectation gives. A word the expectation gives
/// that the outcome leaves undefined is a difference too. Returns one
/// line per difference (empty: equal).
pub fn compare(out: &[BufferOut], want: &Expected) -> Vec<String> {
    let mut diffs = Vec::new();
    for (name, ws) in want {
        let Some(b) = out.iter().find(|b| &b.name == name) else {
            diffs.push(format!("{name}: no such buffer"));
            continue;
        };
        let got = b.words();
        if got.len() != ws.len() {
            diffs.push(format!(
                "{name}: {} words, expected {}",
                got.len(),
                ws.len()
            ));
            continue;
        }
        for (i, (g, w)) in got.iter().zip(ws).enumerate() {
            if let Some(w) = w {
                let want = format!("{w:08x}");
                if *g != want {
                    diffs.push(format!(
                        "{name}[{i}] (byte {}): got {g}, expected {want}",
                        4 * i
                    ));
                }
            }
        }
    }
    diffs
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `line` writes what joining `words` would: defined words in hex,
    /// `________` where a byte is undefined, a short tail padded (defined
    /// or not), and an empty buffer as `name: `.
    #[test]
    fn line_is_the_words_joined() {
        let bufs = [
            (vec![], vec![]),
            (vec![0x78, 0x56, 0x34, 0x12], vec![true; 4]),
            (vec![0xab, 0xcd, 0xef, 0x01, 0x23, 0x45], vec![true; 6]),
            (
                vec![1, 2, 3, 4, 5, 6, 7, 8, 9, 0xff],
                vec![true, true, true, true, true, false, true, true, true, true],
            ),
        ];
        for (bytes, defined) in bufs {
            let b = BufferOut {
                name: "out".into(),
                bytes,
                defined,
            };
            assert_eq!(b.line(), format!("{}: {}", b.name, b.words().join(" ")));
        }
    }

    /// `write_line` writes the same text a piece at a time: words written
    /// out by hand, pieces of 2 words (so 5 words and a 2-byte tail cross
    /// three piece boundaries), with and without definedness.
    #[test]
    fn write_line_writes_the_line_in_pieces() {
        let bytes: Vec<u8> = (1..=22).collect();
        let want = "b: 04030201 08070605 0c0b0a09 100f0e0d 14131211 00001615\n";
        for chunk in [1, 2, 3, 16 * 1024] {
            let mut out = Vec::new();
            write_line_in(&mut out, "b", &bytes, None, chunk).expect("a Vec takes it");
            assert_eq!(
                String::from_utf8(out).expect("ASCII"),
                want,
                "chunk {chunk}"
            );
            let mut defined = vec![true; 22];
            defined[9] = false;
            defined[21] = false;
            let mut out = Vec::new();
            write_line_in(&mut out, "b", &bytes, Some(&defined), chunk).expect("a Vec takes it");
            assert_eq!(
                String::from_utf8(out).expect("ASCII"),
                "b: 04030201 08070605 ________ 100f0e0d 14131211 ________\n",
                "chunk {chunk}"
            );
        }
        for threads in [1, 2, 3, 4, 16] {
            for min_words in [1, 2, 4] {
                let mut out = Vec::new();
                write_line_threads_in(&mut out, "b", &bytes, None, threads, min_words)
                    .expect("a Vec takes it");
                assert_eq!(
                    String::from_utf8(out).expect("ASCII"),
                    want,
                    "{threads} threads"
                );
            }
        }
        let mut out = Vec::new();
        write_line(&mut out, "e", &[], None).expect("a Vec takes it");
        assert_eq!(out, b"e: \n");
        let mut out = Vec::new();
        write_line_threads_in(&mut out, "e", &[], None, 4, 1).expect("a Vec takes it");
        assert_eq!(out, b"e: \n");
    }
}
