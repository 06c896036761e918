#!/bin/bash
# Session 10, call 1: the `unknown` class of the hunts (findings that diverged or killed a compile
# helper in the hunt, then agreed at every level when the level sweep ran them alone, in-process).
# The hunt compiles in helper processes (cuLink*) and runs cubins in a runner process; the sweep
# compiles in-process (cuModuleLoadDataEx). Each unknown case (devrun/unk/LEVEL--NAME.ptx) runs at
# its hunt's level: in-process twice, through helpers three times (fresh processes each), with every
# module and cubin dumped; the helpers' SASS against ptxas's for the same PTX. Then the same cases
# through helpers after 40 other findings in one process (helper history), and a 60-s replay of the
# default-level hunt of session 9 (seed 0x3902), whose first two unknowns came at 10.7 and 38.8 s.
set -u
D=$(cd "$(dirname "$0")" && pwd); cd "$D/.."
W=$D/warpdiff
R=/tmp/s10a; rm -rf $R; mkdir -p $R
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee $R/host.txt
nproc >> $R/host.txt; ptxas --version | tail -1 >> $R/host.txt
for f in $D/unk/*.ptx; do
  b=$(basename $f .ptx); L=${b%%--*}; n=${b#*--}
  for i in 1 2; do
    echo "== $n -O$L in-process run $i"
    timeout 60 $W diff --engines interp,gpu --gpu-opt-level $L $f 2>&1 | grep -v "^warpdiff: using" | head -4 | cut -c1-300
  done
  for i in 1 2 3; do
    mkdir -p $R/dump/$n/h$i
    echo "== $n -O$L helpers run $i"
    timeout 90 $W diff --engines interp,gpu --gpu-helpers --gpu-opt-level $L --gpu-dump $R/dump/$n/h$i $f 2>&1 | grep -v "^warpdiff: using" | head -4 | cut -c1-300
  done
  P=$L; [ "$L" = default ] && P=3
  for c in $R/dump/$n/h*/*.cubin; do
    [ -f "$c" ] || continue
    cuobjdump -sass $c | grep -E "^\s+/\*[0-9a-f]{4}\*/" | sed 's#/\*[0-9a-f]*\*/##g; s/ *;.*//' > ${c%.cubin}.sass
    md5sum $c | cut -c1-12
  done
  p=$(ls $R/dump/$n/h1/*.ptx 2>/dev/null | head -1)
  if [ -n "$p" ]; then
    ptxas -arch=sm_90 -O$P $p -o $R/dump/$n/ptxas.cubin 2>&1 | head -3
    cuobjdump -sass $R/dump/$n/ptxas.cubin | grep -E "^\s+/\*[0-9a-f]{4}\*/" | sed 's#/\*[0-9a-f]*\*/##g; s/ *;.*//' > $R/dump/$n/ptxas.sass
    h=${p%.ptx}.sass
    if [ -f $h ]; then
      echo "helper SASS $(wc -l < $h) lines, ptxas -O$P $(wc -l < $R/dump/$n/ptxas.sass) lines, differing lines: $(diff $h $R/dump/$n/ptxas.sass | grep -c '^[<>]')"
    fi
  fi
done > $R/unknown-alone.txt 2>&1
cat $R/unknown-alone.txt | cut -c1-200
# Helper history: one process, helpers that compiled 40 other findings first.
others=$(ls docs/log/gpu-2026-11-28-i/found-default/*.ptx.txt | grep -v engine-failed | head -40)
mkdir -p /tmp/oth; for o in $others; do cp $o /tmp/oth/$(basename $o .txt); done
for L in default 3; do
  echo "== helpers after 30 others, -O$L"
  timeout 200 $W diff --engines interp,gpu --gpu-helpers --gpu-opt-level $L /tmp/oth/*.ptx $D/unk/*.ptx 2>&1 | grep -v "= gpu$" | cut -c1-250 | tail -30
done > $R/unknown-history.txt 2>&1
cat $R/unknown-history.txt
# Replay of session 9's default-level hunt, its first 60 s.
mkdir -p /tmp/h5/corpus
timeout 150 $W fuzz --engines interp,jit,gpu --avoid all --keep-going --seconds 60 --seed 0x3902 \
  --corpus /tmp/h5/corpus > /tmp/h5/out 2> /tmp/h5/err < /dev/null
echo "rc $?" >> /tmp/h5/out
cat /tmp/h5/out > $R/replay-default-60.out; grep -v '^\[' /tmp/h5/err >> $R/replay-default-60.out
grep -E "^divergence|^verdict" /tmp/h5/out | cut -c1-200
cp -r /tmp/h5/corpus $R/found-replay
cd /tmp && tar czf $OUT/s10a.tgz s10a
