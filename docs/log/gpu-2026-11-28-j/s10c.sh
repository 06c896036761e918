#!/bin/bash
# Session 10, call 3: the two bugs of the driver's JIT linker path (a relocatable compile).
# Variants of the wrong value (devrun/n26v, from mov.s32-85bb24ab), of the crash (devrun/n27v, from
# engine-failed-d5bbe419) and of the activemask case (devrun/amv, activemask-d5f5fc3a) at -O0..-O3 and
# the default level through compile helpers (--gpu-helpers: the linker), and at -O3 in-process (the
# whole-program compile); the reproducers' build.sh (devrun/repro10); then a 150-s hunt at the
# default level with --avoid all, whose level sweep now compiles through helpers too.
set -u
D=$(cd "$(dirname "$0")" && pwd); cd "$D/.."
W=$D/warpdiff
R=/tmp/s10c; rm -rf $R; mkdir -p $R
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee $R/host.txt
nproc >> $R/host.txt; ptxas --version | tail -1 >> $R/host.txt
for v in n26v n27v amv; do
  for L in 0 1 2 3 default; do
    echo "== $v: the driver's linker (helpers), -O$L"
    timeout 150 $W diff --engines interp,gpu --gpu-helpers --gpu-opt-level $L $D/$v/*.ptx 2>&1 | grep -v "^warpdiff: using" | grep -v "^  %.* lane \([4-9]\|[1-3][0-9]\):" | cut -c1-260
  done
  echo "== $v: whole program (in-process), -O3"
  timeout 150 $W diff --engines interp,gpu --gpu-opt-level 3 $D/$v/*.ptx 2>&1 | grep -v "^warpdiff: using" | grep -v "^  %.* lane \([4-9]\|[1-3][0-9]\):" | cut -c1-260
done > $R/variants.txt 2>&1
grep -v "^  " $R/variants.txt | sed "s#$D/##" | cut -c1-160
for n in n26 n27 am; do
  timeout 300 sh $D/repro10/$n/build.sh > $R/repro-$n.txt 2>&1; echo "exit $?" >> $R/repro-$n.txt
  mkdir -p $R/repro-$n; cp $D/repro10/$n/sass-*.txt $R/repro-$n/ 2>/dev/null
  echo "== $n"; grep -v "^  %" $R/repro-$n.txt | tail -14 | cut -c1-200
done
mkdir -p /tmp/h6/corpus
timeout 260 $W fuzz --engines interp,jit,gpu --avoid all --keep-going --seconds 150 --seed 0x3a01 \
  --corpus /tmp/h6/corpus > /tmp/h6/out 2> /tmp/h6/err < /dev/null
echo "rc $?" >> /tmp/h6/out
cat /tmp/h6/out > $R/hunt-default-150.out; grep -v '^\[' /tmp/h6/err >> $R/hunt-default-150.out
grep -E "^verdict" /tmp/h6/out | cut -c1-300
cp -r /tmp/h6/corpus $R/found-default
grep -h "^// class" $R/found-default/*.ptx 2>/dev/null | cut -c1-60 | sort | uniq -c
cd /tmp && tar czf $OUT/s10c.tgz s10c
