//! The kernel benchmark's kernels (`benches/kernel_cases.rs`, issue #36)
//! translated to plain Rust instruction by instruction, as CPU runtimes
//! for CUDA (COX, CuPBoP) translate a kernel: a loop over the CTAs, in
//! each CTA a loop over its warps between barriers, a warp an array of 32
//! lanes, each PTX instruction a loop over the lanes (a shuffle reads
//! another lane's element, a `ballot` gathers the lanes' bits), shared
//! memory an array of the CTA, `bar.sync` the end of one loop over the
//! warps and the start of the next. The same algorithm as the PTX (the
//! same shuffle rounds, the same shared-memory steps), where
//! [`Kernel::native`](super::kernel_cases::Kernel::native) is the
//! shortest plain Rust of the same result (a sum, a prefix sum, a copy:
//! another algorithm, which LLVM vectorises).
//!
//! Every translation writes what the kernel writes, word for word
//! (`tests/suite/bench_kernels.rs` checks it against the JIT and the
//! interpreter), and spreads whole CTAs over threads.

use super::kernel_cases::{split, Kernel};

/// A warp's register: one element per lane. The lane helpers below are
/// always inlined, as a translator's loops are in the kernel's own
/// function (LLVM left `shfl_bfly` and `add` out of line, calls per
/// round).
type Lanes = [u32; 32];

/// `shfl.sync.down.b32 d, a, o, 31, -1`: lane `l` reads lane `l + o`, its
/// own value past lane 31 (the PTX ISA's `shfl.sync`, mode `.down`, `c =
/// 31`: `j = lane + b; pval = (j <= maxLane)`).
#[inline(always)]
fn shfl_down(a: &Lanes, o: usize) -> Lanes {
    std::array::from_fn(|l| if l + o <= 31 { a[l + o] } else { a[l] })
}

/// `shfl.sync.up.b32 d, a, o, 0, -1`: lane `l` reads lane `l - o`, its own
/// value below lane `o` (`j = lane - b; pval = (j >= maxLane)`, `maxLane
/// = 0`).
#[inline(always)]
fn shfl_up(a: &Lanes, o: usize) -> Lanes {
    std::array::from_fn(|l| if l >= o { a[l - o] } else { a[l] })
}

/// `shfl.sync.bfly.b32 d, a, o, 31, -1`: lane `l` reads lane `l ^ o`.
#[inline(always)]
fn shfl_bfly(a: &Lanes, o: usize) -> Lanes {
    std::array::from_fn(|l| a[(l ^ o) & 31])
}

/// `d = a + b` on every lane (`add.s32`, wrapping).
#[inline(always)]
fn add(a: &Lanes, b: &Lanes) -> Lanes {
    std::array::from_fn(|l| a[l].wrapping_add(b[l]))
}

