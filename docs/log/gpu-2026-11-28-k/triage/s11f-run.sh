#!/bin/bash
# H38 (#35): session 11's -O3 hunt findings (docs/log/gpu-2026-11-28-k/c/found/), triage variants
# (docs/log/gpu-2026-11-28-k/triage.md): every variant through the driver's JIT linker (the compile
# helpers, as the hunts) at -O3, -O0 and -O1, one bounded call per group and level. Under 3 minutes
# (each call's timeout is min(60, what is left of 170 s); a call that would start later is skipped
# and says so). Everything lands in /tmp/s11f, tarred into $OUT/s11f.tgz.
set -u
D=$(cd "$(dirname "$0")" && pwd)
W=$D/warpdiff
E=$D/experiments
R=/tmp/s11f; rm -rf $R; mkdir -p $R
START=$(date +%s)
{ nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; nproc; date -u; } > $R/host.txt 2>&1
GROUPS_=$(cd $E && ls *.ptx.txt | cut -d. -f1 | sort -u)
for L in 3 0 1; do
  for g in $GROUPS_; do
    left=$(( 170 - ($(date +%s) - START) ))
    T=$(( left < 60 ? left : 60 ))
    if [ $T -lt 5 ]; then echo "skipped: out of time" > $R/$g-O$L.txt; continue; fi
    ( cd $E && timeout $T $W diff --engines interp,gpu --gpu-helpers --gpu-opt-level $L $g.*.ptx.txt ) \
      > $R/$g-O$L.txt 2>&1 < /dev/null
    echo "rc $? (timeout $T s)" >> $R/$g-O$L.txt
  done
done
echo "elapsed $(( $(date +%s) - START )) s" >> $R/host.txt
# one transcript in tools/levels.py's format (a `== ... -ON` header per level), and its table
for L in 0 1 3; do
  echo "== the driver's linker (helpers), -O$L"
  for g in $GROUPS_; do grep -v '^rc ' $R/$g-O$L.txt; done
done > $R/levels.txt
cp $E/PREDICT.txt $R/
python3 $D/levels.py $R/levels.txt $E/PREDICT.txt > $R/table.md 2>&1
cat $R/host.txt; grep -H '^rc' $R/*-O*.txt | grep -v 'rc [01] ' ; cat $R/table.md
cd /tmp && tar czf $OUT/s11f.tgz s11f
