//! The lowering driver: it walks the instructions, runs control flow with
//! min-PC reconvergence and fuel, and dispatches every other instruction to
//! its family's file (one file per family, named as in `warp-core`'s
//! interpreter), which lowers it with the [`Emitter`] of `builder.rs`.
//!
//! # How min-PC scheduling becomes straight code
//!
//! Under min-PC, the lanes with the lowest program counter run together.
//! After an ordinary instruction at `i` they all move to `i + 1`, which is
//! then the lowest pc, so the group only changes where other lanes can be
//! waiting: at *park points* (the program start, every label, and the
//! instruction after every `bra` and `exit`). The body is cut into
//! *segments* between consecutive park points. Each segment is one block
//! entry that merges the lanes parked there into the running group `conv`,
//! then runs its instructions for that group.
//!
//! - `bra L` forward: the lanes that take it park at `L`; the others go on.
//! - `bra L` backward: the lanes that do not take it park after the `bra`;
//!   the others jump to `L`, which is then the lowest pc (every parked lane
//!   is past the `bra`).
//! - `exit`: the exiting lanes leave the group.
//! - When the group becomes empty, the scheduler picks the lowest park point
//!   with waiting lanes; when there is none, the warp is finished.
//!
//! # `.sync` collectives as rendezvous
//!
//! As in the interpreter (`interp/schedule.rs`), a lane that executes a
//! `.sync` collective *arrives* there and waits; predicated-off lanes park
//! after it. Each collective ends its segment. The arriving lanes record
//! their `membermask` and join the collective's *arrived* mask; then the
//! *completion* code looks, per group of pairing collectives
//! ([`super::rendezvous`]), for a waiting lane all of whose non-exited
//! members wait in the group with the same `membermask`: the collective
//! then runs for those participants, and they park after their own
//! instructions. Completion is checked after every arrival and every
//! `exit` (exited members are no longer waited for), and is followed by
//! the scheduler, since completed lanes may park below the running group.
//!
//! Every taken backward branch also counts down a bound of fuel + 1, which
//! a correct lowering never reaches (each follows the step of its `bra`;
//! without one, every lane only moves forward): a bug in the fuel
//! accounting ends the run as a *runaway* instead of looping forever in
//! native code.
//!
//! Fuel is charged per segment: a segment of `n` instructions needs `n`
//! steps (an arrival is the step of its instruction; a completion costs
//! none), and when fewer remain, the run stops at the instruction where
//! the interpreter would have, with the same error.
//!
//! # A program in parts
//!
//! A big program is emitted as several functions ([`Unit`]): each part
//! holds the segments that start in its range of instructions (the range's
//! ends are park points, so no segment crosses them), and jumps within it
//! as above; a jump to another part's segment stores the running group and
//! the park point in the state and returns [`status::GO`]; the completion
//! code and the scheduler become returns too ([`status::COMPLETE`],
//! [`status::SCHEDULE`]), served by `parts.rs`'s dispatcher (the
//! completion code is a function of its own). The exited lanes, the fuel
//! and the runaway bound live in the state, as the lane masks do.

use super::builder::{AddrFact, Emitter};
use super::error::JitError;
use super::inject::{self, Bug};
use super::layout::Layout;
use super::liveness::Liveness;
use super::outline::{self, Sites};
use super::rendezvous::{Group, Plan};
use super::sched_helpers::{self, Helpers};
use super::{
    activemask, alu, atomic, lane_ops, lane_vec, matching, memory_ops, redux, shfl, uniform,
    uninit, vote,
};
use cranelift_codegen::ir::condcodes::IntCC;
use cranelift_codegen::ir::types::{I32, I32X4, I64};
use cranelift_codegen::ir::{Block, InstBuilder, SourceLoc, Type, Value};
use cranelift_frontend::{FunctionBuilder, Variable};
use std::collections::BTreeMap;
use warp_core::ir::{
    Control, Dest, Guard, Inst, LaneOpKind, Match, MatchMode, Op, Operand, Program, Reg, WARP,
};

/// The driver of one program: the emitter, and the control-flow state the
/// families never see.
struct Driver<'a, 'b> {
    /// The emitter the families lower with.
    e: Emitter<'a, 'b>,
    /// The exited lanes (an i32 mask).
    exited: Cell,
    /// The remaining fuel (an i64).
    fuel: Cell,
    /// Where the lane masks live.
    masks: &'a Masks,
    /// Park point → its segment's block in this function (of a park point
    /// of another part: a block that hands the run to it, [`Driver::block`]).
    blocks: BTreeMap<usize, Block>,
    /// A part of a program compiled in parts: the park points of other
    /// parts this function hands the run to (their blocks, emitted last).
    stubs: Option<Vec<usize>>,
    /// The completion code's entry, when the program has `.sync`
    /// collectives.
    complete: Option<Block>,
    /// Fuel is charged per instruction, so a run can stop before any
    /// instruction (bounded runs), rather than per segment.
    stepped: bool,
    /// Where the run stops when the fuel runs out (its parameter: the pc).
    out_of_fuel: Option<Block>,
    /// The running segment's fuel, `(start, instructions)`, while not
    /// charged yet ([`Driver::charge_fuel`]).
    fuel_due: Option<(usize, usize)>,
    /// Where an `arrive` call that found the fuel short (it recorded
    /// where) or left its lanes waiting goes (its parameter: the call's
    /// status, 2 or 1): the run stops (returns 1), or the completion code
    /// runs. Shared by the calls, so that each site tests its status once.
    arrive_stopped: Option<Block>,
    /// Where the run stops when a `charge` call found the fuel short (it
    /// recorded where): returns 1.
    charge_short: Option<Block>,
    /// Taken backward branches left before the run is a runaway (an i64
    /// variable): each follows at least the step of its `bra`, so a
    /// correct lowering takes at most fuel + 1 of them. A bound independent
    /// of the fuel accounting, so that a bug there cannot loop forever
    /// (without a backward branch every lane only moves forward).
    entries: Cell,
    /// Where a runaway run ends (returns 2).
    runaway: Option<Block>,
    /// A PTX module's kernel (it has thread-level instructions): its warp
    /// may start with lanes that do not exist.
    kernel: bool,
    /// The fast-compile tier: instructions become calls of shared helpers
    /// (`outline.rs`).
    outline: bool,
    /// The tables the code's helper calls read (call sites, group
    /// descriptions), kept as long as the code.
    sites: &'a mut Sites,
    /// The first error of an outlined lowering (a helper that did not
    /// compile).
    error: Option<JitError>,
    /// The shared helpers.
    helpers: Helpers,
    /// The fast-compile tier: the helper calls `(helper, table)` of the
    /// instructions lowered since the last other code of the segment, not
    /// emitted yet ([`Driver::flush`]).
    pending: Vec<(usize, i64)>,
    /// Per park point, whether lanes can wait there (some code parks
    /// lanes at it): only those merge waiting lanes at their segment's
    /// entry and are looked at by the scheduler.
    parkable: Vec<bool>,
    /// The next segment's start when it runs statically with the whole
    /// warp: the segment before it was (every lane there, none exited,
    /// parked or waiting) and ended in a `.sync` collective that completes
    /// at once ([`Driver::arrive_full`]), the only way into it.
    full_from: Option<usize>,
    /// The running segment's parked lanes, while not merged into the
    /// running group yet: a segment of helper calls ending at an outlined
    /// `.sync` collective leaves the merge to the collective's `arrive`
    /// call (fewer Cranelift instructions), unless code of its own runs
    /// first ([`Driver::flush`] merges them then).
    merge_due: Option<Mask>,
    /// Registers that hold `match.any.sync`'s answer for the whole warp
    /// (unguarded, with an immediate `membermask` of every lane, in a
    /// segment that runs with the whole warp: each lane's mask is then
    /// exactly the lanes with its value, its own lane among them) and
    /// were not written since, in the running chain of such segments
    /// ([`Driver::arrive_full`]).
    partitions: Vec<Reg>,
    /// The running segment is one of a kernel's two copies (for a group
    /// of the whole warp, and for any): the other copy also jumps to the
    /// next segment, which is then no statically full chain.
    twin: bool,
    /// Per park point, whether a kernel's chain of whole-warp code
    /// already runs its segment ([`Driver::chain`]).
    chained_into: Vec<bool>,
    /// The scheduler's block.
    sched: Option<Block>,
}

/// A value of the run (the exited lanes, the fuel left): a Cranelift
/// variable in the fast-code tier, its word of the state buffer in the
/// fast-compile tier. As variables, each is a parameter of nearly every
/// block and live across every helper call (spilled and reloaded around
/// it); in the state, a use is a load or store, and the fast-compile
/// tier's code is mostly helper calls and blocks.
#[derive(Clone, Copy)]
enum Cell {
    /// A variable, loaded from the state on entry and stored on return.
    Var(Variable),
    /// The state word at this offset.
    State(Type, i32),
}

impl Cell {
    /// Its value.
    fn get(self, e: &mut Emitter<'_, '_>) -> Value {
        match self {
            Cell::Var(v) => e.b.use_var(v),
            Cell::State(ty, off) => e.load(ty, off),
        }
    }

    /// Sets it to `v`.
    fn set(self, e: &mut Emitter<'_, '_>, v: Value) {
        match self {
            Cell::Var(var) => e.b.def_var(var, v),
            Cell::State(_, off) => e.store(v, off),
        }
    }

    /// Makes the state word at `off` its value again (a variable's on
    /// return; a state cell is there already).
    fn store_back(self, e: &mut Emitter<'_, '_>, off: i32) {
        if let Cell::Var(var) = self {
            let v = e.b.use_var(var);
            e.store(v, off);
        }
    }
}

/// A lane mask kept in the state buffer (at its byte offset there, in
/// [`Layout::masks`]) rather than in a Cranelift variable: the scheduler
/// reads every park point's mask and the completion code every
/// collective's, so as variables each would be live through every block,
/// and SSA construction would give every block a parameter per mask: code
/// quadratic in the number of collectives (a 5,000-instruction program
/// took 215 s to compile). A load and a store per use keep it linear. (In
/// the state rather than a stack slot: a stack slot's address is one more
/// Cranelift instruction per use; a third of the fast-compile tier's.)
#[derive(Clone, Copy, Debug)]
struct Mask(i32);

