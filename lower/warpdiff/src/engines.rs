//! The engines `warpdiff` can use: the built-in ones by name, external
//! ones as `cmd:PROGRAM` ([`crate::external`]), and the set of them a
//! command runs ([`EngineSet`]).

use crate::external::{External, Options};
use warp_core::engine::Engine;
use warp_core::interp::InterpEngine;
use warp_gpu::engine::GpuEngine;
use warp_jit::{JitEngine, Limits};

/// Names of every built-in engine, the reference first.
pub const ENGINES: &[&str] = &["interp", "jit", "gpu"];

/// How an external engine is written on the command line: `cmd:PROGRAM`.
pub const CMD_PREFIX: &str = "cmd:";

/// An engine as the command line names it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum EngineSpec {
    /// A built-in engine: one of [`ENGINES`].
    Builtin(&'static str),
    /// An external engine: the program to start (`cmd:` taken off).
    Cmd(String),
}

impl EngineSpec {
    /// How the command line writes it.
    pub fn spelling(&self) -> String {
        match self {
            EngineSpec::Builtin(n) => n.to_string(),
            EngineSpec::Cmd(p) => format!("{CMD_PREFIX}{p}"),
        }
    }
}

/// One engine: `interp`, `jit`, `gpu` or `cmd:PROGRAM`.
pub fn parse_engine(s: &str) -> Result<EngineSpec, String> {
    if let Some(program) = s.strip_prefix(CMD_PREFIX) {
        crate::external::command::split(program)?;
        return Ok(EngineSpec::Cmd(program.to_string()));
    }
    ENGINES
        .iter()
        .find(|n| **n == s)
        .map(|n| EngineSpec::Builtin(n))
        .ok_or_else(|| {
            format!("`{s}` is not an engine: interp, jit, gpu or cmd:PROGRAM (an external engine)")
        })
}

/// A list of engines, separated by commas. A `cmd:` item takes the rest of
/// the list, commas included (a program's arguments may have commas); give
/// the option again for a second external engine.
pub fn parse_engine_list(s: &str) -> Result<EngineList, String> {
    let mut specs = Vec::new();
    let mut rest = s;
    while !rest.is_empty() {
        if rest.starts_with(CMD_PREFIX) {
            specs.push(parse_engine(rest)?);
            break;
        }
        let (item, tail) = rest.split_once(',').unwrap_or((rest, ""));
        specs.push(parse_engine(item)?);
        rest = tail;
    }
    if specs.is_empty() {
        return Err("no engine named".to_string());
    }
    Ok(EngineList(specs))
}

/// The engines one `--engines` gives.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EngineList(pub Vec<EngineSpec>);

/// Every `--engines` given, in order, or `default` when none was.
pub fn flatten(lists: &[EngineList], default: &[&'static str]) -> Vec<EngineSpec> {
    if lists.is_empty() {
        return default.iter().map(|n| EngineSpec::Builtin(n)).collect();
    }
    lists.iter().flat_map(|l| l.0.iter().cloned()).collect()
}

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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lists_of_engines() {
        let b = EngineSpec::Builtin;
        assert_eq!(
            parse_engine_list("interp,jit").unwrap().0,
            [b("interp"), b("jit")]
        );
        assert_eq!(
            parse_engine_list("interp,cmd:sim --modes a,b").unwrap().0,
            [b("interp"), EngineSpec::Cmd("sim --modes a,b".into())]
        );
        assert!(parse_engine_list("interp,nope")
            .unwrap_err()
            .contains("`nope` is not an engine"));
        assert!(parse_engine("cmd:")
            .unwrap_err()
            .contains("needs a program"));
        assert_eq!(flatten(&[], &["interp", "jit"]), [b("interp"), b("jit")]);
    }
}
