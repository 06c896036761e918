#!/bin/bash
# Session 8, call 7 (one GPU): two compile-helper deaths of the hunts (engine-failed-30bca45c at -O2,
# -792bd400 at -O1: a never-executed match.all.sync whose predicate guards an exit, then a collective),
# each with variants, alone through the driver at -O0/-O1/-O3 and through ptxas at -O3.
set -u
D=$(cd "$(dirname "$0")" && pwd); cd "$D/.."
W=$D/warpdiff
R=/tmp/s8g; rm -rf $R; mkdir -p $R
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee $R/host.txt
for f in $D/crash2/*.ptx; do
  for c in "driver 0" "driver 1" "driver 3" "ptxas 3"; do
    set -- $c
    echo "== $(basename $f) --gpu-compiler $1 --gpu-opt-level $2"
    timeout 60 $W diff --engines interp,gpu --gpu-compiler $1 --gpu-opt-level $2 $f 2>&1 | grep -v "^warpdiff: using" | head -3
    echo "rc ${PIPESTATUS[0]}"
  done
done 2>&1 | tee $R/crash2-variants.txt | grep -B1 "^rc [1-9]" | head -60
cd /tmp && tar czf $OUT/s8g.tgz s8g
