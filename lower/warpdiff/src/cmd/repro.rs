//! `warpdiff repro FILE -o DIR`: everything a bug report about a GPU
//! finding needs, runnable with no Rust.
//!
//! FILE is a case, or a batch file kept by `fuzz` for a finding that agrees
//! alone (`NAME.batch.txt`; docs/case-format.md): then `kernel.ptx` is the
//! batch's module, `repro.cu` launches the kernels of the cases before the
//! diverged one first, each on its own buffers (what they leave in the GPU's
//! registers is what such a finding reads: N30 of docs/findings.md), and
//! checks the diverged case alone; `batch.txt` is the batch as given and
//! `case.ptx` the diverged case.
//!
//! - `case.ptx`: the case as given (program, inputs, `.expect`, header);
//! - `kernel.ptx`: the module the GPU engine loads for it (one kernel, `k0`,
//!   one warp; the buffers as [`warp_gpu::emit`] lays them out);
//! - `repro.cu`: a CUDA driver-API program with the kernel's PTX, its input
//!   buffer and the expected output words (and which bits of each the
//!   reference defines) built in: `./repro -O N` JIT-compiles the PTX at
//!   level `N`, `./repro --link -O N` compiles it through the driver's JIT
//!   linker instead (a relocatable compile, as `ptxas -c`: what the fuzz
//!   loop's compile helpers do), `./repro --cubin F` loads a cubin built
//!   by `ptxas`, and `--dirty SEED` first fills every SM's registers with
//!   values drawn from `SEED` (a defined lane that changes with the seed
//!   read a register the program never wrote); it
//!   prints every differing defined lane (expected, observed) and exits 1
//!   if there is one;
//! - `build.sh`: builds `repro` with `nvcc`, the cubins with `ptxas -O0`,
//!   `-O3` and `-O3 -c` (relocatable), their SASS with `cuobjdump -sass`,
//!   and runs every level, whole-program and through the linker;
//! - `NOTES.md`: what the case is, the command lines, the versions, and —
//!   when `ptxas` and `cuobjdump` are on `PATH` — the SASS of both levels
//!   with the warp instructions' lines quoted; with a GPU (`--gpu-sweep`),
//!   the result at every level and the lowest failing one.

use crate::cli::ReproArgs;
use crate::fuzz::batch_file;
use crate::fuzz::levels::{sweep, AtLevel, Class};
use crate::{errln, outln};
use std::fmt::Write as _;
use std::path::Path;
use std::process::Command;
use warp_core::gen::TestCase;
use warp_core::interp::Interp;
use warp_core::ir::{Case, WARP};
use warp_gpu::emit::{
    emit_module, encode_inputs, module_target, out_words, Job, KernelInfo, Module,
};

/// SASS mnemonics of the warp instructions and of what the known compiler
/// bugs showed (guards, selects, reconvergence), quoted in `NOTES.md`.
const SASS_OF_INTEREST: &[&str] = &[
    "SHFL", "VOTE", "MATCH", "REDUX", "WARPSYNC", "BSSY", "BSYNC", "BMOV", "EXIT", "SEL ",
];

/// Runs `warpdiff repro`; returns the exit status (0 written, 2 error).
pub fn repro(a: &ReproArgs) -> u8 {
    match write_all(a) {
        Ok(()) => 0,
        Err(m) => {
            errln!("warpdiff repro: {m}");
            2
        }
    }
}

/// What `warpdiff repro` reproduces: one case, or the case that diverged in
/// a kept GPU batch (`NAME.batch.txt`) with the mates it ran after.
struct Target {
    /// Every case the module holds, in batch order (one for a case file).
    cases: Vec<TestCase>,
    /// The index in `cases` of the one whose outputs are checked.
    checked: usize,
    /// The checked case as a case file holds it (its header says where it
    /// came from).
    case: Case,
}

/// Reads `file`: a batch file when it has the batch marker
/// ([`crate::fuzz::batch_file::MARK`]) at the start of a line, else a case.
fn read_target(file: &str, src: &str) -> Result<Target, String> {
    if src.lines().any(|l| l.starts_with(batch_file::MARK)) {
        let b = batch_file::parse_batch(src, file)?;
        let mut case = b.cases[b.diverged].to_case();
        case.header = b.header.clone();
        case.header.push(format!(
            "The case that diverged (batch case {} of {}); the reproducer runs the kernels of the cases before it in the same module first.",
            b.diverged,
            b.cases.len()
        ));
        return Ok(Target {
            cases: b.cases,
            checked: b.diverged,
            case,
        });
    }
    let case = warp_core::text::parse(src).map_err(|e| e.with_file(file))?;
    Ok(Target {
        cases: vec![TestCase {
            program: case.program.clone(),
            inputs: case.inputs.clone(),
        }],
        checked: 0,
        case,
    })
}

