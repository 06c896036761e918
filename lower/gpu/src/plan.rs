//! A batch of jobs as modules: grouped by the `.version`/`.target` each
//! program needs ([`module_target`]), cut into chunks so that several
//! modules compile at once (each chunk one module, one input and one output
//! buffer, one launch per distinct program), and the chunks' output words
//! read back as outcomes. Every GPU of warpdiff (in this process:
//! [`crate::run`]; in a runner process: [`crate::remote`]) runs batches
//! through it.

use super::device::{GpuError, Timing};
use super::emit::{emit_module_with, encode_inputs, module_target, Job, Module};
use super::wire::{Image, KernelRun, ModuleRun};
use std::collections::BTreeMap;
use std::time::{Duration, Instant};
use warp_core::engine::Skip;
use warp_core::ir::{Program, Target, Version};
use warp_core::outcome::Outcome;

/// A chunk gets at least this many jobs before the batch is cut into more
/// modules (a module per handful of jobs would cost more in launches and
/// copies than parallel compiling saves).
pub const MIN_JOBS_PER_MODULE: usize = 32;

/// The jobs of one module, before emission.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Chunk {
    /// The `.version` and `.target` of its module.
    pub version: Version,
    /// See `version`.
    pub target: Target,
    /// Indices into the batch.
    pub jobs: Vec<usize>,
}

/// A batch cut into chunks of at most `max_modules` per module target, and
/// the jobs the GPU must skip (with why).
pub fn chunks(jobs: &[Job], max_modules: usize) -> (Vec<Chunk>, Vec<(usize, Skip)>) {
    let mut groups: BTreeMap<String, (Version, Target, Vec<usize>)> = BTreeMap::new();
    let mut skipped = Vec::new();
    for (i, j) in jobs.iter().enumerate() {
        match module_target(j.program) {
            Ok((v, t)) => groups
                .entry(format!("{v} {t}"))
                .or_insert((v, t, Vec::new()))
                .2
                .push(i),
            Err(s) => skipped.push((i, s)),
        }
    }
    let mut out = Vec::new();
    for (_, (version, target, idx)) in groups {
        let n = max_modules
            .max(1)
            .min(idx.len().div_ceil(MIN_JOBS_PER_MODULE))
            .max(1);
        let per = idx.len().div_ceil(n);
        for c in idx.chunks(per) {
            out.push(Chunk {
                version,
                target,
                jobs: c.to_vec(),
            });
        }
    }
    (out, skipped)
}

/// A chunk emitted: its module and what running it takes, short of the
/// compiled image.
#[derive(Clone, Debug)]
pub struct Emitted {
    /// The chunk's jobs (indices into the batch).
    pub jobs: Vec<usize>,
    /// The PTX module.
    pub module: Module,
    /// Its launches.
    pub kernels: Vec<KernelRun>,
    /// Its input buffer.
    pub input: Vec<u64>,
    /// Its output buffer's size in words.
    pub out_words: u64,
    /// How long emitting took.
    pub emit_time: Duration,
}

impl Emitted {
    /// What to send to a GPU, with `image` as its code.
    pub fn run(&self, image: Image) -> ModuleRun {
        ModuleRun {
            image,
            kernels: self.kernels.clone(),
            input: self.input.clone(),
            out_words: self.out_words,
        }
    }

    /// Each job of the chunk as a `.ptx` case text, kernel by kernel and
    /// block by block: the simulated GPU's image.
    pub fn sim_image(&self, jobs: &[Job]) -> Image {
        let sub: Vec<Job> = self.jobs.iter().map(|&i| jobs[i]).collect();
        Image::Sim(
            self.module
                .kernels
                .iter()
                .flat_map(|k| k.jobs.iter())
                .map(|&j| {
                    warp_core::text::print(&warp_core::ir::Case {
                        header: Vec::new(),
                        program: sub[j].program.clone(),
                        inputs: sub[j].inputs.clone(),
                        expect: Default::default(),
                    })
                })
                .collect(),
        )
    }

    /// The chunk's results from its output words: per job (index into the
    /// batch), its outcome.
    pub fn decode(&self, jobs: &[Job], words: &[u64]) -> Vec<(usize, Outcome)> {
        let mut out = Vec::with_capacity(self.jobs.len());
        for (k, run) in self.module.kernels.iter().zip(&self.kernels) {
            for (n, &j) in k.jobs.iter().enumerate() {
                let at = run.out_off as usize + n * k.out_words;
                let batch_index = self.jobs[j];
                let w = &words[at..at + k.out_words];
                out.push((
                    batch_index,
                    super::emit::decode_outputs(jobs[batch_index].program, w),
                ));
            }
        }
        out
    }
}

