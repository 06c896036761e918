//! The register file of a generated case, by role. *Data* registers (of
//! every type) are what glue and collectives read and write freely.
//! *Control* registers are written only by the code that owns them, so the
//! generator can rely on their values: membermask registers (written just
//! before the collective that reads them), the per-lane group masks (an
//! input), loop counters and loop predicates (one per loop depth), the
//! register of the deliberate-UB membermask, and the probe that the
//! generator's [`Builder`](super::probe::Builder) uses to ask the
//! interpreter which lanes are converged. Unused registers are dropped when
//! the case is finished.

use super::config::{chance, Config};
use super::values;
use crate::ir::{Inputs, Reg, RegDecl, Type};
use arbitrary::{Result, Unstructured};

/// The data register types, in declaration order: the warp instructions'
/// eight, then the 16-bit types and `.f64`, which the rest of the dialect
/// reads and writes (`gen/dialect.rs`).
pub(crate) const TYPES: [Type; 12] = [
    Type::B32,
    Type::U32,
    Type::S32,
    Type::F32,
    Type::B64,
    Type::U64,
    Type::S64,
    Type::Pred,
    Type::B16,
    Type::U16,
    Type::S16,
    Type::F64,
];

/// The 16-bit integer types.
pub(crate) const NARROW_INTS: [Type; 3] = [Type::B16, Type::U16, Type::S16];

/// The 32-bit integer-like types (where `%laneid` and masks fit).
pub(crate) const INT32: [Type; 3] = [Type::B32, Type::U32, Type::S32];

/// The 32-bit types (what `shfl` moves and `match.b32` compares).
pub(crate) const ANY32: [Type; 4] = [Type::B32, Type::U32, Type::S32, Type::F32];

/// The 64-bit types.
pub(crate) const ANY64: [Type; 3] = [Type::B64, Type::U64, Type::S64];

fn prefix(ty: Type) -> &'static str {
    match ty {
        Type::B32 => "%b",
        Type::U32 => "%r",
        Type::S32 => "%s",
        Type::F32 => "%f",
        Type::B64 => "%bd",
        Type::U64 => "%rd",
        Type::S64 => "%sd",
        Type::Pred => "%p",
        Type::B16 => "%h",
        Type::U16 => "%rh",
        Type::S16 => "%sh",
        Type::F64 => "%fd",
        Type::B8 | Type::U8 | Type::S8 => {
            unreachable!("the generator declares no 8-bit register ({ty})")
        }
    }
}

/// The registers of one case, by role.
pub(crate) struct RegFile {
    /// Data registers (`data[i]` has type `TYPES[i]`).
    data: [Vec<Reg>; TYPES.len()],
    /// Membermask registers, each written just before the collective that
    /// reads it.
    pub masks: Vec<Reg>,
    /// Input: each lane's group mask of a partition of the warp.
    pub group: Reg,
    /// The membermask register of the deliberate-UB injection.
    pub ub_mask: Reg,
    /// Loop counters (`.s32`), one per loop depth.
    pub ctr: Vec<Reg>,
    /// Loop predicates, one per loop depth.
    pub lp: Vec<Reg>,
    /// The register the probe `activemask` writes.
    pub probe: Reg,
}

impl RegFile {
    /// Declares the registers of a case and draws the inputs of the data
    /// registers and of the group masks.
    pub fn declare(
        u: &mut Unstructured,
        cfg: &Config,
        max_loops: usize,
    ) -> Result<(RegFile, Vec<RegDecl>, Inputs)> {
        let mut decls: Vec<RegDecl> = Vec::new();
        let mut inputs = Inputs::default();
        let add = |decls: &mut Vec<RegDecl>, name: String, ty: Type| {
            decls.push(RegDecl { name, ty });
            Reg(decls.len() as u32 - 1)
        };
        let mut data: [Vec<Reg>; TYPES.len()] = Default::default();
        for (i, &ty) in TYPES.iter().enumerate() {
            let n = u.int_in_range(cfg.regs_per_type.clone())?;
            for k in 0..n {
                let r = add(&mut decls, format!("{}{k}", prefix(ty)), ty);
                data[i].push(r);
                if chance(u, cfg.input_ratio)? {
                    inputs.lanes.push((r, values::lanes(u, ty)?));
                }
            }
        }
        let masks = (0..3)
            .map(|k| add(&mut decls, format!("%m{k}"), Type::B32))
            .collect();
        let group = add(&mut decls, "%grp".to_string(), Type::B32);
        inputs.lanes.push((group, values::groups(u)?));
        let ub_mask = add(&mut decls, "%mub".to_string(), Type::B32);
        let ctr = (0..max_loops)
            .map(|k| add(&mut decls, format!("%ctr{k}"), Type::S32))
            .collect();
        let lp = (0..max_loops)
            .map(|k| add(&mut decls, format!("%lp{k}"), Type::Pred))
            .collect();
        let probe = add(&mut decls, "%probe".to_string(), Type::B32);
        Ok((
            RegFile {
                data,
                masks,
                group,
                ub_mask,
                ctr,
                lp,
                probe,
            },
            decls,
            inputs,
        ))
    }

    /// Data registers of exactly type `ty` (none for the 8-bit types).
    pub fn of(&self, ty: Type) -> &[Reg] {
        match TYPES.iter().position(|&t| t == ty) {
            Some(i) => &self.data[i],
            None => &[],
        }
    }

    /// Data registers whose type is compatible with an operand of type
    /// `want` (ISA §6.4.1), those of exactly that type first.
    pub fn compatible(&self, want: Type) -> Vec<Reg> {
        let mut v: Vec<Reg> = self.of(want).to_vec();
        for &t in TYPES.iter() {
            if t != want && t.compatible(want) {
                v.extend_from_slice(self.of(t));
            }
        }
        v
    }

    /// A data register for an operand of type `want`: mostly of exactly
    /// that type, sometimes of another compatible one.
    pub fn pick(&self, u: &mut Unstructured, want: Type) -> Result<Reg> {
        let exact = self.of(want);
        if u.ratio(3u8, 4)? {
            return Ok(*u.choose(exact)?);
        }
        Ok(*u.choose(&self.compatible(want))?)
    }

    /// A data register of one of the types `tys` (for operands like `shfl`'s
    /// `a`, which take any 32-bit register).
    pub fn pick_among(&self, u: &mut Unstructured, tys: &[Type]) -> Result<Reg> {
        let ty = *u.choose(tys)?;
        Ok(*u.choose(self.of(ty))?)
    }
}
