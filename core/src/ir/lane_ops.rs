//! The lane ops: PTX's thread-level (non-warp) instructions, which each
//! lane computes on its own, as they surround warp code in compiler
//! output (issue #13): memory (`ld`, `st`, `cvta`), special registers,
//! conversions, wide and divided integer arithmetic, `.f64` and rounded
//! float arithmetic, bit manipulation, `mov.b64 {a,b}` packing and
//! barriers.
//!
//! They only come from PTX modules ([`crate::text::parse_module`]): the
//! fuzzed case format never generates them, so the generator, the reducer
//! and the JIT's fuzz tier need not know them. One [`LaneOp`] holds its
//! operands uniformly (destinations and sources with the type each is
//! written or read as), so that the operand walks, the printer and the
//! engines share one shape; [`LaneOpKind`] says what it computes.

use super::{ApproxFn, AtomSpace, Atomic, CmpOp, Dest, Fence, Operand, Reg, Type};

/// A PTX state space (ISA §5.1).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Space {
    /// `.param`: kernel parameters (read-only in a kernel).
    Param,
    /// `.global`: the buffers the launch passes, and `.global` variables.
    Global,
    /// `.shared`: per CTA.
    Shared,
    /// `.local`: per thread.
    Local,
    /// `.const`: read-only module constants.
    Const,
    /// No space qualifier: a generic address, which maps to one of the
    /// above by the window it falls in.
    Generic,
}

impl Space {
    /// The PTX spelling without the dot (`global`; `generic` is not written).
    pub fn name(self) -> &'static str {
        match self {
            Space::Param => "param",
            Space::Global => "global",
            Space::Shared => "shared",
            Space::Local => "local",
            Space::Const => "const",
            Space::Generic => "generic",
        }
    }

    /// Parses a space qualifier without the dot.
    pub fn from_name(s: &str) -> Option<Space> {
        Some(match s {
            "param" => Space::Param,
            "global" => Space::Global,
            "shared" => Space::Shared,
            "local" => Space::Local,
            "const" => Space::Const,
            _ => return None,
        })
    }
}

impl AtomSpace {
    /// The state space.
    pub fn space(self) -> Space {
        match self {
            AtomSpace::Global => Space::Global,
            AtomSpace::Shared => Space::Shared,
            AtomSpace::Generic => Space::Generic,
        }
    }
}

/// A memory operand `[base+offset]`: a register holding an address, plus a
/// byte offset; a symbol (`[smem+8]`, `[k_param_0]`) is resolved to its
/// address in its space when the module is parsed, so it is an offset with
/// no base.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Address {
    /// The register holding the address, if any.
    pub base: Option<Reg>,
    /// The byte offset (a symbol's address included).
    pub offset: i64,
}

/// A dimension of `%tid` and friends.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Axis {
    /// `.x`.
    X,
    /// `.y`.
    Y,
    /// `.z`.
    Z,
}

/// A special register read by `mov` (ISA §10, "Special Registers").
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Special {
    /// `%tid.{x,y,z}`: the thread's index in its CTA.
    Tid(Axis),
    /// `%ntid.{x,y,z}`: the CTA's shape.
    Ntid(Axis),
    /// `%ctaid.{x,y,z}`: the CTA's index in the grid.
    Ctaid(Axis),
    /// `%nctaid.{x,y,z}`: the grid's shape.
    Nctaid(Axis),
    /// `%warpid`: the warp's index in its CTA (PTX: "volatile", it may
    /// change; here it is the linear thread index / 32).
    WarpId,
    /// `%nwarpid`: the number of warps of a CTA (the PTX value is the
    /// maximum the hardware has; here the CTA's warp count).
    NWarpId,
    /// `%lanemask_eq`: the bit of the lane itself.
    LanemaskEq,
    /// `%lanemask_le`: bits at and below the lane.
    LanemaskLe,
    /// `%lanemask_lt`: bits below the lane.
    LanemaskLt,
    /// `%lanemask_ge`: bits at and above the lane.
    LanemaskGe,
    /// `%lanemask_gt`: bits above the lane.
    LanemaskGt,
}

