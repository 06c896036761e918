//! Compiling and dropping JIT programs does not grow resident memory: the
//! code mapping is freed with the program. (The bench `warpdiff-bench`
//! repeats this with 100,000 programs in release mode.)

use warp_core::text::parse;
use warp_jit::JitProgram;

fn rss_kib() -> u64 {
    let statm = std::fs::read_to_string("/proc/self/statm").expect("linux /proc");
    let pages: u64 = statm
        .split_whitespace()
        .nth(1)
        .expect("rss")
        .parse()
        .expect("number");
    pages * 4
}

#[test]
fn compile_and_drop_does_not_grow_rss() {
    let src = "\
.reg .b32 Rx, Ry, M;
.reg .pred p;
.lanes Rx = 3;
    activemask.b32 M;
    shfl.sync.bfly.b32 Ry|p, Rx, 1, 0x1f, M;
    redux.sync.add.u32 Rx, Ry, M;
    match.any.sync.b32 Ry, Rx, 0xffffffff;
";
    let case = parse(src).expect("parses");
    let once = || {
        let jit = JitProgram::compile(&case.program).expect("compiles");
        let out = jit.run(&case.inputs).expect("runs");
        // bfly 1 gives every lane its neighbour's 3; the sum of 32 lanes is 96.
        assert_eq!(out.values[0][0], 96);
    };
    for _ in 0..300 {
        once();
    }
    let before = rss_kib();
    let n = 2000;
    for _ in 0..n {
        once();
    }
    let after = rss_kib();
    let growth = after.saturating_sub(before);
    println!("rss before {before} KiB, after {n} more compiles {after} KiB (+{growth} KiB)");
    // A leaked code mapping costs at least one 4 KiB page per program:
    // 2000 leaks would be 8,000 KiB.
    assert!(
        growth < 1500,
        "resident memory grew by {growth} KiB over {n} compiles"
    );
}
