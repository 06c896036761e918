//! The vocabulary of atomics and fences (issue #37): `atom` and `red`
//! ([`Atomic`], carried by [`super::LaneOpKind::Atom`]) and `membar` /
//! `fence` ([`Fence`], [`super::LaneOpKind::Fence`]).
//!
//! The ISA's `atom` page ("Parallel Synchronization and Communication
//! Instructions: atom"): "Atomically loads the original value at location
//! a into destination register d, performs a reduction operation with
//! operand b and the value in location a, and stores the result of the
//! specified operation at location a, overwriting the original value",
//! with
//!
//! ```text
//! atomic {
//!     d = *a;
//!     *a = (operation == cas) ? operation(*a, b, c)
//!                             : operation(*a, b);
//! }
//! where
//!     inc(r, s)  = (r >= s) ? 0 : r+1;
//!     dec(r, s)  = (r==0 || r > s)  ? s : r-1;
//!     exch(r, s) =  s;
//!     cas(r,s,t) = (r == s) ? t : r;
//! ```
//!
//! `red` is the same without `d` ("`*a = operation(*a, b);`"). "atom with
//! scalar type may be used only with `.global` and `.shared` spaces and
//! with generic addressing, where the address points to `.global` or
//! `.shared` space." "If the `.sem` qualifier is absent, `.relaxed` is
//! assumed by default", and "If the `.scope` qualifier is absent, `.gpu`
//! scope is assumed by default."
//!
//! The types each operation takes ([`AtomOp::takes`]) follow the page:
//! "The bit-size operations are `.and`, `.or`, `.xor`, `.cas`
//! (compare-and-swap), and `.exch` (exchange). The integer operations are
//! `.add`, `.inc`, `.dec`, `.min`, `.max`", `.inc`/`.dec` on `.u32`,
//! `.add` also on `.f32` and `.f64` ("The floating-point operation `.add`
//! operation rounds to nearest even. Current implementation of
//! `atom.add.f32` on global memory flushes subnormal inputs and results to
//! sign-preserving zero; whereas `atom.add.f32` on shared memory supports
//! subnormal inputs and results and doesn't flush them to zero.").

use super::types::Type;

/// The state space of an atomic: "atom with scalar type may be used only
/// with `.global` and `.shared` spaces and with generic addressing, where
/// the address points to `.global` or `.shared` space". (As a
/// [`super::Space`]: `LaneOp::access`.)
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum AtomSpace {
    /// `.global`.
    Global,
    /// `.shared` (`.shared::cta`).
    Shared,
    /// No space: a generic address, which must fall in the shared window
    /// or on global memory.
    Generic,
}

/// The operation of an `atom`/`red`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum AtomOp {
    /// `.add` (integer: wrapping; `.f32`/`.f64`: rounded to nearest even).
    Add,
    /// `.min` (signed or unsigned by the type).
    Min,
    /// `.max` (signed or unsigned by the type).
    Max,
    /// `.inc`: `(r >= s) ? 0 : r+1`.
    Inc,
    /// `.dec`: `(r==0 || r > s) ? s : r-1`.
    Dec,
    /// `.and`.
    And,
    /// `.or`.
    Or,
    /// `.xor`.
    Xor,
    /// `.exch`: the new value is `b`.
    Exch,
    /// `.cas`: `(r == b) ? c : r` (only `atom`).
    Cas,
}

impl AtomOp {
    /// Every operation, for the parser and the form lists.
    pub const ALL: [AtomOp; 10] = [
        AtomOp::Add,
        AtomOp::Min,
        AtomOp::Max,
        AtomOp::Inc,
        AtomOp::Dec,
        AtomOp::And,
        AtomOp::Or,
        AtomOp::Xor,
        AtomOp::Exch,
        AtomOp::Cas,
    ];

    /// The spelling without the dot (`add`).
    pub fn name(self) -> &'static str {
        match self {
            AtomOp::Add => "add",
            AtomOp::Min => "min",
            AtomOp::Max => "max",
            AtomOp::Inc => "inc",
            AtomOp::Dec => "dec",
            AtomOp::And => "and",
            AtomOp::Or => "or",
            AtomOp::Xor => "xor",
            AtomOp::Exch => "exch",
            AtomOp::Cas => "cas",
        }
    }

    /// The operation spelled `s` (without the dot).
    pub fn from_name(s: &str) -> Option<AtomOp> {
        AtomOp::ALL.into_iter().find(|o| o.name() == s)
    }

    /// Whether the ISA gives this operation type `ty` (scalar forms):
    /// bit-size operations on `.b32`/`.b64`, `.add` on
    /// `.u32/.s32/.u64/.f32/.f64`, `.min`/`.max` on `.u32/.s32/.u64/.s64`,
    /// `.inc`/`.dec` on `.u32`.
    pub fn takes(self, ty: Type) -> bool {
        match self {
            AtomOp::And | AtomOp::Or | AtomOp::Xor | AtomOp::Exch | AtomOp::Cas => {
                matches!(ty, Type::B32 | Type::B64)
            }
            AtomOp::Add => matches!(
                ty,
                Type::U32 | Type::S32 | Type::U64 | Type::F32 | Type::F64
            ),
            AtomOp::Min | AtomOp::Max => {
                matches!(ty, Type::U32 | Type::S32 | Type::U64 | Type::S64)
            }
            AtomOp::Inc | AtomOp::Dec => ty == Type::U32,
        }
    }

    /// The number of value operands (`b`, or `b, c` for `.cas`).
    pub fn operands(self) -> usize {
        if self == AtomOp::Cas {
            2
        } else {
            1
        }
    }
}

