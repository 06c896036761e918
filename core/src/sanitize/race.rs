//! `warp-race`: accesses of different lanes of one warp to the same bytes,
//! at least one a write, with no synchronising point of that warp between
//! them (issue #38, item 2).
//!
//! Under independent thread scheduling (sm_70 and later) the lanes of a
//! warp are ordered only where they synchronise: a `.sync` collective or
//! `bar.warp.sync` (`__syncwarp`) both take part in, or `bar.sync`. The
//! interpreter runs the lanes of a warp in its min-PC order and does not
//! check them against each other (`interp/memory.rs`); this checker does,
//! with a vector clock per lane ([`Clocks`]): at a synchronising point
//! each participant ticks its own entry, then all take the join of their
//! clocks; an earlier access by lane `a` at `a`'s tick `e` is ordered
//! before lane `b`'s access when `b` knows more than `e` of `a`.
//!
//! The lanes of one execution of one instruction are not checked against
//! each other: the interpreter already makes a byte that lanes of one `st`
//! write with different values undefined (`store-clash`), and the same
//! value written by all of them (`flag = 1`) is left alone.

use crate::fxhash::FxHashMap as HashMap;
use crate::ir::WARP;

/// Per lane, its vector clock over the warp's lanes.
#[derive(Clone, Debug)]
pub(crate) struct Clocks {
    vc: Vec<[u32; WARP]>,
}

impl Default for Clocks {
    fn default() -> Self {
        let mut vc = vec![[0u32; WARP]; WARP];
        for (l, c) in vc.iter_mut().enumerate() {
            c[l] = 1;
        }
        Clocks { vc }
    }
}

impl Clocks {
    /// Lane `l`'s own entry: how many synchronising points it passed
    /// (plus one).
    pub fn tick(&self, l: usize) -> u32 {
        self.vc[l][l]
    }

    /// The lanes `participants` synchronise.
    pub fn sync(&mut self, participants: u32) {
        if participants.count_ones() < 2 {
            return;
        }
        let mut m = [0u32; WARP];
        for l in (0..WARP).filter(|l| participants >> l & 1 == 1) {
            self.vc[l][l] += 1;
            for (x, y) in m.iter_mut().zip(self.vc[l].iter()) {
                *x = (*x).max(*y);
            }
        }
        for l in (0..WARP).filter(|l| participants >> l & 1 == 1) {
            self.vc[l] = m;
        }
    }
}

/// One access: lane, its tick, instruction, and which execution.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Access {
    /// The lane.
    pub lane: u32,
    /// Its own clock entry then.
    pub tick: u32,
    /// The instruction.
    pub pc: usize,
    /// The warp step it ran in (lanes of one step are not checked against
    /// each other).
    pub step: u64,
    /// A write.
    pub write: bool,
}

#[derive(Clone, Debug, Default)]
struct History {
    write: Option<Access>,
    reads: Vec<Access>,
}

/// A race found: the earlier access and the later one, at one byte.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Race {
    /// The earlier access.
    pub first: Access,
    /// The later access.
    pub second: Access,
}

/// Every byte's accesses since its last write, per warp of the CTA.
#[derive(Debug, Default)]
pub(crate) struct Bytes {
    map: HashMap<(u32, u8, u64, u64), History>,
}

impl Bytes {
    /// Forgets everything (a new CTA).
    pub fn clear(&mut self) {
        self.map.clear();
    }

    /// Lane `a.lane` of warp `warp` accesses byte `key`; `clocks` are the
    /// warp's. Returns the race this access makes, if any.
    pub fn access(
        &mut self,
        warp: u32,
        key: (u8, u64, u64),
        a: Access,
        clocks: &Clocks,
    ) -> Option<Race> {
        let h = self.map.entry((warp, key.0, key.1, key.2)).or_default();
        let knows = &clocks.vc[a.lane as usize];
        let unordered =
            |e: &Access| e.lane != a.lane && e.step != a.step && knows[e.lane as usize] <= e.tick;
        let mut race = None;
        if let Some(w) = h.write.filter(|w| unordered(w)) {
            race = Some(Race {
                first: w,
                second: a,
            });
        }
        if a.write {
            if race.is_none() {
                race = h.reads.iter().find(|r| unordered(r)).map(|&r| Race {
                    first: r,
                    second: a,
                });
            }
            h.write = Some(a);
            h.reads.clear();
        } else if let Some(r) = h.reads.iter_mut().find(|r| r.lane == a.lane) {
            *r = a;
        } else {
            h.reads.push(a);
        }
        race
    }
}
