//! Every corpus file on the JIT compiled in parts of one instruction
//! (`JitProgram::compile_in_parts`, fast-compile tuning): every segment is
//! a function of its own, so every jump from one segment to the next, the
//! completion of rendezvous and the scheduler go through the dispatcher
//! (`parts.rs`). One test per file, checked against its `.expect`.

fn main() {
    warp_core::replay::main(|| {
        Box::new(warp_jit::JitEngine {
            inline_every: 0,
            part_insts: Some(1),
            ..warp_jit::JitEngine::fast_compile()
        })
    });
}
