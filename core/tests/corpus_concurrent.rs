//! `corpus::write_case` under concurrency: libFuzzer's `-fork=N` and
//! `-jobs=N` run several fuzzing processes that may all find (and reduce)
//! the same divergence and write it into the same `corpus/` at once, and
//! `warpdiff fuzz --jobs J` does the same from threads. Whatever the
//! interleaving, each name must end up as exactly one complete file (the
//! first writer's), every writer must learn the file's path, and no
//! temporary file may be left behind.
//!
//! Threads are tested directly; processes by re-running this test binary
//! with `WARPDIFF_CORPUS_WRITER` set, so that each child runs only the
//! ignored `child_writer` test, which writes into the directory it names.

use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Barrier};
use warp_core::corpus::{case_name, write_case, Written};

/// Distinct cases per round, and the body each writer writes for one.
/// The bodies differ per writer (`who`) and are long enough (~256 KiB) that
/// a torn or interleaved write would show.
const KEYS: usize = 8;

fn body(key: usize, who: &str) -> String {
    let line = format!("// case {key} written by {who}\n");
    line.repeat(256 * 1024 / line.len())
}

fn key(k: usize) -> String {
    format!("shfl.sync.bfly.b32 %r{k}, %r0, 1, 0x1f, 0xffffffff;")
}

const FORM: &str = "shfl.sync.bfly";

