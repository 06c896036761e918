//! An observer of a run ([`Watch`]): called before and after each warp
//! step and around each completed `.sync` rendezvous, with read access to
//! the warp. `warpdiff check` ([`crate::sanitize`]) follows undefined
//! values with it (their origins, where they escape, races between the
//! lanes of one warp). A run without one pays one test of an `Option` per
//! step and per rendezvous: nothing else of the interpreter changes.

use super::collective::Rendezvous;
use super::warp::Warp;
use std::any::Any;

/// What a run tells an observer. Every call sees the warp as it is at
/// that moment; none may change it.
pub(crate) trait Watch: Send {
    /// The lanes `conv` are about to execute the instruction at `pc`.
    fn before(&mut self, w: &Warp, pc: usize, conv: u32);
    /// The lanes `conv` executed the instruction at `pc` (a `.sync`
    /// collective only arrived there: its results come with
    /// [`Watch::after_rendezvous`]). `ub` says whether the step ended the
    /// run with undefined behaviour.
    fn after(&mut self, w: &Warp, pc: usize, conv: u32, ub: bool);
    /// A rendezvous completed and is about to run.
    fn before_rendezvous(&mut self, w: &Warp, rv: &Rendezvous);
    /// The rendezvous ran: its participants' results are written.
    fn after_rendezvous(&mut self, w: &Warp, rv: &Rendezvous);
    /// The observer, to take back its concrete type at the end.
    fn into_any(self: Box<Self>) -> Box<dyn Any>;
}

/// Calls `f` with the warp's observer, if it has one. Out of line and
/// cold: the scheduler's loop only tests the `Option` (a run without an
/// observer keeps its code as it was).
#[cold]
#[inline(never)]
pub(crate) fn notify(w: &mut Warp, f: impl FnOnce(&mut dyn Watch, &Warp)) {
    if let Some(mut watch) = w.watch.take() {
        f(&mut *watch, w);
        w.watch = Some(watch);
    }
}
