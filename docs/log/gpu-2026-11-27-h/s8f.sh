#!/bin/bash
# Session 8, call 6 (an H100): a 240-s hunt at -O1 with --avoid all (every detector, N18-N23 included;
# the reducer keeps avoided idioms out), for the hunt log and the next session's triage.
set -u
D=$(cd "$(dirname "$0")" && pwd); cd "$D/.."
W=$D/warpdiff
R=/tmp/s8f; rm -rf $R; mkdir -p $R
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee $R/host.txt
mkdir -p /tmp/h1/corpus
timeout 300 $W fuzz --engines interp,jit,gpu --gpu-opt-level 1 --avoid all --keep-going --seconds 240 --seed 0x3805 \
  --corpus /tmp/h1/corpus > /tmp/h1/out 2> /tmp/h1/err < /dev/null
echo "rc $?" >> /tmp/h1/out
cat /tmp/h1/out > $R/hunt-O1-240.out; grep -v '^\[' /tmp/h1/err >> $R/hunt-O1-240.out
grep -E "^  |^verdict" /tmp/h1/out | cut -c1-300 | tail -12
cp -r /tmp/h1/corpus $R/hunt-O1-corpus
cd /tmp && tar czf $OUT/s8f.tgz s8f
