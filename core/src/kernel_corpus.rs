//! The kernel corpus (`corpus/kernels/`, issue #13): each `NAME.launch`
//! with the module `NAME.ptx` beside it and its expected outputs
//! (`NAME.expect`, or what a GPU stored, `NAME.gpu.txt`), loaded once for
//! every engine's tests (the interpreter's, the JIT's, the GPU's).
//!
//! Kernels run several times on a GPU (`corpus/kernels/cub/`, issue #37)
//! also have `NAME.gpu-runs.txt`, which lists the words that differed
//! between runs: [`KernelCase::check_against_runs`] compares an engine's
//! buffers with the GPU's on the bytes the reference defines only, and
//! checks that every bit that differed between the GPU's runs is one the
//! reference leaves undefined.

use crate::ir::Module;
use crate::launch::{compare, parse_expected, BufferOut, Expected, Launch};
use crate::text::parse_module;
use std::path::{Path, PathBuf};

/// One launch of the corpus, ready to run.
#[derive(Clone, Debug)]
pub struct KernelCase {
    /// The `.launch` file.
    pub launch_file: PathBuf,
    /// The module's text (what a GPU compiles).
    pub ptx: String,
    /// The parsed module.
    pub module: Module,
    /// The launch.
    pub launch: Launch,
    /// The expected buffers.
    pub expected: Expected,
}

/// The real kernels (`corpus/kernels/cub/`) the reference stops with
/// undefined behaviour, each with the class it reports and why: a known
/// limit of the reference, not of the kernel. The kernel tests check that
/// each still stops so (and fail once one runs, so that the list shrinks).
/// - `atomic_mix`'s `atomicCAS` loop: the old value of a contested
///   location is undefined, and the loop branches on it; every order ends
///   with the same sum, which the reference cannot tell
///   (`core/src/interp/atomic.rs`, "A CAS loop").
pub const REFERENCE_STOPS: &[(&str, &str)] = &[("atomic_mix", "[guard-undefined]")];

/// A word that differed between a GPU's runs of a kernel: the buffer, the
/// word's index, and its value in each run.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RunsDiffer {
    /// The buffer's name.
    pub buffer: String,
    /// The word's index in it.
    pub word: usize,
    /// The word in each run.
    pub values: Vec<u32>,
}

/// Parses a `NAME.gpu-runs.txt` (written by `corpus/kernels/h200run.py`):
/// its `runs differ at BUF[i]: a b c` lines (hex words, one per run).
/// Errors name the file and line.
pub fn parse_runs_differ(src: &str, file: &str) -> Result<Vec<RunsDiffer>, String> {
    let mut out = Vec::new();
    for (n, line) in src.lines().enumerate() {
        let Some(rest) = line.strip_prefix("runs differ at ") else {
            continue;
        };
        let bad = || {
            format!(
                "{file}:{}: expected `runs differ at BUF[i]: WORD WORD ...`",
                n + 1
            )
        };
        let (at, words) = rest.split_once(": ").ok_or_else(bad)?;
        let (buffer, idx) = at
            .strip_suffix(']')
            .and_then(|a| a.split_once('['))
            .ok_or_else(bad)?;
        let word = idx.parse().map_err(|_| bad())?;
        let values = words
            .split_whitespace()
            .map(|w| u32::from_str_radix(w, 16).map_err(|_| bad()))
            .collect::<Result<Vec<_>, _>>()?;
        out.push(RunsDiffer {
            buffer: buffer.to_string(),
            word,
            values,
        });
    }
    Ok(out)
}

/// Every `.launch` file directly in `dir`, sorted by name.
pub fn launch_files(dir: &Path) -> Result<Vec<PathBuf>, String> {
    let rd = std::fs::read_dir(dir).map_err(|e| format!("{}: {e}", dir.display()))?;
    let mut v = Vec::new();
    for e in rd {
        let p = e.map_err(|e| format!("{}: {e}", dir.display()))?.path();
        if p.extension().is_some_and(|x| x == "launch") {
            v.push(p);
        }
    }
    v.sort();
    Ok(v)
}

