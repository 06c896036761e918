#!/bin/bash
# Session 9, call 4 (an H100 wanted, its 16-core Xeon for the bench): H30's three variants that did
# not run (devrun/h30x2), the next experiments of H30's candidates SP and NWO (devrun/cand), and
# H31's triage variants of session 9's findings (devrun/h31x), at -O0..-O3;
# the kernel benchmark of main (H29's JIT, the columns' repetitions taken in alternating rounds) at
# 1 and 16 threads with the interpreter at 1M.
set -u
D=$(cd "$(dirname "$0")" && pwd); cd "$D/.."
ROOT=$(pwd)
W=$D/warpdiff
R=/tmp/s9d; rm -rf $R; mkdir -p $R
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee $R/host.txt
lscpu | grep -E "Model name|^CPU\(s\)|Thread|Flags" | cut -c1-200 | tee -a $R/host.txt
for x in h30x2 cand h31x; do
  [ -d $D/$x ] || continue
  cd $D/$x
  for L in 0 1 2 3; do
    echo "== driver JIT -O$L"
    timeout 120 $W diff --engines interp,gpu --gpu-opt-level $L *.ptx 2>&1
  done > $R/$x-levels.txt
  echo "== $x"; grep -v "^  " $R/$x-levels.txt | grep -v " = gpu" | cut -c1-140 | head -40
  cd $ROOT
done
cd /tmp
BENCH_ROOT=$ROOT BENCH_THREADS=1,16 BENCH_MS=2500 BENCH_ROUNDS=5 timeout 330 $D/kernels-main9 > $R/bench-main9.txt 2>&1; echo "rc $?" >> $R/bench-main9.txt
tail -30 $R/bench-main9.txt | cut -c1-260
cd $D && tar czf $OUT/s9d.tgz -C /tmp s9d
