//! Native Rust versions of the benchmark warp programs in `programs/*.ptx`:
//! what each program computes, written by hand over `[u32; 32]` lane arrays
//! the way one would write it for LLVM to optimise. They are the practical
//! CPU limit the interpreter and the Cranelift JIT are measured against.
//!
//! Each program has a typed kernel (`scan`, `rscan`, `bfly`, `compact`,
//! `group`, `divergent_loop`, `mix200`) and an entry in [`PROGRAMS`] that
//! works on the interpreter's register file layout: one `[u64; 32]` per
//! declared register, in declaration order ([`Program::regs`]), 32-bit
//! values (f32 as bits) in the low bits, `.pred` as 0/1.
//! [`run_program_repeated`] reads the program's inputs from the file, runs
//! the kernel `n` times and writes its result registers
//! ([`Program::outputs`]); other registers are left as they are. The
//! hand-written kernels compute the results only, not the scratch registers
//! the PTX leaves behind; `mix200` computes every register. `mix200` is not
//! hand-written: `gen_mix200.py` generates it from `programs/mix200.ptx`,
//! one statement per instruction, between the `BEGIN GENERATED` and
//! `END GENERATED` markers below.
//!
//! The hand-written `compact`, `group` and `divergent_loop` use other
//! algorithms than their PTX (a scatter, buckets by key, masks in closed
//! form); `compact_literal`, `group_literal` and `divergent_loop_literal`
//! ([`Program::literal`], [`run_literal_repeated`]) are the PTX's own,
//! instruction by instruction as `mix200` is, so that the JIT can be
//! measured against both.
//!
//! The conversion from and to the register file costs as much as `scan`
//! does, so it happens once per call: the kernel runs `n` times on the
//! same inputs, each run opaque to the optimiser (`black_box`).
//!
//! ```ignore
//! #[path = "../benches/native.rs"]
//! mod native;
//! let p = native::program("scan").unwrap();
//! let case = warp_core::text::parse(p.source).unwrap();
//! let mut file = vec![[0u64; 32]; case.program.regs.len()];
//! for (r, v) in &case.inputs.lanes { file[r.index()] = *v; }
//! native::run_program_repeated("scan", &mut file, 1).unwrap();
//! // or, timing 1000 runs of the kernel alone:
//! native::run_program_repeated("scan", &mut file, 1000).unwrap();
//! ```
//!
//! Semantics follow the spec pages (`shared/spec/`) and the interpreter's
//! decisions (docs/semantics.md); f32 arithmetic is IEEE binary32
//! round-to-nearest-even, which Rust's `f32` operations are. The scans and
//! the butterfly use plain `f32` addition: their inputs are finite and small,
//! so no NaN (whose bits PTX canonicalises) can arise; `mix200` goes through
//! helpers that canonicalise.
//!
//! No dependencies: this file is a module (`#[path]`) of the `warp` bench
//! and of the `bench_programs` test. Cargo's target auto-discovery also
//! builds it as a bench of its own (`native`, with nothing to run) unless
//! `lower/Cargo.toml` sets `autobenches = false`; it compiles cleanly there
//! too. Includers that use only part of it add `#[allow(dead_code)]` to
//! their `mod native;`.

use std::array::from_fn as lanes;
use std::hint::black_box;

/// Lanes in a warp.
pub const WARP: usize = 32;
/// The full-warp lane mask.
pub const FULL: u32 = u32::MAX;

/// A kernel on a register file (see the module doc): runs `n` times (at
/// least once) and writes the program's results.
pub type Kernel = fn(&mut [[u64; WARP]], u64);

/// A benchmark program: its `.ptx` source and its native version.
pub struct Program {
    /// File stem in `programs/`.
    pub name: &'static str,
    /// The `.ptx` text.
    pub source: &'static str,
    /// Declared registers, in declaration order: the register file's layout.
    pub regs: &'static [&'static str],
    /// The registers `run` computes (the program's results).
    pub outputs: &'static [&'static str],
    /// Runs the native version `n` times (at least once) on the inputs in a
    /// register file (see the module doc) and writes `outputs`.
    pub run: Kernel,
    /// Where `run` uses another algorithm than the PTX: the PTX's own,
    /// written instruction by instruction over lane arrays as `mix200` is
    /// (each instruction one statement for the lanes that execute it, the
    /// schedule of a divergent loop followed by hand), run and written the
    /// same way. It separates what the JIT's lowering costs from what the
    /// algorithm costs.
    pub literal: Option<Kernel>,
}

/// Every benchmark program.
pub const PROGRAMS: &[Program] = &[
    Program {
        name: "scan",
        source: include_str!("programs/scan.ptx"),
        regs: &["Rx", "Ry", "p"],
        outputs: &["Rx"],
        run: run_scan,
        literal: None,
    },
    Program {
        name: "rscan",
        source: include_str!("programs/rscan.ptx"),
        regs: &["Rx", "Ry", "p"],
        outputs: &["Rx"],
        run: run_rscan,
        literal: None,
    },
    Program {
        name: "bfly",
        source: include_str!("programs/bfly.ptx"),
        regs: &["Rx", "Ry"],
        outputs: &["Rx"],
        run: run_bfly,
        literal: None,
    },
    Program {
        name: "compact",
        source: include_str!("programs/compact.ptx"),
        regs: COMPACT_REGS,
        outputs: &["B", "S", "N", "Out"],
        run: run_compact,
        literal: Some(run_compact_literal),
    },
    Program {
        name: "group",
        source: include_str!("programs/group.ptx"),
        regs: GROUP_REGS,
        outputs: &[
            "K", "G", "Cnt", "LCnt", "Rank", "Sum", "Base", "Slot", "Leaders", "NGroups",
            "isLeader",
        ],
        run: run_group,
        literal: Some(run_group_literal),
    },
    Program {
        name: "loop",
        source: include_str!("programs/loop.ptx"),
        regs: LOOP_REGS,
        outputs: &["x", "acc", "n", "m", "total"],
        run: run_loop,
        literal: Some(run_loop_literal),
    },
    Program {
        name: "mix200",
        source: include_str!("programs/mix200.ptx"),
        regs: Mix200::REGS,
        outputs: Mix200::REGS,
        run: run_mix200,
        literal: None,
    },
];

/// The program called `name`.
pub fn program(name: &str) -> Option<&'static Program> {
    PROGRAMS.iter().find(|p| p.name == name)
}

/// Runs the native version of `name` `n` times (at least once) on `regs`,
/// a register file in declaration order (see the module doc), converting
/// from and to the register file once.
pub fn run_program_repeated(name: &str, regs: &mut [[u64; WARP]], n: u64) -> Result<(), String> {
    let p = program(name).ok_or_else(|| format!("no native version of `{name}`"))?;
    if regs.len() != p.regs.len() {
        return Err(format!(
            "`{name}` declares {} registers, the file has {}",
            p.regs.len(),
            regs.len()
        ));
    }
    (p.run)(regs, n);
    Ok(())
}

/// Like [`run_program_repeated`], for the PTX's own algorithm
/// ([`Program::literal`]) where `run` uses another.
pub fn run_literal_repeated(name: &str, regs: &mut [[u64; WARP]], n: u64) -> Result<(), String> {
    let p = program(name).ok_or_else(|| format!("no native version of `{name}`"))?;
    let literal = p
        .literal
        .ok_or_else(|| format!("`{name}`'s native version is the PTX's own algorithm"))?;
    if regs.len() != p.regs.len() {
        return Err(format!(
            "`{name}` declares {} registers, the file has {}",
            p.regs.len(),
            regs.len()
        ));
    }
    literal(regs, n);
    Ok(())
}

/// Runs `kernel` on `input` `n` times (at least once), hiding the input and
/// each result from the optimiser; returns the last result.
#[inline(always)]
fn repeat<I: Copy, O>(input: I, n: u64, mut kernel: impl FnMut(I) -> O) -> O {
    let mut out = kernel(black_box(input));
    for _ in 1..n {
        out = black_box(kernel(black_box(input)));
    }
    out
}

// ---------------------------------------------------------------------------
// Register file access.

/// A 32-bit register's lanes.
#[inline(always)]
pub fn get32(r: &[u64; WARP]) -> [u32; WARP] {
    r.map(|v| v as u32)
}

/// Stores a 32-bit register's lanes.
#[inline(always)]
pub fn put32(r: &mut [u64; WARP], v: &[u32; WARP]) {
    *r = v.map(u64::from);
}

/// A 64-bit register's lanes.
#[inline(always)]
pub fn get64(r: &[u64; WARP]) -> [u64; WARP] {
    *r
}

/// Stores a 64-bit register's lanes.
#[inline(always)]
pub fn put64(r: &mut [u64; WARP], v: &[u64; WARP]) {
    *r = *v;
}

/// A `.pred` register as a lane mask.
#[inline(always)]
pub fn get_pred(r: &[u64; WARP]) -> u32 {
    (0..WARP).fold(0, |m, l| m | ((r[l] & 1) as u32) << l)
}

/// Stores a lane mask into a `.pred` register (0/1 per lane).
#[inline(always)]
pub fn put_pred(r: &mut [u64; WARP], m: u32) {
    *r = lanes(|l| u64::from(m >> l & 1));
}

/// Stores the same 32-bit value on every lane.
#[inline(always)]
fn put_splat(r: &mut [u64; WARP], v: u32) {
    *r = [u64::from(v); WARP];
}

/// The lane mask of the lanes where `f` holds.
#[inline(always)]
pub fn pmask(f: impl Fn(usize) -> bool) -> u32 {
    (0..WARP).fold(0, |m, l| m | u32::from(f(l)) << l)
}

/// `new` on the lanes of `g`, `old` elsewhere (a guarded write).
#[inline(always)]
pub fn sel<T: Copy>(g: u32, new: &[T; WARP], old: &[T; WARP]) -> [T; WARP] {
    lanes(|l| if g >> l & 1 == 1 { new[l] } else { old[l] })
}

// ---------------------------------------------------------------------------
// scan.ptx, rscan.ptx, bfly.ptx

fn f32s(x: &[u32; WARP]) -> [f32; WARP] {
    x.map(f32::from_bits)
}

/// One `shfl.sync.up` step with offset `B` (c = 0: maxLane = 0, j = l - B,
/// p = j >= 0) and the guarded add: lanes l >= B add lane l - B's value.
/// `B` is a constant so that every step compiles to straight vector code.
#[inline(always)]
fn up_add<const B: usize>(v: &mut [f32; WARP]) {
    let prev = *v;
    for l in B..WARP {
        v[l] = prev[l - B] + prev[l];
    }
}

/// One `shfl.sync.down` step with offset `B` (c = 0x1f: maxLane = 31,
/// j = l + B, p = j <= 31) and the guarded add: lanes l + B <= 31 add lane
/// l + B's value.
#[inline(always)]
fn down_add<const B: usize>(v: &mut [f32; WARP]) {
    let prev = *v;
    for l in 0..WARP - B {
        v[l] = prev[l + B] + prev[l];
    }
}

/// One `shfl.sync.bfly` step with lane mask `B` (c = 0x1f: j = l ^ B, always
/// in range) and the add.
#[inline(always)]
fn bfly_add<const B: usize>(v: &mut [f32; WARP]) {
    let prev = *v;
    *v = lanes(|l| prev[l ^ B] + prev[l]);
}

