//! Where undefined values come from: each [`Cause`] the interpreter has for
//! undefinedness, and the chains of instructions that carried a value from
//! its origin ([`Origins`]), in the style of valgrind memcheck's
//! `--track-origins`.
//!
//! An origin is a *root*: an instruction and a cause, interned (every lane
//! and every CTA whose value became undefined there for that reason shares
//! one root, which counts them). A value that an instruction computes from
//! an undefined one gets a *node*: that instruction, with the node of the
//! value it came from as parent. Nodes are interned by (instruction,
//! parent), so the lanes of a warp and the warps of a launch that carry
//! the same value through the same instructions share their nodes; a loop
//! does not lengthen a chain (an instruction already on it is not added
//! again). Node 0 is "defined".

use crate::fxhash::FxHashMap as HashMap;

/// Why a value became undefined at an instruction: every reason the
/// reference interpreter has (see `core/src/interp/`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Cause {
    /// A register that no instruction wrote (and no input gave) was read.
    NeverWritten {
        /// The register.
        reg: String,
    },
    /// A `shfl.sync` lane read a lane that is not in its `membermask`
    /// ("results are undefined if a thread sources a register from an
    /// inactive thread or a thread that is not in membermask").
    OutsideMembermask {
        /// The reading lane.
        lane: u32,
        /// The lane it read.
        source: u32,
        /// The membermask.
        membermask: u32,
    },
    /// A `shfl.sync` lane read a lane that had exited.
    ExitedSource {
        /// The reading lane.
        lane: u32,
        /// The lane it read.
        source: u32,
    },
    /// A `shfl.sync` lane read a lane the launch does not have (a partial
    /// warp's last lanes).
    AbsentSource {
        /// The reading lane.
        lane: u32,
        /// The lane it read.
        source: u32,
    },
    /// A deprecated `shfl` lane read a lane not certainly executing it
    /// with it: which lanes run together depends on the schedule.
    InactiveSource {
        /// The reading lane.
        lane: u32,
        /// The lane it read.
        source: u32,
    },
    /// `activemask`: bits of lanes that may or may not run with the lane,
    /// depending on the schedule.
    ActivemaskSchedule {
        /// The lane.
        lane: u32,
        /// The bits that depend on the schedule.
        bits: u32,
    },
    /// A deprecated `vote` (no `.sync`): which lanes it sees depends on the
    /// schedule.
    DeprecatedSchedule {
        /// The lane.
        lane: u32,
    },
    /// A load of shared, local or parameter memory nothing wrote.
    UnwrittenMemory {
        /// The region (`shared`, `local`, `param`, a buffer's name).
        region: String,
        /// The first such byte's address in its space.
        addr: u64,
    },
    /// Lanes of one `st` wrote different values to the same byte.
    StoreClash {
        /// The region.
        region: String,
        /// The byte's address in its space.
        addr: u64,
    },
    /// A NaN whose bits PTX leaves open was read by an instruction that
    /// uses its bits.
    OpenNan {
        /// The register holding it.
        reg: String,
    },
    /// The instruction's result is undefined for these operands by its own
    /// rule (see docs/semantics.md), or for a reason this checker does
    /// not name.
    Computed,
}

impl Cause {
    /// A stable name of the kind (JSON, grouping).
    pub fn kind(&self) -> &'static str {
        match self {
            Cause::NeverWritten { .. } => "never-written",
            Cause::OutsideMembermask { .. } => "source-outside-membermask",
            Cause::ExitedSource { .. } => "source-exited",
            Cause::AbsentSource { .. } => "source-absent",
            Cause::InactiveSource { .. } => "source-inactive",
            Cause::ActivemaskSchedule { .. } => "activemask-schedule",
            Cause::DeprecatedSchedule { .. } => "deprecated-schedule",
            Cause::UnwrittenMemory { .. } => "unwritten-memory",
            Cause::StoreClash { .. } => "store-clash",
            Cause::OpenNan { .. } => "open-nan",
            Cause::Computed => "computed",
        }
    }

    /// A sentence: why the value became undefined.
    pub fn describe(&self) -> String {
        match self {
            Cause::NeverWritten { reg } => {
                format!("register `{reg}` is read but nothing wrote it")
            }
            Cause::OutsideMembermask {
                lane,
                source,
                membermask,
            } => format!(
                "lane {lane} reads lane {source}, which is not in the membermask {membermask:#010x}"
            ),
            Cause::ExitedSource { lane, source } => {
                format!("lane {lane} reads lane {source}, which has exited")
            }
            Cause::AbsentSource { lane, source } => format!(
                "lane {lane} reads lane {source}, which the launch does not have (a partial warp)"
            ),
            Cause::InactiveSource { lane, source } => format!(
                "lane {lane} reads lane {source}, which is not certainly executing this deprecated shfl with it"
            ),
            Cause::ActivemaskSchedule { lane, bits } => format!(
                "lane {lane}: bits {bits:#010x} of activemask depend on which lanes the schedule runs together"
            ),
            Cause::DeprecatedSchedule { lane } => format!(
                "lane {lane}: what a deprecated vote sees of other lanes depends on the schedule"
            ),
            Cause::UnwrittenMemory { region, addr } => {
                format!("a load of `{region}` at {addr:#x}, which nothing wrote")
            }
            Cause::StoreClash { region, addr } => format!(
                "lanes of one st wrote different values to `{region}` at {addr:#x} (a race)"
            ),
            Cause::OpenNan { reg } => format!(
                "`{reg}` holds a NaN whose bits PTX leaves open, and this instruction uses its bits"
            ),
            Cause::Computed => "the instruction's result is undefined for these operands".into(),
        }
    }
}