impl Mask {
    /// Its value.
    fn get(self, e: &mut Emitter<'_, '_>) -> Value {
        e.load(I32, self.0)
    }

    /// Sets it to `v`.
    fn set(self, e: &mut Emitter<'_, '_>, v: Value) {
        e.store(v, self.0);
    }
}

/// What a compiled function returns (the dispatcher of a program compiled
/// in parts, `parts.rs`, reads the last four; a whole program returns only
/// the first three).
pub mod status {
    /// The run ended: every lane exited or reached the end.
    pub const DONE: u32 = 0;
    /// The fuel ran out before the instruction in the state's `fail_pc`.
    pub const OUT_OF_FUEL: u32 = 1;
    /// More taken backward branches than the fuel allows: a bug in the
    /// fuel accounting.
    pub const RUNAWAY: u32 = 2;
    /// A part hands the run to the park point in the state's `next` (its
    /// index among the park points), with the running group in its `conv`.
    pub const GO: u32 = 3;
    /// A part asks for the completion of rendezvous, then the scheduler.
    pub const COMPLETE: u32 = 4;
    /// The running group is empty: the scheduler picks the next one.
    pub const SCHEDULE: u32 = 5;
    /// A part was entered at a park point that is not its own (a bug of
    /// the dispatch).
    pub const LOST: u32 = 6;
    /// No lane can run, and some wait at `bar.sync` (a kernel's warp): the
    /// host releases them when the CTA's other warps are there too, and
    /// calls the code again with [`Layout::RESUME`] set.
    pub const BARRIER: u32 = 7;
}

/// Whether `op` is `bar.sync`: its lanes wait there for the CTA, the host
/// releases them after it (a park point, like a `.sync` collective).
fn is_bar(op: &Op) -> bool {
    matches!(op, Op::LaneOp(x) if x.is_barrier())
}

/// Whether `op` ends a segment: control flow, a `.sync` collective,
/// `bar.sync` (the next instruction is a park point).
fn ends_segment(op: &Op) -> bool {
    op.is_control_flow() || op.rendezvous_key().is_some() || is_bar(op)
}

/// The park points of a program: start, labels, after `bra`/`exit`,
/// `.sync` collectives and `bar.sync`, end; with `cut`, also every multiple of it (where
/// a program compiled in parts is cut, [`Unit::Part`]). A park point where
/// no lane ever waits only ends a segment: the next one runs for the same
/// group, and the fuel of the two is charged in two steps, which stop at
/// the same instruction as one would.
fn park_points(prog: &Program, cut: Option<usize>) -> Vec<usize> {
    let len = prog.insts.len();
    let mut v = vec![0, len];
    v.extend(prog.labels.iter().map(|l| l.at));
    for (i, inst) in prog.insts.iter().enumerate() {
        if ends_segment(&inst.op) {
            v.push(i + 1);
        }
    }
    if let Some(cut) = cut {
        v.extend((cut.max(1)..len).step_by(cut.max(1)));
    }
    v.sort_unstable();
    v.dedup();
    v
}

/// Where the lane masks of a program's code live in the state
/// ([`Layout::masks`]): one per park point, in order, then per group of
/// pairing collectives one for the group and one per collective, then one
/// per `bar.sync` (its lanes waiting for the CTA). Made
/// once per program (a program compiled in parts shares it between its
/// functions).
pub struct Masks {
    /// The park points (pcs), in order.
    pub points: Vec<usize>,
    /// `.sync` collective pc → the mask of lanes waiting there.
    arrived: BTreeMap<usize, Mask>,
    /// `.sync` collective pc → the mask of the lanes waiting anywhere in
    /// its group (the union of its collectives' `arrived` masks, kept
    /// alongside them so that asking costs one load, not one per
    /// collective of the group).
    group_waiting: BTreeMap<usize, Mask>,
    /// `bar.sync` pc → the mask of the lanes waiting there for the CTA.
    barrier: BTreeMap<usize, Mask>,
    /// The offset of the first mask.
    base: i32,
}

impl Masks {
    /// How many masks the code of `plan` keeps with the park points of
    /// [`Masks::points_of`] (for [`Layout::with_masks`]).
    pub fn count(plan: &Plan, points: &[usize]) -> usize {
        points.len()
            + plan.groups.len()
            + plan.groups.iter().map(|g| g.pcs.len()).sum::<usize>()
            + plan.prog.insts.iter().filter(|i| is_bar(&i.op)).count()
    }

    /// The park points of `plan`'s program, cut every `cut` instructions
    /// for a program compiled in parts.
    pub fn points_of(plan: &Plan, cut: Option<usize>) -> Vec<usize> {
        park_points(&plan.prog, cut)
    }

    /// The masks of `plan` with park points `points`, in `lay` (which has
    /// room for them).
    pub fn new(plan: &Plan, points: Vec<usize>, lay: &Layout) -> Masks {
        assert!(
            4 * Self::count(plan, &points) as u32 <= lay.masks_len,
            "the layout has room for the masks"
        );
        let mut next = lay.masks as i32 + 4 * points.len() as i32;
        let mut new_mask = || {
            let m = Mask(next);
            next += 4;
            m
        };
        let (mut arrived, mut group_waiting) = (BTreeMap::new(), BTreeMap::new());
        for g in &plan.groups {
            let all = new_mask();
            for &pc in &g.pcs {
                arrived.insert(pc, new_mask());
                group_waiting.insert(pc, all);
            }
        }
        let barrier = (plan.prog.insts.iter().enumerate())
            .filter(|(_, i)| is_bar(&i.op))
            .map(|(pc, _)| (pc, new_mask()))
            .collect();
        Masks {
            points,
            arrived,
            group_waiting,
            barrier,
            base: lay.masks as i32,
        }
    }

    /// Per `bar.sync`, the state offsets of the mask of its lanes waiting
    /// for the CTA and of the park point after it, where the host releases
    /// them (`JitProgram::release`).
    pub fn barriers(&self) -> Vec<(u32, u32)> {
        self.barrier
            .iter()
            .map(|(&pc, m)| (m.0 as u32, self.park(pc + 1).0 as u32))
            .collect()
    }

    /// The index of park point `p` among the park points.
    fn index(&self, p: usize) -> usize {
        self.points
            .binary_search(&p)
            .unwrap_or_else(|_| panic!("pc {p} is a park point"))
    }

    /// The waiting-lanes mask of park point `p` (a pc).
    fn park(&self, p: usize) -> Mask {
        self.park_at(self.index(p))
    }

    /// The waiting-lanes mask of the park point of index `i`.
    fn park_at(&self, i: usize) -> Mask {
        // The park points' masks come first, in order (`Masks::new`).
        Mask(self.base + 4 * i as i32)
    }
}

/// Per pc (and the end), whether lanes can wait there before any code is
/// emitted: after every `.sync` collective (its completion parks lanes
/// there) and every `bar.sync` (the host releases lanes there). The rest
/// is marked as the code that parks lanes is emitted, always before the
/// segment it parks lanes at.
pub fn initial_parkable(prog: &Program) -> Vec<bool> {
    (0..=prog.insts.len())
        .map(|p| {
            p > 0 && {
                let op = &prog.insts[p - 1].op;
                op.rendezvous_key().is_some() || is_bar(op)
            }
        })
        .collect()
}

/// How many parts a program of `len` instructions has in parts of `size`
/// ([`Unit::Part`]: part `k` holds the segments that start in
/// `[k * size, (k + 1) * size)`; every multiple of `size` is a park point,
/// [`Masks::points_of`], so no segment crosses a cut).
pub fn parts(len: usize, size: usize) -> usize {
    len.div_ceil(size.max(1)).max(1)
}

/// The scheduler's table of a program compiled in parts, once every part
/// is emitted: per park point where lanes can wait (`parkable`; the end
/// excepted), in program order, its index and the state offset of its
/// waiting-lanes mask.
pub fn schedule(masks: &Masks, parkable: &[bool]) -> Vec<(u32, u32)> {
    let len = *masks.points.last().expect("the end is a park point");
    masks
        .points
        .iter()
        .enumerate()
        .filter(|&(_, &p)| p < len && parkable[p])
        .map(|(i, _)| (i as u32, masks.park_at(i).0 as u32))
        .collect()
}

/// The groups of pairing collectives of `plan` cut into runs (ranges of
/// `plan.groups`, in order) of at most `size` collectives each (a group
/// of more is a run of its own): a program compiled in parts completes
/// its rendezvous with one function per run ([`Unit::Completion`]), which
/// the dispatcher calls in order, as one function would go through the
/// groups. (The fast-code tier lowers each group's collective inline
/// there: as one function, a 10,000-instruction program's completion code
/// was 763,000 Cranelift instructions and took 44 s to compile.)
pub fn completion_chunks(plan: &Plan, size: usize) -> Vec<std::ops::Range<usize>> {
    let mut chunks = Vec::new();
    let (mut start, mut n) = (0, 0);
    for (i, g) in plan.groups.iter().enumerate() {
        if n > 0 && n + g.pcs.len() > size {
            chunks.push(start..i);
            (start, n) = (i, 0);
        }
        n += g.pcs.len();
    }
    if n > 0 {
        chunks.push(start..plan.groups.len());
    }
    chunks
}

/// The most collectives of a group whose completion the inline tiers
/// lower inline: a bigger group is completed by the shared helper, as in
/// the fast-compile tier (its inline code grows with the group, in one
/// block: mix200 repeated to 10,000 instructions has groups of hundreds of
/// collectives, and a completion function of 157,000 Cranelift
/// instructions in 9 blocks took 7.8 s to compile).
pub const INLINE_GROUP_MAX: usize = 16;

/// Park points (where lanes can wait) from which the fast-compile tier's
/// scheduler is a call of [`Helpers::first_waiting`] and a `br_table`
/// rather than a test per point: from 3, fewer Cranelift instructions.
const SCHEDULE_CALL_MIN: usize = 3;

/// What one compiled function covers.
pub enum Unit<'s> {
    /// The whole program.
    Whole,
    /// A part of a program compiled in parts: the segments that start in
    /// `[index * size, (index + 1) * size)`. `parkable` (from
    /// [`initial_parkable`]) is shared by the parts, emitted in order.
    Part {
        /// Which part.
        index: usize,
        /// Instructions per part.
        size: usize,
        /// Per pc, whether lanes can wait there.
        parkable: &'s mut Vec<bool>,
    },
    /// The completion of rendezvous of the groups `plan.groups[range]` of
    /// a program compiled in parts ([`completion_chunks`]): it returns
    /// [`status::SCHEDULE`].
    Completion(std::ops::Range<usize>),
}

