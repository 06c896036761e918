//! Engines as the command line names them: the built-in ones
//! ([`ENGINES`]) and external ones as `cmd:PROGRAM`, one by one
//! ([`parse_engine`]) or in `--engines` lists ([`parse_engine_list`],
//! [`flatten`]).

use crate::engines::external::command;

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
        command::split(program)?;
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
