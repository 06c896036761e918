//! The warp's width ([`WARP`]) and the PTX types a register is declared
//! with ([`Type`]): their widths, masks, signedness and spellings.

use std::fmt;

/// Number of lanes in a warp.
pub const WARP: usize = 32;

/// A register's declared PTX type (`.reg .TYPE name;`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Type {
    /// `.b32`: untyped 32 bits, compatible with every 32-bit type.
    B32,
    /// `.u32`: unsigned 32-bit integer.
    U32,
    /// `.s32`: signed (two's complement) 32-bit integer.
    S32,
    /// `.f32`: IEEE binary32.
    F32,
    /// `.b64`: untyped 64 bits, compatible with every 64-bit type.
    B64,
    /// `.u64`: unsigned 64-bit integer.
    U64,
    /// `.s64`: signed 64-bit integer.
    S64,
    /// `.pred`: a one-bit predicate (0 or 1).
    Pred,
    /// `.b16`: untyped 16 bits (PTX modules; not in the fuzzed case format).
    B16,
    /// `.u16`: unsigned 16-bit integer.
    U16,
    /// `.s16`: signed 16-bit integer.
    S16,
    /// `.f64`: IEEE binary64.
    F64,
    /// `.b8`: untyped 8 bits (a memory and `cvt` type: `ld.global.u8`).
    B8,
    /// `.u8`: unsigned 8-bit integer.
    U8,
    /// `.s8`: signed 8-bit integer.
    S8,
}

impl Type {
    /// The eight types of the warp instructions (`shfl`, `vote`, `match`,
    /// `redux` and their glue), in the order of the table above. The
    /// thread-level instructions also use [`Type::MODULE_ONLY`] (the
    /// generator draws the 16-bit ones and `.f64` too: `gen/regs.rs`).
    pub const ALL: [Type; 8] = [
        Type::B32,
        Type::U32,
        Type::S32,
        Type::F32,
        Type::B64,
        Type::U64,
        Type::S64,
        Type::Pred,
    ];

    /// The other types: 8- and 16-bit integers and `.f64`, which the
    /// thread-level instructions of kernels and (since the one dialect,
    /// issue #39) of case files use; the name is older than case files
    /// reading them.
    pub const MODULE_ONLY: [Type; 7] = [
        Type::B16,
        Type::U16,
        Type::S16,
        Type::F64,
        Type::B8,
        Type::U8,
        Type::S8,
    ];

    /// Width in bits of a value of this type (1 for `.pred`).
    pub fn bits(self) -> u32 {
        match self {
            Type::B32 | Type::U32 | Type::S32 | Type::F32 => 32,
            Type::B64 | Type::U64 | Type::S64 | Type::F64 => 64,
            Type::B16 | Type::U16 | Type::S16 => 16,
            Type::B8 | Type::U8 | Type::S8 => 8,
            Type::Pred => 1,
        }
    }

    /// Whether it is a signed integer type (`.s8` .. `.s64`).
    pub fn is_signed(self) -> bool {
        matches!(self, Type::S8 | Type::S16 | Type::S32 | Type::S64)
    }

    /// Whether it is a float type (`.f32`, `.f64`).
    pub fn is_float(self) -> bool {
        matches!(self, Type::F32 | Type::F64)
    }

    /// Whether it is an untyped bit type (`.b8` .. `.b64`).
    pub fn is_bits(self) -> bool {
        matches!(self, Type::B8 | Type::B16 | Type::B32 | Type::B64)
    }

    /// Mask of the bits a value of this type occupies in a `u64`.
    pub fn mask(self) -> u64 {
        match self.bits() {
            64 => u64::MAX,
            n => (1u64 << n) - 1,
        }
    }

    /// The untyped bit type of the same width (`.b32`, `.b64`; `.pred`
    /// stays `.pred`).
    pub fn bit_type(self) -> Type {
        match self.bits() {
            8 => Type::B8,
            16 => Type::B16,
            32 => Type::B32,
            64 => Type::B64,
            _ => Type::Pred,
        }
    }

    /// The PTX spelling without the dot (`b32`, `pred`, ...).
    pub fn name(self) -> &'static str {
        match self {
            Type::B32 => "b32",
            Type::U32 => "u32",
            Type::S32 => "s32",
            Type::F32 => "f32",
            Type::B64 => "b64",
            Type::U64 => "u64",
            Type::S64 => "s64",
            Type::Pred => "pred",
            Type::B16 => "b16",
            Type::U16 => "u16",
            Type::S16 => "s16",
            Type::F64 => "f64",
            Type::B8 => "b8",
            Type::U8 => "u8",
            Type::S8 => "s8",
        }
    }

    /// Parses a PTX type name without the dot.
    pub fn from_name(s: &str) -> Option<Type> {
        Some(match s {
            "b32" => Type::B32,
            "u32" => Type::U32,
            "s32" => Type::S32,
            "f32" => Type::F32,
            "b64" => Type::B64,
            "u64" => Type::U64,
            "s64" => Type::S64,
            "pred" => Type::Pred,
            "b16" => Type::B16,
            "u16" => Type::U16,
            "s16" => Type::S16,
            "f64" => Type::F64,
            "b8" => Type::B8,
            "u8" => Type::U8,
            "s8" => Type::S8,
            _ => return None,
        })
    }

    /// PTX operand type compatibility (ISA §6.4.1, "Operand Type
    /// Information"): a register of type `self` may be used where an
    /// instruction of type `want` expects an operand when the sizes agree and
    /// either one of them is a bit-size type, both are integers (signed and
    /// unsigned mix freely), or both are the same float type.
    pub fn compatible(self, want: Type) -> bool {
        if self == Type::Pred || want == Type::Pred {
            return self == want;
        }
        if self.bits() != want.bits() {
            return false;
        }
        let int = |t: Type| !t.is_bits() && !t.is_float();
        self.is_bits() || want.is_bits() || (int(self) && int(want)) || self == want
    }
}

impl fmt::Display for Type {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, ".{}", self.name())
    }
}
