//! `warpdiff check`: a sanitizer for kernel launches (issue #38). It runs
//! the reference interpreter on a launch and reports every place where an
//! undefined value **escapes** — stored to global memory (a launch buffer
//! or a `.global` variable), used as an address, as a guard that decides a
//! branch, a collective, a store or a barrier, or as a `membermask` bit —
//! with its **origin chain**: the instruction where the value became
//! undefined and why ([`Cause`]), then each instruction that carried it,
//! as valgrind memcheck's `--track-origins` does. It also reports
//! **`warp-race`**: accesses of different lanes of one warp to the same
//! bytes, at least one a write, with no synchronising point of the warp
//! between them.
//!
//! The interpreter decides what is defined (docs/semantics.md); the
//! checker only follows where it came from, through an observer of the
//! run (`interp/watch.rs`) that a run without `check` does not have.
//!
//! Files: this one runs a check; `report.rs` (what a check reports),
//! `origin.rs` (causes, origins, chains), `shadow.rs` (the shadow of
//! registers and memory, and the escapes), `race.rs` (`warp-race`).

mod origin;
mod race;
mod report;
mod shadow;

pub use origin::Cause;
pub use report::{Checked, Escape, Finding, Model, Options, Origin, Report, Site};

use crate::interp::warp::Watch;
use crate::interp::{run_launch_watched, Watching};
use crate::ir::{Module, Program};
use crate::launch::{Launch, LaunchError, LaunchOutcome};
use crate::text::inst_text;
use shadow::Tracker;

fn site(prog: &Program, pc: usize) -> Site {
    let inst = &prog.insts[pc];
    Site {
        pc,
        line: inst.line,
        text: inst_text(prog, inst),
    }
}

/// Runs `launch` of `module` on the reference interpreter, watched, and
/// reports every escape of an undefined value and every `warp-race`. In
/// the spec model the launch runs again in the observed one (without
/// races), and the reports it does not have are marked
/// [`Report::spec_only`].
///
/// Errors: those of [`crate::interp::run_launch`] (no such kernel, a
/// parameter missing, a warp out of fuel).
pub fn check_launch(
    module: &Module,
    launch: &Launch,
    opts: Options,
) -> Result<Checked, LaunchError> {
    let (outcome, mut reports) = check_once(module, launch, opts)?;
    if opts.model == Model::Spec && !reports.is_empty() {
        let observed = Options {
            model: Model::Observed,
            races: false,
        };
        let (_, other) = check_once(module, launch, observed)?;
        let keys: Vec<_> = other.iter().map(key).collect();
        for r in &mut reports {
            r.spec_only = matches!(r.finding, Finding::Escape { .. }) && !keys.contains(&key(r));
        }
    }
    let (k, _) = launch.bind(module)?;
    Ok(Checked {
        kernel: k.name.clone(),
        model: opts.model,
        outcome,
        reports,
    })
}

/// What makes two runs' reports the same: kind, instruction, origin.
fn key(r: &Report) -> (&'static str, usize, Option<(usize, &'static str)>) {
    let origin = match &r.finding {
        Finding::Escape { origin, .. } => origin.as_ref().map(|o| (o.at.pc, o.cause.kind())),
        Finding::WarpRace { second, .. } => Some((second.pc, "")),
    };
    (r.kind(), r.at.pc, origin)
}

/// One watched run in `opts`' model: its outcome and reports.
fn check_once(
    module: &Module,
    launch: &Launch,
    opts: Options,
) -> Result<(LaunchOutcome, Vec<Report>), LaunchError> {
    fn fresh_races() -> Box<dyn Watch> {
        Box::new(Tracker::new(true))
    }
    fn fresh_quiet() -> Box<dyn Watch> {
        Box::new(Tracker::new(false))
    }
    let fresh = if opts.races { fresh_races } else { fresh_quiet };
    let mut how = Watching {
        watch: Some(fresh()),
        fresh: Some(fresh),
        spec: opts.model == Model::Spec,
    };
    let outcome = run_launch_watched(module, launch, &mut how)?;
    let tracker = how
        .watch
        .take()
        .expect("the watch comes back")
        .into_any()
        .downcast::<Tracker>()
        .expect("a tracker");
    let (k, _) = launch.bind(module)?;
    let prog = &k.program;
    let mut reports = Vec::new();
    for e in &tracker.escapes {
        let origin = (e.node != 0).then(|| {
            let r = tracker.origins.get(tracker.origins.root_of(e.node));
            Origin {
                at: site(prog, r.pc),
                cause: r.cause.clone(),
                count: r.count,
            }
        });
        let carried = tracker
            .origins
            .carried(e.node)
            .into_iter()
            .map(|pc| site(prog, pc))
            .collect();
        reports.push(Report {
            at: site(prog, e.pc),
            ctaid: e.ctaid,
            warp: e.warp,
            lanes: e.lanes,
            what: e.what.clone(),
            count: e.count,
            finding: Finding::Escape {
                kind: e.kind,
                origin,
                carried,
            },
            spec_only: false,
        });
    }
    for r in &tracker.races {
        let (a, b) = (r.race.first, r.race.second);
        let verb = |w: bool| if w { "writes" } else { "reads" };
        reports.push(Report {
            at: site(prog, a.pc),
            ctaid: r.ctaid,
            warp: r.warp,
            lanes: 1 << a.lane | 1 << b.lane,
            what: format!(
                "lane {} {} `{}` at {:#x}, lane {} {} it, with no synchronising point of the warp between",
                a.lane,
                verb(a.write),
                r.region,
                r.addr,
                b.lane,
                verb(b.write)
            ),
            count: r.count,
            finding: Finding::WarpRace {
                first_lane: a.lane,
                first_write: a.write,
                second: site(prog, b.pc),
                second_lane: b.lane,
                second_write: b.write,
            },
            spec_only: false,
        });
    }
    Ok((outcome, reports))
}
