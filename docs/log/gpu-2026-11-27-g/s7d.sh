#!/bin/bash
# Session 7, call 4: does a 64-bit bfind branch inside at -O0? The SASS of one kernel per 64-bit op at
# ptxas -O0 and -O3 (branches counted), then the -O0 divergence activemask-8fc84166 as a standalone
# reproducer (warpdiff repro), run at every level.
set -u
D=$(cd "$(dirname "$0")" && pwd); cd "$D/bfind"
R=$OUT
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee $R/host.txt
for o in 0 3; do
  ptxas -arch=sm_90 -O$o ops64.ptx -o ops64-O$o.cubin && cuobjdump -sass ops64-O$o.cubin > $R/ops64-O$o.sass
  awk '/Function :/{f=$3} /BRA|BSSY|BSYNC|WARPSYNC/{n[f]++} END{for(k in n) print k, n[k]}' $R/ops64-O$o.sass | sort > $R/branches-O$o.txt
  echo "== -O$o branch-like SASS per kernel"; cat $R/branches-O$o.txt
done
cp -r repro /tmp/rc
cd /tmp/rc && timeout 150 sh build.sh > $R/case-build.txt 2>&1; tail -12 $R/case-build.txt
cp /tmp/rc/sass-O0.txt $R/case-sass-O0.txt 2>/dev/null
