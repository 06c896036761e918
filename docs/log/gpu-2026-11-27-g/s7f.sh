#!/bin/bash
# Session 7, call 6 (one H100): call 3's -O0 run again (same seed, engines interp,jit,gpu), 200 s, with
# the 64-bit bfind rule in the reference and the compile helpers on every core.
set -u
D=$(cd "$(dirname "$0")" && pwd); cd "$D/.."
W=$D/warpdiff
R=$OUT
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee $R/host.txt
mkdir -p /tmp/o0/corpus
timeout 240 $W fuzz --engines interp,jit,gpu --gpu-opt-level 0 --keep-going --seconds 200 --seed 0x3709 \
  --corpus /tmp/o0/corpus > /tmp/o0/out 2> /tmp/o0/err < /dev/null
echo "rc $?" >> /tmp/o0/out
cat /tmp/o0/out > $R/o0-200.out; grep -v '^\[' /tmp/o0/err >> $R/o0-200.out
grep -E "^  |^verdict" /tmp/o0/out | cut -c1-300
cd /tmp && tar czf $R/s7f.tgz o0/corpus
