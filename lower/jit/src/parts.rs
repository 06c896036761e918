//! A program's machine code as one function, or for a big program as
//! several (`emit.rs`'s `parts`: parts of a bounded number of
//! instructions, and the completion of rendezvous), and the dispatcher
//! that runs the parts: it calls the part of the park point where the run
//! goes on, the completion code when a part asks for it, and does the
//! scheduler's work (the lowest park point with waiting lanes) itself.
//!
//! Why: Cranelift's time and memory per instruction grow with the size of
//! the function. mix200 repeated to 200,000 instructions, one function of
//! 920,000 Cranelift instructions, took 1.3–2.3 s and a peak of 450–600 MiB
//! to compile (issue #14); in parts, each function stays small.

use super::code::{Code, Lending};
use super::emit::status;
use super::layout::{read_word, write_word, Layout};

/// The machine code of a program.
pub enum Body {
    /// One function runs the whole program.
    Whole(Code),
    /// The program in parts.
    Parts(Parts),
}

/// The functions of a program compiled in parts, and what the dispatcher
/// needs to know of them.
pub struct Parts {
    /// Part `k` runs the segments of the park points in
    /// `[k * size, (k + 1) * size)`.
    pub parts: Vec<Code>,
    /// The completion of rendezvous, called in order (none when the
    /// program has no `.sync` collectives).
    pub completion: Vec<Code>,
    /// Instructions per part.
    pub size: usize,
    /// The park points (pcs), as in the split.
    pub points: Vec<u32>,
    /// The scheduler's table: per park point where lanes can wait, in
    /// program order, its index and its waiting-lanes mask's offset
    /// (`emit.rs`'s `schedule`).
    pub schedule: Vec<(u32, u32)>,
    /// The state offsets of the masks of lanes waiting at `bar.sync`.
    pub barriers: Vec<u32>,
}

impl Body {
    /// Runs the program on `state`, whose exited lanes and fuel are set
    /// (or that stopped at `bar.sync` and has `RESUME` set), with the
    /// memory `lending` lends: one of `emit.rs`'s [`status`] codes `DONE`,
    /// `OUT_OF_FUEL`, `RUNAWAY`, `LOST` or `BARRIER`.
    #[inline]
    pub fn run(&self, state: &mut [u128], lay: &Layout, lending: Option<&Lending<'_>>) -> u32 {
        match self {
            Body::Whole(code) => code.call(state, lending),
            Body::Parts(parts) => parts.run(state, lay, lending),
        }
    }

    /// How many functions there are.
    pub fn functions(&self) -> usize {
        match self {
            Body::Whole(_) => 1,
            Body::Parts(p) => p.parts.len() + p.completion.len(),
        }
    }

    /// Size of the machine code in bytes.
    pub fn len(&self) -> usize {
        match self {
            Body::Whole(code) => code.len(),
            Body::Parts(p) => p.parts.iter().chain(&p.completion).map(Code::len).sum(),
        }
    }
}

impl Parts {
    /// [`Body::run`] of a program in parts: the dispatcher (kept out of
    /// line, so that a whole program's run is one call).
    fn run(&self, state: &mut [u128], lay: &Layout, lending: Option<&Lending<'_>>) -> u32 {
        let mut at = if read_word(state, Layout::RESUME as usize, 4) != 0 {
            // Released from `bar.sync`: the scheduler picks up the lanes
            // the host parked.
            status::SCHEDULE
        } else {
            // The program's entry, as a whole program's entry block does
            // it: every mask empty, every present lane at pc 0.
            let masks = lay.masks as usize / 16..(lay.masks + lay.masks_len) as usize / 16;
            state[masks].fill(0);
            let absent = read_word(state, Layout::EXITED as usize, 4);
            let fuel = read_word(state, Layout::FUEL as usize, 8);
            write_word(state, Layout::CONV as usize, 4, !absent);
            write_word(state, Layout::NEXT as usize, 4, 0);
            let bound = fuel.wrapping_add(1);
            write_word(state, Layout::ENTRIES as usize, 8, bound);
            status::GO
        };
        loop {
            at = match at {
                status::GO => {
                    let i = read_word(state, Layout::NEXT as usize, 4) as usize;
                    match self
                        .points
                        .get(i)
                        .and_then(|&p| self.parts.get(p as usize / self.size))
                    {
                        Some(code) => code.call(state, lending),
                        None => status::LOST,
                    }
                }
                status::COMPLETE => {
                    let mut at = status::SCHEDULE;
                    for code in &self.completion {
                        at = code.call(state, lending);
                        if at != status::SCHEDULE {
                            break;
                        }
                    }
                    at
                }
                // The lowest park point with waiting lanes runs next; with
                // none, the warp is finished.
                status::SCHEDULE => match self
                    .schedule
                    .iter()
                    .find(|&&(_, mask)| read_word(state, mask as usize, 4) != 0)
                {
                    Some(&(i, _)) => {
                        write_word(state, Layout::CONV as usize, 4, 0);
                        write_word(state, Layout::NEXT as usize, 4, i as u64);
                        status::GO
                    }
                    None if self
                        .barriers
                        .iter()
                        .any(|&m| read_word(state, m as usize, 4) != 0) =>
                    {
                        return status::BARRIER
                    }
                    None => return status::DONE,
                },
                done => return done,
            }
        }
    }
}
