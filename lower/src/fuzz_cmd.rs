//! `warpdiff fuzz` (the fuzzing loop on stable Rust, without libFuzzer) and
//! `warpdiff reduce`.

use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::Mutex;
use std::time::{Duration, Instant};
use warp_core::engine::Engine;
use warp_core::gen::{Stats, TestCase};
use warp_lower::engines;
use warp_lower::fuzzing::{self, CaseResult};

/// Options of `warpdiff fuzz`.
pub struct FuzzOptions {
    seconds: u64,
    seed: u64,
    jobs: usize,
    engines: Vec<String>,
    corpus: std::path::PathBuf,
    keep_going: bool,
}

impl FuzzOptions {
    /// Parses the arguments after `fuzz`.
    pub fn parse(args: &[String]) -> Result<FuzzOptions, String> {
        let mut o = FuzzOptions {
            seconds: 60,
            seed: std::time::SystemTime::now()
                .duration_since(std::time::UNIX_EPOCH)
                .map_or(1, |d| d.as_nanos() as u64),
            jobs: 1,
            engines: engines::ENGINES.iter().map(|s| s.to_string()).collect(),
            corpus: fuzzing::corpus_dir(),
            keep_going: false,
        };
        let mut it = args.iter();
        let num = |v: Option<&String>, what: &str| -> Result<u64, String> {
            let v = v.ok_or(format!("{what} needs a value"))?;
            match v.strip_prefix("0x") {
                Some(h) => u64::from_str_radix(h, 16),
                None => v.parse(),
            }
            .map_err(|_| format!("bad {what} `{v}`"))
        };
        while let Some(a) = it.next() {
            match a.as_str() {
                "--seconds" => o.seconds = num(it.next(), "--seconds")?,
                "--seed" => o.seed = num(it.next(), "--seed")?,
                "--jobs" => o.jobs = num(it.next(), "--jobs")?.clamp(1, 256) as usize,
                "--engines" => {
                    let v = it.next().ok_or("--engines needs a list")?;
                    o.engines = v.split(',').map(|s| s.trim().to_string()).collect();
                }
                "--corpus" => o.corpus = it.next().ok_or("--corpus needs a folder")?.into(),
                "--keep-going" => o.keep_going = true,
                other => return Err(format!("unknown option `{other}`")),
            }
        }
        if !o.engines.iter().any(|e| e == "interp") {
            return Err("--engines must include interp, the reference".into());
        }
        for e in &o.engines {
            if engines::by_name(e).is_none() {
                return Err(format!(
                    "unknown engine `{e}` (available: {})",
                    engines::ENGINES.join(", ")
                ));
            }
        }
        if o.engines.len() < 2 {
            return Err("--engines needs at least one engine besides interp".into());
        }
        Ok(o)
    }
}

struct XorShift(u64);

impl XorShift {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }
}

#[derive(Default)]
struct Shared {
    execs: AtomicU64,
    ub: AtomicU64,
    rejected: AtomicU64,
    divergences: AtomicU64,
    stop: AtomicBool,
    stats: Mutex<Stats>,
    found: Mutex<Vec<String>>,
}

fn others(names: &[String]) -> Vec<Box<dyn Engine>> {
    names
        .iter()
        .filter(|n| *n != "interp")
        .filter_map(|n| engines::for_one_run(n))
        .collect()
}

