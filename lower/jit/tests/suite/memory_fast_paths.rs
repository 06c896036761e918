//! Whole-warp memory accesses whose address checks an earlier access
//! proved (`lower/jit/src/memory_ops.rs`: a row known consecutive through a
//! uniform stride, a tile column's later offsets): the bytes they load and
//! store, written by hand, and the first lane out of bounds named when
//! the cheap check fails. Here, not beside the code, because they launch
//! kernels through `warp_jit::launch`, which the memory module may not
//! import (`module_graph`: no file imports one that imports it back).

use std::path::Path;
use warp_core::launch::Launch;
use warp_jit::launch::CompiledKernel;

const HEAD: &str = ".version 9.0\n.target sm_90\n.address_size 64\n";

/// A launch of kernel `k` on one CTA of `block` threads with buffers
/// `out` (128 words of 0xaaaaaaaa) and `in` (`n` words 0x100, 0x101,
/// ...), passed as `k_param_0` and `k_param_1`.
fn copy_launch(block: &str, n: usize) -> String {
    let words: Vec<String> = (0..n).map(|i| format!("{:08x}", 0x100 + i)).collect();
    format!(
        "kernel k\ngrid 1\nblock {block}\nbuffer out fill aaaaaaaa 128\nbuffer in u32 {}\n\
         param k_param_0 buffer out\nparam k_param_1 buffer in\n",
        words.join(" ")
    )
}

/// `src` (one kernel `k`) launched as `launch` on 1 and 3 threads:
/// the words of the first buffer, or the error's text (the early-row
/// tests use it too).
pub(crate) fn run(src: &str, launch: &str) -> Vec<Result<Vec<String>, String>> {
    let m = warp_core::text::parse_module(src).unwrap_or_else(|e| panic!("{e}"));
    let l = Launch::parse(launch, "k.launch", Path::new(".")).expect("a valid launch");
    let k = CompiledKernel::compile(&m, "k").expect("compiles");
    [1, 3]
        .iter()
        .map(|&t| match k.launch_on(&l, t) {
            Ok(out) => Ok(out.buffers[0].words()),
            Err(e) => Err(e.to_string()),
        })
        .collect()
}

/// A transpose's global rows: each warp (`%tid.y`) loads row `%tid.y`
/// at `%rd5` (checked in full) and the row 64 words on at `%rd7 =
/// %rd5 + %rd6` (`%rd6` uniform: known consecutive from `%rd5`, so only
/// its first and last address are checked), and stores them crosswise
/// the same way. With `in` of 128 words `out[i] = in[i + 64]` and
/// `out[i + 64] = in[i]`; with 104, warp 1's second load runs past
/// `in` at lane 8 (word 104), which ends the launch naming it.
#[test]
fn rows_known_consecutive_load_right_and_fault_at_the_first_lane_out() {
    let src = format!(
        "{HEAD}.visible .entry k(.param .u64 k_param_0, .param .u64 k_param_1) {{\n\
         .reg .f32 %f<3>;\n.reg .b32 %r<20>;\n.reg .b64 %rd<12>;\n\
         ld.param.u64 %rd1, [k_param_0];\n\
         ld.param.u64 %rd2, [k_param_1];\n\
         cvta.to.global.u64 %rd3, %rd2;\n\
         cvta.to.global.u64 %rd10, %rd1;\n\
         mov.u32 %r5, %tid.x;\n\
         mov.u32 %r9, %tid.y;\n\
         shl.b32 %r1, %r9, 5;\n\
         add.s32 %r11, %r1, %r5;\n\
         mul.wide.s32 %rd4, %r11, 4;\n\
         add.s64 %rd5, %rd3, %rd4;\n\
         ld.global.f32 %f1, [%rd5];\n\
         mov.u32 %r16, 64;\n\
         mul.wide.s32 %rd6, %r16, 4;\n\
         add.s64 %rd7, %rd5, %rd6;\n\
         ld.global.f32 %f2, [%rd7];\n\
         add.s64 %rd8, %rd10, %rd4;\n\
         st.global.f32 [%rd8], %f2;\n\
         add.s64 %rd9, %rd8, %rd6;\n\
         st.global.f32 [%rd9], %f1;\n\
         ret;\n}}\n"
    );
    let launch = |n: usize| copy_launch("32,2", n);
    let want: Vec<String> = (0..128)
        .map(|i| format!("{:08x}", 0x100 + (i + 64) % 128))
        .collect();
    for got in run(&src, &launch(128)) {
        assert_eq!(got.expect("runs"), want);
    }
    for got in run(&src, &launch(104)) {
        let e = got.expect_err("faults");
        for w in [
            "cta (0,0,0) warp 1",
            "lane 8 (%tid (8,1,0)), `ld.global.f32 %f2, [%rd7];`",
            "address 0x21000001a0 (4 bytes) is outside every buffer",
        ] {
            assert!(e.contains(w), "`{e}` lacks `{w}`");
        }
    }
}

