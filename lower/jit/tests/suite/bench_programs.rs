//! The benchmark programs (`lower/jit/benches/programs/*.ptx`) against their
//! native Rust versions (`lower/jit/benches/native.rs`): each program runs on the
//! reference interpreter without undefined behaviour, leaves every result
//! register defined on every lane, and the native version computes the same
//! bits for every result register on every lane — on the file's `.lanes`
//! inputs and on 64 deterministic random ones. `mix200`'s random inputs
//! include NaNs and infinities, whose f32 results have NaN bits PTX leaves
//! open (`Outcome::nan_open`); where those bits flow into integer ops the
//! interpreter's lanes are undefined (or a guard on them is UB), and such
//! lanes and runs are skipped and counted — at least half of the runs must
//! be compared. `mix200` is also checked
//! after every one of its instructions, and every whole-warp helper of the
//! native module on edge-case operands. The interpreter is the reference.

#[path = "../../benches/native.rs"]
mod native;

use warp_core::interp::Interp;
use warp_core::ir::{Case, Inputs, Reg, Type, WARP};
use warp_core::outcome::Outcome;
use warp_core::rng::Rng;
use warp_core::text::parse;

/// The initial register file for `inputs`: their values, 0 elsewhere.
fn initial_file(case: &Case, inputs: &Inputs) -> Vec<[u64; WARP]> {
    let mut file = vec![[0u64; WARP]; case.program.regs.len()];
    for (r, v) in &inputs.lanes {
        file[r.index()] = *v;
    }
    file
}

fn parse_program(p: &native::Program) -> Case {
    let case =
        parse(p.source).unwrap_or_else(|e| panic!("{}.ptx: {}", p.name, e.with_file(p.name)));
    let names: Vec<&str> = case.program.regs.iter().map(|r| r.name.as_str()).collect();
    assert_eq!(
        names, p.regs,
        "{}.ptx: the native version assumes this register layout",
        p.name
    );
    case
}

/// The interpreter's run; `None` when it has UB and `strict` is false (a
/// random `mix200` input whose open NaN bits reached a guard).
fn interpret(p: &native::Program, case: &Case, inputs: &Inputs, strict: bool) -> Option<Outcome> {
    let out = Interp::new(&case.program)
        .run(inputs)
        .unwrap_or_else(|e| panic!("{}.ptx: {e}", p.name));
    if let Some(ub) = &out.ub {
        assert!(!strict, "{}.ptx: undefined behaviour: {ub}", p.name);
        return None;
    }
    assert_eq!(out.exited, 0, "{}.ptx: no lane should exit", p.name);
    Some(out)
}

/// Runs `p` on `inputs` on the interpreter and on each native version (the
/// hand-written one and, where there is one, the PTX's own algorithm,
/// [`native::Program::literal`]); returns a line per problem: a result
/// register undefined on some lane in the interpreter, a result register
/// whose bits differ on a defined lane, a non-result register a native
/// version wrote.
///
/// With `strict` false, UB and undefined lanes are skipped (`None` for a
/// run with UB).
fn compare(p: &native::Program, case: &Case, inputs: &Inputs, strict: bool) -> Option<Vec<String>> {
    let out = interpret(p, case, inputs, strict)?;
    let before = initial_file(case, inputs);
    let mut problems = Vec::new();
    for i in 0..case.program.regs.len() {
        let name = case.program.regs[i].name.as_str();
        let undefined = !out.defined[i];
        if p.outputs.contains(&name) && undefined != 0 && strict {
            problems.push(format!(
                "{}: `{name}` is undefined on lanes {undefined:#010x} in the interpreter",
                p.name
            ));
        }
    }
    type Run = fn(&str, &mut [[u64; WARP]], u64) -> Result<(), String>;
    let mut versions: Vec<(&str, Run)> = vec![("native", native::run_program_repeated)];
    if p.literal.is_some() {
        versions.push(("literal", native::run_literal_repeated));
    }
    for (version, run) in versions {
        let mut file = before.clone();
        run(p.name, &mut file, 1).expect("a native version");
        let mut repeated = before.clone();
        run(p.name, &mut repeated, 3).expect("a native version");
        assert!(
            file == repeated,
            "{} ({version}): three runs on the same inputs differ from one",
            p.name
        );
        for (i, decl) in case.program.regs.iter().enumerate() {
            let name = decl.name.as_str();
            if !p.outputs.contains(&name) {
                if file[i] != before[i] {
                    problems.push(format!(
                        "{} ({version}): wrote `{name}`, not a result",
                        p.name
                    ));
                }
                continue;
            }
            let reg = Reg(i as u32);
            let differ: Vec<String> = (0..WARP)
                .filter_map(|l| {
                    let want = out.get(reg, l)?;
                    (want != file[i][l])
                        .then(|| format!("lane {l}: interp {want:#x}, {version} {:#x}", file[i][l]))
                })
                .collect();
            if !differ.is_empty() {
                problems.push(format!(
                    "{} ({version}): `{name}` differs on {} lanes: {}",
                    p.name,
                    differ.len(),
                    differ.join("; ")
                ));
            }
        }
    }
    Some(problems)
}

