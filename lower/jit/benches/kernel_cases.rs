//! The kernels of the kernel benchmark (`benches/kernels.rs`, issue #36)
//! and their plain Rust versions: each kernel's PTX, a launch of it over
//! `n` elements with deterministic inputs, and the same computation on
//! the launch's buffers as 32-bit words, on one thread or spread over
//! several. Shared with `tests/suite/bench_kernels.rs`, which checks each plain
//! version, the JIT and the interpreter against each other.

use std::path::PathBuf;
use warp_core::ir::Module;
use warp_core::launch::{Buffer, Launch, ParamValue};

/// A kernel of the benchmark.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kernel {
    /// `y = a * x + y` with `fma.rn.f32` (nvcc, `corpus/kernels/nvcc/saxpy`).
    Saxpy,
    /// Each block of 256 sums its inputs (wrapping): a shuffle reduction
    /// per warp, the warps' sums through shared memory and `bar.sync`
    /// (`corpus/kernels/block_reduce_shared`).
    BlockReduce,
    /// Every lane gets its warp's sum: `shfl.sync.bfly` (nvcc,
    /// `corpus/kernels/nvcc/warp_sum_xor`).
    WarpReduce,
    /// Inclusive prefix sums of blocks of 128: shuffles, shared memory,
    /// two `bar.sync` (nvcc's `block_scan` over a grid,
    /// `benches/kernels/block_scan_grid.ptx`).
    BlockScan,
    /// A square matrix transposed through a padded shared tile, blocks of
    /// 32 x 8 (nvcc, `corpus/kernels/nvcc/transpose`).
    Transpose,
    /// Odd inputs compacted per warp with `ballot.sync` and `popc` (nvcc,
    /// `corpus/kernels/nvcc/ballot_compact`).
    Compact,
}

impl Kernel {
    /// Every kernel, in the table's order.
    pub const ALL: [Kernel; 6] = [
        Kernel::Saxpy,
        Kernel::BlockReduce,
        Kernel::WarpReduce,
        Kernel::BlockScan,
        Kernel::Transpose,
        Kernel::Compact,
    ];