/// One origin: where and why, with the first warp it happened in and how
/// many times (lanes × executions) it did.
#[derive(Clone, Debug)]
pub(crate) struct Root {
    /// The instruction.
    pub pc: usize,
    /// Why (as it was the first time).
    pub cause: Cause,
    /// How many lane-executions it made undefined.
    pub count: u64,
}

#[derive(Clone, Copy, Debug)]
struct Node {
    pc: u32,
    parent: u32,
    root: u32,
}

/// Every origin and carrying chain of a run.
#[derive(Debug)]
pub(crate) struct Origins {
    roots: Vec<Root>,
    root_ids: HashMap<(usize, &'static str), u32>,
    nodes: Vec<Node>,
    node_ids: HashMap<(u32, u32), u32>,
}

impl Default for Origins {
    fn default() -> Self {
        Origins {
            roots: Vec::new(),
            root_ids: HashMap::default(),
            nodes: vec![Node {
                pc: u32::MAX,
                parent: 0,
                root: u32::MAX,
            }],
            node_ids: HashMap::default(),
        }
    }
}

impl Origins {
    /// The node of an origin at `pc` for `cause` (one per instruction and
    /// kind of cause; the first cause's details are kept).
    pub fn root(&mut self, pc: usize, cause: Cause) -> u32 {
        let key = (pc, cause.kind());
        if let Some(&r) = self.root_ids.get(&key) {
            self.roots[r as usize].count += 1;
            return self.node_ids[&(pc as u32, u32::MAX - r)];
        }
        let r = self.roots.len() as u32;
        self.roots.push(Root {
            pc,
            cause,
            count: 1,
        });
        self.root_ids.insert(key, r);
        let n = self.nodes.len() as u32;
        self.nodes.push(Node {
            pc: pc as u32,
            parent: 0,
            root: r,
        });
        self.node_ids.insert((pc as u32, u32::MAX - r), n);
        n
    }

    /// The node of a value the instruction at `pc` computed from the value
    /// of node `from` (0: defined, stays 0).
    pub fn carry(&mut self, from: u32, pc: usize) -> u32 {
        if from == 0 || self.nodes[from as usize].pc == pc as u32 {
            return from;
        }
        if let Some(&n) = self.node_ids.get(&(pc as u32, from)) {
            return n;
        }
        // A loop carries a value through the same instructions again: the
        // chain keeps each instruction once.
        let mut at = from;
        while at != 0 {
            let node = self.nodes[at as usize];
            if node.pc == pc as u32 {
                return from;
            }
            at = node.parent;
        }
        let n = self.nodes.len() as u32;
        let root = self.nodes[from as usize].root;
        self.nodes.push(Node {
            pc: pc as u32,
            parent: from,
            root,
        });
        self.node_ids.insert((pc as u32, from), n);
        n
    }

    /// The root index of node `n` (not 0).
    pub fn root_of(&self, n: u32) -> u32 {
        self.nodes[n as usize].root
    }

    /// Root `r`.
    pub fn get(&self, r: u32) -> &Root {
        &self.roots[r as usize]
    }

    /// The instructions that carried node `n`'s value, from the one after
    /// the origin to `n`'s own.
    pub fn carried(&self, n: u32) -> Vec<usize> {
        let mut v = Vec::new();
        let mut at = n;
        while at != 0 && self.nodes[at as usize].parent != 0 {
            v.push(self.nodes[at as usize].pc as usize);
            at = self.nodes[at as usize].parent;
        }
        v.reverse();
        v
    }
}