fn write_all(a: &ReproArgs) -> Result<(), String> {
    let file = a.file.display().to_string();
    let src = std::fs::read_to_string(&a.file).map_err(|e| format!("{file}: {e}"))?;
    let t = read_target(&file, &src)?;
    let case = &t.case;
    if a.gpu_sweep && t.cases.len() > 1 {
        return Err(format!(
            "{file}: --gpu-sweep runs one case alone; a batch's levels are what its build.sh prints"
        ));
    }
    let out = Interp::new(&case.program)
        .run(&case.inputs)
        .map_err(|e| format!("{file}: the reference cannot run it: {e}"))?;
    if let Some(ub) = &out.ub {
        return Err(format!(
            "{file}: undefined behaviour, nothing to reproduce: {ub}"
        ));
    }
    let (version, target) = module_target(&case.program).map_err(|s| format!("{file}: {s}"))?;
    let jobs: Vec<Job> = t
        .cases
        .iter()
        .map(|c| Job {
            program: &c.program,
            inputs: &c.inputs,
        })
        .collect();
    let module = emit_module(&jobs, version, target).map_err(|e| format!("{file}: {e}"))?;
    let (checked_kernel, block) = module
        .kernels
        .iter()
        .enumerate()
        .find_map(|(k, info)| {
            info.jobs
                .iter()
                .position(|&j| j == t.checked)
                .map(|b| (k, b))
        })
        .ok_or_else(|| format!("{file}: the module has no kernel for case {}", t.checked))?;
    if a.output.exists() && !a.force {
        return Err(format!(
            "{} exists (--force to write into it)",
            a.output.display()
        ));
    }
    std::fs::create_dir_all(&a.output).map_err(|e| format!("{}: {e}", a.output.display()))?;
    let put = |name: &str, text: &str| {
        let p = a.output.join(name);
        std::fs::write(&p, text).map_err(|e| format!("{}: {e}", p.display()))
    };
    if t.cases.len() > 1 {
        put("batch.txt", &src)?;
        put("case.ptx", &warp_core::text::print(case))?;
    } else {
        put("case.ptx", &src)?;
    }
    put("kernel.ptx", &module.ptx)?;
    let launch = Launch {
        module: &module,
        cases: &t.cases,
        checked_kernel,
        block,
    };
    put("repro.cu", &cuda_source(case, &out, &launch))?;
    put("build.sh", BUILD_SH)?;
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        let p = a.output.join("build.sh");
        let _ = std::fs::set_permissions(&p, std::fs::Permissions::from_mode(0o755));
    }
    let sass = sass_of(&a.output);
    let levels = if a.gpu_sweep {
        Some(sweep(&t.cases[0], &out, warp_gpu::engine::config()))
    } else {
        None
    };
    put(
        "NOTES.md",
        &notes(&file, case, &sass, levels.as_ref(), launch.mates()),
    )?;
    outln!(
        "wrote {}: {}case.ptx kernel.ptx repro.cu build.sh NOTES.md{}",
        a.output.display(),
        if t.cases.len() > 1 { "batch.txt " } else { "" },
        if sass.is_ok() {
            " sass-O0.txt sass-O3.txt"
        } else {
            ""
        }
    );
    if let Some((class, _)) = &levels {
        outln!("{}", class_line(class));
    }
    Ok(())
}

fn class_line(c: &Class) -> String {
    match c {
        Class::Compiler { lowest } => {
            format!("class: compiler; agrees at -O0, lowest failing level -O{lowest}")
        }
        Class::Semantics => "class: semantics; fails at -O0 too".to_string(),
        Class::OnlyAtO0 => {
            "class: o0-only; fails at -O0, agrees at every optimising level".to_string()
        }
        Class::InBatch { differs, reruns } => {
            format!("class: compiler; needs its batch (differs in {differs} of {reruns} reruns)")
        }
        Class::AfterDirty { seed } => {
            format!("class: compiler; state-dependent (differs after dirty seed {seed:#x})")
        }
        Class::Unknown(why) => format!("class: unknown ({why})"),
    }
}

