#!/bin/bash
# Session 9, call 5: a 200-s hunt at -O2 with --avoid all, with H30's widened detectors (K5, K1, K2,
# N1, N4, N7, N12, N15) and N24's second form and N25 avoided; compile helpers that die now say how.
set -u
D=$(cd "$(dirname "$0")" && pwd); cd "$D/.."
W=$D/warpdiff
R=/tmp/s9e; rm -rf $R; mkdir -p $R
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee $R/host.txt
mkdir -p /tmp/h5/corpus
timeout 260 $W fuzz --engines interp,jit,gpu --gpu-opt-level 2 --avoid all --keep-going --seconds 200 --seed 0x3903 \
  --corpus /tmp/h5/corpus > /tmp/h5/out 2> /tmp/h5/err < /dev/null
echo "rc $?" >> /tmp/h5/out
cat /tmp/h5/out > $R/hunt-O2-200.out; grep -v '^\[' /tmp/h5/err >> $R/hunt-O2-200.out
grep -E "^verdict|^  all GPUs|hangs .* survived|known bugs" /tmp/h5/out | cut -c1-300
grep -h "^// class:" /tmp/h5/corpus/* | sed 's/;.*//' | sort | uniq -c
grep -h "helper" /tmp/h5/corpus/* | cut -c1-250 | head
cp -r /tmp/h5/corpus $R/found-O2
cd /tmp && tar czf $OUT/s9e.tgz s9e
