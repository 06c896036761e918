//! The search of `warpdiff diff --gpu-batch-file FILE --reduce-batch`
//! ([`crate::cmd::reduce_batch`]), apart from any GPU: which of a batch's
//! other cases (its "mates", by index, in batch order) a divergence needs.
//! A test runs a subset of the mates (with the diverged case, in batch
//! order) and says whether the diverged case still differs. Cheap
//! structural cuts come first (named subsets of the mates, each tried
//! against what is kept so far), then delta debugging (ddmin, Zeller and
//! Hildebrandt 2002) over what is left, keeping the order. Every test is
//! bounded by a deadline and a test count; when either is hit the search
//! stops with the smallest subset known to differ.

use std::collections::HashMap;
use std::time::Instant;

/// How far a search may go.
#[derive(Clone, Copy, Debug)]
pub struct Bound {
    /// No test starts at or after this instant.
    pub until: Instant,
    /// At most this many tests in all (the first, of every mate, included).
    pub max_tests: usize,
    /// The `--seconds` the deadline came from, for the message.
    pub seconds: u64,
}

/// What a search found.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Found {
    /// Whether the diverged case differs with every mate (the first test):
    /// when not, nothing was reduced and `kept` is every mate.
    pub reproduced: bool,
    /// The smallest subset of the mates known to make the diverged case
    /// differ (batch order).
    pub kept: Vec<usize>,
    /// Tests run (each a batch on the GPU).
    pub tests: usize,
    /// One line per step that kept fewer mates, in order.
    pub steps: Vec<String>,
    /// Why the search stopped before it was done, if it did.
    pub stopped: Option<String>,
}

/// A search in progress: the test, its answers so far, the bound.
struct Search<F> {
    test: F,
    bound: Bound,
    tests: usize,
    seen: HashMap<Vec<usize>, bool>,
    stopped: Option<String>,
}

impl<F: FnMut(&[usize]) -> bool> Search<F> {
    /// Whether the diverged case differs with `mates`; `None` once the
    /// bound is hit (the test is not run). A subset asked again is
    /// answered from the first answer.
    fn differs(&mut self, mates: &[usize]) -> Option<bool> {
        if let Some(&d) = self.seen.get(mates) {
            return Some(d);
        }
        if self.stopped.is_none() {
            if self.tests >= self.bound.max_tests {
                self.stopped = Some(format!(
                    "the test cap was reached ({} tests, --max-tests)",
                    self.bound.max_tests
                ));
            } else if Instant::now() >= self.bound.until {
                self.stopped = Some(format!(
                    "the time bound was reached ({} s, --seconds) after {} test(s)",
                    self.bound.seconds, self.tests
                ));
            }
        }
        if self.stopped.is_some() {
            return None;
        }
        self.tests += 1;
        let d = (self.test)(mates);
        self.seen.insert(mates.to_vec(), d);
        Some(d)
    }
}

/// Reduces `mates` (indices, in batch order): first the whole set (it must
/// make the diverged case differ, else nothing is reduced), then each of
/// `cuts` (a name and a subset of the mates) intersected with what is kept
/// so far, kept when it still differs, then ddmin over what is left.
/// `test` runs a subset and says whether the diverged case differs.
pub fn reduce(
    mates: &[usize],
    cuts: &[(String, Vec<usize>)],
    bound: Bound,
    test: impl FnMut(&[usize]) -> bool,
) -> Found {
    let mut s = Search {
        test,
        bound,
        tests: 0,
        seen: HashMap::new(),
        stopped: None,
    };
    let mut kept = mates.to_vec();
    let mut steps = Vec::new();
    let done = |s: Search<_>, kept, steps, reproduced| Found {
        reproduced,
        kept,
        tests: s.tests,
        steps,
        stopped: s.stopped,
    };
    match s.differs(&kept) {
        Some(true) => {}
        Some(false) | None => return done(s, kept, steps, false),
    }
    for (name, cut) in cuts {
        let cand: Vec<usize> = kept.iter().copied().filter(|i| cut.contains(i)).collect();
        if cand.is_empty() || cand.len() == kept.len() {
            let what = if cand.is_empty() { "none" } else { "all" };
            steps.push(format!(
                "{name}: {what} of the {} kept mate(s), not tried",
                kept.len()
            ));
            continue;
        }
        match s.differs(&cand) {
            Some(true) => {
                steps.push(format!(
                    "{name}: {} mate(s) still differ (of {})",
                    cand.len(),
                    kept.len()
                ));
                kept = cand;
            }
            Some(false) => steps.push(format!("{name}: {} mate(s) agree", cand.len())),
            None => return done(s, kept, steps, true),
        }
    }
    let mut n = 2usize;
    while kept.len() >= 2 {
        let parts = split(&kept, n);
        let mut next: Option<(Vec<usize>, usize, &str)> = None;
        for p in &parts {
            match s.differs(p) {
                Some(true) => {
                    next = Some((p.clone(), 2, "a part"));
                    break;
                }
                Some(false) => {}
                None => return done(s, kept, steps, true),
            }
        }
        // With two parts each complement is the other part, tried above.
        if next.is_none() && n > 2 {
            for p in &parts {
                let rest: Vec<usize> = kept.iter().copied().filter(|i| !p.contains(i)).collect();
                match s.differs(&rest) {
                    Some(true) => {
                        next = Some((rest, (n - 1).max(2), "a complement"));
                        break;
                    }
                    Some(false) => {}
                    None => return done(s, kept, steps, true),
                }
            }
        }
        match next {
            Some((k, m, what)) => {
                steps.push(format!(
                    "ddmin, {what} of {n}: {} mate(s) still differ (of {})",
                    k.len(),
                    kept.len()
                ));
                kept = k;
                n = m;
            }
            None if n >= kept.len() => break,
            None => n = (2 * n).min(kept.len()),
        }
    }
    done(s, kept, steps, true)
}

