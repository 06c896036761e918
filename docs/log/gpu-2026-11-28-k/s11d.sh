#!/bin/bash
# Session 11, call 4 (H200): the two batches that H34's in-run retries reproduced 3 of 3 times at
# -O3 ("needs its batch") but one replay by hand did not: replayed by hand at -O3 through helpers,
# three times each with the GPU otherwise idle, then three times each while another warpdiff fuzz
# (GPU only, -O3, another seed) keeps the same GPU busy.
set -u
D=$(cd "$(dirname "$0")" && pwd); cd "$D/.."
W=$D/h34/warpdiff
R=/tmp/s11d; rm -rf $R; mkdir -p $R
rep() { # $1 label
  for f in $D/bf/*.batch.txt; do
    b=$(basename $f .batch.txt)
    for i in 1 2 3; do
      timeout 60 $W diff --gpu-batch-file $f --gpu-helpers --gpu-opt-level 3 > $R/$1-$b-$i.txt 2>&1
      echo "$1 $b #$i: rc $? $(grep 'the case that diverged' $R/$1-$b-$i.txt | sed 's#.*: case#case#') | $(tail -1 $R/$1-$b-$i.txt | sed 's#.*txt: ##')"
    done
  done
}
rep idle | tee $R/summary.txt
mkdir -p /tmp/bg
timeout 200 $W fuzz --engines interp,gpu --gpu-opt-level 3 --avoid all --keep-going --seconds 150 --seed 0x5e11 --corpus /tmp/bg > $R/bg.out 2>&1 < /dev/null &
sleep 25
rep busy | tee -a $R/summary.txt
wait
grep "^verdict" $R/bg.out | cut -c1-200 | tee -a $R/summary.txt
cd /tmp && tar czf $OUT/s11d.tgz s11d