/// `scan.ptx`: inclusive plus scan of the f32 lanes `x` (as bits), in place,
/// in the order of the five `shfl.sync.up` steps b = 1, 2, 4, 8, 16, so the
/// sums round exactly as the warp's do.
pub fn scan(x: &mut [u32; WARP]) {
    let mut v = f32s(x);
    up_add::<1>(&mut v);
    up_add::<2>(&mut v);
    up_add::<4>(&mut v);
    up_add::<8>(&mut v);
    up_add::<16>(&mut v);
    *x = v.map(f32::to_bits);
}

/// `rscan.ptx`: inclusive plus reverse (suffix) scan of the f32 lanes `x`,
/// in place, in the order of the five `shfl.sync.down` steps.
pub fn rscan(x: &mut [u32; WARP]) {
    let mut v = f32s(x);
    down_add::<1>(&mut v);
    down_add::<2>(&mut v);
    down_add::<4>(&mut v);
    down_add::<8>(&mut v);
    down_add::<16>(&mut v);
    *x = v.map(f32::to_bits);
}

/// `bfly.ptx`: butterfly f32 sum of the lanes `x`, in place, in the order of
/// the steps b = 16, 8, 4, 2, 1. All lanes end with the same bits (lanes l
/// and l ^ b add the same two values, and f32 addition commutes).
pub fn bfly(x: &mut [u32; WARP]) {
    let mut v = f32s(x);
    bfly_add::<16>(&mut v);
    bfly_add::<8>(&mut v);
    bfly_add::<4>(&mut v);
    bfly_add::<2>(&mut v);
    bfly_add::<1>(&mut v);
    *x = v.map(f32::to_bits);
}

/// Runs an in-place kernel on register 0 `n` times.
fn run_in_place(f: &mut [[u64; WARP]], n: u64, kernel: fn(&mut [u32; WARP])) {
    let x = repeat(get32(&f[0]), n, |mut x| {
        kernel(&mut x);
        x
    });
    put32(&mut f[0], &x);
}

fn run_scan(f: &mut [[u64; WARP]], n: u64) {
    run_in_place(f, n, scan);
}

fn run_rscan(f: &mut [[u64; WARP]], n: u64) {
    run_in_place(f, n, rscan);
}

fn run_bfly(f: &mut [[u64; WARP]], n: u64) {
    run_in_place(f, n, bfly);
}

// ---------------------------------------------------------------------------
// compact.ptx

const COMPACT_REGS: &[&str] = &[
    "V", "B", "S", "N", "Out", "t", "lt", "c", "r", "pos", "keep", "q", "valid",
];

/// The results of [`compact`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Compacted {
    /// `B`: the ballot of the kept lanes (the same on every lane).
    pub ballot: u32,
    /// `S`: per lane, the number of kept lanes below it (its output slot).
    pub slot: [u32; WARP],
    /// `N`: how many values are kept (the same on every lane).
    pub count: u32,
    /// `Out`: the kept values in lane order, then zeros.
    pub out: [u32; WARP],
}

/// `compact.ptx`: keeps the odd values of `v`. The ballot is the odd lanes'
/// mask; each lane's slot is the popcount of the ballot below it; the output
/// is built by a branch-free scatter in lane order (a dropped lane writes
/// the slot of the next kept lane, which overwrites it later; slots past the
/// count are then cleared).
pub fn compact(v: &[u32; WARP]) -> Compacted {
    let ballot = pmask(|l| v[l] & 1 == 1);
    let slot: [u32; WARP] = lanes(|l| (ballot & ((1u32 << l) - 1)).count_ones());
    let count = ballot.count_ones();
    let mut out = [0u32; WARP];
    for l in 0..WARP {
        out[slot[l] as usize & (WARP - 1)] = v[l];
    }
    for (i, o) in out.iter_mut().enumerate() {
        if i as u32 >= count {
            *o = 0;
        }
    }
    Compacted {
        ballot,
        slot,
        count,
        out,
    }
}

/// `compact.ptx` as the PTX computes it ([`Program::literal`]): each lane
/// finds the set bit of the ballot whose rank is its lane index by a binary
/// search over windows of 16, 8, 4, 2 and 1 bits, then gathers the value
/// there (`shfl.sync.idx`).
pub fn compact_literal(v: &[u32; WARP]) -> Compacted {
    let laneid: [u32; WARP] = lanes(|l| l as u32);
    let t = v.map(|x| x & 1);
    let keep = pmask(|l| t[l] != 0);
    let b = keep;
    let lt = laneid.map(|i| shl32(1, i));
    let lt = lt.map(|x| x.wrapping_sub(1));
    let t = lt.map(|x| b & x);
    let s = t.map(u32::count_ones);
    let n = b.count_ones();
    let mut r = laneid;
    let t: [u32; WARP] = [b & 0xffff; WARP];
    let c = t.map(u32::count_ones);
    let q = pmask(|l| c[l] <= r[l]);
    r = sel(q, &lanes(|l| r[l].wrapping_sub(c[l])), &r);
    let mut pos: [u32; WARP] = lanes(|l| if q >> l & 1 == 1 { 16 } else { 0 });
    for w in [8u32, 4, 2] {
        let t: [u32; WARP] = lanes(|l| shr_u32(b, pos[l]));
        let t = t.map(|x| x & ((1 << w) - 1));
        let c = t.map(u32::count_ones);
        let q = pmask(|l| c[l] <= r[l]);
        r = sel(q, &lanes(|l| r[l].wrapping_sub(c[l])), &r);
        pos = sel(q, &pos.map(|x| x.wrapping_add(w)), &pos);
    }
    let t: [u32; WARP] = lanes(|l| shr_u32(b, pos[l]));
    let t = t.map(|x| x & 1);
    let q = pmask(|l| t[l] <= r[l]);
    pos = sel(q, &pos.map(|x| x.wrapping_add(1)), &pos);
    let (out, _) = shfl(Shfl::Idx, v, |l| pos[l], |_| 0x1f);
    let valid = pmask(|l| laneid[l] < n);
    let out = sel(valid, &out, &[0; WARP]);
    Compacted {
        ballot: b,
        slot: s,
        count: n,
        out,
    }
}

fn run_compact(f: &mut [[u64; WARP]], n: u64) {
    let c = repeat(get32(&f[0]), n, |v| compact(&v));
    put_compacted(f, &c);
}

fn run_compact_literal(f: &mut [[u64; WARP]], n: u64) {
    let c = repeat(get32(&f[0]), n, |v| compact_literal(&v));
    put_compacted(f, &c);
}

fn put_compacted(f: &mut [[u64; WARP]], c: &Compacted) {
    put_splat(&mut f[1], c.ballot);
    put32(&mut f[2], &c.slot);
    put_splat(&mut f[3], c.count);
    put32(&mut f[4], &c.out);
}

// ---------------------------------------------------------------------------
// group.ptx

const GROUP_REGS: &[&str] = &[
    "Id", "V", "Old", "K", "G", "Cnt", "LCnt", "Rank", "Sum", "Base", "Slot", "Leaders", "NGroups",
    "h", "t", "lo", "bit", "lt", "ldr", "isLeader",
];

/// The results of [`group`], per lane unless said otherwise.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Groups {
    /// `K`: the bucket, 0..5.
    pub key: [u32; WARP],
    /// `G`: the lanes with the same bucket.
    pub group: [u32; WARP],
    /// `Cnt`: the group's size.
    pub cnt: [u32; WARP],
    /// `LCnt`: the group's size on its leader (lowest lane), 0 elsewhere.
    pub lcnt: [u32; WARP],
    /// `Rank`: the lane's position in its group.
    pub rank: [u32; WARP],
    /// `Sum`: the group's total of `V` (wrapping).
    pub sum: [u32; WARP],
    /// `Base`: the leader's `Old`.
    pub base: [u32; WARP],
    /// `Slot`: `Base + Rank`.
    pub slot: [u32; WARP],
    /// `Leaders` / `isLeader`: the lowest lane of every group (all lanes).
    pub leaders: u32,
    /// `NGroups`: the number of distinct buckets (all lanes).
    pub ngroups: u32,
}

/// `group.ptx`: warp-aggregated atomics. The bucket is
/// `mul.hi(Id * 0x9e3779b9, 6)` < 6, so the `match.any` groups are built as
/// per-bucket lane masks and sums in one pass over the lanes (8 slots, the
/// key masked to 3 bits so no bounds check is left), and every per-lane
/// result is a lookup by key.
pub fn group(id: &[u32; WARP], v: &[u32; WARP], old: &[u32; WARP]) -> Groups {
    let key: [u32; WARP] =
        lanes(|l| ((u64::from(id[l].wrapping_mul(0x9e37_79b9)) * 6) >> 32) as u32);
    let mut members = [0u32; 8];
    let mut sums = [0u32; 8];
    for l in 0..WARP {
        let k = key[l] as usize & 7;
        members[k] |= 1 << l;
        sums[k] = sums[k].wrapping_add(v[l]);
    }
    let mut leaders = 0;
    let mut bases = [0u32; 8];
    for k in 0..8 {
        let g = members[k];
        leaders |= g & g.wrapping_neg();
        bases[k] = old[g.trailing_zeros() as usize & (WARP - 1)];
    }
    let group: [u32; WARP] = lanes(|l| members[key[l] as usize & 7]);
    let cnt = group.map(u32::count_ones);
    let rank: [u32; WARP] = lanes(|l| (group[l] & ((1u32 << l) - 1)).count_ones());
    let base: [u32; WARP] = lanes(|l| bases[key[l] as usize & 7]);
    Groups {
        key,
        group,
        cnt,
        lcnt: lanes(|l| if leaders >> l & 1 == 1 { cnt[l] } else { 0 }),
        rank,
        sum: lanes(|l| sums[key[l] as usize & 7]),
        base,
        slot: lanes(|l| base[l].wrapping_add(rank[l])),
        leaders,
        ngroups: leaders.count_ones(),
    }
}

/// `group.ptx` as the PTX computes it ([`Program::literal`]): `match.any`
/// per lane over the warp, each lane's `redux.sync` over its own
/// membermask, the leader's `Old` gathered from lane `ldr`. `base` is
/// `Base` before the program (only the leaders' lanes are read after their
/// guarded `mov`).
pub fn group_literal(
    id: &[u32; WARP],
    v: &[u32; WARP],
    old: &[u32; WARP],
    base: &[u32; WARP],
) -> Groups {
    let laneid: [u32; WARP] = lanes(|l| l as u32);
    let h = id.map(|x| x.wrapping_mul(0x9e37_79b9));
    let k = h.map(|x| mulhi_u32(x, 6));
    let g = match_any(&k);
    let t = g.map(|x| !x);
    let t = t.map(|x| x.wrapping_add(1));
    let lo: [u32; WARP] = lanes(|l| g[l] & t[l]);
    let bit = laneid.map(|i| shl32(1, i));
    let is_leader = pmask(|l| lo[l] == bit[l]);
    let cnt = g.map(u32::count_ones);
    let lt = bit.map(|x| x.wrapping_sub(1));
    let t: [u32; WARP] = lanes(|l| g[l] & lt[l]);
    let rank = t.map(u32::count_ones);
    let sum: [u32; WARP] = lanes(|l| {
        (0..WARP)
            .filter(|&j| g[l] >> j & 1 == 1)
            .fold(0u32, |s, j| s.wrapping_add(v[j]))
    });
    let lcnt = sel(is_leader, &cnt, &[0; WARP]);
    let base = sel(is_leader, old, base);
    let t = lo.map(|x| x.wrapping_sub(1));
    let ldr = t.map(u32::count_ones);
    let (base, _) = shfl(Shfl::Idx, &base, |l| ldr[l], |_| 0x1f);
    let slot: [u32; WARP] = lanes(|l| base[l].wrapping_add(rank[l]));
    let leaders = is_leader;
    let ngroups = leaders.count_ones();
    Groups {
        key: k,
        group: g,
        cnt,
        lcnt,
        rank,
        sum,
        base,
        slot,
        leaders,
        ngroups,
    }
}

