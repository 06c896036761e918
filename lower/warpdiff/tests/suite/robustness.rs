//! The fuzz loops never hang, never swallow an engine failure, never panic
//! on ordinary use (issue #12), shown with the fault-injection hooks that
//! test builds carry (`WARPDIFF_INJECT`, `--gpu-simulate`): no GPU needed.

use crate::common;

use common::warpdiff_env as warpdiff;
use std::io::{BufRead, BufReader};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::Instant;

fn dir(name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("warpdiff-robust-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).expect("temp dir");
    d
}

/// `warpdiff fuzz --engines ENGINES --seconds SECONDS --seed SEED
/// [EXTRA...] --corpus CORPUS` with `env`.
fn fuzz(
    engines: &str,
    seconds: u32,
    seed: u32,
    corpus: &Path,
    extra: &[&str],
    env: &[(&str, &str)],
) -> (i32, String, String, f64) {
    let (seconds, seed) = (seconds.to_string(), seed.to_string());
    let mut args = vec![
        "fuzz",
        "--engines",
        engines,
        "--seconds",
        &seconds,
        "--seed",
        &seed,
    ];
    args.extend_from_slice(extra);
    args.extend(["--corpus", corpus.to_str().expect("utf-8")]);
    warpdiff(&args, env)
}

/// The `.ptx` files under `d`, in every folder.
fn ptx_under(d: &Path) -> Vec<PathBuf> {
    warp_core::replay::case_files(d)
}

#[test]
fn a_jit_compile_failure_is_an_engine_failed_divergence_reduced_into_the_corpus() {
    let d = dir("compile");
    let corpus = d.join("corpus");
    let (code, out, err, _) = fuzz(
        "interp,jit",
        60,
        5,
        &corpus,
        &[],
        &[("WARPDIFF_INJECT", "jit-rejects-popc")],
    );
    assert_eq!(code, 1, "a divergence: {out}{err}");
    assert!(out.contains("divergence: jit on engine-failed"), "{out}");
    assert!(out.contains("(1 engine failure(s))"), "{out}");
    let files = ptx_under(&corpus);
    assert_eq!(files.len(), 1, "{files:?}");
    let name = files[0]
        .file_name()
        .expect("name")
        .to_string_lossy()
        .into_owned();
    assert!(name.starts_with("engine-failed-"), "{name}");
    let text = std::fs::read_to_string(&files[0]).expect("read");
    let case = warp_core::text::parse(&text).expect("the recorded case parses");
    // Reduced: the one instruction the injected bug cannot compile is left.
    assert_eq!(case.program.insts.len(), 1, "{text}");
    assert!(text.contains("popc."), "{text}");
    assert!(text.contains("injected bug jit-rejects-popc"), "{text}");
}

/// The `gpu N programs` figure of each progress line, in order.
fn gpu_programs_per_second(err: &str) -> Vec<u64> {
    err.lines()
        .filter_map(|l| {
            let at = l.find("  gpu ")? + "  gpu ".len();
            l[at..].split_whitespace().next()?.parse().ok()
        })
        .collect()
}

/// The number after `label` in the summary line that has it.
fn figure(out: &str, label: &str) -> u64 {
    let at = out
        .find(label)
        .unwrap_or_else(|| panic!("no `{label}` in:\n{out}"))
        + label.len();
    out[at..]
        .trim_start()
        .split(|c: char| !c.is_ascii_digit())
        .next()
        .and_then(|n| n.parse().ok())
        .unwrap_or_else(|| panic!("no number after `{label}` in:\n{out}"))
}

#[test]
fn a_gpu_fault_costs_its_batch_and_the_gpu_goes_on() {
    let d = dir("fault");
    let corpus = d.join("corpus");
    let (code, out, err, secs) = fuzz(
        "interp,jit,gpu",
        6,
        7,
        &corpus,
        &["--keep-going", "--gpu-batch", "16"],
        &[("WARPDIFF_GPU_SIMULATE", "fault-batch:2")],
    );
    assert!(secs < 12.0, "ended after {secs:.1} s\n{out}{err}");
    assert!(secs >= 6.0, "the run went on until --seconds: {secs:.1} s");
    assert_eq!(code, 1, "the fault counts as a finding: {out}{err}");
    assert!(
        err.contains("simulated CUDA_ERROR_ILLEGAL_INSTRUCTION in batch 2"),
        "{err}"
    );
    assert!(!out.contains("switched off"), "the GPU stays on: {out}");
    // The runner that faulted was replaced, and the GPU checked on.
    assert_eq!(figure(&out, "runner processes started"), 2, "{out}");
    assert_eq!(figure(&out, "faulted"), 1, "{out}");
    assert!(
        figure(&out, "all GPUs:") > 32,
        "batches after the fault were checked: {out}"
    );
    // No batch faults first in a fresh process: the batch is saved and
    // the fact counted, never dropped silently.
    assert!(
        out.contains("did not fail again in a fresh process"),
        "{out}"
    );
}

#[test]
fn with_the_gpu_in_process_a_fault_switches_it_off_and_the_cpu_goes_on() {
    let d = dir("fault-in-process");
    let corpus = d.join("corpus");
    let (code, out, err, secs) = fuzz(
        "interp,jit,gpu",
        5,
        7,
        &corpus,
        &["--keep-going", "--gpu-in-process", "--gpu-batch", "16"],
        &[("WARPDIFF_GPU_SIMULATE", "fault-batch:2")],
    );
    assert!(secs < 10.0, "ended after {secs:.1} s\n{out}{err}");
    assert!(
        secs >= 5.0,
        "the CPU engines went on until --seconds: {secs:.1} s"
    );
    assert_eq!(code, 1, "the fault counts as a finding: {out}{err}");
    assert!(err.contains("gpu fault: simulated"), "{err}");
    assert!(out.contains("switched off"), "{out}");
    assert!(out.contains(" input sets in "), "the summary: {out}");
    assert!(
        out.contains("did not fail again in a fresh process"),
        "{out}"
    );
}

#[test]
fn the_gpu_survives_hangs_faults_and_stuck_calls_and_the_run_ends_on_time() {
    let d = dir("chaos");
    let corpus = d.join("corpus");
    let seconds = 12;
    let (code, out, err, secs) = fuzz(
        "interp,jit,gpu",
        seconds,
        11,
        &corpus,
        &[
            "--keep-going",
            "--gpu-batch",
            "16",
            "--gpu-deadline-ms",
            "300",
            "--gpu-answer-margin-ms",
            "700",
        ],
        // Every 4th batch fails: by turns a hang, a fault, a stuck call.
        &[("WARPDIFF_GPU_SIMULATE", "fail-every:4")],
    );
    assert!(
        secs < f64::from(seconds) + 8.0,
        "ended {:.1} s after --seconds\n{out}{err}",
        secs - f64::from(seconds)
    );
    assert_eq!(code, 1, "the failures are findings: {out}{err}");
    assert!(!out.contains("switched off"), "the GPU stays on: {out}");
    let (hangs, faults, stuck) = (
        figure(&out, "batches hung"),
        figure(&out, "faulted"),
        figure(&out, "runners killed unanswering"),
    );
    assert!(
        hangs >= 2 && faults >= 2 && stuck >= 2,
        "several of each: {hangs} hangs, {faults} faults, {stuck} stuck\n{out}"
    );
    assert_eq!(
        figure(&out, "runner processes started"),
        1 + hangs + faults + stuck,
        "a fresh runner after each: {out}"
    );
    // The GPU checked programs after each failure: its count grows through
    // the run, not only at its start.
    let per_second = gpu_programs_per_second(&err);
    assert!(per_second.len() >= 8, "{err}");
    let last = per_second[per_second.len() - 1];
    let third = per_second[per_second.len() / 3];
    let two_thirds = per_second[2 * per_second.len() / 3];
    assert!(
        third < two_thirds && two_thirds < last,
        "programs checked at a third, two thirds and the end of the run: {third}, {two_thirds}, {last}\n{err}"
    );
    // And the CPU workers were not starved: they checked cases in every
    // second but the last.
    let cpu: Vec<u64> = err
        .lines()
        .filter_map(|l| {
            let at = l.find("input sets/s")?;
            l[..at].split_whitespace().last()?.parse::<f64>().ok()
        })
        .map(|r| r as u64)
        .collect();
    let idle = cpu.iter().filter(|&&r| r == 0).count();
    assert!(
        idle <= 1,
        "seconds without CPU cases: {idle} of {}\n{err}",
        cpu.len()
    );
}

#[test]
fn a_case_that_faults_alone_is_reduced_and_recorded_with_gpu_fails() {
    let d = dir("alone");
    let corpus = d.join("corpus");
    let (code, out, err, secs) = fuzz(
        "interp,jit,gpu",
        30,
        5,
        &corpus,
        &[],
        &[("WARPDIFF_GPU_SIMULATE", "fault-form:popc.b32")],
    );
    assert_eq!(code, 1, "{out}{err}");
    assert!(secs < 30.0, "stopped at the first finding: {secs:.1} s");
    let files = ptx_under(&corpus);
    assert_eq!(files.len(), 1, "{out}");
    let text = std::fs::read_to_string(&files[0]).expect("read");
    assert!(
        text.contains("// gpu-fails: gpu fault: simulated"),
        "{text}"
    );
    let case = warp_core::text::parse(&text).expect("parses");
    assert!(case.program.insts.len() <= 3, "reduced: {text}");
    assert!(text.contains("popc.b32"), "{text}");
}

#[test]
fn a_batch_that_faults_only_together_is_bisected_to_the_smallest_group() {
    let d = dir("group");
    let corpus = d.join("corpus");
    let (code, out, err, _) = fuzz(
        "interp,jit,gpu",
        // It ends at the finding (about 5 s alone); the bound is for a
        // loaded machine, where the GPU thread takes smaller batches.
        120,
        5,
        &corpus,
        // Batches wait up to 3 s to fill: an unoptimised build on a loaded
        // machine makes a case every 60 ms or so, and with the default
        // 20 ms each batch held one case, so the pair never met (CI).
        &["--gpu-batch", "64", "--batch-fill-ms", "3000"],
        // Deprecated `shfl` needs PTX below 6.4, integer `redux.sync` PTX
        // 7.0: no one program has both, so no case faults alone.
        &[(
            "WARPDIFF_GPU_SIMULATE",
            "fault-pair:shfl.up+redux.sync.add.u32",
        )],
    );
    assert_eq!(code, 1, "{out}{err}");
    assert!(
        out.contains("the smallest failing group has 2 of the"),
        "{out}"
    );
    let files = ptx_under(&corpus);
    // Halving stops once the two forms sit in different halves; dropping
    // members one by one then leaves the pair.
    assert_eq!(files.len(), 2, "{out}");
    let texts: Vec<String> = files
        .iter()
        .map(|f| std::fs::read_to_string(f).expect("read"))
        .collect();
    let all = texts.concat();
    assert!(
        all.contains("shfl.up") && all.contains("redux.sync.add.u32"),
        "{all}"
    );
    for t in &texts {
        assert!(t.contains("// gpu-fails:"), "{t}");
        assert!(t.contains("as one batch"), "{t}");
        warp_core::text::parse(t).expect("each member parses");
    }
}

#[test]
fn a_closed_pipe_ends_quietly() {
    // Enough output (every corpus file, three times) to fill the pipe after
    // the reader is gone.
    let files: Vec<String> = warp_core::replay::case_files(&warp_core::replay::corpus_dir())
        .iter()
        .map(|p| p.display().to_string())
        .collect();
    let mut args = vec!["run".to_string()];
    for _ in 0..3 {
        args.extend(files.iter().cloned());
    }
    let mut child = Command::new(env!("CARGO_BIN_EXE_warpdiff"))
        .args(&args)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("starts");
    let mut first = String::new();
    BufReader::new(child.stdout.take().expect("stdout"))
        .read_line(&mut first)
        .expect("one line");
    // The reader is dropped here: `| head -1`.
    let status = child.wait().expect("ends");
    let mut err = String::new();
    std::io::Read::read_to_string(&mut child.stderr.take().expect("stderr"), &mut err)
        .expect("stderr");
    assert!(first.starts_with("== "), "{first}");
    assert_eq!(status.code(), Some(141), "{err}");
    assert!(!err.contains("panicked"), "{err}");
}

#[test]
fn a_huge_program_gets_the_limit_message_not_minutes_and_gigabytes() {
    let d = dir("huge");
    let path = d.join("huge.ptx");
    let mut text = String::from(".reg .b32 r;\n.lanes r = 1;\n");
    for _ in 0..200_000 {
        text.push_str("    add.u32 r, r, 1;\n");
    }
    std::fs::write(&path, text).expect("write");
    let f = path.to_str().expect("utf-8");
    let (code, out, err, secs) = warpdiff(&["run", "--engine", "jit", f], &[]);
    assert_eq!(code, 2, "{out}{err}");
    assert!(
        out.contains("program has 200000 instructions; the JIT limit is 20000; use the interpreter or raise --max-insts"),
        "{out}"
    );
    assert!(secs < 60.0, "{secs:.1} s");
    // `diff` skips the JIT with the same reason and still compares the rest.
    let (code, out, _, _) = warpdiff(&["diff", f], &[]);
    assert_eq!(code, 0, "{out}");
    assert!(
        out.contains("jit skipped (program has 200000 instructions"),
        "{out}"
    );
}

#[test]
fn a_jit_whose_fuel_accounting_is_wrong_ends_as_a_runaway_not_a_hang() {
    // With `fuel-refund` planted, a taken back edge gives its step back:
    // this one-instruction loop would spin forever in native code. The
    // bound on segment entries (fuel + 1) ends it with a clear error.
    let d = dir("runaway");
    let file = d.join("loop.ptx");
    std::fs::write(&file, ".reg .pred p;\n.lanes p = 1;\nL:\n@p  bra L;\n").expect("write");
    let path = file.to_str().expect("utf-8");
    let mut child = Command::new(env!("CARGO_BIN_EXE_warpdiff"))
        .args(["run", "--engine", "jit", "--fuel", "1000", path])
        .env("WARPDIFF_INJECT", "fuel-refund")
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("runs");
    let t = Instant::now();
    while child.try_wait().expect("wait").is_none() {
        if t.elapsed().as_secs() > 60 {
            let _ = child.kill();
            panic!("still running after 60 s: the runaway bound did not end it");
        }
        std::thread::sleep(std::time::Duration::from_millis(20));
    }
    let out = child.wait_with_output().expect("output");
    let text = format!(
        "{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    assert_eq!(out.status.code(), Some(2), "{text}");
    assert!(
        text.contains("took more than 1001 backward branches with 1000 warp steps of fuel"),
        "{text}"
    );
}

#[test]
fn a_gpu_call_that_never_returns_costs_its_runner_and_the_gpu_goes_on() {
    let d = dir("stuck");
    let corpus = d.join("corpus");
    let (code, out, err, secs) = fuzz(
        "interp,jit,gpu",
        6,
        9,
        &corpus,
        &[
            "--keep-going",
            "--gpu-batch",
            "16",
            "--gpu-deadline-ms",
            "500",
            "--gpu-answer-margin-ms",
            "1000",
            // Narrowing the batch down asks fresh processes, which get
            // stuck too: it may go on 3 s past the run's end.
            "--narrow-grace-s",
            "3",
        ],
        &[("WARPDIFF_GPU_SIMULATE", "stuck-batch:1")],
    );
    assert!(secs < 16.0, "ended after {secs:.1} s\n{out}{err}");
    assert_eq!(
        code, 1,
        "a call that never returns is a finding: {out}{err}"
    );
    assert!(
        err.contains("did not answer within"),
        "the runner was given up: {err}"
    );
    assert_eq!(figure(&out, "runners killed unanswering"), 1, "{out}");
    assert!(
        figure(&out, "all GPUs:") > 16,
        "batches after it were checked: {out}"
    );
    assert!(
        !err.contains("still busy"),
        "no thread was left behind: {err}"
    );
}

#[test]
fn with_the_gpu_in_process_a_call_that_never_returns_is_left_behind() {
    let d = dir("stuck-in-process");
    let corpus = d.join("corpus");
    let (code, out, err, secs) = fuzz(
        "interp,jit,gpu",
        2,
        9,
        &corpus,
        &[
            "--stuck-after-s",
            "6",
            "--gpu-batch",
            "16",
            "--gpu-in-process",
        ],
        &[("WARPDIFF_GPU_SIMULATE", "stuck-batch:1")],
    );
    // 2 s of fuzzing, then 6 s of waiting for the stuck GPU thread (and a
    // worker of this unoptimised build finishing its last case).
    assert!(secs < 20.0, "ended after {secs:.1} s\n{out}{err}");
    assert!(secs >= 8.0, "waited for the threads first: {secs:.1} s");
    assert_eq!(code, 0, "no divergence, no internal error: {out}{err}");
    assert!(out.contains(" input sets in "), "the summary: {out}");
    assert!(
        err.contains("thread(s) still busy 6 s after the run was over"),
        "{err}"
    );
}
