#!/bin/bash
# Session 7, call 3 (one H100): the hang reproducer's build.sh on an H100 (it had an H200 transcript
# only), then a 5-minute -O0 run on the engines interp,jit,gpu with the schedule triage
# (lower/warpdiff/src/fuzz/schedule.rs): GPU results the spec convergence model allows and that
# agree when run again alone are counted apart, not reported as divergences.
set -u
D=$(cd "$(dirname "$0")" && pwd); cd "$D/.."
W=$D/warpdiff
R=$OUT
{ nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; nproc; } | tee $R/host.txt
cp -r corpus/repro/hang-f7163bc7 /tmp/hang && (cd /tmp/hang && timeout 200 sh build.sh > $R/hang-h100.txt 2>&1; echo "rc $?" >> $R/hang-h100.txt)
grep -E "repro|agree|differ|hang" $R/hang-h100.txt | head -20
mkdir -p /tmp/o0/corpus
timeout 345 $W fuzz --engines interp,jit,gpu --gpu-opt-level 0 --keep-going --seconds 300 --seed 0x3709 \
  --corpus /tmp/o0/corpus > /tmp/o0/out 2> /tmp/o0/err < /dev/null
echo "rc $?" >> /tmp/o0/out
cat /tmp/o0/out > $R/o0-300.out; grep -v '^\[' /tmp/o0/err >> $R/o0-300.out
grep -E "^  |^verdict" /tmp/o0/out | cut -c1-300
cd /tmp && tar czf $R/s7c.tgz o0/corpus
