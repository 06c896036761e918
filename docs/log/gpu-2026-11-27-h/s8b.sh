#!/bin/bash
# Session 8, call 2 (one GPU, an H200 wanted): the four leads' reproducers again (the H200's
# transcripts), the variants that tell the leads apart (devrun/exp8b, every level), the two -O0
# findings of call 1 (a guarded activemask after a deprecated shfl at -O0; a compile helper that died
# on a 10-instruction program at -O0) with their reproducers, SASS and ptxas alone, then a 5-minute
# -O0 run with perturbed schedules. Everything into one tar ($OUT takes few files).
set -u
D=$(cd "$(dirname "$0")" && pwd); cd "$D/.."
W=$D/warpdiff
R=/tmp/s8b; rm -rf $R; mkdir -p $R
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee $R/host.txt
ptxas --version | tail -1 | tee -a $R/host.txt; nproc | tee -a $R/host.txt
for d in $D/repro8/*/ $D/repro8b/*/; do
  n=$(basename $d)
  timeout 120 sh $d/build.sh > $d/transcript-h200.txt 2>&1; echo "rc $?" >> $d/transcript-h200.txt
  echo "== $n"; grep -v "^\s*$" $d/transcript-h200.txt | grep -v "^  %" | tail -9 | cut -c1-200
done
e=$D/repro8b/engine-failed-1613932f
for o in 0 1 3; do
  echo "== ptxas -O$o engine-failed kernel.ptx"; timeout 60 ptxas -arch=sm_90 -O$o $e/kernel.ptx -o /tmp/ef-O$o.cubin; echo "rc $?"
done 2>&1 | tee $R/engine-failed-ptxas.txt
cd $D/exp8b
for L in 0 1 2 3 4; do
  echo "== driver JIT -O$L"
  timeout 60 $W diff --engines interp,gpu --gpu-opt-level $L *.ptx 2>&1
done > $R/exp8b-levels.txt
grep -v "^  " $R/exp8b-levels.txt | cut -c1-160 | grep -v " = gpu" | head -80
cd $D/..
mkdir -p /tmp/pt/corpus
timeout 330 $W fuzz --engines interp,jit,gpu --gpu-opt-level 0 --gpu-perturb 8 --keep-going --seconds 300 --seed 0x3802 \
  --corpus /tmp/pt/corpus > /tmp/pt/out 2> /tmp/pt/err < /dev/null
echo "rc $?" >> /tmp/pt/out
cat /tmp/pt/out > $R/perturb-300.out; grep -v '^\[' /tmp/pt/err >> $R/perturb-300.out
grep -E "^  |^verdict" /tmp/pt/out | cut -c1-300 | tail -12
cp -r /tmp/pt/corpus $R/perturb-corpus
cd $D && tar czf $OUT/s8b.tgz repro8 repro8b -C /tmp s8b