/// Kernel `kernel` translated to plain Rust, on `bufs` (the launch's
/// buffers as words, [`Kernel::words`]), its CTAs spread over `threads`
/// threads (contiguous shares).
pub fn literal(kernel: Kernel, bufs: &mut [Vec<u32>], threads: usize) {
    let threads = threads.max(1);
    match kernel {
        Kernel::Saxpy => {
            let (x, y) = bufs.split_at_mut(1);
            let (x, y) = (&x[0], &mut y[0]);
            let n = y.len();
            // Shares of whole CTAs of 256 threads.
            split(y, x, 256, threads, |y, x, first| {
                for (k, (yc, xc)) in y.chunks_mut(256).zip(x.chunks(256)).enumerate() {
                    saxpy_cta(yc, xc, first + 256 * k, n);
                }
            });
        }
        Kernel::BlockReduce => {
            let (input, out) = bufs.split_at_mut(1);
            split(&mut out[0], &input[0], 1, threads, |out, input, _| {
                for (o, cta) in out.iter_mut().zip(input.chunks_exact(256)) {
                    *o = block_reduce_cta(cta);
                }
            });
        }
        Kernel::WarpReduce => {
            let (input, out) = bufs.split_at_mut(1);
            split(&mut out[0], &input[0], 256, threads, |out, input, _| {
                for (o, i) in out.chunks_exact_mut(32).zip(input.chunks_exact(32)) {
                    // ld.global.u32; five shfl.sync.bfly + add.s32; st.global.u32.
                    let mut v: Lanes = i.try_into().expect("a warp");
                    for s in [16, 8, 4, 2, 1] {
                        v = add(&shfl_bfly(&v, s), &v);
                    }
                    o.copy_from_slice(&v);
                }
            });
        }
        Kernel::BlockScan => {
            let (input, out) = bufs.split_at_mut(1);
            split(&mut out[0], &input[0], 128, threads, |out, input, _| {
                for (o, cta) in out.chunks_exact_mut(128).zip(input.chunks_exact(128)) {
                    block_scan_cta(o, cta);
                }
            });
        }
        Kernel::Transpose => {
            let (out, input) = bufs.split_at_mut(1);
            let (out, input) = (&mut out[0], &input[0]);
            let side = (input.len() as f64).sqrt() as usize;
            // CTA (bx, by) writes output rows bx*32 .. bx*32+31: each
            // thread takes whole columns of CTAs (a share of bx).
            let tiles = side / 32;
            let share = tiles.div_ceil(threads).max(1);
            let run = |out: &mut [u32], bx0: usize| {
                for (k, rows) in out.chunks_mut(32 * side).enumerate() {
                    for by in 0..tiles {
                        transpose_cta(rows, input, side, bx0 + k, by);
                    }
                }
            };
            if threads == 1 {
                return run(out, 0);
            }
            std::thread::scope(|sc| {
                for (i, o) in out.chunks_mut(share * 32 * side).enumerate() {
                    let run = &run;
                    sc.spawn(move || run(o, i * share));
                }
            });
        }
        Kernel::Compact => {
            let (input, rest) = bufs.split_at_mut(1);
            let (out, count) = rest.split_at_mut(1);
            let (input, out, count) = (&input[0], &mut out[0], &mut count[0]);
            // Whole CTAs of 8 warps to each thread.
            let share = (count.len() / 8).div_ceil(threads).max(1) * 8;
            let run = |out: &mut [u32], count: &mut [u32], input: &[u32]| {
                for ((o, c), i) in out
                    .chunks_exact_mut(32)
                    .zip(count.iter_mut())
                    .zip(input.chunks_exact(32))
                {
                    compact_warp(o, c, i);
                }
            };
            if threads == 1 {
                return run(out, count, input);
            }
            std::thread::scope(|sc| {
                for ((o, c), i) in out
                    .chunks_mut(32 * share)
                    .zip(count.chunks_mut(share))
                    .zip(input.chunks(32 * share))
                {
                    let run = &run;
                    sc.spawn(move || run(o, c, i));
                }
            });
        }
    }
}

/// One CTA of saxpy (256 threads): `y` and `x` its 256 elements, `first`
/// the index of its first, `n` the parameter.
fn saxpy_cta(y: &mut [u32], x: &[u32], first: usize, n: usize) {
    let a = 2.5f32;
    for (w, (yw, xw)) in y.chunks_mut(32).zip(x.chunks(32)).enumerate() {
        for (l, (yv, &xv)) in yw.iter_mut().zip(xw).enumerate() {
            // mad.lo.s32 %r1 (the element); setp.ge.s32 %p1, %r1, n; @%p1
            // bra: the lanes at or past n do nothing.
            let i = (first + 32 * w + l) as i32;
            if i >= n as i32 {
                continue;
            }
            // ld.global.f32 x, y; fma.rn.f32 %f4, %f2, %f1, %f3; st.global.f32.
            *yv = f32::from_bits(xv).mul_add(a, f32::from_bits(*yv)).to_bits();
        }
    }
}

/// One CTA of `block_reduce_shared` (256 threads, 8 warps): the CTA's sum
/// (wrapping).
fn block_reduce_cta(input: &[u32]) -> u32 {
    // .shared .b8 smem[128]: 32 words.
    let mut smem = [0u32; 32];
    // Every warp up to bar.sync: ld.global.u32; five shfl.sync.down +
    // add.s32; lane 0 st.shared.u32 smem[warp].
    for (w, i) in input.chunks_exact(32).enumerate() {
        let mut v: Lanes = i.try_into().expect("a warp");
        for o in [16, 8, 4, 2, 1] {
            v = add(&shfl_down(&v, o), &v);
        }
        smem[w] = v[0];
    }
    // bar.sync 0; warp 0: lanes below ntid/32 = 8 ld.shared.u32
    // smem[lane], the others 0; five shfl.sync.down + add.s32; lane 0's
    // st.global.u32 out[ctaid].
    let mut v: Lanes = std::array::from_fn(|l| if l < 8 { smem[l] } else { 0 });
    for o in [16, 8, 4, 2, 1] {
        v = add(&shfl_down(&v, o), &v);
    }
    v[0]
}

