#!/bin/bash
# Session 10, call 6: N26's variants (devrun/n26r/NAME: `warpdiff repro` of devrun/n26v) through the
# driver's linker and whole-program at -O3, fresh and after filling the registers (--dirty 1, 2, 0),
# and each kernel's SASS from `ptxas -O3 -c` and `ptxas -O3`.
set -u
D=$(cd "$(dirname "$0")" && pwd)
R=/tmp/s10f; rm -rf $R; mkdir -p $R
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee $R/host.txt
for d in $D/n26r/*/; do
  n=$(basename $d)
  (cd $d && nvcc -o repro repro.cu -lcuda > /dev/null 2>&1) || { echo "$n: nvcc failed"; continue; }
  ptxas -arch=sm_90 -O3 -c $d/kernel.ptx -o $R/$n-c.cubin && cuobjdump -sass $R/$n-c.cubin > $R/$n-O3-c.sass
  ptxas -arch=sm_90 -O3 $d/kernel.ptx -o $R/$n.cubin && cuobjdump -sass $R/$n.cubin > $R/$n-O3.sass
  for mode in "" "--link"; do
    line="$n ${mode:-whole}:"
    for s in none 1 2 0; do
      if [ $s = none ]; then a=""; else a="--dirty $s"; fi
      out=$(cd $d && timeout 20 ./repro $mode -O 3 $a 2>&1)
      case "$out" in *DIFFERS*) r=D;; *agrees*) r=a;; *) r="?";; esac
      line="$line $s=$r"
    done
    echo "$line"
  done
done > $R/n26-dirty.txt 2>&1
cat $R/n26-dirty.txt
rm -f $R/*.cubin
cd /tmp && tar czf $OUT/s10f.tgz s10f