fn run_group(f: &mut [[u64; WARP]], n: u64) {
    let inputs = (get32(&f[0]), get32(&f[1]), get32(&f[2]));
    let g = repeat(inputs, n, |(id, v, old)| group(&id, &v, &old));
    put_groups(f, &g);
}

fn run_group_literal(f: &mut [[u64; WARP]], n: u64) {
    let inputs = (get32(&f[0]), get32(&f[1]), get32(&f[2]), get32(&f[9]));
    let g = repeat(inputs, n, |(id, v, old, base)| {
        group_literal(&id, &v, &old, &base)
    });
    put_groups(f, &g);
}

fn put_groups(f: &mut [[u64; WARP]], g: &Groups) {
    put32(&mut f[3], &g.key);
    put32(&mut f[4], &g.group);
    put32(&mut f[5], &g.cnt);
    put32(&mut f[6], &g.lcnt);
    put32(&mut f[7], &g.rank);
    put32(&mut f[8], &g.sum);
    put32(&mut f[9], &g.base);
    put32(&mut f[10], &g.slot);
    put_splat(&mut f[11], g.leaders);
    put_splat(&mut f[12], g.ngroups);
    put_pred(&mut f[19], g.leaders);
}

// ---------------------------------------------------------------------------
// loop.ptx

const LOOP_REGS: &[&str] = &[
    "x", "acc", "n", "m", "mo", "total", "y", "z", "t", "ldr", "p",
];

/// The results of [`divergent_loop`] besides `x`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Looped {
    /// `acc`: per lane, the sum over its iterations of the leader's `x` plus
    /// the `x` of lane l ^ 8.
    pub acc: [u32; WARP],
    /// `m`: per lane, the active mask of its last iteration.
    pub m: [u32; WARP],
    /// `total`: the sum of `acc` over the warp.
    pub total: u32,
}

/// The loop body's ALU work on `x`.
#[inline(always)]
fn mix(x: u32) -> u32 {
    let x = x.wrapping_mul(1_664_525).wrapping_add(1_013_904_223);
    x ^ x >> 16
}

/// `loop.ptx`: lane l iterates T = (l & 7) + 2 times, so iteration k runs
/// the lanes with (l & 7) >= k - 2: the same 8-lane pattern four times, and
/// its lowest lane is k - 2 (0 for k <= 2). Each iteration mixes `x` on the
/// active lanes, then every active lane adds the lowest active lane's `x`
/// (the `shfl.sync.idx` broadcast) and lane l ^ 8's `x` (the
/// `shfl.sync.bfly`; that lane has the same T) to `acc` and records the
/// iteration's mask in `m`; all as branch-free selects over the 32 lanes.
/// `n` ends at 0 on every lane (`mo` is scratch: after the loop no two
/// lanes that left it apart are certainly together).
pub fn divergent_loop(x: &mut [u32; WARP]) -> Looped {
    let mut acc = [0u32; WARP];
    let mut m = [0u32; WARP];
    for k in 1..=9u32 {
        let first = k.saturating_sub(2);
        let active = ((0xffu32 << first) & 0xff) * 0x0101_0101;
        let on: [bool; WARP] = lanes(|l| (l as u32 & 7) >= first);
        for l in 0..WARP {
            x[l] = if on[l] { mix(x[l]) } else { x[l] };
        }
        let lead = x[first as usize];
        let xs = *x;
        for l in 0..WARP {
            let add = lead.wrapping_add(xs[l ^ 8]);
            acc[l] = if on[l] {
                acc[l].wrapping_add(add)
            } else {
                acc[l]
            };
            m[l] = if on[l] { active } else { m[l] };
        }
    }
    let total = acc.iter().fold(0u32, |s, &a| s.wrapping_add(a));
    Looped { acc, m, total }
}

/// `loop.ptx` as the PTX computes it ([`Program::literal`]): the lanes
/// still looping run each iteration together (min-PC: the lanes whose
/// count reached 0 wait after the loop), every instruction writes only
/// their lanes, `m` is read from `activemask`, the leader's lane is found
/// from `m` and both exchanges are gathers; the warp's sum after the loop.
/// `m` holds the register's value before the program (every lane writes
/// it in its first iteration).
pub fn divergent_loop_literal(x: &mut [u32; WARP], m: &[u32; WARP]) -> Looped {
    let laneid: [u32; WARP] = lanes(|l| l as u32);
    let mut n = laneid.map(|i| i & 7);
    n = n.map(|v| v.wrapping_add(2));
    let mut acc = [0u32; WARP];
    let mut m = *m;
    let (mut t, mut ldr, mut y, mut z) = ([0u32; WARP], [0u32; WARP], [0u32; WARP], [0u32; WARP]);
    let mut active = FULL;
    while active != 0 {
        let a = active;
        m = sel(a, &[a; WARP], &m);
        *x = sel(a, &x.map(|v| v.wrapping_mul(1_664_525)), x);
        *x = sel(a, &x.map(|v| v.wrapping_add(1_013_904_223)), x);
        t = sel(a, &x.map(|v| v >> 16), &t);
        *x = sel(a, &lanes(|l| x[l] ^ t[l]), x);
        t = sel(a, &m.map(|v| !v), &t);
        t = sel(a, &t.map(|v| v.wrapping_add(1)), &t);
        t = sel(a, &lanes(|l| t[l] & m[l]), &t);
        t = sel(a, &t.map(|v| v.wrapping_sub(1)), &t);
        ldr = sel(a, &t.map(u32::count_ones), &ldr);
        y = sel(a, &shfl(Shfl::Idx, x, |l| ldr[l], |_| 0x1f).0, &y);
        z = sel(a, &shfl(Shfl::Bfly, x, |_| 8, |_| 0x1f).0, &z);
        t = sel(a, &lanes(|l| y[l].wrapping_add(z[l])), &t);
        acc = sel(a, &lanes(|l| acc[l].wrapping_add(t[l])), &acc);
        n = sel(a, &n.map(|v| v.wrapping_sub(1)), &n);
        let p = pmask(|l| n[l] != 0) & a;
        // `@p bra TOP`: the lanes with `p` go round again.
        active = p;
    }
    let total = redux_add_u32(&acc);
    Looped { acc, m, total }
}

fn run_loop(f: &mut [[u64; WARP]], n: u64) {
    let (x, r) = repeat(get32(&f[0]), n, |mut x| {
        let r = divergent_loop(&mut x);
        (x, r)
    });
    put_looped(f, &x, &r);
}

fn run_loop_literal(f: &mut [[u64; WARP]], n: u64) {
    let (x, r) = repeat((get32(&f[0]), get32(&f[3])), n, |(mut x, m)| {
        let r = divergent_loop_literal(&mut x, &m);
        (x, r)
    });
    put_looped(f, &x, &r);
}

fn put_looped(f: &mut [[u64; WARP]], x: &[u32; WARP], r: &Looped) {
    put32(&mut f[0], x);
    put32(&mut f[1], &r.acc);
    put_splat(&mut f[2], 0);
    put32(&mut f[3], &r.m);
    put_splat(&mut f[5], r.total);
}

// ---------------------------------------------------------------------------
// Whole-warp helpers for mix200: every lane executes, membermask is FULL.

/// `shfl` modes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Shfl {
    /// `.up`.
    Up,
    /// `.down`.
    Down,
    /// `.bfly`.
    Bfly,
    /// `.idx`.
    Idx,
}

/// The spec's source lane `j` and `pval` for `lane` (shfl.sync, 9.7.9.6).
#[inline(always)]
pub fn shfl_src(mode: Shfl, lane: u32, b: u32, c: u32) -> (u32, bool) {
    let lane = lane as i32;
    let bval = (b & 0x1f) as i32;
    let cval = (c & 0x1f) as i32;
    let segmask = (c >> 8 & 0x1f) as i32;
    let max_lane = (lane & segmask) | (cval & !segmask & 0x1f);
    let min_lane = lane & segmask;
    let (j, pval) = match mode {
        Shfl::Up => (lane - bval, lane - bval >= max_lane),
        Shfl::Down => (lane + bval, lane + bval <= max_lane),
        Shfl::Bfly => (lane ^ bval, (lane ^ bval) <= max_lane),
        Shfl::Idx => {
            let j = min_lane | (bval & !segmask & 0x1f);
            (j, j <= max_lane)
        }
    };
    if pval {
        (j as u32, true)
    } else {
        (lane as u32, false)
    }
}

/// `shfl.sync.mode.b32 d|p, a, b, c, 0xffffffff` on a full warp: `d` and
/// `p` as a lane mask.
#[inline(always)]
pub fn shfl(
    mode: Shfl,
    a: &[u32; WARP],
    b: impl Fn(usize) -> u32,
    c: impl Fn(usize) -> u32,
) -> ([u32; WARP], u32) {
    let mut p = 0;
    let d = lanes(|l| {
        let (j, pval) = shfl_src(mode, l as u32, b(l), c(l));
        p |= u32::from(pval) << l;
        a[j as usize & (WARP - 1)]
    });
    (d, p)
}

/// `vote.sync.all.pred` over a full warp, as a lane mask.
#[inline(always)]
pub fn vote_all(a: u32) -> u32 {
    if a == FULL {
        FULL
    } else {
        0
    }
}

/// `vote.sync.any.pred` over a full warp.
#[inline(always)]
pub fn vote_any(a: u32) -> u32 {
    if a != 0 {
        FULL
    } else {
        0
    }
}

/// `vote.sync.uni.pred` over a full warp.
#[inline(always)]
pub fn vote_uni(a: u32) -> u32 {
    if a == 0 || a == FULL {
        FULL
    } else {
        0
    }
}

/// `match.any.sync` over a full warp: per lane, the lanes with its value.
#[inline(always)]
pub fn match_any<T: Copy + Eq>(a: &[T; WARP]) -> [u32; WARP] {
    lanes(|l| pmask(|k| a[k] == a[l]))
}

/// `match.all.sync` over a full warp: `(d, p)`, `d` the full mask when all
/// lanes agree and 0 otherwise, `p` as a lane mask.
#[inline(always)]
pub fn match_all<T: Copy + Eq>(a: &[T; WARP]) -> (u32, u32) {
    if a.iter().all(|&x| x == a[0]) {
        (FULL, FULL)
    } else {
        (0, 0)
    }
}

