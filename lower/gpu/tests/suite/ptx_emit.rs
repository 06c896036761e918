//! The PTX emitter ([`warp_gpu`]), checked without a GPU.
//!
//! Every corpus file (`corpus/**/*.ptx`) and a few
//! hundred generated programs are emitted, grouped by
//! [`module_target`], and the text is checked for structure: each kernel
//! declared once, every register it uses declared, no sink `_` (but in a
//! `mov`'s `{d0, d1, ...}`, which mixes no float type with another) and no
//! `%laneid` operand left, `.rn` on `add`/`sub`/`mul.f32`, one store per
//! register plus the status under the `exit`'s own guard before each
//! `exit`, and the same with status 0 before `ret`. The input and output
//! layouts are checked by round trips.
//!
//! # On a GPU machine
//!
//! The tests write, under `target/ptx-emit/` (or `$CARGO_TARGET_DIR/ptx-emit`),
//! each module of the programs the interpreter runs without undefined
//! behaviour (`corpus-sm_90.ptx`, `gen-sm_70.ptx`, ...), and beside each
//! `NAME.ptx` its launch data: `NAME.kernels` (a line per kernel: name,
//! jobs, in_words, out_words), `NAME.jobs` (a line per job: kernel, block,
//! where it came from, register names), and little-endian `u64` files
//! `NAME.in` (input blocks), `NAME.want` and `NAME.mask` (the interpreter's
//! output blocks and the bits of them that are defined). `check.py` beside
//! them assembles each module with `ptxas -arch=sm_90`, launches every
//! kernel through the CUDA driver (`ctypes`, no other package), compares
//! the defined bits and writes each module's raw output to `NAME.out` in
//! the folder given as its argument:
//!
//! ```sh
//! cargo test -p warp-gpu --test suite ptx_emit::   # prints the folder
//! python3 target/ptx-emit/check.py OUTDIR      # on the GPU machine
//! WARPDIFF_GPU_RESULTS=OUTDIR cargo test -p warp-gpu --test suite ptx_emit::gpu_results -- --ignored
//! ```
//!
//! The last line decodes the outputs with [`decode_outputs`] and compares
//! them with the interpreter through `warp_core::compare`.

use arbitrary::Unstructured;
use std::collections::{BTreeMap, HashMap, HashSet};
use std::path::{Path, PathBuf};
use warp_core::compare::{compare, DiffReport};
use warp_core::gen::{generate, Config};
use warp_core::interp::Interp;
use warp_core::ir::{Control, Glue, Inputs, Op, Program, Target, Type, Version, WARP};
use warp_core::outcome::Outcome;
use warp_core::text::parse;
use warp_gpu::{
    decode_outputs, emit_module, emit_module_with, encode_inputs, in_words, module_target,
    out_words, EmitError, Job, Module, LEGACY_TARGET, LEGACY_VERSION, TARGET, VERSION,
};

/// A program with its inputs and where it came from.
struct Item {
    label: String,
    program: Program,
    inputs: Inputs,
}

/// Every corpus file (`corpus/**/*.ptx`, what every engine's replay
/// reads), but those that crash `ptxas` (a known bug's idiom with
/// [`warp_core::idioms::Effect::CompilerCrash`], N14 of docs/findings.md):
/// one of them would make the whole module's compile fail.
fn parsed() -> Vec<Item> {
    let root = warp_core::replay::corpus_dir();
    warp_core::replay::case_files(&root)
        .iter()
        .filter_map(|f| {
            let case = parse(&std::fs::read_to_string(f).expect("read"))
                .unwrap_or_else(|e| panic!("{}: {e}", f.display()));
            let crashes = warp_core::idioms::known_for(
                &case.program,
                warp_core::idioms::Effect::CompilerCrash,
            );
            crashes.is_empty().then(|| Item {
                label: warp_core::replay::test_name(&root, f),
                program: case.program,
                inputs: case.inputs,
            })
        })
        .collect()
}

/// `n` generated cases from a fixed seed (deterministic).
fn generated(n: usize) -> Vec<Item> {
    let mut rng = warp_core::rng::Rng::new(0x9e37_79b9_7f4a_7c15);
    let mut out = Vec::new();
    let mut seed = 0;
    while out.len() < n {
        seed += 1;
        let bytes = rng.bytes(2048);
        if let Ok(tc) = generate(&mut Unstructured::new(&bytes), &Config::default()) {
            out.push(Item {
                label: format!("gen#{seed}"),
                program: tc.program,
                inputs: tc.inputs,
            });
        }
    }
    out
}

/// A second input set for the same program: every lane's values rotated by
/// `k` lanes (so a kernel gets several jobs).
fn rotated(item: &Item, k: usize) -> Item {
    let lanes = item
        .inputs
        .lanes
        .iter()
        .map(|(r, v)| (*r, std::array::from_fn(|l| v[(l + k) % WARP])))
        .collect();
    Item {
        label: format!("{}@rot{k}", item.label),
        program: item.program.clone(),
        inputs: Inputs { lanes, fuel: None },
    }
}

/// Where the emitted files go.
fn out_dir() -> PathBuf {
    let target = std::env::var_os("CARGO_TARGET_DIR")
        .map(PathBuf::from)
        .unwrap_or_else(|| Path::new(env!("CARGO_MANIFEST_DIR")).join("../../target"));
    let d = target.join("ptx-emit");
    std::fs::create_dir_all(&d).expect("create target/ptx-emit");
    d
}

fn target_tag(t: Target) -> String {
    t.to_string()
}

/// Item indices by module target (`sm_90`, `sm_70`).
type Groups = BTreeMap<String, Vec<usize>>;

/// Groups items by module target; returns the skipped ones (index, reason)
/// separately.
fn group(items: &[Item]) -> (Groups, Vec<(usize, String)>) {
    let mut groups: BTreeMap<String, Vec<usize>> = BTreeMap::new();
    let mut skipped = Vec::new();
    for (i, it) in items.iter().enumerate() {
        match module_target(&it.program) {
            Ok((_, t)) => groups.entry(target_tag(t)).or_default().push(i),
            Err(s) => skipped.push((i, s.reason)),
        }
    }
    (groups, skipped)
}