/// Emits the function body of `unit` of `plan`'s program into `b` (whose
/// entry block has the state pointer parameter), its lane masks where
/// `masks` says. `stepped` code charges fuel before each instruction, so
/// that it can stop anywhere (bounded runs); otherwise once per segment.
///
/// With `outline`, every non-control instruction is a call of its shape's
/// shared helper (the fast-compile tier, `outline.rs`); without, it is
/// lowered inline. The tables the code's helper calls read go into
/// `sites`.
#[allow(clippy::too_many_arguments)]
pub fn emit_function(
    b: &mut FunctionBuilder<'_>,
    plan: &Plan,
    lay: &Layout,
    masks: &Masks,
    stepped: bool,
    helpers: Helpers,
    sites: &mut Sites,
    outline: bool,
    unit: Unit<'_>,
) -> Result<(), JitError> {
    let prog = &plan.prog;
    let len = prog.insts.len();
    let points = &masks.points[..];
    let entry = b.create_block();
    b.append_block_params_for_function_params(entry);
    b.switch_to_block(entry);
    b.seal_block(entry);
    let state = b.block_params(entry)[0];
    let conv = b.declare_var(I32);
    let in_parts = !matches!(unit, Unit::Whole);
    let completion_only = matches!(unit, Unit::Completion(_));
    let groups = match &unit {
        Unit::Completion(range) => range.clone(),
        Unit::Whole | Unit::Part { .. } => 0..plan.groups.len(),
    };
    // This function's segments (indices into the park points): every one,
    // or those of its part, or none.
    let (mine, parkable, shared) = match unit {
        Unit::Whole => (0..points.len() - 1, initial_parkable(prog), None),
        Unit::Part {
            index,
            size,
            parkable,
        } => {
            let lo = points.partition_point(|&p| p < index * size);
            let hi = points.partition_point(|&p| p < ((index + 1) * size).min(len));
            (lo..hi, std::mem::take(parkable), Some(parkable))
        }
        Unit::Completion(_) => (0..0, Vec::new(), None),
    };
    // The run's values live in the state in the fast-compile tier, and in
    // a program compiled in parts (they cross from one function to the
    // next); elsewhere in variables.
    let (exited, fuel) = if outline || in_parts {
        (
            Cell::State(I32, Layout::EXITED as i32),
            Cell::State(I64, Layout::FUEL as i32),
        )
    } else {
        (Cell::Var(b.declare_var(I32)), Cell::Var(b.declare_var(I64)))
    };
    let entries = if in_parts {
        Cell::State(I64, Layout::ENTRIES as i32)
    } else {
        Cell::Var(b.declare_var(I64))
    };
    let kernel = prog.insts.iter().any(|i| matches!(i.op, Op::LaneOp(_)));
    let mut d = Driver {
        e: Emitter::new(b, prog, lay, state, conv),
        exited,
        fuel,
        masks,
        blocks: BTreeMap::new(),
        stubs: in_parts.then(Vec::new),
        complete: None,
        stepped,
        out_of_fuel: None,
        fuel_due: None,
        arrive_stopped: None,
        charge_short: None,
        entries,
        runaway: None,
        kernel,
        outline,
        sites,
        error: None,
        helpers,
        pending: Vec::new(),
        parkable,
        full_from: None,
        partitions: Vec::new(),
        merge_due: None,
        twin: false,
        chained_into: vec![false; len + 1],
        sched: None,
    };
    if d.outline {
        d.e.pred_mask = Some(helpers.pred_mask);
    }
    // A kernel's registers are no results: the inline tiers skip the
    // stores of values no lane reads again (`liveness.rs`).
    if plan.kernel && !outline && !stepped {
        let keeps: Vec<bool> = prog
            .insts
            .iter()
            .map(|i| keeps_values(&d.e, &i.op))
            .collect();
        d.e.live = Some(Liveness::of_kernel(prog, &keeps));
        // Where the whole warp runs, a register that holds one value on
        // every lane is read as one word (`uniform.rs`).
        d.e.uniform = uniform::uniform_regs(prog);
        // And those only the vector forms read and write are one word.
        let e = &d.e;
        d.e.scalar = uniform::scalar_regs(
            prog,
            &e.uniform,
            &uninit::read_before_written(prog),
            |op| vector_form(e, op),
            |op| {
                vector_form(e, op)
                    || matches!(op, Op::LaneOp(x) if memory_ops::once_for_the_warp(x))
            },
        );
    }
    for &p in &points[mine.clone()] {
        let blk = d.e.b.create_block();
        d.blocks.insert(p, blk);
    }
    if !completion_only {
        // Every part finishes the lanes that reach the end itself.
        let blk = d.e.b.create_block();
        d.blocks.insert(len, blk);
    }
    if !plan.groups.is_empty() {
        d.complete = Some(d.e.b.create_block());
    }
    let runaway = d.e.b.create_block();
    d.runaway = Some(runaway);
    let sched = d.e.b.create_block();
    d.sched = Some(sched);
    match &shared {
        None if completion_only => {
            let complete = d.complete.expect("a program with rendezvous");
            d.e.b.ins().jump(complete, &[]);
        }
        // Entry: every lane at pc 0, nothing parked, nothing exited.
        None => {
            if !masks.barrier.is_empty() {
                // A kernel's warp released from `bar.sync` goes on where
                // it stopped: its values back from the state, then the
                // scheduler (the host parked the released lanes).
                let resume = d.e.load(I32, Layout::RESUME as i32);
                let (back, fresh) = (d.e.b.create_block(), d.e.b.create_block());
                d.e.b.ins().brif(resume, back, &[], fresh, &[]);
                d.e.switch_to(back);
                for (cell, ty, off) in [
                    (exited, I32, Layout::EXITED),
                    (fuel, I64, Layout::FUEL),
                    (d.entries, I64, Layout::ENTRIES),
                ] {
                    if let Cell::Var(var) = cell {
                        let v = d.e.load(ty, off as i32);
                        d.e.b.def_var(var, v);
                    }
                }
                let zero = d.e.b.ins().iconst(I32, 0);
                d.e.b.def_var(conv, zero);
                d.e.b.ins().jump(sched, &[]);
                d.e.switch_to(fresh);
            }
            // Every mask starts empty.
            let zero = d.e.b.ins().iconst(I32, 0);
            let zeros = d.e.b.ins().splat(I32X4, zero);
            for off in (lay.masks..lay.masks + lay.masks_len).step_by(16) {
                d.e.store(zeros, off as i32);
            }
            // Lanes marked exited before the run (a kernel's lanes that do
            // not exist, in a partial warp) never run.
            let ex = d.e.load(I32, Layout::EXITED as i32);
            let present = d.e.b.ins().bnot(ex);
            d.e.b.def_var(conv, present);
            let fu = d.e.load(I64, Layout::FUEL as i32);
            if let Cell::Var(var) = exited {
                d.e.b.def_var(var, ex);
            }
            if let Cell::Var(var) = fuel {
                d.e.b.def_var(var, fu);
            }
            let bound = d.e.b.ins().iadd_imm_s(fu, 1);
            d.entries.set(&mut d.e, bound);
            let first = d.blocks[&0];
            d.e.b.ins().jump(first, &[]);
        }
        // Entry of a part: the running group and the park point where it
        // goes on come from the state (the dispatcher set them up).
        Some(_) => {
            let c = d.e.load(I32, Layout::CONV as i32);
            d.e.b.def_var(conv, c);
            let at = d.e.load(I32, Layout::NEXT as i32);
            let at = d.e.b.ins().iadd_imm_s(at, -(mine.start as i64));
            let targets: Vec<_> = points[mine.clone()]
                .iter()
                .map(|p| Some(d.blocks[p]))
                .collect();
            jump_table(&mut d.e, at, &targets, None);
        }
    }

    let out_of_fuel = d.e.b.create_block();
    d.e.b.append_block_param(out_of_fuel, I64);
    d.out_of_fuel = Some(out_of_fuel);
    for i in mine {
        d.segment(points[i], points[i + 1], sched, out_of_fuel);
    }
    // The end of the program: the lanes that reach it are done.
    if let Some(&end_blk) = d.blocks.get(&len) {
        d.e.switch_to(end_blk);
        d.finish();
    }

    // Completion of rendezvous, then the scheduler (a part hands both to
    // the dispatcher).
    if let Some(complete) = d.complete {
        d.e.switch_to(complete);
        if shared.is_some() {
            let code = d.e.b.ins().iconst(I32, status::COMPLETE as i64);
            d.e.b.ins().return_(&[code]);
        } else {
            d.completion(&plan.groups[groups]);
            d.e.b.ins().jump(sched, &[]);
        }
    }

    // The scheduler: the lowest park point with waiting lanes.
    d.e.switch_to(sched);
    if in_parts {
        let code = d.e.b.ins().iconst(I32, status::SCHEDULE as i64);
        d.e.b.ins().return_(&[code]);
    } else if d.outline
        && points.iter().filter(|&&p| p < len && d.parkable[p]).count() >= SCHEDULE_CALL_MIN
    {
        // The fast-compile tier: one call of the shared helper finds the
        // lowest park point with waiting lanes, a `br_table` goes there.
        // The masks of the points where no lane parks stay 0 (their
        // entries are a run that lost its way, if it did).
        let before_end = points.partition_point(|&p| p < len);
        let zero = d.e.b.ins().iconst(I32, 0);
        d.e.b.def_var(conv, zero);
        let at = d.e.b.ins().iconst(I64, masks.park_at(0).0 as i64);
        let n = d.e.b.ins().iconst(I32, before_end as i64);
        let i =
            d.e.call_fn(helpers.first_waiting, &[state, at, n], Some(I32))
                .expect("an index");
        let none = d.e.b.create_block();
        let targets: Vec<_> = points[..before_end]
            .iter()
            .map(|p| d.parkable[*p].then(|| d.blocks[p]))
            .collect();
        jump_table(&mut d.e, i, &targets, Some(none));
        d.e.switch_to(none);
        d.finish();
    } else {
        for &p in points.iter().filter(|&&p| p < len && d.parkable[p]) {
            let blk = d.blocks[&p];
            let var = d.masks.park(p);
            let w = var.get(&mut d.e);
            let next = d.e.b.create_block();
            let zero = d.e.b.ins().iconst(I32, 0);
            d.e.b.def_var(conv, zero);
            d.e.b.ins().brif(w, blk, &[], next, &[]);
            d.e.switch_to(next);
        }
        d.finish();
    }

    // A runaway: more segment entries than the fuel allows.
    d.e.switch_to(runaway);
    exited.store_back(&mut d.e, Layout::EXITED as i32);
    let two = d.e.b.ins().iconst(I32, status::RUNAWAY as i64);
    d.e.b.ins().return_(&[two]);

    // An `arrive` call's lanes wait (to the completion code), or it
    // found the fuel short (and recorded where).
    if let Some(stopped) = d.arrive_stopped {
        d.e.switch_to(stopped);
        let status = d.e.b.block_params(stopped)[0];
        let is_short = d.e.b.ins().icmp_imm_s(IntCC::Equal, status, 2);
        let short = d.e.b.create_block();
        let complete = d.complete.expect("an arrive call");
        d.e.b.ins().brif(is_short, short, &[], complete, &[]);
        d.e.switch_to(short);
        exited.store_back(&mut d.e, Layout::EXITED as i32);
        let one = d.e.b.ins().iconst(I32, status::OUT_OF_FUEL as i64);
        d.e.b.ins().return_(&[one]);
    }

    // Out of fuel, found by a `charge` call (which recorded where).
    if let Some(short) = d.charge_short {
        d.e.switch_to(short);
        exited.store_back(&mut d.e, Layout::EXITED as i32);
        let one = d.e.b.ins().iconst(I32, status::OUT_OF_FUEL as i64);
        d.e.b.ins().return_(&[one]);
    }

    // Out of fuel: record where, and stop.
    d.e.switch_to(out_of_fuel);
    let at = d.e.b.block_params(out_of_fuel)[0];
    let at32 = d.e.b.ins().ireduce(I32, at);
    d.e.store(at32, Layout::FAIL_PC as i32);
    exited.store_back(&mut d.e, Layout::EXITED as i32);
    let one = d.e.b.ins().iconst(I32, status::OUT_OF_FUEL as i64);
    d.e.b.ins().return_(&[one]);

    // Jumps to the park points of other parts: hand the run over.
    for p in d.stubs.take().unwrap_or_default() {
        d.e.switch_to(d.blocks[&p]);
        let c = d.e.b.use_var(conv);
        d.e.store(c, Layout::CONV as i32);
        let i = d.e.b.ins().iconst(I32, masks.index(p) as i64);
        d.e.store(i, Layout::NEXT as i32);
        let code = d.e.b.ins().iconst(I32, status::GO as i64);
        d.e.b.ins().return_(&[code]);
    }
    d.e.close_segment();
    d.e.b.seal_all_blocks();
    if let Some(shared) = shared {
        *shared = std::mem::take(&mut d.parkable);
    }
    match d.error {
        Some(e) => Err(e),
        None => Ok(()),
    }
}