/// The kernels `repro.cu` launches: those of the module up to the checked
/// case's, in module order (the order a batch ran them), and where the
/// checked case's words are.
struct Launch<'a> {
    /// The module (`kernel.ptx`).
    module: &'a Module,
    /// The cases the module's jobs index.
    cases: &'a [TestCase],
    /// The index in `module.kernels` of the checked case's kernel.
    checked_kernel: usize,
    /// The checked case's block in that kernel.
    block: usize,
}

impl Launch<'_> {
    /// How many cases run before the checked one (its mates), and their
    /// kernels' names, for `NOTES.md`.
    fn mates(&self) -> Vec<String> {
        self.module.kernels[..self.checked_kernel]
            .iter()
            .map(|k| {
                let cases: Vec<String> = k.jobs.iter().map(|j| format!("batch case {j}")).collect();
                format!("`{}` ({})", k.name, cases.join(", "))
            })
            .collect()
    }

    /// Every input word of `kernel`: its jobs' inputs one after another.
    fn input(&self, kernel: &KernelInfo) -> Vec<u64> {
        kernel
            .jobs
            .iter()
            .flat_map(|&j| encode_inputs(&self.cases[j].program, &self.cases[j].inputs))
            .collect()
    }
}

/// A C array of `u64` words named `name` (with a trailing 0, so that it is
/// never empty).
fn c_array(name: &str, v: &[u64]) -> String {
    let mut a = format!("static const unsigned long long {name}[] = {{");
    for (i, x) in v.iter().enumerate() {
        if i % 8 == 0 {
            a.push_str("\n    ");
        }
        let _ = write!(a, "{x:#x}ull, ");
    }
    a.push_str("0};\n");
    a
}

