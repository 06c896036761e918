#!/bin/bash
# Session 10, call 9 (the H100 host's Xeon): is H32's JIT slower on the clock? The transpose, the
# block reduce and the compaction at 1M on one thread (the block scan too), built at 9944ea9 (before H32),
# 16ca269 (H32's code generation), a5cd70f (and its host work) and d0f8c99 (and its gather), two
# rounds, the executables in turn.
set -u
D=$(cd "$(dirname "$0")" && pwd); cd "$D/.."
ROOT=$(pwd)
R=/tmp/s10i; rm -rf $R; mkdir -p $R
nvidia-smi --query-gpu=name --format=csv,noheader | tee $R/host.txt
lscpu | grep -E "Model name" | tee -a $R/host.txt
cd /tmp
for round in 1 2; do
  for k in old9 16ca269 a5cd70f new; do
    echo "== round $round, $k"
    BENCH_ROOT=$ROOT BENCH_KERNELS=transpose,ballot,block BENCH_N=1048576 BENCH_INTERP_N=0 BENCH_THREADS=1 BENCH_MS=1500 BENCH_ROUNDS=3 timeout 80 $D/bench4/kernels-$k 2>&1 | grep "^| [a-z]"
  done
done > $R/bisect.txt 2>&1
cat $R/bisect.txt | cut -c1-110
cd /tmp && tar czf $OUT/s10i.tgz s10i
