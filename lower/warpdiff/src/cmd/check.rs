//! `warpdiff check kernel.ptx --launch kernel.launch` (or `--kernel NAME
//! --grid X --block X --buffer ... --param ...`, as `run` takes them):
//! runs the launch on the reference interpreter and reports every
//! undefined value that escapes, with its origin chain, and every race
//! between the lanes of one warp ([`warp_core::sanitize`], issue #38).
//! docs/check.md shows the output.
//!
//! Exit status: 0 nothing reported, 1 reports, 2 bad input, 3 undefined
//! behaviour (as `warpdiff run`; the highest applies).

use crate::cli::CheckArgs;
use crate::cmd::run_kernel::{launch_of, read_module};
use crate::{errln, outln};
use serde::Serialize;
use warp_core::sanitize::{check_launch, Checked, Finding, Options, Report, Site};

/// Checks the kernel launch and returns the exit status.
pub fn check(o: &CheckArgs) -> u8 {
    match check_inner(o) {
        Ok(code) => code,
        Err(m) => {
            if o.json {
                outln!("{}", serde_json::json!({ "error": m, "exit": 2 }));
            }
            errln!("warpdiff check: {m}");
            2
        }
    }
}

/// The line and column of a site: the column of the line's first
/// character that is not a space (where the instruction starts).
fn place(src: &str, line: u32) -> (u32, u32) {
    let col = src
        .lines()
        .nth(line.saturating_sub(1) as usize)
        .and_then(|t| t.find(|c: char| !c.is_whitespace()))
        .map_or(1, |c| c as u32 + 1);
    (line, col)
}

#[derive(Serialize)]
struct JsonSite {
    line: u32,
    col: u32,
    text: String,
}

#[derive(Serialize)]
struct JsonOrigin {
    kind: &'static str,
    why: String,
    line: u32,
    col: u32,
    text: String,
    count: u64,
}

#[derive(Serialize)]
struct JsonRace {
    first_lane: u32,
    first_write: bool,
    second: JsonSite,
    second_lane: u32,
    second_write: bool,
}

#[derive(Serialize)]
struct JsonReport {
    kind: &'static str,
    instruction: JsonSite,
    cta: [u32; 3],
    warp: u32,
    lanes: u32,
    what: String,
    count: u64,
    origin: Option<JsonOrigin>,
    carried: Vec<JsonSite>,
    race: Option<JsonRace>,
    spec_only: bool,
}

#[derive(Serialize)]
struct JsonUb {
    rule: String,
    line: u32,
    at: String,
    message: String,
}

#[derive(Serialize)]
struct JsonCheck<'a> {
    file: &'a str,
    kernel: &'a str,
    convergence: &'static str,
    steps: u64,
    reports: Vec<JsonReport>,
    ub: Option<JsonUb>,
    exit: u8,
}

