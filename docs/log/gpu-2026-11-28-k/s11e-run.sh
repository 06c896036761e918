#!/bin/bash
# Session 11, call e (H200, < 6 min): H37's `diff --gpu-batch-file FILE --reduce-batch` on the two
# kept batches that reproduce at -O3 and agree at -O0 and alone (docs/log/gpu-2026-11-28-k/c/found/):
# each reduced at -O3 through the helpers (bound 110 s of tests, then 2 re-checks), then each minimal
# batch replayed by hand 3 times at -O3 and 3 times at -O0. Everything under /tmp/s11e, tarred into
# $OUT/s11e.tgz. Run from the repo root: bash devrun/s11e/run.sh
set -u
D=$(cd "$(dirname "$0")" && pwd)
W=$D/warpdiff
R=/tmp/s11e; rm -rf $R; mkdir -p $R
cp $D/*.batch.txt $R/
T0=$(date +%s)
el() { echo $(( $(date +%s) - T0 )); }
{ nvidia-smi -L; nproc; $W --version; } > $R/host.txt 2>&1
for b in activemask-9ac0fd8e match.all.sync.b32-1087411f; do
  s=$(date +%s)
  timeout 150 $W diff --gpu-batch-file $R/$b.batch.txt --reduce-batch --seconds 110 \
    --gpu-helpers --gpu-opt-level 3 > $R/reduce-$b.txt 2>&1
  rc=$?
  if grep -q 'nothing to reduce' $R/reduce-$b.txt; then
    # The whole batch agreed when cut as every core's compile threads cut it: once more as
    # `diff --gpu-batch-file` cuts it (2 compile threads), which reproduced it 6 of 6.
    echo "reduce $b: whole batch agreed with $(nproc) compile threads; again with 2" | tee -a $R/summary.txt
    mv $R/reduce-$b.txt $R/reduce-$b-all-threads.txt
    timeout 150 $W diff --gpu-batch-file $R/$b.batch.txt --reduce-batch --seconds 100 \
      --gpu-helpers --gpu-opt-level 3 --gpu-compile-threads 2 > $R/reduce-$b.txt 2>&1
    rc=$?
  fi
  echo "reduce $b: rc $rc in $(( $(date +%s) - s )) s | $(grep -E 'reduced to|nothing to reduce|not reduced' $R/reduce-$b.txt | sed 's#^.*batch.txt: ##')" | tee -a $R/summary.txt
  m=$R/$b.min.batch.txt
  if [ ! -f $m ]; then echo "reduce $b: no minimal batch written" | tee -a $R/summary.txt; continue; fi
  grep -E '^// (Reduced|Path|step|STOPPED|Done|Re-checked|Module)' $m | sed "s#^#  $b.min: #" | tee -a $R/summary.txt
  for o in 3 0; do
    for i in 1 2 3; do
      if [ "$(el)" -gt 330 ]; then echo "replay $b.min -O$o #$i: skipped (time)" | tee -a $R/summary.txt; continue; fi
      timeout 20 $W diff --gpu-batch-file $m --gpu-helpers --gpu-opt-level $o > $R/replay-$b-O$o-$i.txt 2>&1
      rc=$?
      echo "replay $b.min -O$o #$i: rc $rc | $(grep 'the case that diverged' $R/replay-$b-O$o-$i.txt | sed 's#^.*batch.txt: ##') | $(tail -1 $R/replay-$b-O$o-$i.txt | sed 's#^.*batch.txt: ##')" | tee -a $R/summary.txt
    done
  done
done
echo "total $(el) s" | tee -a $R/summary.txt
cd /tmp && tar czf $OUT/s11e.tgz s11e