/// `redux.sync.add.u32` over a full warp.
#[inline(always)]
pub fn redux_add_u32(a: &[u32; WARP]) -> u32 {
    a.iter().fold(0u32, |s, &x| s.wrapping_add(x))
}

/// `redux.sync.add.s32`: the same bits as `.u32`.
#[inline(always)]
pub fn redux_add_s32(a: &[u32; WARP]) -> u32 {
    redux_add_u32(a)
}

/// `redux.sync.min.u32`.
#[inline(always)]
pub fn redux_min_u32(a: &[u32; WARP]) -> u32 {
    a.iter().fold(u32::MAX, |s, &x| s.min(x))
}

/// `redux.sync.min.s32`.
#[inline(always)]
pub fn redux_min_s32(a: &[u32; WARP]) -> u32 {
    a.iter().fold(i32::MAX, |s, &x| s.min(x as i32)) as u32
}

/// `redux.sync.max.u32`.
#[inline(always)]
pub fn redux_max_u32(a: &[u32; WARP]) -> u32 {
    a.iter().fold(0, |s, &x| s.max(x))
}

/// `redux.sync.max.s32`.
#[inline(always)]
pub fn redux_max_s32(a: &[u32; WARP]) -> u32 {
    a.iter().fold(i32::MIN, |s, &x| s.max(x as i32)) as u32
}

/// `redux.sync.and.b32`.
#[inline(always)]
pub fn redux_and_b32(a: &[u32; WARP]) -> u32 {
    a.iter().fold(FULL, |s, &x| s & x)
}

/// `redux.sync.or.b32`.
#[inline(always)]
pub fn redux_or_b32(a: &[u32; WARP]) -> u32 {
    a.iter().fold(0, |s, &x| s | x)
}

/// `redux.sync.xor.b32`.
#[inline(always)]
pub fn redux_xor_b32(a: &[u32; WARP]) -> u32 {
    a.iter().fold(0, |s, &x| s ^ x)
}

/// `mul.hi.u32`.
#[inline(always)]
pub fn mulhi_u32(a: u32, b: u32) -> u32 {
    ((u64::from(a) * u64::from(b)) >> 32) as u32
}

/// `mul.hi.s32`.
#[inline(always)]
pub fn mulhi_s32(a: u32, b: u32) -> u32 {
    ((i64::from(a as i32) * i64::from(b as i32)) >> 32) as u32
}

/// `mul.hi.u64`.
#[inline(always)]
pub fn mulhi_u64(a: u64, b: u64) -> u64 {
    ((u128::from(a) * u128::from(b)) >> 64) as u64
}

/// `mul.hi.s64`.
#[inline(always)]
pub fn mulhi_s64(a: u64, b: u64) -> u64 {
    ((i128::from(a as i64) * i128::from(b as i64)) >> 64) as u64
}

/// `shl.b32`: amounts of 32 or more give 0.
#[inline(always)]
pub fn shl32(a: u32, n: u32) -> u32 {
    a.checked_shl(n).unwrap_or(0)
}

/// `shr.b32` / `shr.u32`: amounts of 32 or more give 0.
#[inline(always)]
pub fn shr_u32(a: u32, n: u32) -> u32 {
    a.checked_shr(n).unwrap_or(0)
}

/// `shr.s32`: amounts of 32 or more fill with the sign.
#[inline(always)]
pub fn shr_s32(a: u32, n: u32) -> u32 {
    ((a as i32) >> n.min(31)) as u32
}

/// `shl.b64`.
#[inline(always)]
pub fn shl64(a: u64, n: u32) -> u64 {
    a.checked_shl(n).unwrap_or(0)
}

/// `shr.b64` / `shr.u64`.
#[inline(always)]
pub fn shr_u64(a: u64, n: u32) -> u64 {
    a.checked_shr(n).unwrap_or(0)
}

/// `shr.s64`.
#[inline(always)]
pub fn shr_s64(a: u64, n: u32) -> u64 {
    ((a as i64) >> n.min(63)) as u64
}

/// PTX's canonical NaN.
pub const CANONICAL_NAN: u32 = 0x7fff_ffff;

#[inline(always)]
fn is_nan(x: u32) -> bool {
    x & 0x7fff_ffff > 0x7f80_0000
}

#[inline(always)]
fn canon(x: f32) -> u32 {
    if x.is_nan() {
        CANONICAL_NAN
    } else {
        x.to_bits()
    }
}

/// `add.f32` on bits.
#[inline(always)]
pub fn fadd(a: u32, b: u32) -> u32 {
    canon(f32::from_bits(a) + f32::from_bits(b))
}

/// `sub.f32` on bits.
#[inline(always)]
pub fn fsub(a: u32, b: u32) -> u32 {
    canon(f32::from_bits(a) - f32::from_bits(b))
}

/// `mul.f32` on bits.
#[inline(always)]
pub fn fmul(a: u32, b: u32) -> u32 {
    canon(f32::from_bits(a) * f32::from_bits(b))
}

/// `neg.f32` on bits.
#[inline(always)]
pub fn fneg(a: u32) -> u32 {
    if is_nan(a) {
        CANONICAL_NAN
    } else {
        a ^ 0x8000_0000
    }
}

/// `abs.f32` on bits.
#[inline(always)]
pub fn fabs(a: u32) -> u32 {
    if is_nan(a) {
        CANONICAL_NAN
    } else {
        a & 0x7fff_ffff
    }
}

/// Orders non-NaN f32 bits numerically with -0.0 < +0.0.
#[inline(always)]
fn order_key(x: u32) -> u32 {
    if x >> 31 == 1 {
        !x
    } else {
        x | 0x8000_0000
    }
}

#[inline(always)]
fn fminmax(a: u32, b: u32, max: bool) -> u32 {
    match (is_nan(a), is_nan(b)) {
        (true, true) => CANONICAL_NAN,
        (true, false) => b,
        (false, true) => a,
        (false, false) => {
            if (order_key(a) <= order_key(b)) != max {
                a
            } else {
                b
            }
        }
    }
}

/// `min.f32` on bits: a NaN operand yields the other, min(+0, -0) = -0.
#[inline(always)]
pub fn fmin(a: u32, b: u32) -> u32 {
    fminmax(a, b, false)
}

/// `max.f32` on bits: a NaN operand yields the other, max(+0, -0) = +0.
#[inline(always)]
pub fn fmax(a: u32, b: u32) -> u32 {
    fminmax(a, b, true)
}

#[inline(always)]
fn fcmp(a: u32, b: u32) -> Option<std::cmp::Ordering> {
    f32::from_bits(a).partial_cmp(&f32::from_bits(b))
}

/// `setp.eq.f32` (ordered: false with a NaN).
#[inline(always)]
pub fn fsetp_eq(a: u32, b: u32) -> bool {
    fcmp(a, b).is_some_and(|o| o.is_eq())
}

/// `setp.ne.f32` (ordered: false with a NaN).
#[inline(always)]
pub fn fsetp_ne(a: u32, b: u32) -> bool {
    fcmp(a, b).is_some_and(|o| o.is_ne())
}

/// `setp.lt.f32`.
#[inline(always)]
pub fn fsetp_lt(a: u32, b: u32) -> bool {
    fcmp(a, b).is_some_and(|o| o.is_lt())
}

/// `setp.le.f32`.
#[inline(always)]
pub fn fsetp_le(a: u32, b: u32) -> bool {
    fcmp(a, b).is_some_and(|o| o.is_le())
}

/// `setp.gt.f32`.
#[inline(always)]
pub fn fsetp_gt(a: u32, b: u32) -> bool {
    fcmp(a, b).is_some_and(|o| o.is_gt())
}

/// `setp.ge.f32`.
#[inline(always)]
pub fn fsetp_ge(a: u32, b: u32) -> bool {
    fcmp(a, b).is_some_and(|o| o.is_ge())
}

fn run_mix200(f: &mut [[u64; WARP]], n: u64) {
    let s = repeat(Mix200::load(f), n, |mut s| {
        mix200(&mut s);
        s
    });
    s.store(f);
}

// ---------------------------------------------------------------------------
// mix200.ptx: generated from programs/mix200.ptx by gen_mix200.py (in this
// directory); do not edit by hand. After changing the .ptx or the generator,
// run `python3 lower/jit/benches/gen_mix200.py`; the test
// lower/jit/tests/mix200_generated.rs fails while this section is out of date.

// BEGIN GENERATED mix200 (gen_mix200.py)
/// The register file of `mix200.ptx`, in declaration order: `.b32` and `.f32` registers as
/// `[u32; WARP]` (f32 as bits), `.b64` as `[u64; WARP]`, `.pred` as a lane mask.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Mix200 {
    pub r0: [u32; WARP],
    pub r1: [u32; WARP],
    pub r2: [u32; WARP],
    pub r3: [u32; WARP],
    pub r4: [u32; WARP],
    pub r5: [u32; WARP],
    pub r6: [u32; WARP],
    pub r7: [u32; WARP],
    pub r8: [u32; WARP],
    pub r9: [u32; WARP],
    pub r10: [u32; WARP],
    pub r11: [u32; WARP],
    pub f0: [u32; WARP],
    pub f1: [u32; WARP],
    pub f2: [u32; WARP],
    pub f3: [u32; WARP],
    pub d0: [u64; WARP],
    pub d1: [u64; WARP],
    pub d2: [u64; WARP],
    pub d3: [u64; WARP],
    pub p0: u32,
    pub p1: u32,
    pub p2: u32,
    pub p3: u32,
    pub p4: u32,
    pub p5: u32,
}

impl Mix200 {
    /// The register names in declaration order (the register file's layout).
    pub const REGS: &'static [&'static str] = &[
        "r0", "r1", "r2", "r3", "r4", "r5", "r6", "r7", "r8", "r9", "r10", "r11", "f0", "f1", "f2",
        "f3", "d0", "d1", "d2", "d3", "p0", "p1", "p2", "p3", "p4", "p5",
    ];

    /// Reads the registers from a register file in declaration order.
    pub fn load(file: &[[u64; WARP]]) -> Self {
        Mix200 {
            r0: get32(&file[0]),
            r1: get32(&file[1]),
            r2: get32(&file[2]),
            r3: get32(&file[3]),
            r4: get32(&file[4]),
            r5: get32(&file[5]),
            r6: get32(&file[6]),
            r7: get32(&file[7]),
            r8: get32(&file[8]),
            r9: get32(&file[9]),
            r10: get32(&file[10]),
            r11: get32(&file[11]),
            f0: get32(&file[12]),
            f1: get32(&file[13]),
            f2: get32(&file[14]),
            f3: get32(&file[15]),
            d0: get64(&file[16]),
            d1: get64(&file[17]),
            d2: get64(&file[18]),
            d3: get64(&file[19]),
            p0: get_pred(&file[20]),
            p1: get_pred(&file[21]),
            p2: get_pred(&file[22]),
            p3: get_pred(&file[23]),
            p4: get_pred(&file[24]),
            p5: get_pred(&file[25]),
        }
    }

    /// Writes every register back into a register file in declaration order.
    pub fn store(&self, file: &mut [[u64; WARP]]) {
        put32(&mut file[0], &self.r0);
        put32(&mut file[1], &self.r1);
        put32(&mut file[2], &self.r2);
        put32(&mut file[3], &self.r3);
        put32(&mut file[4], &self.r4);
        put32(&mut file[5], &self.r5);
        put32(&mut file[6], &self.r6);
        put32(&mut file[7], &self.r7);
        put32(&mut file[8], &self.r8);
        put32(&mut file[9], &self.r9);
        put32(&mut file[10], &self.r10);
        put32(&mut file[11], &self.r11);
        put32(&mut file[12], &self.f0);
        put32(&mut file[13], &self.f1);
        put32(&mut file[14], &self.f2);
        put32(&mut file[15], &self.f3);
        put64(&mut file[16], &self.d0);
        put64(&mut file[17], &self.d1);
        put64(&mut file[18], &self.d2);
        put64(&mut file[19], &self.d3);
        put_pred(&mut file[20], self.p0);
        put_pred(&mut file[21], self.p1);
        put_pred(&mut file[22], self.p2);
        put_pred(&mut file[23], self.p3);
        put_pred(&mut file[24], self.p4);
        put_pred(&mut file[25], self.p5);
    }
}