fn pair_for(tag: &str) -> (Version, Target) {
    if tag == target_tag(TARGET) {
        (VERSION, TARGET)
    } else {
        assert_eq!(tag, target_tag(LEGACY_TARGET));
        (LEGACY_VERSION, LEGACY_TARGET)
    }
}

fn emit(items: &[Item], idx: &[usize], tag: &str) -> Module {
    let jobs: Vec<Job> = idx
        .iter()
        .map(|&i| Job {
            program: &items[i].program,
            inputs: &items[i].inputs,
        })
        .collect();
    let (v, t) = pair_for(tag);
    emit_module(&jobs, v, t).unwrap_or_else(|e| panic!("{e}"))
}

/// The lines of kernel `name`'s body (between `{` and `}`).
fn kernel_body<'a>(ptx: &'a str, name: &str) -> Vec<&'a str> {
    let head = format!(".visible .entry {name}(");
    let mut lines = ptx.lines().skip_while(|l| !l.starts_with(&head));
    assert!(lines.next().is_some(), "kernel {name} not found");
    assert_eq!(lines.next(), Some("{"));
    lines.take_while(|l| *l != "}").collect()
}

/// `%name` tokens of a line (special registers keep their `.x`-less base).
fn percent_tokens(line: &str) -> Vec<String> {
    let mut out = Vec::new();
    let b = line.as_bytes();
    let mut i = 0;
    while i < b.len() {
        if b[i] == b'%' {
            let mut j = i + 1;
            while j < b.len() && (b[j].is_ascii_alphanumeric() || b[j] == b'_') {
                j += 1;
            }
            out.push(line[i..j].to_string());
            i = j;
        } else {
            i += 1;
        }
    }
    out
}

/// The special registers a kernel body may read (by their `.x`-less
/// base): `%laneid` and `%ctaid` in the prologue, and those of a case's
/// lane ops whose values one warp of a one-warp CTA has on the GPU too
/// (issue #39; `%nctaid` is written as a constant).
const SPECIALS: [&str; 9] = [
    "%laneid",
    "%ctaid",
    "%tid",
    "%ntid",
    "%lanemask_eq",
    "%lanemask_le",
    "%lanemask_lt",
    "%lanemask_ge",
    "%lanemask_gt",
];