fn worker(o: &FuzzOptions, job: usize, sh: &Shared, start: Instant) {
    let owned = others(&o.engines);
    let others: Vec<&dyn Engine> = owned.iter().map(|e| e.as_ref()).collect();
    let mut rng = XorShift((o.seed ^ (job as u64).wrapping_mul(0x9e37_79b9_7f4a_7c15)) | 1);
    let mut stats = Stats::default();
    let deadline = start + Duration::from_secs(o.seconds);
    let mut buf = Vec::new();
    while Instant::now() < deadline && !sh.stop.load(Ordering::Relaxed) {
        let case_seed = rng.next();
        let mut r = XorShift(case_seed | 1);
        let len = 64 + (r.next() % 4000) as usize;
        buf.clear();
        buf.extend((0..len).map(|_| (r.next() >> 24) as u8));
        let Some(tc) = fuzzing::case_from_bytes(&buf, &mut stats) else {
            continue;
        };
        sh.execs.fetch_add(1, Ordering::Relaxed);
        match fuzzing::run_case(&tc, &others, &mut stats) {
            CaseResult::NoCase | CaseResult::Agree => {}
            CaseResult::Ub => {
                sh.ub.fetch_add(1, Ordering::Relaxed);
            }
            CaseResult::Rejected => {
                sh.rejected.fetch_add(1, Ordering::Relaxed);
            }
            CaseResult::Diverge(tc, d) => {
                sh.divergences.fetch_add(1, Ordering::Relaxed);
                if !o.keep_going {
                    sh.stop.store(true, Ordering::Relaxed);
                }
                let found_after = start.elapsed().as_secs_f64();
                let (small, secs) = fuzzing::reduce(&tc, &d, &others, case_seed);
                let d2 = fuzzing::divergence_of(&small, &others).unwrap_or(d);
                let notes = vec![
                    format!(
                        "Found by `warpdiff fuzz --seed {:#x}` (job {job}, case seed {case_seed:#x}) at {}, {found_after:.1} s into the run.",
                        o.seed,
                        fuzzing::now_utc()
                    ),
                    format!(
                        "Reduced from {} to {} instructions in {secs:.2} s.",
                        tc.program.insts.len(),
                        small.program.insts.len()
                    ),
                ];
                let msg = match fuzzing::record(&o.corpus, &small, &d2, notes) {
                    Ok(w) => format!(
                        "divergence: {} on {} after {found_after:.1} s; reduced {} -> {} instructions in {secs:.2} s; {} {}",
                        d2.engine,
                        d2.form,
                        tc.program.insts.len(),
                        small.program.insts.len(),
                        match w {
                            warp_core::corpus::Written::New(_) => "wrote",
                            warp_core::corpus::Written::Exists(_) => "already in corpus:",
                        },
                        w.path().display()
                    ),
                    Err(e) => format!("divergence: {} on {}; could not write it: {e}", d2.engine, d2.form),
                };
                println!("{msg}");
                sh.found.lock().expect("lock").push(msg);
            }
        }
    }
    sh.stats.lock().expect("lock").merge(&stats);
}

/// Runs the fuzzing loop; returns the exit status (1 if a divergence was
/// found).
pub fn fuzz(o: &FuzzOptions) -> u8 {
    let sh = Shared::default();
    let start = Instant::now();
    println!(
        "warpdiff fuzz: engines {}, {} job(s), seed {:#x}, {} s, corpus {}",
        o.engines.join(","),
        o.jobs,
        o.seed,
        o.seconds,
        o.corpus.display()
    );
    std::thread::scope(|sc| {
        for job in 0..o.jobs {
            let sh = &sh;
            sc.spawn(move || worker(o, job, sh, start));
        }
        let mut last = (Instant::now(), 0u64);
        while start.elapsed() < Duration::from_secs(o.seconds) && !sh.stop.load(Ordering::Relaxed) {
            std::thread::sleep(Duration::from_millis(250));
            if last.0.elapsed() >= Duration::from_secs(1) {
                let execs = sh.execs.load(Ordering::Relaxed);
                let rate = (execs - last.1) as f64 / last.0.elapsed().as_secs_f64();
                let ub = sh.ub.load(Ordering::Relaxed);
                eprintln!(
                    "[{:>4.0}s] {rate:>7.0} execs/s  {execs} cases  UB {:.1}%  rejected {}  divergences {}",
                    start.elapsed().as_secs_f64(),
                    100.0 * ub as f64 / execs.max(1) as f64,
                    sh.rejected.load(Ordering::Relaxed),
                    sh.divergences.load(Ordering::Relaxed)
                );
                last = (Instant::now(), execs);
            }
        }
    });
    let secs = start.elapsed().as_secs_f64();
    let stats = sh.stats.lock().expect("lock");
    let execs = sh.execs.load(Ordering::Relaxed);
    println!("\n{stats}");
    let missing = stats.missing_forms();
    println!(
        "{execs} cases in {secs:.1} s ({:.0} execs/s); usable {:.2}%; UB {}; rejected {}; divergences {}; forms generated {}/{}{}",
        execs as f64 / secs,
        100.0 * stats.usable_share(),
        sh.ub.load(Ordering::Relaxed),
        sh.rejected.load(Ordering::Relaxed),
        sh.divergences.load(Ordering::Relaxed),
        warp_core::gen::all_forms().len() - missing.len(),
        warp_core::gen::all_forms().len(),
        if missing.is_empty() {
            String::new()
        } else {
            format!(" (missing: {})", missing.join(", "))
        }
    );
    if sh.divergences.load(Ordering::Relaxed) > 0 {
        1
    } else {
        0
    }
}

