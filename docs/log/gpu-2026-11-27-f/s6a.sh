#!/bin/bash
# Session 6, call 1: (a) every corpus/repro/*/build.sh on this GPU, transcripts kept; (b) the
# cvt.sat.u16.u32-47058c4e case reduced on the GPU at -O1, its variants at -O0..-O3, a reproducer
# written and built for the reduced case; (c) the 5-minute -O0 run with --gpu-perturb 7 (the GPU now
# compared in the spec convergence model); (d) a hunt at -O1 with --avoid all for what time is left.
set -u
T0=$(date +%s)
D=$(cd "$(dirname "$0")" && pwd); cd "$D/.."
W=$D/warpdiff
R=$OUT
el(){ echo $(( $(date +%s) - T0 )); }
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee $R/gpu.txt
nproc >> $R/gpu.txt; ptxas --version | tail -1 >> $R/gpu.txt
# (a) reproducers, 6 at a time, each bounded
mkdir -p /tmp/rp
ls -d corpus/repro/*/ | xargs -P 6 -I{} sh -c 'n=$(basename {}); timeout 150 sh {}build.sh > /tmp/rp/$n.txt 2>&1; echo "exit $?" >> /tmp/rp/$n.txt' &
RP=$!
# (b) the cvt.sat case, on the GPU in this process
mkdir -p /tmp/cv
for f in devrun/v/*.ptx; do
  for o in 0 1 2 3; do
    echo "== $f -O$o"; timeout 60 $W diff --engines interp,gpu --gpu-opt-level $o --gpu-in-process $f 2>&1 | tail -12
  done
done > /tmp/cv/variants.txt 2>&1
echo "variants done at $(el) s"
timeout 150 $W reduce --engines interp,gpu --gpu-opt-level 1 --gpu-in-process -o /tmp/cv/reduced.ptx devrun/v/orig.ptx > /tmp/cv/reduce.txt 2>&1
echo "reduce exit $? at $(el) s"; tail -3 /tmp/cv/reduce.txt
if [ -f /tmp/cv/reduced.ptx ]; then
  for o in 0 1 2 3 4; do echo "== reduced -O$o"; timeout 60 $W diff --engines interp,gpu --gpu-opt-level $o --gpu-in-process /tmp/cv/reduced.ptx 2>&1 | tail -8; done >> /tmp/cv/variants.txt
  timeout 60 $W repro --gpu-sweep -o /tmp/cv/repro /tmp/cv/reduced.ptx > /tmp/cv/repro.txt 2>&1
  (cd /tmp/cv/repro && timeout 120 sh build.sh > gpu.txt 2>&1; echo "exit $?" >> gpu.txt)
fi
wait $RP
echo "repros done at $(el) s"
for f in /tmp/rp/*.txt; do echo "== $(basename $f)"; grep -E "DIFFERS|agrees|hang|fault|ILLEGAL|error|exit" $f | head -12; done > $R/repro-summary.txt
mkdir -p /tmp/sass; for d in corpus/repro/*/; do n=$(basename $d); cp $d/sass-O0.txt /tmp/sass/$n-sass-O0.txt 2>/dev/null; cp $d/sass-O3.txt /tmp/sass/$n-sass-O3.txt 2>/dev/null; done
(cd /tmp && tar czf $R/repro.tgz rp sass cv)
# (c) the perturbed run
mkdir -p /tmp/p/corpus
$W fuzz --engines interp,jit,gpu --gpu-opt-level 0 --gpu-perturb 7 --keep-going --seconds 270 --seed 0x3601 \
  --corpus /tmp/p/corpus > /tmp/p/out 2> /tmp/p/err < /dev/null
echo "perturbed exit $? at $(el) s"
cat /tmp/p/out > $R/perturb.out; grep -v '^\[' /tmp/p/err >> $R/perturb.out; grep '^\[' /tmp/p/err | awk 'NR%30==0' >> $R/perturb.out
grep -E "^verdict|divergen" /tmp/p/out | head -5
# (d) hunt at -O1 for what is left (the call has 600 s)
LEFT=$(( 560 - $(el) ))
if [ $LEFT -gt 40 ]; then
  mkdir -p /tmp/h/corpus
  $W fuzz --engines interp,jit,gpu --gpu-opt-level 1 --avoid all --keep-going --seconds $LEFT --seed 0x3602 \
    --corpus /tmp/h/corpus > /tmp/h/out 2> /tmp/h/err < /dev/null
  echo "hunt exit $? at $(el) s ($LEFT s)"
  cat /tmp/h/out > $R/hunt-O1.out; grep -v '^\[' /tmp/h/err >> $R/hunt-O1.out
  grep -E "^verdict" /tmp/h/out
fi
(cd /tmp && tar czf $R/corpora.tgz p/corpus h/corpus 2>/dev/null)
echo "done at $(el) s"