/// Whether `op`'s family lowers it reading its registers through the
/// emitter's SSA values (`Emitter::load`), with no block of its own: the
/// vector glue and the four-lane lane ops.
fn keeps_values(e: &Emitter, op: &Op) -> bool {
    match op {
        Op::Glue(g) => !lane_ops::narrow_glue(g),
        Op::LaneOp(x) => lane_vec::handles(e, x),
        Op::Shfl(_)
        | Op::Vote(_)
        | Op::Match(_)
        | Op::Redux(_)
        | Op::Activemask(_)
        | Op::Control(_) => false,
    }
}

/// Whether `op`'s family reads its register sources through the emitter's
/// vector reads and writes its destinations through its vector writes
/// (`Emitter::read_vec`, `Emitter::write_vec` and their 64-bit forms):
/// the glue's vector forms and the four-lane lane ops.
fn vector_form(e: &Emitter, op: &Op) -> bool {
    match op {
        Op::Glue(g) => alu::vector_form(e, g),
        Op::LaneOp(x) => lane_vec::handles(e, x),
        Op::Shfl(_)
        | Op::Vote(_)
        | Op::Match(_)
        | Op::Redux(_)
        | Op::Activemask(_)
        | Op::Control(_) => false,
    }
}

/// Jumps to `targets[index]`, or to `default` past the end; where either
/// is `None`, the code returns [`status::LOST`] (a run that lost its way:
/// a bug).
fn jump_table(
    e: &mut Emitter<'_, '_>,
    index: Value,
    targets: &[Option<Block>],
    default: Option<Block>,
) {
    let lost = e.b.create_block();
    let dfg = &mut e.b.func.dfg;
    let table: Vec<_> = targets
        .iter()
        .map(|t| dfg.block_call(t.unwrap_or(lost), &[]))
        .collect();
    let default = dfg.block_call(default.unwrap_or(lost), &[]);
    let jt =
        e.b.create_jump_table(cranelift_codegen::ir::JumpTableData::new(default, &table));
    e.b.ins().br_table(index, jt);
    e.switch_to(lost);
    let code = e.b.ins().iconst(I32, status::LOST as i64);
    e.b.ins().return_(&[code]);
}

impl Driver<'_, '_> {
    /// The block of park point `p`'s segment; in a part that does not run
    /// it, a block that hands the run to its part (emitted last).
    fn block(&mut self, p: usize) -> Block {
        if let Some(&blk) = self.blocks.get(&p) {
            return blk;
        }
        let stubs = self
            .stubs
            .as_mut()
            .expect("a whole program has a block per park point");
        stubs.push(p);
        let blk = self.e.b.create_block();
        self.blocks.insert(p, blk);
        blk
    }

    /// The completion code of `groups` (then falls through). The
    /// fast-compile tier completes a run of groups in one call
    /// ([`Driver::complete_calls`]).
    fn completion(&mut self, groups: &[Group]) {
        let mut descs = Vec::new();
        for g in groups {
            // The fast-compile tier completes every group with the
            // shared helper; the others a group of more than
            // `INLINE_GROUP_MAX` collectives, whose inline completion code
            // grows with it (in one block).
            if self.outline || g.pcs.len() > INLINE_GROUP_MAX {
                match self.group_desc(g) {
                    Ok(Some(desc)) => {
                        descs.push(desc);
                        continue;
                    }
                    Ok(None) => {}
                    Err(err) => {
                        self.error.get_or_insert(err);
                        continue;
                    }
                }
            }
            self.complete_calls(&mut descs);
            self.complete_group(g);
        }
        self.complete_calls(&mut descs);
    }

    /// No lane can run: stores the exited mask and remaining fuel and
    /// returns 0 ([`status::DONE`]), or [`status::BARRIER`] (with the
    /// runaway bound stored too) when lanes wait at `bar.sync`.
    fn finish(&mut self) {
        let e = &mut self.e;
        let (exited, fuel) = (Layout::EXITED as i32, Layout::FUEL as i32);
        self.exited.store_back(e, exited);
        self.fuel.store_back(e, fuel);
        if !self.masks.barrier.is_empty() {
            let mut any = e.b.ins().iconst(I32, 0);
            for m in self.masks.barrier.values() {
                let w = m.get(e);
                any = e.b.ins().bor(any, w);
            }
            let (wait, done) = (e.b.create_block(), e.b.create_block());
            e.b.ins().brif(any, wait, &[], done, &[]);
            e.switch_to(wait);
            self.entries.store_back(e, Layout::ENTRIES as i32);
            let code = e.b.ins().iconst(I32, status::BARRIER as i64);
            e.b.ins().return_(&[code]);
            e.switch_to(done);
        }
        let zero = e.b.ins().iconst(I32, 0);
        e.b.ins().return_(&[zero]);
    }

    /// Emits the segment of instructions `[start, end)`.
    fn segment(&mut self, start: usize, end: usize, sched: Block, out_of_fuel: Block) {
        self.segment_body(start, end, sched, out_of_fuel);
        // The registers' vectors this segment's instructions kept in SSA
        // values go to the state where it ends.
        self.e.close_segment();
    }

    /// [`Driver::segment`]'s code: register writes wait in SSA values
    /// while its ordinary instructions are lowered (`Emitter::pc`), and
    /// are stored before the instruction that ends it.
    fn segment_body(&mut self, start: usize, end: usize, sched: Block, out_of_fuel: Block) {
        debug_assert!(
            self.fuel_due.is_none(),
            "the last segment's fuel is charged"
        );
        let prog = self.e.prog;
        let (blk, var) = (self.blocks[&start], self.masks.park(start));
        let e = &mut self.e;
        e.switch_to(blk);
        let label_at_0 = prog.labels.iter().any(|l| l.at == 0);
        // A kernel's warp may start with lanes that do not exist.
        let kernel = self.kernel;
        let chained = self.full_from.take() == Some(start);
        if !chained {
            self.partitions.clear();
        }
        e.begin_segment(
            chained || start == 0 && !kernel && (!label_at_0 || inject::on(Bug::LabelAtPc0)),
        );
        // Merge the lanes parked here (`arrive_full` unmarks the point
        // after a collective that completes at once for the whole warp),
        // or leave that to the `arrive` call that charges the fuel.
        debug_assert!(self.merge_due.is_none(), "the last segment merged");
        if self.parkable[start] {
            if !self.stepped && self.arrive_charges(start, end) {
                self.merge_due = Some(var);
            } else {
                self.merge(var);
            }
        }
        // Fuel: the whole segment runs for this group, or the run stops at
        // instruction `start + fuel`. Charged here, or (a segment of helper
        // calls ending at an outlined `.sync` collective) by the
        // collective's `arrive` call, which runs them all.
        if !self.stepped {
            self.fuel_due = Some((start, end - start));
            if !self.arrive_charges(start, end) {
                self.charge_fuel(out_of_fuel);
            }
        }

        // A kernel's segment runs its ordinary instructions in two copies:
        // one for a running group of the whole warp (no lane's old value
        // to keep: no blending, what most of a kernel runs with), one for
        // any group. (Not in the fast-compile tier, whose instructions are
        // helper calls, nor in stepped code.)
        let mut from = start;
        if self.kernel && !self.outline && !self.stepped && !self.e.is_full() {
            let body_end = (start..end)
                .find(|&pc| ends_segment(&prog.insts[pc].op))
                .unwrap_or(end);
            // A `.sync` collective at the end goes into both copies: the
            // whole warp's completes at once (`arrive_full`).
            let collective = body_end < end && prog.insts[body_end].op.rendezvous_key().is_some();
            if body_end - start >= 2 || collective {
                let e = &mut self.e;
                let conv = e.b.use_var(e.conv);
                let all = e.b.ins().icmp_imm_s(IntCC::Equal, conv, -1);
                let (whole, any, join) =
                    (e.b.create_block(), e.b.create_block(), e.b.create_block());
                e.b.ins().brif(all, whole, &[], any, &[]);
                for (blk, full) in [(whole, true), (any, false)] {
                    self.e.switch_to(blk);
                    self.e.set_pc(None);
                    self.e.begin_segment(full);
                    self.e.defer_all =
                        collective && self.reads_values_at_once(&prog.insts[body_end]);
                    self.e.copy_end = full.then_some(body_end);
                    for pc in start..body_end {
                        self.ordinary(&prog.insts[pc], pc);
                    }
                    self.e.copy_end = None;
                    if collective {
                        let inst = &prog.insts[body_end];
                        if !self.reads_values_at_once(inst) {
                            self.e.set_pc(Some(body_end));
                            self.e.flush();
                            self.e.set_pc(None);
                        }
                        let written = inst.op.written();
                        self.partitions.retain(|r| !written.contains(r));
                        self.twin = true;
                        self.arrive(inst, body_end, end);
                        self.twin = false;
                    } else {
                        self.e.b.ins().jump(join, &[]);
                    }
                }
                if collective {
                    return;
                }
                self.e.switch_to(join);
                self.e.set_pc(None);
                self.e.begin_segment(false);
                from = body_end;
            }
        }
        self.run(from, end, sched);
    }