impl KernelCase {
    /// Loads `launch_file`, the `.ptx` beside it and the expected outputs
    /// of the file beside it with extension `expected_ext` (`"expect"`,
    /// `"gpu.txt"`). Errors name the file (and line and column).
    pub fn load(launch_file: &Path, expected_ext: &str) -> Result<KernelCase, String> {
        let read =
            |p: &Path| std::fs::read_to_string(p).map_err(|e| format!("{}: {e}", p.display()));
        let ptx_file = launch_file.with_extension("ptx");
        let ptx = read(&ptx_file)?;
        let module =
            parse_module(&ptx).map_err(|e| e.with_file(&ptx_file.display().to_string()))?;
        let dir = launch_file.parent().unwrap_or(Path::new("."));
        let launch = Launch::parse(&read(launch_file)?, &launch_file.display().to_string(), dir)?;
        let exp_file = launch_file.with_extension(expected_ext);
        let expected = parse_expected(&read(&exp_file)?, &exp_file.display().to_string())?;
        if expected.is_empty() {
            return Err(format!("{}: no buffers", exp_file.display()));
        }
        Ok(KernelCase {
            launch_file: launch_file.to_path_buf(),
            ptx,
            module,
            launch,
            expected,
        })
    }

    /// The words that differed between the GPU's runs
    /// (`NAME.gpu-runs.txt` beside the launch; none when there is no such
    /// file).
    pub fn runs_differ(&self) -> Result<Vec<RunsDiffer>, String> {
        let f = self.launch_file.with_extension("gpu-runs.txt");
        match std::fs::read_to_string(&f) {
            Ok(src) => parse_runs_differ(&src, &f.display().to_string()),
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(Vec::new()),
            Err(e) => Err(format!("{}: {e}", f.display())),
        }
    }

    /// Checks an engine's `buffers` against the GPU's runs, with the
    /// reference's definedness `reference` (the interpreter's buffers of
    /// the same launch): every byte the reference defines must equal the
    /// GPU's (the expected file, its first run), and every bit that
    /// differed between the GPU's runs must be one the reference leaves
    /// undefined. One line per failure, named by the launch file.
    pub fn check_against_runs(
        &self,
        buffers: &[BufferOut],
        reference: &[BufferOut],
    ) -> Vec<String> {
        let name = self.launch_file.display();
        let mut fails = Vec::new();
        let defined = |buf: &str, byte: usize| {
            reference
                .iter()
                .find(|b| b.name == buf)
                .and_then(|b| b.defined.get(byte).copied())
                .unwrap_or(false)
        };
        for (buf, want) in &self.expected {
            let Some(got) = buffers.iter().find(|b| &b.name == buf) else {
                fails.push(format!("{name}: {buf}: no such buffer"));
                continue;
            };
            for (i, w) in want.iter().enumerate() {
                let Some(w) = w else { continue };
                for (k, wb) in w.to_le_bytes().into_iter().enumerate() {
                    let at = 4 * i + k;
                    if defined(buf, at) && got.bytes.get(at) != Some(&wb) {
                        fails.push(format!(
                            "{name}: {buf}[{i}] byte {k}: the reference defines it; got {:02x?}, the GPU stored {wb:02x}",
                            got.bytes.get(at)
                        ));
                    }
                }
            }
        }
        match self.runs_differ() {
            Err(e) => fails.push(e),
            Ok(differ) => {
                for d in differ {
                    let changed = d.values.iter().fold(0, |m, v| m | (v ^ d.values[0]));
                    for k in 0..4 {
                        if changed >> (8 * k) & 0xff != 0 && defined(&d.buffer, 4 * d.word + k) {
                            fails.push(format!(
                                "{name}: {}[{}] byte {k} differed between the GPU's runs ({:08x?}) but the reference defines it",
                                d.buffer, d.word, d.values
                            ));
                        }
                    }
                }
            }
        }
        fails
    }

    /// Every difference between `buffers` (what an engine left) and the
    /// expected words, one line each, named by the launch file.
    pub fn check(&self, buffers: &[BufferOut]) -> Vec<String> {
        let name = self.launch_file.display();
        compare(buffers, &self.expected)
            .into_iter()
            .map(|d| format!("{name}: {d}"))
            .collect()
    }
}