/// `repro.cu`: the PTX, the buffers and the check, with the driver API
/// only (the primary context, so any CUDA 12/13 driver). The kernels
/// before the checked one (a batch's mates) run first, in order, each on
/// its own buffers: what they leave in the GPU's registers is what the
/// checked kernel reads where the compiled code reads a register the
/// program never wrote.
fn cuda_source(case: &Case, out: &warp_core::outcome::Outcome, l: &Launch) -> String {
    let prog = &case.program;
    let n = prog.regs.len();
    let checked = &l.module.kernels[l.checked_kernel];
    let input = l.input(checked);
    let words = out_words(prog);
    let mut expect = vec![0u64; words];
    let mut defined = vec![0u64; words];
    for r in 0..n {
        let reg = warp_core::ir::Reg(r as u32);
        let width = prog.regs[r].ty.mask();
        for lane in 0..WARP {
            let b = out.bits(reg, lane);
            expect[r * WARP + lane] = b.value & width;
            defined[r * WARP + lane] = b.defined & width;
        }
    }
    for lane in 0..WARP {
        expect[n * WARP + lane] = u64::from(out.exited >> lane & 1);
        defined[n * WARP + lane] = 1;
    }
    let mut s = String::new();
    let _ = writeln!(
        s,
        "// Reproducer written by `warpdiff repro`: runs the kernel below on one warp\n\
         // and compares every register lane the reference interpreter defines{}.\n\
         // Build: nvcc -o repro repro.cu -lcuda\n\
         // Run:   ./repro -O 0   (driver JIT at level 0..4)   or   ./repro --link -O 3   (the\n\
         //        driver's JIT linker: a relocatable compile)   or   ./repro --cubin kernel-O3.cubin;\n\
         //        add --dirty SEED to fill every register with values from SEED first\n\
         #include <cuda.h>\n#include <stdio.h>\n#include <stdlib.h>\n#include <string.h>\n",
        if l.checked_kernel > 0 {
            format!(
                ",\n// after the {} kernel(s) that ran before it in its GPU batch (its mates)",
                l.checked_kernel
            )
        } else {
            String::new()
        }
    );
    let _ = writeln!(s, "static const char PTX[] =");
    for line in l.module.ptx.lines() {
        let _ = writeln!(
            s,
            "    \"{}\\n\"",
            line.replace('\\', "\\\\").replace('"', "\\\"")
        );
    }
    let _ = writeln!(
        s,
        "    ;\nstatic const char KERNEL[] = \"{}\";",
        checked.name
    );
    let _ = writeln!(
        s,
        "#define REGS {n}\n#define IN_WORDS {}\n#define OUT_WORDS {words}\n#define GRID {}\n#define BLOCK {}",
        input.len(),
        checked.jobs.len(),
        l.block
    );
    s.push_str(&c_array("IN", &input));
    s.push_str(&c_array("EXPECT", &expect));
    s.push_str(&c_array("DEFINED", &defined));
    let names: Vec<String> = prog
        .regs
        .iter()
        .map(|d| format!("\"{}\"", d.name))
        .chain(std::iter::once("\"(lane status: 1 = exited)\"".to_string()))
        .collect();
    let _ = writeln!(s, "static const char *NAMES[] = {{{}}};", names.join(", "));
    let mates = &l.module.kernels[..l.checked_kernel];
    let _ = writeln!(
        s,
        "/* The mates: the kernels run before KERNEL, in order. */"
    );
    let _ = writeln!(s, "#define MATES {}", mates.len());
    for (i, k) in mates.iter().enumerate() {
        s.push_str(&c_array(&format!("MATE_IN{i}"), &l.input(k)));
    }
    let list = |f: &dyn Fn(usize, &KernelInfo) -> String| -> String {
        let items: Vec<String> = mates.iter().enumerate().map(|(i, k)| f(i, k)).collect();
        if items.is_empty() {
            "0".to_string()
        } else {
            items.join(", ")
        }
    };
    let _ = writeln!(
        s,
        "static const char *MATE_NAME[] = {{{}}};",
        list(&|_, k| format!("\"{}\"", k.name))
    );
    let _ = writeln!(
        s,
        "static const unsigned long long *MATE_IN[] = {{{}}};",
        list(&|i, _| format!("MATE_IN{i}"))
    );
    let _ = writeln!(
        s,
        "static const size_t MATE_IN_WORDS[] = {{{}}};",
        list(&|_, k| (k.in_words * k.jobs.len()).to_string())
    );
    let _ = writeln!(
        s,
        "static const size_t MATE_OUT_WORDS[] = {{{}}};",
        list(&|_, k| (k.out_words * k.jobs.len()).to_string())
    );
    let _ = writeln!(
        s,
        "static const unsigned MATE_GRID[] = {{{}}};",
        list(&|_, k| k.jobs.len().to_string())
    );
    s.push_str(CUDA_MAIN);
    s
}

const CUDA_MAIN: &str = r#"
#ifdef __CUDACC__
/* `--dirty SEED`: before the kernel, every SM's registers are filled with
   values drawn from SEED by this kernel (1024 threads a block, 56 values
   live at once in each, two blocks per SM), so that what a never-written
   register holds in the kernel differs from run to run as SEED does. A
   defined lane that changes with SEED read such a register. */
__global__ void __launch_bounds__(1024, 1) warpdiff_dirty(unsigned seed, unsigned *sink) {
    unsigned r[56];
#pragma unroll
    for (int i = 0; i < 56; i++) r[i] = seed * (2u * i + 1u) + threadIdx.x * 0x9e3779b9u + blockIdx.x;
#pragma unroll
    for (int k = 0; k < 3; k++) {
#pragma unroll
        for (int i = 0; i < 56; i++) r[i] = (r[i] * 0x01000193u) ^ r[(i + 1) % 56];
    }
    unsigned acc = 0;
#pragma unroll
    for (int i = 0; i < 56; i++) acc ^= (r[i] & 1u) ? r[i] : ~r[i];
    if (acc == seed) sink[blockIdx.x] = acc;
}
#endif

