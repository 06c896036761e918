//! Writing regression cases into `corpus/`: named `<form>-<hash>.ptx`,
//! written atomically (a temporary file, then a no-clobber hard link), and
//! never overwriting a file that exists — safe when several fuzzing
//! processes write at once.

use std::io::Write;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};

/// What [`write_case`] did.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Written {
    /// A new file.
    New(PathBuf),
    /// A file of that name (the same program and inputs) was already
    /// there; it was left as it is.
    Exists(PathBuf),
}

impl Written {
    /// The file's path.
    pub fn path(&self) -> &Path {
        match self {
            Written::New(p) | Written::Exists(p) => p,
        }
    }
}

/// FNV-1a, 64-bit: a stable short hash for file names.
pub fn fnv1a(text: &str) -> u64 {
    text.bytes().fold(0xcbf2_9ce4_8422_2325, |h, b| {
        (h ^ b as u64).wrapping_mul(0x0100_0000_01b3)
    })
}

/// The file name for a case: the form (made file-name safe) and 8 hex
/// digits of the hash of `key` (the program and inputs, without comments,
/// so the same case found twice gets the same name).
pub fn case_name(form: &str, key: &str) -> String {
    let form: String = form
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || c == '.' || c == '-' {
                c
            } else {
                '_'
            }
        })
        .collect();
    format!("{form}-{:08x}.ptx", fnv1a(key) as u32)
}

/// Writes `text` as `dir/<form>-<hash of key>.ptx` unless that file exists.
pub fn write_case(dir: &Path, form: &str, key: &str, text: &str) -> std::io::Result<Written> {
    static COUNTER: AtomicU64 = AtomicU64::new(0);
    std::fs::create_dir_all(dir)?;
    let name = case_name(form, key);
    let path = dir.join(&name);
    if path.exists() {
        return Ok(Written::Exists(path));
    }
    let tmp = dir.join(format!(
        ".{name}.{}.{}.tmp",
        std::process::id(),
        COUNTER.fetch_add(1, Ordering::Relaxed)
    ));
    {
        let mut f = std::fs::File::create(&tmp)?;
        f.write_all(text.as_bytes())?;
        f.sync_all()?;
    }
    // A hard link never replaces an existing file: of several writers of
    // the same name, exactly one succeeds, and readers never see a
    // half-written file.
    let linked = std::fs::hard_link(&tmp, &path);
    let _ = std::fs::remove_file(&tmp);
    match linked {
        Ok(()) => Ok(Written::New(path)),
        Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => Ok(Written::Exists(path)),
        Err(e) => Err(e),
    }
}

/// The comment line that marks a corpus case as a known GPU divergence:
/// `// known-gpu-divergence: <why>` in its header. Such a case records what
/// the reference says; on a GPU that still disagrees (e.g. a PTX compiler
/// bug, explained in the header), replay reports it as known instead of
/// failing, and passes once the GPU agrees.
pub const KNOWN_GPU_DIVERGENCE: &str = "known-gpu-divergence:";

/// The reason of a case's [`KNOWN_GPU_DIVERGENCE`] line, if it has one.
pub fn known_gpu_divergence(case: &crate::ir::Case) -> Option<&str> {
    case.header
        .iter()
        .find_map(|l| l.trim().strip_prefix(KNOWN_GPU_DIVERGENCE))
        .map(str::trim)
}

/// The comment line that marks a corpus case as one a GPU did not finish:
/// `// gpu-hangs: <what was seen>`. Replay and `warpdiff diff` do not run
/// such a case on the GPU (a hung kernel would switch the GPU off for the
/// rest of the process); the CPU engines still check it.
pub const GPU_FAILS: &str = "gpu-fails:";

/// The text of a case's [`GPU_FAILS`] line, if it has one.
pub fn gpu_fails(case: &crate::ir::Case) -> Option<&str> {
    case.header
        .iter()
        .find_map(|l| l.trim().strip_prefix(GPU_FAILS))
        .map(str::trim)
}

#[cfg(test)]
mod tests {
    use super::{gpu_fails, known_gpu_divergence};
    use crate::text::parse;

    #[test]
    fn known_gpu_divergence_is_read_from_the_header() {
        let marked = parse(
            "// Divergence: gpu disagrees.\n// known-gpu-divergence:  a compiler bug \n.reg .b32 R;\n",
        )
        .expect("parses");
        assert_eq!(known_gpu_divergence(&marked), Some("a compiler bug"));
        // Only the header counts: a comment after the first directive does not.
        let unmarked = parse(".reg .b32 R;\n// known-gpu-divergence: no\n").expect("parses");
        assert_eq!(known_gpu_divergence(&unmarked), None);
        let hangs = parse("// gpu-fails: H200, 2 s\n.reg .b32 R;\n").expect("parses");
        assert_eq!(gpu_fails(&hangs), Some("H200, 2 s"));
        assert_eq!(gpu_fails(&marked), None);
    }
}
