//! Who accessed a byte, for the race checks of `memory.rs` and the
//! atomics' log (`atomic_log.rs`): a leaf, so that both can use it.

/// Who accessed a byte: CTA (+1, 0 = nobody), warp in the CTA, barrier
/// epoch of that CTA.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(super) struct Tag {
    pub(super) cta: u32,
    pub(super) warp: u32,
    pub(super) epoch: u32,
}

impl Tag {
    /// Whether an access by `other` conflicts with this earlier one.
    pub(super) fn conflicts(self, other: Tag) -> bool {
        self.cta != 0
            && (self.cta != other.cta || (self.warp != other.warp && self.epoch == other.epoch))
    }
}