#define CHECK(x) do { CUresult r_ = (x); if (r_ != CUDA_SUCCESS) { const char *m_ = 0; \
    cuGetErrorString(r_, &m_); fprintf(stderr, "%s: %s\n", #x, m_ ? m_ : "?"); return 2; } } while (0)

int main(int argc, char **argv) {
    int level = -1, link = 0;
    long dirty = -1;
    const char *cubin = 0;
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "-O") && i + 1 < argc) level = atoi(argv[++i]);
        else if (!strcmp(argv[i], "--cubin") && i + 1 < argc) cubin = argv[++i];
        else if (!strcmp(argv[i], "--link")) link = 1;
        else if (!strcmp(argv[i], "--dirty") && i + 1 < argc) dirty = strtol(argv[++i], 0, 0);
        else { fprintf(stderr, "usage: %s [--link] [-O LEVEL] [--dirty SEED] | --cubin FILE\n", argv[0]); return 2; }
    }
    CUdevice dev; CUcontext ctx; CUmodule mod; CUfunction f;
    CHECK(cuInit(0));
    CHECK(cuDeviceGet(&dev, 0));
    CHECK(cuDevicePrimaryCtxRetain(&ctx, dev));
    CHECK(cuCtxSetCurrent(ctx));
    if (cubin) {
        CHECK(cuModuleLoad(&mod, cubin));
        printf("%s: ", cubin);
    } else if (link) {
        /* The driver's JIT linker: a relocatable compile of the PTX (as
           `ptxas -c`), then a link; not the whole-program compile of
           cuModuleLoadDataEx. Each step is announced first, so that a
           compiler that crashes is seen in one of them. */
        CUjit_option o[] = {CU_JIT_OPTIMIZATION_LEVEL};
        void *v[] = {(void *)(size_t)(level >= 0 ? level : 4)};
        CUlinkState st; void *image; size_t size;
        printf("driver JIT linker -O%d: ", level >= 0 ? level : 4);
        printf("cuLinkAddData... "); fflush(stdout);
        CHECK(cuLinkCreate(level >= 0 ? 1 : 0, o, v, &st));
        CHECK(cuLinkAddData(st, CU_JIT_INPUT_PTX, (void *)PTX, strlen(PTX) + 1, "kernel.ptx", 0, 0, 0));
        printf("cuLinkComplete... "); fflush(stdout);
        CHECK(cuLinkComplete(st, &image, &size));
        CHECK(cuModuleLoadData(&mod, image));
        CHECK(cuLinkDestroy(st));
    } else if (level >= 0) {
        CUjit_option o[] = {CU_JIT_OPTIMIZATION_LEVEL};
        void *v[] = {(void *)(size_t)level};
        CHECK(cuModuleLoadDataEx(&mod, PTX, 1, o, v));
        printf("driver JIT -O%d: ", level);
    } else {
        CHECK(cuModuleLoadData(&mod, PTX));
        printf("driver JIT, default level: ");
    }
    CHECK(cuModuleGetFunction(&f, mod, KERNEL));
    CUdeviceptr din, dout;
    CHECK(cuMemAlloc(&din, IN_WORDS * 8 + 8));
    CHECK(cuMemAlloc(&dout, GRID * OUT_WORDS * 8));
    CHECK(cuMemcpyHtoD(din, IN, IN_WORDS * 8));
    CHECK(cuMemsetD8(dout, 0, GRID * OUT_WORDS * 8));
#ifdef __CUDACC__
    if (dirty >= 0) {
        int sms = 0;
        CUdeviceptr sink;
        CHECK(cuDeviceGetAttribute(&sms, CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT, dev));
        CHECK(cuMemAlloc(&sink, 8 * 2 * (size_t)sms));
        warpdiff_dirty<<<2 * sms, 1024>>>((unsigned)dirty, (unsigned *)sink);
        CHECK(cuCtxSynchronize());
        printf("(registers dirtied with seed %ld) ", dirty);
    }
#endif
    /* The mates, each on buffers of its own, in the order the batch ran
       them: only what they leave on the GPU matters. */
    for (int m = 0; m < MATES; m++) {
        CUfunction g;
        CUdeviceptr min, mout;
        CHECK(cuModuleGetFunction(&g, mod, MATE_NAME[m]));
        CHECK(cuMemAlloc(&min, MATE_IN_WORDS[m] * 8 + 8));
        CHECK(cuMemAlloc(&mout, MATE_OUT_WORDS[m] * 8 + 8));
        CHECK(cuMemcpyHtoD(min, MATE_IN[m], MATE_IN_WORDS[m] * 8));
        void *margs[] = {&min, &mout};
        CHECK(cuLaunchKernel(g, MATE_GRID[m], 1, 1, 32, 1, 1, 0, 0, margs, 0));
    }
    if (MATES) {
        CHECK(cuCtxSynchronize());
        printf("(after %d mate kernel(s)) ", MATES);
    }
    void *args[] = {&din, &dout};
    CHECK(cuLaunchKernel(f, GRID, 1, 1, 32, 1, 1, 0, 0, args, 0));
    CHECK(cuCtxSynchronize());
    static unsigned long long got[OUT_WORDS];
    CHECK(cuMemcpyDtoH(got, dout + (CUdeviceptr)BLOCK * OUT_WORDS * 8, OUT_WORDS * 8));
    int bad = 0;
    for (int w = 0; w < OUT_WORDS; w++) {
        if ((got[w] ^ EXPECT[w]) & DEFINED[w]) {
            if (!bad) printf("DIFFERS\n");
            bad++;
            printf("  %s lane %d: expected %#llx (defined bits %#llx), observed %#llx\n",
                   NAMES[w / 32], w % 32, EXPECT[w], DEFINED[w], got[w] & (DEFINED[w] | EXPECT[w] | 0xffffffffull));
        }
    }
    if (!bad) printf("agrees on every defined lane\n");
    return bad ? 1 : 0;
}
"#;