impl Special {
    /// Every special register, for the parser.
    pub const ALL: [Special; 19] = [
        Special::Tid(Axis::X),
        Special::Tid(Axis::Y),
        Special::Tid(Axis::Z),
        Special::Ntid(Axis::X),
        Special::Ntid(Axis::Y),
        Special::Ntid(Axis::Z),
        Special::Ctaid(Axis::X),
        Special::Ctaid(Axis::Y),
        Special::Ctaid(Axis::Z),
        Special::Nctaid(Axis::X),
        Special::Nctaid(Axis::Y),
        Special::Nctaid(Axis::Z),
        Special::WarpId,
        Special::NWarpId,
        Special::LanemaskEq,
        Special::LanemaskLe,
        Special::LanemaskLt,
        Special::LanemaskGe,
        Special::LanemaskGt,
    ];

    /// The PTX spelling (`%tid.x`, `%lanemask_lt`).
    pub fn name(self) -> String {
        let axis = |a: Axis| match a {
            Axis::X => "x",
            Axis::Y => "y",
            Axis::Z => "z",
        };
        match self {
            Special::Tid(a) => format!("%tid.{}", axis(a)),
            Special::Ntid(a) => format!("%ntid.{}", axis(a)),
            Special::Ctaid(a) => format!("%ctaid.{}", axis(a)),
            Special::Nctaid(a) => format!("%nctaid.{}", axis(a)),
            Special::WarpId => "%warpid".into(),
            Special::NWarpId => "%nwarpid".into(),
            Special::LanemaskEq => "%lanemask_eq".into(),
            Special::LanemaskLe => "%lanemask_le".into(),
            Special::LanemaskLt => "%lanemask_lt".into(),
            Special::LanemaskGe => "%lanemask_ge".into(),
            Special::LanemaskGt => "%lanemask_gt".into(),
        }
    }
}

/// A float rounding modifier (ISA "Rounding Modifiers"): `.rn` (nearest
/// even), `.rz` (toward zero), `.rm` (toward −∞), `.rp` (toward +∞). On a
/// float→integer `cvt` they are written `.rni/.rzi/.rmi/.rpi`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Rounding {
    /// Round to nearest, ties to even.
    Rn,
    /// Round toward zero.
    Rz,
    /// Round toward negative infinity.
    Rm,
    /// Round toward positive infinity.
    Rp,
}

impl Rounding {
    /// The spelling without the dot (`rn`).
    pub fn name(self) -> &'static str {
        match self {
            Rounding::Rn => "rn",
            Rounding::Rz => "rz",
            Rounding::Rm => "rm",
            Rounding::Rp => "rp",
        }
    }
}

/// A float operation of [`LaneOpKind::Float`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum FloatOp {
    /// `add`.
    Add,
    /// `sub`.
    Sub,
    /// `mul`.
    Mul,
    /// `fma` / `mad` (rounded once).
    Fma,
    /// `div` (IEEE, `.rn/.rz/.rm/.rp`).
    Div,
    /// `neg`.
    Neg,
    /// `abs`.
    Abs,
    /// `min`.
    Min,
    /// `max`.
    Max,
    /// `sqrt` (IEEE, rounded).
    Sqrt,
    /// An approximate function (`ex2.approx`, `div.full`, ...: `approx.rs`);
    /// its [`LaneOpKind::Float`] has rounding `.rn` (not written) and no
    /// `.sat`.
    Approx(ApproxFn),
}

