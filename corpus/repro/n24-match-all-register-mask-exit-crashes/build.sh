#!/bin/sh
# Builds the reproducer of N24 (a PTX compiler crash) and runs it at every
# level. Needs nvcc, ptxas, cuobjdump and a GPU. Edited by hand from what
# `warpdiff repro` writes: ptxas and the driver's JIT are expected to die
# (SIGSEGV, exit 139) from -O1, so each ptxas run and each run of the
# reproducer prints its exit status instead of stopping the script, and
# each is bounded by a timeout.
cd "$(dirname "$0")"
arch=$(sed -n 's/^\.target \(sm_[0-9a-z]*\).*/\1/p' kernel.ptx | head -1)
[ "$arch" = sm_70 ] && arch=sm_90
nvcc -o repro repro.cu -lcuda || exit 1
ptxas --version | tail -1
for o in 0 1 2 3; do
    timeout 60 ptxas -arch="$arch" -O$o kernel.ptx -o kernel-O$o.cubin
    echo "ptxas -O$o: exit $?"
done
cuobjdump -sass kernel-O0.cubin > sass-O0.txt
for o in 0 1 2 3 4; do
    timeout 20 ./repro -O $o
    echo "repro -O $o: exit $?"
done
./repro --cubin kernel-O0.cubin
echo "repro --cubin kernel-O0.cubin: exit $?"
