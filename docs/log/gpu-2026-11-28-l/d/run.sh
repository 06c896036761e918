#!/bin/bash
# Session 12, call d (H200, < 9 min): a 400-s hunt at -O1 with every known idiom avoided (N30's
# included), seed 0x3c01, the sweep's retries of findings that agree alone; the corpus folder and
# the kept batches come back in $OUT/h12.tgz.
set -u
D=$(cd "$(dirname "$0")" && pwd); cd "$D/../.."
W=$D/warpdiff
R=/tmp/h12; rm -rf $R; mkdir -p $R/found
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader > $R/host.txt 2>&1
nproc >> $R/host.txt
timeout 520 $W fuzz --engines interp,jit,gpu --gpu-opt-level 1 --avoid all --keep-going --seconds 400 \
  --seed 0x3c01 --corpus $R/found > $R/hunt.out 2> $R/hunt.err < /dev/null
echo "rc $?" >> $R/hunt.out
grep -v '^\[' $R/hunt.err > $R/hunt-stderr.txt; rm -f $R/hunt.err
grep -H "^// \(class\|batch\|retry\|known\)" $R/found/*.ptx > $R/summary.txt 2>/dev/null
grep -h "^// class" $R/found/*.ptx 2>/dev/null | cut -c1-70 | sort | uniq -c >> $R/summary.txt
grep "^verdict\|known bugs\|programs" $R/hunt.out | cut -c1-300; tail -20 $R/summary.txt | cut -c1-200
cd /tmp && tar czf $OUT/h12.tgz h12