fn check_inner(o: &CheckArgs) -> Result<u8, String> {
    let [file] = o.files.as_slice() else {
        return Err("check takes one PTX module file".into());
    };
    let name = file.display().to_string();
    let (src, module) = read_module(file)?;
    let launch = launch_of(&o.kernel)?;
    let opts = Options {
        model: o.convergence,
        races: !o.no_races,
    };
    let c = check_launch(&module, &launch, opts).map_err(|e| format!("{name}: {e}"))?;
    let code = if c.outcome.ub.is_some() {
        3
    } else if c.reports.is_empty() {
        0
    } else {
        1
    };
    let js = |s: &Site| {
        let (line, col) = place(&src, s.line);
        JsonSite {
            line,
            col,
            text: s.text.clone(),
        }
    };
    if o.json {
        let reports = c
            .reports
            .iter()
            .map(|r| {
                let (origin, carried, race) = match &r.finding {
                    Finding::Escape {
                        origin, carried, ..
                    } => (
                        origin.as_ref().map(|g| {
                            let (line, col) = place(&src, g.at.line);
                            JsonOrigin {
                                kind: g.cause.kind(),
                                why: g.cause.describe(),
                                line,
                                col,
                                text: g.at.text.clone(),
                                count: g.count,
                            }
                        }),
                        carried.iter().map(js).collect(),
                        None,
                    ),
                    Finding::WarpRace {
                        first_lane,
                        first_write,
                        second,
                        second_lane,
                        second_write,
                    } => (
                        None,
                        Vec::new(),
                        Some(JsonRace {
                            first_lane: *first_lane,
                            first_write: *first_write,
                            second: js(second),
                            second_lane: *second_lane,
                            second_write: *second_write,
                        }),
                    ),
                };
                JsonReport {
                    kind: r.kind(),
                    instruction: js(&r.at),
                    cta: r.ctaid,
                    warp: r.warp,
                    lanes: r.lanes,
                    what: r.what.clone(),
                    count: r.count,
                    origin,
                    carried,
                    race,
                    spec_only: r.spec_only,
                }
            })
            .collect();
        let out = JsonCheck {
            file: &name,
            kernel: &c.kernel,
            convergence: c.model.name(),
            steps: c.outcome.steps,
            reports,
            ub: c.outcome.ub.as_ref().map(|(at, ub)| JsonUb {
                rule: ub.rule.to_string(),
                line: ub.line,
                at: at.clone(),
                message: ub.message.clone(),
            }),
            exit: code,
        };
        outln!(
            "{}",
            serde_json::to_string(&out).map_err(|e| format!("json: {e}"))?
        );
        return Ok(code);
    }
    print_text(&name, &src, &launch, &c);
    Ok(code)
}

fn print_text(name: &str, src: &str, launch: &warp_core::launch::Launch, c: &Checked) {
    outln!(
        "== {name} kernel {} grid {:?} block {:?} (check, convergence {}, {} warp steps) ==",
        c.kernel,
        launch.grid,
        launch.block,
        c.model.name(),
        c.outcome.steps
    );
    let at = |s: &Site| {
        let (line, col) = place(src, s.line);
        format!("{name}:{line}:{col}: `{}`", s.text)
    };
    for r in &c.reports {
        print_report(r, &at);
    }
    let escapes = c
        .reports
        .iter()
        .filter(|r| matches!(r.finding, Finding::Escape { .. }))
        .count();
    let races = c.reports.len() - escapes;
    if let Some((at, ub)) = &c.outcome.ub {
        outln!("{name}:{}: {at}: {ub}", ub.line);
    } else {
        for b in &c.outcome.buffers {
            outln!("{}", b.line());
        }
    }
    outln!(
        "{name}: {} report(s): {escapes} escape(s), {races} warp-race(s){}",
        c.reports.len(),
        if c.outcome.ub.is_some() {
            "; the run ended in undefined behaviour"
        } else {
            ""
        }
    );
}

fn print_report(r: &Report, at: &dyn Fn(&Site) -> String) {
    let times = if r.count == 1 {
        "once".to_string()
    } else {
        format!("{} times", r.count)
    };
    outln!(
        "{}: {}: cta ({},{},{}) warp {} lanes {:#010x} ({times})",
        at(&r.at),
        r.kind(),
        r.ctaid[0],
        r.ctaid[1],
        r.ctaid[2],
        r.warp,
        r.lanes
    );
    outln!("    {}", r.what);
    if r.spec_only {
        outln!("    (spec model only: with --convergence observed, what every H200 run showed, this is defined)");
    }
    match &r.finding {
        Finding::Escape {
            origin, carried, ..
        } => {
            match origin {
                Some(g) => outln!(
                    "  origin [{}]: {}: {} ({} lane-execution(s))",
                    g.cause.kind(),
                    at(&g.at),
                    g.cause.describe(),
                    g.count
                ),
                None => outln!("  origin: not found"),
            }
            for s in carried {
                outln!("    carried by {}", at(s));
            }
        }
        Finding::WarpRace { second, .. } => {
            outln!("  and {}", at(second));
        }
    }
}