/// f32 bits for the scans and the butterfly: finite, |x| in [2^-27, 2^13),
/// so no sum of 32 of them overflows or makes a NaN.
fn finite_f32(rng: &mut Rng) -> u64 {
    let sign = rng.below(2) << 31;
    let exp = 100 + rng.below(40);
    sign | exp << 23 | rng.below(1 << 23)
}

/// Any f32 bits: often a special value (NaN, infinity, zero, subnormal),
/// often a small multiple of 1/8 (so that values collide), else random.
fn any_f32(rng: &mut Rng) -> u64 {
    const SPECIAL: [u64; 8] = [
        0x7fc0_0000,
        0xffc0_0001,
        0x7f80_0001,
        0x7f80_0000,
        0xff80_0000,
        0x0000_0000,
        0x8000_0000,
        0x0000_0001,
    ];
    match rng.below(8) {
        0 => SPECIAL[rng.below(8) as usize],
        1..=3 => rng.next_u64() & 0xffff_ffff,
        _ => u64::from((rng.below(2001) as f32 / 8.0 - 125.0).to_bits()),
    }
}

/// Random inputs for the registers `case` initialises: per register one
/// style (warp-uniform, small values with collisions, or full range).
fn random_inputs(p: &native::Program, case: &Case, rng: &mut Rng) -> Inputs {
    let mut inputs = case.inputs.clone();
    for (r, lanes) in &mut inputs.lanes {
        let ty = case.program.decl(*r).ty;
        let style = rng.below(4);
        let value = |rng: &mut Rng| match ty {
            Type::Pred => rng.below(2),
            Type::F32 if p.name == "mix200" => any_f32(rng),
            Type::F32 => finite_f32(rng),
            _ if style == 0 => rng.below(8) | (rng.below(2) << 32),
            _ => rng.next_u64(),
        } & ty.mask();
        if style == 1 {
            *lanes = [value(rng); WARP];
        } else {
            for v in lanes.iter_mut() {
                *v = value(rng);
            }
        }
    }
    inputs
}

/// The program's own inputs, then `trials` random ones.
fn check(p: &native::Program, trials: u64) -> Vec<String> {
    let case = parse_program(p);
    let mut problems = compare(p, &case, &case.inputs, true).expect("strict");
    let mut rng = Rng::new(0x9e37_79b9_7f4a_7c15 ^ p.name.len() as u64);
    // Only mix200 draws NaNs and infinities (see the module comment).
    let strict = p.name != "mix200";
    let mut compared = 0;
    for t in 0..trials {
        let inputs = random_inputs(p, &case, &mut rng);
        let Some(lines) = compare(p, &case, &inputs, strict) else {
            continue;
        };
        compared += 1;
        for line in lines {
            problems.push(format!("random inputs #{t}: {line}"));
        }
        if problems.len() > 8 {
            break;
        }
    }
    if problems.is_empty() && compared * 2 < trials {
        problems.push(format!(
            "{}: only {compared} of {trials} random runs free of UB",
            p.name
        ));
    }
    problems
}

fn check_one(name: &str) {
    let p = native::program(name).expect("listed in native::PROGRAMS");
    let problems = check(p, 64);
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}

#[test]
fn scan() {
    check_one("scan");
}

#[test]
fn rscan() {
    check_one("rscan");
}

#[test]
fn bfly() {
    check_one("bfly");
}

#[test]
fn compact() {
    check_one("compact");
}

#[test]
fn group() {
    check_one("group");
}

#[test]
fn divergent_loop() {
    check_one("loop");
}

#[test]
fn mix200() {
    check_one("mix200");
}

