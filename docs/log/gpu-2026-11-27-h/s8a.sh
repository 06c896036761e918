#!/bin/bash
# Session 8, call 1 (one GPU): the reproducers of four leads for new bugs (devrun/repro8/*/build.sh,
# every level and ptxas -O0/-O3 cubins), their variants at every level of the driver's JIT
# (devrun/exp8/*.ptx: which change makes each divergence go away), the N1 and N4 kernels' SASS at
# ptxas -O1 and -O2 (N1 against N4), then a 5-minute -O0 run (engines interp,jit,gpu).
set -u
D=$(cd "$(dirname "$0")" && pwd); cd "$D/.."
W=$D/warpdiff
R=$OUT
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee $R/host.txt
ptxas --version | tail -1 | tee -a $R/host.txt
nproc | tee -a $R/host.txt
for d in $D/repro8/*/; do
  n=$(basename $d)
  timeout 150 sh $d/build.sh > $R/repro-$n.txt 2>&1
  cp $d/sass-O0.txt $R/repro-$n-sass-O0.txt 2>/dev/null; cp $d/sass-O3.txt $R/repro-$n-sass-O3.txt 2>/dev/null
  echo "== $n"; grep -v "^\s*$" $R/repro-$n.txt | tail -8 | cut -c1-200
done
cd $D/exp8
for L in 0 1 2 3 4; do
  echo "== driver JIT -O$L"
  timeout 60 $W diff --engines interp,gpu --gpu-opt-level $L *.ptx 2>&1
done > $R/exp8-levels.txt
grep -v "^  " $R/exp8-levels.txt | cut -c1-160 | head -150
cd $D/..
mkdir -p /tmp/n14
for n in n1-loop-write-hoisted n4-one-sided-write; do
  for o in 1 2; do
    ptxas -arch=sm_90 -O$o corpus/repro/$n/kernel.ptx -o /tmp/n14/$n-O$o.cubin && cuobjdump -sass /tmp/n14/$n-O$o.cubin > $R/$n-sass-O$o.txt
  done
done
mkdir -p /tmp/o0/corpus
timeout 330 $W fuzz --engines interp,jit,gpu --gpu-opt-level 0 --keep-going --seconds 300 --seed 0x3801 \
  --corpus /tmp/o0/corpus > /tmp/o0/out 2> /tmp/o0/err < /dev/null
echo "rc $?" >> /tmp/o0/out
cat /tmp/o0/out > $R/o0-300.out; grep -v '^\[' /tmp/o0/err >> $R/o0-300.out
grep -E "^  |^verdict|GPU" /tmp/o0/out | cut -c1-300 | tail -40
cd /tmp && tar czf $R/s8a.tgz o0/corpus
