#!/bin/bash
# Session 11, call 1 (H200 host's CPU): the kernel benchmark at 7d51f3d+h35 (devrun/kernels-s11), 1 and 16 threads.
set -u
D=$(cd "$(dirname "$0")" && pwd); cd "$D/.."
ROOT=$(pwd)
R=/tmp/s11a; rm -rf $R; mkdir -p $R
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee $R/host.txt
lscpu | grep -E "Model name|^CPU\(s\)|Thread|NUMA node" | cut -c1-200 | tee -a $R/host.txt
cat /sys/kernel/mm/transparent_hugepage/enabled >> $R/host.txt
cd /tmp
BENCH_ROOT=$ROOT BENCH_THREADS=1,16 BENCH_MS=2000 BENCH_ROUNDS=4 timeout 420 $D/kernels-s11 > $R/bench-s11.txt 2>&1; echo "rc $?" >> $R/bench-s11.txt
grep "^| \|^rc\|^host" $R/bench-s11.txt | cut -c1-250
# Per-process spread of the transpose (5 processes, 1 thread, 1M).
for i in 1 2 3 4 5; do
  BENCH_ROOT=$ROOT BENCH_KERNELS=transpose BENCH_N=1048576 BENCH_INTERP_N=0 BENCH_THREADS=1 BENCH_MS=600 BENCH_ROUNDS=2 timeout 30 $D/kernels-s11 2>/dev/null | grep "^| tiled"
done > $R/spread.txt; cat $R/spread.txt
cd /tmp && tar czf $OUT/s11a.tgz s11a
