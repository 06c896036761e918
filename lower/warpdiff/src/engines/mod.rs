//! The engines `warpdiff` can use: the built-in ones by name (as the
//! command line names them: [`spec`]), external ones as `cmd:PROGRAM`
//! ([`external`]), the kernel-launch engines ([`kernel`]), and the set of
//! them a command runs ([`EngineSet`]).

pub mod external;
pub mod kernel;
pub mod spec;

use crate::engines::external::{External, Options};
use crate::engines::spec::EngineSpec;
use warp_core::engine::Engine;
use warp_core::interp::InterpEngine;
use warp_gpu::engine::GpuEngine;
use warp_jit::{JitEngine, Limits};

/// The engine called `name`, tuned for programs that run once (fuzzing,
/// `diff`, `run`): the JIT compiles fast rather than for the fastest code,
/// and refuses programs over `limits` with a clear skip.
pub fn for_one_run_limited(name: &str, limits: Limits) -> Option<Box<dyn Engine>> {
    match name {
        "jit" => Some(Box::new(JitEngine {
            limits,
            ..JitEngine::fast_compile()
        })),
        other => by_name(other),
    }
}

/// [`for_one_run_limited`] with the default limits.
pub fn for_one_run(name: &str) -> Option<Box<dyn Engine>> {
    for_one_run_limited(name, Limits::default())
}

/// The built-in engine called `name`, if there is one.
pub fn by_name(name: &str) -> Option<Box<dyn Engine>> {
    match name {
        "interp" => Some(Box::new(InterpEngine)),
        "jit" => Some(Box::new(JitEngine::default())),
        "gpu" => Some(Box::new(GpuEngine)),
        _ => None,
    }
}

/// The engines a command runs: the built-in ones by name and the external
/// ones started (each once: every [`EngineSet::others`] shares its child).
#[derive(Clone, Default)]
pub struct EngineSet {
    /// Built-in engines, in the order given.
    pub builtin: Vec<&'static str>,
    /// External engines, in the order given, started and past their
    /// handshake.
    pub external: Vec<External>,
}

impl EngineSet {
    /// Starts every external engine of `specs`; the error names the one
    /// that would not start and why.
    pub fn open(specs: &[EngineSpec], opts: &Options) -> Result<EngineSet, String> {
        let mut set = EngineSet::default();
        for s in specs {
            match s {
                EngineSpec::Builtin(n) => {
                    if !set.builtin.contains(n) {
                        set.builtin.push(n);
                    }
                }
                EngineSpec::Cmd(p) => {
                    let e = External::start(p, opts.clone())
                        .map_err(|m| format!("engine `{}`: {m}", s.spelling()))?;
                    if set.names().iter().any(|n| n == e.name()) {
                        return Err(format!(
                            "engine `{}` reports the name `{}`, which another engine of the run has",
                            s.spelling(),
                            e.name()
                        ));
                    }
                    set.external.push(e);
                }
            }
        }
        Ok(set)
    }

    /// Every engine's name: the built-in ones, then the external ones (by
    /// the name they reported).
    pub fn names(&self) -> Vec<String> {
        self.builtin
            .iter()
            .map(|n| n.to_string())
            .chain(self.external.iter().map(|e| e.name().to_string()))
            .collect()
    }

    /// The engines besides the reference `interp`, for one run each (JIT
    /// limits `limits`): the built-in ones `keep` accepts, then every
    /// external one when `external` is set.
    pub fn others(
        &self,
        limits: Limits,
        keep: impl Fn(&str) -> bool,
        external: bool,
    ) -> Vec<Box<dyn Engine>> {
        let mut v: Vec<Box<dyn Engine>> = self
            .builtin
            .iter()
            .filter(|n| **n != "interp" && keep(n))
            .filter_map(|n| for_one_run_limited(n, limits))
            .collect();
        if external {
            v.extend(
                self.external
                    .iter()
                    .map(|e| Box::new(e.clone()) as Box<dyn Engine>),
            );
        }
        v
    }

    /// Comment lines for a corpus header about `engine`: the GPU's model,
    /// or an external engine's name, version and command.
    pub fn notes(&self, engine: &str) -> Vec<String> {
        if engine == "gpu" {
            return match warp_gpu::engine::gpu() {
                Ok(g) => vec![format!("GPU: {}.", g.description())],
                Err(_) => Vec::new(),
            };
        }
        self.external
            .iter()
            .filter(|e| e.name() == engine)
            .map(External::describe)
            .collect()
    }
}
