//! JIT-emulating warp code on the CPU with `warp-jit`: parse a program,
//! compile it once, run it on one warp, then on a batch of many warps with
//! their own inputs (all cores), and read registers back.
//!
//! `cargo run --release -p warp-jit --example emulate`

use warp_core::ir::{Inputs, WARP};
use warp_jit::JitProgram;

fn main() -> Result<(), Box<dyn std::error::Error>> {
    // Warp-wide inclusive prefix sum of u32 values with shfl.sync.up.
    let case = warp_core::text::parse(
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

    // One warp: x = 1 on every lane, so lane i ends with i + 1.
    let inputs = Inputs {
        lanes: vec![(x, [1; WARP])],
        ..Default::default()
    };
    let out = jit.run(&inputs)?;
    println!("one warp: lane 31 sums to {}", out.values[x.index()][31]);

    // A batch: 1,000,000 warps, warp w has x = w on every lane, run in
    // place on all cores without per-warp allocation.
    let n = 1_000_000;
    let mut states: Vec<_> = (0..n)
        .map(|w| {
            let mut s = jit.new_state();
            for lane in 0..WARP {
                jit.set(&mut s, x, lane, w as u64);
            }
            s
        })
        .collect();
    let t = std::time::Instant::now();
    let out_of_fuel = jit.run_states(&mut states);
    let secs = t.elapsed().as_secs_f64();
    assert_eq!(out_of_fuel, 0);
    let w = 12345;
    println!(
        "{n} warps in {secs:.3} s ({:.1} M warps/s); warp {w} lane 31 = {} (= 32 * {w})",
        n as f64 / secs / 1e6,
        jit.get(&states[w], x, 31)
    );
    Ok(())
}