/// Structural checks of one module against the programs of its jobs.
fn check_module(m: &Module, items: &[Item], idx: &[usize], what: &str) {
    let ptx = &m.ptx;
    let mut covered: Vec<usize> = Vec::new();
    let mut seen_programs: Vec<&Program> = Vec::new();
    for k in &m.kernels {
        let ctx = format!("{what}: kernel {}", k.name);
        let head = format!(".visible .entry {}(", k.name);
        assert_eq!(ptx.matches(&head).count(), 1, "{ctx}: declared once");
        assert!(!k.jobs.is_empty(), "{ctx}: no jobs");
        covered.extend(&k.jobs);
        let prog = &items[idx[k.jobs[0]]].program;
        for &j in &k.jobs {
            assert_eq!(
                &items[idx[j]].program, prog,
                "{ctx}: one program per kernel"
            );
        }
        assert!(
            !seen_programs.contains(&prog),
            "{ctx}: program emitted twice"
        );
        seen_programs.push(prog);
        assert_eq!(k.in_words, in_words(prog), "{ctx}");
        assert_eq!(k.out_words, out_words(prog), "{ctx}");
        let body = kernel_body(ptx, &k.name);
        let code: Vec<&str> = body
            .iter()
            .map(|l| l.trim())
            .filter(|l| !l.is_empty() && !l.starts_with("//"))
            .collect();
        // Declarations cover every register used.
        let mut declared: HashSet<String> = HashSet::new();
        let mut reg_type: HashMap<String, String> = HashMap::new();
        let mut w_regs = 0;
        for l in code.iter().filter(|l| l.starts_with(".reg ")) {
            let mut parts = l.trim_end_matches(';').splitn(3, ' ');
            let ty = parts.nth(1).expect("type");
            let names = parts.next().expect("names");
            for n in names.split(',') {
                let n = n.trim().to_string();
                reg_type.insert(n.clone(), ty.to_string());
                if n.starts_with("%w") {
                    w_regs += 1;
                }
                assert!(declared.insert(n.clone()), "{ctx}: {n} declared twice");
            }
        }
        assert_eq!(w_regs, prog.regs.len(), "{ctx}: one %w per register");
        for (i, d) in prog.regs.iter().enumerate() {
            let line = format!(".reg {} ", d.ty);
            assert!(
                code.iter()
                    .any(|l| l.starts_with(&line) && percent_tokens(l).contains(&format!("%w{i}"))),
                "{ctx}: %w{i} declared {}",
                d.ty
            );
        }
        let insts: Vec<&str> = code
            .iter()
            .copied()
            .filter(|l| !l.starts_with(".reg ") && !l.ends_with(':'))
            .collect();
        for l in &insts {
            for t in percent_tokens(l) {
                assert!(
                    declared.contains(&t) || SPECIALS.contains(&t.as_str()),
                    "{ctx}: `{t}` undeclared in `{l}`"
                );
            }
            // A case's `%ctaid`/`%nctaid` are the one CTA's (constants):
            // the kernel's own `%ctaid.x` is read once, for its job's block.
            if l.contains("%ctaid") {
                assert_eq!(*l, "mov.u32 %cta, %ctaid.x;", "{ctx}: %ctaid operand");
            }
            if l.contains("%laneid") {
                assert_eq!(*l, "mov.u32 %lane, %laneid;", "{ctx}: %laneid operand");
            }
            // No sink `_` survives (ptxas refuses it in shfl and vote).
            let toks: Vec<&str> = l
                .split(|c: char| c.is_whitespace() || c == ',' || c == '|' || c == ';')
                .collect();
            assert!(!toks.contains(&"_"), "{ctx}: sink left in `{l}`");
            // A `mov`'s `{a, b, ...}` names at least one register, and no
            // float register beside one of another type (ptxas: "Vector with
            // elements of different types are not allowed in mov
            // instruction" for `.u32` or `.s32` with `.f32`; it compiles
            // `.u16`, `.b16` and `.s16` together; `.b32` with `.f32` is not
            // known, so not emitted).
            if let (true, Some(open), Some(close)) = (l.contains("mov."), l.find('{'), l.find('}'))
            {
                let elems: Vec<&str> = l[open + 1..close]
                    .split(',')
                    .map(str::trim)
                    .filter(|e| *e != "_")
                    .collect();
                assert!(!elems.is_empty(), "{ctx}: no register in `{l}`");
                let types: HashSet<&String> = elems.iter().map(|e| &reg_type[*e]).collect();
                let float = types.iter().any(|t| t.starts_with(".f"));
                assert!(
                    !float || types.len() == 1,
                    "{ctx}: a vector of {types:?} in `{l}`"
                );
            }
            // ptxas refuses .f32 registers in redux.sync.
            if l.contains("redux.sync") {
                for t in percent_tokens(l) {
                    if let Some(i) = t.strip_prefix("%w").and_then(|i| i.parse::<usize>().ok()) {
                        assert_ne!(prog.regs[i].ty, Type::F32, "{ctx}: `{l}`");
                    }
                }
            }
            for op in ["add.f32 ", "sub.f32 ", "mul.f32 "] {
                assert!(!l.contains(op), "{ctx}: `{l}` without .rn");
            }
        }
        // Labels: one per program label, branches as many as in the program.
        let labels = code.iter().filter(|l| l.ends_with(':')).count();
        assert_eq!(labels, prog.labels.len(), "{ctx}: labels");
        let n_bra = prog
            .insts
            .iter()
            .filter(|i| i.op.branch_target().is_some())
            .count();
        let bras = insts
            .iter()
            .filter(|l| l.split_whitespace().any(|w| w == "bra"))
            .count();
        assert_eq!(bras, n_bra, "{ctx}: branches");
        // Each exit site: the stores under the exit's own guard just before it.
        let n = prog.regs.len();
        let preds = prog.regs.iter().filter(|d| d.ty == Type::Pred).count();
        let seq = n + preds + 1;
        let exits: Vec<usize> = (0..insts.len())
            .filter(|&i| insts[i].ends_with("exit;"))
            .collect();
        let n_exit = prog
            .insts
            .iter()
            .filter(|i| matches!(i.op, Op::Control(Control::Exit)))
            .count();
        assert_eq!(exits.len(), n_exit, "{ctx}: exit sites");
        let check_stores = |end: usize, guard: &str, status: u32, site: &str| {
            assert!(end >= seq, "{ctx}: {site}: too few lines before it");
            let before = &insts[end - seq..end];
            let stores: Vec<&&str> = before
                .iter()
                .filter(|l| l.starts_with(&format!("{guard}st.global")))
                .collect();
            assert_eq!(stores.len(), n + 1, "{ctx}: {site}: stores {before:?}");
            for l in before {
                assert!(
                    l.starts_with(guard)
                        && (guard.starts_with('@') || !l.starts_with('@'))
                        && (l.contains("st.global") || l.contains("selp.u32 %t32")),
                    "{ctx}: {site}: `{l}` in the store sequence"
                );
            }
            for i in 0..n {
                let w = format!("%w{i}");
                let stored = before.iter().any(|l| {
                    let t = percent_tokens(l);
                    t.contains(&w) && (l.contains("st.global") || l.contains("selp.u32"))
                });
                assert!(stored, "{ctx}: {site}: {w} not stored");
            }
            let last = before[seq - 1];
            assert_eq!(
                last,
                format!("{guard}st.global.u64 [%out+{}], {status};", n * WARP * 8),
                "{ctx}: {site}: status store"
            );
        };
        for &e in &exits {
            let guard = insts[e].strip_suffix("exit;").unwrap();
            check_stores(e, guard, 1, &format!("`{}`", insts[e]));
        }
        let ret = insts.len() - 1;
        assert_eq!(insts[ret], "ret;", "{ctx}: ends with ret");
        check_stores(ret, "", 0, "ret");
    }
    covered.sort();
    assert_eq!(
        covered,
        (0..idx.len()).collect::<Vec<_>>(),
        "{what}: every job once"
    );
    assert!(m.ptx.contains(".address_size 64"));
}

/// Interpreter outcome when it runs without UB within the default fuel.
fn reference(it: &Item) -> Option<Outcome> {
    Interp::new(&it.program)
        .run(&it.inputs)
        .ok()
        .filter(|o| o.ub.is_none())
}

fn push_words(buf: &mut Vec<u8>, words: &[u64]) {
    for w in words {
        buf.extend_from_slice(&w.to_le_bytes());
    }
}

