//! The kernel benchmark's kernels (`lower/jit/benches/kernel_cases.rs`,
//! issue #36) at small sizes: the JIT stores what their plain Rust
//! versions compute, word for word (both: the shortest plain Rust and
//! the PTX translated instruction by instruction), and what the
//! reference interpreter stores on every word it defines (without
//! undefined behaviour); the plain versions agree with themselves on one
//! and on several threads;
//! and the JIT stores the same bytes on 1, 2, 3 and 8 threads.

#[path = "../../benches/kernel_cases.rs"]
mod kernel_cases;
#[path = "../../benches/kernel_literal.rs"]
mod kernel_literal;

use kernel_cases::Kernel;
use warp_core::launch::BufferOut;
use warp_jit::launch::CompiledKernel;

fn words(b: &BufferOut) -> Vec<u32> {
    b.bytes
        .chunks_exact(4)
        .map(|c| u32::from_le_bytes([c[0], c[1], c[2], c[3]]))
        .collect()
}

#[test]
fn bench_kernels_match_plain_rust_and_the_interpreter() {
    for kernel in Kernel::ALL {
        let module = kernel.module();
        let launch = kernel.launch(4096, 7);
        let compiled = CompiledKernel::compile(&module, kernel.entry())
            .unwrap_or_else(|e| panic!("{}: {e}", kernel.name()));
        let jit = compiled
            .launch_on(&launch, 1)
            .unwrap_or_else(|e| panic!("{}: {e}", kernel.name()));
        let mut want = Kernel::words(&launch);
        kernel.native(&mut want, 1);
        let mut threaded = Kernel::words(&launch);
        kernel.native(&mut threaded, 3);
        assert_eq!(want, threaded, "{}: plain Rust on 3 threads", kernel.name());
        let mut literal = Kernel::words(&launch);
        kernel_literal::literal(kernel, &mut literal, 1);
        assert_eq!(want, literal, "{}: the translation", kernel.name());
        let mut literal3 = Kernel::words(&launch);
        kernel_literal::literal(kernel, &mut literal3, 3);
        assert_eq!(
            want,
            literal3,
            "{}: the translation on 3 threads",
            kernel.name()
        );
        for (b, w) in jit.buffers.iter().zip(&want) {
            assert!(
                words(b) == *w,
                "{}: `{}` differs from plain Rust",
                kernel.name(),
                b.name
            );
        }
        let interp = warp_core::interp::run_launch(&module, &launch)
            .unwrap_or_else(|e| panic!("{}: {e}", kernel.name()));
        assert!(interp.ub.is_none(), "{}: {:?}", kernel.name(), interp.ub);
        for (j, i) in jit.buffers.iter().zip(&interp.buffers) {
            for (k, (a, b)) in j.words().iter().zip(i.words()).enumerate() {
                assert!(
                    b == "________" || *a == b,
                    "{}: `{}`[{k}]: jit {a}, interp {b}",
                    kernel.name(),
                    j.name
                );
            }
        }
    }
}

#[test]
fn bench_kernels_give_the_same_bytes_on_any_number_of_threads() {
    for kernel in Kernel::ALL {
        let module = kernel.module();
        // Enough CTAs for every thread to take several.
        let launch = kernel.launch(64 * 256, 11);
        let compiled = CompiledKernel::compile(&module, kernel.entry())
            .unwrap_or_else(|e| panic!("{}: {e}", kernel.name()));
        let one = compiled
            .launch_on(&launch, 1)
            .unwrap_or_else(|e| panic!("{}: {e}", kernel.name()));
        for threads in [2, 3, 8] {
            let many = compiled
                .launch_on(&launch, threads)
                .unwrap_or_else(|e| panic!("{}: {e}", kernel.name()));
            assert!(
                one.buffers == many.buffers,
                "{}: 1 thread and {threads} differ",
                kernel.name()
            );
        }
    }
}
