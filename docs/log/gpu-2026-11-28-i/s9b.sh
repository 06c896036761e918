#!/bin/bash
# Session 9, call 2 (an H200 wanted): N24's and N25's reproducers (build.sh); the j4 lead's variants
# (devrun/j4v) at -O0..-O3; N24's variant y11 (bar.warp.sync after the exit, which the emitter now
# writes); whether ptxas takes LLVM's predicate immediates in vote (devrun/llvmvote); H30's triage
# experiments (devrun/h30x) at -O0..-O3; then a 200-s hunt at the driver's default level with
# --avoid all.
set -u
D=$(cd "$(dirname "$0")" && pwd); cd "$D/.."
W=$D/warpdiff
R=/tmp/s9b; rm -rf $R; mkdir -p $R
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee $R/host.txt
nproc >> $R/host.txt
for n in n24-match-all-register-mask-exit-crashes n25-cnot64-twice-narrow-cvt-from-f64; do
  N=corpus/repro/$n
  timeout 200 sh $N/build.sh > $R/$n-h200.txt 2>&1; echo "exit $?" >> $R/$n-h200.txt
  mkdir -p $R/$n; cp $N/sass-O*.txt $R/$n/ 2>/dev/null
  echo "== $n"; grep -v "^\s*$" $R/$n-h200.txt | grep -v "^  %" | tail -14 | cut -c1-200
done
cd $D/j4v
for L in 0 1 2 3; do
  echo "== driver JIT -O$L"
  timeout 90 $W diff --engines interp,gpu --gpu-opt-level $L *.ptx 2>&1
done > $R/j4-levels-h200.txt
grep -v "^  " $R/j4-levels-h200.txt | grep -v " = gpu" | cut -c1-140 | head -30
cd $D/..
f=$D/n24v/y11-bar-warp-sync-after.ptx
for c in "driver 0" "driver 1" "driver 3" "ptxas 3"; do
  set -- $c
  echo "== $(basename $f) --gpu-compiler $1 --gpu-opt-level $2"
  timeout 60 $W diff --engines interp,gpu --gpu-compiler $1 --gpu-opt-level $2 $f 2>&1 | grep -v "^warpdiff: using" | head -3
  echo "rc ${PIPESTATUS[0]}"
done > $R/n24-y11-h200.txt 2>&1
cat $R/n24-y11-h200.txt
(cd $D/llvmvote && ptxas -arch=sm_90 -O3 vote-imm.ptx -o /tmp/vote-imm.cubin; echo "ptxas vote-imm.ptx: exit $?") > $R/llvm-vote-imm-h200.txt 2>&1
cat $R/llvm-vote-imm-h200.txt
# The two engine-failed findings of the -O3 hunt (class unknown: a compile helper died, the case
# alone compiles): the emitted module through ptxas -O3 100 times, the case through the driver's
# JIT at -O3 20 times; how many die.
for f in $D/flaky/engine-failed-*.ptx; do
  [ "${f%.module.ptx}" != "$f" ] && continue
  b=$(basename $f .ptx); m=$D/flaky/$b.module.ptx
  n=0; for i in $(seq 100); do timeout 30 ptxas -arch=sm_90 -O3 $m -o /tmp/fl.cubin 2>/dev/null || n=$((n+1)); done
  echo "$b: ptxas -O3 on the emitted module: $n of 100 failed"
  n=0; for i in $(seq 20); do timeout 30 $W diff --engines interp,gpu --gpu-opt-level 3 $f > /tmp/fl.out 2>&1 || n=$((n+1)); done
  echo "$b: warpdiff diff --gpu-opt-level 3: $n of 20 failed"; tail -2 /tmp/fl.out
done > $R/flaky-h200.txt 2>&1
cat $R/flaky-h200.txt
if [ -d $D/h30x ]; then
  cd $D/h30x
  for L in 0 1 2 3; do
    echo "== driver JIT -O$L"
    timeout 120 $W diff --engines interp,gpu --gpu-opt-level $L *.ptx 2>&1
  done > $R/h30x-levels-h200.txt
  grep -v "^  " $R/h30x-levels-h200.txt | grep -v " = gpu" | cut -c1-140 | head -50
  cd $D/..
fi
mkdir -p /tmp/h4/corpus
timeout 260 $W fuzz --engines interp,jit,gpu --avoid all --keep-going --seconds 200 --seed 0x3902 \
  --corpus /tmp/h4/corpus > /tmp/h4/out 2> /tmp/h4/err < /dev/null
echo "rc $?" >> /tmp/h4/out
cat /tmp/h4/out > $R/hunt-default-200-h200.out; grep -v '^\[' /tmp/h4/err >> $R/hunt-default-200-h200.out
grep -E "^verdict" /tmp/h4/out | cut -c1-300
cp -r /tmp/h4/corpus $R/found-default
cd /tmp && tar czf $OUT/s9b.tgz s9b