/// A transpose's tile column: 256 threads (32 x 8) fill words
/// `0..1024` of `tile` with their index, then lane `x` of warp `y`
/// reads word `33 x + y + 8 k` at `[%r21 + 32 k]`, `k = 0..4` (the
/// first check covers the four offsets; the three later loads check
/// what it proved). With 4224 bytes of tile every load is in bounds
/// (a word past 1023 reads 0); with 4100, lane 31 of warp 0 reads
/// byte 4092 (in) and then 4124 (out) at `[%r21+32]`, which ends the
/// launch naming it.
#[test]
fn tile_columns_known_in_bounds_load_right_and_fault_at_the_first_lane_out() {
    let src = |bytes: u32| {
        format!(
            "{HEAD}.visible .entry k(.param .u64 k_param_0) {{\n\
             .reg .b32 %r<30>;\n.reg .b64 %rd<12>;\n\
             .shared .align 4 .b8 tile[{bytes}];\n\
             ld.param.u64 %rd1, [k_param_0];\n\
             cvta.to.global.u64 %rd10, %rd1;\n\
             mov.u32 %r5, %tid.x;\n\
             mov.u32 %r9, %tid.y;\n\
             mov.u32 %r12, tile;\n\
             shl.b32 %r1, %r9, 5;\n\
             add.s32 %r2, %r1, %r5;\n\
             shl.b32 %r3, %r2, 2;\n\
             add.s32 %r15, %r12, %r3;\n\
             st.shared.u32 [%r15], %r2;\n\
             add.s32 %r6, %r2, 256;\n\
             st.shared.u32 [%r15+1024], %r6;\n\
             add.s32 %r7, %r2, 512;\n\
             st.shared.u32 [%r15+2048], %r7;\n\
             add.s32 %r8, %r2, 768;\n\
             st.shared.u32 [%r15+3072], %r8;\n\
             bar.sync 0;\n\
             mad.lo.s32 %r19, %r5, 132, %r12;\n\
             shl.b32 %r20, %r9, 2;\n\
             add.s32 %r21, %r19, %r20;\n\
             ld.shared.u32 %r22, [%r21];\n\
             ld.shared.u32 %r23, [%r21+32];\n\
             ld.shared.u32 %r24, [%r21+64];\n\
             ld.shared.u32 %r25, [%r21+96];\n\
             mul.wide.u32 %rd4, %r2, 4;\n\
             add.s64 %rd5, %rd10, %rd4;\n\
             st.global.u32 [%rd5], %r22;\n\
             st.global.u32 [%rd5+1024], %r23;\n\
             st.global.u32 [%rd5+2048], %r24;\n\
             st.global.u32 [%rd5+3072], %r25;\n\
             ret;\n}}\n"
        )
    };
    let launch = "kernel k\ngrid 1\nblock 32,8\nbuffer out fill aaaaaaaa 1024\n\
                  param k_param_0 buffer out\n";
    // Thread (x, y) stores at word 32 y + x + 256 k the tile's word
    // 33 x + y + 8 k, which holds its index below 1024 and 0 past it.
    let mut want = vec![String::new(); 1024];
    for y in 0..8 {
        for x in 0..32 {
            for k in 0..4 {
                let w = 33 * x + y + 8 * k;
                let v = if w < 1024 { w } else { 0 };
                want[32 * y + x + 256 * k] = format!("{v:08x}");
            }
        }
    }
    for got in run(&src(4224), launch) {
        assert_eq!(got.expect("runs"), want);
    }
    for got in run(&src(4100), launch) {
        let e = got.expect_err("faults");
        for w in [
            "cta (0,0,0) warp 0",
            "lane 31 (%tid (31,0,0)), `ld.shared.u32 %r23, [%r21+32];`",
            "address 0x101c (4 bytes) is outside the CTA's 4100 bytes of shared memory",
        ] {
            assert!(e.contains(w), "`{e}` lacks `{w}`");
        }
    }
}

