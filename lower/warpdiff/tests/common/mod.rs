//! What the command-line tests share: a scratch directory, files in it,
//! and running the `warpdiff` binary with no GPU.

#![allow(dead_code)]

use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::Instant;

/// A fresh scratch directory for test `name` of suite `suite`.
pub fn dir(suite: &str, name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("warpdiff-{suite}-{name}-{}", std::process::id()));
    std::fs::create_dir_all(&d).expect("temp dir");
    d
}

/// Writes `text` to `d/name` and returns the path.
pub fn write(d: &Path, name: &str, text: &str) -> String {
    let p = d.join(name);
    std::fs::write(&p, text).expect("write");
    p.display().to_string()
}

/// Runs `warpdiff args` with no GPU visible, whatever the host has:
/// (exit code, stdout, stderr).
pub fn warpdiff(args: &[&str]) -> (i32, String, String) {
    let (code, out, err, _) = warpdiff_env(args, &[]);
    (code, out, err)
}

/// [`warpdiff`] with the variables `env` set: (exit code, stdout, stderr,
/// seconds taken).
pub fn warpdiff_env(args: &[&str], env: &[(&str, &str)]) -> (i32, String, String, f64) {
    let t = Instant::now();
    let out = Command::new(env!("CARGO_BIN_EXE_warpdiff"))
        .args(args)
        .envs(env.iter().copied())
        .env("CUDA_VISIBLE_DEVICES", "")
        .output()
        .expect("runs");
    (
        out.status.code().expect("exit code"),
        String::from_utf8(out.stdout).expect("utf8"),
        String::from_utf8(out.stderr).expect("utf8"),
        t.elapsed().as_secs_f64(),
    )
}
