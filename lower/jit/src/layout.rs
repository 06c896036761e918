//! Where each piece of warp state lives in the buffer the compiled code
//! works on. All offsets are fixed per program, so every access is
//! `state + constant` (or `+ lane * size` with the lane masked to 0..31).

use super::code::{MEMORY_AT, MEMORY_WORDS};
use warp_core::ir::{LaneOpKind, Op, Program, Special, Type, WARP};

/// Byte offsets into the state buffer.
#[derive(Clone, Debug)]
pub struct Layout {
    /// Per register, its offset: 32 lanes of u32 (32-bit types and
    /// `.pred` as 0/1) or of u64 (64-bit types).
    pub regs: Vec<u32>,
    /// The program's lane masks (park points, arrivals: `emit.rs`'s
    /// `Mask`), 32-bit each, zeroed by the code on entry; `masks_len` bytes
    /// (a multiple of 16). Empty until [`Layout::with_masks`].
    pub masks: u32,
    /// Bytes of the masks.
    pub masks_len: u32,
    /// The special registers of a kernel's warp (`%tid.x` ...), 32 × u32
    /// each in the order of `Special::ALL`, when the program reads any.
    pub specials: Option<u32>,
    /// Total size in bytes (a multiple of 16).
    pub size: u32,
}

/// The memory words' indices ([`Layout::mem`]), as `code.rs`'s
/// `Lending` writes them.
pub mod mem {
    /// The address of the launch buffers' table: (address, length) pairs.
    pub const BUFFERS: u32 = 0;
    /// How many launch buffers there are.
    pub const NBUF: u32 = 1;
    /// The parameters' address (then their length).
    pub const PARAM: u32 = 2;
    /// The CTA's static shared memory's address (then its length).
    pub const SHARED: u32 = 4;
    /// The CTA's dynamic shared memory's address (then its length).
    pub const DYNAMIC: u32 = 6;
    /// The warp's local memory's address (lane 0's), then the bytes per
    /// lane.
    pub const LOCAL: u32 = 8;
}

/// Number of 32 × u64 scratch arrays.
pub const SCRATCH_ARRAYS: u32 = 4;

/// Whether a register of this type is stored as 64-bit lanes.
pub fn wide(ty: Type) -> bool {
    ty.bits() == 64
}

impl Layout {
    /// Per lane, the `membermask` it gave when it arrived at a `.sync`
    /// collective where it waits (32 × u32), after the scratch arrays.
    pub const WMASK: u32 = SCRATCH_ARRAYS * 8 * WARP as u32;
    /// The mask of exited lanes (u32).
    pub const EXITED: u32 = Self::WMASK + 4 * WARP as u32;
    /// On running out of fuel: the index of the instruction that would
    /// have run next (u32).
    pub const FAIL_PC: u32 = Self::EXITED + 4;
    /// Remaining fuel (u64).
    pub const FUEL: u32 = Self::EXITED + 8;
    /// A program compiled in parts (`parts.rs`): the running group when
    /// one part hands the run to another; and the running group an
    /// `arrive` call that merged parked lanes gives back (`sched_helpers.rs`)
    /// (u32).
    pub const CONV: u32 = Self::EXITED + 16;
    /// A program compiled in parts: the park point (its index among the
    /// park points) where the next part goes on (u32).
    pub const NEXT: u32 = Self::EXITED + 20;
    /// A program compiled in parts: taken backward branches left before
    /// the run is a runaway (i64; `emit.rs`'s `entries`).
    pub const ENTRIES: u32 = Self::EXITED + 24;
    /// A kernel's warp that stopped at `bar.sync` goes on where it stopped
    /// (its lanes released from the barrier by the host) rather than from
    /// the start: not 0 (u32; `emit.rs`'s resume entry, `parts.rs`).
    pub const RESUME: u32 = Self::EXITED + 32;
    /// The memory words (`code.rs`: [`MEMORY_WORDS`] u64s, written by every
    /// call): where a kernel's launch buffers, parameters, shared and
    /// local memory are, and their lengths.
    pub const MEMORY: u32 = MEMORY_AT as u32;
    /// The end of the fixed part: the registers start here.
    const FIXED: u32 = (Self::MEMORY + 8 * MEMORY_WORDS as u32).next_multiple_of(16);

    /// The offset of memory word `i` (`mem::*`).
    pub const fn mem(i: u32) -> i32 {
        (Self::MEMORY + 8 * i) as i32
    }

    /// Lays out the state of `prog`.
    pub fn new(prog: &Program) -> Layout {
        const {
            assert!(
                Self::RESUME + 16 == Self::MEMORY,
                "the memory words follow RESUME"
            );
        }
        // The fixed part first (the same offsets in every program): the
        // fast-compile tier's shared helpers (`outline.rs`) address it
        // without knowing the program, and the host writes a run's exited
        // lanes and fuel with constant offsets.
        let mut off = Self::FIXED;
        let mut regs = Vec::with_capacity(prog.regs.len());
        for r in &prog.regs {
            regs.push(off);
            off += if wide(r.ty) { 8 } else { 4 } * WARP as u32;
        }
        let reads_specials = prog
            .insts
            .iter()
            .any(|i| matches!(&i.op, Op::LaneOp(x) if matches!(x.kind, LaneOpKind::Special(_))));
        let specials = reads_specials.then_some(off);
        if reads_specials {
            off += (Special::ALL.len() * 4 * WARP) as u32;
        }
        Layout {
            specials,
            masks: off,
            masks_len: 0,
            regs,
            size: off,
        }
    }

    /// This layout with room for `n` lane masks at its end.
    pub fn with_masks(mut self, n: usize) -> Layout {
        self.masks = self.size;
        self.masks_len = (4 * n as u32).next_multiple_of(16);
        self.size += self.masks_len;
        self
    }

    /// Offset of scratch array `i` (32 × u64 each, for collectives): the
    /// fixed part starts with them, at offset 0.
    pub fn scratch(&self, i: u32) -> u32 {
        assert!(i < SCRATCH_ARRAYS);
        i * 8 * WARP as u32
    }
}

/// The `size`-byte value (4 or 8 bytes, little endian) at byte offset
/// `off` of a state buffer. `off` is a multiple of `size`, as the layout
/// places every value, so the value lies within one 16-byte word.
pub fn read_word(state: &[u128], off: usize, size: usize) -> u64 {
    debug_assert!((size == 4 || size == 8) && off.is_multiple_of(size));
    let mask = u64::MAX >> (64 - 8 * size);
    (state[off / 16] >> (8 * (off % 16))) as u64 & mask
}

/// Sets the `size`-byte value at byte offset `off` of a state buffer to
/// the low `size` bytes of `v` (see [`read_word`]).
pub fn write_word(state: &mut [u128], off: usize, size: usize, v: u64) {
    debug_assert!((size == 4 || size == 8) && off.is_multiple_of(size));
    let mask = (u64::MAX >> (64 - 8 * size)) as u128;
    let (w, sh) = (off / 16, 8 * (off % 16));
    state[w] = (state[w] & !(mask << sh)) | ((v as u128 & mask) << sh);
}