/// Writes `NAME.ptx` and its launch data (see the file's doc).
fn write_module(dir: &Path, name: &str, m: &Module, items: &[Item], idx: &[usize]) {
    let mut kernels = String::new();
    let mut jobs = String::new();
    let (mut input, mut want, mut mask) = (Vec::new(), Vec::new(), Vec::new());
    for k in &m.kernels {
        kernels.push_str(&format!(
            "{} {} {} {}\n",
            k.name,
            k.jobs.len(),
            k.in_words,
            k.out_words
        ));
        for (block, &j) in k.jobs.iter().enumerate() {
            let it = &items[idx[j]];
            let names: Vec<&str> = it.program.regs.iter().map(|d| d.name.as_str()).collect();
            jobs.push_str(&format!(
                "{} {block} {} {}\n",
                k.name,
                it.label,
                names.join(",")
            ));
            push_words(&mut input, &encode_inputs(&it.program, &it.inputs));
            let out = reference(it).expect("only programs without UB are written");
            let n = it.program.regs.len();
            let mut w = vec![0u64; k.out_words];
            let mut mk = vec![0u64; k.out_words];
            for r in 0..n {
                let tm = it.program.regs[r].ty.mask();
                for lane in 0..WARP {
                    if out.defined[r] >> lane & 1 == 1 {
                        w[r * WARP + lane] = out.values[r][lane];
                        mk[r * WARP + lane] = tm;
                    }
                }
            }
            for lane in 0..WARP {
                w[n * WARP + lane] = u64::from(out.exited >> lane & 1);
                mk[n * WARP + lane] = u64::MAX;
            }
            push_words(&mut want, &w);
            push_words(&mut mask, &mk);
        }
    }
    let write = |ext: &str, data: &[u8]| {
        std::fs::write(dir.join(format!("{name}.{ext}")), data).expect("write");
    };
    write("ptx", m.ptx.as_bytes());
    write("kernels", kernels.as_bytes());
    write("jobs", jobs.as_bytes());
    write("in", &input);
    write("want", &want);
    write("mask", &mask);
}

/// Emits `items` grouped by target: checks every module (all items) and
/// writes the modules of the items without UB as `PREFIX-TARGET.*`.
fn emit_check_write(items: &[Item], prefix: &str) -> Vec<PathBuf> {
    let (groups, skipped) = group(items);
    for (i, why) in &skipped {
        println!("skipped {}: {why}", items[*i].label);
    }
    let dir = out_dir();
    let mut written = Vec::new();
    for (tag, idx) in &groups {
        let m = emit(items, idx, tag);
        check_module(&m, items, idx, &format!("{prefix}-{tag}"));
        let runnable: Vec<usize> = idx
            .iter()
            .copied()
            .filter(|&i| reference(&items[i]).is_some())
            .collect();
        let m = emit(items, &runnable, tag);
        check_module(&m, items, &runnable, &format!("{prefix}-{tag} (runnable)"));
        let name = format!("{prefix}-{tag}");
        write_module(&dir, &name, &m, items, &runnable);
        println!(
            "{}: {} kernels, {} jobs ({} of {} without UB)",
            dir.join(format!("{name}.ptx")).display(),
            m.kernels.len(),
            runnable.len(),
            runnable.len(),
            idx.len()
        );
        written.push(dir.join(format!("{name}.ptx")));
    }
    std::fs::write(dir.join("check.py"), CHECK_PY).expect("write check.py");
    written
}

#[test]
fn corpus_and_cases_emit() {
    let mut items = parsed();
    assert!(items.len() >= 60, "only {} corpus files", items.len());
    // A second job for a few programs, so kernels run several warps.
    let extra: Vec<Item> = items.iter().step_by(5).map(|it| rotated(it, 3)).collect();
    items.extend(extra);
    let (groups, skipped) = group(&items);
    assert!(groups.contains_key("sm_90") && groups.contains_key("sm_70"));
    assert!(
        skipped.iter().any(
            |(i, why)| items[*i].label.starts_with("corpus/redux.sync.max.f32")
                && why.starts_with("needs sm_100a")
        ),
        "the f32 redux corpus case is skipped"
    );
    let written = emit_check_write(&items, "corpus");
    assert_eq!(written.len(), 2);
}

#[test]
fn generated_emit() {
    let mut items = generated(300);
    let extra: Vec<Item> = items.iter().step_by(3).map(|it| rotated(it, 1)).collect();
    items.extend(extra);
    let written = emit_check_write(&items, "gen");
    assert!(!written.is_empty());
}

#[test]
fn module_targets() {
    let t = |src: &str| module_target(&parse(src).expect("parses").program);
    assert_eq!(
        t(".reg .b32 a, b;\nshfl.sync.up.b32 b, a, 1, 0, 0xffffffff;\n"),
        Ok((
            Version::new(7, 8),
            Target {
                sm: 90,
                suffix: None
            }
        ))
    );
    assert_eq!(
        t(".version 6.3\n.target sm_70\n.reg .b32 a, b;\nshfl.up.b32 b, a, 1, 0;\n"),
        Ok((
            Version::new(6, 3),
            Target {
                sm: 70,
                suffix: None
            }
        ))
    );
    assert_eq!(
        t(".version 5.0\n.target sm_60\n.reg .pred p, q;\nvote.any.pred q, p;\n"),
        Ok((LEGACY_VERSION, LEGACY_TARGET))
    );
    let skip = t(".target sm_100a\n.reg .f32 a, b;\nredux.sync.min.abs.f32 b, a, 0xffffffff;\n")
        .unwrap_err();
    assert!(skip.reason.starts_with("needs sm_100a"), "{skip}");
    let skip = t(
        ".version 6.3\n.target sm_70\n.reg .b32 a, b;\nshfl.up.b32 b, a, 1, 0;\nredux.sync.add.u32 b, a, 0xffffffff;\n",
    )
    .unwrap_err();
    assert!(skip.reason.contains("PTX 7.0"), "{skip}");
}

