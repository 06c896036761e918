//! What a compile optimises for ([`Tuning`]), the Cranelift target each
//! tuning compiles with (optimiser level and register allocator on the
//! host's native ISA: [`isa`]), and the last step of every compile, from a
//! Cranelift function to executable machine code ([`machine_code`]).

use super::code::Code;
use super::error::JitError;
use cranelift_codegen::isa::OwnedTargetIsa;
use cranelift_codegen::settings::{self, Configurable};
use cranelift_codegen::Context;
use std::sync::OnceLock;

/// What the compilation optimises for.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Tuning {
    /// The fastest code: Cranelift's backtracking register allocator. For
    /// programs run many times (emulation, benchmarks).
    #[default]
    FastCode,
    /// The fastest compile for slower code: every warp instruction is a
    /// call of a helper shared by all programs (`outline.rs`: the same
    /// lowering, compiled once per instruction shape), and the rest (control
    /// flow, fuel, rendezvous) is compiled with the single-pass register
    /// allocator and no Cranelift optimisation. For programs run once
    /// (fuzzing).
    FastCompile,
    /// The fast-code lowering (every instruction inline) compiled as
    /// fast-compile is: no optimisation, the single-pass allocator. Neither
    /// the fastest code nor the fastest compile: what fuzzing uses on a
    /// share of programs ([`JitEngine::inline_every`](crate::JitEngine::inline_every)) so that the inline
    /// lowering is fuzzed too.
    Inline,
}

impl Tuning {
    /// Above this many instructions a program is compiled in parts of at
    /// most this many (see [`JitProgram::compile_in_parts`](crate::JitProgram::compile_in_parts)).
    ///
    /// Measured on mix200 repeated (issue #14, 2026-11-24): fast-compile
    /// at 200,000 instructions took 1.3–1.5 s and a peak of 440–450 MiB as
    /// one function, 1.0–1.4 s and 133 MiB in parts of 1,024 to 8,192
    /// (two samples each, within noise of each other: 4,096 gave 1.02 and
    /// 1.06 s); fast-code at 5,000 took 10.2 s and 644 MiB as one function,
    /// 5.9 / 6.3 / 6.5 s and 252–271 MiB in parts of 256 / 512 / 1,024
    /// (1.3 s in parts of 512 once big rendezvous groups were completed by
    /// the shared helper), with the same run time. Parts of 512 keep every
    /// bench program (at most 200 instructions) whole.
    pub fn part_insts(self) -> usize {
        match self {
            Tuning::FastCode | Tuning::Inline => 512,
            Tuning::FastCompile => 4096,
        }
    }
}

pub(crate) fn isa(tuning: Tuning) -> Result<&'static OwnedTargetIsa, JitError> {
    static CODE: OnceLock<Result<OwnedTargetIsa, JitError>> = OnceLock::new();
    static COMPILE: OnceLock<Result<OwnedTargetIsa, JitError>> = OnceLock::new();
    let (cell, regalloc) = match tuning {
        Tuning::FastCode => (&CODE, "backtracking"),
        Tuning::FastCompile | Tuning::Inline => (&COMPILE, "single_pass"),
    };
    cell.get_or_init(|| {
        let mut flags = settings::builder();
        let set = |f: &mut settings::Builder, k: &str, v: &str| {
            f.set(k, v)
                .map_err(|e| JitError::Failed(format!("setting {k}={v}: {e}")))
        };
        let opt = match tuning {
            Tuning::FastCode => "speed",
            Tuning::FastCompile | Tuning::Inline => "none",
        };
        set(&mut flags, "opt_level", opt)?;
        set(&mut flags, "regalloc_algorithm", regalloc)?;
        // The verifier runs in debug builds (and so in tests), but not in
        // cargo fuzz's builds (debug assertions on): there it took 13 % of
        // `diff`'s time, and the fuzz loop it stands for (`warpdiff fuzz`,
        // a release build) runs without it too.
        let verify = if cfg!(debug_assertions) && !cfg!(fuzzing) {
            "true"
        } else {
            "false"
        };
        set(&mut flags, "enable_verifier", verify)?;
        // The code is called from Rust and never unwound through.
        set(&mut flags, "unwind_info", "false")?;
        let builder = cranelift_native::builder().map_err(|e| JitError::Failed(e.to_string()))?;
        builder
            .finish(settings::Flags::new(flags))
            .map_err(|e| JitError::Failed(e.to_string()))
    })
    .as_ref()
    .map_err(Clone::clone)
}

