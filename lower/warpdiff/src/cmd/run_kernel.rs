//! `warpdiff run kernel.ptx --launch kernel.launch` (or `--kernel NAME
//! --grid X --block X --buffer ... --param ...`): launch a PTX module's
//! kernel on one engine (`--engine interp|jit|gpu`) and print every buffer
//! after the run (issue #13).

use crate::cli::{KernelArgs, RunArgs};
use crate::engines::kernel::{self, KernelRunError};
use crate::{errln, outln};
use std::path::Path;
use warp_core::ir::Module;
use warp_core::launch::{compare, parse_dims, parse_expected, Buffer, Launch, ParamValue};
use warp_core::text::parse_module;

/// Reads and parses a PTX module file: its text (what the GPU compiles)
/// and the module; the error names the file, line and column.
pub fn read_module(file: &Path) -> Result<(String, Module), String> {
    let name = file.display().to_string();
    let src = std::fs::read_to_string(file).map_err(|e| format!("{name}: cannot read: {e}"))?;
    let module = parse_module(&src).map_err(|e| e.with_file(&name))?;
    Ok((src, module))
}

/// The launch the flags describe, starting from the `--launch` file's.
pub fn launch_of(k: &KernelArgs) -> Result<Launch, String> {
    let mut l = match &k.launch {
        Some(p) => {
            let text = std::fs::read_to_string(p)
                .map_err(|e| format!("{}: cannot read: {e}", p.display()))?;
            let dir = p.parent().unwrap_or(Path::new("."));
            Launch::parse(&text, &p.display().to_string(), dir)?
        }
        None => Launch::new(""),
    };
    if let Some(n) = &k.kernel {
        l.kernel = n.clone();
    }
    if let Some(g) = &k.grid {
        l.grid = parse_dims(g).map_err(|m| format!("--grid {m}"))?;
    }
    if let Some(n) = k.shared {
        l.shared = n;
    }
    if let Some(b) = &k.block {
        l.block = parse_dims(b).map_err(|m| format!("--block {m}"))?;
    }
    for b in &k.buffers {
        let bad = || {
            format!("--buffer `{b}`: expected NAME=u32:W0,W1,..., NAME=fill:WORD*COUNT or NAME=file:PATH")
        };
        let (name, spec) = b.split_once('=').ok_or_else(bad)?;
        let bytes = if let Some(ws) = spec.strip_prefix("u32:") {
            let mut v = Vec::new();
            for (i, w) in ws.split(',').filter(|w| !w.is_empty()).enumerate() {
                let x = u32::from_str_radix(w.trim_start_matches("0x"), 16).map_err(|_| {
                    format!(
                        "--buffer `{b}`: word {} `{w}` is not a hex 32-bit word (NAME=u32:W0,W1,... takes hex words, e.g. u32:1,ff,0x10)",
                        i + 1
                    )
                })?;
                v.extend_from_slice(&x.to_le_bytes());
            }
            v
        } else if let Some(f) = spec.strip_prefix("fill:") {
            let (w, n) = f.split_once('*').ok_or_else(bad)?;
            let x = u32::from_str_radix(w.trim_start_matches("0x"), 16).map_err(|_| {
                format!("--buffer `{b}`: `{w}` is not a hex 32-bit word (NAME=fill:WORD*COUNT)")
            })?;
            let n: usize = n.parse().map_err(|_| {
                format!("--buffer `{b}`: `{n}` is not a word count (NAME=fill:WORD*COUNT)")
            })?;
            x.to_le_bytes().repeat(n)
        } else if let Some(p) = spec.strip_prefix("file:") {
            std::fs::read(p).map_err(|e| format!("--buffer `{b}`: cannot read `{p}`: {e}"))?
        } else {
            return Err(bad());
        };
        l.buffers.retain(|x| x.name != name);
        l.buffers.push(Buffer {
            name: name.to_string(),
            bytes,
        });
    }
    for p in &k.params {
        let bad = || format!("--param `{p}`: expected NAME=buffer:BUF or NAME=VALUE");
        let (name, v) = p.split_once('=').ok_or_else(bad)?;
        let value = if let Some(buf) = v.strip_prefix("buffer:") {
            let i = l
                .buffers
                .iter()
                .position(|b| b.name == buf)
                .ok_or_else(|| format!("--param `{p}`: no buffer named `{buf}`"))?;
            ParamValue::Buffer(i)
        } else if let Some(h) = v.strip_prefix("0x") {
            ParamValue::Value(u64::from_str_radix(h, 16).map_err(|_| bad())?)
        } else if let Some(d) = v.strip_prefix('-') {
            ParamValue::Value(d.parse::<u64>().map_err(|_| bad())?.wrapping_neg())
        } else {
            ParamValue::Value(v.parse().map_err(|_| bad())?)
        };
        l.params.retain(|(n, _)| n != name);
        l.params.push((name.to_string(), value));
    }
    if l.kernel.is_empty() {
        return Err("no kernel to run: give --launch FILE or --kernel NAME".into());
    }
    Ok(l)
}

/// Runs the kernel launch and returns the exit status (0 ran, and matched
/// --expect if given; 1 --expect differs; 2 error; 3 undefined behaviour).
pub fn run(o: &RunArgs) -> u8 {
    match run_inner(o) {
        Ok(code) => code,
        Err(m) => {
            errln!("warpdiff run: {m}");
            2
        }
    }
}

fn run_inner(o: &RunArgs) -> Result<u8, String> {
    let [file] = o.files.as_slice() else {
        return Err("a kernel launch takes one PTX module file".into());
    };
    let name = file.display().to_string();
    let engine = kernel::kernel_engine(&o.engine)?;
    let (src, module) = read_module(file)?;
    let launch = launch_of(&o.kernel)?;
    let out = match kernel::run(engine, &src, &module, &launch) {
        Ok(out) => out,
        Err(KernelRunError::Skip(m)) => {
            return Err(format!("{name}: {engine} cannot run here: {m}"))
        }
        Err(KernelRunError::Failed(m)) => return Err(format!("{name}: {m}")),
    };
    // Only the interpreter counts warp steps.
    let steps = if engine == "interp" {
        format!(", {} warp steps", out.steps)
    } else {
        String::new()
    };
    outln!(
        "== {name} kernel {} grid {:?} block {:?} ({}{steps}) ==",
        launch.kernel,
        launch.grid,
        launch.block,
        kernel::describe(engine),
    );
    if let Some((at, ub)) = &out.ub {
        outln!("{name}:{}: {at}: {ub}", ub.line);
        return Ok(3);
    }
    for b in &out.buffers {
        outln!("{}", b.line());
    }
    if let Some(dir) = &o.kernel.out {
        std::fs::create_dir_all(dir).map_err(|e| format!("{}: {e}", dir.display()))?;
        for b in &out.buffers {
            let p = dir.join(format!("{}.bin", b.name));
            std::fs::write(&p, &b.bytes).map_err(|e| format!("{}: {e}", p.display()))?;
        }
    }
    if let Some(e) = &o.kernel.expect {
        let en = e.display().to_string();
        let text = std::fs::read_to_string(e).map_err(|x| format!("{en}: cannot read: {x}"))?;
        let want = parse_expected(&text, &en)?;
        let diffs = compare(&out.buffers, &want);
        if !diffs.is_empty() {
            outln!("{en}: {} word(s) differ:", diffs.len());
            for d in diffs {
                outln!("  {d}");
            }
            return Ok(1);
        }
        outln!("expect: all {} buffers match {en}", want.len());
    }
    Ok(0)
}
