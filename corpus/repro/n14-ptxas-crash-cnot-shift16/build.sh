#!/bin/sh
# Builds the reproducer of N14 (a ptxas crash) and runs it at every level.
# Needs nvcc, ptxas, cuobjdump and a GPU. Edited by hand from what
# `warpdiff repro` writes: ptxas is expected to die (SIGSEGV, exit 139) from
# -O1, so each ptxas run prints its exit status instead of stopping the
# script, and so does each run of the reproducer (whose driver JIT is the
# same compiler: expected to die with 139 from -O1 as well).
cd "$(dirname "$0")"
arch=$(sed -n 's/^\.target \(sm_[0-9a-z]*\).*/\1/p' kernel.ptx | head -1)
[ "$arch" = sm_70 ] && arch=sm_90
nvcc -o repro repro.cu -lcuda || exit 1
ptxas --version | tail -1
for o in 0 1 2 3; do
    ptxas -arch="$arch" -O$o kernel.ptx -o kernel-O$o.cubin
    echo "ptxas -O$o: exit $?"
done
cuobjdump -sass kernel-O0.cubin > sass-O0.txt
for o in 0 1 2 3 4; do
    ./repro -O $o
    echo "repro -O $o: exit $?"
done
./repro --cubin kernel-O0.cubin
echo "repro --cubin kernel-O0.cubin: exit $?"
