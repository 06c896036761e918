//! What `warpdiff check` reports: the convergence model it checked in
//! ([`Model`]), where a value escaped ([`Escape`]), the instructions
//! concerned ([`Site`]), an origin ([`Origin`]), and the grouped reports
//! of a checked launch ([`Report`], [`Checked`]), with the options
//! ([`Options`]).

use super::origin::Cause;
use crate::launch::LaunchOutcome;

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
