#!/bin/bash
# H45 (#35): session 13's -O3 hunt findings (docs/log/gpu-2026-11-28-m/a/found/), triage variants
# (docs/log/gpu-2026-11-28-m/triage.md): every variant through the driver's JIT linker (the compile
# helpers, as the hunts) at -O1, -O3, -O2 (only the groups with a variant judged at -O2, the third
# word of its PREDICT.txt line) and -O0. One bounded call per group and level
# (`timeout min(60, left)`); the hang variants (groups with a `hang` line in PREDICT.txt) one file
# per call, alone, `--gpu-deadline-ms 1500` and `timeout min(30, left)`. A call that would start
# after 165 s is skipped and says so: the whole run stays under 3 minutes. Everything lands in
# /tmp/s13h, tarred into $OUT/s13h.tgz. Run from the repository root: bash devrun/s13h/run.sh
set -u
D=$(cd "$(dirname "$0")" && pwd)
W=$D/warpdiff
E=$D/experiments
R=/tmp/s13h; rm -rf $R; mkdir -p $R
START=$(date +%s)
BUDGET=165
{ nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; nproc; date -u; } > $R/host.txt 2>&1
HANG_GROUPS=$(grep ' hang ' $E/PREDICT.txt | cut -d' ' -f1 | cut -d. -f1 | sort -u)
ALL_GROUPS=$(cut -d' ' -f1 $E/PREDICT.txt | cut -d. -f1 | sort -u)
O2_GROUPS=$(grep ' -O2$' $E/PREDICT.txt | cut -d' ' -f1 | cut -d. -f1 | sort -u)
left() { echo $(( BUDGET - ($(date +%s) - START) )); }
for L in 1 3 2 0; do
  if [ $L = 2 ]; then GROUPS_L=$O2_GROUPS; else GROUPS_L=$ALL_GROUPS; fi
  for g in $GROUPS_L; do
    if echo "$HANG_GROUPS" | grep -qx "$g"; then
      for f in $(cd $E && ls $g.*.ptx.txt); do
        n=${f%.ptx.txt}; o=$R/$n-O$L.txt; l=$(left)
        T=$(( l < 30 ? l : 30 ))
        if [ $T -lt 5 ]; then echo "skipped: $n out of time" > $o; continue; fi
        ( cd $E && timeout $T $W diff --engines interp,gpu --gpu-helpers --gpu-opt-level $L \
            --gpu-deadline-ms 1500 $f ) > $o 2>&1 < /dev/null
        echo "rc $? (timeout $T s)" >> $o
      done
    else
      o=$R/$g-O$L.txt; l=$(left)
      T=$(( l < 60 ? l : 60 ))
      if [ $T -lt 5 ]; then
        (cd $E && ls $g.*.ptx.txt) | sed 's/\.ptx\.txt$//; s/^/skipped: /; s/$/ out of time/' > $o
        continue
      fi
      ( cd $E && timeout $T $W diff --engines interp,gpu --gpu-helpers --gpu-opt-level $L $g.*.ptx.txt ) \
        > $o 2>&1 < /dev/null
      echo "rc $? (timeout $T s)" >> $o
    fi
  done
done
echo "elapsed $(( $(date +%s) - START )) s" >> $R/host.txt
# one transcript in levels.py's format (a `== ... -ON` header per level), and its table
for L in 0 1 2 3; do
  ls $R/*-O$L.txt >/dev/null 2>&1 || continue
  echo "== the driver's linker (helpers), -O$L"
  for f in $R/*-O$L.txt; do grep -v '^rc ' $f; done
done > $R/levels.txt
cp $E/PREDICT.txt $R/
python3 $D/levels.py $R/levels.txt $E/PREDICT.txt > $R/table.md 2>&1
cat $R/host.txt; grep -H '^rc' $R/*-O*.txt | grep -v 'rc [01] '; cat $R/table.md
cd /tmp && tar czf $OUT/s13h.tgz s13h
