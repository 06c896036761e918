#!/bin/bash
# Session 13, call e (H200, < 7 min): the DV variants (a neg.f32's register as a div.rp's divisor)
# through the driver's linker at -O0 to -O3; then a 220-s hunt at -O1, --avoid all, seed 0x3d04.
# Everything comes back in $OUT/s13e.tgz.
set -u
D=$(cd "$(dirname "$0")" && pwd)
W=$D/warpdiff
R=/tmp/s13e; rm -rf $R; mkdir -p $R/found
{ nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; nproc; ptxas --version | tail -1; date -u; } > $R/host.txt 2>&1
for L in 0 1 2 3; do
  echo "== the driver's linker (helpers), -O$L"
  ( cd $D/dv && timeout 50 $W diff --engines interp,gpu --gpu-helpers --gpu-opt-level $L *.ptx.txt ) 2>&1 < /dev/null
  echo "rc $?"
done > $R/dv-levels.txt
timeout 330 $W fuzz --engines interp,jit,gpu --gpu-opt-level 1 --avoid all --keep-going --seconds 220 \
  --seed 0x3d04 --corpus $R/found > $R/hunt.out 2> $R/hunt.err < /dev/null
echo "rc $?" >> $R/hunt.out
grep -v '^\[' $R/hunt.err > $R/hunt-stderr.txt; rm -f $R/hunt.err
grep -H "^// \(class\|batch\|retry\|known\)" $R/found/*.ptx > $R/summary.txt 2>/dev/null
grep -h "^// class" $R/found/*.ptx 2>/dev/null | cut -c1-70 | sort | uniq -c >> $R/summary.txt
echo "elapsed $SECONDS s" >> $R/host.txt
cat $R/host.txt; grep -E "^(dv|==|rc)|lane 0:" $R/dv-levels.txt
grep "^verdict\|known bugs\|programs" $R/hunt.out | cut -c1-300; tail -6 $R/summary.txt | cut -c1-200
cd /tmp && tar czf $OUT/s13e.tgz s13e
