//! The kernel corpus (`corpus/kernels/`, issue #13): each `NAME.launch`
//! with the module `NAME.ptx` beside it and its expected outputs
//! (`NAME.expect`, or what a GPU stored, `NAME.gpu.txt`), loaded once for
//! every engine's tests (the interpreter's, the JIT's, the GPU's).

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