#[test]
fn errors() {
    let legacy =
        parse(".version 6.3\n.target sm_70\n.reg .b32 a, b;\nshfl.up.b32 b, a, 1, 0;\n").unwrap();
    let jobs = [Job {
        program: &legacy.program,
        inputs: &legacy.inputs,
    }];
    let e = emit_module(&jobs, VERSION, TARGET).unwrap_err();
    assert!(matches!(e, EmitError::WrongModule { job: 0, .. }), "{e}");
    assert!(e.to_string().contains(".version 6.3"), "{e}");
    let f32 =
        parse(".target sm_100a\n.reg .f32 a, b;\nredux.sync.max.f32 b, a, 0xffffffff;\n").unwrap();
    let jobs = [Job {
        program: &f32.program,
        inputs: &f32.inputs,
    }];
    let e = emit_module(&jobs, VERSION, TARGET).unwrap_err();
    assert!(matches!(e, EmitError::Skipped { job: 0, .. }), "{e}");
    // `mov.pred %p, -1` is PTX (LLVM writes it; the parser reads it since
    // issue #39): kept as it is.
    let p = parse(".reg .pred p, q;\nmov.pred q, -1;\n").unwrap();
    let jobs = [Job {
        program: &p.program,
        inputs: &p.inputs,
    }];
    let m = emit_module(&jobs, VERSION, TARGET).unwrap();
    assert!(
        kernel_body(&m.ptx, "k0")
            .iter()
            .any(|l| l.trim().starts_with("mov.pred %w1, ")),
        "{}",
        m.ptx
    );
    // `bar.warp.sync`, which the parser reads as a `vote` with the
    // predicate 1 and no result, is emitted as `bar.warp.sync` (it was
    // refused as a predicate immediate, session 9), its register mask
    // renamed as every register is.
    let p = parse(".reg .b32 m;\nbar.warp.sync 0xffffffff;\nbar.warp.sync m;\n").unwrap();
    let jobs = [Job {
        program: &p.program,
        inputs: &p.inputs,
    }];
    let m = emit_module(&jobs, VERSION, TARGET).unwrap();
    let body = kernel_body(&m.ptx, "k0");
    let syncs: Vec<&str> = body
        .iter()
        .map(|l| l.trim())
        .filter(|l| l.starts_with("bar.warp.sync"))
        .collect();
    assert_eq!(
        syncs,
        ["bar.warp.sync 0xffffffff;", "bar.warp.sync %w0;"],
        "{}",
        m.ptx
    );
    // A predicate immediate voted on, as LLVM writes it, is kept: ptxas
    // 13.0 takes it (H100, docs/log/gpu-2026-11-28-i/llvm-vote-imm-h100.txt).
    let p = parse(
        ".reg .b32 r;\nvote.sync.ballot.b32 r, 1, -1;\nvote.sync.any.pred _, 0, 0xffffffff;\n",
    )
    .unwrap();
    let jobs = [Job {
        program: &p.program,
        inputs: &p.inputs,
    }];
    let m = emit_module(&jobs, VERSION, TARGET).unwrap();
    let votes: Vec<&str> = kernel_body(&m.ptx, "k0")
        .into_iter()
        .map(|l| l.trim())
        .filter(|l| l.starts_with("vote"))
        .collect();
    assert_eq!(
        votes,
        [
            "vote.sync.ballot.b32 %w0, 1, 0xffffffff;",
            "vote.sync.any.pred %sinkp, 0, 0xffffffff;"
        ],
        "{}",
        m.ptx
    );
    // A predicate immediate where PTX needs a register (`selp`'s `c`),
    // built in memory (the parser refuses it).
    let mut p = parse(".reg .b32 a;\n.reg .pred p;\nselp.b32 a, 1, 2, p;\n").unwrap();
    if let Op::Glue(Glue::Selp { c, .. }) = &mut p.program.insts[0].op {
        *c = warp_core::ir::Operand::Imm(1);
    }
    let jobs = [Job {
        program: &p.program,
        inputs: &p.inputs,
    }];
    let e = emit_module(&jobs, VERSION, TARGET).unwrap_err();
    assert!(matches!(e, EmitError::PredImmediate { job: 0, .. }), "{e}");
}

#[test]
fn emitted_text() {
    let case = parse(
        "\
.reg .b32 a, b;
.reg .f32 f;
.reg .b64 x;
.reg .pred p;
.lanes a = 5;
.lanes f = 1.5;
.lanes p = 1;
top:
    shfl.sync.up.b32 _|p, a, 1, 0, 0xffffffff;
    vote.sync.ballot.b32 _, p, 0xffffffff;
    match.all.sync.b32 b|_, a, 0xffffffff;
    add.u32 b, %laneid, 3;
    add.f32 f, f, 0f3f800000;
    mul.f32 f, f, f;
@p  redux.sync.and.b32 f, f, 0xffffffff;
@!p exit;
    mov.b64 _, x;
    exit;
",
    )
    .unwrap();
    let jobs = [Job {
        program: &case.program,
        inputs: &case.inputs,
    }];
    let m = emit_module(&jobs, VERSION, TARGET).unwrap();
    let body = kernel_body(&m.ptx, "k0");
    let code: Vec<&str> = body.iter().map(|l| l.trim()).collect();
    let has = |l: &str| assert!(code.contains(&l), "missing `{l}` in\n{}", m.ptx);
    has(".reg .b32 %w0, %w1;");
    has(".reg .f32 %w2;");
    has(".reg .b64 %w3;");
    has(".reg .pred %w4;");
    has("ld.global.b32 %w0, [%in];");
    has("ld.global.b32 %w2, [%in+512];");
    has("ld.global.b32 %t32, [%in+1024];");
    has("setp.ne.b32 %w4, %t32, 0;");
    assert!(!m.ptx.contains("[%in+256]"), "b has no .lanes: not loaded");
    has("L_0:");
    has("shfl.sync.up.b32 %sink32|%w4, %w0, 1, 0, 0xffffffff;");
    has("vote.sync.ballot.b32 %sink32, %w4, 0xffffffff;");
    has("match.all.sync.b32 %w1|%sinkp, %w0, 0xffffffff;");
    has("add.u32 %w1, %lane, 3;");
    has("add.rn.f32 %w2, %w2, 0f3f800000;");
    has("mul.rn.f32 %w2, %w2, %w2;");
    has("mov.b32 %redux_a, %w2;");
    has("@%w4 redux.sync.and.b32 %redux_d, %redux_a, 0xffffffff;");
    has("@%w4 mov.b32 %w2, %redux_d;");
    has("mov.b64 %sink64, %w3;");
    has("@!%w4 st.global.b32 [%out], %w0;");
    has("@!%w4 st.global.b64 [%out+768], %w3;");
    has("@!%w4 selp.u32 %t32, 1, 0, %w4;");
    has("@!%w4 st.global.b32 [%out+1024], %t32;");
    has("@!%w4 st.global.u64 [%out+1280], 1;");
    has("@!%w4 exit;");
    has("st.global.u64 [%out+1280], 1;");
    has("st.global.u64 [%out+1280], 0;");
    assert_eq!(code.last(), Some(&"ret;"));
    assert_eq!(m.kernels[0].in_words, 5 * 32);
    assert_eq!(m.kernels[0].out_words, 6 * 32);
    assert!(m
        .ptx
        .contains(".version 7.8\n.target sm_90\n.address_size 64\n"));
}

