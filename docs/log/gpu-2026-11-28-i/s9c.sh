#!/bin/bash
# Session 9, call 3 (an H100 wanted, its 16-core Xeon for the bench): N25's reproducer (the H100's
# transcript); the -O3 hunt's compile crash engine-failed-a4706223 (match.all.sync with the
# immediate mask 0, N24's shape otherwise) with variants (devrun/n26v); whether ptxas takes LLVM's
# predicate immediate in vote; H30's second round of triage variants if any (devrun/h30x2); the
# kernel benchmark of H29's JIT (d8c3cc1) at 1 and 16 threads with the interpreter at 1M, and H27's
# (f2e31d3, the last table) at one thread in the same call for the ratio.
set -u
D=$(cd "$(dirname "$0")" && pwd); cd "$D/.."
ROOT=$(pwd)
W=$D/warpdiff
R=/tmp/s9c; rm -rf $R; mkdir -p $R
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee $R/host.txt
lscpu | grep -E "Model name|^CPU\(s\)|Thread|Flags" | cut -c1-200 | tee -a $R/host.txt
N=corpus/repro/n25-cnot64-twice-narrow-cvt-from-f64
timeout 200 sh $N/build.sh > $R/n25-h100.txt 2>&1; echo "exit $?" >> $R/n25-h100.txt
grep -v "^\s*$" $R/n25-h100.txt | grep -v "^  %" | tail -10
(cd $D/llvmvote && ptxas -arch=sm_90 -O3 vote-imm.ptx -o /tmp/vote-imm.cubin; echo "ptxas vote-imm.ptx (.version 8.0): exit $?") > $R/llvm-vote-imm-h100.txt 2>&1
cat $R/llvm-vote-imm-h100.txt
for f in $D/n26v/*.ptx; do
  for c in "driver 0" "driver 1" "driver 3" "ptxas 3"; do
    set -- $c
    echo "== $(basename $f) --gpu-compiler $1 --gpu-opt-level $2"
    timeout 60 $W diff --engines interp,gpu --gpu-compiler $1 --gpu-opt-level $2 $f 2>&1 | grep -v "^warpdiff: using" | head -3
    echo "rc ${PIPESTATUS[0]}"
  done
done > $R/n26-variants-h100.txt 2>&1
awk '/^==/{f=$2; c=$4; l=$6} /^rc/{printf "%s %s-O%s=%s\n", f, c, l, $2}' $R/n26-variants-h100.txt | awk '{a[$1]=a[$1]" "$2} END{for(k in a) print k, a[k]}' | sort
# The default-level hunt's 13-instruction hang (found-default/hang-2ca99f33) and five one-change
# variants, alone at every level (a hang ends after the 1.5-s deadline).
for f in $D/hangv/*.ptx; do
  for L in 0 1 2 3 default; do
    echo "== $(basename $f) -O$L"
    timeout 40 $W diff --engines interp,gpu --gpu-opt-level $L --gpu-deadline-ms 1500 $f 2>&1 | grep -v "^warpdiff: using" | head -2 | cut -c1-200
    echo "rc ${PIPESTATUS[0]}"
  done
done > $R/hang-variants-h100.txt 2>&1
grep -E "^==|^rc|hang|DIVERG|= gpu" $R/hang-variants-h100.txt | paste - - - | cut -c1-200 | head -40
if [ -d $D/h30x2 ]; then
  cd $D/h30x2
  for L in 0 1 2 3; do
    echo "== driver JIT -O$L"
    timeout 120 $W diff --engines interp,gpu --gpu-opt-level $L *.ptx 2>&1
  done > $R/h30x2-levels-h100.txt
  grep -v "^  " $R/h30x2-levels-h100.txt | grep -v " = gpu" | cut -c1-140 | head -40
  cd $ROOT
fi
cd /tmp
BENCH_ROOT=$ROOT BENCH_THREADS=1,16 BENCH_MS=500 timeout 200 $D/kernels-h29 > $R/bench-h29.txt 2>&1; echo "rc $?" >> $R/bench-h29.txt
BENCH_ROOT=$ROOT BENCH_THREADS=1 BENCH_MS=500 BENCH_INTERP_N=0 timeout 80 $D/kernels-h27 > $R/bench-h27.txt 2>&1; echo "rc $?" >> $R/bench-h27.txt
tail -30 $R/bench-h29.txt | cut -c1-220; tail -14 $R/bench-h27.txt | cut -c1-220
cd $D && tar czf $OUT/s9c.tgz -C /tmp s9c
