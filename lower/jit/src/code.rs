//! Executable memory holding one compiled warp function, and the one call
//! into it. This is the only module of the JIT with `unsafe` code.

#![allow(unsafe_code)]

use memmap2::{Mmap, MmapMut};

/// The signature every compiled warp function has: it takes the warp state
/// buffer (see [`super::layout`]) and returns a status (`emit.rs`'s
/// `status`: 0 finished, 1 out of fuel, ...).
type Entry = unsafe extern "C" fn(state: *mut u8) -> u32;

/// Machine code in an executable mapping; freed (unmapped) on drop.
pub struct Code {
    map: Mmap,
}

impl Code {
    /// Copies position-independent machine code (no relocations) into a
    /// fresh mapping and makes it executable.
    pub fn new(bytes: &[u8]) -> std::io::Result<Code> {
        let mut m = MmapMut::map_anon(bytes.len().max(1))?;
        m[..bytes.len()].copy_from_slice(bytes);
        Ok(Code {
            map: m.make_exec()?,
        })
    }

    /// Calls the function on a state buffer.
    ///
    /// `state` must be the buffer laid out by the same [`super::layout::Layout`]
    /// that the code was compiled for: [`super::WarpState`] guarantees it.
    pub fn call(&self, state: &mut [u128]) -> u32 {
        // SAFETY: the mapping holds a complete function compiled by
        // Cranelift for the host ISA with the `Entry` signature (system-v
        // calling convention, one pointer argument, one i32 result), and it
        // lives as long as `self`. The code only reads and writes `state`
        // at offsets below the layout's size (every lane index it computes
        // is masked to 0..31), which the caller's buffer covers: `WarpState`
        // checks the length against the layout before calling. The buffer
        // is 16-byte aligned (u128 elements) as the vector loads require.
        unsafe {
            let f: Entry = std::mem::transmute::<*const u8, Entry>(self.map.as_ptr());
            f(state.as_mut_ptr().cast::<u8>())
        }
    }

    /// The address of the function: what generated code calls (the
    /// fast-compile tier's helpers, `outline.rs`). Valid while `self` lives.
    pub fn addr(&self) -> usize {
        self.map.as_ptr() as usize
    }

    /// Size of the machine code in bytes.
    pub fn len(&self) -> usize {
        self.map.len()
    }
}
