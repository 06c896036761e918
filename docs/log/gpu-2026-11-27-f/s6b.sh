#!/bin/bash
# Session 6, call 2: (a) every corpus/repro/*/build.sh on this GPU (n17 new), transcripts kept;
# (b) the experiments of devrun/v2 (N17 abs/NaN compare and its variants, S1 with neg.f32, N6 with
# sub.f32, N13 with cvt.sat) at -O0..-O4 and through ptxas -O3; (c) a hunt at -O2 with --avoid all.
set -u
T0=$(date +%s)
D=$(cd "$(dirname "$0")" && pwd); cd "$D/.."
W=$D/warpdiff
R=$OUT
el(){ echo $(( $(date +%s) - T0 )); }
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee $R/gpu.txt
nproc >> $R/gpu.txt; ptxas --version | tail -1 >> $R/gpu.txt
mkdir -p /tmp/rp
ls -d corpus/repro/*/ | xargs -P 6 -I{} sh -c 'n=$(basename {}); timeout 150 sh {}build.sh > /tmp/rp/$n.txt 2>&1; echo "exit $?" >> /tmp/rp/$n.txt' &
RP=$!
mkdir -p /tmp/v2
for f in devrun/v2/*.ptx; do
  for o in 0 1 2 3 4; do
    echo "== $f -O$o"; timeout 60 $W diff --engines interp,gpu --gpu-opt-level $o --gpu-in-process $f 2>&1 | grep -v "^warpdiff: using" | head -14
  done
  echo "== $f ptxas -O3"; timeout 60 $W diff --engines interp,gpu --gpu-compiler ptxas --gpu-opt-level 3 --gpu-in-process $f 2>&1 | grep -v "^warpdiff: using" | head -14
done > /tmp/v2/variants.txt 2>&1
echo "variants done at $(el) s"
mkdir -p /tmp/v2/sass; for f in devrun/v2/n17-case.ptx devrun/v2/s1-neg-f32.ptx devrun/v2/n6-sub-e28ce7e3.ptx devrun/v2/n13-cvt-sat.ptx; do
  n=$(basename $f .ptx); $W emit-ptx $f > /tmp/v2/sass/$n.ptx 2>/dev/null
  for o in 0 3; do ptxas -arch=sm_90 -O$o /tmp/v2/sass/$n.ptx -o /tmp/v2/sass/$n-O$o.cubin && cuobjdump -sass /tmp/v2/sass/$n-O$o.cubin | grep -E "^\s+/\*[0-9a-f]{4}\*/" | grep -v NOP > /tmp/v2/sass/$n-O$o.txt; done
done
wait $RP
echo "repros done at $(el) s"
for f in /tmp/rp/*.txt; do echo "== $(basename $f)"; grep -E "DIFFERS|agrees|hang|fault|ILLEGAL|rror|exit" $f | head -12; done > $R/repro-summary.txt
mkdir -p /tmp/sass; for d in corpus/repro/*/; do n=$(basename $d); cp $d/sass-O0.txt /tmp/sass/$n-sass-O0.txt 2>/dev/null; cp $d/sass-O3.txt /tmp/sass/$n-sass-O3.txt 2>/dev/null; done
(cd /tmp && tar czf $R/repro.tgz rp sass v2)
LEFT=$(( 560 - $(el) ))
mkdir -p /tmp/h/corpus
$W fuzz --engines interp,jit,gpu --gpu-opt-level 2 --avoid all --keep-going --seconds $LEFT --seed 0x3603 \
  --corpus /tmp/h/corpus > /tmp/h/out 2> /tmp/h/err < /dev/null
echo "hunt exit $? at $(el) s ($LEFT s)"
cat /tmp/h/out > $R/hunt-O2.out; grep -v '^\[' /tmp/h/err >> $R/hunt-O2.out
grep -E "^verdict" /tmp/h/out
(cd /tmp && tar czf $R/corpora.tgz h/corpus 2>/dev/null)
echo "done at $(el) s"
