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
//! Files: `origin.rs` (causes, origins, chains), `shadow.rs` (the shadow of
//! registers and memory, and the escapes), `race.rs` (`warp-race`).

mod origin;
mod race;
mod shadow;

pub use origin::Cause;

use crate::interp::{run_launch_watched, Watching};
use crate::ir::{Module, Program};
use crate::launch::{Launch, LaunchError, LaunchOutcome};
use crate::text::inst_text;
use shadow::Tracker;

/// Which lanes the checker takes as certainly running together (issue
/// #38, item 4).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Model {
    /// Only what the PTX ISA and the CUDA programming guide promise: no
    /// lane is certainly with another without a `.sync` rendezvous, not
    /// even at kernel start. `activemask` is then defined only on the
    /// lane's own bit and the lanes certainly exited or absent.
    #[default]
    Spec,
    /// What every H200 experiment showed (the fuzzing reference's model,
    /// `interp/converge.rs`): lanes that branch together stay together in
    /// the arm.
    Observed,
}

impl Model {
    /// Its name on the command line.
    pub fn name(self) -> &'static str {
        match self {
            Model::Spec => "spec",
            Model::Observed => "observed",
        }
    }
}

/// Where an undefined value escapes.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Escape {
    /// Stored to global memory: a launch buffer or a `.global` variable.
    GlobalStore,
    /// Used as the address of an `ld` or `st`.
    Address,
    /// The guard of a `bra` or `exit`.
    BranchCondition,
    /// The guard of a `.sync` collective (or `bar.warp.sync`).
    CollectiveGuard,
    /// The guard of a `st`.
    StoreGuard,
    /// The guard of a `bar.sync`.
    BarrierGuard,
    /// A bit of a collective's `membermask`.
    Membermask,
}

impl Escape {
    /// A stable name (reports, JSON).
    pub fn name(self) -> &'static str {
        match self {
            Escape::GlobalStore => "global-store",
            Escape::Address => "address",
            Escape::BranchCondition => "branch-condition",
            Escape::CollectiveGuard => "collective-guard",
            Escape::StoreGuard => "store-guard",
            Escape::BarrierGuard => "barrier-guard",
            Escape::Membermask => "membermask",
        }
    }
}

/// An instruction of the kernel.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Site {
    /// Its index in the kernel's body.
    pub pc: usize,
    /// Its source line.
    pub line: u32,
    /// Its text.
    pub text: String,
}

/// Where a value became undefined, and why.
#[derive(Clone, Debug)]
pub struct Origin {
    /// The instruction.
    pub at: Site,
    /// Why.
    pub cause: Cause,
    /// How many lane-executions became undefined there for that reason,
    /// over the whole launch.
    pub count: u64,
}

/// What a report is about.
#[derive(Clone, Debug)]
pub enum Finding {
    /// An undefined value escaped.
    Escape {
        /// Where it escaped to.
        kind: Escape,
        /// Its origin (none when the checker could not find one).
        origin: Option<Origin>,
        /// The instructions that carried it from its origin, in order
        /// (the origin's own not included).
        carried: Vec<Site>,
    },
    /// Two lanes of one warp accessed the same bytes, at least one
    /// writing, with no synchronising point of the warp between.
    WarpRace {
        /// The earlier access's lane.
        first_lane: u32,
        /// Whether it wrote.
        first_write: bool,
        /// The later access's instruction.
        second: Site,
        /// Its lane.
        second_lane: u32,
        /// Whether it wrote.
        second_write: bool,
    },
}

/// One report: a group of findings of one kind at one instruction with
/// one origin (or one pair of racing instructions), shown by its first
/// occurrence.
#[derive(Clone, Debug)]
pub struct Report {
    /// The instruction (for a race, the earlier access).
    pub at: Site,
    /// The first occurrence's CTA (`%ctaid`).
    pub ctaid: [u32; 3],
    /// Its warp in the CTA.
    pub warp: u32,
    /// Its lanes.
    pub lanes: u32,
    /// The bytes or bits concerned, in words.
    pub what: String,
    /// How many times it happened (warp-executions).
    pub count: u64,
    /// What it is.
    pub finding: Finding,
    /// Checked in the spec model, the report is not there in the observed
    /// one: it depends on lanes that branched together not being certainly
    /// together (every H200 run so far kept them together).
    pub spec_only: bool,
}

impl Report {
    /// A stable name of the report's kind: an [`Escape::name`] or
    /// `warp-race`.
    pub fn kind(&self) -> &'static str {
        match &self.finding {
            Finding::Escape { kind, .. } => kind.name(),
            Finding::WarpRace { .. } => "warp-race",
        }
    }
}

/// A checked launch: the run's outcome and the reports.
#[derive(Clone, Debug)]
pub struct Checked {
    /// The kernel.
    pub kernel: String,
    /// The convergence model it was checked in.
    pub model: Model,
    /// The run (buffers, undefined behaviour, steps).
    pub outcome: LaunchOutcome,
    /// The reports, escapes first (in the order they first happened),
    /// then races.
    pub reports: Vec<Report>,
}

/// How to check.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Options {
    /// The convergence model.
    pub model: Model,
    /// Whether to look for `warp-race`.
    pub races: bool,
}

impl Default for Options {
    fn default() -> Self {
        Options {
            model: Model::Spec,
            races: true,
        }
    }
}

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
    fn fresh_races() -> Box<dyn crate::interp::watch::Watch> {
        Box::new(Tracker::new(true))
    }
    fn fresh_quiet() -> Box<dyn crate::interp::watch::Watch> {
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
