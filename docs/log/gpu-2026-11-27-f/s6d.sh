#!/bin/bash
# Session 6, call 4 (H200): (a) the hang shape's reproducer (corpus/repro/hang-f7163bc7, each run
# bounded by a 20-s timeout); (b) a 300-s hunt at -O2 with --avoid all, timing how late after its
# --seconds it ends (call 2's -O2 hunt did not print its summary within the call).
set -u
T0=$(date +%s)
D=$(cd "$(dirname "$0")" && pwd); cd "$D/.."
W=$D/warpdiff
R=$OUT
el(){ echo $(( $(date +%s) - T0 )); }
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee $R/gpu.txt
(timeout 200 sh corpus/repro/hang-f7163bc7/build.sh > $R/hang-build.txt 2>&1; echo "exit $?" >> $R/hang-build.txt) &
mkdir -p /tmp/h/corpus
S=$(date +%s.%N)
timeout 420 $W fuzz --engines interp,jit,gpu --gpu-opt-level 2 --avoid all --keep-going --seconds 300 --seed 0x3605 \
  --corpus /tmp/h/corpus > /tmp/h/out 2> /tmp/h/err < /dev/null
rc=$?
E=$(date +%s.%N)
echo "hunt exit $rc; wall $(echo "$E - $S" | bc) s for --seconds 300" | tee -a $R/hunt-O2-end.txt
cat /tmp/h/out > $R/hunt-O2.out; grep -v '^\[' /tmp/h/err >> $R/hunt-O2.out; grep '^\[' /tmp/h/err | awk 'NR%30==0' >> $R/hunt-O2.out
grep -E "^verdict" /tmp/h/out
wait
cp corpus/repro/hang-f7163bc7/sass-O*.txt /tmp/h/ 2>/dev/null
(cd /tmp && tar czf $R/h.tgz h)
tail -12 $R/hang-build.txt
echo "done at $(el) s"