/// A memory-ordering qualifier (`.sem`) of an atomic or a fence.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Sem {
    /// `.relaxed` (an atomic's default).
    Relaxed,
    /// `.acquire`.
    Acquire,
    /// `.release`.
    Release,
    /// `.acq_rel`.
    AcqRel,
    /// `.sc` (fences only).
    Sc,
}

impl Sem {
    /// The spelling without the dot.
    pub fn name(self) -> &'static str {
        match self {
            Sem::Relaxed => "relaxed",
            Sem::Acquire => "acquire",
            Sem::Release => "release",
            Sem::AcqRel => "acq_rel",
            Sem::Sc => "sc",
        }
    }

    /// The qualifier spelled `s` (without the dot).
    pub fn from_name(s: &str) -> Option<Sem> {
        [
            Sem::Relaxed,
            Sem::Acquire,
            Sem::Release,
            Sem::AcqRel,
            Sem::Sc,
        ]
        .into_iter()
        .find(|x| x.name() == s)
    }
}

/// A scope qualifier (`.scope`): the threads that the operation is
/// atomic (or a fence orders) with respect to.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum MemScope {
    /// `.cta`: the threads of the CTA.
    Cta,
    /// `.cluster`: the threads of the cluster (a launch here has clusters
    /// of one CTA, so it is `.cta`'s set).
    Cluster,
    /// `.gpu`: every thread of the launch (an atomic's default).
    Gpu,
    /// `.sys`: every thread of the program, the host's included.
    Sys,
}

impl MemScope {
    /// The spelling without the dot.
    pub fn name(self) -> &'static str {
        match self {
            MemScope::Cta => "cta",
            MemScope::Cluster => "cluster",
            MemScope::Gpu => "gpu",
            MemScope::Sys => "sys",
        }
    }

    /// The scope spelled `s` (without the dot).
    pub fn from_name(s: &str) -> Option<MemScope> {
        [
            MemScope::Cta,
            MemScope::Cluster,
            MemScope::Gpu,
            MemScope::Sys,
        ]
        .into_iter()
        .find(|x| x.name() == s)
    }
}

/// An `atom` or `red`: the operation, the space, whether it returns the
/// old value, and its ordering qualifiers. The type is the operands'
/// ([`super::LaneOp::srcs`]`[0].1`); `atom` has one destination, the old
/// value; `red` none.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Atomic {
    /// The operation.
    pub op: AtomOp,
    /// `.global`, `.shared` or generic.
    pub space: AtomSpace,
    /// `atom` (the old value is returned) rather than `red`.
    pub returns: bool,
    /// `.sem` as written (`None`: `.relaxed`).
    pub sem: Option<Sem>,
    /// `.scope` as written (`None`: `.gpu`).
    pub scope: Option<MemScope>,
}

impl Atomic {
    /// The scope it is atomic with respect to (`.gpu` when not written).
    pub fn effective_scope(&self) -> MemScope {
        self.scope.unwrap_or(MemScope::Gpu)
    }
}

/// A memory fence: `membar.{cta,gl,sys}` or `fence{.sem}.scope`. ISA,
/// "membar/fence": "The membar instruction guarantees that prior memory
/// accesses requested by this thread are performed at the specified level,
/// before later memory operations requested by this thread"; "On sm_70 and
/// higher membar is a synonym for fence.sc". What it means for the
/// reference is `interp/atomic.rs`'s business (nothing the interpreter's
/// race tracker orders by).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Fence {
    /// `.sc` for `membar` and `fence.sc`, else `.acq_rel` (and the newer
    /// `.acquire`/`.release`).
    pub sem: Sem,
    /// `.cta` (`membar.cta`), `.gpu` (`membar.gl`), `.sys`, `.cluster`.
    pub scope: MemScope,
    /// Written `membar` (else `fence`).
    pub membar: bool,
}

impl Atomic {
    /// The opcode in the ISA's order, `atom{.sem}{.scope}{.space}.op.type`
    /// (the qualifiers written, none added), for form names.
    pub fn opcode(&self, ty: Type) -> String {
        let mut s = if self.returns { "atom" } else { "red" }.to_string();
        if let Some(sem) = self.sem {
            s.push('.');
            s.push_str(sem.name());
        }
        if let Some(scope) = self.scope {
            s.push('.');
            s.push_str(scope.name());
        }
        match self.space {
            AtomSpace::Global => s.push_str(".global"),
            AtomSpace::Shared => s.push_str(".shared"),
            AtomSpace::Generic => {}
        }
        format!("{s}.{}{ty}", self.op.name())
    }
}

impl Fence {
    /// The opcode: `membar.{cta,gl,sys}` or `fence.sem.scope`.
    pub fn opcode(&self) -> String {
        if self.membar {
            let level = match self.scope {
                MemScope::Cta | MemScope::Cluster => "cta",
                MemScope::Gpu => "gl",
                MemScope::Sys => "sys",
            };
            format!("membar.{level}")
        } else {
            format!("fence.{}.{}", self.sem.name(), self.scope.name())
        }
    }
}
