#!/bin/bash
# Session 8, call 3 (an H100): the driver-JIT -O0 crash of call 1 (engine-failed-1613932f): the found
# program and six variants, each alone at -O0 and -O1 through the driver's JIT and at -O0 through
# ptxas; the two -O0 reproducers (the crash, the guarded activemask) on the H100.
set -u
D=$(cd "$(dirname "$0")" && pwd); cd "$D/.."
W=$D/warpdiff
R=/tmp/s8c; rm -rf $R; mkdir -p $R
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee $R/host.txt
ptxas --version | tail -1 | tee -a $R/host.txt
for f in $D/crash/x*.ptx; do
  for c in "driver 0" "driver 1" "ptxas 0"; do
    set -- $c
    echo "== $(basename $f) --gpu-compiler $1 --gpu-opt-level $2"
    timeout 60 $W diff --engines interp,gpu --gpu-compiler $1 --gpu-opt-level $2 $f 2>&1 | grep -v "^warpdiff: using" | head -4
    echo "rc ${PIPESTATUS[0]}"
  done
done 2>&1 | tee $R/crash-variants.txt
for d in $D/repro8b/*/; do
  n=$(basename $d)
  timeout 120 sh $d/build.sh > $d/transcript-h100.txt 2>&1; echo "rc $?" >> $d/transcript-h100.txt
  echo "== $n"; grep -v "^\s*$" $d/transcript-h100.txt | grep -v "^  %" | tail -9 | cut -c1-200
done
cd $D && tar czf $OUT/s8c.tgz repro8b -C /tmp s8c
