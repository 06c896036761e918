#!/bin/bash
# Session 6, call 3 (H100): (a) N17's reproducer (corpus/repro/n17-*) and the devrun/v2 experiments
# at -O0..-O4 and ptxas -O3; (b) the 5-minute -O0 run with --gpu-perturb 7 again, with S1, N6, N13
# widened and N17 known (the binary of this call); (c) a hunt at -O1 with --avoid all for what is left.
set -u
T0=$(date +%s)
D=$(cd "$(dirname "$0")" && pwd); cd "$D/.."
W=$D/warpdiff
R=$OUT
el(){ echo $(( $(date +%s) - T0 )); }
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee $R/gpu.txt
mkdir -p /tmp/rp /tmp/v2
(timeout 150 sh corpus/repro/n17-abs-nan-compare-folded/build.sh > /tmp/rp/n17-abs-nan-compare-folded.txt 2>&1; echo "exit $?" >> /tmp/rp/n17-abs-nan-compare-folded.txt) &
for f in devrun/v2/*.ptx; do
  for o in 0 1 2 3 4; do
    echo "== $f -O$o"; timeout 60 $W diff --engines interp,gpu --gpu-opt-level $o --gpu-in-process $f 2>&1 | grep -v "^warpdiff: using" | head -14
  done
  echo "== $f ptxas -O3"; timeout 60 $W diff --engines interp,gpu --gpu-compiler ptxas --gpu-opt-level 3 --gpu-in-process $f 2>&1 | grep -v "^warpdiff: using" | head -14
done > /tmp/v2/variants.txt 2>&1
wait
cp corpus/repro/n17-abs-nan-compare-folded/sass-O*.txt /tmp/rp/ 2>/dev/null
(cd /tmp && tar czf $R/exp.tgz rp v2)
echo "experiments done at $(el) s"
mkdir -p /tmp/p/corpus
timeout 320 $W fuzz --engines interp,jit,gpu --gpu-opt-level 0 --gpu-perturb 7 --keep-going --seconds 270 --seed 0x3601 \
  --corpus /tmp/p/corpus > /tmp/p/out 2> /tmp/p/err < /dev/null
echo "perturbed exit $? at $(el) s"
cat /tmp/p/out > $R/perturb.out; grep -v '^\[' /tmp/p/err >> $R/perturb.out; grep '^\[' /tmp/p/err | awk 'NR%30==0' >> $R/perturb.out
grep -E "^verdict" /tmp/p/out
LEFT=$(( 520 - $(el) ))
if [ $LEFT -gt 40 ]; then
  mkdir -p /tmp/h/corpus
  timeout $(( LEFT + 45 )) $W fuzz --engines interp,jit,gpu --gpu-opt-level 1 --avoid all --keep-going --seconds $LEFT --seed 0x3604 \
    --corpus /tmp/h/corpus > /tmp/h/out 2> /tmp/h/err < /dev/null
  echo "hunt exit $? at $(el) s ($LEFT s)"
  cat /tmp/h/out > $R/hunt-O1.out; grep -v '^\[' /tmp/h/err >> $R/hunt-O1.out; grep '^\[' /tmp/h/err | awk 'NR%30==0' >> $R/hunt-O1.out
  grep -E "^verdict" /tmp/h/out
fi
(cd /tmp && tar czf $R/corpora.tgz p/corpus h/corpus 2>/dev/null)
echo "done at $(el) s"
