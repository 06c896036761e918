//! Numeric literals: parsing them for a register type and printing them back.

use crate::ir::{Bits, Type};

/// Where a literal appears: an instruction operand follows PTX's rules,
/// a `.lanes`/`.expect` value may also give an `.f32` as its raw bits.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Place {
    /// An instruction's immediate operand.
    Operand,
    /// A `.lanes` or `.expect` value.
    LaneValue,
}

fn hex(digits: &str, width: usize, text: &str) -> Result<u64, String> {
    if digits.len() != width || !digits.chars().all(|c| c.is_ascii_hexdigit()) {
        return Err(format!(
            "bad number `{text}`: expected exactly {width} hex digits after the prefix"
        ));
    }
    u64::from_str_radix(digits, 16).map_err(|_| format!("bad number `{text}`"))
}

fn is_float_literal(text: &str) -> bool {
    let t = text.strip_prefix('-').unwrap_or(text);
    !t.starts_with("0x") && !t.starts_with("0X") && (t.contains('.') || t.contains(['e', 'E']))
}

/// Parses `text` as a value of type `ty`, returning its bits (truncated to
/// the type's width, two's complement for negative integers).
///
/// Accepted: decimal (`12`, `-1`), hex (`0x1f`), `0fXXXXXXXX` (f32 bits),
/// `0dXXXXXXXXXXXXXXXX` (64-bit bits) and, for `.f32`, decimal float literals
/// (`1.5`, `-0.0`). `.pred` takes `0` or `1`. Plain integers are bits; as an
/// instruction operand of an `.f32` instruction an integer is rejected, as in
/// PTX (write `0f3f800000` or `1.0`).
pub fn parse_value(text: &str, ty: Type, place: Place) -> Result<u64, String> {
    let bits = ty.bits();
    let bad = || format!("bad number `{text}` for a {ty} value");
    if ty == Type::Pred {
        // PTX has no predicate immediates; `.lanes`/`.expect` write 0 or 1.
        return match (place, text) {
            (Place::Operand, _) => {
                Err("a .pred operand must be a register, not an immediate".to_string())
            }
            (Place::LaneValue, "0") => Ok(0),
            (Place::LaneValue, "1") => Ok(1),
            (Place::LaneValue, _) => Err(format!("bad .pred value `{text}`: write 0 or 1")),
        };
    }
    if let Some(d) = text.strip_prefix("0f").or_else(|| text.strip_prefix("0F")) {
        if bits != 32 {
            return Err(format!(
                "`{text}` is a 32-bit literal; a {ty} value needs 64 bits (0d...)"
            ));
        }
        return hex(d, 8, text);
    }
    if let Some(d) = text.strip_prefix("0d").or_else(|| text.strip_prefix("0D")) {
        if bits != 64 {
            return Err(format!(
                "`{text}` is a 64-bit literal; a {ty} value has 32 bits"
            ));
        }
        return hex(d, 16, text);
    }
    if is_float_literal(text) && ty == Type::F64 {
        let v: f64 = text.parse().map_err(|_| bad())?;
        return Ok(v.to_bits());
    }
    if is_float_literal(text) {
        if ty != Type::F32 {
            return Err(format!("float literal `{text}` for a {ty} value"));
        }
        // PTX reads a float literal as a double and rounds it to f32.
        let v: f64 = text.parse().map_err(|_| bad())?;
        return Ok((v as f32).to_bits() as u64);
    }
    if ty.is_float() && place == Place::Operand {
        return Err(format!(
            "integer `{text}` as a {ty} operand: write 0fXXXXXXXX / 0dXXXXXXXXXXXXXXXX (bits) or a float like 1.0"
        ));
    }
    let (neg, digits) = match text.strip_prefix('-') {
        Some(d) => (true, d),
        None => (false, text),
    };
    let mag = if let Some(h) = digits
        .strip_prefix("0x")
        .or_else(|| digits.strip_prefix("0X"))
    {
        if h.is_empty() {
            return Err(bad());
        }
        u64::from_str_radix(h, 16).map_err(|_| bad())?
    } else {
        digits.parse::<u64>().map_err(|_| bad())?
    };
    let max = ty.mask();
    if neg {
        // The magnitude of a negative literal must fit the signed range.
        let limit = 1u64 << (bits - 1);
        if mag > limit {
            return Err(format!("`{text}` does not fit in {bits} bits"));
        }
        Ok(mag.wrapping_neg() & max)
    } else if mag > max {
        Err(format!("`{text}` does not fit in {bits} bits"))
    } else {
        Ok(mag)
    }
}

/// Prints a value of type `ty` so that [`parse_value`] reads the same bits:
/// `.f32` as `0fXXXXXXXX`, `.pred` as 0/1, integers in decimal below 256
/// and in hex from there (masks and bit patterns read better in hex).
pub fn format_value(v: u64, ty: Type) -> String {
    match ty {
        Type::F32 => format!("0f{:08x}", v as u32),
        Type::F64 => format!("0d{v:016x}"),
        Type::Pred => format!("{}", v & 1),
        Type::B32
        | Type::U32
        | Type::S32
        | Type::B64
        | Type::U64
        | Type::S64
        | Type::B16
        | Type::U16
        | Type::S16
        | Type::B8
        | Type::U8
        | Type::S8 => {
            if v < 256 {
                format!("{v}")
            } else {
                format!("0x{v:x}")
            }
        }
    }
}

/// Prints a lane as `.expect` writes it: its value when every bit is
/// defined, `_` when none is, else `VALUE:MASK` (in the type's bit type).
pub fn format_bits(b: Bits, ty: Type) -> String {
    match b.as_full(ty) {
        Some(x) => format_value(x, ty),
        None if b.defined & ty.mask() == 0 => "_".to_string(),
        None => format!(
            "{}:{}",
            format_value(b.value & ty.mask(), ty.bit_type()),
            format_value(b.defined & ty.mask(), ty.bit_type())
        ),
    }
}
