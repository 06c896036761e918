//! The inputs `cargo fuzz run diff` has already checked, by the bytes the
//! generator read from them, so that an input which makes the same case
//! again is not generated, interpreted, compiled and run a second time.
//!
//! Why (issue #14): libFuzzer mutates inputs it has run, and more than half
//! of its mutations of `diff`'s inputs gave a case it had checked already
//! (60 s from the seed corpus: 1,733 of 3,206 executions repeated a case):
//! a mutation of the bytes past what the generator read (a case reads a
//! median 76 % of its input) changes nothing the generator sees.
//!
//! The generator reads its bytes front to back ([`arbitrary::Unstructured`]
//! without `arbitrary_len` or `take_rest`; `tests/suite/seen_prefix.rs` checks
//! that the case depends on nothing else), so when one input made a case
//! after reading its first `n` bytes, any input with the same first `n`
//! bytes makes the same case: it is longer or as long, or, when the first
//! one was read to its end (its last read may have found fewer bytes than
//! it asked for), exactly as long. The engines are deterministic, so that
//! case would agree again.
//!
//! Inputs that differ where the generator read can still make the same
//! case (a byte drawn for a choice of four is read modulo four): the memo
//! also keeps the checked cases themselves, by a 128-bit hash of the
//! program and inputs (two independent 64-bit hashes), so that such an
//! input costs its generation only. With the prefix memo alone, 1,803 of
//! 6,664 executions of a 60 s run were found by their prefix; with both,
//! 25–30 % by their prefix and 26–30 % by their case (seeds 1/2/3).
//!
//! The memo has a fixed size, allocated once: libFuzzer runs an execution
//! that allocates more than it frees a second time, looking for a leak.
//! When it is full it starts again empty (the inputs libFuzzer mutates are
//! its corpus, which the memo then learns again).

use std::hash::{DefaultHasher, Hash, Hasher};
use warp_core::fxhash::{FxHashMap, FxHashSet, FxHasher};
use warp_core::gen::TestCase;

/// Most prefixes remembered at once.
pub const ENTRIES: usize = 16_384;

/// Most bytes of prefixes remembered at once.
pub const BYTES: usize = 8 << 20;

/// Longest prefix remembered (longer ones are not: a case reads a few
/// kilobytes at most, and libFuzzer's inputs are 4,096 bytes unless
/// `-max_len` says more).
pub const MAX_PREFIX: usize = 1 << 16;

/// A prefix's identity: its length and hash.
type Key = (u32, u64);

/// Where a remembered prefix's bytes are, and whether the input it came
/// from was read to its end.
#[derive(Clone, Copy)]
struct Entry {
    at: u32,
    whole: bool,
}

/// Inputs already checked, by the prefix the generator read from each.
pub struct Seen {
    /// Prefix → its bytes' place in `bytes`.
    table: FxHashMap<Key, Entry>,
    /// Every remembered prefix's bytes, one after the other.
    bytes: Vec<u8>,
    /// Per length, how many remembered prefixes have it (index 0 unused:
    /// an input read to no bytes at all is remembered like the others).
    lengths: Vec<u32>,
    /// The checked cases' hashes.
    cases: FxHashSet<(u64, u64)>,
    /// Inputs found by their prefix since the process started (each an
    /// execution not done).
    pub hits: u64,
    /// Cases found since the process started (each a check not done).
    pub case_hits: u64,
}

impl Default for Seen {
    fn default() -> Self {
        Seen {
            table: FxHashMap::with_capacity_and_hasher(ENTRIES, Default::default()),
            bytes: Vec::with_capacity(BYTES),
            lengths: vec![0; MAX_PREFIX + 1],
            cases: FxHashSet::with_capacity_and_hasher(ENTRIES, Default::default()),
            hits: 0,
            case_hits: 0,
        }
    }
}

/// A case's identity: two independent 64-bit hashes of it.
fn case_key(tc: &TestCase) -> (u64, u64) {
    let mut fx = FxHasher::default();
    tc.hash(&mut fx);
    let mut sip = DefaultHasher::new();
    tc.hash(&mut sip);
    (fx.finish(), sip.finish())
}

/// One step of the prefix hash (FxHash's mixing, a byte at a time).
fn step(h: u64, b: u8) -> u64 {
    (h.rotate_left(5) ^ u64::from(b)).wrapping_mul(0x51_7c_c1_b7_27_22_0a_95)
}

impl Seen {
    /// Whether `data` makes a case already checked: some remembered prefix
    /// is its beginning (and, for a prefix that was a whole input, all of
    /// it). Counts a hit.
    pub fn contains(&mut self, data: &[u8]) -> bool {
        let found = self.find(data);
        self.hits += u64::from(found);
        found
    }

    fn find(&self, data: &[u8]) -> bool {
        if self.table.is_empty() {
            return false;
        }
        let mut h = 0u64;
        for n in 0..=data.len().min(MAX_PREFIX) {
            if n > 0 {
                h = step(h, data[n - 1]);
            }
            if self.lengths[n] == 0 {
                continue;
            }
            if let Some(e) = self.table.get(&(n as u32, h)) {
                let at = e.at as usize;
                if (!e.whole || n == data.len()) && self.bytes[at..at + n] == data[..n] {
                    return true;
                }
            }
        }
        false
    }

