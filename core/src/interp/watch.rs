//! Calling a run's observer ([`Watch`], declared with the warp that holds
//! it): before and after each warp step and around each completed `.sync`
//! rendezvous, with read access to the warp. `warpdiff check`
//! ([`crate::sanitize`]) follows undefined values with it (their origins,
//! where they escape, races between the lanes of one warp). A run without
//! one pays one test of an `Option` per step and per rendezvous: nothing
//! else of the interpreter changes.

use super::warp::{Warp, Watch};

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