/// An integer operation of [`LaneOpKind::Int`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum IntOp {
    /// `mul.wide`: the full product of two n-bit values, 2n bits.
    MulWide,
    /// `mad.lo`: `a*b + c`, low n bits.
    MadLo,
    /// `mad.hi`: high n bits of `a*b`, plus `c`.
    MadHi,
    /// `mad.wide`: `a*b` (2n bits) `+ c` (2n bits).
    MadWide,
    /// `div`: truncating division; by zero undefined.
    Div,
    /// `rem`: remainder with the sign of `a`; by zero undefined.
    Rem,
    /// `neg` on an integer.
    Neg,
    /// `abs` on an integer.
    Abs,
    /// `brev`: bit reversal.
    Brev,
    /// `clz`: leading zeros (a `.u32` count).
    Clz,
    /// `bfe`: extract `c` bits from position `b` of `a`, sign-extended for
    /// the signed types (`b`, `c` are `.u32` "restricted to the 8-bit value
    /// range 0..255": an immediate past it does not parse, a register
    /// value past it makes the lane's result undefined).
    Bfe,
    /// `bfi f, a, b, c, d`: `b` with `d` low bits of `a` inserted at
    /// position `c` (`c`, `d` are `.u32` in 0..255, as for [`IntOp::Bfe`]).
    Bfi,
    /// `prmt.b32 d, a, b, c` (default mode): byte `i` of `d` is the byte of
    /// `{b, a}` that nibble `i` of `c` selects, sign-replicated when its
    /// bit 3 is set.
    Prmt,
    /// `shf.{l,r}{.clamp,.wrap}.b32 d, a, b, c`: funnel shift of the 64
    /// bits `{b, a}` by `c` (`.clamp`: at most 32; `.wrap`: `c & 31`); `.l`
    /// keeps the upper 32 bits, `.r` the lower.
    Shf {
        /// `.l` (else `.r`).
        left: bool,
        /// `.clamp` (else `.wrap`).
        clamp: bool,
    },
    /// `bfind`: the position of the most significant non-sign bit
    /// (`0xffffffff` if none); `.shiftamt`: its left-shift amount.
    Bfind {
        /// `.shiftamt`.
        shiftamt: bool,
    },
    /// `bmsk.{clamp,wrap}.b32 d, a, b`: a mask of `b` bits from position
    /// `a` (PTX ISA 7.6, sm_70; ISA "Integer Arithmetic Instructions:
    /// bmsk"): `a1 = a & 0x1f; mask0 = (~0) << a1; b1 = b & 0x1f;
    /// sum = a1 + b1; mask1 = (~0) << sum`; with `.clamp`, `a >= 32` makes
    /// `mask0 = 0` and `a >= 32` or `b >= 32` an overflow; "if
    /// (sum-overflow || bit-position-overflow || bit-width-overflow) mask1
    /// = 0; else if (b1 == 0) mask1 = ~0; d = mask0 & ~mask1". (CUB's
    /// radix sort uses it.)
    // Last, so that the variants before it hash as they did (the fuzz
    // digest hashes the IR).
    Bmsk {
        /// `.clamp` (else `.wrap`).
        clamp: bool,
    },
}