const BUILD_SH: &str = r#"#!/bin/sh
# Builds the reproducer and runs it at every level. Needs nvcc, ptxas,
# cuobjdump and a GPU.
set -e
cd "$(dirname "$0")"
arch=$(sed -n 's/^\.target \(sm_[0-9a-z]*\).*/\1/p' kernel.ptx | head -1)
[ "$arch" = sm_70 ] && arch=sm_90
nvcc -o repro repro.cu -lcuda
ptxas -arch="$arch" -O0 kernel.ptx -o kernel-O0.cubin
ptxas -arch="$arch" -O3 kernel.ptx -o kernel-O3.cubin
cuobjdump -sass kernel-O0.cubin > sass-O0.txt
cuobjdump -sass kernel-O3.cubin > sass-O3.txt
# The relocatable compile (what the driver's JIT linker does: --link).
ptxas -arch="$arch" -O3 -c kernel.ptx -o kernel-O3-c.cubin
cuobjdump -sass kernel-O3-c.cubin > sass-O3-c.txt
ptxas --version | tail -1
set +e
# Each run is bounded: a kernel that never finishes (a hang) is killed
# after 20 s and reported as such, and the next level runs.
run() {
    timeout 20 ./repro "$@"
    rc=$?
    [ $rc -eq 124 ] && echo "repro $*: hang (killed after 20 s)"
    [ $rc -gt 128 ] && [ $rc -ne 137 ] && echo "repro $*: died of signal $((rc - 128))"
    return 0
}
for o in 0 1 2 3 4; do run -O $o; done
for o in 0 1 2 3 4; do run --link -O $o; done
run --cubin kernel-O0.cubin
run --cubin kernel-O3.cubin
"#;

/// SASS of the kernel at -O0 and -O3 (written as `sass-O*.txt`), when
/// `ptxas` and `cuobjdump` can be run; else why not.
fn sass_of(dir: &Path) -> Result<[String; 2], String> {
    let kernel = dir.join("kernel.ptx");
    let text = std::fs::read_to_string(&kernel).map_err(|e| e.to_string())?;
    let arch = text
        .lines()
        .find_map(|l| l.strip_prefix(".target "))
        .map(|t| t.trim().trim_end_matches(';').to_string())
        .filter(|t| t != "sm_70")
        .unwrap_or_else(|| "sm_90".to_string());
    let mut out = [String::new(), String::new()];
    for (i, o) in ["O0", "O3"].iter().enumerate() {
        let cubin = dir.join(format!("kernel-{o}.cubin"));
        let st = Command::new("ptxas")
            .arg(format!("-arch={arch}"))
            .arg(format!("-{o}"))
            .arg(&kernel)
            .arg("-o")
            .arg(&cubin)
            .output()
            .map_err(|e| format!("ptxas: {e}"))?;
        if !st.status.success() {
            return Err(format!(
                "ptxas -{o}: {}",
                String::from_utf8_lossy(&st.stderr)
            ));
        }
        let sass = Command::new("cuobjdump")
            .arg("-sass")
            .arg(&cubin)
            .output()
            .map_err(|e| format!("cuobjdump: {e}"))?;
        out[i] = String::from_utf8_lossy(&sass.stdout).into_owned();
        let _ = std::fs::write(dir.join(format!("sass-{o}.txt")), &out[i]);
    }
    Ok(out)
}

