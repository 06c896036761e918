#!/bin/bash
# Session 13, call b (H200, < 10 min): the LC, XZ and NZ follow-up variants through the driver's
# linker at -O0, -O1, -O3; the LC reproducer's build.sh (+ ptxas -c at -O1/-O3, whose exit status
# says whether ptxas itself dies); then a 300-s hunt at -O2, --avoid all (NZ's and LC's detectors
# included), seed 0x3d02. Everything comes back in $OUT/s13b.tgz.
set -u
D=$(cd "$(dirname "$0")" && pwd)
W=$D/warpdiff
R=/tmp/s13b; rm -rf $R; mkdir -p $R/found $R/repro-lc
{ nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; nproc; ptxas --version | tail -1; date -u; } > $R/host.txt 2>&1
for g in lc xz nz2; do
  for L in 0 1 3; do
    echo "== the driver's linker (helpers), -O$L"
    ( cd $D/$g && timeout 60 $W diff --engines interp,gpu --gpu-helpers --gpu-opt-level $L *.ptx.txt ) 2>&1 < /dev/null
    echo "rc $?"
  done > $R/$g-levels.txt
done
cd $D/repro-lc && { timeout 150 ./build.sh; echo "rc $?"; } > h200.txt 2>&1
for o in 1 3; do timeout 60 ptxas -arch=sm_90 -O$o -c kernel.ptx -o k-O$o-c.cubin; echo "ptxas -O$o -c: exit $?"; done > ptxas-c.txt 2>&1
cp h200.txt ptxas-c.txt sass-*.txt $R/repro-lc/ 2>/dev/null
cd $D
timeout 420 $W fuzz --engines interp,jit,gpu --gpu-opt-level 2 --avoid all --keep-going --seconds 300 \
  --seed 0x3d02 --corpus $R/found > $R/hunt.out 2> $R/hunt.err < /dev/null
echo "rc $?" >> $R/hunt.out
grep -v '^\[' $R/hunt.err > $R/hunt-stderr.txt; rm -f $R/hunt.err
grep -H "^// \(class\|batch\|retry\|known\)" $R/found/*.ptx > $R/summary.txt 2>/dev/null
grep -h "^// class" $R/found/*.ptx 2>/dev/null | cut -c1-70 | sort | uniq -c >> $R/summary.txt
echo "elapsed $SECONDS s" >> $R/host.txt
cat $R/host.txt; grep -h "^nz\|^lc\|^xz\|^rc\|^==" $R/*-levels.txt | cut -c1-120; grep -v "^  %" $R/repro-lc/h200.txt | head -30; cat $R/repro-lc/ptxas-c.txt
grep "^verdict\|known bugs\|programs" $R/hunt.out | cut -c1-300; tail -8 $R/summary.txt | cut -c1-200
cd /tmp && tar czf $OUT/s13b.tgz s13b
