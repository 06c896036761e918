//! The `diff` target's memo (`warpdiff::fuzz::seen`) takes an input for one it
//! has checked when the bytes the generator read from it are the same. That
//! is sound only if a case depends on those bytes alone: the generator
//! reads front to back and never looks at how many bytes are left. These
//! tests check it on pseudo-random inputs and on the seed corpus, and that
//! `diff_target` does skip such an input.

use std::path::PathBuf;
use warp_core::gen::Stats;
use warp_core::rng::Rng;
use warpdiff::fuzz::case::case_and_read;
use warpdiff::fuzz::target::{diff_memo_hits, diff_target};

/// Pseudo-random inputs of 1 to 4,000 bytes, then the seed corpus's.
fn inputs() -> Vec<Vec<u8>> {
    let mut r = Rng::new(0x5eed);
    let mut v: Vec<Vec<u8>> = (0..120)
        .map(|i| {
            let len = 1 + if i % 4 == 0 {
                r.index(64)
            } else {
                r.index(4000)
            };
            r.bytes(len)
        })
        .collect();
    let dir = PathBuf::from(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../../fuzz/corpus/diff"
    ));
    let mut files: Vec<PathBuf> = std::fs::read_dir(&dir)
        .unwrap_or_else(|e| panic!("cannot read {}: {e}", dir.display()))
        .map(|e| e.expect("directory entry").path())
        .collect();
    files.sort();
    v.extend(files.iter().map(|f| std::fs::read(f).expect("seed file")));
    v
}

#[test]
fn a_case_depends_only_on_the_bytes_the_generator_read() {
    let mut r = Rng::new(7);
    let (mut partly, mut whole) = (0, 0);
    for data in inputs() {
        let mut stats = Stats::default();
        let (tc, read) = case_and_read(&data, &mut stats, &[]);
        assert!(read <= data.len());
        if read == data.len() {
            // Read to its end: only the same input is the same case.
            whole += 1;
            continue;
        }
        partly += 1;
        let mut other_tail = data[..read].to_vec();
        let n = r.index(300);
        other_tail.extend(r.bytes(n));
        for same in [&data[..read], &other_tail[..]] {
            let (again, read_again) = case_and_read(same, &mut stats, &[]);
            assert_eq!(read_again, read, "read {read} of {} bytes", data.len());
            assert!(again == tc, "the same first {read} bytes made another case");
        }
    }
    // Both kinds of input were met (so neither branch is vacuous).
    assert!(
        partly >= 50 && whole >= 10,
        "{partly} read in part, {whole} to the end"
    );
}

#[test]
fn diff_target_skips_an_input_whose_read_bytes_or_case_it_has_checked() {
    let mut stats = Stats::default();
    // A seed-corpus input the generator does not read to its end.
    let data = inputs()
        .into_iter()
        .rev()
        .find(|d| case_and_read(d, &mut stats, &[]).1 < d.len())
        .expect("a seed input read in part");
    let (tc, read) = case_and_read(&data, &mut stats, &[]);
    let (inputs0, cases0) = diff_memo_hits();
    diff_target(&data);
    assert_eq!(
        diff_memo_hits(),
        (inputs0, cases0),
        "a new input taken for a checked one"
    );
    diff_target(&data);
    assert_eq!(diff_memo_hits(), (inputs0 + 1, cases0));
    // Another tail: the same read bytes, skipped before generating.
    let mut other = data[..read].to_vec();
    other.push(data.get(read).map_or(0, |b| b.wrapping_add(1)));
    diff_target(&other);
    assert_eq!(diff_memo_hits(), (inputs0 + 2, cases0));
    // A read byte changed so that the case stays the same (the first such
    // change found): generated, not checked.
    let same_case = (0..read)
        .flat_map(|at| [0x80u8, 0x40, 0x04].map(|x| (at, x)))
        .map(|(at, x)| {
            let mut v = data.clone();
            v[at] ^= x;
            v
        })
        .find(|v| case_and_read(v, &mut stats, &[]).0 == tc)
        .expect("a one-bit change of a read byte that keeps the case");
    diff_target(&same_case);
    assert_eq!(diff_memo_hits(), (inputs0 + 2, cases0 + 1));
    // ...and its read bytes are remembered now.
    diff_target(&same_case);
    assert_eq!(diff_memo_hits(), (inputs0 + 3, cases0 + 1));
    // A change that makes another case: generated and checked.
    let new_case = (0..read)
        .map(|at| {
            let mut v = data.clone();
            v[at] ^= 0x01;
            v
        })
        .find(|v| {
            case_and_read(v, &mut stats, &[])
                .0
                .is_some_and(|c| c != tc.clone().unwrap())
        })
        .expect("a one-bit change of a read byte that makes another case");
    diff_target(&new_case);
    assert_eq!(diff_memo_hits(), (inputs0 + 3, cases0 + 1));
}