/// `items` cut into `n` consecutive parts of nearly equal size, in order.
fn split(items: &[usize], n: usize) -> Vec<Vec<usize>> {
    let n = n.clamp(1, items.len().max(1));
    let (q, r) = (items.len() / n, items.len() % n);
    let mut out = Vec::with_capacity(n);
    let mut at = 0;
    for k in 0..n {
        let len = q + usize::from(k < r);
        out.push(items[at..at + len].to_vec());
        at += len;
    }
    out
}

#[cfg(test)]
mod tests {
    use super::{reduce, split, Bound};
    use std::time::{Duration, Instant};

    fn bound(max_tests: usize) -> Bound {
        Bound {
            until: Instant::now() + Duration::from_secs(600),
            max_tests,
            seconds: 600,
        }
    }

    #[test]
    fn split_keeps_order_and_every_item() {
        assert_eq!(split(&[1, 2, 3, 4, 5], 2), vec![vec![1, 2, 3], vec![4, 5]]);
        assert_eq!(
            split(&[1, 2, 3, 4, 5], 5),
            vec![vec![1], vec![2], vec![3], vec![4], vec![5]]
        );
    }

    #[test]
    fn one_needed_mate_is_found_among_twenty() {
        let mates: Vec<usize> = (0..21).filter(|&i| i != 9).collect();
        // Differs when mate 13 is in the batch.
        let f = reduce(&mates, &[], bound(200), |m| m.contains(&13));
        assert!(f.reproduced);
        assert_eq!(f.kept, vec![13]);
        assert_eq!(f.stopped, None);
        // ddmin halves 20 down to 1: about two tests a halving.
        assert!(f.tests <= 12, "{f:?}");
    }

    #[test]
    fn two_needed_mates_are_both_kept() {
        let mates: Vec<usize> = (0..16).collect();
        let f = reduce(&mates, &[], bound(200), |m| {
            m.contains(&2) && m.contains(&11)
        });
        assert_eq!(f.kept, vec![2, 11]);
    }

    #[test]
    fn a_structural_cut_that_holds_is_kept_first() {
        let mates: Vec<usize> = (0..40).collect();
        let cuts = vec![
            ("its module".to_string(), (32..40).collect()),
            ("before it".to_string(), (0..36).collect()),
        ];
        let f = reduce(&mates, &cuts, bound(200), |m| m.contains(&33));
        assert_eq!(f.kept, vec![33]);
        assert_eq!(f.steps[0], "its module: 8 mate(s) still differ (of 40)");
        assert_eq!(f.steps[1], "before it: 4 mate(s) still differ (of 8)");
    }

    #[test]
    fn no_reduction_when_the_whole_batch_agrees() {
        let mates: Vec<usize> = (0..8).collect();
        let f = reduce(&mates, &[], bound(200), |_| false);
        assert!(!f.reproduced);
        assert_eq!(f.tests, 1);
        assert_eq!(f.kept, mates);
    }

    #[test]
    fn the_test_cap_stops_it_with_the_best_so_far() {
        let mates: Vec<usize> = (0..64).collect();
        let f = reduce(&mates, &[], bound(3), |m| m.contains(&50));
        assert_eq!(f.tests, 3);
        // All 64, then 0..32 agrees, 32..64 differs; then the cap.
        assert_eq!(f.kept, (32..64).collect::<Vec<_>>());
        assert_eq!(
            f.stopped.as_deref(),
            Some("the test cap was reached (3 tests, --max-tests)")
        );
    }
}
