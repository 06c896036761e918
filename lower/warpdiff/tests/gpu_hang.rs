//! The GPU hang guard: a kernel that never finishes (an endless loop, which
//! the interpreter's fuel would have kept off the GPU — this test bypasses
//! that gate on purpose) is caught by the deadline and reported; the GPU is
//! switched off and the CPU engines go on. Ignored without a GPU
//! (`cargo test -p warpdiff --test gpu_hang -- --ignored` on a GPU host).

use std::time::{Duration, Instant};
use warp_core::text::parse;
use warp_gpu::device::{Device, GpuError};
use warp_gpu::emit::Job;
use warp_gpu::run::Gpu;
use warp_jit::JitProgram;

#[test]
#[ignore = "needs a GPU"]
fn a_hanging_kernel_is_caught_and_the_cpu_goes_on() {
    let gpu = Gpu::open()
        .unwrap_or_else(|e| panic!("this test needs a GPU: {e}"))
        .with_deadline(Duration::from_secs(2));
    println!("on {}", gpu.description);
    let forever = parse(".reg .b32 R;\n.lanes R = 1;\nTOP:\n    add.u32 R, R, 1;\n    bra TOP;\n")
        .expect("parses");
    let t = Instant::now();
    let (r, _) = gpu.run_batch_timed(&[Job {
        program: &forever.program,
        inputs: &forever.inputs,
    }]);
    let took = t.elapsed();
    println!("result after {took:?}: {:?}", r[0]);
    assert!(matches!(r[0], Err(GpuError::Hang(_))), "{:?}", r[0]);
    assert!(gpu.is_dead());
    assert!(took < Duration::from_secs(10));
    // The GPU stays off; the CPU engines carry on.
    let normal =
        parse(".reg .b32 R;\n.lanes R = 5;\n    shfl.sync.bfly.b32 R, R, 1, 0x1f, 0xffffffff;\n")
            .expect("parses");
    let again = gpu.run_batch(&[Job {
        program: &normal.program,
        inputs: &normal.inputs,
    }]);
    assert_eq!(again[0], Err(GpuError::Dead));
    let out = JitProgram::compile(&normal.program)
        .expect("compiles")
        .run(&normal.inputs)
        .expect("runs");
    assert_eq!(out.values[0][0], 5);
    println!(
        "after the hang: gpu {:?}, jit ran (lane 0 = {})",
        again[0], out.values[0][0]
    );
}
