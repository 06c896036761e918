#!/bin/bash
# Session 13, call f: the DV reproducer's build.sh on the H200 (+ ptxas -O2 -c SASS).
D=$(cd "$(dirname "$0")" && pwd)
cd $D/repro-dv && { timeout 100 ./build.sh; echo "rc $?"; } > h200.txt 2>&1
ptxas -arch=sm_90 -O2 -c kernel.ptx -o k2.cubin && cuobjdump -sass k2.cubin > sass-O2-c.txt
mkdir -p $OUT/dv && cp h200.txt sass-*.txt $OUT/dv/
grep -v "^  %" h200.txt
