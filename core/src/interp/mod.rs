//! The reference interpreter: one warp of 32 lanes, per-lane values with
//! their *defined bits*, min-PC scheduling, waiting `.sync` collectives,
//! fuel, and undefined behaviour as an outcome of the program.
//!
//! # The execution model (sm_70 and later)
//!
//! Since sm_70 the threads of a warp are scheduled independently and PTX
//! promises no reconvergence. The interpreter runs *one* legal execution —
//! deterministic **min-PC**: among the lanes that can run, those with the
//! lowest program counter execute the next instruction together (they are
//! *converged* there) — and decides with the rules below which programs are
//! legal and which results every legal execution shares. See
//! `schedule.rs` for the scheduler, `collective.rs` for the rendezvous of
//! `.sync` collectives, `converge.rs` for what is certain about which
//! lanes run together, and `bits.rs` for definedness below the lane.
//!
//! - A `.sync` collective is a **rendezvous**: "`shfl.sync` will cause
//!   executing thread to wait until all non-exited threads corresponding to
//!   `membermask` have executed `shfl.sync` with the same qualifiers and
//!   same `membermask` value before resuming execution" (and likewise the
//!   `vote.sync`, `match.sync` and `redux.sync` pages). The lanes that
//!   reach it wait while the others run on; it executes once every member
//!   has arrived — at this instruction or another with the same qualifiers
//!   and `membermask`, as an H200 does — or exited. Members that can never
//!   arrive are undefined behaviour (`sync-deadlock`).
//! - Values that depend on which lanes happen to run together
//!   (`activemask`, what the deprecated `shfl`/`vote` see of other lanes)
//!   are defined only on the bits every legal schedule agrees on.
//! - A guard `@p` that is false makes a converged lane *predicated off*: it
//!   does not execute, and moves on with the others; at a `.sync`
//!   collective it does not arrive (it may arrive later or exit).
//!
//! For `.target sm_6x` and below, the warp runs in lockstep: min-PC is the
//! hardware's schedule, so convergence-dependent values are defined, and
//! "all threads in `membermask` must execute the same `shfl.sync`
//! instruction in convergence" (no waiting).
//!
//! The semantics of each instruction family live in their own file and
//! follow the PTX ISA pages' formulas.
//!
//! # Files
//!
//! This file only declares the others and re-exports what is public.
//! Imports go one way: the scheduler calls the families, the families use
//! the rendezvous mechanism and the warp's state, and those use the leaves.
//! - `run.rs`: [`Interp`], a run of one warp program (its two passes, the
//!   [`Answers`] it leaves); `engine.rs`: [`InterpEngine`], the interpreter
//!   as an engine; `fuel.rs`: [`DEFAULT_FUEL`] and [`OutOfFuel`];
//! - `schedule.rs`: the min-PC scheduler, which runs each instruction's
//!   family;
//! - the families: `alu.rs` (the glue), `shfl.rs`, `vote.rs`,
//!   `matching.rs`, `redux.rs`, `activemask.rs`, and for PTX modules
//!   `lane_ops.rs` (PTX's thread-level instructions), `memory_ops.rs`
//!   (`ld`, `st`, `cvta`) and `atomic.rs` (`atom`, `red`, fences, and what
//!   every order of a launch's atomics agrees on);
//! - `collective.rs`: the rendezvous of `.sync` collectives;
//! - `warp.rs`: the warp's state, and what one step sees;
//! - `converge.rs` (which lanes certainly run together), `bits.rs`
//!   (definedness below the lane), `float.rs` (f32 bit patterns),
//!   `lanes.rs` (lane masks as sets), `target.rs` (`.target`/`.version`
//!   gating);
//! - kernels: `grid.rs` (a whole launch, [`run_launch`]), `memory.rs` (the
//!   memory and its access rules), `place.rs` ([`WarpPlace`], a warp's
//!   place in the launch);
//! - `watch.rs`: an observer of a run, which `warpdiff check`
//!   ([`crate::sanitize`]) follows undefined values with.

mod activemask;
pub mod alu;
pub mod approx;
mod atomic;
mod atomic_log;
pub(crate) mod bits;
pub(crate) mod collective;
pub(crate) mod converge;
mod engine;
mod float;
pub(crate) mod fuel;
mod grid;
pub mod lane_ops;
pub(crate) mod lanes;
mod matching;
pub mod memory;
mod memory_ops;
mod place;
mod redux;
mod run;
pub(crate) mod schedule;
pub(crate) mod shfl;
mod softfloat;
mod tag;
mod target;
mod vote;
pub(crate) mod warp;
pub(crate) mod watch;

pub use atomic::eval as atomic_eval;
pub use engine::InterpEngine;
pub use fuel::{OutOfFuel, DEFAULT_FUEL};
pub use grid::{prepare, run_launch};
pub(crate) use grid::{run_launch_watched, Watching};
pub use place::WarpPlace;
pub use run::{Answers, Interp};
