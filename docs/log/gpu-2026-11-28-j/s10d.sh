#!/bin/bash
# Session 10, call 4: N27's second round of variants (devrun/n27w: the found crash cases, whose
# source predicates were never written, changed one part at a time) and N26's (devrun/n26v v11-v15)
# through compile helpers (the driver's linker) at -O0..-O3 and the default level; the reproducers
# (devrun/repro10, written by the generator that runs `--link` too); a 150-s hunt at -O3 with
# --avoid all (the level sweep through helpers).
set -u
D=$(cd "$(dirname "$0")" && pwd); cd "$D/.."
W=$D/warpdiff
R=/tmp/s10d; rm -rf $R; mkdir -p $R
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee $R/host.txt
nproc >> $R/host.txt; ptxas --version | tail -1 >> $R/host.txt
for v in n27w n26v; do
  for L in 0 1 2 3 default; do
    echo "== $v: the driver's linker (helpers), -O$L"
    timeout 150 $W diff --engines interp,gpu --gpu-helpers --gpu-opt-level $L $D/$v/*.ptx 2>&1 | grep -v "^warpdiff: using" | grep -v "^  %.* lane \([4-9]\|[1-3][0-9]\):" | cut -c1-260
  done
done > $R/variants.txt 2>&1
grep -v "^  " $R/variants.txt | sed "s#$D/##" | cut -c1-110
for n in n26 n27 n27b am; do
  timeout 300 sh $D/repro10/$n/build.sh > $R/repro-$n.txt 2>&1; echo "exit $?" >> $R/repro-$n.txt
  mkdir -p $R/repro-$n; cp $D/repro10/$n/sass-*.txt $R/repro-$n/ 2>/dev/null
  echo "== $n"; grep -v "^  %" $R/repro-$n.txt | tail -14 | cut -c1-200
done
mkdir -p /tmp/h7/corpus
timeout 260 $W fuzz --engines interp,jit,gpu --gpu-opt-level 3 --avoid all --keep-going --seconds 150 --seed 0x3a02 \
  --corpus /tmp/h7/corpus > /tmp/h7/out 2> /tmp/h7/err < /dev/null
echo "rc $?" >> /tmp/h7/out
cat /tmp/h7/out > $R/hunt-O3-150.out; grep -v '^\[' /tmp/h7/err >> $R/hunt-O3-150.out
grep -E "^verdict" /tmp/h7/out | cut -c1-300
cp -r /tmp/h7/corpus $R/found-O3
grep -h "^// class" $R/found-O3/*.ptx 2>/dev/null | cut -c1-60 | sort | uniq -c
cd /tmp && tar czf $OUT/s10d.tgz s10d