/// `mix200` instruction by instruction: before and after each of its 200 instructions
/// the native registers (observed through `mix200_observed`) equal the
/// interpreter's on the program cut after that instruction — on the file's
/// inputs and on random ones. A wrong helper is caught even where a later
/// instruction overwrites its result.
#[test]
fn mix200_each_instruction() {
    let p = native::program("mix200").expect("listed");
    let case = parse_program(p);
    let mut rng = Rng::new(0x5eed);
    let mut problems = Vec::new();
    for trial in 0..9 {
        let inputs = if trial == 0 {
            case.inputs.clone()
        } else {
            random_inputs(p, &case, &mut rng)
        };
        let strict = trial == 0;
        let mut snapshots = Vec::new();
        let mut regs = native::Mix200::load(&initial_file(&case, &inputs));
        native::mix200_observed(&mut regs, |k, r| snapshots.push((k, *r)));
        assert_eq!(snapshots.len(), case.program.insts.len() + 1);
        for (k, snap) in snapshots {
            let mut prefix = case.clone();
            prefix.program.insts.truncate(k);
            let Some(out) = interpret(p, &prefix, &inputs, strict) else {
                continue;
            };
            let mut file = initial_file(&case, &inputs);
            snap.store(&mut file);
            for (i, decl) in case.program.regs.iter().enumerate() {
                let reg = Reg(i as u32);
                for (l, &native) in file[i].iter().enumerate() {
                    match out.get(reg, l) {
                        None if !strict => {}
                        None => problems.push(format!(
                            "inputs #{trial}, after instruction {k}: `{}` undefined on lane {l}",
                            decl.name
                        )),
                        Some(want) if want != native => problems.push(format!(
                            "inputs #{trial}, after instruction {k} (line {}): `{}` lane {l}: interp {want:#x}, native {native:#x}",
                            k.checked_sub(1).map_or(0, |i| case.program.insts[i].line),
                            decl.name,
                        )),
                        Some(_) => {}
                    }
                }
            }
            if !problems.is_empty() {
                break;
            }
        }
        assert!(
            problems.is_empty(),
            "{}",
            problems[..problems.len().min(8)].join("\n")
        );
    }
}

/// The operands of a one-instruction program (see
/// [`helpers_match_interpreter`]).
struct Operands {
    a: [u32; WARP],
    b: [u32; WARP],
    c: [u32; WARP],
    fa: [u32; WARP],
    fb: [u32; WARP],
    da: [u64; WARP],
    db: [u64; WARP],
    pa: u32,
}

fn widen(v: [u32; WARP]) -> [u64; WARP] {
    v.map(u64::from)
}

fn pred_lanes(m: u32) -> [u64; WARP] {
    std::array::from_fn(|l| u64::from(m >> l & 1))
}

fn per_lane<T>(f: impl FnMut(usize) -> T) -> [T; WARP] {
    std::array::from_fn(f)
}

/// A one-instruction case: the instruction, the register compared, and the
/// native value of that register.
type HelperCase = (&'static str, &'static str, fn(&Operands) -> [u64; WARP]);

