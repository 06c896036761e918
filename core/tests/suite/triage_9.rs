//! The triage of session 9's `--avoid all` hunts (2026-11-28-i, issue
//! #35): every reduced finding of `found-O3/` (H100, -O3) and
//! `found-default/` (H200, the driver's default level) and the idioms the
//! current detectors find in it, with its inputs and as a program alone.

use warp_core::idioms::{idioms, idioms_in_case, Idiom};
use warp_core::text::parse;

/// Prints a table row per file and the counts per first idiom; run by hand:
/// `cargo test -p warp-core --test suite triage_of_the_found_cases_of_2026_11_28_i -- --ignored --nocapture`.
#[test]
#[ignore = "prints the triage table of docs/log/gpu-2026-11-28-i/triage.md"]
fn triage_of_the_found_cases_of_2026_11_28_i() {
    let root = format!(
        "{}/../docs/log/gpu-2026-11-28-i",
        env!("CARGO_MANIFEST_DIR")
    );
    let mut files = Vec::new();
    for dir in ["found-O3", "found-default"] {
        for e in std::fs::read_dir(format!("{root}/{dir}")).expect("the folder") {
            let path = e.expect("an entry").path();
            if path.to_string_lossy().ends_with(".ptx.txt") {
                files.push((dir, path));
            }
        }
    }
    files.sort();
    assert_eq!(files.len(), 71);
    let mut counts = std::collections::BTreeMap::<(&str, String), usize>::new();
    for (dir, path) in &files {
        let text = std::fs::read_to_string(path).expect("readable");
        let case = parse(&text).unwrap_or_else(|e| panic!("{}: {e:?}", path.display()));
        let with_inputs = idioms_in_case(&case.program, &case.inputs);
        let alone = idioms(&case.program);
        let names = |v: &[Idiom]| v.iter().map(|i| i.name()).collect::<Vec<_>>().join(", ");
        let first = |v: &[Idiom]| match v.first() {
            Some(i) => i.name().to_string(),
            None => "none".to_string(),
        };
        let class = text
            .lines()
            .find_map(|l| l.trim_start_matches("//").trim().strip_prefix("class:"))
            .unwrap_or("?")
            .trim();
        println!(
            "| {dir}/{} | {class} | {} | {} |",
            path.file_name().expect("a name").to_string_lossy(),
            names(&with_inputs),
            names(&alone)
        );
        *counts.entry((dir, first(&with_inputs))).or_default() += 1;
        *counts.entry(("all", first(&with_inputs))).or_default() += 1;
        *counts
            .entry(("all, program alone", first(&alone)))
            .or_default() += 1;
    }
    println!("{} files", files.len());
    for ((dir, idiom), n) in &counts {
        println!("{dir}\t{idiom}\t{n}");
    }
    let total: usize = counts
        .iter()
        .filter(|((d, _), _)| *d == "all")
        .map(|(_, n)| n)
        .sum();
    assert_eq!(total, files.len());
}
