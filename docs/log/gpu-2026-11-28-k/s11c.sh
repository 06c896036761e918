#!/bin/bash
# Session 11, call 3 (H200): the transpose with its registers renamed to share places (a state of
# 13 registers instead of 50; the same bytes out) against nvcc's, in turn, five processes each; then
# H34's script (devrun/h34/run.sh: a hand batch replayed, the 150-s -O3 hunt of seed 0x3a02 with
# the sweep's retries, kept batches replayed), with the binary of 3c40634.
set -u
D=$(cd "$(dirname "$0")" && pwd); cd "$D/.."
ROOT=$(pwd)
mkdir -p /tmp/s11c
for i in 1 2 3 4 5; do
  for f in $ROOT/corpus/kernels/nvcc/transpose.ptx $D/tp/compact.ptx; do
    $D/tp/tprobe $f 1024 300 | sed "s#$ROOT/##"
  done
done > /tmp/s11c/compact.txt 2>&1
cat /tmp/s11c/compact.txt
cd /tmp && tar czf $OUT/s11c.tgz s11c
cd $ROOT && bash devrun/h34/run.sh
