#!/bin/bash
# Session 13, call c (H200, < 8 min): the helpers' scripts (H43: LR's reproducer and variants; H44:
# SP's; H45: the triage of call a's hunt), each with its own $OUT under /tmp/c, then the LC variants
# with the found case's ten input registers (lc4/) through the driver's linker at -O0, -O1, -O3.
# Everything comes back in $OUT/s13c.tgz.
set -u
OUT0=$OUT
rm -rf /tmp/c; mkdir -p /tmp/c
S=$(date +%s)
for h in h43 h44 s13h; do
  export OUT=/tmp/c/$h; mkdir -p $OUT
  timeout 300 bash devrun/$h/run.sh > /tmp/c/$h.log 2>&1 < /dev/null
  echo "$h rc $? at $(( $(date +%s) - S )) s" >> /tmp/c/times.txt
done
W=$(pwd)/devrun/s13h/warpdiff
for L in 0 1 3; do
  echo "== the driver's linker (helpers), -O$L"
  ( cd devrun/s13c/lc4 && timeout 60 $W diff --engines interp,gpu --gpu-helpers --gpu-opt-level $L *.ptx.txt ) 2>&1 < /dev/null
  echo "rc $?"
done > /tmp/c/lc4-levels.txt
echo "lc4 at $(( $(date +%s) - S )) s" >> /tmp/c/times.txt
cat /tmp/c/times.txt; grep -E "^(lc4|==|rc)|gpu:" /tmp/c/lc4-levels.txt | cut -c1-160
tail -5 /tmp/c/h43.log /tmp/c/h44.log /tmp/c/s13h.log | cut -c1-200
cd /tmp && tar czf $OUT0/s13c.tgz c
