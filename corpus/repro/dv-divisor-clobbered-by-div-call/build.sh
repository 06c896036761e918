#!/bin/sh
# Builds the reproducer and runs it at every level. Needs nvcc, ptxas,
# cuobjdump and a GPU.
set -e
cd "$(dirname "$0")"
arch=$(sed -n 's/^\.target \(sm_[0-9a-z]*\).*/\1/p' kernel.ptx | head -1)
[ "$arch" = sm_70 ] && arch=sm_90
nvcc -o repro repro.cu -lcuda
ptxas -arch="$arch" -O0 kernel.ptx -o kernel-O0.cubin
ptxas -arch="$arch" -O3 kernel.ptx -o kernel-O3.cubin
cuobjdump -sass kernel-O0.cubin > sass-O0.txt
cuobjdump -sass kernel-O3.cubin > sass-O3.txt
# The relocatable compile (what the driver's JIT linker does: --link).
ptxas -arch="$arch" -O3 -c kernel.ptx -o kernel-O3-c.cubin
cuobjdump -sass kernel-O3-c.cubin > sass-O3-c.txt
ptxas --version | tail -1
set +e
# Each run is bounded: a kernel that never finishes (a hang) is killed
# after 20 s and reported as such, and the next level runs.
run() {
    timeout 20 ./repro "$@"
    rc=$?
    [ $rc -eq 124 ] && echo "repro $*: hang (killed after 20 s)"
    [ $rc -gt 128 ] && [ $rc -ne 137 ] && echo "repro $*: died of signal $((rc - 128))"
    return 0
}
for o in 0 1 2 3 4; do run -O $o; done
for o in 0 1 2 3 4; do run --link -O $o; done
run --cubin kernel-O0.cubin
run --cubin kernel-O3.cubin
