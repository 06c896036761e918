#!/bin/bash
# Session 13, call a (H200, < 10 min): NZ's variants through the driver's linker at -O0, -O1, -O3;
# the NZ reproducer's build.sh (+ the -O1 relocatable SASS); then a hunt at -O3, --avoid all,
# seed 0x3d01, 330 s. Everything comes back in $OUT/s13a.tgz.
set -u
D=$(cd "$(dirname "$0")" && pwd)
W=$D/warpdiff
R=/tmp/s13a; rm -rf $R; mkdir -p $R/nz $R/found
{ nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; nproc; ptxas --version | tail -1; date -u; } > $R/host.txt 2>&1
for L in 0 1 3; do
  echo "== the driver's linker (helpers), -O$L"
  ( cd $D/nz && timeout 60 $W diff --engines interp,gpu --gpu-helpers --gpu-opt-level $L nz.*.ptx.txt ) 2>&1 < /dev/null
  echo "rc $?"
done > $R/nz/levels.txt
cd $D/repro-nz && { timeout 150 ./build.sh; echo "rc $?"; } > h200.txt 2>&1
ptxas -arch=sm_90 -O1 -c kernel.ptx -o kernel-O1-c.cubin && cuobjdump -sass kernel-O1-c.cubin > sass-O1-c.txt
mkdir -p $R/repro-nz && cp h200.txt sass-*.txt $R/repro-nz/
cd $D
timeout 470 $W fuzz --engines interp,jit,gpu --gpu-opt-level 3 --avoid all --keep-going --seconds 330 \
  --seed 0x3d01 --corpus $R/found > $R/hunt.out 2> $R/hunt.err < /dev/null
echo "rc $?" >> $R/hunt.out
grep -v '^\[' $R/hunt.err > $R/hunt-stderr.txt; rm -f $R/hunt.err
grep -H "^// \(class\|batch\|retry\|known\)" $R/found/*.ptx > $R/summary.txt 2>/dev/null
grep -h "^// class" $R/found/*.ptx 2>/dev/null | cut -c1-70 | sort | uniq -c >> $R/summary.txt
echo "elapsed $SECONDS s" >> $R/host.txt
cat $R/host.txt; grep -c agree $R/nz/levels.txt; grep "^verdict\|known bugs\|programs" $R/hunt.out | cut -c1-300; tail -12 $R/summary.txt | cut -c1-200
cd /tmp && tar czf $OUT/s13a.tgz s13a
