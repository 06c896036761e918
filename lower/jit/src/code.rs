//! Executable memory holding one compiled warp function, the one call
//! into it, and the host memory a kernel's code may read and write while
//! it runs ([`Lent`], [`Lending`]). This is the only module of the JIT
//! with `unsafe` code.

#![allow(unsafe_code)]

use memmap2::{Mmap, MmapMut};
use std::marker::PhantomData;

/// The signature every compiled warp function has: it takes the warp state
/// buffer (see [`super::layout`]) and returns a status (`emit.rs`'s
/// `status`: 0 finished, 1 out of fuel, ...).
type Entry = unsafe extern "C" fn(state: *mut u8) -> u32;

/// The byte offset in every state buffer of the memory words: what a
/// kernel's code reads to find the memory it may touch
/// ([`Lending::words`]). Written by [`Code::call`] before every call, and
/// by nothing else; `layout.rs` places the rest of the state around them.
/// 16-byte aligned, so that they are whole words of the state buffer.
pub const MEMORY_AT: usize = 1200;

/// How many 64-bit memory words there are: the launch buffers' table and
/// their count, then (address, length) of the parameters, the CTA's
/// static and dynamic shared memory, and the warp's local memory (its
/// lane 0; lane `l` at `l *` the per-lane length).
pub const MEMORY_WORDS: usize = 10;

/// Host memory lent to generated code for `'a`: an exclusive borrow of
/// bytes turned into an address and a length that only generated code
/// uses, within bounds (every access it makes is checked against the
/// length first; `lane_mem.rs`). `#[repr(C)]`: a slice of them is the
/// table of (address, length) pairs the code reads a launch buffer's
/// bounds from.
///
/// One `Lent` may be shared by the threads that run a launch's CTAs (it
/// is `Sync`): they then write the same bytes only when the kernel has a
/// data race, which PTX leaves undefined and the reference reports; the
/// code's plain loads and stores then read stale or mixed bytes, never
/// outside the lent range.
#[repr(C)]
pub struct Lent<'a> {
    ptr: *mut u8,
    len: usize,
    _borrow: PhantomData<&'a mut [u8]>,
}

// SAFETY: a `Lent` holds an exclusive borrow of its bytes for `'a`, so no
// Rust reference reads or writes them meanwhile; the only accesses are
// the generated code's, bounds-checked loads and stores of at most 16
// bytes (see the type's doc for what threads sharing one may do).
unsafe impl Send for Lent<'_> {}
// SAFETY: as for `Send`.
unsafe impl Sync for Lent<'_> {}

impl<'a> Lent<'a> {
    /// Lends `bytes` for `'a`.
    pub fn new(bytes: &'a mut [u8]) -> Lent<'a> {
        Lent {
            ptr: bytes.as_mut_ptr(),
            len: bytes.len(),
            _borrow: PhantomData,
        }
    }

    /// Nothing lent: length 0 (every access falls back to the run time).
    pub fn none() -> Lent<'static> {
        Lent {
            ptr: std::ptr::NonNull::dangling().as_ptr(),
            len: 0,
            _borrow: PhantomData,
        }
    }

    /// The length in bytes.
    pub fn len(&self) -> usize {
        self.len
    }
}

/// What one warp's code may touch during a call: the words [`Code::call`]
/// writes at [`MEMORY_AT`].
#[derive(Clone, Copy)]
pub struct Lending<'a> {
    words: [u64; MEMORY_WORDS],
    _borrow: PhantomData<&'a Lent<'a>>,
}

impl<'a> Lending<'a> {
    /// The launch `buffers` (at `windows::BUFFERS + k * BUFFER_STRIDE`),
    /// the parameters, the CTA's `shared` and `dynamic` shared memory, and
    /// the warp's `local` memory: 32 lanes of `local_size` bytes each.
    ///
    /// Panics when `local` is shorter than 32 lanes of `local_size`.
    pub fn new(
        buffers: &'a [Lent<'a>],
        param: &'a Lent<'a>,
        shared: &'a Lent<'a>,
        dynamic: &'a Lent<'a>,
        local: &'a Lent<'a>,
        local_size: usize,
    ) -> Lending<'a> {
        assert!(
            local_size.checked_mul(32).is_some_and(|n| n <= local.len),
            "the warp's local memory holds its 32 lanes"
        );
        let w = |l: &Lent<'_>| [l.ptr as u64, l.len as u64];
        let [param, shared, dynamic, local] = [param, shared, dynamic, local].map(w);
        Lending {
            words: [
                buffers.as_ptr() as u64,
                buffers.len() as u64,
                param[0],
                param[1],
                shared[0],
                shared[1],
                dynamic[0],
                dynamic[1],
                local[0],
                local_size as u64,
            ],
            _borrow: PhantomData,
        }
    }

    /// The memory words: all lengths 0 when nothing is lent.
    fn words(lending: Option<&Lending<'_>>) -> [u64; MEMORY_WORDS] {
        lending.map_or([0; MEMORY_WORDS], |l| l.words)
    }
}

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

    /// Calls the function on a state buffer, with the memory `lending`
    /// lends (none: every length 0).
    ///
    /// `state` must be the buffer laid out by the same [`super::layout::Layout`]
    /// that the code was compiled for: [`super::WarpState`] guarantees it.
    pub fn call(&self, state: &mut [u128], lending: Option<&Lending<'_>>) -> u32 {
        assert!(
            state.len() * 16 >= MEMORY_AT + 8 * MEMORY_WORDS,
            "a state has room for the memory words"
        );
        // The memory words, written here before every call: the code finds
        // only what is lent now (a `Lending` borrows its memory for longer
        // than this call), or nothing.
        const _: () = assert!(MEMORY_AT.is_multiple_of(16) && MEMORY_WORDS.is_multiple_of(2));
        let words = Lending::words(lending);
        for (i, pair) in words.chunks_exact(2).enumerate() {
            state[MEMORY_AT / 16 + i] = pair[0] as u128 | (pair[1] as u128) << 64;
        }
        // SAFETY: the mapping holds a complete function compiled by
        // Cranelift for the host ISA with the `Entry` signature (system-v
        // calling convention, one pointer argument, one i32 result), and it
        // lives as long as `self`. The code reads and writes `state` at
        // offsets below the layout's size (every lane index it computes
        // is masked to 0..31), which the caller's buffer covers: `WarpState`
        // checks the length against the layout before calling. The buffer
        // is 16-byte aligned (u128 elements) as the vector loads require.
        // Beyond the state, the code reads and writes only the memory the
        // words at `MEMORY_AT` describe, within each range's length (each
        // access is checked first, `lane_mem.rs`): ranges of `Lent`s that
        // the `Lending` borrows for longer than this call, or none.
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