#[test]
fn kernels_per_distinct_program() {
    let a = parse(".reg .b32 a, b;\n.lanes a = 1;\nadd.u32 b, a, 1;\n").unwrap();
    let a2 = parse(".reg .b32 a, b;\n.lanes a = 7;\nadd.u32 b, a, 1;\n").unwrap();
    let c = parse(".reg .b32 a, b;\n.lanes b = 1;\nadd.u32 b, a, 2;\n").unwrap();
    let job =
        |c: &warp_core::ir::Case| -> (Program, Inputs) { (c.program.clone(), c.inputs.clone()) };
    let owned = [job(&a), job(&c), job(&a2)];
    let jobs: Vec<Job> = owned
        .iter()
        .map(|(p, i)| Job {
            program: p,
            inputs: i,
        })
        .collect();
    let m = emit_module(&jobs, VERSION, TARGET).unwrap();
    let ks: Vec<(&str, &[usize])> = m
        .kernels
        .iter()
        .map(|k| (k.name.as_str(), k.jobs.as_slice()))
        .collect();
    assert_eq!(ks, [("k0", &[0, 2][..]), ("k1", &[1][..])]);
    // k1 loads b (its job's .lanes) but not a.
    let k1 = kernel_body(&m.ptx, "k1").join("\n");
    assert!(k1.contains("ld.global.b32 %w1, [%in+256];"));
    assert!(!k1.contains("ld.global.b32 %w0"));
    let empty = emit_module(&[], VERSION, TARGET).unwrap();
    assert!(empty.kernels.is_empty());
}

#[test]
fn encode_decode_round_trip() {
    let case = parse(
        "\
.reg .b32 a;
.reg .f32 f;
.reg .s64 x;
.reg .pred p;
.reg .u32 never;
.lanes a = 0 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20 21 22 23 24 25 26 27 28 29 30 0xffffffff;
.lanes f = -0.0;
.lanes x = -1;
.lanes p = 1 0 1 0 1 0 1 0 1 0 1 0 1 0 1 0 1 0 1 0 1 0 1 0 1 0 1 0 1 0 1 0;
    exit;
",
    )
    .unwrap();
    let (prog, inputs) = (&case.program, &case.inputs);
    let words = encode_inputs(prog, inputs);
    assert_eq!(words.len(), in_words(prog));
    assert_eq!(words.len(), 5 * WARP);
    for (r, vals) in &inputs.lanes {
        for lane in 0..WARP {
            assert_eq!(words[r.index() * WARP + lane], vals[lane]);
        }
    }
    assert_eq!(words[WARP + 3], 0x8000_0000);
    assert_eq!(words[2 * WARP], u64::MAX);
    assert!(
        words[4 * WARP..].iter().all(|&w| w == 0),
        "no .lanes: zeros"
    );
    // What a kernel that stored its inputs back would leave: the input
    // words with garbage in the high halves of 32-bit stores, then status.
    let mut out: Vec<u64> = words.clone();
    let mut x: u64 = 0x1234_5678_9abc_def1;
    for (r, d) in prog.regs.iter().enumerate() {
        for lane in 0..WARP {
            x = x
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            if d.ty.bits() <= 32 {
                out[r * WARP + lane] |= x & 0xffff_ffff_0000_0000;
            }
        }
    }
    let exited: u32 = 0x8000_0011;
    out.extend((0..WARP).map(|l| u64::from(exited >> l & 1)));
    assert_eq!(out.len(), out_words(prog));
    let o = decode_outputs(prog, &out);
    assert_eq!(o.exited, exited);
    assert!(o.ub.is_none());
    assert_eq!(o.defined, vec![u32::MAX; prog.regs.len()]);
    for (r, vals) in &inputs.lanes {
        assert_eq!(&o.values[r.index()], vals, "{}", prog.decl(*r).name);
    }
    assert_eq!(o.values[4], [0; WARP]);
    // Random blocks: decode masks each word to its register's width.
    for _ in 0..50 {
        let w: Vec<u64> = (0..out_words(prog))
            .map(|_| {
                x ^= x << 13;
                x ^= x >> 7;
                x ^= x << 17;
                x
            })
            .collect();
        let o = decode_outputs(prog, &w);
        for (r, d) in prog.regs.iter().enumerate() {
            for lane in 0..WARP {
                assert_eq!(o.values[r][lane], w[r * WARP + lane] & d.ty.mask());
            }
        }
        let want = (0..WARP)
            .filter(|&l| w[prog.regs.len() * WARP + l] == 1)
            .fold(0u32, |m, l| m | 1 << l);
        assert_eq!(o.exited, want);
    }
}

