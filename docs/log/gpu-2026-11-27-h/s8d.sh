#!/bin/bash
# Session 8, call 4 (an H200 wanted): four more leads among session 6's found cases that no
# detector explains (abs.f32 of a guarded -0.0; cnot into narrow or float conversions; a narrow
# cvt's upper half from a later guarded shl's immediate; shfl.idx of a register one guard wrote),
# with variants at every level of the driver's JIT (devrun/exp8c); the abs lead's reproducer; then a
# 240-s hunt at -O2 with --avoid all (binary with the reducer that keeps avoided idioms out).
set -u
D=$(cd "$(dirname "$0")" && pwd); cd "$D/.."
W=$D/warpdiff
R=/tmp/s8d; rm -rf $R; mkdir -p $R
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee $R/host.txt
for d in $D/repro8c/*/; do
  n=$(basename $d)
  timeout 120 sh $d/build.sh > $d/transcript.txt 2>&1; echo "rc $?" >> $d/transcript.txt
  echo "== $n"; grep -v "^\s*$" $d/transcript.txt | grep -v "^  %" | tail -9 | cut -c1-200
done
cd $D/exp8c
for L in 0 1 2 3 4; do
  echo "== driver JIT -O$L"
  timeout 90 $W diff --engines interp,gpu --gpu-opt-level $L *.ptx 2>&1
done > $R/exp8c-levels.txt
grep -v "^  " $R/exp8c-levels.txt | cut -c1-160 | grep -v " = gpu" | head -60
cd $D/..
mkdir -p /tmp/h2/corpus
timeout 280 $W fuzz --engines interp,jit,gpu --gpu-opt-level 2 --avoid all --keep-going --seconds 240 --seed 0x3803 \
  --corpus /tmp/h2/corpus > /tmp/h2/out 2> /tmp/h2/err < /dev/null
echo "rc $?" >> /tmp/h2/out
cat /tmp/h2/out > $R/hunt-O2-240.out; grep -v '^\[' /tmp/h2/err >> $R/hunt-O2-240.out
grep -E "^  |^verdict" /tmp/h2/out | cut -c1-300 | tail -12
cp -r /tmp/h2/corpus $R/hunt-O2-corpus
cd $D && tar czf $OUT/s8d.tgz repro8c -C /tmp s8d
