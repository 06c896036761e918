//! Every corpus file on the JIT's fast-code tuning (the inline lowering;
//! `replay.rs` runs the fast-compile one, which calls shared helpers):
//! one test per file, checked against its `.expect`.

fn main() {
    warp_core::replay::main(|| {
        Box::new(warp_jit::JitEngine {
            tuning: warp_jit::Tuning::FastCode,
            limits: warp_jit::Limits::default(),
            inline_every: 0,
            part_insts: None,
        })
    });
}