/// Rows deferred (`memory_ops::defer_row`): a warp's row at `%rd5`
/// checked in full, then rows one stride (`%rd6`, 128 bytes, uniform)
/// on, each an `add`, `sub` or `mov` of the row before, read only as
/// whole-warp addresses: where the first row's check held, only lane 0's
/// address is computed, and the lanes are written where a slower path
/// needs them. With `in` of 96 words (three rows) `out` gets rows 2, 0,
/// 1, 1 of `in`; with 80, the third row's load runs past `in` at lane
/// 16 (word 80), which ends the launch naming that lane and address.
#[test]
fn deferred_rows_load_and_store_right_and_fault_at_the_first_lane_out() {
    let src = format!(
        "{HEAD}.visible .entry k(.param .u64 k_param_0, .param .u64 k_param_1) {{\n\
         .reg .b32 %r<20>;\n.reg .b64 %rd<20>;\n\
         ld.param.u64 %rd1, [k_param_0];\n\
         ld.param.u64 %rd2, [k_param_1];\n\
         cvta.to.global.u64 %rd3, %rd2;\n\
         cvta.to.global.u64 %rd10, %rd1;\n\
         mov.u32 %r5, %tid.x;\n\
         mul.wide.s32 %rd4, %r5, 4;\n\
         add.s64 %rd5, %rd3, %rd4;\n\
         ld.global.u32 %r1, [%rd5];\n\
         mov.u32 %r16, 32;\n\
         mul.wide.s32 %rd6, %r16, 4;\n\
         add.s64 %rd7, %rd5, %rd6;\n\
         ld.global.u32 %r2, [%rd7];\n\
         add.s64 %rd8, %rd7, %rd6;\n\
         ld.global.u32 %r3, [%rd8];\n\
         sub.s64 %rd9, %rd8, %rd6;\n\
         ld.global.u32 %r4, [%rd9];\n\
         add.s64 %rd11, %rd10, %rd4;\n\
         st.global.u32 [%rd11], %r3;\n\
         add.s64 %rd12, %rd11, %rd6;\n\
         st.global.u32 [%rd12], %r1;\n\
         add.s64 %rd13, %rd6, %rd12;\n\
         st.global.u32 [%rd13], %r4;\n\
         mov.b64 %rd14, %rd13;\n\
         add.s64 %rd15, %rd14, %rd6;\n\
         st.global.u32 [%rd15], %r2;\n\
         ret;\n}}\n"
    );
    let launch = |n: usize| copy_launch("32", n);
    // Output row r holds input row [2, 0, 1, 1][r].
    let want: Vec<String> = (0..128)
        .map(|i| format!("{:08x}", 0x100 + 32 * [2, 0, 1, 1][i / 32] + i % 32))
        .collect();
    for got in run(&src, &launch(96)) {
        assert_eq!(got.expect("runs"), want);
    }
    for got in run(&src, &launch(80)) {
        let e = got.expect_err("faults");
        for w in [
            "cta (0,0,0) warp 0",
            "lane 16 (%tid (16,0,0)), `ld.global.u32 %r3, [%rd8];`",
            "address 0x2100000140 (4 bytes) is outside every buffer",
        ] {
            assert!(e.contains(w), "`{e}` lacks `{w}`");
        }
    }
}

