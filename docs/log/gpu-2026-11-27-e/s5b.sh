#!/bin/bash
# Session 5, call 2 (s5b; was next2; p2.sh with ptxas exit statuses ignored: xargs stops at a 255): wait for p1's runs, keep their output, ptxas alone on the
# 10-minute run's batch modules on the same 16 CPUs at -O3 (the driver's default level is its
# highest), then --gpus 1 against --gpus 2, 90 s each, the whole host.
set -u
D=$(cd "$(dirname "$0")" && pwd); cd "$D/.."
W=$D/warpdiff
while pgrep -f 'warpdiff fuzz' > /dev/null; do sleep 3; done
date -u +"end %FT%TZ"; cat /tmp/w/start
cp /tmp/w/run1.out $OUT/run-default-10min.out; awk 'NR%10==1 || !/^\[/' /tmp/w/run1.err > $OUT/run-default-10min.err
(cat /tmp/p/out; echo '== stderr (every tenth progress line)'; awk 'NR%10==1 || !/^\[/' /tmp/p/err) > $OUT/run-perturb-5min.out
(cat /tmp/o0/out; echo '== stderr (every tenth progress line)'; awk 'NR%10==1 || !/^\[/' /tmp/o0/err) > $OUT/run-O0-5min.out
for f in run-default-10min run-O0-5min run-perturb-5min; do echo "== $f"; grep -E "^  (GPU 0|all GPUs|known bugs|hangs|balance)|^verdict|distinct|input sets in" $OUT/$f.out | cut -c1-500; done
n=$(ls /tmp/w/dump/module-*.ptx | wc -l); echo "batch modules dumped: $n"
k=$(( n / 480 )); [ $k -lt 1 ] && k=1
ls /tmp/w/dump/module-*.ptx | awk -v k=$k 'NR % k == 0' | head -480 > /tmp/w/sample
kernels=$(cat $(cat /tmp/w/sample) | grep -c '^\.visible \.entry')
s=$(date +%s.%N)
taskset -c 0-15 xargs -P 16 -I{} sh -c "ptxas -arch=sm_90 -O3 {} -o /dev/null 2>/dev/null; true" < /tmp/w/sample
e=$(date +%s.%N)
python3 -c "print('ptxas -O3 alone, 16 processes on CPUs 0-15, $(wc -l < /tmp/w/sample) of $n batch modules (every ${k}th), $kernels kernels: %.2f s, %.1f kernels/s' % ($e-$s, $kernels/($e-$s)))" | tee $OUT/ptxas-alone.txt
rm -rf /tmp/w/dump
for g in 1 2; do
  mkdir -p /tmp/m$g/corpus
  $W fuzz --engines interp,jit,gpu --gpu-opt-level default --keep-going --seconds 90 --seed 0x3503 --gpus $g \
    --corpus /tmp/m$g/corpus > /tmp/m$g/out 2> /tmp/m$g/err < /dev/null
  cat /tmp/m$g/out > $OUT/multi-gpus$g.out; grep -v '^\[' /tmp/m$g/err >> $OUT/multi-gpus$g.out
  echo "== --gpus $g"; grep -E "^  (GPU [0-9]|all GPUs|balance)|^verdict" /tmp/m$g/out | cut -c1-300
done
(cd /tmp && tar czf $OUT/corpora.tgz w/corpus o0/corpus p/corpus m1/corpus m2/corpus) 2>/dev/null
ls -la $OUT
