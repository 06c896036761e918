//! Filling the GPU's registers before a batch (`--gpu-dirty SEED`).
//!
//! A register the program never writes holds, on the GPU, whatever the
//! physical register held before: a value the reference calls undefined,
//! so no lane it defines may depend on it. When one does, the compiler read
//! such a register where the program did not, and the answer depends on
//! what ran on the GPU before (an earlier kernel of the same batch, or
//! nothing in a fresh context): a divergence that a batch shows and the
//! case alone does not (on an H200, 2026-11-28, N26's variant with
//! `sqrt.approx` was wrong in a fresh context and right after this
//! kernel; `docs/log/gpu-2026-11-28-j/e/dirty.txt`). Running [`filler_ptx`]
//! first, with a seed, makes that content a function of the seed, so the
//! same case can be asked under several.
//!
//! The kernel: 1024 threads a block, two blocks per multiprocessor, each
//! thread a chain of [`VALUES`] 32-bit values drawn from the seed, its
//! thread and its block, all live at once (they are folded in the reverse
//! order of their making), and seven predicates from their low bits. The
//! result is stored only when it equals the seed mixed with a constant,
//! which the compiler cannot know: so nothing is written (for the seeds the
//! tests try), but every value is computed into a register.

use std::fmt::Write as _;

/// The 32-bit values each thread keeps live at once (with the chain's
/// helpers, under the 64 registers a thread of a 1024-thread block has).
pub const VALUES: usize = 56;

/// The kernel's name in [`filler_ptx`].
pub const FILLER_KERNEL: &str = "warpdiff_dirty";

/// The filler's PTX module: `.entry warpdiff_dirty(.param .u32 seed,
/// .param .u64 sink)`.
pub fn filler_ptx() -> String {
    let mut s = String::new();
    let _ = writeln!(s, ".version 7.8\n.target sm_90\n.address_size 64\n");
    let _ = writeln!(
        s,
        ".visible .entry {FILLER_KERNEL}(.param .u32 seed, .param .u64 sink)\n.maxntid 1024, 1, 1\n{{"
    );
    let _ = writeln!(s, "    .reg .b32 %r<{VALUES}>;");
    let _ = writeln!(s, "    .reg .b32 %t, %acc, %x, %c;");
    let _ = writeln!(
        s,
        "    .reg .pred %q<7>;\n    .reg .pred %hit;\n    .reg .b64 %a;"
    );
    let _ = writeln!(s, "    ld.param.u32 %r0, [seed];");
    let _ = writeln!(s, "    mov.u32 %x, %tid.x;\n    mov.u32 %c, %ctaid.x;");
    let _ = writeln!(s, "    mad.lo.u32 %r1, %x, 0x9e3779b9, %r0;");
    let _ = writeln!(
        s,
        "    add.u32 %r1, %r1, %c;\n    add.u32 %r1, %r1, 0x7f4a7c15;"
    );
    for i in 2..VALUES {
        let _ = writeln!(
            s,
            "    mad.lo.u32 %r{i}, %r{}, 16777619, %r{};",
            i - 1,
            i - 2
        );
    }
    for i in 0..7 {
        let _ = writeln!(s, "    and.b32 %t, %r{}, 1;", i + 1);
        let _ = writeln!(s, "    setp.ne.u32 %q{i}, %t, 0;");
    }
    let _ = writeln!(s, "    mov.u32 %acc, %r{};", VALUES - 1);
    for i in (0..VALUES - 1).rev() {
        let _ = writeln!(s, "    mad.lo.u32 %acc, %acc, 3, %r{i};");
    }
    for i in 0..7 {
        let _ = writeln!(s, "    @%q{i} xor.b32 %acc, %acc, {};", i + 1);
    }
    let _ = writeln!(s, "    xor.b32 %t, %r0, 0x6a09e667;");
    let _ = writeln!(s, "    setp.eq.u32 %hit, %acc, %t;");
    let _ = writeln!(s, "    @!%hit bra DONE;");
    let _ = writeln!(
        s,
        "    ld.param.u64 %a, [sink];\n    cvta.to.global.u64 %a, %a;"
    );
    let _ = writeln!(s, "    st.global.u32 [%a], %acc;");
    let _ = writeln!(s, "DONE:\n    ret;\n}}");
    s
}

#[cfg(test)]
mod tests {
    use super::{filler_ptx, FILLER_KERNEL, VALUES};

    #[test]
    fn the_filler_declares_and_folds_every_value() {
        let ptx = filler_ptx();
        assert!(ptx.contains(&format!(".visible .entry {FILLER_KERNEL}(")));
        assert!(ptx.contains(&format!(".reg .b32 %r<{VALUES}>;")));
        // Made in order, folded in reverse: %r54 is read after %r55.
        let made = ptx
            .find("mad.lo.u32 %r55, %r54")
            .expect("the last value made");
        let folded = ptx.find("mad.lo.u32 %acc, %acc, 3, %r54;").expect("folded");
        assert!(made < folded);
        assert_eq!(ptx.matches("mad.lo.u32 %acc, %acc, 3,").count(), VALUES - 1);
        assert_eq!(ptx.matches("setp.ne.u32 %q").count(), 7);
        // The only store is behind the test against the seed.
        assert_eq!(ptx.matches("st.global").count(), 1);
        assert!(ptx.find("@!%hit bra DONE;") < ptx.find("st.global"));
    }

    /// The reference interpreter runs the filler (two blocks of 1024
    /// threads): no undefined behaviour, and the sink keeps its word (the
    /// fold equals the seed on no thread, which the GPU cannot know).
    #[test]
    fn the_filler_runs_on_the_reference_and_writes_nothing() {
        use warp_core::launch::Launch;
        let module = warp_core::text::parse_module(&filler_ptx()).expect("the filler parses");
        for seed in [0u64, 1, 0xffff_ffff] {
            let launch = Launch::new(FILLER_KERNEL)
                .grid([2, 1, 1])
                .block([1024, 1, 1])
                .buffer_u32("sink", &[0x5555_5555])
                .param_value("seed", seed)
                .param_buffer("sink", "sink");
            let out = warp_core::interp::run_launch(&module, &launch).expect("it runs");
            assert_eq!(out.ub, None, "seed {seed}");
            assert_eq!(
                out.buffers[0].u32s(),
                vec![Some(0x5555_5555)],
                "seed {seed}"
            );
        }
    }
}