/// Deferred rows of 32-bit shared addresses (`%r16 = %r15 + 128`,
/// `%r17 = %r16 + 128`), the second stored under a guard that only
/// lanes 0..19 pass (its slower path writes the row's lanes first).
/// Lane `l` stores `l` at word `l`, `l + 100` at word `32 + l`, and
/// (lanes below 20) `l + 100` at word `64 + l` of a tile of 96 words
/// (shared memory starts zeroed), reads the three words back after
/// `bar.sync` and stores them to `out`. With a tile of 200 bytes the
/// second row's store runs out at lane 18 (byte 200); with 300 bytes
/// the guarded third row's at lane 11 (byte 300).
#[test]
fn deferred_shared_rows_store_right_under_a_guard_and_fault_at_the_first_lane_out() {
    let src = |bytes: u32| {
        format!(
            "{HEAD}.visible .entry k(.param .u64 k_param_0) {{\n\
             .reg .pred %p<2>;\n.reg .b32 %r<30>;\n.reg .b64 %rd<12>;\n\
             .shared .align 4 .b8 tile[{bytes}];\n\
             mov.u32 %r5, %tid.x;\n\
             mov.u32 %r12, tile;\n\
             shl.b32 %r3, %r5, 2;\n\
             add.s32 %r15, %r12, %r3;\n\
             st.shared.u32 [%r15], %r5;\n\
             add.s32 %r16, %r15, 128;\n\
             add.s32 %r6, %r5, 100;\n\
             st.shared.u32 [%r16], %r6;\n\
             add.s32 %r17, %r16, 128;\n\
             setp.lt.u32 %p1, %r5, 20;\n\
             @%p1 st.shared.u32 [%r17], %r6;\n\
             bar.sync 0;\n\
             ld.shared.u32 %r7, [%r15];\n\
             ld.shared.u32 %r8, [%r15+128];\n\
             ld.shared.u32 %r9, [%r15+256];\n\
             ld.param.u64 %rd1, [k_param_0];\n\
             cvta.to.global.u64 %rd10, %rd1;\n\
             mul.wide.u32 %rd4, %r5, 4;\n\
             add.s64 %rd5, %rd10, %rd4;\n\
             st.global.u32 [%rd5], %r7;\n\
             st.global.u32 [%rd5+128], %r8;\n\
             st.global.u32 [%rd5+256], %r9;\n\
             ret;\n}}\n"
        )
    };
    let launch = "kernel k\ngrid 1\nblock 32\nbuffer out fill aaaaaaaa 96\n\
                  param k_param_0 buffer out\n";
    let want: Vec<String> = (0..96)
        .map(|i| {
            let l = i % 32;
            let v = match i / 32 {
                0 => l,
                1 => l + 100,
                _ if l < 20 => l + 100,
                _ => 0,
            };
            format!("{v:08x}")
        })
        .collect();
    for got in run(&src(384), launch) {
        assert_eq!(got.expect("runs"), want);
    }
    for (bytes, lane, inst, addr) in [
        (200, 18, "st.shared.u32 [%r16], %r6;", "0xc8"),
        (300, 11, "st.shared.u32 [%r17], %r6;", "0x12c"),
    ] {
        for got in run(&src(bytes), launch) {
            let e = got.expect_err("faults");
            for w in [
                "cta (0,0,0) warp 0".to_string(),
                format!("lane {lane} (%tid ({lane},0,0))"),
                inst.to_string(),
                format!(
                    "address {addr} (4 bytes) is outside the CTA's {bytes} bytes of shared memory"
                ),
            ] {
                assert!(e.contains(&w), "`{e}` lacks `{w}`");
            }
        }
    }
}