    /// Its name in the table.
    pub fn name(self) -> &'static str {
        match self {
            Kernel::Saxpy => "saxpy",
            Kernel::BlockReduce => "block reduce (shared, bar.sync)",
            Kernel::WarpReduce => "warp reduce (shfl.bfly)",
            Kernel::BlockScan => "block scan",
            Kernel::Transpose => "tiled transpose",
            Kernel::Compact => "ballot compaction",
        }
    }

    /// The `.entry`'s name.
    pub fn entry(self) -> &'static str {
        match self {
            Kernel::Saxpy => "saxpy",
            Kernel::BlockReduce => "block_reduce_shared",
            Kernel::WarpReduce => "warp_sum_xor",
            Kernel::BlockScan => "block_scan_grid",
            Kernel::Transpose => "transpose",
            Kernel::Compact => "ballot_compact",
        }
    }

    /// The PTX file, under [`root`].
    pub fn path(self) -> PathBuf {
        let root = root();
        match self {
            Kernel::Saxpy => root.join("corpus/kernels/nvcc/saxpy.ptx"),
            Kernel::BlockReduce => root.join("corpus/kernels/block_reduce_shared.ptx"),
            Kernel::WarpReduce => root.join("corpus/kernels/nvcc/warp_sum_xor.ptx"),
            Kernel::BlockScan => root.join("lower/jit/benches/kernels/block_scan_grid.ptx"),
            Kernel::Transpose => root.join("corpus/kernels/nvcc/transpose.ptx"),
            Kernel::Compact => root.join("corpus/kernels/nvcc/ballot_compact.ptx"),
        }
    }

    /// The parsed module.
    pub fn module(self) -> Module {
        let p = self.path();
        let src = std::fs::read_to_string(&p).unwrap_or_else(|e| panic!("{}: {e}", p.display()));
        warp_core::text::parse_module(&src).unwrap_or_else(|e| panic!("{}: {e}", p.display()))
    }

    /// The elements a launch of about `n` covers: a whole number of
    /// blocks (of 256, 128 or a 32 x 32 tile; the transpose's matrix is
    /// square).
    pub fn elements(self, n: usize) -> usize {
        match self {
            Kernel::Saxpy | Kernel::BlockReduce | Kernel::WarpReduce | Kernel::Compact => {
                n.div_ceil(256).max(1) * 256
            }
            Kernel::BlockScan => n.div_ceil(128).max(1) * 128,
            Kernel::Transpose => {
                let side = ((n as f64).sqrt().ceil() as usize).div_ceil(32).max(1) * 32;
                side * side
            }
        }
    }

    /// A launch over [`Kernel::elements`]`(n)` elements, inputs drawn from
    /// `seed`.
    pub fn launch(self, n: usize, seed: u64) -> Launch {
        let n = self.elements(n);
        let mut rng = warp_core::rng::Rng::new(seed);
        let mut words =
            |count: usize| -> Vec<u32> { (0..count).map(|_| rng.next_u64() as u32).collect() };
        let mut l = Launch::new(self.entry());
        let buffer = |name: &str, w: &[u32]| Buffer {
            name: name.to_string(),
            bytes: w.iter().flat_map(|x| x.to_le_bytes()).collect(),
        };
        let param = |l: &mut Launch, i: usize, v: ParamValue| {
            l.params.push((format!("{}_param_{i}", self.entry()), v));
        };
        match self {
            Kernel::Saxpy => {
                // Floats in [-100, 100): no NaN, no overflow.
                let mut floats = |count: usize| -> Vec<u32> {
                    words(count)
                        .into_iter()
                        .map(|w| ((w as f64 / 2f64.powi(32) - 0.5) as f32 * 200.0).to_bits())
                        .collect()
                };
                let (x, y) = (floats(n), floats(n));
                l.grid = [(n / 256) as u32, 1, 1];
                l.block = [256, 1, 1];
                l.buffers = vec![buffer("x", &x), buffer("y", &y)];
                param(&mut l, 0, ParamValue::Value(n as u64));
                param(&mut l, 1, ParamValue::Value(2.5f32.to_bits() as u64));
                param(&mut l, 2, ParamValue::Buffer(0));
                param(&mut l, 3, ParamValue::Buffer(1));
            }
            Kernel::BlockReduce | Kernel::WarpReduce | Kernel::BlockScan => {
                let block = if self == Kernel::BlockScan { 128 } else { 256 };
                let out = match self {
                    Kernel::BlockReduce => n / 256,
                    _ => n,
                };
                l.grid = [(n / block) as u32, 1, 1];
                l.block = [block as u32, 1, 1];
                l.buffers = vec![
                    buffer("in", &words(n)),
                    buffer("out", &vec![0xaaaa_aaaa; out]),
                ];
                param(&mut l, 0, ParamValue::Buffer(0));
                param(&mut l, 1, ParamValue::Buffer(1));
            }
            Kernel::Transpose => {
                let side = (n as f64).sqrt() as usize;
                l.grid = [(side / 32) as u32, (side / 32) as u32, 1];
                l.block = [32, 8, 1];
                l.buffers = vec![
                    buffer("out", &vec![0xaaaa_aaaa; n]),
                    buffer("in", &words(n)),
                ];
                param(&mut l, 0, ParamValue::Buffer(0));
                param(&mut l, 1, ParamValue::Buffer(1));
                param(&mut l, 2, ParamValue::Value(side as u64));
                param(&mut l, 3, ParamValue::Value(side as u64));
            }
            Kernel::Compact => {
                l.grid = [(n / 256) as u32, 1, 1];
                l.block = [256, 1, 1];
                l.buffers = vec![
                    buffer("in", &words(n)),
                    buffer("out", &vec![0xaaaa_aaaa; n]),
                    buffer("count", &vec![0xaaaa_aaaa; n / 32]),
                ];
                param(&mut l, 0, ParamValue::Buffer(0));
                param(&mut l, 1, ParamValue::Buffer(1));
                param(&mut l, 2, ParamValue::Buffer(2));
            }
        }
        l
    }

    /// The launch's buffers as 32-bit words: what [`Kernel::native`]
    /// computes on.
    pub fn words(launch: &Launch) -> Vec<Vec<u32>> {
        launch
            .buffers
            .iter()
            .map(|b| {
                b.bytes
                    .chunks_exact(4)
                    .map(|c| u32::from_le_bytes([c[0], c[1], c[2], c[3]]))
                    .collect()
            })
            .collect()
    }

    /// The kernel's computation in plain Rust on `bufs` (the launch's
    /// buffers as words, [`Kernel::words`]), on `threads` threads (each a
    /// contiguous share of the independent blocks).
    pub fn native(self, bufs: &mut [Vec<u32>], threads: usize) {
        let threads = threads.max(1);
        match self {
            Kernel::Saxpy => {
                let a = 2.5f32;
                let (x, y) = bufs.split_at_mut(1);
                let (x, y) = (&x[0], &mut y[0]);
                split(y, x, 256, threads, |y, x, _| {
                    for (y, &x) in y.iter_mut().zip(x) {
                        *y = a.mul_add(f32::from_bits(x), f32::from_bits(*y)).to_bits();
                    }
                });
            }
            Kernel::BlockReduce => {
                let (input, out) = bufs.split_at_mut(1);
                split(&mut out[0], &input[0], 1, threads, |out, input, _| {
                    for (o, block) in out.iter_mut().zip(input.chunks_exact(256)) {
                        *o = block.iter().fold(0u32, |s, &v| s.wrapping_add(v));
                    }
                });
            }
            Kernel::WarpReduce => {
                let (input, out) = bufs.split_at_mut(1);
                split(&mut out[0], &input[0], 32, threads, |out, input, _| {
                    for (o, warp) in out.chunks_exact_mut(32).zip(input.chunks_exact(32)) {
                        let s = warp.iter().fold(0u32, |s, &v| s.wrapping_add(v));
                        o.fill(s);
                    }
                });
            }
            Kernel::BlockScan => {
                let (input, out) = bufs.split_at_mut(1);
                split(&mut out[0], &input[0], 128, threads, |out, input, _| {
                    for (o, block) in out.chunks_exact_mut(128).zip(input.chunks_exact(128)) {
                        let mut s = 0u32;
                        for (o, &v) in o.iter_mut().zip(block) {
                            s = s.wrapping_add(v);
                            *o = s;
                        }
                    }
                });
            }
            Kernel::Transpose => {
                let (out, input) = bufs.split_at_mut(1);
                let (out, input) = (&mut out[0], &input[0]);
                let side = (input.len() as f64).sqrt() as usize;
                // Shares of whole tile rows of the output.
                let rows = (side / 32).div_ceil(threads).max(1) * 32;
                if threads == 1 {
                    return transpose_rows(out, input, side, 0);
                }
                std::thread::scope(|sc| {
                    for (i, o) in out.chunks_mut(rows * side).enumerate() {
                        sc.spawn(move || transpose_rows(o, input, side, i * rows));
                    }
                });
            }
            Kernel::Compact => {
                let (input, rest) = bufs.split_at_mut(1);
                let (out, count) = rest.split_at_mut(1);
                let (input, out, count) = (&input[0], &mut out[0], &mut count[0]);
                let share = (count.len().div_ceil(threads)).max(1);
                std::thread::scope(|sc| {
                    for ((out, count), input) in out
                        .chunks_mut(32 * share)
                        .zip(count.chunks_mut(share))
                        .zip(input.chunks(32 * share))
                    {
                        let mut run = move || {
                            for ((o, c), warp) in out
                                .chunks_exact_mut(32)
                                .zip(count.iter_mut())
                                .zip(input.chunks_exact(32))
                            {
                                let mut k = 0;
                                for &v in warp {
                                    if v & 1 != 0 {
                                        o[k] = v;
                                        k += 1;
                                    }
                                }
                                *c = k as u32;
                            }
                        };
                        if threads == 1 {
                            run();
                        } else {
                            sc.spawn(run);
                        }
                    }
                });
            }
        }
    }
}

