#!/bin/bash
# Session 12, call g: the two unknowns with N30's shape that the 8 mates did not make fail, after
# every case that ran before N30's findings in their whole kept batches (AM: 118 mates, MA: 61).
D=$(cd "$(dirname "$0")" && pwd); cd $D
for u in u56384f2b u927061b4; do
  for m in AM MA; do
    for v in "" -nobfind; do
      for L in 1 3; do
        r=$(timeout 60 ./warpdiff diff --gpu-batch-file $u$v-$m.batch.txt --gpu-helpers --gpu-opt-level $L 2>&1 | grep -E "diverged\): |differ from|rror" | sed 's/^[^:]*: //' | tr '\n' ' ')
        echo "$u$v after $m -O$L: $r"
      done
    done
  done
done
