#!/bin/bash
# Session 10, call 8 (an H100 wanted, its 16-core Xeon for the bench): the kernel benchmark of H32's
# JIT (devrun/kernels-h32) at 1 and 16 threads; N26's reproducer (h100.txt) and the candidates LC's
# and LA's; --gpu-dirty: N26's sqrt.approx variant in-process at -O3 without and with seeds, and the
# five findings that agree alone through helpers at their hunt's level under seeds 1..8; H33's
# triage variants (devrun/h33x) through helpers at -O0, -O1 and -O3 (hang-* files alone).
set -u
D=$(cd "$(dirname "$0")" && pwd); cd "$D/.."
ROOT=$(pwd)
W=$D/warpdiff
R=/tmp/s10h; rm -rf $R; mkdir -p $R
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee $R/host.txt
lscpu | grep -E "Model name|^CPU\(s\)|Thread|Flags" | cut -c1-200 | tee -a $R/host.txt
if [ -x $D/kernels-h32 ]; then
  cd /tmp
  BENCH_ROOT=$ROOT BENCH_THREADS=1,16 BENCH_MS=2500 BENCH_ROUNDS=5 timeout 300 $D/kernels-h32 > $R/bench-h32.txt 2>&1; echo "rc $?" >> $R/bench-h32.txt
  grep "^| " $R/bench-h32.txt | cut -c1-200
  cd $ROOT
fi
timeout 60 sh $D/repro-n26/build.sh > $R/repro-n26-h100.txt 2>&1; echo "exit $?" >> $R/repro-n26-h100.txt
grep -v "^  %" $R/repro-n26-h100.txt | tail -12
for d in $D/lcla/*/; do
  n=$(basename $d)
  timeout 60 sh $d/build.sh > $R/repro-$n-h100.txt 2>&1; echo "exit $?" >> $R/repro-$n-h100.txt
  echo "== $n"; grep -E "linker|exit" $R/repro-$n-h100.txt | tail -6
done
{
  f=$D/n26v/v2-sqrt-approx.ptx
  echo "== v2-sqrt-approx, whole program -O3, fresh process each"
  for s in none 1 2 3; do
    a=""; [ $s = none ] || a="--gpu-dirty $s"
    echo "-- dirty $s: $(timeout 30 $W diff --engines interp,gpu --gpu-opt-level 3 $a $f 2>&1 | grep -v '^warpdiff: using' | head -1 | sed "s#$D/##")"
  done
  for s in 1 2 3 4 5 6 7 8; do
    for f in $D/dirtyck/*.ptx; do
      b=$(basename $f .ptx); L=${b%%--*}
      echo "-- $b -O$L helpers, dirty $s: $(timeout 30 $W diff --engines interp,gpu --gpu-helpers --gpu-opt-level $L --gpu-dirty $s $f 2>&1 | grep -v '^warpdiff: using' | head -1 | sed "s#$D/##")"
    done
  done
} > $R/dirty-engine.txt 2>&1
grep -c "DIVERGES" $R/dirty-engine.txt; grep "v2-sqrt\|-- dirty" $R/dirty-engine.txt
if [ -d $D/h33x ]; then
  cd $D/h33x
  for L in 0 1 3; do
    echo "== the driver's linker (helpers), -O$L"
    timeout 60 $W diff --engines interp,gpu --gpu-helpers --gpu-opt-level $L $(ls *.ptx | grep -v '^hang') 2>&1 | grep -v "^warpdiff: using"
    for h in $(ls *.ptx | grep '^hang'); do timeout 20 $W diff --engines interp,gpu --gpu-helpers --gpu-opt-level $L $h 2>&1 | grep -v "^warpdiff: using"; done
  done > $R/h33x-levels.txt 2>&1
  grep -v "^  " $R/h33x-levels.txt | grep -v " = gpu" | cut -c1-140 | head -40
  cd $ROOT
fi
cd /tmp && tar czf $OUT/s10h.tgz s10h