/// A fresh empty directory under the target's temporary directory.
fn scratch(name: &str) -> PathBuf {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR"))
        .join(format!("corpus_concurrent-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// Writes every key once as `who`, returning what `write_case` said.
fn write_all(dir: &Path, who: &str) -> Vec<Written> {
    (0..KEYS)
        .map(|k| write_case(dir, FORM, &key(k), &body(k, who)).unwrap())
        .collect()
}

/// The directory holds exactly one complete file per key, each the body
/// of one of the writers in `whos`, and nothing else (no `.tmp` files).
/// Returns, per key, the writer whose body won.
fn check_dir(dir: &Path, whos: &[String]) -> Vec<String> {
    let mut names: Vec<String> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().into_string().unwrap())
        .collect();
    names.sort();
    let mut want: Vec<String> = (0..KEYS).map(|k| case_name(FORM, &key(k))).collect();
    want.sort();
    assert_eq!(names, want, "stray or missing files in {}", dir.display());
    (0..KEYS)
        .map(|k| {
            let path = dir.join(case_name(FORM, &key(k)));
            let text = std::fs::read_to_string(&path).unwrap();
            whos.iter()
                .find(|w| text == body(k, w))
                .unwrap_or_else(|| {
                    panic!(
                        "{} is not one writer's complete body ({} bytes)",
                        path.display(),
                        text.len()
                    )
                })
                .clone()
        })
        .collect()
}

/// Per key, exactly one writer was told `New`, and it is the one whose
/// body is on disk; every other writer was told `Exists` with the same path.
fn check_results(dir: &Path, results: &[(String, Vec<Written>)], winners: &[String]) {
    for k in 0..KEYS {
        let path = dir.join(case_name(FORM, &key(k)));
        let new: Vec<&str> = results
            .iter()
            .filter(|(_, r)| matches!(r[k], Written::New(_)))
            .map(|(w, _)| w.as_str())
            .collect();
        assert_eq!(new, [winners[k].as_str()], "key {k}: writers told New");
        for (_, r) in results {
            assert_eq!(r[k].path(), path);
        }
    }
}

#[test]
fn threads_never_clobber() {
    const THREADS: usize = 8;
    for round in 0..20 {
        let dir = scratch(&format!("threads{round}"));
        let barrier = Arc::new(Barrier::new(THREADS + 1));
        let done = Arc::new(AtomicBool::new(false));
        let whos: Vec<String> = (0..THREADS).map(|t| format!("thread {t}")).collect();
        // A reader polls the directory while the writers run: any `.ptx`
        // it can see must already be one writer's complete body (what
        // `corpus_replay` or a human would read mid-run).
        let reader = {
            let (dir, barrier, done, whos) =
                (dir.clone(), barrier.clone(), done.clone(), whos.clone());
            std::thread::spawn(move || {
                barrier.wait();
                let mut seen = 0;
                while !done.load(Ordering::Acquire) {
                    for k in 0..KEYS {
                        let path = dir.join(case_name(FORM, &key(k)));
                        if let Ok(text) = std::fs::read_to_string(&path) {
                            seen += 1;
                            assert!(
                                whos.iter().any(|w| text == body(k, w)),
                                "a reader saw a partial {} ({} bytes)",
                                path.display(),
                                text.len()
                            );
                        }
                    }
                }
                seen
            })
        };
        let handles: Vec<_> = whos
            .iter()
            .map(|who| {
                let (dir, barrier, who) = (dir.clone(), barrier.clone(), who.clone());
                std::thread::spawn(move || {
                    barrier.wait();
                    (who.clone(), write_all(&dir, &who))
                })
            })
            .collect();
        let results: Vec<(String, Vec<Written>)> =
            handles.into_iter().map(|h| h.join().unwrap()).collect();
        done.store(true, Ordering::Release);
        reader.join().unwrap();
        let winners = check_dir(&dir, &whos);
        check_results(&dir, &results, &winners);
        // A later writer never replaces what is there.
        let again = write_all(&dir, "late");
        assert!(again.iter().all(|w| matches!(w, Written::Exists(_))));
        assert_eq!(check_dir(&dir, &whos), winners);
        std::fs::remove_dir_all(&dir).unwrap();
    }
}

/// Run only as a child of `processes_never_clobber`: waits for the start
/// signal (a file), then writes every key into `$WARPDIFF_CORPUS_WRITER`
/// and prints one line per key, `new` or `exists`.
#[test]
#[ignore = "child process of processes_never_clobber"]
fn child_writer() {
    let Some(dir) = std::env::var_os("WARPDIFF_CORPUS_WRITER") else {
        return;
    };
    let dir = PathBuf::from(dir);
    let who = std::env::var("WARPDIFF_CORPUS_WHO").unwrap();
    // Spin on the start file so that every child begins writing at once.
    let go = dir.with_extension("go");
    while !go.exists() {
        std::thread::yield_now();
    }
    for w in write_all(&dir, &who) {
        let tag = match w {
            Written::New(_) => "new",
            Written::Exists(_) => "exists",
        };
        println!("WRITTEN {tag}");
    }
}

#[test]
fn processes_never_clobber() {
    const PROCS: usize = 6;
    let exe = std::env::current_exe().unwrap();
    for round in 0..5 {
        let dir = scratch(&format!("procs{round}"));
        let go = dir.with_extension("go");
        let _ = std::fs::remove_file(&go);
        let children: Vec<_> = (0..PROCS)
            .map(|p| {
                let who = format!("process {p}");
                let child = Command::new(&exe)
                    .args(["--ignored", "--exact", "child_writer", "--nocapture"])
                    .args(["--test-threads", "1"])
                    .env("WARPDIFF_CORPUS_WRITER", &dir)
                    .env("WARPDIFF_CORPUS_WHO", &who)
                    .stdout(std::process::Stdio::piped())
                    .spawn()
                    .unwrap();
                (who, child)
            })
            .collect();
        std::fs::write(&go, "").unwrap();
        let mut results = Vec::new();
        for (who, child) in children {
            let out = child.wait_with_output().unwrap();
            assert!(out.status.success(), "{who} failed");
            let tags: Vec<bool> = String::from_utf8(out.stdout)
                .unwrap()
                .lines()
                // libtest may print "test child_writer ... " before the first line.
                .filter_map(|l| l.split_once("WRITTEN ").map(|(_, t)| t))
                .map(|t| t == "new")
                .collect();
            assert_eq!(tags.len(), KEYS, "{who} did not report every key");
            let path = |k: usize| dir.join(case_name(FORM, &key(k)));
            let written = tags
                .iter()
                .enumerate()
                .map(|(k, &new)| {
                    if new {
                        Written::New(path(k))
                    } else {
                        Written::Exists(path(k))
                    }
                })
                .collect();
            results.push((who, written));
        }
        let whos: Vec<String> = results.iter().map(|(w, _)| w.clone()).collect();
        let winners = check_dir(&dir, &whos);
        check_results(&dir, &results, &winners);
        std::fs::remove_dir_all(&dir).unwrap();
        std::fs::remove_file(&go).unwrap();
    }
}
