//! The symbols a PTX module's kernel body may name ([`Scope`]): its
//! `.param`s and variables with their addresses, `WARP_SZ`, and the
//! `.func`s a `call` inlines. The module front end fills it; the body
//! parser resolves names against it.

use crate::ir::{Kernel, Space, WARP};

/// The symbols a body may name: `.param`s, variables and `WARP_SZ`.
#[derive(Clone, Debug, Default)]
pub(super) struct Scope {
    /// `(name, space, address)`: an offset in its space for `.param`,
    /// `.shared` and `.local`, a generic address for `.global`/`.const`.
    pub(super) symbols: Vec<(String, Space, u64)>,
    /// The `.func`s defined so far (a `call` inlines one).
    pub(super) funcs: Vec<Kernel>,
    /// Calls inlined so far (to name each copy's registers apart).
    pub(super) calls: u32,
}

impl Scope {
    /// A symbol's space and address.
    pub(super) fn symbol(&self, name: &str) -> Option<(Space, u64)> {
        self.symbols
            .iter()
            .rev()
            .find(|(n, _, _)| n == name)
            .map(|&(_, s, a)| (s, a))
    }

    /// The value a symbol stands for as an operand: a variable's address
    /// (`mov.u32 %r1, smem;`), or `WARP_SZ` (32).
    pub(super) fn constant(&self, name: &str) -> Option<u64> {
        if name == "WARP_SZ" {
            return Some(WARP as u64);
        }
        self.symbol(name).map(|(_, a)| a)
    }
}