/// The lines of `sass` with the mnemonics worth quoting.
fn quoted(sass: &str) -> Vec<&str> {
    sass.lines()
        .filter(|l| SASS_OF_INTEREST.iter().any(|m| l.contains(m)))
        .map(str::trim)
        .collect()
}

fn version_of(tool: &str) -> String {
    Command::new(tool)
        .arg("--version")
        .output()
        .ok()
        .and_then(|o| {
            String::from_utf8_lossy(&o.stdout)
                .lines()
                .last()
                .map(str::to_string)
        })
        .unwrap_or_else(|| format!("({tool} not found here)"))
}

fn notes(
    file: &str,
    case: &Case,
    sass: &Result<[String; 2], String>,
    levels: Option<&(Class, Vec<(u32, AtLevel)>)>,
    mates: Vec<String>,
) -> String {
    let mut s = String::new();
    let _ = writeln!(s, "# Reproducer for `{file}`\n");
    if !mates.is_empty() {
        let _ = writeln!(
            s,
            "The case diverged only in its GPU batch: `repro.cu` runs the kernels of the {} case(s) \
             that ran before it in its module first, each on its own buffers, then the case's \
             kernel, and compares only the case's words (`batch.txt` is the batch as kept; \
             `kernel.ptx` is the whole module). The mates, in launch order: {}.\n",
            mates.len(),
            mates.join(", ")
        );
    }
    if !case.header.is_empty() {
        let _ = writeln!(s, "## What the case says\n");
        for h in &case.header {
            let _ = writeln!(s, "> {h}");
        }
        s.push('\n');
    }
    let _ = writeln!(
        s,
        "## The program (`case.ptx`)\n\n```\n{}```\n",
        warp_core::text::print_program(&case.program)
    );
    let _ = writeln!(
        s,
        "## Running it\n\n```sh\n./build.sh          # nvcc, ptxas -O0/-O3, cuobjdump -sass, every level\n\
         ./repro -O 0        # driver JIT at -O0; exit 1 and the differing lanes if it diverges\n\
         ./repro --cubin kernel-O3.cubin\n```\n\n\
         `repro.cu` holds the kernel's PTX (`kernel.ptx`), the input buffer and the\n\
         reference interpreter's expected output words with the bits it defines;\n\
         only those bits are compared.\n"
    );
    let _ = writeln!(s, "## Versions\n");
    let _ = writeln!(s, "- warpdiff {}", env!("CARGO_PKG_VERSION"));
    let _ = writeln!(s, "- ptxas: {}", version_of("ptxas"));
    let gpu = match levels {
        Some(_) => match warp_gpu::engine::gpu() {
            Ok(g) => g.description(),
            Err(e) => e.to_string(),
        },
        None => "not queried (no --gpu-sweep)".to_string(),
    };
    let _ = writeln!(s, "- GPU and driver: {gpu}\n");
    match levels {
        Some((class, results)) => {
            let _ = writeln!(s, "## Levels (driver JIT, this machine)\n");
            for (o, r) in results {
                let _ = writeln!(
                    s,
                    "- -O{o}: {}",
                    match r {
                        AtLevel::Agrees => "agrees".to_string(),
                        AtLevel::Differs => "differs".to_string(),
                        AtLevel::Fails(w) => format!("fails: {w}"),
                        AtLevel::Unknown(w) => format!("unknown: {w}"),
                    }
                );
            }
            let _ = writeln!(s, "\n{}\n", class_line(class));
        }
        None => {
            let _ = writeln!(
                s,
                "## Levels\n\nNot run here (`warpdiff repro --gpu-sweep` on a GPU, or `./build.sh`).\n"
            );
        }
    }
    match sass {
        Ok([o0, o3]) => {
            for (name, text) in [("-O0", o0), ("-O3", o3)] {
                let q = quoted(text);
                let _ = writeln!(
                    s,
                    "## SASS at {name} (`sass-{}.txt`): the warp and reconvergence lines\n\n```",
                    name.trim_start_matches('-')
                );
                for l in &q {
                    let _ = writeln!(s, "{l}");
                }
                let _ = writeln!(s, "```\n");
            }
        }
        Err(why) => {
            let _ = writeln!(s, "## SASS\n\nNot produced here ({why}); `./build.sh` writes `sass-O0.txt` and `sass-O3.txt`.\n");
        }
    }
    s
}