    /// Emits instructions `[from, end)`, the rest of the segment that
    /// ends at `end`, for the running group, with the instruction that
    /// ends it (or the jump to the next segment).
    fn run(&mut self, from: usize, end: usize, sched: Block) {
        let prog = self.e.prog;
        for pc in from..end {
            let inst = &prog.insts[pc];
            // The machine code's offsets map back to the instruction
            // (`isa::dump_bytes`' map, for profiles of generated code).
            self.e.b.set_srcloc(SourceLoc::new(pc as u32));
            if self.stepped {
                // A bounded run may stop before any instruction.
                self.flush();
                self.step(pc);
            }
            let is_last = pc + 1 == end;
            if ends_segment(&inst.op) && !self.partitions.is_empty() {
                let written = inst.op.written();
                self.partitions.retain(|r| !written.contains(r));
            }
            // The arms below that emit code of their own end the run of
            // pending helper calls (the last arm adds to it; a `.sync`
            // collective's `arrive` takes them into its own call, or emits
            // them first).
            let outlined = self.becomes_pending(&inst.op) || inst.op.rendezvous_key().is_some();
            if !outlined {
                self.flush();
            }
            if ends_segment(&inst.op) && !self.reads_values_at_once(inst) {
                // Its code reads the state in memory.
                self.e.set_pc(Some(pc));
                self.e.flush();
                self.e.set_pc(None);
            }
            match &inst.op {
                Op::Control(Control::Bra { target }) => {
                    debug_assert!(is_last, "a bra ends its segment");
                    let to = prog.label_target(*target);
                    self.bra(inst, to, end, sched);
                    return;
                }
                Op::Control(Control::Exit) => {
                    debug_assert!(is_last, "an exit ends its segment");
                    self.exit(inst, end, sched);
                    return;
                }
                op if op.rendezvous_key().is_some() => {
                    debug_assert!(is_last, "a .sync collective ends its segment");
                    self.arrive(inst, pc, end);
                    return;
                }
                Op::LaneOp(x) if x.is_barrier() => {
                    debug_assert!(is_last, "a bar.sync ends its segment");
                    self.bar(inst, pc, end, sched);
                    return;
                }
                _ => self.ordinary(inst, pc),
            }
        }
        self.flush();
        let next = self.block(end);
        self.e.b.ins().jump(next, &[]);
    }

    /// Lowers instruction `inst` at `pc`, one that does not end a segment
    /// ([`ends_segment`]), with its family's file.
    fn ordinary(&mut self, inst: &Inst, pc: usize) {
        let prog = self.e.prog;
        self.e.b.set_srcloc(SourceLoc::new(pc as u32));
        if !self.partitions.is_empty() {
            let written = inst.op.written();
            self.partitions.retain(|r| !written.contains(r));
        }
        let e = &mut self.e;
        e.set_pc(Some(pc));
        // The other families may read the state in memory.
        let memory = matches!(&inst.op, Op::LaneOp(x) if matches!(x.kind, LaneOpKind::Ld(_) | LaneOpKind::St(_)));
        if !memory && !keeps_values(e, &inst.op) {
            e.flush();
        }
        // What the accesses before proved of an address register holds
        // until it is written; a copy or an `add` of a uniform value
        // passes it on (`memory_ops.rs`).
        let mut passed = if e.facts.is_empty() || inject::rewrite(prog, pc).is_some() {
            None
        } else {
            memory_ops::passed_on(e, inst)
        };
        // A row of consecutive addresses that only whole-warp accesses
        // and rows read: lane 0's value where the fact holds, the lanes
        // as below where it does not (`memory_ops::defer_row`).
        let deferred = match passed {
            Some(f) if memory_ops::defers(e, inst, pc) => {
                passed = Some(AddrFact { stale: true, ..f });
                Some(memory_ops::defer_row(e, inst, f))
            }
            _ => None,
        };
        // An index scaled to bytes that only such rows read: lane 0's
        // product where the index's lanes are consecutive.
        let source = if deferred.is_none() && memory_ops::defers_source(e, inst, pc) {
            Some(memory_ops::defer_source(e, inst))
        } else {
            None
        };
        match &inst.op {
            Op::Glue(g) if lane_ops::narrow_glue(g) => lane_ops::emit_glue(e, inst.guard, g, pc),
            Op::LaneOp(x) if matches!(x.kind, LaneOpKind::Ld(_) | LaneOpKind::St(_)) => {
                memory_ops::emit(e, inst.guard, x, pc)
            }
            Op::LaneOp(x) if matches!(x.kind, LaneOpKind::Atom(_) | LaneOpKind::Fence(_)) => {
                atomic::emit(e, inst.guard, x, pc)
            }
            Op::LaneOp(x) if lane_vec::handles(e, x) => lane_vec::emit(e, inst.guard, x, pc),
            Op::LaneOp(x) => lane_ops::emit(e, inst.guard, x, pc),
            op => {
                let wrong = inject::rewrite(prog, pc);
                self.lower(inst.guard, wrong.as_ref().unwrap_or(op));
            }
        }
        let e = &mut self.e;
        if let Some(join) = deferred.or(source.map(|(join, _)| join)) {
            e.b.ins().jump(join, &[]);
            e.switch_to(join);
        }
        if !e.facts.is_empty() {
            let written = inst.op.written();
            e.facts.retain(|f| !written.contains(&f.reg));
        }
        e.facts.extend(passed);
        e.facts.extend(source.map(|(_, fact)| fact));
    }

    /// Merges the lanes waiting at `park` into the running group.
    fn merge(&mut self, park: Mask) {
        let e = &mut self.e;
        let waiting = park.get(e);
        let conv = e.b.use_var(e.conv);
        let conv = e.b.ins().bor(conv, waiting);
        e.b.def_var(e.conv, conv);
        let zero = e.b.ins().iconst(I32, 0);
        park.set(e, zero);
    }

    /// Whether the segment `[start, end)` is helper calls ending at a
    /// `.sync` collective whose `arrive` call can charge the segment's
    /// fuel (fast-compile tier): nothing else of it runs before that call
    /// (but where the helper cache is full: [`Driver::charge_fuel`]).
    fn arrive_charges(&self, start: usize, end: usize) -> bool {
        let prog = self.e.prog;
        let last = &prog.insts[end - 1];
        self.outline
            && last.op.rendezvous_key().is_some()
            && matches!(
                last.op.membermask(),
                Some(Operand::Imm(_) | Operand::Reg(_))
            )
            && prog.insts[start..end - 1]
                .iter()
                .all(|i| self.becomes_pending(&i.op))
    }

    /// Whether the fast-compile tier lowers `op` (not at a segment's end)
    /// as a pending helper call ([`Driver::pending`]).
    fn becomes_pending(&self, op: &Op) -> bool {
        match op {
            Op::Control(_) | Op::LaneOp(_) => false,
            Op::Glue(g) => !lane_ops::narrow_glue(g),
            Op::Activemask(_) => true,
            Op::Shfl(_) | Op::Vote(_) | Op::Match(_) | Op::Redux(_) => {
                op.rendezvous_key().is_none()
            }
        }
    }

    /// Charges the running segment's fuel ([`Driver::fuel_due`]) if it is
    /// not yet: the run stops at `out_of_fuel` when less is left. Called
    /// before the first code of the segment that runs an instruction.
    fn charge_fuel(&mut self, out_of_fuel: Block) {
        let Some((start, n)) = self.fuel_due.take() else {
            return;
        };
        let n = n as i64;
        let e = &mut self.e;
        if self.outline {
            // The fast-compile tier (the fuel in the state): one call of
            // the shared helper, fewer Cranelift instructions.
            let word = e.b.ins().iconst(I64, n | (start as i64) << 32);
            let state = e.state;
            let short = e
                .call_fn(self.helpers.charge, &[state, word], Some(I32))
                .expect("a flag");
            let stop = *self.charge_short.get_or_insert_with(|| e.b.create_block());
            let ok = e.b.create_block();
            e.b.ins().brif(short, stop, &[], ok, &[]);
            e.switch_to(ok);
            return;
        }
        let fuel = self.fuel.get(e);
        let short = e.b.ins().icmp_imm_s(IntCC::UnsignedLessThan, fuel, n);
        let ok = e.b.create_block();
        let at = e.b.ins().iadd_imm_s(fuel, start as i64);
        e.b.ins().brif(short, out_of_fuel, &[at.into()], ok, &[]);
        // Only this block enters `ok`: what it knows of the state holds.
        e.keep_through(ok);
        e.switch_to(ok);
        let fuel = e.b.ins().iadd_imm_s(fuel, -n);
        self.fuel.set(e, fuel);
    }

