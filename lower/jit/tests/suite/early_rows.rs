//! A whole warp's `ld.global` that loads the later rows of its segment
//! early (`lower/jit/src/rows.rs`, `memory_ops::load_early`): the words
//! every row gets, written by hand, where a row is loaded early, where a
//! register read between keeps it at its own instruction, and where a
//! store to global memory between does; and the fault each launch
//! reports, which must be the first in program order even where a later
//! row is out of bounds too.

use crate::memory_fast_paths::run;

const HEAD: &str = ".version 9.0\n.target sm_90\n.address_size 64\n";

/// Warp `y` (of `%ntid.y`, `%tid.y = y`) reads rows `y`, `y + 2`, `y + 4`
/// and `y + 6` of `in` (rows of `k_param_2` words) at `%rd5` and its
/// rows two strides on (`%rd6 = (k_param_2 << 1) * 4`, uniform) into
/// `tile` (`bytes` bytes of shared memory, word `x` of row `y + 2 j` at
/// byte `128 (y + 2 j) + 4 x`), then copies the tile into `out` at the
/// same words. Between: `%r40` takes `%r22`'s old value (7) before row
/// `y + 4` loads into `%r22`, and `%r40` is stored into `in` at row `y +
/// 6` before that row loads. So with rows of 32 words `out` is `in` for
/// rows 0 to 5 and 7 for rows 6 and 7.
fn kernel(bytes: u32) -> String {
    format!(
        "{HEAD}.visible .entry k(.param .u64 k_param_0, .param .u64 k_param_1, .param .u32 k_param_2) {{\n\
         .reg .b32 %r<50>;\n.reg .b64 %rd<30>;\n\
         .shared .align 4 .b8 tile[{bytes}];\n\
         ld.param.u64 %rd1, [k_param_0];\n\
         ld.param.u64 %rd2, [k_param_1];\n\
         ld.param.u32 %r30, [k_param_2];\n\
         cvta.to.global.u64 %rd3, %rd2;\n\
         cvta.to.global.u64 %rd10, %rd1;\n\
         mov.u32 %r22, 7;\n\
         mov.u32 %r5, %tid.x;\n\
         mov.u32 %r9, %tid.y;\n\
         mul.lo.s32 %r1, %r9, %r30;\n\
         add.s32 %r11, %r1, %r5;\n\
         mul.wide.s32 %rd4, %r11, 4;\n\
         add.s64 %rd5, %rd3, %rd4;\n\
         ld.global.u32 %r20, [%rd5];\n\
         mov.u32 %r12, tile;\n\
         shl.b32 %r14, %r5, 2;\n\
         mad.lo.s32 %r13, %r9, 128, %r12;\n\
         add.s32 %r15, %r13, %r14;\n\
         st.shared.u32 [%r15], %r20;\n\
         shl.b32 %r16, %r30, 1;\n\
         mul.wide.s32 %rd6, %r16, 4;\n\
         add.s64 %rd7, %rd5, %rd6;\n\
         ld.global.u32 %r21, [%rd7];\n\
         st.shared.u32 [%r15+256], %r21;\n\
         mov.b32 %r40, %r22;\n\
         add.s64 %rd8, %rd7, %rd6;\n\
         ld.global.u32 %r22, [%rd8];\n\
         st.shared.u32 [%r15+512], %r22;\n\
         add.s64 %rd9, %rd8, %rd6;\n\
         add.s64 %rd11, %rd10, %rd4;\n\
         st.global.u32 [%rd9], %r40;\n\
         ld.global.u32 %r23, [%rd9];\n\
         st.shared.u32 [%r15+768], %r23;\n\
         bar.sync 0;\n\
         ld.shared.u32 %r41, [%r15];\n\
         st.global.u32 [%rd11], %r41;\n\
         ld.shared.u32 %r42, [%r15+256];\n\
         st.global.u32 [%rd11+256], %r42;\n\
         ld.shared.u32 %r43, [%r15+512];\n\
         st.global.u32 [%rd11+512], %r43;\n\
         ld.shared.u32 %r44, [%r15+768];\n\
         st.global.u32 [%rd11+768], %r44;\n\
         ret;\n}}\n"
    )
}

/// A launch of `k` on one CTA of `block` threads, `out` 256 words of
/// 0xaaaaaaaa, `in` `n` words 0x100, 0x101, ..., rows of 32 words.
fn launch(block: &str, n: usize) -> String {
    let words: Vec<String> = (0..n).map(|i| format!("{:08x}", 0x100 + i)).collect();
    format!(
        "kernel k\ngrid 1\nblock {block}\nbuffer out fill aaaaaaaa 256\nbuffer in u32 {}\n\
         param k_param_0 buffer out\nparam k_param_1 buffer in\nparam k_param_2 value 32\n",
        words.join(" ")
    )
}

/// Two warps: rows 0 to 5 of `in` come through the tile unchanged (row
/// `y + 2` loaded early, row `y + 4` at its own instruction since
/// `%r22` is read before it), rows 6 and 7 are the 7 each warp stored
/// there just before loading them.
#[test]
fn early_rows_load_what_their_instructions_would() {
    let want: Vec<String> = (0..256)
        .map(|i| format!("{:08x}", if i < 192 { 0x100 + i } else { 7 }))
        .collect();
    for got in run(&kernel(1024), &launch("32,2", 256)) {
        assert_eq!(got.expect("runs"), want);
    }
}

