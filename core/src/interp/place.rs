//! Where a warp stands in its launch ([`WarpPlace`]): each lane's `%tid`,
//! the CTA's and the grid's shape, the warp's index, the lanes that do not
//! exist; what the special registers read.

use crate::ir::{Axis, Special, WARP};
use crate::launch::Launch;

/// Where a warp stands in its launch: what its special registers read.
#[derive(Clone, Debug)]
pub struct WarpPlace {
    /// `%tid` of each lane.
    pub tid: [[u32; 3]; WARP],
    /// `%ntid`: the block's shape.
    pub ntid: [u32; 3],
    /// `%ctaid`.
    pub ctaid: [u32; 3],
    /// `%nctaid`: the grid's shape.
    pub nctaid: [u32; 3],
    /// `%warpid`: the warp's index in its CTA.
    pub warp: u32,
    /// `%nwarpid`: the CTA's number of warps.
    pub nwarps: u32,
    /// Lanes past the block's threads, which do not exist.
    pub absent: u32,
}

impl WarpPlace {
    /// Warp `warp` of CTA `ctaid` of `launch`. Threads are numbered x
    /// fastest, then y, then z, 32 to a warp.
    pub fn new(launch: &Launch, ctaid: [u32; 3], warp: u32) -> WarpPlace {
        let [bx, by, _] = launch.block;
        let threads: u64 = launch.block.iter().map(|&d| d as u64).product();
        let mut tid = [[0u32; 3]; WARP];
        let mut absent = 0u32;
        for (l, t) in tid.iter_mut().enumerate() {
            let lin = warp as u64 * WARP as u64 + l as u64;
            if lin >= threads {
                absent |= 1 << l;
                continue;
            }
            let lin = lin as u32;
            *t = [lin % bx, lin / bx % by, lin / (bx * by)];
        }
        WarpPlace {
            tid,
            ntid: launch.block,
            ctaid,
            nctaid: launch.grid,
            warp,
            nwarps: threads.div_ceil(WARP as u64) as u32,
            absent,
        }
    }

    /// The place of a case (issue #39): one warp of one CTA of 32 threads,
    /// so `%tid.x` is the lane, `%ntid` is (32, 1, 1), `%ctaid` is 0 and
    /// `%nctaid` (1, 1, 1).
    pub fn one_warp() -> WarpPlace {
        WarpPlace {
            tid: std::array::from_fn(|l| [l as u32, 0, 0]),
            ntid: [WARP as u32, 1, 1],
            ctaid: [0; 3],
            nctaid: [1; 3],
            warp: 0,
            nwarps: 1,
            absent: 0,
        }
    }

    /// The value of special register `s` on `lane`.
    pub fn special(&self, s: Special, lane: usize) -> u32 {
        let axis = |a: Axis| a as usize;
        let l = lane as u32;
        match s {
            Special::Tid(a) => self.tid[lane][axis(a)],
            Special::Ntid(a) => self.ntid[axis(a)],
            Special::Ctaid(a) => self.ctaid[axis(a)],
            Special::Nctaid(a) => self.nctaid[axis(a)],
            Special::WarpId => self.warp,
            Special::NWarpId => self.nwarps,
            Special::LanemaskEq => 1 << l,
            Special::LanemaskLe => u32::MAX >> (31 - l),
            Special::LanemaskLt => ((1u64 << l) - 1) as u32,
            Special::LanemaskGe => u32::MAX << l,
            Special::LanemaskGt => ((u32::MAX as u64) << (l + 1)) as u32,
        }
    }
}