    /// `@g bar.sync` at `pc`, the end of a segment that ends at `end`: the
    /// executing lanes wait there for the CTA (its mask), the others go on
    /// (as after a forward branch). When no lane can run any more the code
    /// returns [`status::BARRIER`] ([`Driver::finish`]); the host runs the
    /// CTA's other warps, then releases the waiting lanes to `end`
    /// (`JitProgram::release`) and calls the code again.
    fn bar(&mut self, inst: &Inst, pc: usize, end: usize, sched: Block) {
        let next = self.block(end);
        let waiting = self.masks.barrier[&pc];
        let e = &mut self.e;
        let mut l = e.lanes(inst.guard);
        let exec = e.exec(&mut l);
        let stay = e.b.ins().band_not(l.conv, exec);
        let w = waiting.get(e);
        let w = e.b.ins().bor(w, exec);
        waiting.set(e, w);
        e.b.def_var(e.conv, stay);
        e.b.ins().brif(stay, next, &[], sched, &[]);
    }

    /// Charges one step for the instruction at `pc`, or stops there.
    fn step(&mut self, pc: usize) {
        let e = &mut self.e;
        let fuel = self.fuel.get(e);
        let ok = e.b.create_block();
        let at = e.b.ins().iconst(I64, pc as i64);
        let out = self.out_of_fuel.expect("set before the segments");
        e.b.ins().brif(fuel, ok, &[], out, &[at.into()]);
        e.keep_through(ok);
        e.switch_to(ok);
        let fuel = e.b.ins().iadd_imm_s(fuel, -1);
        self.fuel.set(e, fuel);
    }

    /// `@g exit` at the end of a segment that ends at `end`.
    fn exit(&mut self, inst: &Inst, end: usize, sched: Block) {
        let (next, next_var) = (self.block(end), self.masks.park(end));
        let e = &mut self.e;
        let mut l = e.lanes(inst.guard);
        let exec = e.exec(&mut l);
        let ex = self.exited.get(e);
        let ex = e.b.ins().bor(ex, exec);
        self.exited.set(e, ex);
        let rest = e.b.ins().band_not(l.conv, exec);
        match self.complete {
            // Lanes waiting for the exited ones may go on now; then the
            // lowest pc runs.
            Some(complete) => {
                self.parkable[end] = true;
                let w = next_var.get(e);
                let w = e.b.ins().bor(w, rest);
                next_var.set(e, w);
                let zero = e.b.ins().iconst(I32, 0);
                e.b.def_var(e.conv, zero);
                e.b.ins().jump(complete, &[]);
            }
            None => {
                e.b.def_var(e.conv, rest);
                e.b.ins().brif(rest, next, &[], sched, &[]);
            }
        }
    }

    /// The executing lanes of the `.sync` collective `inst` at `pc` (the
    /// end of a segment that ends at `end`) arrive and record their
    /// `membermask`; the predicated-off lanes park after it.
    fn arrive(&mut self, inst: &Inst, pc: usize, end: usize) {
        let mm = inst.op.membermask().expect("a .sync collective");
        let complete = self.complete.expect("a program with a .sync collective");
        // The fast-compile tier: one call of the shared helper.
        let kind_mm = match mm {
            Operand::Imm(v) => Some((0, v as i64)),
            Operand::Reg(r) => Some((1, self.e.reg_off(r, 0) as i64)),
            Operand::NotPred(_) | Operand::LaneId => None,
        };
        if let (true, Some((kind, mm))) = (self.outline, kind_mm) {
            // The straight-line run before it goes into the same call, and
            // the segment's fuel when not charged yet.
            let (before, before_table) = self.pending_call().unwrap_or((0, 0));
            let (fuel_start, fuel_n) = self.fuel_due.take().unwrap_or((0, 0));
            let next = self.block(end);
            let sites = &mut *self.sites;
            let e = &mut self.e;
            let (guard, negated) = match inst.guard {
                Some(g) => (e.reg_off(g.reg, 0) as i64, g.negated as i64),
                None => (-1, 0),
            };
            // The fast path runs the collective's own helper (none when the
            // helper cache is full).
            let (run, table) = match outline::site(e, None, &inst.op, sites, collective_or_glue) {
                Ok(Some((f, t))) => (f as i64, t),
                Ok(None) => (0, 0),
                Err(err) => {
                    self.error.get_or_insert(err);
                    (0, 0)
                }
            };
            let arrived = self.masks.arrived[&pc].0 as i64;
            let park = self.masks.park(end).0 as i64;
            // The lanes parked at the segment's start, when the call merges
            // them (-1: merged already).
            let merge = self.merge_due.take();
            let group = self.masks.group_waiting[&pc].0 as i64;
            let words = [
                guard,
                negated,
                kind,
                mm,
                arrived,
                park,
                run,
                table,
                group,
                before as i64,
                before_table,
                fuel_n as i64,
                fuel_start as i64,
                merge.map_or(-1, |m| m.0 as i64),
            ];
            let site = sites.keep(Box::new(words));
            let state = e.state;
            let site = e.b.ins().iconst(I64, site);
            let conv = e.lanes(None).conv;
            // (The helper reads the exited lanes from the state: the
            // fast-compile tier keeps them there, `Cell::State`.)
            let status = e
                .call_fn(self.helpers.arrive, &[state, site, conv], Some(I32))
                .expect("a status");
            // With the merged lanes, the running group is the state's.
            if merge.is_some() {
                let merged = e.load(I32, Layout::CONV as i32);
                e.b.def_var(e.conv, merged);
            }
            // Waiting (1): straight to the completion code (which, like
            // the scheduler after it, sets the running group before
            // reading it: no running group to clear here).
            if fuel_n == 0 {
                e.b.ins().brif(status, complete, &[], next, &[]);
                return;
            }
            // Or the fuel was short (2): both through one shared block.
            let stopped = *self.arrive_stopped.get_or_insert_with(|| {
                let b = e.b.create_block();
                e.b.append_block_param(b, I32);
                b
            });
            e.b.ins().brif(status, stopped, &[status.into()], next, &[]);
            return;
        }
        self.flush();
        if self.arrive_full(inst, mm, end) {
            return;
        }
        let e = &mut self.e;
        let mut l = e.lanes(inst.guard);
        let exec = e.exec(&mut l);
        let conv = l.conv;
        self.arrive_converged(inst, mm, exec, conv, end);
        let e = &mut self.e;
        for k in 0..WARP / 4 {
            let v = e.read_vec(mm, k);
            let off = (Layout::WMASK + 16 * k as u32) as i32;
            e.blend_store(&mut l, k, v, off);
        }
        for var in [self.masks.arrived[&pc], self.masks.group_waiting[&pc]] {
            let w = var.get(e);
            let w = e.b.ins().bor(w, exec);
            var.set(e, w);
        }
        let stay = e.b.ins().band_not(l.conv, exec);
        let end_var = self.masks.park(end);
        let w = end_var.get(e);
        let w = e.b.ins().bor(w, stay);
        end_var.set(e, w);
        let zero = e.b.ins().iconst(I32, 0);
        e.b.def_var(e.conv, zero);
        e.b.ins().jump(complete, &[]);
    }

    /// An arrival that statically completes at once (the inline tiers):
    /// the running group is the whole warp (no lane exited, parked or
    /// waiting: [`Emitter::is_full`]), the collective is unguarded and its
    /// `membermask` an immediate with every lane (with fewer, some
    /// executing lane is outside it: undefined behaviour, which the
    /// reference reports; the general path stays there), or a register
    /// that holds `match.any.sync`'s answer for the whole warp
    /// ([`Driver::partitions`]: each lane's `membermask` is its group, the
    /// lanes with its value, which all execute here with that
    /// `membermask`, as the run-time check of
    /// [`Driver::arrive_converged`] would find). Every non-exited lane of
    /// each lane's `membermask` then executes it with the same
    /// `membermask`, and none waits in its group: every rendezvous
    /// completes at once, so the collective runs here for the whole warp
    /// with no check, no blending, and no general path; the whole warp
    /// goes on after it, and the next segment is full too when nothing
    /// else jumps there (no label; in a program in parts, not across a
    /// cut). Returns whether it applied.
    fn arrive_full(&mut self, inst: &Inst, mm: Operand, end: usize) -> bool {
        if !self.completes_at_once(inst, mm) {
            return false;
        }
        if let Op::Match(Match {
            mode: MatchMode::Any,
            d: Dest::Reg(d),
            membermask: Operand::Imm(m),
            ..
        }) = inst.op
        {
            if m as u32 == u32::MAX {
                self.partitions.push(d);
            }
        }
        // Its writes wait in SSA values like an ordinary instruction's
        // (a kernel's: `Emitter::pc`), and those no lane reads again (a
        // `shfl`'s `|p` that nothing reads) are never stored: no
        // rendezvous code reads them here.
        self.e.set_pc(Some(end - 1));
        self.lower(None, &inst.op);
        self.e.reads_done();
        let e = &mut self.e;
        let whole = e.b.ins().iconst(I32, -1);
        e.b.def_var(e.conv, whole);
        // A kernel's whole-warp copy goes on into the next segment's
        // whole-warp code, once.
        let len = e.prog.insts.len();
        if self.twin && self.stubs.is_none() && end < len && !self.chained_into[end] {
            self.chain(end);
            return true;
        }
        let e = &mut self.e;
        // A label there is a jump target. (A cut of a program in parts
        // there needs no check: the segment after it is another part's, so
        // it is not the next one this driver emits.)
        let chained = !self.twin && !e.prog.labels.iter().any(|l| l.at == end);
        let next = self.block(end);
        if chained {
            self.full_from = Some(end);
            // No lane ever waits after this collective (it never takes the
            // general path): the scheduler need not look there. In a whole
            // program this jump is then the only way in, so what this
            // block knows of the state holds there (a part's entry jump
            // table reaches every park point: not there).
            self.parkable[end] = false;
            if self.stubs.is_none() {
                self.e.keep_through(next);
            }
        }
        self.e.b.ins().jump(next, &[]);
        true
    }

    /// Whether `.sync` collective `inst` with membermask `mm` completes at
    /// once for the whole warp ([`Driver::arrive_full`]).
    fn completes_at_once(&self, inst: &Inst, mm: Operand) -> bool {
        let all = match mm {
            Operand::Imm(v) => v as u32 == u32::MAX,
            Operand::Reg(r) => self.partitions.contains(&r),
            Operand::NotPred(_) | Operand::LaneId => false,
        };
        self.e.is_full() && inst.guard.is_none() && all
    }

