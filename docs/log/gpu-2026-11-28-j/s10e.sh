#!/bin/bash
# Session 10, call 5: do the findings that agree alone read never-written registers? Each case's
# reproducer (devrun/dirty/NAME, `warpdiff repro`, its hunt's level in LEVEL) runs whole-program
# (-O L) and through the driver's linker (--link -O L), each plain and after filling every SM's
# registers with values from seeds 1..6 (--dirty SEED).
set -u
D=$(cd "$(dirname "$0")" && pwd)
R=/tmp/s10e; rm -rf $R; mkdir -p $R
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee $R/host.txt
for d in $D/dirty/*/; do
  n=$(basename $d); L=$(cat $d/LEVEL)
  (cd $d && nvcc -o repro repro.cu -lcuda > /dev/null 2>&1) || { echo "$n: nvcc failed"; continue; }
  for mode in "" "--link"; do
    for s in none 1 2 3 4 5 6 0 0xffffffff; do
      if [ $s = none ]; then a=""; else a="--dirty $s"; fi
      out=$(cd $d && timeout 20 ./repro $mode -O $L $a 2>&1); rc=$?
      echo "$n ${mode:-whole} -O$L dirty=$s: rc $rc $(echo "$out" | head -1 | cut -c1-120) [$(echo "$out" | grep -c 'lane')] lanes"
      echo "$out" > $R/$n${mode}-$s.txt
    done
  done
done > $R/dirty.txt 2>&1
cat $R/dirty.txt
cd /tmp && tar czf $OUT/s10e.tgz s10e