/// A row that something else reads too (`cvt` of its addresses) is not
/// deferred: its lanes are computed. `out` gets `in`'s second row, then
/// the low words of its addresses (`in` is buffer 1, at 0x2100000000:
/// 0x80 + 4 l).
#[test]
fn a_row_read_otherwise_keeps_its_lanes() {
    let src = format!(
        "{HEAD}.visible .entry k(.param .u64 k_param_0, .param .u64 k_param_1) {{\n\
         .reg .b32 %r<20>;\n.reg .b64 %rd<20>;\n\
         ld.param.u64 %rd1, [k_param_0];\n\
         ld.param.u64 %rd2, [k_param_1];\n\
         cvta.to.global.u64 %rd3, %rd2;\n\
         cvta.to.global.u64 %rd10, %rd1;\n\
         mov.u32 %r5, %tid.x;\n\
         mul.wide.s32 %rd4, %r5, 4;\n\
         add.s64 %rd5, %rd3, %rd4;\n\
         ld.global.u32 %r1, [%rd5];\n\
         add.s64 %rd7, %rd5, 128;\n\
         ld.global.u32 %r2, [%rd7];\n\
         cvt.u32.u64 %r3, %rd7;\n\
         add.s64 %rd8, %rd10, %rd4;\n\
         st.global.u32 [%rd8], %r2;\n\
         st.global.u32 [%rd8+128], %r3;\n\
         ret;\n}}\n"
    );
    let words: Vec<String> = (0..64).map(|i| format!("{:08x}", 0x100 + i)).collect();
    let launch = format!(
        "kernel k\ngrid 1\nblock 32\nbuffer out fill aaaaaaaa 64\nbuffer in u32 {}\n\
         param k_param_0 buffer out\nparam k_param_1 buffer in\n",
        words.join(" ")
    );
    let want: Vec<String> = (0..64)
        .map(|i| match i / 32 {
            0 => format!("{:08x}", 0x120 + i),
            _ => format!("{:08x}", 0x80 + 4 * (i % 32)),
        })
        .collect();
    for got in run(&src, &launch) {
        assert_eq!(got.expect("runs"), want);
    }
}

/// An index scaled to bytes (`mul.wide.{u32,s32} %rd4, %r11, 4`) that
/// only a row and its access read is deferred where the index's lanes
/// are lane 0's plus `l` with no wrap (`memory_ops::defer_source`).
/// `%r11 = %tid.x - 16`: as `.u32` lanes 0..15 wrap (0xfffffff0..), so
/// the lanes are not lane 0's plus `l` as 64-bit products and the
/// products are computed per lane; as `.s32` they are -16..15, no wrap,
/// and lane 0's product (-64) is all that is computed. Either way only
/// lanes 16..31 load (a guard), word `l - 16` of `in`; lanes 0..15 keep
/// 7.
#[test]
fn scaled_indices_deferred_only_without_wrap() {
    let src = |ty: &str| {
        format!(
            "{HEAD}.visible .entry k(.param .u64 k_param_0, .param .u64 k_param_1) {{\n\
             .reg .pred %p<2>;\n.reg .b32 %r<20>;\n.reg .b64 %rd<20>;\n\
             ld.param.u64 %rd1, [k_param_0];\n\
             ld.param.u64 %rd2, [k_param_1];\n\
             cvta.to.global.u64 %rd3, %rd2;\n\
             cvta.to.global.u64 %rd10, %rd1;\n\
             mov.u32 %r5, %tid.x;\n\
             sub.s32 %r11, %r5, 16;\n\
             mul.wide.{ty} %rd4, %r11, 4;\n\
             add.s64 %rd5, %rd3, %rd4;\n\
             setp.ge.u32 %p1, %r5, 16;\n\
             mov.u32 %r1, 7;\n\
             @%p1 ld.global.u32 %r1, [%rd5];\n\
             mul.wide.u32 %rd6, %r5, 4;\n\
             add.s64 %rd7, %rd10, %rd6;\n\
             st.global.u32 [%rd7], %r1;\n\
             ret;\n}}\n"
        )
    };
    let words: Vec<String> = (0..16).map(|i| format!("{:08x}", 0x100 + i)).collect();
    let launch = format!(
        "kernel k\ngrid 1\nblock 32\nbuffer out fill aaaaaaaa 32\nbuffer in u32 {}\n\
         param k_param_0 buffer out\nparam k_param_1 buffer in\n",
        words.join(" ")
    );
    let want: Vec<String> = (0..32)
        .map(|l| match l {
            0..16 => format!("{:08x}", 7),
            _ => format!("{:08x}", 0x100 + l - 16),
        })
        .collect();
    for ty in ["u32", "s32"] {
        for got in run(&src(ty), &launch) {
            assert_eq!(got.expect("runs"), want, "mul.wide.{ty}");
        }
    }
}