/// One-instruction programs on edge-case values: every whole-warp helper of
/// `native.rs` (shfl modes over all `b` and `c`, votes, matches, reductions,
/// shift clamping, `mul.hi`, the f32 NaN and signed-zero rules) against the
/// interpreter. The programs above only reach the edge cases their data reach.
#[test]
fn helpers_match_interpreter() {
    use native::*;
    let cases: &[HelperCase] = &[
        ("shfl.sync.up.b32 d|pd, a, b, c, 0xffffffff;", "d", |o| {
            widen(shfl(Shfl::Up, &o.a, |l| o.b[l], |l| o.c[l]).0)
        }),
        ("shfl.sync.up.b32 d|pd, a, b, c, 0xffffffff;", "pd", |o| {
            pred_lanes(shfl(Shfl::Up, &o.a, |l| o.b[l], |l| o.c[l]).1)
        }),
        ("shfl.sync.down.b32 d|pd, a, b, c, 0xffffffff;", "d", |o| {
            widen(shfl(Shfl::Down, &o.a, |l| o.b[l], |l| o.c[l]).0)
        }),
        ("shfl.sync.down.b32 d|pd, a, b, c, 0xffffffff;", "pd", |o| {
            pred_lanes(shfl(Shfl::Down, &o.a, |l| o.b[l], |l| o.c[l]).1)
        }),
        ("shfl.sync.bfly.b32 d|pd, a, b, c, 0xffffffff;", "d", |o| {
            widen(shfl(Shfl::Bfly, &o.a, |l| o.b[l], |l| o.c[l]).0)
        }),
        ("shfl.sync.bfly.b32 d|pd, a, b, c, 0xffffffff;", "pd", |o| {
            pred_lanes(shfl(Shfl::Bfly, &o.a, |l| o.b[l], |l| o.c[l]).1)
        }),
        ("shfl.sync.idx.b32 d|pd, a, b, c, 0xffffffff;", "d", |o| {
            widen(shfl(Shfl::Idx, &o.a, |l| o.b[l], |l| o.c[l]).0)
        }),
        ("shfl.sync.idx.b32 d|pd, a, b, c, 0xffffffff;", "pd", |o| {
            pred_lanes(shfl(Shfl::Idx, &o.a, |l| o.b[l], |l| o.c[l]).1)
        }),
        ("vote.sync.all.pred pd, pa, 0xffffffff;", "pd", |o| {
            pred_lanes(vote_all(o.pa))
        }),
        ("vote.sync.any.pred pd, !pa, 0xffffffff;", "pd", |o| {
            pred_lanes(vote_any(!o.pa))
        }),
        ("vote.sync.uni.pred pd, pa, 0xffffffff;", "pd", |o| {
            pred_lanes(vote_uni(o.pa))
        }),
        ("vote.sync.ballot.b32 d, pa, 0xffffffff;", "d", |o| {
            [u64::from(o.pa); WARP]
        }),
        ("match.any.sync.b32 d, a, 0xffffffff;", "d", |o| {
            widen(match_any(&o.a))
        }),
        ("match.all.sync.b32 d|pd, a, 0xffffffff;", "d", |o| {
            [u64::from(match_all(&o.a).0); WARP]
        }),
        ("match.all.sync.b32 d|pd, a, 0xffffffff;", "pd", |o| {
            pred_lanes(match_all(&o.a).1)
        }),
        ("match.any.sync.b64 d, da, 0xffffffff;", "d", |o| {
            widen(match_any(&o.da))
        }),
        ("match.all.sync.b64 d|pd, da, 0xffffffff;", "d", |o| {
            [u64::from(match_all(&o.da).0); WARP]
        }),
        ("match.all.sync.b64 d|pd, da, 0xffffffff;", "pd", |o| {
            pred_lanes(match_all(&o.da).1)
        }),
        ("redux.sync.add.u32 d, a, 0xffffffff;", "d", |o| {
            [u64::from(redux_add_u32(&o.a)); WARP]
        }),
        ("redux.sync.add.s32 d, a, 0xffffffff;", "d", |o| {
            [u64::from(redux_add_s32(&o.a)); WARP]
        }),
        ("redux.sync.min.u32 d, a, 0xffffffff;", "d", |o| {
            [u64::from(redux_min_u32(&o.a)); WARP]
        }),
        ("redux.sync.min.s32 d, a, 0xffffffff;", "d", |o| {
            [u64::from(redux_min_s32(&o.a)); WARP]
        }),
        ("redux.sync.max.u32 d, a, 0xffffffff;", "d", |o| {
            [u64::from(redux_max_u32(&o.a)); WARP]
        }),
        ("redux.sync.max.s32 d, a, 0xffffffff;", "d", |o| {
            [u64::from(redux_max_s32(&o.a)); WARP]
        }),
        ("redux.sync.and.b32 d, a, 0xffffffff;", "d", |o| {
            [u64::from(redux_and_b32(&o.a)); WARP]
        }),
        ("redux.sync.or.b32 d, a, 0xffffffff;", "d", |o| {
            [u64::from(redux_or_b32(&o.a)); WARP]
        }),
        ("redux.sync.xor.b32 d, a, 0xffffffff;", "d", |o| {
            [u64::from(redux_xor_b32(&o.a)); WARP]
        }),
        ("shl.b32 d, a, b;", "d", |o| {
            widen(per_lane(|l| shl32(o.a[l], o.b[l])))
        }),
        ("shr.u32 d, a, b;", "d", |o| {
            widen(per_lane(|l| shr_u32(o.a[l], o.b[l])))
        }),
        ("shr.s32 d, a, b;", "d", |o| {
            widen(per_lane(|l| shr_s32(o.a[l], o.b[l])))
        }),
        ("mul.hi.u32 d, a, b;", "d", |o| {
            widen(per_lane(|l| mulhi_u32(o.a[l], o.b[l])))
        }),
        ("mul.hi.s32 d, a, b;", "d", |o| {
            widen(per_lane(|l| mulhi_s32(o.a[l], o.b[l])))
        }),
        ("shl.b64 dd, da, b;", "dd", |o| {
            per_lane(|l| shl64(o.da[l], o.b[l]))
        }),
        ("shr.u64 dd, da, b;", "dd", |o| {
            per_lane(|l| shr_u64(o.da[l], o.b[l]))
        }),
        ("shr.s64 dd, da, b;", "dd", |o| {
            per_lane(|l| shr_s64(o.da[l], o.b[l]))
        }),
        ("mul.hi.u64 dd, da, db;", "dd", |o| {
            per_lane(|l| mulhi_u64(o.da[l], o.db[l]))
        }),
        ("mul.hi.s64 dd, da, db;", "dd", |o| {
            per_lane(|l| mulhi_s64(o.da[l], o.db[l]))
        }),
        ("add.f32 fd, fa, fb;", "fd", |o| {
            widen(per_lane(|l| fadd(o.fa[l], o.fb[l])))
        }),
        ("sub.f32 fd, fa, fb;", "fd", |o| {
            widen(per_lane(|l| fsub(o.fa[l], o.fb[l])))
        }),
        ("mul.f32 fd, fa, fb;", "fd", |o| {
            widen(per_lane(|l| fmul(o.fa[l], o.fb[l])))
        }),
        ("min.f32 fd, fa, fb;", "fd", |o| {
            widen(per_lane(|l| fmin(o.fa[l], o.fb[l])))
        }),
        ("max.f32 fd, fa, fb;", "fd", |o| {
            widen(per_lane(|l| fmax(o.fa[l], o.fb[l])))
        }),
        ("neg.f32 fd, fa;", "fd", |o| widen(o.fa.map(fneg))),
        ("abs.f32 fd, fa;", "fd", |o| widen(o.fa.map(fabs))),
        ("setp.eq.f32 pd, fa, fb;", "pd", |o| {
            pred_lanes(pmask(|l| fsetp_eq(o.fa[l], o.fb[l])))
        }),
        ("setp.ne.f32 pd, fa, fb;", "pd", |o| {
            pred_lanes(pmask(|l| fsetp_ne(o.fa[l], o.fb[l])))
        }),
        ("setp.lt.f32 pd, fa, fb;", "pd", |o| {
            pred_lanes(pmask(|l| fsetp_lt(o.fa[l], o.fb[l])))
        }),
        ("setp.le.f32 pd, fa, fb;", "pd", |o| {
            pred_lanes(pmask(|l| fsetp_le(o.fa[l], o.fb[l])))
        }),
        ("setp.gt.f32 pd, fa, fb;", "pd", |o| {
            pred_lanes(pmask(|l| fsetp_gt(o.fa[l], o.fb[l])))
        }),
        ("setp.ge.f32 pd, fa, fb;", "pd", |o| {
            pred_lanes(pmask(|l| fsetp_ge(o.fa[l], o.fb[l])))
        }),
    ];
    // NaNs (quiet, negative, signalling), infinities, signed zeros,
    // subnormals, ordinary and extreme numbers.
    const F32_EDGE: [u32; 12] = [
        0x7fc0_0000,
        0xffc0_0001,
        0x7f80_0001,
        0x7f80_0000,
        0xff80_0000,
        0x0000_0000,
        0x8000_0000,
        0x0000_0001,
        0x8000_0001,
        0x3f80_0000,
        0xbf80_0000,
        0x7f7f_ffff,
    ];
    let mut rng = Rng::new(0xed6e);
    let mut problems = Vec::new();
    for trial in 0..32 {
        // Integer flavour per trial: warp-uniform, small (collisions),
        // dense bits (so that `and` reductions stay nonzero), full range.
        let flavour = trial % 4;
        let word = |rng: &mut Rng| match flavour {
            1 => rng.below(4),
            2 => !(rng.next_u64() & rng.next_u64() & rng.next_u64()),
            _ => rng.next_u64(),
        };
        let mut a: [u64; WARP] = per_lane(|_| word(&mut rng));
        let mut da: [u64; WARP] = per_lane(|_| word(&mut rng));
        let mut pa = rng.next_u64() as u32;
        if flavour == 0 {
            a = [a[0]; WARP];
            da = [da[0]; WARP];
            pa = if pa & 1 == 1 { u32::MAX } else { 0 };
        }
        let fa: [u32; WARP] = per_lane(|_| F32_EDGE[rng.below(12) as usize]);
        let o = Operands {
            a: a.map(|x| x as u32),
            // shift amounts around the widths, and arbitrary values
            b: per_lane(|_| match rng.below(3) {
                0 => rng.below(72) as u32,
                1 => rng.below(32) as u32,
                _ => rng.next_u64() as u32,
            }),
            // clamp c[4:0] and segment mask c[12:8], every combination
            c: per_lane(|_| (rng.next_u64() & 0x1f1f) as u32),
            fa,
            // often -fa, to meet +0 / -0 and NaN / NaN pairs
            fb: per_lane(|l| {
                if rng.below(3) == 0 {
                    fa[l] ^ 0x8000_0000
                } else {
                    F32_EDGE[rng.below(12) as usize]
                }
            }),
            da,
            db: per_lane(|_| rng.next_u64()),
            pa,
        };
        let show32 = |v: &[u32; WARP]| v.map(|x| format!("{x:#x}")).join(" ");
        let show64 = |v: &[u64; WARP]| v.map(|x| format!("{x:#x}")).join(" ");
        let header = format!(
            ".reg .b32 a, b, c, d;\n.reg .f32 fa, fb, fd;\n.reg .b64 da, db, dd;\n.reg .pred pa, pd;\n\
             .lanes a = {};\n.lanes b = {};\n.lanes c = {};\n.lanes fa = {};\n.lanes fb = {};\n\
             .lanes da = {};\n.lanes db = {};\n.lanes pa = {};\n",
            show32(&o.a),
            show32(&o.b),
            show32(&o.c),
            show32(&o.fa),
            show32(&o.fb),
            show64(&o.da),
            show64(&o.db),
            pred_lanes(o.pa).map(|x| x.to_string()).join(" "),
        );
        for (inst, reg, native) in cases {
            let case =
                parse(&format!("{header}    {inst}\n")).unwrap_or_else(|e| panic!("{inst}: {e}"));
            let out = Interp::new(&case.program).run(&case.inputs).expect("runs");
            assert!(out.ub.is_none(), "{inst}: {:?}", out.ub);
            let r = case.program.reg(reg).expect("declared");
            let want = native(&o);
            if let Some(l) = (0..WARP).find(|&l| out.get(r, l) != Some(want[l])) {
                problems.push(format!(
                    "trial {trial}: `{inst}` `{reg}` lane {l}: interp {:x?}, native {:#x}",
                    out.get(r, l),
                    want[l]
                ));
            }
        }
    }
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}