/// With `WARPDIFF_GPU_RESULTS=DIR` (where `check.py DIR` left `NAME.out`
/// files), decodes every job's output and compares it with the
/// interpreter on the defined lanes (modules without a `NAME.out` are
/// named and left out). Without it, says so and checks nothing.
#[test]
#[ignore = "needs results from a GPU: set WARPDIFF_GPU_RESULTS (see the module doc)"]
fn gpu_results() {
    let dir = std::env::var_os("WARPDIFF_GPU_RESULTS")
        .map(PathBuf::from)
        .expect("WARPDIFF_GPU_RESULTS names the folder check.py wrote its NAME.out files to");
    let mut corpus = parsed();
    let extra: Vec<Item> = corpus.iter().step_by(5).map(|it| rotated(it, 3)).collect();
    corpus.extend(extra);
    let mut gen = generated(300);
    let extra: Vec<Item> = gen.iter().step_by(3).map(|it| rotated(it, 1)).collect();
    gen.extend(extra);
    let mut failures = Vec::new();
    let mut checked = 0;
    for (prefix, items) in [("corpus", &corpus), ("gen", &gen)] {
        let (groups, _) = group(items);
        for (tag, idx) in &groups {
            let runnable: Vec<usize> = idx
                .iter()
                .copied()
                .filter(|&i| reference(&items[i]).is_some())
                .collect();
            let m = emit(items, &runnable, tag);
            let name = format!("{prefix}-{tag}");
            let path = dir.join(format!("{name}.out"));
            let Ok(bytes) = std::fs::read(&path) else {
                println!("{}: absent, not checked", path.display());
                continue;
            };
            let words: Vec<u64> = bytes
                .chunks_exact(8)
                .map(|c| u64::from_le_bytes(c.try_into().unwrap()))
                .collect();
            let mut at = 0;
            for k in &m.kernels {
                for &j in &k.jobs {
                    let it = &items[runnable[j]];
                    let got = decode_outputs(&it.program, &words[at..at + k.out_words]);
                    at += k.out_words;
                    let want = reference(it).unwrap();
                    let diffs = compare(&want, &got);
                    checked += 1;
                    if !diffs.is_empty() {
                        let r = DiffReport {
                            program: &it.program,
                            reference: "interp",
                            other: "gpu",
                            diffs: &diffs,
                        };
                        failures.push(format!("{name} {} ({}):\n{r}", k.name, it.label));
                    }
                }
            }
            assert_eq!(at, words.len(), "{name}: output size");
        }
    }
    println!("{checked} GPU jobs compared");
    assert!(checked > 0, "no NAME.out file in {}", dir.display());
    assert!(
        failures.is_empty(),
        "{} jobs differ:\n{}",
        failures.len(),
        failures.join("\n")
    );
}

/// The GPU-side checker written beside the modules (see the file's doc).
const CHECK_PY: &str = r#"#!/usr/bin/env python3
# Written by lower/gpu/tests/suite/ptx_emit.rs. Usage: python3 check.py [OUTDIR [NAME...]]
# For each NAME.ptx beside this file (or the NAMEs given): ptxas -arch=sm_90,
# then load it through the CUDA driver, launch every kernel (grid = its jobs,
# 32 threads), compare the defined bits of the output with NAME.want and
# NAME.mask, and write the raw output to OUTDIR/NAME.out. Exit status 1 on
# any mismatch or error. WARPDIFF_JIT_O=0..4 sets the driver's PTX-JIT
# optimization level; WARPDIFF_PROGRESS=1 names each kernel (on stderr)
# before its launch, to find one that hangs.
import ctypes, os, subprocess, sys, glob, struct

here = os.path.dirname(os.path.abspath(__file__))
outdir = sys.argv[1] if len(sys.argv) > 1 else here
only = set(sys.argv[2:])
os.makedirs(outdir, exist_ok=True)
opt = os.environ.get("WARPDIFF_JIT_O")
progress = os.environ.get("WARPDIFF_PROGRESS") == "1"
cu = ctypes.CDLL("libcuda.so.1")

def ck(r, what):
    if r != 0:
        s = ctypes.c_char_p()
        cu.cuGetErrorString(r, ctypes.byref(s))
        raise RuntimeError("%s: error %d %s" % (what, r, s.value))

ck(cu.cuInit(0), "cuInit")
dev = ctypes.c_int()
ck(cu.cuDeviceGet(ctypes.byref(dev), 0), "cuDeviceGet")
ctx = ctypes.c_void_p()
ck(cu.cuDevicePrimaryCtxRetain(ctypes.byref(ctx), dev), "cuDevicePrimaryCtxRetain")
ck(cu.cuCtxSetCurrent(ctx), "cuCtxSetCurrent")

