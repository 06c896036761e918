//! `warpdiff diff kernel.ptx --launch F.launch [--engines interp,jit,gpu]`
//! (issue #13): run a kernel launch on the reference interpreter and on
//! each other engine, and compare every byte the reference defines in
//! every buffer (bytes it leaves undefined, such as what racing stores
//! write, are not compared). Each engine either agrees on every defined
//! byte, or each differing 32-bit word is printed with the buffer, the
//! word's index and byte offset, and both values.
//!
//! An engine that fails on the launch (an error, a fault, a hang) is a
//! finding, not a skip; only a GPU engine with no CUDA driver or GPU here
//! is skipped, with the reason. Exit status: 1 a divergence or an engine
//! failed, else 3 the reference has undefined behaviour (nothing
//! compared), 2 an error (unreadable input, a launch that does not fit
//! the module), 0 every engine agreed.

use crate::cli::DiffArgs;
use crate::cmd::run_kernel::{launch_of, read_module};
use crate::engines::kernel::{self, KernelRunError};
use crate::engines::spec::{flatten, ENGINES};
use crate::{errln, outln};
use warp_core::launch::BufferOut;

/// At most this many differing words are printed per engine.
const MAX_SHOWN: usize = 64;

/// One way an engine's buffers differ from the reference's.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Difference {
    /// A 32-bit word holding at least one defined byte that differs.
    Word {
        /// The buffer's name.
        buffer: String,
        /// The word's index (its byte offset is 4 times it).
        word: usize,
        /// The reference's word, `__` for each byte it leaves undefined.
        reference: String,
        /// The engine's word, `__` for each byte it leaves undefined.
        engine: String,
    },
    /// A buffer missing, or of another length.
    Shape(String),
}

impl Difference {
    /// One line for people: `out[5] (byte 20): interp 0000002a, gpu
    /// 0000002b`.
    pub fn line(&self, engine: &str) -> String {
        match self {
            Difference::Word {
                buffer,
                word,
                reference,
                engine: got,
            } => format!(
                "{buffer}[{word}] (byte {}): interp {reference}, {engine} {got}",
                4 * word
            ),
            Difference::Shape(m) => m.clone(),
        }
    }
}

/// What comparing an engine's buffers with the reference's found.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Comparison {
    /// Bytes the reference defines, over every buffer.
    pub defined: usize,
    /// Bytes of every buffer.
    pub total: usize,
    /// Every difference, in buffer and word order (empty: agrees).
    pub diffs: Vec<Difference>,
}

/// A word's bytes as hex, most significant first, `__` where undefined
/// (a tail word shorter than 4 bytes shows the bytes it has).
fn word_text(bytes: &[u8], defined: &[bool]) -> String {
    bytes
        .iter()
        .zip(defined)
        .rev()
        .map(|(b, &d)| {
            if d {
                format!("{b:02x}")
            } else {
                "__".to_string()
            }
        })
        .collect()
}

/// Compares `other`'s buffers with `reference`'s on every byte the
/// reference defines (whatever `other` says of the rest); a byte the
/// reference defines and `other` leaves undefined differs.
pub fn compare_defined(reference: &[BufferOut], other: &[BufferOut]) -> Comparison {
    let mut c = Comparison::default();
    for r in reference {
        c.total += r.bytes.len();
        c.defined += r.defined.iter().filter(|&&d| d).count();
        let Some(o) = other.iter().find(|o| o.name == r.name) else {
            c.diffs
                .push(Difference::Shape(format!("{}: no such buffer", r.name)));
            continue;
        };
        if o.bytes.len() != r.bytes.len() || o.defined.len() != o.bytes.len() {
            c.diffs.push(Difference::Shape(format!(
                "{}: {} bytes, the reference has {}",
                r.name,
                o.bytes.len(),
                r.bytes.len()
            )));
            continue;
        }
        for (w, start) in (0..r.bytes.len()).step_by(4).enumerate() {
            let end = (start + 4).min(r.bytes.len());
            let differs =
                (start..end).any(|i| r.defined[i] && (!o.defined[i] || o.bytes[i] != r.bytes[i]));
            if differs {
                c.diffs.push(Difference::Word {
                    buffer: r.name.clone(),
                    word: w,
                    reference: word_text(&r.bytes[start..end], &r.defined[start..end]),
                    engine: word_text(&o.bytes[start..end], &o.defined[start..end]),
                });
            }
        }
    }
    c
}

/// Runs `diff` on a kernel launch; returns the exit status (see the
/// module doc).
pub fn diff(a: &DiffArgs) -> u8 {
    match diff_inner(a) {
        Ok(code) => code,
        Err(m) => {
            errln!("warpdiff diff: {m}");
            2
        }
    }
}

