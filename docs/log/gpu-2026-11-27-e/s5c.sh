#!/bin/bash
# Session 5, call 3, on a 2-GPU host: H20's triage experiments (docs/log/gpu-2026-11-27-e/run.sh,
# about 4 minutes), then --gpus 1 against --gpus 2 again (100 s each, the whole host), with the
# narrowing queue (failures wait instead of being saved un-narrowed).
set -u
D=$(cd "$(dirname "$0")" && pwd); cd "$D/.."
W=$D/warpdiff
R=$OUT; export OUT=/tmp/e
timeout 300 bash docs/log/gpu-2026-11-27-e/run.sh > /tmp/e-run.log 2>&1; echo "run.sh exit $?"
tail -5 /tmp/e-run.log
(cd /tmp && tar czf $R/experiments.tgz e e-run.log)
grep -c . /tmp/e/experiments.txt
for g in 1 2; do
  mkdir -p /tmp/n$g/corpus
  $W fuzz --engines interp,jit,gpu --gpu-opt-level default --keep-going --seconds 100 --seed 0x3520 --gpus $g \
    --corpus /tmp/n$g/corpus > /tmp/n$g/out 2> /tmp/n$g/err < /dev/null
  cat /tmp/n$g/out > $R/multi2-gpus$g.out; grep -v '^\[' /tmp/n$g/err >> $R/multi2-gpus$g.out
  echo "== --gpus $g"; grep -E "^  (GPU [0-9]|all GPUs|balance|known)|^verdict|modules" /tmp/n$g/out | cut -c1-400
done
(cd /tmp && tar czf $R/multi2-corpora.tgz n1/corpus n2/corpus) 2>/dev/null