/// A column's later loads are loaded with its first gather only where
/// nothing between reads their registers or may write shared memory
/// (`memory_ops::followers`): lane `l` reads words `3 l + k` of a tile
/// holding `1000 + w` at word `w`; `%r23` is read (77) before its load
/// of word `3 l + 1`, and a store of `2000 + l` to word `l` comes
/// before the loads of words `3 l + 2` and `3 l + 3`, which see it
/// where `3 l + k < 32`.
#[test]
fn a_column_loaded_early_only_where_nothing_between_sees_it() {
    let src = format!(
        "{HEAD}.visible .entry k(.param .u64 k_param_0) {{\n\
         .reg .b32 %r<40>;\n.reg .b64 %rd<12>;\n\
         .shared .align 4 .b8 tile[512];\n\
         mov.u32 %r5, %tid.x;\n\
         mov.u32 %r12, tile;\n\
         shl.b32 %r3, %r5, 2;\n\
         add.s32 %r15, %r12, %r3;\n\
         add.s32 %r6, %r5, 1000;\n\
         st.shared.u32 [%r15], %r6;\n\
         add.s32 %r7, %r5, 1032;\n\
         st.shared.u32 [%r15+128], %r7;\n\
         add.s32 %r8, %r5, 1064;\n\
         st.shared.u32 [%r15+256], %r8;\n\
         add.s32 %r9, %r5, 1096;\n\
         st.shared.u32 [%r15+384], %r9;\n\
         mov.u32 %r23, 77;\n\
         mul.lo.s32 %r20, %r5, 12;\n\
         add.s32 %r21, %r12, %r20;\n\
         ld.shared.u32 %r22, [%r21];\n\
         mov.u32 %r30, %r23;\n\
         ld.shared.u32 %r23, [%r21+4];\n\
         add.s32 %r31, %r5, 2000;\n\
         st.shared.u32 [%r15], %r31;\n\
         ld.shared.u32 %r24, [%r21+8];\n\
         ld.shared.u32 %r25, [%r21+12];\n\
         ld.param.u64 %rd1, [k_param_0];\n\
         cvta.to.global.u64 %rd10, %rd1;\n\
         mul.wide.u32 %rd4, %r5, 4;\n\
         add.s64 %rd5, %rd10, %rd4;\n\
         st.global.u32 [%rd5], %r22;\n\
         st.global.u32 [%rd5+128], %r30;\n\
         st.global.u32 [%rd5+256], %r23;\n\
         st.global.u32 [%rd5+384], %r24;\n\
         st.global.u32 [%rd5+512], %r25;\n\
         ret;\n}}\n"
    );
    let launch = "kernel k\ngrid 1\nblock 32\nbuffer out fill aaaaaaaa 160\n\
                  param k_param_0 buffer out\n";
    let word = |w: usize| if w < 32 { 2000 + w } else { 1000 + w };
    let want: Vec<String> = (0..160)
        .map(|i| {
            let l = i % 32;
            let v = match i / 32 {
                0 => 1000 + 3 * l,
                1 => 77,
                2 => 1001 + 3 * l,
                3 => word(3 * l + 2),
                _ => word(3 * l + 3),
            };
            format!("{v:08x}")
        })
        .collect();
    for got in run(&src, launch) {
        assert_eq!(got.expect("runs"), want);
    }
}
