//! What the interpreter remembers of a launch's atomics (`atomic.rs`
//! runs them, `memory.rs` checks plain accesses against them): per
//! location, who touched it and how, and what an earlier pass found
//! contested. A leaf: it imports nothing of the interpreter but the access
//! tags (`tag.rs`), so that `memory.rs` can hold a [`Log`] without
//! importing the atomics that use memory.

use super::tag::Tag;
use crate::fxhash::FxHashMap;
use crate::ir::{AtomOp, Type};
use crate::ub::UbRule;
use std::sync::Arc;

/// A location: 0 for global memory (generic addresses), the CTA + 1 for
/// its shared memory; the address (in that space).
pub(super) type Key = (u32, u64);

/// The contested locations of a run, each with whether its final value
/// depends on the order.
pub(super) type Contested = Arc<FxHashMap<Key, bool>>;

/// Who did an atomic.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct Party {
    pub(super) tag: Tag,
    /// Its scope holds its CTA only (`.cta`, `.cluster`).
    pub(super) cta_scope: bool,
}

/// What order-independence an atomic's effect allows.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Class {
    /// A commutative integer operation on this many bits (and signedness
    /// for `min`/`max`).
    Commutes(AtomOp, Type),
    /// One same function: the operation, its type and its operands.
    Same(AtomOp, Type, u64, u64),
    /// Float `add` of this type.
    FloatAdd(Type),
    /// Anything else, or a mix: the order decides.
    Mixed,
}

impl Class {
    pub(super) fn merge(self, other: Class) -> Class {
        if self == other {
            self
        } else {
            Class::Mixed
        }
    }
}

/// What the log knows of one location.
#[derive(Clone, Debug)]
pub(super) struct Entry {
    /// Bytes of its atomics.
    pub(super) size: u64,
    /// The last party, and another one that is not of its warp (as
    /// `memory.rs`'s two readers).
    pub(super) first: Party,
    pub(super) second: Option<Party>,
    pub(super) class: Class,
    /// An `atom` returned a defined old value from it.
    pub(super) returned: bool,
    /// Unordered atomics touched it.
    pub(super) contested: bool,
    /// The float adds' values: the lowest bit's exponent, the sum of
    /// magnitudes, whether one was not finite.
    pub(super) q: i32,
    pub(super) sum: f64,
    pub(super) bad: bool,
}

impl Entry {
    pub(super) fn order_dependent(&self) -> bool {
        match self.class {
            Class::Commutes(..) | Class::Same(..) => false,
            Class::Mixed => true,
            Class::FloatAdd(ty) => {
                let p = if ty == Type::F32 { 24 } else { 53 };
                self.bad || (self.q != i32::MAX && self.sum >= 2f64.powi(p + self.q))
            }
        }
    }

    pub(super) fn unordered(&self, me: Tag) -> Option<Party> {
        [Some(self.first), self.second]
            .into_iter()
            .flatten()
            .find(|p| p.tag.conflicts(me))
    }
}

/// The atomics of a launch so far: per location, who touched it and how,
/// and what an earlier run found contested.
#[derive(Clone, Debug, Default)]
pub struct Log {
    pub(super) entries: FxHashMap<Key, Entry>,
    /// From the run before: the contested locations, each with whether
    /// its final value depends on the order.
    pub(super) known: Option<Contested>,
    pub(super) rerun: bool,
    pub(super) wild: bool,
}

impl Log {
    /// Whether no atomic ran (every kernel without atomics).
    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }

    /// A log that knows the contested locations `c` of a run before.
    pub(super) fn knowing(c: Contested) -> Log {
        Log {
            known: Some(c),
            ..Log::default()
        }
    }

    /// The contested locations, when this run gave out a value (an old
    /// value, or an order-dependent one in memory) before it knew that
    /// its location was contested: the next run must know them from the
    /// start.
    pub(super) fn rerun(&self) -> Option<Contested> {
        if !self.rerun || self.known.is_some() {
            return None;
        }
        let c = self
            .entries
            .iter()
            .filter(|(_, e)| e.contested)
            .map(|(&k, e)| (k, e.order_dependent()))
            .collect();
        Some(Arc::new(c))
    }

    /// Whether a value that depends on the order of atomics has been
    /// returned: addresses with undefined bits are then taken as this
    /// run's order has them (see the module docs).
    pub fn schedule_dependent(&self) -> bool {
        self.wild
    }

    /// A plain access by `me` to `size` bytes at `k`: a race with an
    /// unordered atomic on any of them?
    pub(super) fn check_plain(&self, k: Key, size: u64, me: Tag) -> Result<(), (UbRule, String)> {
        let (space, a) = k;
        let mut start = a & !7;
        while start < a + size {
            if let Some(e) = self.entries.get(&(space, start)) {
                if start + e.size > a && e.unordered(me).is_some() {
                    return Err((
                        UbRule::MemoryRace,
                        format!(
                            "a data race at {a:#x}: a plain access, and an atomic of another warp or CTA with no barrier between"
                        ),
                    ));
                }
            }
            start += 4;
        }
        Ok(())
    }
}
