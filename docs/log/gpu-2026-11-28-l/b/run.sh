#!/bin/bash
# Session 12, call b: the two findings that need their batch (session 11), each minimal batch with its
# diverged case (case 8) changed at the 64-bit bfind of a never-written register: as is (A0), the bfind
# removed (A1), its source given 0 (A2) or 0xffffffff00000000 (A3) by a mov first, or a per-lane input
# with the high word's sign alternating (A4). Three runs at -O3 and one at -O0 through the linker.
D=$(cd "$(dirname "$0")" && pwd); cd $D
for f in am-A0-asis am-A1-no-bfind am-A2-zero am-A3-neg am-A4-lanes ma-A0-asis ma-A1-no-bfind ma-A2-zero ma-A3-neg ma-A4-lanes; do
  for run in O3-1 O3-2 O3-3 O0-1; do
    L=${run:1:1}
    r=$(timeout 30 ./warpdiff diff --gpu-batch-file $f.batch.txt --gpu-helpers --gpu-opt-level $L 2>&1 | grep -E "case 8|differ from" | tr '\n' ' ')
    echo "$f -$run: $r"
  done
done