/// What a [`LaneOp`] instruction does, with the modifiers that change it.
/// The operand types are in [`LaneOp::dests`] and [`LaneOp::srcs`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum LaneOpKind {
    /// `ld.space.type d, [addr];` (the destination register may be wider
    /// than the memory type: zero- or sign-extended by the type), or
    /// `ld.space.v2/.v4.type {d0, d1, ...}, [addr]`: element `k` from byte
    /// `k * size`, the whole vector aligned to its size.
    Ld(Space),
    /// `st.space.type [addr], a;` or `st.space.v2/.v4.type [addr], {a, b, ...}`.
    St(Space),
    /// `cvta.space.size d, a` (`to == false`: a space address to generic)
    /// or `cvta.to.space.size d, a` (generic to the space).
    Cvta {
        /// The space converted from or to.
        space: Space,
        /// `.to`: generic → space.
        to: bool,
    },
    /// `mov.type d, %special;`
    Special(Special),
    /// `cvt{.rnd}{.ftz}{.sat}.dtype.atype d, a;`
    Cvt {
        /// The rounding modifier, when written (`.rni` is `Rn` with
        /// `int_round`).
        rnd: Option<Rounding>,
        /// The float→integer spelling `.rni/.rzi/.rmi/.rpi`, or for a
        /// float→float `cvt` of the same size, rounding to an integral value.
        int_round: bool,
        /// `.ftz`: subnormal inputs and results flush to sign-preserving zero.
        ftz: bool,
        /// `.sat`: clamp to the destination range (floats: to [0.0, 1.0]).
        sat: bool,
    },
    /// Integer arithmetic beyond the glue: `mul.wide`, `mad`, `div`, `rem`,
    /// `neg`/`abs`, bit manipulation. The instruction type is `srcs[0]`'s.
    Int(IntOp),
    /// Float arithmetic on `.f64`, or on `.f32` with a rounding modifier
    /// other than `.rn`, `.ftz` or `.sat`.
    Float {
        /// The operation.
        op: FloatOp,
        /// The rounding (`.rn` when not written).
        rnd: Rounding,
        /// `.ftz`.
        ftz: bool,
        /// `.sat`: clamp the result to [0.0, 1.0].
        sat: bool,
    },
    /// `setp.cmp.f64 p, a, b;` (ordered comparisons, as `.f32`).
    FSetp(CmpOp),
    /// `mov.bN d, {a, b, ...};`: pack the sources, the first in the low bits.
    Pack,
    /// `mov.bN {d0, d1, ...}, a;`: unpack, `d0` gets the low bits.
    Unpack,
    /// `bar.sync a{, b}` / `barrier.sync{.aligned} a{, b}`: wait until every
    /// non-exited thread of the CTA has arrived. (`ret` in a kernel is
    /// parsed as `exit`: the thread ends.)
    Bar,
    /// `atom`/`red` (`ir/atomic.rs`): `dests` is the old value (`atom`
    /// only), `srcs` `b` (and `c` for `.cas`), `addr` the location.
    Atom(Atomic),
    /// `membar`/`fence` (`ir/atomic.rs`): no operands.
    Fence(Fence),
}

/// A lane op (a thread-level instruction) with its operands.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct LaneOp {
    /// What it does.
    pub kind: LaneOpKind,
    /// The opcode as written (`ld.global.u32`, `cvt.rzi.s32.f32`), for
    /// printing and diagnostics.
    pub opcode: String,
    /// Destinations, each with the type it is written as.
    pub dests: Vec<(Dest, Type)>,
    /// Sources, each with the type it is read as.
    pub srcs: Vec<(Operand, Type)>,
    /// The memory operand of `ld`/`st`.
    pub addr: Option<Address>,
}

impl LaneOp {
    /// Whether it is a `bar.sync`/`barrier.sync`: lanes wait there for the
    /// whole CTA, so it ends a straight-line segment like a collective.
    pub fn is_barrier(&self) -> bool {
        self.kind == LaneOpKind::Bar
    }

    /// The state space an `ld` (`true`) or `st` (`false`) accesses (an
    /// `atom`/`red` writes: `false`); `None` for the instructions that
    /// access no memory.
    pub fn access(&self) -> Option<(Space, bool)> {
        match self.kind {
            LaneOpKind::Ld(s) => Some((s, true)),
            LaneOpKind::St(s) => Some((s, false)),
            LaneOpKind::Atom(a) => Some((a.space.space(), false)),
            LaneOpKind::Special(_)
            | LaneOpKind::Cvta { .. }
            | LaneOpKind::Cvt { .. }
            | LaneOpKind::Int(_)
            | LaneOpKind::Float { .. }
            | LaneOpKind::FSetp(_)
            | LaneOpKind::Pack
            | LaneOpKind::Unpack
            | LaneOpKind::Bar
            | LaneOpKind::Fence(_) => None,
        }
    }
}
