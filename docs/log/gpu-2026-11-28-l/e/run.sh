#!/bin/bash
# Session 12, call e: four of the five old `unknown` findings have N30's shape (a 64-bit bfind of a
# never-written register). Each run after N30's two sets of 8 mates (am, ma) as case 8 of a batch,
# as found and with the 64-bit bfind removed, through the linker at -O1 and -O3 (as found also at
# -O0), and alone.
D=$(cd "$(dirname "$0")" && pwd); cd $D
for u in u56384f2b u927061b4 u0506119a u8cdefcfb; do
  for m in am ma; do
    for v in "" -nobfind; do
      for L in 1 3; do
        r=$(timeout 40 ./warpdiff diff --gpu-batch-file $u$v-$m.batch.txt --gpu-helpers --gpu-opt-level $L 2>&1 | grep -E "^[^ ]*: case 8|differ from|rror" | sed 's/^[^:]*: //' | tr '\n' ' ')
        echo "$u$v after $m -O$L: $r"
      done
    done
    r=$(timeout 40 ./warpdiff diff --gpu-batch-file $u-$m.batch.txt --gpu-helpers --gpu-opt-level 0 2>&1 | grep -E "^[^ ]*: case 8|differ from|rror" | sed 's/^[^:]*: //' | tr '\n' ' ')
    echo "$u after $m -O0: $r"
  done
  for L in 1 3; do
    r=$(timeout 40 ./warpdiff diff --engines interp,gpu --gpu-helpers --gpu-opt-level $L $u.ptx 2>&1 | grep -v "^warpdiff: using" | head -2 | tr '\n' ' ')
    echo "$u alone -O$L: $r"
  done
done