/// `mix200.ptx`: 200 straight-line instructions, one statement each (generated with the
/// `.ptx` from seed 0x5eed0200; the PTX line is the comment above its statement). The warp is full
/// and converged, so every collective is the whole-warp helper above; guarded glue keeps the old
/// value on the lanes whose guard is false. The registers live in locals; `s` is read at the
/// start and written at the end.
pub fn mix200(s: &mut Mix200) {
    mix200_observed(s, |_, _| {});
}

/// [`mix200`], calling `after(k, &registers)` after its `k`-th instruction (1-based; 0 before
/// the first), for tests
/// that check each instruction. With the empty observer of [`mix200`] the snapshots are dead and
/// optimised away.
#[inline(always)]
pub fn mix200_observed(s: &mut Mix200, mut after: impl FnMut(usize, &Mix200)) {
    let mut r0 = s.r0;
    let mut r1 = s.r1;
    let mut r2 = s.r2;
    let mut r3 = s.r3;
    let mut r4 = s.r4;
    let mut r5 = s.r5;
    let mut r6 = s.r6;
    let mut r7 = s.r7;
    let mut r8 = s.r8;
    let mut r9 = s.r9;
    let mut r10 = s.r10;
    let mut r11 = s.r11;
    let mut f0 = s.f0;
    let mut f1 = s.f1;
    let mut f2 = s.f2;
    let mut f3 = s.f3;
    let mut d0 = s.d0;
    let mut d1 = s.d1;
    let mut d2 = s.d2;
    let mut d3 = s.d3;
    let mut p0 = s.p0;
    let mut p1 = s.p1;
    let mut p2 = s.p2;
    let mut p3 = s.p3;
    let mut p4 = s.p4;
    let mut p5 = s.p5;
    macro_rules! snapshot {
        () => {
            Mix200 {
                r0,
                r1,
                r2,
                r3,
                r4,
                r5,
                r6,
                r7,
                r8,
                r9,
                r10,
                r11,
                f0,
                f1,
                f2,
                f3,
                d0,
                d1,
                d2,
                d3,
                p0,
                p1,
                p2,
                p3,
                p4,
                p5,
            }
        };
    }
    after(0, &snapshot!());
    // shfl.sync.down.b32 r2|p4, r8, r4, 0x181f, 0xffffffff;
    {
        let (v, pv) = shfl(Shfl::Down, &r8, |l| r4[l], |_| 0x181f);
        let n0 = v;
        let n1 = pv;
        r2 = n0;
        p4 = n1;
    }
    after(1, &snapshot!());
    // mul.f32 f0, 0f3f000000, f0;
    f0 = lanes(|l| fmul(0x3f000000u32, f0[l]));
    after(2, &snapshot!());
    // @p3 setp.ne.or.f32 p0|p2, f3, f1, !p4;
    {
        let g = p3;
        let t = pmask(|l| fsetp_ne(f3[l], f1[l]));
        let c = !p4;
        let n0 = t | c;
        let n1 = !t | c;
        p0 = (n0 & g) | (p0 & !g);
        p2 = (n1 & g) | (p2 & !g);
    }
    after(3, &snapshot!());
    // @!p3 selp.b64 d2, 0x100000001, d3, p2;
    {
        let g = !p3;
        let n0 = lanes(|l| {
            if p2 >> l & 1 == 1 {
                0x100000001u64
            } else {
                d3[l]
            }
        });
        d2 = sel(g, &n0, &d2);
    }
    after(4, &snapshot!());
    // mul.lo.s64 d3, 0x1, d2;
    d3 = lanes(|l| 0x1u64.wrapping_mul(d2[l]));
    after(5, &snapshot!());
    // vote.sync.uni.pred p4, p3, 0xffffffff;
    p4 = vote_uni(p3);
    after(6, &snapshot!());
    // @!p5 selp.u32 r4, r7, r3, p5;
    {
        let g = !p5;
        let n0 = lanes(|l| if p5 >> l & 1 == 1 { r7[l] } else { r3[l] });
        r4 = sel(g, &n0, &r4);
    }
    after(7, &snapshot!());
    // redux.sync.or.b32 r3, r10, 0xffffffff;
    r3 = [redux_or_b32(&r10); WARP];
    after(8, &snapshot!());
    // shl.b64 d2, d3, 0x1;
    d2 = lanes(|l| shl64(d3[l], 0x1u32));
    after(9, &snapshot!());
    // shr.s32 r10, r11, 0x0;
    r10 = lanes(|l| shr_s32(r11[l], 0x0u32));
    after(10, &snapshot!());
    // mov.f32 f1, f2;
    f1 = lanes(|l| f2[l]);
    after(11, &snapshot!());
    // mul.hi.s32 r8, r6, r5;
    r8 = lanes(|l| mulhi_s32(r6[l], r5[l]));
    after(12, &snapshot!());
    // @p1 and.b64 d3, 0x1, d3;
    {
        let g = p1;
        let n0 = lanes(|l| 0x1u64 & d3[l]);
        d3 = sel(g, &n0, &d3);
    }
    after(13, &snapshot!());
    // shfl.sync.down.b32 r0|p5, r2, 0x10, r9, 0xffffffff;
    {
        let (v, pv) = shfl(Shfl::Down, &r2, |_| 0x10, |l| r9[l]);
        let n0 = v;
        let n1 = pv;
        r0 = n0;
        p5 = n1;
    }
    after(14, &snapshot!());
    // @p0 not.b64 d3, d2;
    {
        let g = p0;
        let n0 = lanes(|l| !d2[l]);
        d3 = sel(g, &n0, &d3);
    }
    after(15, &snapshot!());
    // setp.lt.f32 p1, 0f40000000, f1;
    {
        let t = pmask(|l| fsetp_lt(0x40000000u32, f1[l]));
        let n0 = t;
        p1 = n0;
    }
    after(16, &snapshot!());
    // setp.ge.and.s32 p3, 0xff, r0, p0;
    {
        let t = pmask(|l| (0xffu32 as i32) >= (r0[l] as i32));
        let c = p0;
        let n0 = t & c;
        p3 = n0;
    }
    after(17, &snapshot!());
    // not.b64 d2, d2;
    d2 = lanes(|l| !d2[l]);
    after(18, &snapshot!());
    // min.s32 r4, r5, r10;
    r4 = lanes(|l| (r5[l] as i32).min(r10[l] as i32) as u32);
    after(19, &snapshot!());
    // @p3 mov.u32 r7, %laneid;
    {
        let g = p3;
        let n0 = lanes(|l| l as u32);
        r7 = sel(g, &n0, &r7);
    }
    after(20, &snapshot!());
    // redux.sync.min.u32 r3, r2, 0xffffffff;
    r3 = [redux_min_u32(&r2); WARP];
    after(21, &snapshot!());
    // @p5 and.pred p2, p0, p5;
    {
        let g = p5;
        let n0 = p0 & p5;
        p2 = (n0 & g) | (p2 & !g);
    }
    after(22, &snapshot!());
    // @p0 or.pred p3, p0, p2;
    {
        let g = p0;
        let n0 = p0 | p2;
        p3 = (n0 & g) | (p3 & !g);
    }
    after(23, &snapshot!());
    // setp.eq.xor.b32 p0|p5, r4, r11, !p1;
    {
        let t = pmask(|l| r4[l] == r11[l]);
        let c = !p1;
        let n0 = t ^ c;
        let n1 = !t ^ c;
        p0 = n0;
        p5 = n1;
    }
    after(24, &snapshot!());
    // min.u32 r2, r9, r10;
    r2 = lanes(|l| r9[l].min(r10[l]));
    after(25, &snapshot!());
    // shfl.sync.down.b32 r4, f0, 0x1a, 0x1c1f, 0xffffffff;
    {
        let (v, _) = shfl(Shfl::Down, &f0, |_| 0x1a, |_| 0x1c1f);
        let n0 = v;
        r4 = n0;
    }
    after(26, &snapshot!());
    // @!p1 min.u32 r4, r2, r11;
    {
        let g = !p1;
        let n0 = lanes(|l| r2[l].min(r11[l]));
        r4 = sel(g, &n0, &r4);
    }
    after(27, &snapshot!());
    // @!p5 popc.b32 r5, r7;
    {
        let g = !p5;
        let n0 = lanes(|l| r7[l].count_ones());
        r5 = sel(g, &n0, &r5);
    }
    after(28, &snapshot!());
    // match.all.sync.b64 r3|p4, d3, 0xffffffff;
    {
        let (dv, pv) = match_all(&d3);
        let n0 = [dv; WARP];
        let n1 = pv;
        r3 = n0;
        p4 = n1;
    }
    after(29, &snapshot!());
    // redux.sync.xor.b32 r3, r1, 0xffffffff;
    r3 = [redux_xor_b32(&r1); WARP];
    after(30, &snapshot!());
    // @!p3 xor.b32 r10, r5, r4;
    {
        let g = !p3;
        let n0 = lanes(|l| r5[l] ^ r4[l]);
        r10 = sel(g, &n0, &r10);
    }
    after(31, &snapshot!());
    // selp.u32 r9, r10, r9, p5;
    r9 = lanes(|l| if p5 >> l & 1 == 1 { r10[l] } else { r9[l] });
    after(32, &snapshot!());
    // shfl.sync.idx.b32 f3|p5, r2, r8, 0xf, 0xffffffff;
    {
        let (v, pv) = shfl(Shfl::Idx, &r2, |l| r8[l], |_| 0xf);
        let n0 = v;
        let n1 = pv;
        f3 = n0;
        p5 = n1;
    }
    after(33, &snapshot!());
    // redux.sync.and.b32 r3, r1, 0xffffffff;
    r3 = [redux_and_b32(&r1); WARP];
    after(34, &snapshot!());
    // setp.le.or.u32 p2, r8, r6, p5;
    {
        let t = pmask(|l| r8[l] <= r6[l]);
        let c = p5;
        let n0 = t | c;
        p2 = n0;
    }
    after(35, &snapshot!());
    // @p0 max.s64 d3, d2, d3;
    {
        let g = p0;
        let n0 = lanes(|l| (d2[l] as i64).max(d3[l] as i64) as u64);
        d3 = sel(g, &n0, &d3);
    }
    after(36, &snapshot!());
    // shfl.sync.up.b32 r5, r4, 0xd, 0x1800, 0xffffffff;
    {
        let (v, _) = shfl(Shfl::Up, &r4, |_| 0xd, |_| 0x1800);
        let n0 = v;
        r5 = n0;
    }
    after(37, &snapshot!());
    // shfl.sync.bfly.b32 r6, f2, r5, 0x1e1f, 0xffffffff;
    {
        let (v, _) = shfl(Shfl::Bfly, &f2, |l| r5[l], |_| 0x1e1f);
        let n0 = v;
        r6 = n0;
    }
    after(38, &snapshot!());
    // @p2 selp.u32 r4, r6, r10, p2;
    {
        let g = p2;
        let n0 = lanes(|l| if p2 >> l & 1 == 1 { r6[l] } else { r10[l] });
        r4 = sel(g, &n0, &r4);
    }
    after(39, &snapshot!());
    // selp.b64 d2, d3, d1, p0;
    d2 = lanes(|l| if p0 >> l & 1 == 1 { d3[l] } else { d1[l] });
    after(40, &snapshot!());
    // max.u64 d1, d0, d1;
    d1 = lanes(|l| d0[l].max(d1[l]));
    after(41, &snapshot!());
    // not.b64 d3, d3;
    d3 = lanes(|l| !d3[l]);
    after(42, &snapshot!());
    // mul.hi.s32 r8, r6, r9;
    r8 = lanes(|l| mulhi_s32(r6[l], r9[l]));
    after(43, &snapshot!());
    // sub.f32 f0, f2, f3;
    f0 = lanes(|l| fsub(f2[l], f3[l]));
    after(44, &snapshot!());
    // shr.u64 d0, d3, 0x28;
    d0 = lanes(|l| shr_u64(d3[l], 0x28u32));
    after(45, &snapshot!());
    // mov.b32 r9, f1;
    r9 = f1;
    after(46, &snapshot!());
    // redux.sync.add.u32 r3, r1, 0xffffffff;
    r3 = [redux_add_u32(&r1); WARP];
    after(47, &snapshot!());
    // setp.ge.and.s32 p5|p0, r1, r9, p5;
    {
        let t = pmask(|l| (r1[l] as i32) >= (r9[l] as i32));
        let c = p5;
        let n0 = t & c;
        let n1 = !t & c;
        p5 = n0;
        p0 = n1;
    }
    after(48, &snapshot!());
    // sub.s32 r6, r8, r4;
    r6 = lanes(|l| r8[l].wrapping_sub(r4[l]));
    after(49, &snapshot!());
    // @p3 popc.b32 r4, r0;
    {
        let g = p3;
        let n0 = lanes(|l| r0[l].count_ones());
        r4 = sel(g, &n0, &r4);
    }
    after(50, &snapshot!());
    // @p5 or.b64 d3, d2, d0;
    {
        let g = p5;
        let n0 = lanes(|l| d2[l] | d0[l]);
        d3 = sel(g, &n0, &d3);
    }
    after(51, &snapshot!());
    // xor.b32 r2, r9, r4;
    r2 = lanes(|l| r9[l] ^ r4[l]);
    after(52, &snapshot!());
    // add.f32 f2, f0, f1;
    f2 = lanes(|l| fadd(f0[l], f1[l]));
    after(53, &snapshot!());
    // min.f32 f1, f2, f0;
    f1 = lanes(|l| fmin(f2[l], f0[l]));
    after(54, &snapshot!());
    // sub.s32 r1, r11, r9;
    r1 = lanes(|l| r11[l].wrapping_sub(r9[l]));
    after(55, &snapshot!());
    // mul.lo.u32 r3, r5, %laneid;
    r3 = lanes(|l| r5[l].wrapping_mul(l as u32));
    after(56, &snapshot!());
    // setp.eq.b64 p1, d3, d2;
    {
        let t = pmask(|l| d3[l] == d2[l]);
        let n0 = t;
        p1 = n0;
    }
    after(57, &snapshot!());
    // @p5 max.s64 d2, d0, d2;
    {
        let g = p5;
        let n0 = lanes(|l| (d0[l] as i64).max(d2[l] as i64) as u64);
        d2 = sel(g, &n0, &d2);
    }
    after(58, &snapshot!());
    // shfl.sync.idx.b32 r11|p3, r8, 0x1e, r6, 0xffffffff;
    {
        let (v, pv) = shfl(Shfl::Idx, &r8, |_| 0x1e, |l| r6[l]);
        let n0 = v;
        let n1 = pv;
        r11 = n0;
        p3 = n1;
    }
    after(59, &snapshot!());
    // xor.b32 r6, r1, r3;
    r6 = lanes(|l| r1[l] ^ r3[l]);
    after(60, &snapshot!());
    // shfl.sync.up.b32 f2|p5, r0, 0x1, 0x40f, 0xffffffff;
    {
        let (v, pv) = shfl(Shfl::Up, &r0, |_| 0x1, |_| 0x40f);
        let n0 = v;
        let n1 = pv;
        f2 = n0;
        p5 = n1;
    }
    after(61, &snapshot!());
    // redux.sync.min.u32 r4, r6, 0xffffffff;
    r4 = [redux_min_u32(&r6); WARP];
    after(62, &snapshot!());
    // @!p2 or.b32 r5, r11, 0x3039;
    {
        let g = !p2;
        let n0 = lanes(|l| r11[l] | 0x3039u32);
        r5 = sel(g, &n0, &r5);
    }
    after(63, &snapshot!());
    // shfl.sync.up.b32 r0|p2, r7, r2, 0x1000, 0xffffffff;
    {
        let (v, pv) = shfl(Shfl::Up, &r7, |l| r2[l], |_| 0x1000);
        let n0 = v;
        let n1 = pv;
        r0 = n0;
        p2 = n1;
    }
    after(64, &snapshot!());
    // xor.b32 r9, 0xff, r6;
    r9 = lanes(|l| 0xffu32 ^ r6[l]);
    after(65, &snapshot!());
    // @p2 not.b32 r6, r0;
    {
        let g = p2;
        let n0 = lanes(|l| !r0[l]);
        r6 = sel(g, &n0, &r6);
    }
    after(66, &snapshot!());
    // setp.ge.and.s64 p2, d1, 0x3, !p0;
    {
        let t = pmask(|l| (d1[l] as i64) >= (0x3u64 as i64));
        let c = !p0;
        let n0 = t & c;
        p2 = n0;
    }
    after(67, &snapshot!());
    // abs.f32 f3, f2;
    f3 = lanes(|l| fabs(f2[l]));
    after(68, &snapshot!());
    // setp.eq.or.u64 p0, d3, d2, p0;
    {
        let t = pmask(|l| d3[l] == d2[l]);
        let c = p0;
        let n0 = t | c;
        p0 = n0;
    }
    after(69, &snapshot!());
    // or.pred p0, p0, p3;
    p0 |= p3;
    after(70, &snapshot!());
    // match.all.sync.b64 r4, d3, 0xffffffff;
    {
        let (dv, _) = match_all(&d3);
        let n0 = [dv; WARP];
        r4 = n0;
    }
    after(71, &snapshot!());
    // vote.sync.ballot.b32 r4, !p0, 0xffffffff;
    r4 = [!p0; WARP];
    after(72, &snapshot!());
    // setp.ne.xor.f32 p3|p0, f3, f1, p2;
    {
        let t = pmask(|l| fsetp_ne(f3[l], f1[l]));
        let c = p2;
        let n0 = t ^ c;
        let n1 = !t ^ c;
        p3 = n0;
        p0 = n1;
    }
    after(73, &snapshot!());
    // match.all.sync.b64 r4|_, d0, 0xffffffff;
    {
        let (dv, _) = match_all(&d0);
        let n0 = [dv; WARP];
        r4 = n0;
    }
    after(74, &snapshot!());
    // match.all.sync.b32 r4|p4, r9, 0xffffffff;
    {
        let (dv, pv) = match_all(&r9);
        let n0 = [dv; WARP];
        let n1 = pv;
        r4 = n0;
        p4 = n1;
    }
    after(75, &snapshot!());
    // vote.sync.all.pred p4, !p1, 0xffffffff;
    p4 = vote_all(!p1);
    after(76, &snapshot!());
    // @p0 mul.hi.u32 r8, r6, r10;
    {
        let g = p0;
        let n0 = lanes(|l| mulhi_u32(r6[l], r10[l]));
        r8 = sel(g, &n0, &r8);
    }
    after(77, &snapshot!());
    // shfl.sync.bfly.b32 r8, f3, 0x20, 0x99d, 0xffffffff;
    {
        let (v, _) = shfl(Shfl::Bfly, &f3, |_| 0x20, |_| 0x99d);
        let n0 = v;
        r8 = n0;
    }
    after(78, &snapshot!());
    // shfl.sync.up.b32 r2|p2, r5, 0x5, 0x1000, 0xffffffff;
    {
        let (v, pv) = shfl(Shfl::Up, &r5, |_| 0x5, |_| 0x1000);
        let n0 = v;
        let n1 = pv;
        r2 = n0;
        p2 = n1;
    }
    after(79, &snapshot!());
    // shfl.sync.idx.b32 f3|p1, r10, 0x6, r5, 0xffffffff;
    {
        let (v, pv) = shfl(Shfl::Idx, &r10, |_| 0x6, |l| r5[l]);
        let n0 = v;
        let n1 = pv;
        f3 = n0;
        p1 = n1;
    }
    after(80, &snapshot!());
    // @p1 and.b32 r6, r3, r8;
    {
        let g = p1;
        let n0 = lanes(|l| r3[l] & r8[l]);
        r6 = sel(g, &n0, &r6);
    }
    after(81, &snapshot!());
    // max.f32 f0, f3, f1;
    f0 = lanes(|l| fmax(f3[l], f1[l]));
    after(82, &snapshot!());
    // mul.lo.u64 d2, d2, d1;
    d2 = lanes(|l| d2[l].wrapping_mul(d1[l]));
    after(83, &snapshot!());
    // setp.le.and.s32 p0|p1, r2, r6, p5;
    {
        let t = pmask(|l| (r2[l] as i32) <= (r6[l] as i32));
        let c = p5;
        let n0 = t & c;
        let n1 = !t & c;
        p0 = n0;
        p1 = n1;
    }
    after(84, &snapshot!());
    // match.any.sync.b64 r7, d2, 0xffffffff;
    r7 = match_any(&d2);
    after(85, &snapshot!());
    // match.any.sync.b64 r1, d2, 0xffffffff;
    r1 = match_any(&d2);
    after(86, &snapshot!());
    // shr.u64 d3, d2, 0x14;
    d3 = lanes(|l| shr_u64(d2[l], 0x14u32));
    after(87, &snapshot!());
    // selp.u64 d2, d3, d2, p2;
    d2 = lanes(|l| if p2 >> l & 1 == 1 { d3[l] } else { d2[l] });
    after(88, &snapshot!());
    // or.b64 d0, d2, d3;
    d0 = lanes(|l| d2[l] | d3[l]);
    after(89, &snapshot!());
    // @!p5 not.pred p2, p3;
    {
        let g = !p5;
        let n0 = !p3;
        p2 = (n0 & g) | (p2 & !g);
    }
    after(90, &snapshot!());
    // selp.u32 r6, r6, r8, p1;
    r6 = lanes(|l| if p1 >> l & 1 == 1 { r6[l] } else { r8[l] });
    after(91, &snapshot!());
    // sub.f32 f3, f0, f1;
    f3 = lanes(|l| fsub(f0[l], f1[l]));
    after(92, &snapshot!());
    // redux.sync.max.u32 r4, r9, 0xffffffff;
    r4 = [redux_max_u32(&r9); WARP];
    after(93, &snapshot!());
    // not.b64 d3, d0;
    d3 = lanes(|l| !d0[l]);
    after(94, &snapshot!());
    // add.f32 f0, f2, f3;
    f0 = lanes(|l| fadd(f2[l], f3[l]));
    after(95, &snapshot!());
    // match.all.sync.b32 _|p4, r7, 0xffffffff;
    {
        let (_, pv) = match_all(&r7);
        let n0 = pv;
        p4 = n0;
    }
    after(96, &snapshot!());
    // selp.b32 r3, r2, r3, p0;
    r3 = lanes(|l| if p0 >> l & 1 == 1 { r2[l] } else { r3[l] });
    after(97, &snapshot!());
    // sub.u64 d1, d0, d3;
    d1 = lanes(|l| d0[l].wrapping_sub(d3[l]));
    after(98, &snapshot!());
    // shfl.sync.down.b32 f1, r1, 0x1, r1, 0xffffffff;
    {
        let (v, _) = shfl(Shfl::Down, &r1, |_| 0x1, |l| r1[l]);
        let n0 = v;
        f1 = n0;
    }
    after(99, &snapshot!());
    // shfl.sync.bfly.b32 f2|p5, f0, 0x14, 0x7, 0xffffffff;
    {
        let (v, pv) = shfl(Shfl::Bfly, &f0, |_| 0x14, |_| 0x7);
        let n0 = v;
        let n1 = pv;
        f2 = n0;
        p5 = n1;
    }
    after(100, &snapshot!());
    // redux.sync.max.s32 r4, r0, 0xffffffff;
    r4 = [redux_max_s32(&r0); WARP];
    after(101, &snapshot!());
    // and.pred p3, p1, p2;
    p3 = p1 & p2;
    after(102, &snapshot!());
    // mul.f32 f0, f1, f2;
    f0 = lanes(|l| fmul(f1[l], f2[l]));
    after(103, &snapshot!());
    // mov.b64 d0, d1;
    d0 = lanes(|l| d1[l]);
    after(104, &snapshot!());
    // add.u32 r10, r10, r4;
    r10 = lanes(|l| r10[l].wrapping_add(r4[l]));
    after(105, &snapshot!());
    // shfl.sync.up.b32 r9, r10, r6, 0x1800, 0xffffffff;
    {
        let (v, _) = shfl(Shfl::Up, &r10, |l| r6[l], |_| 0x1800);
        let n0 = v;
        r9 = n0;
    }
    after(106, &snapshot!());
    // shfl.sync.down.b32 f1, r9, r3, 0x1f, 0xffffffff;
    {
        let (v, _) = shfl(Shfl::Down, &r9, |l| r3[l], |_| 0x1f);
        let n0 = v;
        f1 = n0;
    }
    after(107, &snapshot!());
    // max.s64 d3, d0, d2;
    d3 = lanes(|l| (d0[l] as i64).max(d2[l] as i64) as u64);
    after(108, &snapshot!());
    // selp.u64 d1, d3, d1, p1;
    d1 = lanes(|l| if p1 >> l & 1 == 1 { d3[l] } else { d1[l] });
    after(109, &snapshot!());
    // mul.hi.s64 d2, d1, d2;
    d2 = lanes(|l| mulhi_s64(d1[l], d2[l]));
    after(110, &snapshot!());
    // mov.f32 f2, f0;
    f2 = lanes(|l| f0[l]);
    after(111, &snapshot!());
    // @p3 shl.b32 r5, r6, 0x1e;
    {
        let g = p3;
        let n0 = lanes(|l| shl32(r6[l], 0x1eu32));
        r5 = sel(g, &n0, &r5);
    }
    after(112, &snapshot!());
    // match.any.sync.b32 r3, r6, 0xffffffff;
    r3 = match_any(&r6);
    after(113, &snapshot!());
    // shfl.sync.down.b32 f3, r5, 0x4, 0x114c, 0xffffffff;
    {
        let (v, _) = shfl(Shfl::Down, &r5, |_| 0x4, |_| 0x114c);
        let n0 = v;
        f3 = n0;
    }
    after(114, &snapshot!());
    // add.s64 d1, d1, d2;
    d1 = lanes(|l| d1[l].wrapping_add(d2[l]));
    after(115, &snapshot!());
    // sub.s32 r1, r6, r3;
    r1 = lanes(|l| r6[l].wrapping_sub(r3[l]));
    after(116, &snapshot!());
    // mov.b32 r6, f1;
    r6 = f1;
    after(117, &snapshot!());
    // @!p5 setp.le.xor.s32 p3, r1, r10, p5;
    {
        let g = !p5;
        let t = pmask(|l| (r1[l] as i32) <= (r10[l] as i32));
        let c = p5;
        let n0 = t ^ c;
        p3 = (n0 & g) | (p3 & !g);
    }
    after(118, &snapshot!());
    // popc.b64 r7, d1;
    r7 = lanes(|l| d1[l].count_ones());
    after(119, &snapshot!());
    // vote.sync.uni.pred p4, p3, 0xffffffff;
    p4 = vote_uni(p3);
    after(120, &snapshot!());
    // redux.sync.or.b32 r4, r8, 0xffffffff;
    r4 = [redux_or_b32(&r8); WARP];
    after(121, &snapshot!());
    // vote.sync.any.pred p4, !p5, 0xffffffff;
    p4 = vote_any(!p5);
    after(122, &snapshot!());
    // not.pred p2, p0;
    p2 = !p0;
    after(123, &snapshot!());
    // selp.b32 r9, r7, r11, p1;
    r9 = lanes(|l| if p1 >> l & 1 == 1 { r7[l] } else { r11[l] });
    after(124, &snapshot!());
    // max.u32 r10, r1, r3;
    r10 = lanes(|l| r1[l].max(r3[l]));
    after(125, &snapshot!());
    // shfl.sync.down.b32 r8, f3, r2, 0x1f, 0xffffffff;
    {
        let (v, _) = shfl(Shfl::Down, &f3, |l| r2[l], |_| 0x1f);
        let n0 = v;
        r8 = n0;
    }
    after(126, &snapshot!());
    // xor.pred p0, p5, p2;
    p0 = p5 ^ p2;
    after(127, &snapshot!());
    // vote.sync.ballot.b32 r4, p3, 0xffffffff;
    r4 = [p3; WARP];
    after(128, &snapshot!());
    // @p0 mov.b32 r11, r9;
    {
        let g = p0;
        let n0 = lanes(|l| r9[l]);
        r11 = sel(g, &n0, &r11);
    }
    after(129, &snapshot!());
    // min.u64 d2, d3, d2;
    d2 = lanes(|l| d3[l].min(d2[l]));
    after(130, &snapshot!());
    // vote.sync.all.pred p4, p0, 0xffffffff;
    p4 = vote_all(p0);
    after(131, &snapshot!());
    // max.s32 r9, r6, r2;
    r9 = lanes(|l| (r6[l] as i32).max(r2[l] as i32) as u32);
    after(132, &snapshot!());
    // redux.sync.add.s32 r4, r5, 0xffffffff;
    r4 = [redux_add_s32(&r5); WARP];
    after(133, &snapshot!());
    // shl.b64 d1, d2, 0x19;
    d1 = lanes(|l| shl64(d2[l], 0x19u32));
    after(134, &snapshot!());
    // @p1 sub.s64 d2, d2, d1;
    {
        let g = p1;
        let n0 = lanes(|l| d2[l].wrapping_sub(d1[l]));
        d2 = sel(g, &n0, &d2);
    }
    after(135, &snapshot!());
    // and.pred p5, p0, p5;
    p5 &= p0;
    after(136, &snapshot!());
    // @p2 shr.s64 d0, d2, r8;
    {
        let g = p2;
        let n0 = lanes(|l| shr_s64(d2[l], r8[l]));
        d0 = sel(g, &n0, &d0);
    }
    after(137, &snapshot!());
    // min.u64 d1, d2, d0;
    d1 = lanes(|l| d2[l].min(d0[l]));
    after(138, &snapshot!());
    // shfl.sync.up.b32 r7, r11, 0x27, 0x1000, 0xffffffff;
    {
        let (v, _) = shfl(Shfl::Up, &r11, |_| 0x27, |_| 0x1000);
        let n0 = v;
        r7 = n0;
    }
    after(139, &snapshot!());
    // selp.f32 f3, f3, f0, p5;
    f3 = lanes(|l| if p5 >> l & 1 == 1 { f3[l] } else { f0[l] });
    after(140, &snapshot!());
    // setp.lt.and.s32 p5|p2, r2, r9, !p5;
    {
        let t = pmask(|l| (r2[l] as i32) < (r9[l] as i32));
        let c = !p5;
        let n0 = t & c;
        let n1 = !t & c;
        p5 = n0;
        p2 = n1;
    }
    after(141, &snapshot!());
    // neg.f32 f0, f3;
    f0 = lanes(|l| fneg(f3[l]));
    after(142, &snapshot!());
    // mul.lo.s32 r10, r1, r6;
    r10 = lanes(|l| r1[l].wrapping_mul(r6[l]));
    after(143, &snapshot!());
    // vote.sync.all.pred p4, p0, 0xffffffff;
    p4 = vote_all(p0);
    after(144, &snapshot!());
    // shfl.sync.up.b32 f1, f0, r2, 0x1c00, 0xffffffff;
    {
        let (v, _) = shfl(Shfl::Up, &f0, |l| r2[l], |_| 0x1c00);
        let n0 = v;
        f1 = n0;
    }
    after(145, &snapshot!());
    // @p2 add.s32 r8, r2, r1;
    {
        let g = p2;
        let n0 = lanes(|l| r2[l].wrapping_add(r1[l]));
        r8 = sel(g, &n0, &r8);
    }
    after(146, &snapshot!());
    // @!p2 setp.lt.u64 p1|p2, d1, d3;
    {
        let g = !p2;
        let t = pmask(|l| d1[l] < d3[l]);
        let n0 = t;
        let n1 = !t;
        p1 = (n0 & g) | (p1 & !g);
        p2 = (n1 & g) | (p2 & !g);
    }
    after(147, &snapshot!());
    // vote.sync.any.pred p4, p5, 0xffffffff;
    p4 = vote_any(p5);
    after(148, &snapshot!());
    // shfl.sync.idx.b32 r4|p3, r10, r0, r10, 0xffffffff;
    {
        let (v, pv) = shfl(Shfl::Idx, &r10, |l| r0[l], |l| r10[l]);
        let n0 = v;
        let n1 = pv;
        r4 = n0;
        p3 = n1;
    }
    after(149, &snapshot!());
    // selp.b32 r3, r9, r7, p1;
    r3 = lanes(|l| if p1 >> l & 1 == 1 { r9[l] } else { r7[l] });
    after(150, &snapshot!());
    // redux.sync.add.u32 r7, r4, 0xffffffff;
    r7 = [redux_add_u32(&r4); WARP];
    after(151, &snapshot!());
    // activemask.b32 r7;
    r7 = [FULL; WARP];
    after(152, &snapshot!());
    // shl.b64 d0, d3, r8;
    d0 = lanes(|l| shl64(d3[l], r8[l]));
    after(153, &snapshot!());
    // popc.b64 r4, d2;
    r4 = lanes(|l| d2[l].count_ones());
    after(154, &snapshot!());
    // @p1 mul.lo.u32 r9, r4, r1;
    {
        let g = p1;
        let n0 = lanes(|l| r4[l].wrapping_mul(r1[l]));
        r9 = sel(g, &n0, &r9);
    }
    after(155, &snapshot!());
    // min.u32 r1, r6, r9;
    r1 = lanes(|l| r6[l].min(r9[l]));
    after(156, &snapshot!());
    // @p0 add.u64 d1, d3, -1;
    {
        let g = p0;
        let n0 = lanes(|l| d3[l].wrapping_add(0xffffffffffffffffu64));
        d1 = sel(g, &n0, &d1);
    }
    after(157, &snapshot!());
    // redux.sync.min.s32 r7, r9, 0xffffffff;
    r7 = [redux_min_s32(&r9); WARP];
    after(158, &snapshot!());
    // setp.gt.u64 p0, d2, d0;
    {
        let t = pmask(|l| d2[l] > d0[l]);
        let n0 = t;
        p0 = n0;
    }
    after(159, &snapshot!());
    // xor.b64 d3, 0x3, d1;
    d3 = lanes(|l| 0x3u64 ^ d1[l]);
    after(160, &snapshot!());
    // max.s64 d1, d3, d2;
    d1 = lanes(|l| (d3[l] as i64).max(d2[l] as i64) as u64);
    after(161, &snapshot!());
    // popc.b64 r6, d1;
    r6 = lanes(|l| d1[l].count_ones());
    after(162, &snapshot!());
    // shfl.sync.up.b32 f0, f2, r5, 0x1c00, 0xffffffff;
    {
        let (v, _) = shfl(Shfl::Up, &f2, |l| r5[l], |_| 0x1c00);
        let n0 = v;
        f0 = n0;
    }
    after(163, &snapshot!());
    // min.s64 d2, d1, d0;
    d2 = lanes(|l| (d1[l] as i64).min(d0[l] as i64) as u64);
    after(164, &snapshot!());
    // setp.ge.or.f32 p0, f0, f1, !p0;
    {
        let t = pmask(|l| fsetp_ge(f0[l], f1[l]));
        let c = !p0;
        let n0 = t | c;
        p0 = n0;
    }
    after(165, &snapshot!());
    // sub.u32 r2, r10, 0x80000000;
    r2 = lanes(|l| r10[l].wrapping_sub(0x80000000u32));
    after(166, &snapshot!());
    // redux.sync.max.u32 r7, r1, 0xffffffff;
    r7 = [redux_max_u32(&r1); WARP];
    after(167, &snapshot!());
    // mov.b64 d1, d2;
    d1 = lanes(|l| d2[l]);
    after(168, &snapshot!());
    // match.all.sync.b64 r7|_, d3, 0xffffffff;
    {
        let (dv, _) = match_all(&d3);
        let n0 = [dv; WARP];
        r7 = n0;
    }
    after(169, &snapshot!());
    // match.all.sync.b32 r7, r3, 0xffffffff;
    {
        let (dv, _) = match_all(&r3);
        let n0 = [dv; WARP];
        r7 = n0;
    }
    after(170, &snapshot!());
    // shfl.sync.idx.b32 f3|p4, r5, r0, 0x181f, 0xffffffff;
    {
        let (v, pv) = shfl(Shfl::Idx, &r5, |l| r0[l], |_| 0x181f);
        let n0 = v;
        let n1 = pv;
        f3 = n0;
        p4 = n1;
    }
    after(171, &snapshot!());
    // match.any.sync.b32 r11, r2, 0xffffffff;
    r11 = match_any(&r2);
    after(172, &snapshot!());
    // shfl.sync.up.b32 r1|p5, r4, r6, 0x1000, 0xffffffff;
    {
        let (v, pv) = shfl(Shfl::Up, &r4, |l| r6[l], |_| 0x1000);
        let n0 = v;
        let n1 = pv;
        r1 = n0;
        p5 = n1;
    }
    after(173, &snapshot!());
    // @p3 mul.hi.s32 r6, r4, r11;
    {
        let g = p3;
        let n0 = lanes(|l| mulhi_s32(r4[l], r11[l]));
        r6 = sel(g, &n0, &r6);
    }
    after(174, &snapshot!());
    // @!p0 not.b32 r2, r4;
    {
        let g = !p0;
        let n0 = lanes(|l| !r4[l]);
        r2 = sel(g, &n0, &r2);
    }
    after(175, &snapshot!());
    // sub.f32 f2, f3, 0f40700000;
    f2 = lanes(|l| fsub(f3[l], 0x40700000u32));
    after(176, &snapshot!());
    // not.pred p4, p0;
    p4 = !p0;
    after(177, &snapshot!());
    // shfl.sync.down.b32 f3, r2, 0x10, 0x1c1f, 0xffffffff;
    {
        let (v, _) = shfl(Shfl::Down, &r2, |_| 0x10, |_| 0x1c1f);
        let n0 = v;
        f3 = n0;
    }
    after(178, &snapshot!());
    // mul.lo.s32 r4, %laneid, r6;
    r4 = lanes(|l| (l as u32).wrapping_mul(r6[l]));
    after(179, &snapshot!());
    // min.s64 d2, -1, d0;
    d2 = lanes(|l| (0xffffffffffffffffu64 as i64).min(d0[l] as i64) as u64);
    after(180, &snapshot!());
    // shfl.sync.up.b32 r8, r0, 0x0, r4, 0xffffffff;
    {
        let (v, _) = shfl(Shfl::Up, &r0, |_| 0x0, |l| r4[l]);
        let n0 = v;
        r8 = n0;
    }
    after(181, &snapshot!());
    // @!p5 add.u32 r10, %laneid, r9;
    {
        let g = !p5;
        let n0 = lanes(|l| (l as u32).wrapping_add(r9[l]));
        r10 = sel(g, &n0, &r10);
    }
    after(182, &snapshot!());
    // match.any.sync.b32 r11, r11, 0xffffffff;
    r11 = match_any(&r11);
    after(183, &snapshot!());
    // vote.sync.ballot.b32 r7, !p2, 0xffffffff;
    r7 = [!p2; WARP];
    after(184, &snapshot!());
    // shfl.sync.up.b32 r3|p1, r0, 0xb, r8, 0xffffffff;
    {
        let (v, pv) = shfl(Shfl::Up, &r0, |_| 0xb, |l| r8[l]);
        let n0 = v;
        let n1 = pv;
        r3 = n0;
        p1 = n1;
    }
    after(185, &snapshot!());
    // setp.ge.s64 p1|p2, d2, d3;
    {
        let t = pmask(|l| (d2[l] as i64) >= (d3[l] as i64));
        let n0 = t;
        let n1 = !t;
        p1 = n0;
        p2 = n1;
    }
    after(186, &snapshot!());
    // shr.b64 d2, d1, 0x10;
    d2 = lanes(|l| shr_u64(d1[l], 0x10u32));
    after(187, &snapshot!());
    // shr.b32 r9, r8, 0x2;
    r9 = lanes(|l| shr_u32(r8[l], 0x2u32));
    after(188, &snapshot!());
    // xor.pred p0, p0, p2;
    p0 ^= p2;
    after(189, &snapshot!());
    // setp.lt.xor.s32 p5|p3, r10, r6, p2;
    {
        let t = pmask(|l| (r10[l] as i32) < (r6[l] as i32));
        let c = p2;
        let n0 = t ^ c;
        let n1 = !t ^ c;
        p5 = n0;
        p3 = n1;
    }
    after(190, &snapshot!());
    // mov.u32 r4, %laneid;
    r4 = lanes(|l| l as u32);
    after(191, &snapshot!());
    // sub.u32 r6, r2, r6;
    r6 = lanes(|l| r2[l].wrapping_sub(r6[l]));
    after(192, &snapshot!());
    // shr.u32 r11, r5, r4;
    r11 = lanes(|l| shr_u32(r5[l], r4[l]));
    after(193, &snapshot!());
    // shfl.sync.down.b32 r2|p2, r3, 0x1, 0x616, 0xffffffff;
    {
        let (v, pv) = shfl(Shfl::Down, &r3, |_| 0x1, |_| 0x616);
        let n0 = v;
        let n1 = pv;
        r2 = n0;
        p2 = n1;
    }
    after(194, &snapshot!());
    // max.f32 f1, f0, f3;
    f1 = lanes(|l| fmax(f0[l], f3[l]));
    after(195, &snapshot!());
    // shfl.sync.idx.b32 f0, r11, 0x16, 0x7ee, 0xffffffff;
    {
        let (v, _) = shfl(Shfl::Idx, &r11, |_| 0x16, |_| 0x7ee);
        let n0 = v;
        f0 = n0;
    }
    after(196, &snapshot!());
    // setp.ne.xor.u32 p2, %laneid, r10, p5;
    {
        let t = pmask(|l| (l as u32) != r10[l]);
        let c = p5;
        let n0 = t ^ c;
        p2 = n0;
    }
    after(197, &snapshot!());
    // @!p2 mul.hi.u64 d0, d3, d2;
    {
        let g = !p2;
        let n0 = lanes(|l| mulhi_u64(d3[l], d2[l]));
        d0 = sel(g, &n0, &d0);
    }
    after(198, &snapshot!());
    // max.s32 r5, r2, r11;
    r5 = lanes(|l| (r2[l] as i32).max(r11[l] as i32) as u32);
    after(199, &snapshot!());
    // @p0 mov.pred p5, p0;
    {
        let g = p0;
        let n0 = p0;
        p5 = (n0 & g) | (p5 & !g);
    }
    after(200, &snapshot!());
    s.r0 = r0;
    s.r1 = r1;
    s.r2 = r2;
    s.r3 = r3;
    s.r4 = r4;
    s.r5 = r5;
    s.r6 = r6;
    s.r7 = r7;
    s.r8 = r8;
    s.r9 = r9;
    s.r10 = r10;
    s.r11 = r11;
    s.f0 = f0;
    s.f1 = f1;
    s.f2 = f2;
    s.f3 = f3;
    s.d0 = d0;
    s.d1 = d1;
    s.d2 = d2;
    s.d3 = d3;
    s.p0 = p0;
    s.p1 = p1;
    s.p2 = p2;
    s.p3 = p3;
    s.p4 = p4;
    s.p5 = p5;
}
// END GENERATED mix200