    /// Whether `inst` is a `shfl.sync` that completes at once for the
    /// whole warp (unguarded, with an immediate membermask of every lane,
    /// in a segment that runs with the whole warp: [`Driver::arrive_full`]
    /// takes it), in the inline tiers of a kernel: its lowering reads its
    /// registers through the emitter (constant shuffles), or from memory
    /// only after a block switch has stored what waits (`shfl.rs`'s
    /// four-lane loop), so the values written before it may wait in SSA
    /// values through it.
    fn reads_values_at_once(&self, inst: &Inst) -> bool {
        self.e.live.is_some()
            && !self.outline
            && matches!(inst.op, Op::Shfl(_))
            && matches!(inst.op.membermask(), Some(Operand::Imm(v)) if v as u32 == u32::MAX)
            && self.e.is_full()
            && inst.guard.is_none()
    }

    /// In a kernel's copy of a segment for the whole warp
    /// ([`Driver::segment_body`]), after a `.sync` collective that
    /// completed at once for it ([`Driver::arrive_full`]): the segment
    /// that starts at `start` follows in a block that only this one
    /// enters, lowered for the whole warp, so the registers' values stay
    /// in SSA values from one segment to the next (rather than through
    /// the state, and the next segment's entry: its merge of parked lanes
    /// and its test for the whole warp). Every lane runs here, so none is
    /// parked at `start` (its segment's merge would find none); its fuel
    /// is charged as its own entry does. When it ends in such a
    /// collective too, the chain goes on. Each segment is chained into
    /// once, so the code grows at most by one copy of each; the
    /// segment's own code stays for the other ways in.
    fn chain(&mut self, start: usize) {
        let sched = self.sched.expect("set before the segments");
        let out_of_fuel = self.out_of_fuel.expect("set before the segments");
        let i = self.masks.index(start);
        let end = self.masks.points[i + 1];
        self.chained_into[start] = true;
        let e = &mut self.e;
        let blk = e.b.create_block();
        e.b.ins().jump(blk, &[]);
        e.keep_through(blk);
        e.switch_to(blk);
        debug_assert!(
            self.fuel_due.is_none(),
            "the last segment's fuel is charged"
        );
        // The segment's fuel (as `charge_fuel`), the values waiting in SSA
        // values stored only on the way out.
        let n = (end - start) as i64;
        let e = &mut self.e;
        let fuel = self.fuel.get(e);
        let short = e.b.ins().icmp_imm_s(IntCC::UnsignedLessThan, fuel, n);
        let at = e.b.ins().iadd_imm_s(fuel, start as i64);
        e.rare_exit(short, out_of_fuel, &[at.into()]);
        let fuel = e.b.ins().iadd_imm_s(fuel, -n);
        self.fuel.set(e, fuel);
        self.e.set_pc(None);
        self.e.begin_segment(true);
        let prog = self.e.prog;
        self.e.defer_all = self.reads_values_at_once(&prog.insts[end - 1]);
        // What the chain learns of `match.any` partitions holds on its
        // path only.
        let partitions = self.partitions.clone();
        self.run(start, end, sched);
        self.partitions = partitions;
    }

    /// The fast path of an arrival (fast-code tier): when the executing
    /// lanes `exec` give one `membermask` `m`, are every non-exited lane of
    /// `m`, and no lane waits in the collective's group, the rendezvous
    /// completes at once with them; so it does when their membermasks
    /// differ but each one's non-exited lanes are exactly the executing
    /// lanes with it (disjoint groups that all arrive together, as
    /// `match.any` and a per-group collective make them: each group's
    /// rendezvous completes, and every family's result on a lane depends on
    /// that lane's group alone). Then every lane of the running
    /// group `conv` (participants and predicated-off lanes) is parked
    /// after the collective, the lowest park point with waiting lanes
    /// (min-PC: no lane is parked before the running group): so the
    /// collective runs here for `exec` and `conv` goes on, as the
    /// rendezvous and the scheduler would have had it. Otherwise falls
    /// through to the general arrival.
    fn arrive_converged(&mut self, inst: &Inst, mm: Operand, exec: Value, conv: Value, end: usize) {
        let mm = match mm {
            Operand::Imm(v) => Ok(v),
            Operand::Reg(r) => Err(r),
            Operand::NotPred(_) | Operand::LaneId => return,
        };
        let group = self.masks.group_waiting[&(end - 1)];
        let ex = self.exited.get(&mut self.e);
        let fast = self.e.b.create_block();
        let general = self.e.b.create_block();
        let e = &mut self.e;
        // Each branch leaves the emitter where every group is whole.
        match mm {
            Ok(v) => {
                let m = e.b.ins().iconst(I32, v as u32 as i64);
                let required = e.b.ins().band_not(m, ex);
                let blocked = e.b.ins().bxor(required, exec);
                let ok = e.b.create_block();
                e.b.ins().brif(blocked, general, &[], ok, &[]);
                e.switch_to(ok);
            }
            Err(r) => {
                // Per distinct membermask `m` among the executing lanes
                // (the lowest lane not looked at yet gives it): the
                // rendezvous of `m` completes at once when its non-exited
                // lanes are exactly the executing lanes with `m`. When
                // every one does (disjoint groups, as `match.any` makes
                // them, or one group), the collective runs for all of
                // them at once: each lane's result depends only on its
                // own group, as the families' per-lane rules have it.
                let base = e.lay.regs[r.index()];
                let vecs: [Value; 8] = std::array::from_fn(|k| e.read_vec(Operand::Reg(r), k));
                e.lane_classes(exec, |e, _, lane| {
                    let addr = e.lane_addr(base, lane, 4);
                    let m = e.b.ins().load(I32, super::builder::mf(), addr, 0);
                    let same = e.lanes_equal(vecs, m);
                    let same = e.b.ins().band(same, exec);
                    let required = e.b.ins().band_not(m, ex);
                    let blocked = e.b.ins().bxor(required, same);
                    let whole = e.b.create_block();
                    e.b.ins().brif(blocked, general, &[], whole, &[]);
                    e.switch_to(whole);
                    same
                });
            }
        }
        let waiting = group.get(e);
        e.b.ins().brif(waiting, general, &[], fast, &[]);
        e.switch_to(fast);
        self.with_group(exec);
        self.lower(None, &inst.op);
        let next = self.block(end);
        let e = &mut self.e;
        e.b.def_var(e.conv, conv);
        e.begin_segment(false);
        e.b.ins().jump(next, &[]);
        e.switch_to(general);
        // The general path recomputes the masks it needs.
        e.begin_segment(false);
    }

    /// The lanes waiting at the collectives of `g`, as an i32 mask.
    fn waiting(&mut self, g: &Group) -> Value {
        self.masks.group_waiting[&g.pcs[0]].get(&mut self.e)
    }

    /// Completes every rendezvous of group `g` that can complete, then
    /// falls through to the code after it: while the shared helper `ready`
    /// finds one (see [`Helpers::ready`]), it runs for its participants.
    fn complete_group(&mut self, g: &Group) {
        let head = self.e.b.create_block();
        let run = self.e.b.create_block();
        let after = self.e.b.create_block();
        self.e.b.ins().jump(head, &[]);

        self.e.switch_to(head);
        let w = self.waiting(g);
        let ex = self.exited.get(&mut self.e);
        let state = self.e.state;
        let required = self
            .e
            .call_fn(self.helpers.ready, &[state, w, ex], Some(I32))
            .expect("a mask");
        self.e.b.ins().brif(required, run, &[], after, &[]);

        self.e.switch_to(run);
        let parts: Vec<Value> = g
            .pcs
            .iter()
            .map(|pc| {
                let a = self.masks.arrived[pc].get(&mut self.e);
                self.e.b.ins().band(a, required)
            })
            .collect();
        match &g.mixed {
            None => {
                let inst = &self.e.prog.insts[g.pcs[0]];
                self.with_group(required);
                self.lower(None, &inst.op);
            }
            Some(mx) => {
                for (i, &part) in parts.iter().enumerate() {
                    self.with_group(part);
                    for &(o, r, width) in &mx.copy_in[i] {
                        self.copy(o, Dest::Reg(r), width);
                    }
                }
                self.with_group(required);
                self.lower(None, &mx.op);
                for (i, &part) in parts.iter().enumerate() {
                    self.with_group(part);
                    for &(r, d) in &mx.copy_out[i] {
                        let width = if super::layout::wide(self.e.reg_type(r)) {
                            64
                        } else {
                            32
                        };
                        self.copy(Operand::Reg(r), d, width);
                    }
                }
            }
        }
        let all = self.masks.group_waiting[&g.pcs[0]];
        let w = all.get(&mut self.e);
        let w = self.e.b.ins().band_not(w, required);
        all.set(&mut self.e, w);
        for (pc, part) in g.pcs.iter().zip(parts) {
            let var = self.masks.arrived[pc];
            let a = var.get(&mut self.e);
            let a = self.e.b.ins().band_not(a, required);
            var.set(&mut self.e, a);
            let park = self.masks.park(pc + 1);
            let p = park.get(&mut self.e);
            let p = self.e.b.ins().bor(p, part);
            park.set(&mut self.e, p);
        }
        let zero = self.e.b.ins().iconst(I32, 0);
        self.e.b.def_var(self.e.conv, zero);
        self.e.b.ins().jump(head, &[]);

        self.e.switch_to(after);
    }

    /// Lowers a non-control instruction: inline, or in the fast-compile
    /// tier as a call of its shape's helper.
    fn lower(&mut self, guard: Option<Guard>, op: &Op) {
        if !self.outline {
            return collective_or_glue(&mut self.e, guard, op);
        }
        match outline::site(&self.e, guard, op, self.sites, collective_or_glue) {
            Ok(Some(call)) => self.pending.push(call),
            // The helper cache is full: this one inline, after the calls
            // before it.
            Ok(None) => {
                self.charge_due_fuel();
                self.flush();
                collective_or_glue(&mut self.e, guard, op);
            }
            Err(err) => {
                self.error.get_or_insert(err);
            }
        }
    }

