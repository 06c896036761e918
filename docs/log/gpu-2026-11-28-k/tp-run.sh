#!/bin/bash
# Session 11, call e part 1: the transpose with its four input rows' loads issued first (hoist.ptx,
# the same bytes out) against nvcc's order, in turn, four processes each, one thread, 1M.
D=$(cd "$(dirname "$0")" && pwd); ROOT=$(cd "$D/../.." && pwd)
mkdir -p /tmp/s11e
for i in 1 2 3 4; do
  for f in $ROOT/corpus/kernels/nvcc/transpose.ptx $D/hoist.ptx; do $D/tprobe $f 1024 300 | sed "s#$ROOT/##"; done
done > /tmp/s11e/hoist.txt 2>&1
cat /tmp/s11e/hoist.txt