/// Every `.ptx` in `benches/programs/` has a native version, and the other
/// way round; and no benchmark program carries `.expect` lines (the native
/// version is what it is checked against).
#[test]
fn every_program_is_listed() {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("benches/programs");
    let mut on_disk: Vec<String> = std::fs::read_dir(&dir)
        .expect("benches/programs")
        .map(|e| e.expect("dir entry").path())
        .filter(|p| p.extension().is_some_and(|x| x == "ptx"))
        .map(|p| p.file_stem().expect("stem").to_string_lossy().into_owned())
        .collect();
    on_disk.sort();
    let mut listed: Vec<String> = native::PROGRAMS
        .iter()
        .map(|p| p.name.to_string())
        .collect();
    listed.sort();
    assert_eq!(on_disk, listed);
    for p in native::PROGRAMS {
        let on_file = std::fs::read_to_string(dir.join(format!("{}.ptx", p.name))).expect("read");
        assert_eq!(on_file, p.source, "{}: include_str! is stale", p.name);
        let case = parse(p.source).expect("parses");
        assert!(
            case.expect.regs.is_empty(),
            "{}.ptx has .expect lines",
            p.name
        );
    }
}

/// The sizes the benchmarks report: static instructions and warp steps.
#[test]
fn sizes() {
    let steps = |p: &native::Program| {
        let case = parse_program(p);
        (
            case.program.insts.len(),
            interpret(p, &case, &case.inputs, true)
                .expect("strict")
                .steps,
        )
    };
    for p in native::PROGRAMS {
        let (insts, steps) = steps(p);
        println!("{:8} {insts:4} instructions {steps:5} warp steps", p.name);
    }
    let program = |name| native::program(name).expect("listed");
    assert_eq!(steps(program("mix200")), (200, 200));
    assert_eq!(steps(program("loop")), (22, 3 + 9 * 17 + 2));
}
