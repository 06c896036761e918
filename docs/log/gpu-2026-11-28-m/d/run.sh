#!/bin/bash
# Session 13, call d (H200, < 9 min): SP's variants with the found case's 31 declared registers
# (sp4/) through the driver's linker at -O0, -O1, -O3; then a 280-s hunt at the driver's default
# level, --avoid all (every detector of this session's HEAD), seed 0x3d03. Back in $OUT/s13d.tgz.
set -u
D=$(cd "$(dirname "$0")" && pwd)
W=$D/warpdiff
R=/tmp/s13d; rm -rf $R; mkdir -p $R/found
{ nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; nproc; ptxas --version | tail -1; date -u; } > $R/host.txt 2>&1
for L in 0 1 3; do
  echo "== the driver's linker (helpers), -O$L"
  ( cd $D/sp4 && timeout 60 $W diff --engines interp,gpu --gpu-helpers --gpu-opt-level $L *.ptx.txt ) 2>&1 < /dev/null
  echo "rc $?"
done > $R/sp4-levels.txt
timeout 400 $W fuzz --engines interp,jit,gpu --avoid all --keep-going --seconds 280 \
  --seed 0x3d03 --corpus $R/found > $R/hunt.out 2> $R/hunt.err < /dev/null
echo "rc $?" >> $R/hunt.out
grep -v '^\[' $R/hunt.err > $R/hunt-stderr.txt; rm -f $R/hunt.err
grep -H "^// \(class\|batch\|retry\|known\)" $R/found/*.ptx > $R/summary.txt 2>/dev/null
grep -h "^// class" $R/found/*.ptx 2>/dev/null | cut -c1-70 | sort | uniq -c >> $R/summary.txt
echo "elapsed $SECONDS s" >> $R/host.txt
cat $R/host.txt; grep -E "^(sp4|==|rc)" $R/sp4-levels.txt
grep "^verdict\|known bugs\|programs" $R/hunt.out | cut -c1-300; tail -6 $R/summary.txt | cut -c1-200
cd /tmp && tar czf $OUT/s13d.tgz s13d
