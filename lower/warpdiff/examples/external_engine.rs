//! An external engine in Rust (docs/engine-protocol.md): a child process
//! that speaks warpdiff's engine protocol 1 on stdin and stdout, one JSON
//! object per line, and runs each job's case on `warp-jit`. It is the
//! template for a simulator written in Rust: replace [`run_job`] with your
//! own engine. It agrees with the reference wherever the JIT does, so
//! warpdiff finds no divergence in it:
//!
//! ```sh
//! cargo build --example external_engine -p warpdiff
//! warpdiff diff --engines cmd:target/debug/examples/external_engine corpus/*.ptx
//! warpdiff fuzz --engines interp,cmd:target/debug/examples/external_engine --seconds 20
//! ```

use serde_json::{json, Value};
use std::io::{BufRead, Write};
use warp_jit::warp_core::ir::WARP;
use warp_jit::warp_core::text::parse;
use warp_jit::{JitError, JitProgram};

/// One job's answer: `{"output": HEX}`, `{"skip": WHY}` or `{"error": WHY}`
/// (section 2, "result"). The job's `case` is the program with its inputs
/// as `.lanes` lines (section 2, "run"): its registers in declaration
/// order are the kernel's `%w0, %w1, ...`, so the output is register `r`
/// on `lane` at word `r * 32 + lane`, then each lane's status (0 ran to
/// the end, 1 exited) at word `registers * 32 + lane` (section 3.3).
fn run_job(job: &Value) -> Value {
    let Some(text) = job["case"].as_str() else {
        return json!({"error": "the request has no `case` for this job"});
    };
    let case = match parse(text) {
        Ok(c) => c,
        Err(e) => return json!({"error": format!("the case does not parse: {e}")}),
    };
    if case.inputs.fuel.is_some() {
        return json!({"skip": "a bounded run (`.fuel`)"});
    }
    let jit = match JitProgram::compile(&case.program) {
        Ok(j) => j,
        Err(JitError::TooBig(m)) => return json!({"skip": format!("too big: {m}")}),
        Err(e) => return json!({"error": e.to_string()}),
    };
    let out = match jit.run(&case.inputs) {
        Ok(o) => o,
        Err(e) => return json!({"error": e.to_string()}),
    };
    let mut words: Vec<u64> = out.values.iter().flatten().copied().collect();
    words.extend((0..WARP).map(|lane| u64::from(out.exited >> lane & 1)));
    let hex: String = words
        .iter()
        .flat_map(|w| w.to_le_bytes())
        .map(|b| format!("{b:02x}"))
        .collect();
    json!({ "output": hex })
}

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let stdin = std::io::stdin();
    let mut stdout = std::io::stdout().lock();
    for line in stdin.lock().lines() {
        let msg: Value = serde_json::from_str(&line?)?;
        let answer = match msg["type"].as_str() {
            // `ptx: false`: this engine reads the cases only.
            Some("hello") if msg["protocol"] == 1 => json!({
                "type": "hello", "protocol": 1, "name": "rust-jit",
                "version": env!("CARGO_PKG_VERSION"), "ptx": false,
            }),
            Some("hello") => json!({"type": "error", "message": "this engine speaks protocol 1"}),
            Some("run") => {
                let jobs = msg["jobs"].as_array().map_or(&[][..], Vec::as_slice);
                json!({
                    "type": "result", "id": msg["id"],
                    "jobs": jobs.iter().map(run_job).collect::<Vec<_>>(),
                })
            }
            _ => json!({"type": "error", "id": msg["id"], "message": "unknown message"}),
        };
        writeln!(stdout, "{answer}")?;
        stdout.flush()?;
    }
    Ok(())
}
