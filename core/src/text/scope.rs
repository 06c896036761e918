//! The symbols a PTX module's kernel body may name ([`Scope`]): its
//! `.param`s and variables with their addresses, `WARP_SZ`, the `.func`s
//! a `call` inlines, and the `{ }` blocks open around the statement being
//! read, with the registers and variables each declares. The module front
//! end fills it; the body parser resolves names against it.
//!
//! Blocks are scopes (PTX ISA 9.7.12.1, `{}`: "The curly braces also
//! provide a mechanism for determining the scope of a variable: any
//! variable declared within a scope is not available outside the
//! scope"): a name declared in a block is visible from its declaration to
//! the block's `}`, hides the same name of an enclosing block, and may be
//! declared again in a sibling block (CUB's inline assembly declares
//! `r0` and `p` in one `{ }` after another). Lookups go innermost first.
//!
//! The program keeps one flat register list, so each scoped declaration
//! is its own register there: the first register of a name keeps it;
//! a later one of the same name is `NAME.K` ([`Scope::flat_name`]). PTX
//! identifiers never hold a `.` (ISA 4.4: `[a-zA-Z]{followsym}* |
//! [_$%]{followsym}+`, `followsym = [a-zA-Z0-9_$]`), so `r0.1` can never be
//! a name the source itself declares; the lexer reads it as one word, so
//! a printed program parses back to the same registers (inlined calls name
//! their copies `func.N.reg` the same way).

use crate::ir::{Kernel, Program, Reg, Space, WARP};

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
    /// The `{ }` blocks open now, outermost (the kernel's body) first;
    /// empty in a case file, whose registers are all at one level.
    blocks: Vec<Block>,
    /// Registers whose block has ended: `(name, line declared, line of
    /// the block's `}`)`, for the error of a use after the block.
    ended: Vec<(String, u32, u32)>,
}

/// One open `{ }` block.
#[derive(Clone, Debug, Default)]
struct Block {
    /// The registers declared in it: `(name as written, register, line)`.
    regs: Vec<(String, Reg, u32)>,
    /// How many `symbols` there were when it opened: the variables it
    /// declares are those after.
    symbols: usize,
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

    /// Whether a body's statements are being read (inside at least one
    /// `{ }`): registers are then looked up through the blocks.
    pub(super) fn in_block(&self) -> bool {
        !self.blocks.is_empty()
    }

    /// Opens a `{ }` block.
    pub(super) fn open_block(&mut self) {
        self.blocks.push(Block {
            regs: Vec::new(),
            symbols: self.symbols.len(),
        });
    }

    /// Closes the innermost block (its `}` at line `line`): its registers
    /// and variables are no longer visible.
    pub(super) fn close_block(&mut self, line: u32) {
        let Some(b) = self.blocks.pop() else {
            return;
        };
        self.symbols.truncate(b.symbols);
        self.ended
            .extend(b.regs.into_iter().map(|(n, _, at)| (n, at, line)));
        if self.blocks.is_empty() {
            // The body is over: its registers are another kernel's business.
            self.ended.clear();
        }
    }

    /// The register `name` names here: the innermost open block's
    /// declaration of it, else the next block out's, and so on.
    pub(super) fn reg(&self, name: &str) -> Option<Reg> {
        self.blocks
            .iter()
            .rev()
            .find_map(|b| b.regs.iter().rev().find(|(n, _, _)| n == name))
            .map(|&(_, r, _)| r)
    }

    /// Whether the innermost open block already declares a register
    /// `name`.
    pub(super) fn reg_here(&self, name: &str) -> bool {
        self.blocks
            .last()
            .is_some_and(|b| b.regs.iter().any(|(n, _, _)| n == name))
    }

    /// Whether the innermost open block already declares a variable
    /// `name` (`.shared`, `.local`, a call site's `.param`).
    pub(super) fn variable_here(&self, name: &str) -> bool {
        let from = self.blocks.last().map_or(0, |b| b.symbols);
        self.symbols[from..].iter().any(|(n, _, _)| n == name)
    }

    /// Records that the innermost open block declares register `name`
    /// (written at `line`) as `reg`.
    pub(super) fn bind_reg(&mut self, name: &str, reg: Reg, line: u32) {
        if let Some(b) = self.blocks.last_mut() {
            b.regs.push((name.to_string(), reg, line));
        }
    }

    /// Where `name` was declared, and where its block ended, if it is a
    /// register of a block that has ended (the latest such).
    pub(super) fn ended(&self, name: &str) -> Option<(u32, u32)> {
        self.ended
            .iter()
            .rev()
            .find(|(n, _, _)| n == name)
            .map(|&(_, at, end)| (at, end))
    }

    /// The name a new register declared as `name` gets in `prog`'s flat
    /// list: `name` itself if no register or label has it, else `name.K`
    /// for the least `K >= 1` that none has.
    pub(super) fn flat_name(prog: &Program, name: &str) -> String {
        let free = |n: &str| prog.reg(n).is_none() && !prog.labels.iter().any(|l| l.name == n);
        if free(name) {
            return name.to_string();
        }
        (1u32..)
            .map(|k| format!("{name}.{k}"))
            .find(|n| free(n))
            .expect("some suffix is free")
    }
}
