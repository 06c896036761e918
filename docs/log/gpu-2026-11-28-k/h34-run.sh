#!/bin/bash
# H34 (#35): the retries of GPU findings that agree alone, on hardware. About 5 minutes.
# 1. a hand-made batch of 12 hand-computed cases replayed by `diff --gpu-batch-file` through the
#    compile helpers at -O0 and -O3 (every case must agree: the replay's mechanics on hardware);
# 2. session 10's 150-s hunt at -O3 (seed 0x3a02, --avoid all, --keep-going), which then found 3
#    `unknown` findings: each finding the sweep calls unknown now keeps its batch (.batch.txt) and
#    is retried (3 batch reruns, 4 dirty seeds);
# 3. each kept batch replayed by hand through the helpers at -O3 and -O0 (at most 3 batches).
# Everything lands in $OUT/h34 (found/ is the hunt's corpus folder).
set -u
D=$(cd "$(dirname "$0")" && pwd); cd "$D/../.."
W=$D/warpdiff
R=/tmp/h34; rm -rf $R; mkdir -p $R/found
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader > $R/host.txt 2>&1
nproc >> $R/host.txt
F=$(grep -L "fuel\|gpu-fails\|known-gpu-divergence\|sm_100a\|\.stop" corpus/cases/*.ptx | grep -v -- "-h[12]00" | head -12)
python3 $D/mkbatch.py $F > $R/hand.batch.txt
for L in 0 3; do
  timeout 60 $W diff --gpu-batch-file $R/hand.batch.txt --gpu-helpers --gpu-opt-level $L > $R/hand-O$L.txt 2>&1
  echo "rc $?" >> $R/hand-O$L.txt
done
timeout 250 $W fuzz --engines interp,jit,gpu --gpu-opt-level 3 --avoid all --keep-going --seconds 150 \
  --seed 0x3a02 --corpus $R/found > $R/hunt.out 2> $R/hunt.err < /dev/null
echo "rc $?" >> $R/hunt.out
grep -v '^\[' $R/hunt.err > $R/hunt-stderr.txt; rm -f $R/hunt.err
n=0
for f in $R/found/*.batch.txt; do
  [ -e "$f" ] || continue
  n=$((n+1)); [ $n -le 3 ] || break
  for L in 3 0; do
    timeout 30 $W diff --gpu-batch-file $f --gpu-helpers --gpu-opt-level $L > $f.replay-O$L.txt 2>&1
    echo "rc $?" >> $f.replay-O$L.txt
  done
done
grep -H "^// \(class\|batch\|retry\)" $R/found/*.ptx > $R/summary.txt 2>/dev/null
grep -h "^// class" $R/found/*.ptx 2>/dev/null | cut -c1-70 | sort | uniq -c >> $R/summary.txt
tail -3 $R/hand-O*.txt; grep "^verdict" $R/hunt.out | cut -c1-200; cat $R/summary.txt | cut -c1-220
cd /tmp && tar czf $OUT/h34.tgz h34
