//! Pass 1: delete instructions, delta-debugging style.
//!
//! Chunks of the whole body first, then of half, a quarter, ... down to
//! single instructions. Each sweep goes from the end backwards: deleting a
//! late instruction often makes the ones that fed it dead, and those come
//! next. Labels move with the instructions; a label strictly inside a
//! deleted chunk goes with it, and so does every `bra` to it.

use crate::reduce::edit::remove_range;
use crate::reduce::search::Search;

/// Runs the pass.
pub(crate) fn run(s: &mut Search<'_, '_>) {
    let n = s.cur().program.insts.len();
    if n == 0 {
        return;
    }
    let mut size = n;
    loop {
        let mut end = s.cur().program.insts.len();
        while end > 0 && !s.exhausted() {
            let start = end.saturating_sub(size);
            let cand = remove_range(s.cur(), start, end);
            s.try_case(cand);
            end = start.min(s.cur().program.insts.len());
        }
        if size == 1 || s.exhausted() {
            return;
        }
        size = size.div_ceil(2);
    }
}