fn diff_inner(a: &DiffArgs) -> Result<u8, String> {
    let [file] = a.files.as_slice() else {
        return Err("a kernel launch takes one PTX module file".into());
    };
    if a.kernel.expect.is_some() || a.kernel.out.is_some() {
        return Err(
            "--expect and --out belong to `warpdiff run`; `diff` compares the engines with the reference"
                .into(),
        );
    }
    let mut engines: Vec<&'static str> = Vec::new();
    for spec in flatten(&a.engines, ENGINES) {
        let n = kernel::kernel_engine(&spec)?;
        if n != "interp" && !engines.contains(&n) {
            engines.push(n);
        }
    }
    let name = file.display().to_string();
    let (src, module) = read_module(file)?;
    let launch = launch_of(&a.kernel)?;
    let reference = match kernel::run("interp", &src, &module, &launch) {
        Ok(r) => r,
        Err(KernelRunError::Skip(m) | KernelRunError::Failed(m)) => {
            return Err(format!("{name}: interp: {m}"))
        }
    };
    let whole = compare_defined(&reference.buffers, &reference.buffers);
    outln!(
        "== {name} kernel {} grid {:?} block {:?}: interp, {} warp steps, {} of {} bytes defined ==",
        launch.kernel,
        launch.grid,
        launch.block,
        reference.steps,
        whole.defined,
        whole.total
    );
    if let Some((at, ub)) = &reference.ub {
        outln!("{name}:{}: {at}: {ub}", ub.line);
        outln!("not compared: the reference has undefined behaviour");
        return Ok(3);
    }
    let mut bad = false;
    for e in engines {
        let out = match kernel::run(e, &src, &module, &launch) {
            Ok(out) => out,
            Err(KernelRunError::Skip(m)) => {
                outln!("  {e}: skipped ({m})");
                continue;
            }
            Err(KernelRunError::Failed(m)) => {
                outln!("  {e}: FAILED: {m}");
                bad = true;
                continue;
            }
        };
        let who = kernel::describe(e);
        if let Some((at, ub)) = &out.ub {
            outln!(
                "  {who}: FAILED: reports undefined behaviour the reference does not: line {}: {at}: {ub}",
                ub.line
            );
            bad = true;
            continue;
        }
        let c = compare_defined(&reference.buffers, &out.buffers);
        if c.diffs.is_empty() {
            outln!(
                "  {who}: agrees on every defined byte ({} defined of {})",
                c.defined,
                c.total
            );
            continue;
        }
        bad = true;
        outln!(
            "  {who}: DIVERGES on {} word(s) ({} bytes defined of {}):",
            c.diffs.len(),
            c.defined,
            c.total
        );
        for d in c.diffs.iter().take(MAX_SHOWN) {
            outln!("    {}", d.line(e));
        }
        if c.diffs.len() > MAX_SHOWN {
            outln!("    ... and {} more", c.diffs.len() - MAX_SHOWN);
        }
    }
    Ok(if bad { 1 } else { 0 })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn buf(name: &str, bytes: &[u8], defined: &[bool]) -> BufferOut {
        BufferOut {
            name: name.into(),
            bytes: bytes.to_vec(),
            defined: defined.to_vec(),
        }
    }

    fn all(name: &str, bytes: &[u8]) -> BufferOut {
        buf(name, bytes, &vec![true; bytes.len()])
    }

    #[test]
    fn a_differing_defined_byte_is_found_with_its_buffer_word_and_offset() {
        let reference = [
            all("in", &[1, 2, 3, 4]),
            all("out", &[0x2a, 0, 0, 0, 0xaa, 0xaa, 0xaa, 0xaa]),
        ];
        let gpu = [
            all("in", &[1, 2, 3, 4]),
            all("out", &[0x2a, 0, 0, 0, 0xaa, 0xab, 0xaa, 0xaa]),
        ];
        let c = compare_defined(&reference, &gpu);
        assert_eq!((c.defined, c.total), (12, 12));
        assert_eq!(
            c.diffs,
            [Difference::Word {
                buffer: "out".into(),
                word: 1,
                reference: "aaaaaaaa".into(),
                engine: "aaaaabaa".into(),
            }]
        );
        assert_eq!(
            c.diffs[0].line("gpu"),
            "out[1] (byte 4): interp aaaaaaaa, gpu aaaaabaa"
        );
        assert!(compare_defined(&reference, &reference).diffs.is_empty());
    }

    #[test]
    fn bytes_the_reference_leaves_undefined_are_not_compared() {
        // Bytes 1 and 2 of word 0 and all of word 1 are undefined (racing
        // stores): any value there agrees.
        let d = [true, false, false, true, false, false, false, false];
        let reference = [buf("out", &[7, 0, 0, 9, 0, 0, 0, 0], &d)];
        let engine = [all("out", &[7, 0xff, 0xee, 9, 1, 2, 3, 4])];
        let c = compare_defined(&reference, &engine);
        assert!(c.diffs.is_empty(), "{:?}", c.diffs);
        assert_eq!((c.defined, c.total), (2, 8));
        // A defined byte of that word still counts, and the reference's
        // word shows its undefined bytes.
        let engine = [all("out", &[8, 0xff, 0xee, 9, 1, 2, 3, 4])];
        let c = compare_defined(&reference, &engine);
        assert_eq!(
            c.diffs[0].line("jit"),
            "out[0] (byte 0): interp 09____07, jit 09eeff08"
        );
    }

    #[test]
    fn an_engine_leaving_a_defined_byte_undefined_or_a_buffer_out_differs() {
        let reference = [all("out", &[1, 2, 3, 4, 5, 6])];
        let engine = [buf(
            "out",
            &[1, 2, 3, 4, 5, 6],
            &[true, true, true, true, true, false],
        )];
        let c = compare_defined(&reference, &engine);
        assert_eq!(
            c.diffs[0].line("jit"),
            "out[1] (byte 4): interp 0605, jit __05"
        );
        let c = compare_defined(&reference, &[all("other", &[1])]);
        assert_eq!(c.diffs[0].line("gpu"), "out: no such buffer");
        let c = compare_defined(&reference, &[all("out", &[1, 2, 3])]);
        assert_eq!(c.diffs[0].line("gpu"), "out: 3 bytes, the reference has 6");
    }
}
