#!/bin/bash
# Session 4 (second try), call 1, on a 2-GPU host (32 cores, 1 thread each): the new -h200 cases on
# the GPU, then, started in their own sessions so that they outlive this call: the 10-minute
# default-level run on GPU 0 pinned to CPUs 0-15 (so that ptxas alone can run on the same 16), and
# the 5-minute -O0 and perturbed runs on GPU 1 pinned to CPUs 16-31. Call p2 collects them, runs
# ptxas alone, then --gpus 1 against --gpus 2 on the whole host.
set -u
D=$(cd "$(dirname "$0")" && pwd); cd "$D/.."
W=$D/warpdiff
echo "== host"; nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; nproc; ptxas --version | tail -1
for f in corpus/cases/cvt-nan-to-int-h200.ptx corpus/cases/sat-negative-zero-h200.ptx corpus/cases/directed-rounding-exact-h200.ptx corpus/cases/bit-field-range-in-register-h200.ptx; do
  [ -f $f ] || continue
  for o in 0 default; do echo "-- $f -O$o: $(timeout 60 $W diff --engines interp,gpu --gpu-opt-level $o $f 2>&1 | head -4 | tr '\n' ' ' | cut -c1-300)"; done
done 2>&1 | tee $OUT/cases-h200.txt
mkdir -p /tmp/w/dump /tmp/w/corpus /tmp/o0/corpus /tmp/p/corpus
date -u +"start %FT%TZ" | tee /tmp/w/start
CUDA_VISIBLE_DEVICES=0 setsid nohup taskset -c 0-15 $W fuzz --engines interp,jit,gpu --gpu-opt-level default --keep-going \
  --seconds 600 --seed 0x3500 --corpus /tmp/w/corpus --gpu-dump /tmp/w/dump > /tmp/w/run1.out 2> /tmp/w/run1.err < /dev/null &
CUDA_VISIBLE_DEVICES=1 setsid nohup taskset -c 16-31 bash -c "
  $W fuzz --engines interp,jit,gpu --gpu-opt-level 0 --keep-going --seconds 290 --seed 0x3501 \
    --corpus /tmp/o0/corpus > /tmp/o0/out 2> /tmp/o0/err < /dev/null
  $W fuzz --engines interp,jit,gpu --gpu-opt-level 0 --gpu-perturb 7 --keep-going --seconds 290 --seed 0x3502 \
    --corpus /tmp/p/corpus > /tmp/p/out 2> /tmp/p/err < /dev/null" > /dev/null 2>&1 < /dev/null &
sleep 60
echo "== after 60 s"; head -1 /tmp/w/run1.out | cut -c1-300; grep -v '^\[' /tmp/w/run1.err | head -5; tail -1 /tmp/w/run1.err; tail -1 /tmp/o0/err
sleep 240
echo "== after 300 s"; grep -v '^\[' /tmp/w/run1.err | tail -5; tail -1 /tmp/w/run1.err; grep -v '^\[' /tmp/o0/err | tail -3; tail -1 /tmp/o0/err
grep -E "^  (all GPUs|known bugs|hangs)|^verdict|distinct" /tmp/o0/out | cut -c1-400
sleep 230
echo "== after 530 s"; tail -1 /tmp/w/run1.err; tail -1 /tmp/p/err
