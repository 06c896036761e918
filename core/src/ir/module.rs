//! A PTX module as compilers emit it (issue #13): `.entry` kernels with
//! their `.param` lists, `.shared`/`.global`/`.const` variables, each
//! kernel's body a [`Program`] of the same IR the case format uses, plus
//! the lane ops of [`super::LaneOp`] (PTX's thread-level instructions).
//!
//! Symbols are resolved when the module is parsed: a `.param` name in
//! `[name+8]` is an offset in the kernel's parameter space, a `.shared`
//! variable an offset in the CTA's shared space, a `.global`/`.const`
//! variable its address in the generic space (see [`windows`]).

use super::{Program, Space, Type, Version};

/// Where each state space sits in the 64-bit *generic* address space the
/// engines model. `cvta` adds or subtracts a window's base; a generic
/// `ld`/`st` goes to the space whose window holds the address. The launch
/// buffers and `.global` variables are at their own generic addresses
/// (`cvta.to.global` is the identity, as on the GPU's unified address
/// space).
pub mod windows {
    /// Module `.const` variables start here.
    pub const CONST: u64 = 0x0000_0008_0000_0000;
    /// Module `.global` variables start here.
    pub const GLOBAL_VARS: u64 = 0x0000_0010_0000_0000;
    /// Launch buffer `k` starts at `BUFFERS + k * BUFFER_STRIDE`.
    pub const BUFFERS: u64 = 0x0000_0020_0000_0000;
    /// The distance between two launch buffers' starts (4 GiB).
    pub const BUFFER_STRIDE: u64 = 0x0000_0001_0000_0000;
    /// A CTA's shared space, as seen through generic addresses.
    pub const SHARED: u64 = 0x0000_7000_0000_0000;
    /// A thread's local space, as seen through generic addresses.
    pub const LOCAL: u64 = 0x0000_7100_0000_0000;
    /// The size of the shared and local windows (4 GiB).
    pub const WINDOW: u64 = 0x0000_0001_0000_0000;
    /// The offset in a CTA's shared space where `.extern .shared` arrays
    /// (the launch's dynamic shared memory, `Launch::shared` bytes) start:
    /// after any static shared memory a kernel can have.
    pub const DYNAMIC_SHARED: u64 = 0x0100_0000;

    /// Where `space`'s window starts in the generic address space (what
    /// `cvta` adds or takes away): shared and local memory have their
    /// windows, and a global address is its own generic one (0).
    pub fn base(space: super::Space) -> u64 {
        use super::Space;
        match space {
            Space::Shared => SHARED,
            Space::Local => LOCAL,
            Space::Global | Space::Const | Space::Param | Space::Generic => 0,
        }
    }
}

/// A `.param` of a kernel.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Param {
    /// Its name as written.
    pub name: String,
    /// Its element type (`.u64` for a pointer).
    pub ty: Type,
    /// Bytes (element size times the array length, `.b8 p[16]` → 16).
    pub size: u64,
    /// Byte offset in the parameter space.
    pub offset: u64,
}

/// A `.shared`, `.global`, `.const` or `.local` variable.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Variable {
    /// Its name as written.
    pub name: String,
    /// Its element type.
    pub ty: Type,
    /// Size in bytes.
    pub size: u64,
    /// Its address: an offset in its space for `.shared`/`.local`, a
    /// generic address for `.global`/`.const`.
    pub address: u64,
    /// The initial bytes (`= {...}`), little-endian; `None`: uninitialised
    /// (undefined, except `.global`/`.const` which PTX zero-fills).
    pub init: Option<Vec<u8>>,
}

/// One `.entry` kernel (or `.func`, which a kernel cannot call yet).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Kernel {
    /// Its name.
    pub name: String,
    /// Line of the `.entry` directive.
    pub line: u32,
    /// Parameters, in order, with their offsets.
    pub params: Vec<Param>,
    /// A `.func`'s return values (`.func (.param .b32 r) f(...)`), laid
    /// out after the parameters; empty for a kernel.
    pub returns: Vec<Param>,
    /// Bytes of the parameter space.
    pub param_size: u64,
    /// The body.
    pub program: Program,
    /// `.shared` variables it can use (the module's and its own), with
    /// their offsets in the CTA's shared space.
    pub shared: Vec<Variable>,
    /// Bytes of shared space per CTA.
    pub shared_size: u64,
    /// `.local` variables, with their offsets in each thread's local space.
    pub local: Vec<Variable>,
    /// Bytes of local space per thread.
    pub local_size: u64,
}

/// A parsed PTX module.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Module {
    /// `.version`.
    pub version: Version,
    /// `.target`.
    pub target: super::Target,
    /// `.address_size` (64 unless written).
    pub address_size: u32,
    /// The `.entry` kernels.
    pub kernels: Vec<Kernel>,
    /// The `.func` functions (parsed and checked; `call` is not supported).
    pub funcs: Vec<Kernel>,
    /// Module `.global` and `.const` variables at their generic addresses.
    pub globals: Vec<Variable>,
}

impl Module {
    /// The kernel named `name`.
    pub fn kernel(&self, name: &str) -> Option<&Kernel> {
        self.kernels.iter().find(|k| k.name == name)
    }
}