/// One CTA of `block_scan_grid` (128 threads, 4 warps): `out` its 128
/// inclusive prefix sums of `input`.
fn block_scan_cta(out: &mut [u32], input: &[u32]) {
    // .shared .b8 totals[16]: 4 words.
    let mut totals = [0u32; 4];
    let mut v = [[0u32; 32]; 4];
    // Every warp up to the first bar.sync: ld.global.u32; five rounds of
    // shfl.sync.up by d, selp 0 below lane d, add.s32; lane 31
    // st.shared.u32 totals[warp].
    for (w, i) in input.chunks_exact(32).enumerate() {
        let mut x: Lanes = i.try_into().expect("a warp");
        for d in [1, 2, 4, 8, 16] {
            let up = shfl_up(&x, d);
            let t: Lanes = std::array::from_fn(|l| if l < d { 0 } else { up[l] });
            x = add(&t, &x);
        }
        totals[w] = x[31];
        v[w] = x;
    }
    // bar.sync 0; warp 0: lanes 0..3 ld.shared.u32 totals[lane], the
    // others 0; two rounds of shfl.sync.up (1, 2), selp, add.s32; lanes
    // 0..3 st.shared.u32 totals[lane].
    let mut x: Lanes = std::array::from_fn(|l| if l <= 3 { totals[l] } else { 0 });
    for d in [1, 2] {
        let up = shfl_up(&x, d);
        let t: Lanes = std::array::from_fn(|l| if l < d { 0 } else { up[l] });
        x = add(&t, &x);
    }
    totals.copy_from_slice(&x[..4]);
    // bar.sync 0; every warp: threads 32 and up add totals[warp - 1]
    // (ld.shared.u32 [..+-4]); st.global.u32.
    for (w, (o, x)) in out.chunks_exact_mut(32).zip(&v).enumerate() {
        let base = if w == 0 { 0 } else { totals[w - 1] };
        for (o, &x) in o.iter_mut().zip(x) {
            *o = x.wrapping_add(base);
        }
    }
}

/// CTA (`bx`, `by`) of `transpose` (32 x 8 threads, 8 warps: warp `w` is
/// `%tid.y = w`, its lanes `%tid.x`) of the `side` x `side` matrix
/// `input`; `out` holds output rows `bx*32 ..`, the ones it writes.
fn transpose_cta(out: &mut [u32], input: &[u32], side: usize, bx: usize, by: usize) {
    // .shared .b8 tile[4224]: 32 rows of 33 words.
    let mut tile = [[0u32; 33]; 32];
    // Every warp up to bar.sync: four ld.global.f32 of rows ty + 8j of the
    // input tile, st.shared.f32 to tile[ty + 8j][tx].
    for ty in 0..8 {
        for j in 0..4 {
            let row = by * 32 + ty + 8 * j;
            let src = &input[row * side + bx * 32..][..32];
            for (tx, &v) in src.iter().enumerate() {
                tile[ty + 8 * j][tx] = v;
            }
        }
    }
    // bar.sync 0; every warp: four ld.shared.f32 tile[tx][ty + 8j],
    // st.global.f32 to out[(bx*32 + ty + 8j) * side + by*32 + tx].
    for ty in 0..8 {
        for j in 0..4 {
            let dst = &mut out[(ty + 8 * j) * side + by * 32..][..32];
            for (tx, d) in dst.iter_mut().enumerate() {
                *d = tile[tx][ty + 8 * j];
            }
        }
    }
}

/// One warp of `ballot_compact`: `out` its 32 output words, `count` its
/// count, `input` its 32 inputs.
fn compact_warp(out: &mut [u32], count: &mut u32, input: &[u32]) {
    // ld.global.u32; and.b32 1; setp.eq.b32 %p2; vote.sync.ballot.b32.
    let v: Lanes = input.try_into().expect("a warp");
    let ballot = v
        .iter()
        .enumerate()
        .fold(0u32, |b, (l, &x)| b | (x & 1) << l);
    // Lanes whose %p1 is false: shl.b32 -1, lane; not; and; popc: the
    // rank; st.global.u32 out[warp*32 + rank].
    for (l, &x) in v.iter().enumerate() {
        if x & 1 != 0 {
            let rank = (ballot & !(u32::MAX << l)).count_ones() as usize;
            out[rank] = x;
        }
    }
    // Lane 0: popc.b32 the ballot; st.global.u32 count[warp].
    *count = ballot.count_ones();
}
