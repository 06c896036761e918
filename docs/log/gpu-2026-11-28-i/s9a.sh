#!/bin/bash
# Session 9, call 1 (an H100 wanted): N24's reproducer (build.sh, a PTX compiler crash on
# match.all.sync with a register mask whose predicate guards an exit); more N24 variants (devrun/n24v)
# through the driver's JIT at -O0/-O1/-O3 and ptxas -O3; the j4 lead's variants (devrun/j4v: two
# 64-bit cnots into cvt.rmi.u8.f64) at -O0..-O3; then a 240-s hunt at -O3 with --avoid all.
set -u
D=$(cd "$(dirname "$0")" && pwd); cd "$D/.."
W=$D/warpdiff
R=/tmp/s9a; rm -rf $R; mkdir -p $R
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee $R/host.txt
nproc >> $R/host.txt
N=corpus/repro/n24-match-all-register-mask-exit-crashes
timeout 200 sh $N/build.sh > $R/n24-h100.txt 2>&1; echo "exit $?" >> $R/n24-h100.txt
cp $N/sass-O0.txt $R/n24-sass-O0.txt 2>/dev/null
grep -v "^\s*$" $R/n24-h100.txt | tail -16
for f in $D/n24v/*.ptx; do
  for c in "driver 0" "driver 1" "driver 3" "ptxas 3"; do
    set -- $c
    echo "== $(basename $f) --gpu-compiler $1 --gpu-opt-level $2"
    timeout 60 $W diff --engines interp,gpu --gpu-compiler $1 --gpu-opt-level $2 $f 2>&1 | grep -v "^warpdiff: using" | head -3
    echo "rc ${PIPESTATUS[0]}"
  done
done > $R/n24-variants-h100.txt 2>&1
grep -B1 "^rc [1-9]" $R/n24-variants-h100.txt | grep "^==" | cut -c1-120
cd $D/j4v
for L in 0 1 2 3; do
  echo "== driver JIT -O$L"
  timeout 90 $W diff --engines interp,gpu --gpu-opt-level $L *.ptx 2>&1
done > $R/j4-levels-h100.txt
grep -v "^  " $R/j4-levels-h100.txt | grep -v " = gpu" | cut -c1-140 | head -40
cd $D/..
mkdir -p /tmp/h3/corpus
timeout 300 $W fuzz --engines interp,jit,gpu --gpu-opt-level 3 --avoid all --keep-going --seconds 240 --seed 0x3901 \
  --corpus /tmp/h3/corpus > /tmp/h3/out 2> /tmp/h3/err < /dev/null
echo "rc $?" >> /tmp/h3/out
cat /tmp/h3/out > $R/hunt-O3-240-h100.out; grep -v '^\[' /tmp/h3/err >> $R/hunt-O3-240-h100.out
grep -E "^  |^verdict|divergen" /tmp/h3/out | cut -c1-300 | tail -14
cp -r /tmp/h3/corpus $R/found-O3
cd /tmp && tar czf $OUT/s9a.tgz s9a
