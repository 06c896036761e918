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
ptxas --version | tail -1
set +e
for o in 0 1 2 3 4; do ./repro -O $o; done
./repro --cubin kernel-O0.cubin
./repro --cubin kernel-O3.cubin
