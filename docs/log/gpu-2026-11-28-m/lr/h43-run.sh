#!/bin/bash
# H43 (session 13, issue #35): N31 (LR) on one H200. Runs in the repo root of a copy of the tree;
# everything it needs is in devrun/h43/ (git-ignored): `warpdiff` (release build of branch h43),
# `levels.py` (docs/log/gpu-2026-11-28-l/triage/tools/levels.py), `lr/` (the reproducer,
# corpus/repro/lr-guard-read-after-loop-rewrite/), `experiments/` (the variants and controls with
# PREDICT.txt: docs/log/gpu-2026-11-28-m/lr/experiments/ and four of the earlier logs' LR rows).
# 1. the reproducer's build.sh > h200.txt (whole program and the driver's JIT linker, -O0..-O4),
#    plus `ptxas -arch=sm_90 -O1 -c kernel.ptx` and its SASS (sass-O1-c.txt; build.sh writes
#    sass-O0.txt, sass-O3.txt, sass-O3-c.txt);
# 2. the variants through the driver's JIT linker (compile helpers, as the hunts) at -O0, -O1, -O3,
#    one `warpdiff diff` call per level, and their table (levels.py against PREDICT.txt).
# Everything lands in $OUT/lr/. (Committed as docs/log/gpu-2026-11-28-m/lr/h43-run.sh; make-devrun.sh
# beside it fills devrun/h43/.) Expected time: about 60 s (each step bounded: at most 5 min).
set -u
D=$(cd "$(dirname "$0")" && pwd)
R=$OUT/lr; mkdir -p $R
START=$(date +%s)
{ nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; nproc; date -u; ptxas --version | tail -1; } > $R/host.txt 2>&1
( cd $D/lr && timeout 150 sh build.sh > h200.txt 2>&1; echo "build.sh rc $?" >> $R/host.txt
  timeout 30 ptxas -arch=sm_90 -O1 -c kernel.ptx -o kernel-O1-c.cubin \
    && cuobjdump -sass kernel-O1-c.cubin > sass-O1-c.txt; echo "ptxas -O1 -c rc $?" >> $R/host.txt
  cp h200.txt sass-*.txt $R/ )
echo "reproducer done at $(( $(date +%s) - START )) s" >> $R/host.txt
cd $D/experiments
for L in 0 1 3; do
  o=$R/variants-O$L.txt
  timeout 40 $D/warpdiff diff --engines interp,gpu --gpu-helpers --gpu-opt-level $L *.ptx.txt > $o 2>&1 < /dev/null
  echo "rc $? (timeout 40 s)" >> $o
done
for L in 0 1 3; do
  echo "== the driver's linker (helpers), -O$L"
  grep -v '^rc ' $R/variants-O$L.txt
done > $R/levels.txt
cp PREDICT.txt $R/
python3 $D/levels.py $R/levels.txt PREDICT.txt > $R/table.md 2>&1
echo "elapsed $(( $(date +%s) - START )) s" >> $R/host.txt
cat $R/host.txt; grep -H '^rc' $R/variants-O*.txt; cat $R/table.md
grep -iE 'expected|observed|wrong|right|mismatch' $R/h200.txt | head -40
