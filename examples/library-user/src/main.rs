//! What a user of `warp-jit` writes, with that crate as the only
//! dependency: a warp program JIT-run on one warp, and a real kernel (nvcc's
//! saxpy, from the repository's corpus) launched with a launch built in
//! code, then launched past the end of a buffer: a typed fault. The
//! expected values are computed by hand below; a wrong one exits with
//! status 1.
//!
//! `cargo run --manifest-path examples/library-user/Cargo.toml`

use warp_jit::warp_core::ir::{Inputs, WARP};
use warp_jit::warp_core::launch::{Launch, LaunchError};
use warp_jit::warp_core::text::{parse, parse_module};
use warp_jit::JitProgram;

fn main() -> Result<(), Box<dyn std::error::Error>> {
    // A warp-wide inclusive prefix sum with shfl.sync.up: x = 1 on every
    // lane, so lane i ends with i + 1.
    let case = parse(
        "
.reg .u32 x, y;
.reg .pred p;
    shfl.sync.up.b32 y|p, x, 1, 0, 0xffffffff;
@p  add.u32 x, x, y;
    shfl.sync.up.b32 y|p, x, 2, 0, 0xffffffff;
@p  add.u32 x, x, y;
    shfl.sync.up.b32 y|p, x, 4, 0, 0xffffffff;
@p  add.u32 x, x, y;
    shfl.sync.up.b32 y|p, x, 8, 0, 0xffffffff;
@p  add.u32 x, x, y;
    shfl.sync.up.b32 y|p, x, 16, 0, 0xffffffff;
@p  add.u32 x, x, y;
",
    )?;
    let x = case.program.reg("x").ok_or("no register x")?;
    let jit = JitProgram::compile(&case.program)?;
    let out = jit.run(&Inputs {
        lanes: vec![(x, [1; WARP])],
        ..Default::default()
    })?;
    let sums = &out.values[x.index()];
    for (lane, &v) in sums.iter().enumerate() {
        if v != lane as u64 + 1 {
            eprintln!("prefix sum: lane {lane} has {v}, expected {}", lane + 1);
            std::process::exit(1);
        }
    }
    println!("warp program: lane 31's prefix sum is {}", sums[31]);

    // nvcc's saxpy (`y[i] = a * x[i] + y[i]` for i < n) on one CTA of 64
    // threads with n = 40, a = 2.5, x[i] = i, y[i] = 1: y[i] = 2.5 i + 1
    // for i < 40 (exact in f32), y[i] = 1 for the rest.
    let src = include_str!("../../../corpus/kernels/nvcc/saxpy.ptx");
    let module = parse_module(src)?;
    let xs: Vec<f32> = (0..64).map(|i| i as f32).collect();
    let launch = Launch::new("saxpy")
        .grid([1, 1, 1])
        .block([64, 1, 1])
        .buffer_f32("x", &xs)
        .buffer_f32("y", &[1.0; 64])
        .param_value("saxpy_param_0", 40)
        .param_value("saxpy_param_1", 2.5f32.to_bits() as u64)
        .param_buffer("saxpy_param_2", "x")
        .param_buffer("saxpy_param_3", "y");
    let done = warp_jit::launch::run_launch(&module, &launch)?;
    if let Some((at, ub)) = &done.ub {
        eprintln!("saxpy: undefined behaviour at {at}: {ub}");
        std::process::exit(1);
    }
    let y = done.buffers[1].f32s();
    for (i, v) in y.iter().enumerate() {
        let want = if i < 40 { 2.5 * i as f32 + 1.0 } else { 1.0 };
        if *v != Some(want) {
            eprintln!("saxpy: y[{i}] is {v:?}, expected {want}");
            std::process::exit(1);
        }
    }
    println!(
        "kernel: saxpy y[39] = {:?} (2.5 * 39 + 1), y[40] = {:?}",
        y[39], y[40]
    );

    // The same launch with n = 64 and a `y` of 40 words: thread 40 (warp
    // 1, lane 8) loads y[40], 160 = 0xa0 bytes into buffer 1, which starts
    // at 0x21_0000_0000. The JIT's error says so, field by field.
    let short = Launch::new("saxpy")
        .block([64, 1, 1])
        .buffer_f32("x", &xs)
        .buffer_f32("y", &[1.0; 40])
        .param_value("saxpy_param_0", 64)
        .param_value("saxpy_param_1", 2.5f32.to_bits() as u64)
        .param_buffer("saxpy_param_2", "x")
        .param_buffer("saxpy_param_3", "y");
    match warp_jit::launch::run_launch(&module, &short) {
        Err(LaunchError::Fault(f))
            if (f.warp, f.lane, f.tid, f.address) == (1, 8, [40, 0, 0], Some(0x21_0000_00a0)) =>
        {
            println!("fault: {f}");
        }
        other => {
            eprintln!("saxpy past `y`: expected a fault at lane 8 of warp 1, got {other:?}");
            std::process::exit(1);
        }
    }
    Ok(())
}