/// One warp, 64 bytes of tile and 40 words of `in`: the first
/// `st.shared` runs past the tile at lane 16 (byte 64) before row 2 (words
/// 64 to 95) would run past `in`; the launch names the store.
#[test]
fn a_fault_before_an_early_row_is_reported_first() {
    for got in run(&kernel(64), &launch("32,1", 40)) {
        let e = got.expect_err("faults");
        for w in [
            "cta (0,0,0) warp 0",
            "lane 16 (%tid (16,0,0)), `st.shared.u32 [%r15], %r20;`",
            "address 0x40 (4 bytes) is outside the CTA's 64 bytes of shared memory",
        ] {
            assert!(e.contains(w), "`{e}` lacks `{w}`");
        }
    }
}

/// One warp, the whole tile and 72 words of `in`: row 2 (words 64 to
/// 95) runs past `in` at lane 8 (word 72, byte 0x120 of buffer 1); the
/// launch names that lane of that load, as it would unhoisted.
#[test]
fn an_early_row_out_of_bounds_faults_at_its_own_instruction() {
    for got in run(&kernel(1024), &launch("32,1", 72)) {
        let e = got.expect_err("faults");
        for w in [
            "cta (0,0,0) warp 0",
            "lane 8 (%tid (8,0,0)), `ld.global.u32 %r21, [%rd7];`",
            "address 0x2100000120 (4 bytes) is outside every buffer",
        ] {
            assert!(e.contains(w), "`{e}` lacks `{w}`");
        }
    }
}

/// A warp's four output rows (`%rd5`, then `%rd6 = 2 * k_param_2 * 4`
/// bytes on each time): the first `st.global`'s fast path touches the
/// lines of all four (`memory_ops::touch_early`), which reads them and
/// changes nothing. With `out` of 256 words every row gets `in`'s words;
/// with 200, the fourth row (words 192 to 223) runs past `out` at lane 8
/// (word 200): its touch is skipped, the first three rows are stored,
/// and the launch names lane 8 of the fourth `st.global`.
#[test]
fn touched_rows_store_what_their_instructions_would() {
    let src = format!(
        "{HEAD}.visible .entry k(.param .u64 k_param_0, .param .u64 k_param_1, .param .u32 k_param_2) {{\n\
         .reg .b32 %r<50>;\n.reg .b64 %rd<30>;\n\
         ld.param.u64 %rd1, [k_param_0];\n\
         ld.param.u64 %rd2, [k_param_1];\n\
         ld.param.u32 %r30, [k_param_2];\n\
         cvta.to.global.u64 %rd3, %rd2;\n\
         cvta.to.global.u64 %rd10, %rd1;\n\
         mov.u32 %r5, %tid.x;\n\
         mul.wide.s32 %rd4, %r5, 4;\n\
         add.s64 %rd11, %rd3, %rd4;\n\
         ld.global.u32 %r20, [%rd11];\n\
         ld.global.u32 %r21, [%rd11+128];\n\
         ld.global.u32 %r22, [%rd11+256];\n\
         ld.global.u32 %r23, [%rd11+384];\n\
         add.s64 %rd5, %rd10, %rd4;\n\
         st.global.u32 [%rd5], %r20;\n\
         shl.b32 %r16, %r30, 1;\n\
         mul.wide.s32 %rd6, %r16, 4;\n\
         add.s64 %rd7, %rd5, %rd6;\n\
         st.global.u32 [%rd7], %r21;\n\
         add.s64 %rd8, %rd7, %rd6;\n\
         st.global.u32 [%rd8], %r22;\n\
         add.s64 %rd9, %rd8, %rd6;\n\
         st.global.u32 [%rd9], %r23;\n\
         ret;\n}}\n"
    );
    let launch = |n: usize| {
        format!(
            "kernel k\ngrid 1\nblock 32\nbuffer out fill aaaaaaaa {n}\nbuffer in u32 {}\n\
             param k_param_0 buffer out\nparam k_param_1 buffer in\nparam k_param_2 value 32\n",
            (0..128)
                .map(|i| format!("{:08x}", 0x100 + i))
                .collect::<Vec<_>>()
                .join(" ")
        )
    };
    // Row j of `out` (words 64 j to 64 j + 31) gets words 32 j to 32 j +
    // 31 of `in`; the words between stay 0xaaaaaaaa.
    let want: Vec<String> = (0..256)
        .map(|i| match (i / 64, i % 64) {
            (j, l) if l < 32 => format!("{:08x}", 0x100 + 32 * j + l),
            _ => "aaaaaaaa".to_string(),
        })
        .collect();
    for got in run(&src, &launch(256)) {
        assert_eq!(got.expect("runs"), want);
    }
    for got in run(&src, &launch(200)) {
        let e = got.expect_err("faults");
        for w in [
            "cta (0,0,0) warp 0",
            "lane 8 (%tid (8,0,0)), `st.global.u32 [%rd9], %r23;`",
            "address 0x2000000320 (4 bytes) is outside every buffer",
        ] {
            assert!(e.contains(w), "`{e}` lacks `{w}`");
        }
    }
}