/// Emits `chunk`'s module (schedule perturbed with `perturb` when given).
pub fn emit(jobs: &[Job], chunk: &Chunk, perturb: Option<u32>) -> Result<Emitted, String> {
    let t0 = Instant::now();
    let sub: Vec<Job> = chunk.jobs.iter().map(|&i| jobs[i]).collect();
    let module = emit_module_with(&sub, chunk.version, chunk.target, perturb)
        .map_err(|e| format!("emit: {e}"))?;
    let mut input = Vec::new();
    let mut kernels = Vec::with_capacity(module.kernels.len());
    let mut out_words = 0u64;
    for k in &module.kernels {
        kernels.push(KernelRun {
            name: k.name.clone(),
            warps: k.jobs.len() as u32,
            in_off: input.len() as u64,
            out_off: out_words,
            out_words: k.out_words as u64,
        });
        for &j in &k.jobs {
            let words = encode_inputs(sub[j].program, sub[j].inputs);
            debug_assert_eq!(words.len(), k.in_words);
            input.extend(words);
        }
        out_words += (k.jobs.len() * k.out_words) as u64;
    }
    if input.is_empty() {
        input.push(0);
    }
    Ok(Emitted {
        jobs: chunk.jobs.clone(),
        module,
        kernels,
        input,
        out_words: out_words.max(1),
        emit_time: t0.elapsed(),
    })
}

/// The first instructions of a program, for error messages.
pub fn first_lines(p: &Program) -> String {
    let text: Vec<String> = p
        .insts
        .iter()
        .take(3)
        .map(|i| format!("line {}: `{}`", i.line, warp_core::text::inst_text(p, i)))
        .collect();
    if text.is_empty() {
        "an empty program".into()
    } else {
        text.join("; ")
    }
}

/// A batch on its way to a GPU: every chunk emitted and compiled (in
/// parallel), the modules to run, and the results known so far (skips,
/// compile failures).
pub struct Prepared<'b, 'j> {
    jobs: &'b [Job<'j>],
    out: Vec<Option<Result<Outcome, GpuError>>>,
    ready: Vec<Emitted>,
    /// The modules to run, one per chunk that compiled, in order.
    pub modules: Vec<ModuleRun>,
}

/// Cuts `jobs` into at most `max_modules` chunks per module target and
/// prepares each in a thread of its own with `compile` (emit, then compile
/// or not as the GPU wants), adding emission figures to `timing`.
pub fn prepare<'b, 'j>(
    jobs: &'b [Job<'j>],
    max_modules: usize,
    timing: &mut Timing,
    compile: impl Fn(&Chunk) -> Result<(Emitted, Image), String> + Sync,
) -> Prepared<'b, 'j> {
    let mut out: Vec<Option<Result<Outcome, GpuError>>> = vec![None; jobs.len()];
    let (chunks, skipped) = chunks(jobs, max_modules);
    for (i, s) in skipped {
        out[i] = Some(Err(GpuError::Skip(s)));
    }
    let compile = &compile;
    let prepared: Vec<Result<(Emitted, Image), String>> = std::thread::scope(|sc| {
        let handles: Vec<_> = chunks
            .iter()
            .map(|c| sc.spawn(move || compile(c)))
            .collect();
        handles
            .into_iter()
            .map(|h| {
                h.join()
                    .unwrap_or_else(|_| Err("a compile thread panicked".into()))
            })
            .collect()
    });
    let mut ready = Vec::new();
    let mut modules = Vec::new();
    for (c, p) in chunks.iter().zip(prepared) {
        match p {
            Ok((e, image)) => {
                timing.emit += e.emit_time;
                timing.modules += 1;
                timing.kernels += e.module.kernels.len();
                timing.ptx_bytes += e.module.ptx.len();
                modules.push(e.run(image));
                ready.push(e);
            }
            Err(m) => {
                for &i in &c.jobs {
                    out[i] = Some(Err(GpuError::Driver(m.clone())));
                }
            }
        }
    }
    Prepared {
        jobs,
        out,
        ready,
        modules,
    }
}

impl Prepared<'_, '_> {
    /// Takes the modules' results (per module, its output words or why it
    /// did not run), in the order of [`Prepared::modules`].
    pub fn deliver(&mut self, results: Vec<Result<Vec<u64>, String>>) {
        for (e, r) in self.ready.iter().zip(results) {
            let failed = match r {
                Ok(words) if words.len() as u64 >= e.out_words => {
                    for (i, o) in e.decode(self.jobs, &words) {
                        self.out[i] = Some(Ok(o));
                    }
                    continue;
                }
                Ok(words) => format!(
                    "the GPU returned {} output words, the module has {}",
                    words.len(),
                    e.out_words
                ),
                Err(m) => m,
            };
            let m = format!(
                "{failed} (a module of {} program(s), first: {})",
                e.module.kernels.len(),
                first_lines(self.jobs[e.jobs[0]].program)
            );
            for &i in &e.jobs {
                self.out[i] = Some(Err(GpuError::Driver(m.clone())));
            }
        }
    }

    /// Every job of the modules sent ends with `e` (a hang, a fault).
    pub fn fail(&mut self, e: &GpuError) {
        for r in &self.ready {
            for &i in &r.jobs {
                self.out[i] = Some(Err(e.clone()));
            }
        }
    }

    /// One result per job, in order.
    pub fn results(self) -> Vec<Result<Outcome, GpuError>> {
        self.out
            .into_iter()
            .map(|o| o.unwrap_or(Err(GpuError::Dead)))
            .collect()
    }
}
