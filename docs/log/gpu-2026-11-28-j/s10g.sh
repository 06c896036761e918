#!/bin/bash
# Session 10, call 7: N26's last variants (devrun/n26new: the rewrite from an input, from a
# never-written register, or with the never-written predicate given, each without the sqrt; mov.pred
# and selp with the input rewrite) through the linker and whole-program at -O3; the committed N26
# reproducer's build.sh; and the unknown findings' level sweep again through helpers (`warpdiff repro
# --gpu-sweep --gpu-helpers`: the fixed sweep, where a compiler that dies counts as failing).
set -u
D=$(cd "$(dirname "$0")" && pwd); cd "$D/.."
W=$D/warpdiff
R=/tmp/s10g; rm -rf $R; mkdir -p $R
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee $R/host.txt
for L in 1 3; do
  echo "== the driver's linker (helpers), -O$L"
  timeout 100 $W diff --engines interp,gpu --gpu-helpers --gpu-opt-level $L $D/n26new/*.ptx 2>&1 | grep -v "^warpdiff: using" | grep -v "^  %.* lane \([4-9]\|[1-3][0-9]\):"
  echo "== whole program (in-process), -O$L"
  timeout 100 $W diff --engines interp,gpu --gpu-opt-level $L $D/n26new/*.ptx 2>&1 | grep -v "^warpdiff: using" | grep -v "^  %.* lane \([4-9]\|[1-3][0-9]\):"
done > $R/n26-last-variants.txt 2>&1
grep -v "^  " $R/n26-last-variants.txt | sed "s#$D/##"
timeout 200 sh $D/repro-n26/build.sh > $R/repro-n26-h200.txt 2>&1; echo "exit $?" >> $R/repro-n26-h200.txt
mkdir -p $R/repro-n26; cp $D/repro-n26/sass-*.txt $R/repro-n26/
grep -v "^  %" $R/repro-n26-h200.txt | tail -13
for f in $D/resweep/*.ptx; do
  b=$(basename $f .ptx); L=${b%%--*}; [ $L = default ] && L=default
  echo "== $b (hunt level -O$L)"
  timeout 200 $W repro $f -o /tmp/rs-$b --gpu-sweep --gpu-helpers --force 2>&1 | grep -v "^warpdiff: using\|^wrote"
done > $R/resweep.txt 2>&1
cat $R/resweep.txt
cd /tmp && tar czf $OUT/s10g.tgz s10g
