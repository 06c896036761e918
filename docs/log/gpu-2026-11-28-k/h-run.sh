#!/bin/bash
# Session 11, call h: the two cases that need their batch, alone, with the never-written register
# given from an input (%p0 of activemask-9ac0fd8e: 0, 1, alternating, lanes 0-15; %r0 of
# match.all.sync.b32-1087411f: 0, 0x80000000, per lane), through the linker at -O3 and -O0.
D=$(cd "$(dirname "$0")" && pwd); R=/tmp/s11h; rm -rf $R; mkdir -p $R
cd $D
for L in 3 0; do
  echo "== linker -O$L"
  timeout 90 ./warpdiff diff --engines interp,gpu --gpu-helpers --gpu-opt-level $L *.ptx 2>&1 | grep -v "^warpdiff: using" | grep -v "^  %.* lane \([4-9]\|[1-3][0-9]\):"
done > $R/levels.txt 2>&1
cat $R/levels.txt | cut -c1-160
cp *.ptx $R/; cd /tmp && tar czf $OUT/s11h.tgz s11h