def words(path):
    b = open(path, "rb").read()
    return list(struct.unpack("<%dQ" % (len(b) // 8), b))

bad = 0
for ptx in sorted(glob.glob(os.path.join(here, "*.ptx"))):
    name = os.path.basename(ptx)[:-4]
    base = ptx[:-4]
    if only and name not in only:
        continue
    r = subprocess.run(["ptxas", "-arch=sm_90", ptx, "-o", "/dev/null"], capture_output=True, text=True)
    errs = [l for l in r.stderr.splitlines() if "warning" not in l]
    print("%s: ptxas rc=%d%s" % (name, r.returncode, "" if not errs else "\n  " + "\n  ".join(errs[:20])))
    if r.returncode != 0:
        bad += 1
        continue
    if not os.path.exists(base + ".kernels"):
        continue
    kernels = [l.split() for l in open(base + ".kernels").read().splitlines() if l.strip()]
    jobs = [l.split() for l in open(base + ".jobs").read().splitlines() if l.strip()]
    inp, want, mask = words(base + ".in"), words(base + ".want"), words(base + ".mask")
    log = ctypes.create_string_buffer(1 << 16)
    o = [5, 6]  # CU_JIT_ERROR_LOG_BUFFER, CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES
    v = [ctypes.cast(log, ctypes.c_void_p), ctypes.c_void_p(1 << 16)]
    if opt is not None:
        o.append(7)  # CU_JIT_OPTIMIZATION_LEVEL
        v.append(ctypes.c_void_p(int(opt)))
    opts = (ctypes.c_int * len(o))(*o)
    vals = (ctypes.c_void_p * len(v))(*v)
    mod = ctypes.c_void_p()
    r = cu.cuModuleLoadDataEx(ctypes.byref(mod), open(ptx, "rb").read() + b"\0", len(o), opts, vals)
    if r != 0:
        print("%s: cuModuleLoadDataEx error %d: %s" % (name, r, log.value.decode(errors="replace")))
        bad += 1
        continue
    out_all = []
    ip = op = 0
    mism = 0
    for kname, njobs, inw, outw in kernels:
        njobs, inw, outw = int(njobs), int(inw), int(outw)
        fn = ctypes.c_void_p()
        ck(cu.cuModuleGetFunction(ctypes.byref(fn), mod, kname.encode()), "cuModuleGetFunction " + kname)
        nin, nout = max(njobs * inw, 1), njobs * outw
        din, dout = ctypes.c_uint64(), ctypes.c_uint64()
        ck(cu.cuMemAlloc_v2(ctypes.byref(din), nin * 8), "alloc")
        ck(cu.cuMemAlloc_v2(ctypes.byref(dout), nout * 8), "alloc")
        hin = (ctypes.c_uint64 * nin)(*(inp[ip:ip + njobs * inw] or [0]))
        ck(cu.cuMemcpyHtoD_v2(din, hin, nin * 8), "HtoD")
        ck(cu.cuMemsetD8_v2(dout, 0xA5, nout * 8), "memset")
        params = (ctypes.c_void_p * 2)(ctypes.cast(ctypes.byref(din), ctypes.c_void_p), ctypes.cast(ctypes.byref(dout), ctypes.c_void_p))
        if progress:
            sys.stderr.write("%s %s: launching %d jobs\n" % (name, kname, njobs))
            sys.stderr.flush()
        ck(cu.cuLaunchKernel(fn, njobs, 1, 1, 32, 1, 1, 0, None, params, None), "launch " + kname)
        ck(cu.cuCtxSynchronize(), "sync " + kname)
        hout = (ctypes.c_uint64 * nout)()
        ck(cu.cuMemcpyDtoH_v2(hout, dout, nout * 8), "DtoH")
        cu.cuMemFree_v2(din)
        cu.cuMemFree_v2(dout)
        got = list(hout)
        out_all.extend(got)
        kjobs = [j for j in jobs if j[0] == kname]
        for i in range(nout):
            m = mask[op + i]
            if (got[i] & m) != (want[op + i] & m):
                blk, w = divmod(i, outw)
                r_, lane = divmod(w, 32)
                j = kjobs[blk]
                regs = j[3].split(",") if len(j) > 3 else []
                reg = regs[r_] if r_ < len(regs) else "status"
                if mism < 40:
                    print("  MISMATCH %s %s block %d (%s) %s lane %d: got %#x want %#x (mask %#x)" % (name, kname, blk, j[2], reg, lane, got[i] & m, want[op + i] & m, m))
                mism += 1
        ip += njobs * inw
        op += nout
    with open(os.path.join(outdir, name + ".out"), "wb") as f:
        f.write(struct.pack("<%dQ" % len(out_all), *out_all))
    print("%s: %d kernels, %d jobs, %d mismatching words" % (name, len(kernels), len(jobs), mism))
    bad += mism > 0
    cu.cuModuleUnload(mod)
sys.exit(1 if bad else 0)
"#;

/// `--gpu-perturb`: one `nanosleep` before every collective and every
/// `activemask`, none without it, and nothing else changes.
#[test]
fn perturbed_emission_sleeps_before_every_collective() {
    let case = parse(
        ".reg .b32 a, b, m;\n.reg .pred p;\n.lanes a = 1;\n    activemask.b32 m;\n\
         shfl.sync.bfly.b32 b, a, 1, 0x1f, m;\n    add.u32 a, a, b;\n\
         vote.sync.ballot.b32 b, p, 0xffffffff;\n    redux.sync.add.u32 b, a, 0xffffffff;\n",
    )
    .expect("parses");
    let jobs = [Job {
        program: &case.program,
        inputs: &case.inputs,
    }];
    let plain = emit_module(&jobs, VERSION, TARGET).expect("emits");
    let shaken = emit_module_with(&jobs, VERSION, TARGET, Some(0x1234)).expect("emits");
    assert_eq!(plain.ptx.matches("nanosleep").count(), 0);
    // activemask, shfl, vote, redux: four; the add gets none.
    assert_eq!(
        shaken.ptx.matches("nanosleep.u32 %sleep;").count(),
        4,
        "{}",
        shaken.ptx
    );
    assert!(shaken.ptx.contains("xor.b32 %delay, %delay, 0x1234;"));
    let body = |ptx: &str| -> Vec<String> {
        ptx.lines()
            .filter(|l| !l.contains("%sleep") && !l.contains("%delay"))
            .map(String::from)
            .collect()
    };
    assert_eq!(body(&plain.ptx), body(&shaken.ptx));
}

/// The simulated GPU's output block decodes back to the outcome it came
/// from: every register's value masked to its width, and exactly the
/// exited lanes (here the lanes that took `@p exit`, worked out by hand).
#[test]
fn encoded_outputs_decode_to_the_same_outcome() {
    let case = parse(
        ".reg .b32 R;\n.reg .b64 W;\n.reg .pred p;\n\
         .lanes R = 7;\n.lanes W = 0x123456789;\n\
         setp.lt.u32 p, %laneid, 3;\n@p exit;\nadd.u32 R, R, %laneid;\n",
    )
    .expect("parses");
    let out = Interp::new(&case.program).run(&case.inputs).expect("runs");
    assert_eq!(out.exited, 0b111, "lanes 0..2 took the exit");
    let words = warp_gpu::encode_outputs(&case.program, &out);
    assert_eq!(words.len(), warp_gpu::out_words(&case.program));
    let back = warp_gpu::decode_outputs(&case.program, &words);
    assert_eq!(back.exited, 0b111);
    let r = case.program.reg("R").expect("R");
    let w = case.program.reg("W").expect("W");
    for lane in 0..WARP {
        let want = if lane < 3 { 7 } else { 7 + lane as u64 };
        assert_eq!(back.values[r.index()][lane], want, "R lane {lane}");
        assert_eq!(back.values[w.index()][lane], 0x1_2345_6789, "W lane {lane}");
    }
}