    /// Emits the pending helper calls ([`Driver::pending`]) for the running
    /// group: one call `helper(state, table, lanes)`, or for several one
    /// call of the shared `run_list` with a list of them.
    fn flush(&mut self) {
        if let Some(park) = self.merge_due.take() {
            self.merge(park);
        }
        self.charge_due_fuel();
        let Some((f, table)) = self.pending_call() else {
            return;
        };
        let conv = self.e.lanes(None).conv;
        let t = self.e.b.ins().iconst(I64, table);
        let state = self.e.state;
        self.e.call_fn(f, &[state, t, conv], None);
    }

    /// [`Driver::charge_fuel`] at the program's out-of-fuel block.
    fn charge_due_fuel(&mut self) {
        if let Some(out) = self.out_of_fuel {
            self.charge_fuel(out);
        }
    }

    /// The pending helper calls ([`Driver::pending`]) as one call
    /// `(helper, table)` for the running group (several: the shared
    /// `run_list` with a list of them), taken off the pending list; `None`
    /// when there are none.
    fn pending_call(&mut self) -> Option<(usize, i64)> {
        let call = match self.pending.len() {
            0 => return None,
            1 => self.pending[0],
            _ => {
                let mut list: Vec<i64> = self
                    .pending
                    .iter()
                    .flat_map(|&(f, t)| [f as i64, t])
                    .collect();
                list.push(0);
                (
                    self.helpers.run_list,
                    self.sites.keep(list.into_boxed_slice()),
                )
            }
        };
        self.pending.clear();
        Some(call)
    }

    /// [`Driver::complete_group`] in the fast-compile tier: the
    /// description of group `g` for the shared `complete` helper
    /// ([`Helpers::complete`]); `None` when the collective's helper cache
    /// is full (complete it inline).
    fn group_desc(&mut self, g: &Group) -> Result<Option<i64>, JitError> {
        let sites = &mut *self.sites;
        let prog = self.e.prog;
        let op = match &g.mixed {
            None => &prog.insts[g.pcs[0]].op,
            Some(mx) => &mx.op,
        };
        let Some((run, table)) = outline::site(&self.e, None, op, sites, collective_or_glue)?
        else {
            return Ok(None);
        };
        let h = self.helpers;
        let off = |r: Reg| self.e.lay.regs[r.index()] as i64;
        let width = |r: Reg| super::layout::wide(prog.decl(r).ty);
        let group = self.masks.group_waiting[&g.pcs[0]].0 as i64;
        let mut words = vec![g.pcs.len() as i64, run as i64, table, group];
        for (i, pc) in g.pcs.iter().enumerate() {
            let (copy_in, copy_out) = match &g.mixed {
                None => (0, 0),
                Some(mx) => {
                    let ins: Vec<_> = mx.copy_in[i]
                        .iter()
                        .map(|&(o, r, w)| {
                            let (f, from) = h.copy_from(o, w, off);
                            (f as i64, from, off(r))
                        })
                        .collect();
                    let outs: Vec<_> = mx.copy_out[i]
                        .iter()
                        .filter_map(|&(r, d)| match d {
                            Dest::Reg(x) => {
                                let f = if width(r) { h.copy64 } else { h.copy32 };
                                Some((f as i64, off(r), off(x)))
                            }
                            Dest::Sink => None,
                        })
                        .collect();
                    (copy_list(sites, &ins), copy_list(sites, &outs))
                }
            };
            let arrived = self.masks.arrived[pc].0 as i64;
            let park = self.masks.park(pc + 1).0 as i64;
            words.extend([arrived, park, copy_in, copy_out]);
        }
        debug_assert_eq!(
            words.len(),
            sched_helpers::GROUP_HEAD + sched_helpers::GROUP_PC * g.pcs.len()
        );
        Ok(Some(sites.keep(words.into_boxed_slice())))
    }

    /// Completes the groups of the descriptions `descs` (taken, in order):
    /// one call of the shared `complete` helper, or for several one of
    /// `complete_list` with a list of them.
    fn complete_calls(&mut self, descs: &mut Vec<i64>) {
        let h = self.helpers;
        let (f, desc) = match descs.len() {
            0 => return,
            1 => (h.complete, descs[0]),
            _ => {
                let list: Box<[i64]> = descs.iter().copied().chain([0]).collect();
                (h.complete_list, self.sites.keep(list))
            }
        };
        descs.clear();
        let e = &mut self.e;
        // The helper reads the exited lanes from the state (where the
        // inline tiers keep them in a variable, they are stored first).
        self.exited.store_back(e, Layout::EXITED as i32);
        let state = e.state;
        let desc = e.b.ins().iconst(I64, desc);
        e.call_fn(f, &[state, desc], None);
        let zero = e.b.ins().iconst(I32, 0);
        e.b.def_var(e.conv, zero);
    }

    /// Makes `lanes` the running group for the code that follows.
    fn with_group(&mut self, lanes: Value) {
        self.e.b.def_var(self.e.conv, lanes);
        self.e.begin_segment(false);
    }

    /// Copies `o` into `d` on the running group's lanes.
    fn copy(&mut self, o: Operand, d: Dest, width: u32) {
        let e = &mut self.e;
        let mut l = e.lanes(None);
        if self.outline {
            let Dest::Reg(r) = d else { return };
            let lay = e.lay;
            let (f, from) = self
                .helpers
                .copy_from(o, width, |s| lay.regs[s.index()] as i64);
            let state = e.state;
            let from = e.b.ins().iconst(I64, from);
            let to = e.b.ins().iconst(I64, lay.regs[r.index()] as i64);
            let exec = e.exec(&mut l);
            e.call_fn(f, &[state, from, to, exec], None);
            return;
        }
        if width == 64 {
            let exec = e.exec(&mut l);
            e.lane_loop(|e, at| {
                let v = e.read_at(o, at, 64);
                e.write_at(d, at, exec, v);
            });
        } else {
            for k in 0..WARP / 4 {
                let v = e.read_vec(o, k);
                e.write_vec(d, k, &mut l, v);
            }
        }
    }

    /// `@g bra L` at the end of a segment that ends at `end`.
    fn bra(&mut self, inst: &Inst, to: usize, end: usize, sched: Block) {
        let e = &mut self.e;
        let mut l = e.lanes(inst.guard);
        let taken = e.exec(&mut l);
        let stay = e.b.ins().band_not(l.conv, taken);
        if to == end {
            let next = self.block(end);
            self.e.b.ins().jump(next, &[]);
            return;
        }
        let (to_var, end_var) = (self.masks.park(to), self.masks.park(end));
        if to > end {
            let end_blk = self.block(end);
            let e = &mut self.e;
            // Forward: the taken lanes park at the target.
            let (at, to_var) =
                if inject::on(Bug::FwdIntoLoopHead) && inject::is_loop_head(e.prog, to) {
                    // The planted bug: the lanes skip to the next park point.
                    let i = self.masks.index(to) + 1;
                    match self.masks.points.get(i) {
                        Some(&p) => (p, self.masks.park_at(i)),
                        None => (to, to_var),
                    }
                } else {
                    (to, to_var)
                };
            self.parkable[at] = true;
            let w = to_var.get(e);
            let w = e.b.ins().bor(w, taken);
            to_var.set(e, w);
            e.b.def_var(e.conv, stay);
            e.b.ins().brif(stay, end_blk, &[], sched, &[]);
        } else {
            let to_blk = self.block(to);
            let e = &mut self.e;
            // Backward: the others park after the bra.
            self.parkable[end] = true;
            if inject::on(Bug::FuelRefund) {
                // The planted bug: a taken back edge refunds a step, so a
                // loop of one instruction never runs out of fuel.
                let fuel = self.fuel.get(e);
                let any = e.b.ins().icmp_imm_s(IntCC::NotEqual, taken, 0);
                let back = e.b.ins().uextend(I64, any);
                let fuel = e.b.ins().iadd(fuel, back);
                self.fuel.set(e, fuel);
            }
            if inject::on(Bug::FuelInLoops) {
                // The planted bug: a taken back edge is charged a second
                // step (saturating, so the fuel never wraps around).
                let fuel = self.fuel.get(e);
                let any = e.b.ins().icmp_imm_s(IntCC::NotEqual, taken, 0);
                let extra = e.b.ins().uextend(I64, any);
                let more =
                    e.b.ins()
                        .icmp(IntCC::UnsignedGreaterThanOrEqual, fuel, extra);
                let less = e.b.ins().isub(fuel, extra);
                let fuel = e.b.ins().select(more, less, fuel);
                self.fuel.set(e, fuel);
            }
            let w = end_var.get(e);
            let w = e.b.ins().bor(w, stay);
            end_var.set(e, w);
            e.b.def_var(e.conv, taken);
            let back = e.b.create_block();
            e.b.ins().brif(taken, back, &[], sched, &[]);
            // The runaway bound.
            e.switch_to(back);
            let left = self.entries.get(e);
            let left = e.b.ins().iadd_imm_s(left, -1);
            self.entries.set(e, left);
            let over = e.b.ins().icmp_imm_s(IntCC::SignedLessThan, left, 0);
            let runaway = self.runaway.expect("set before the segments");
            e.b.ins().brif(over, runaway, &[], to_blk, &[]);
        }
    }
}

/// A copy list of [`Helpers::complete`] kept in `sites`: its address, or
/// 0 when it is empty.
fn copy_list(sites: &mut Sites, copies: &[(i64, i64, i64)]) -> i64 {
    if copies.is_empty() {
        return 0;
    }
    let mut words = vec![copies.len() as i64];
    words.extend(copies.iter().flat_map(|&(f, from, to)| [f, from, to]));
    sites.keep(words.into_boxed_slice())
}

/// Lowers a non-control instruction with its family's file.
fn collective_or_glue(e: &mut Emitter, guard: Option<Guard>, op: &Op) {
    match op {
        Op::Shfl(x) => shfl::emit(e, guard, x),
        Op::Vote(x) => vote::emit(e, guard, x),
        Op::Match(x) => matching::emit(e, guard, x),
        Op::Redux(x) => redux::emit(e, guard, x),
        Op::Activemask(x) => activemask::emit(e, guard, x),
        Op::Glue(x) => alu::emit(e, guard, x),
        Op::Control(_) => unreachable!("the driver lowers control flow"),
        Op::LaneOp(_) => unreachable!("refused before lowering (`not_lowered` in lib.rs)"),
    }
}