/// `warpdiff reduce FILE -o OUT`: reduces a divergent case by hand.
pub fn reduce(args: &[String]) -> u8 {
    let (mut file, mut out, mut force) = (None, None, false);
    let mut it = args.iter();
    while let Some(a) = it.next() {
        match a.as_str() {
            "-o" | "--output" => out = it.next().cloned(),
            "--force" => force = true,
            f if f.starts_with('-') => {
                eprintln!("warpdiff reduce: unknown option `{f}`");
                return 2;
            }
            f => file = Some(f.to_string()),
        }
    }
    let (Some(file), Some(out)) = (file, out) else {
        eprintln!("usage: warpdiff reduce FILE -o OUT [--force]");
        return 2;
    };
    if std::path::Path::new(&out).exists() && !force {
        eprintln!("warpdiff reduce: {out} exists; not overwriting it (--force to replace)");
        return 2;
    }
    let case = match std::fs::read_to_string(&file)
        .map_err(|e| format!("{file}: cannot read: {e}"))
        .and_then(|s| warp_core::text::parse(&s).map_err(|e| e.with_file(&file)))
    {
        Ok(c) => c,
        Err(m) => {
            eprintln!("{m}");
            return 2;
        }
    };
    let tc = TestCase {
        program: case.program,
        inputs: case.inputs,
    };
    let owned = others(
        &engines::ENGINES
            .iter()
            .map(|s| s.to_string())
            .collect::<Vec<_>>(),
    );
    let others: Vec<&dyn Engine> = owned.iter().map(|e| e.as_ref()).collect();
    let Some(d) = fuzzing::divergence_of(&tc, &others) else {
        eprintln!("{file}: no engine diverges from the reference on it: nothing to reduce");
        return 2;
    };
    let (small, secs) = fuzzing::reduce(&tc, &d, &others, 1);
    let d2 = fuzzing::divergence_of(&small, &others).unwrap_or(d);
    let notes = vec![format!(
        "Reduced by `warpdiff reduce` from {file} ({} instructions) to {} in {secs:.2} s.",
        tc.program.insts.len(),
        small.program.insts.len()
    )];
    let text = fuzzing::case_text(&small, &d2, notes);
    let tmp = format!("{out}.tmp{}", std::process::id());
    if let Err(e) = std::fs::write(&tmp, &text).and_then(|_| std::fs::rename(&tmp, &out)) {
        eprintln!("{out}: cannot write: {e}");
        return 2;
    }
    println!(
        "{file}: {} on {}: {} -> {} instructions in {secs:.2} s; wrote {out}",
        d2.engine,
        d2.form,
        tc.program.insts.len(),
        small.program.insts.len()
    );
    0
}