/// The directory holding `corpus/kernels/` and `lower/jit/benches/kernels/`
/// (the workspace's root): `BENCH_ROOT` when set; else the workspace this
/// was built in, when it is still there; else the first directory up
/// from the current one, then up from the executable's, that holds both
/// (the bench's executable copied to another machine with `corpus/` and
/// `lower/jit/benches/` beside it, at any depth below).
pub fn root() -> PathBuf {
    let holds = |d: &std::path::Path| {
        d.join("corpus/kernels").is_dir() && d.join("lower/jit/benches/kernels").is_dir()
    };
    if let Some(r) = std::env::var_os("BENCH_ROOT") {
        return PathBuf::from(r);
    }
    let built = PathBuf::from(concat!(env!("CARGO_MANIFEST_DIR"), "/../.."));
    if holds(&built) {
        return built;
    }
    let starts = [
        std::env::current_dir().ok(),
        std::env::current_exe()
            .ok()
            .and_then(|e| e.parent().map(PathBuf::from)),
    ];
    starts
        .into_iter()
        .flatten()
        .find_map(|s| s.ancestors().find(|d| holds(d)).map(PathBuf::from))
        .unwrap_or_else(|| {
            panic!("no corpus/kernels and lower/jit/benches/kernels above the current directory or the executable: set BENCH_ROOT to the directory holding them")
        })
}

/// Runs `f` on shares of `out` (and the matching shares of `input`, as
/// long as `out`'s share times `input.len() / out.len()`), each a whole
/// number of `unit` elements of `out`, on `threads` threads (on this one
/// when 1); `f`'s third argument is the index in `out` of its share's
/// first element.
pub fn split(
    out: &mut [u32],
    input: &[u32],
    unit: usize,
    threads: usize,
    f: impl Fn(&mut [u32], &[u32], usize) + Sync,
) {
    if threads == 1 {
        return f(out, input, 0);
    }
    let units = out.len().div_ceil(unit);
    let share = units.div_ceil(threads).max(1) * unit;
    let ratio = input.len() / out.len().max(1);
    std::thread::scope(|sc| {
        for (i, o) in out.chunks_mut(share).enumerate() {
            let f = &f;
            let start = i * share * ratio;
            let inp = &input[start.min(input.len())..];
            sc.spawn(move || f(o, inp, i * share));
        }
    });
}

/// Rows `x0..` of the transpose of the `side` x `side` matrix `input`
/// (`out` holds whole rows): `out[x][y] = input[y][x0 + x]`, by 32 x 32
/// tiles.
fn transpose_rows(out: &mut [u32], input: &[u32], side: usize, x0: usize) {
    let rows = out.len() / side;
    for xt in (0..rows).step_by(32) {
        for yt in (0..side).step_by(32) {
            for x in xt..(xt + 32).min(rows) {
                for y in yt..(yt + 32).min(side) {
                    out[x * side + y] = input[y * side + x0 + x];
                }
            }
        }
    }
}