/// Whether the host (whose ISA Cranelift compiles for) has fused
/// multiply-add instructions: without them Cranelift lowers `fma` to a
/// library call, which the JIT's code (no relocations) cannot make.
pub(crate) fn has_fma() -> bool {
    #[cfg(target_arch = "x86_64")]
    {
        std::arch::is_x86_feature_detected!("fma")
    }
    #[cfg(not(target_arch = "x86_64"))]
    {
        true
    }
}

/// Compiles the function in `ctx` for `isa` into executable memory (`what`
/// names it in errors: a program or a helper). With `WARPDIFF_JIT_DUMP`
/// set (to anything), a program's Cranelift IR (as lowered, before
/// Cranelift's optimiser) and its machine code (Cranelift's own listing,
/// after register allocation) are printed on stderr; when it names a
/// directory, the machine code's bytes are written there too
/// ([`dump_bytes`]).
pub(crate) fn machine_code(
    ctx: &mut Context,
    isa: &OwnedTargetIsa,
    what: &str,
) -> Result<Code, JitError> {
    let dump = what == "program" && std::env::var_os("WARPDIFF_JIT_DUMP").is_some();
    if dump {
        eprintln!(
            "; WARPDIFF_JIT_DUMP: Cranelift IR of a {what}\n{}",
            ctx.func.display()
        );
        ctx.set_disasm(true);
    }
    let compiled = ctx
        .compile(&**isa, &mut Default::default())
        .map_err(|e| JitError::Failed(format!("cranelift ({what}): {:?}", e.inner)))?;
    if !compiled.buffer.relocs().is_empty() {
        return Err(JitError::Failed(format!(
            "the {what}'s code needs relocations"
        )));
    }
    let code = Code::new(compiled.code_buffer())
        .map_err(|e| JitError::Failed(format!("executable memory: {e}")))?;
    if dump {
        let asm = compiled.vcode.as_deref().unwrap_or("(none)");
        eprintln!(
            "; WARPDIFF_JIT_DUMP: machine code of the {what}, {} bytes at {:#x}\n{asm}",
            code.len(),
            code.addr()
        );
        if let Some(compiled) = ctx.compiled_code() {
            let map: Vec<(u32, u32, u32)> = compiled
                .buffer
                .get_srclocs_sorted()
                .iter()
                .filter(|l| !l.loc.is_default())
                .map(|l| (l.start, l.end, l.loc.bits()))
                .collect();
            dump_bytes(compiled.code_buffer(), code.addr(), &map);
        }
    }
    Ok(code)
}

/// With `WARPDIFF_JIT_DUMP` naming a directory: writes a program's
/// machine code there as `jit-ADDRESS.bin` (raw bytes, for `objdump -D
/// -b binary -m i386:x86-64 --adjust-vma=ADDRESS`, so that a profiler's
/// addresses in the code can be read) and `jit-ADDRESS.map`, a line
/// `START END PC` (hexadecimal addresses, the instruction's index) for
/// each range of the code that instruction `PC` of the program emitted
/// (the ranges no instruction owns, the dispatch and the helpers'
/// calls, are left out), so that a profile's samples add up per PTX
/// instruction.
fn dump_bytes(bytes: &[u8], addr: usize, map: &[(u32, u32, u32)]) {
    let Some(dir) = std::env::var_os("WARPDIFF_JIT_DUMP") else {
        return;
    };
    let dir = std::path::PathBuf::from(dir);
    if dir.is_dir() {
        let path = dir.join(format!("jit-{addr:x}.bin"));
        if let Err(e) = std::fs::write(&path, bytes) {
            eprintln!("; WARPDIFF_JIT_DUMP: {}: {e}", path.display());
        }
        let text: String = map
            .iter()
            .map(|&(start, end, pc)| {
                format!(
                    "{:x} {:x} {pc}\n",
                    addr + start as usize,
                    addr + end as usize
                )
            })
            .collect();
        let path = dir.join(format!("jit-{addr:x}.map"));
        if let Err(e) = std::fs::write(&path, text) {
            eprintln!("; WARPDIFF_JIT_DUMP: {}: {e}", path.display());
        }
    }
}
