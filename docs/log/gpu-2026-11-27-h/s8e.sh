#!/bin/bash
# Session 8, call 5 (an H100, 16-core Xeon): N23's reproducer (the H100's transcript); the kernel
# benchmark of H27's JIT (uniform registers as one word; f2e31d3) at 1 and 16 threads with the
# interpreter at 1M, and main's (before H27) at one thread in the same call for the ratio; then a
# 5-minute -O0 run (interp,jit,gpu) with the guarded-activemask rule and every detector.
set -u
D=$(cd "$(dirname "$0")" && pwd); cd "$D/.."
ROOT=$(pwd)
W=$D/warpdiff
R=/tmp/s8e; rm -rf $R; mkdir -p $R
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee $R/host.txt
lscpu | grep -E "Model name|^CPU\(s\)|Thread|Flags" | cut -c1-200 | tee -a $R/host.txt
for d in $D/repro8d/*/; do
  timeout 100 sh $d/build.sh > $d/h100.txt 2>&1
  echo "== $(basename $d)"; grep -v "^\s*$" $d/h100.txt | grep -v "^  %" | tail -8
done
cd /tmp
BENCH_ROOT=$ROOT BENCH_THREADS=1,16 BENCH_MS=500 timeout 170 $D/kernels-h27 > $R/bench-h27.txt 2>&1; echo "rc $?" >> $R/bench-h27.txt
BENCH_ROOT=$ROOT BENCH_THREADS=1 BENCH_MS=500 BENCH_INTERP_N=0 timeout 70 $D/kernels-main > $R/bench-main.txt 2>&1; echo "rc $?" >> $R/bench-main.txt
tail -30 $R/bench-h27.txt | cut -c1-220; tail -14 $R/bench-main.txt | cut -c1-220
cd $ROOT
mkdir -p /tmp/o0/corpus
timeout 330 $W fuzz --engines interp,jit,gpu --gpu-opt-level 0 --keep-going --seconds 300 --seed 0x3804 \
  --corpus /tmp/o0/corpus > /tmp/o0/out 2> /tmp/o0/err < /dev/null
echo "rc $?" >> /tmp/o0/out
cat /tmp/o0/out > $R/o0-300-b.out; grep -v '^\[' /tmp/o0/err >> $R/o0-300-b.out
grep -E "^  |^verdict" /tmp/o0/out | cut -c1-300 | tail -12
cp -r /tmp/o0/corpus $R/o0-b-corpus
cd $D && tar czf $OUT/s8e.tgz repro8d -C /tmp s8e