    /// Whether the case `tc` was checked already. Counts a hit.
    pub fn contains_case(&mut self, tc: &TestCase) -> bool {
        let found = self.cases.contains(&case_key(tc));
        self.case_hits += u64::from(found);
        found
    }

    /// Remembers that the generator made a case from `data` after reading
    /// its first `read` bytes (at most `data.len()`), and that the case
    /// `tc` (none: the bytes made none) was checked. A prefix longer than
    /// [`MAX_PREFIX`] is not remembered.
    pub fn insert(&mut self, data: &[u8], read: usize, tc: Option<&TestCase>) {
        let read = read.min(data.len());
        if self.table.len() == ENTRIES
            || self.cases.len() == ENTRIES
            || self.bytes.len() + read > BYTES
        {
            self.table.clear();
            self.bytes.clear();
            self.lengths.iter_mut().for_each(|c| *c = 0);
            self.cases.clear();
        }
        if let Some(tc) = tc {
            self.cases.insert(case_key(tc));
        }
        if read > MAX_PREFIX {
            return;
        }
        let h = data[..read].iter().fold(0u64, |h, &b| step(h, b));
        let entry = Entry {
            at: self.bytes.len() as u32,
            whole: read == data.len(),
        };
        // The same prefix again (only a whole input can be, as a longer
        // one): keep the entry that matches more inputs.
        match self.table.get_mut(&(read as u32, h)) {
            Some(e) if self.bytes[e.at as usize..e.at as usize + read] == data[..read] => {
                e.whole &= entry.whole;
            }
            // A hash collision keeps the first prefix (the memo only
            // forgets; it never answers for bytes it did not see).
            Some(_) => {}
            None => {
                self.bytes.extend_from_slice(&data[..read]);
                self.table.insert((read as u32, h), entry);
                self.lengths[read] += 1;
            }
        }
    }

    /// Prefixes remembered now (the cases are as many or fewer).
    pub fn len(&self) -> usize {
        self.table.len()
    }

    /// Whether none is.
    pub fn is_empty(&self) -> bool {
        self.table.is_empty()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_prefix_read_matches_longer_inputs_only_when_not_read_to_the_end() {
        let mut s = Seen::default();
        // Read 3 of 5 bytes: any input starting 1 2 3 makes the same case.
        s.insert(&[1, 2, 3, 4, 5], 3, None);
        assert!(s.contains(&[1, 2, 3]));
        assert!(s.contains(&[1, 2, 3, 9, 9, 9, 9]));
        assert!(!s.contains(&[1, 2]));
        assert!(!s.contains(&[1, 2, 4, 4, 5]));
        // Read to its end: only that very input.
        s.insert(&[7, 8], 2, None);
        assert!(s.contains(&[7, 8]));
        assert!(!s.contains(&[7, 8, 0]));
        assert!(!s.contains(&[7]));
        assert_eq!(s.hits, 3);
        assert_eq!(s.len(), 2);
    }

    #[test]
    fn the_empty_prefix_matches_every_input_and_an_empty_whole_input_only_itself() {
        let mut s = Seen::default();
        s.insert(&[], 0, None);
        assert!(s.contains(&[]));
        assert!(!s.contains(&[0]));
        s.insert(&[5], 0, None);
        assert!(s.contains(&[0, 1]));
    }

    #[test]
    fn a_whole_input_then_a_longer_one_with_that_prefix_widens_the_entry() {
        let mut s = Seen::default();
        s.insert(&[4, 4], 2, None);
        assert!(!s.contains(&[4, 4, 4]));
        s.insert(&[4, 4, 6], 2, None);
        assert!(s.contains(&[4, 4, 4]));
        assert_eq!(s.len(), 1);
    }

    #[test]
    fn a_checked_case_is_found_whatever_bytes_made_it() {
        let mut s = Seen::default();
        let empty = TestCase {
            program: Default::default(),
            inputs: Default::default(),
        };
        let mut other = empty.clone();
        other.program.labels.push(warp_core::ir::Label {
            name: "L".into(),
            at: 0,
        });
        assert!(!s.contains_case(&empty));
        s.insert(&[1, 2, 3], 1, Some(&empty));
        assert!(s.contains_case(&empty));
        assert!(!s.contains_case(&other));
        assert_eq!(s.case_hits, 1);
        // A prefix past MAX_PREFIX is not kept; its case is.
        let long = vec![3u8; MAX_PREFIX + 2];
        s.insert(&long, MAX_PREFIX + 1, Some(&other));
        assert!(!s.contains(&long));
        assert!(s.contains_case(&other));
    }

    #[test]
    fn a_full_memo_starts_again() {
        let mut s = Seen::default();
        for i in 0..ENTRIES as u32 {
            s.insert(&i.to_le_bytes(), 4, None);
        }
        assert_eq!(s.len(), ENTRIES);
        assert!(s.contains(&0u32.to_le_bytes()));
        s.insert(&[9, 9, 9, 9, 9], 5, None);
        assert_eq!(s.len(), 1);
        assert!(!s.contains(&0u32.to_le_bytes()));
        assert!(s.contains(&[9, 9, 9, 9, 9]));
        // Longer than MAX_PREFIX: not remembered.
        let long = vec![1u8; MAX_PREFIX + 1];
        s.insert(&long, long.len(), None);
        assert!(!s.contains(&long));
    }
}
