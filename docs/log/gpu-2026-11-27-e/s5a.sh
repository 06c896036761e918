#!/bin/bash
# Session 5, call 1, on a 2-GPU host (32 cores): the 10-minute default-level run on GPU 0
# pinned to CPUs 0-15 (#34), the 5-minute -O0 and perturbed runs on GPU 1 pinned to CPUs
# 16-31 (#34, #39), both started in their own sessions so they outlive this call; meanwhile,
# on GPU 1 and CPUs 16-31: the real kernels of corpus/kernels/cub (#37) and corpus/check (#38)
# compiled by nvcc and run three times, the .approx sweep (#37), the reproducers of N5-N9 (#35).
set -u
D=$(cd "$(dirname "$0")" && pwd); cd "$D/.."
W=$D/warpdiff
echo "== host"; nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; nproc; ptxas --version | tail -1; nvcc --version | tail -1
mkdir -p /tmp/w/dump /tmp/w/corpus /tmp/o0/corpus /tmp/p/corpus
date -u +"start %FT%TZ" | tee /tmp/w/start
CUDA_VISIBLE_DEVICES=0 setsid nohup taskset -c 0-15 $W fuzz --engines interp,jit,gpu --gpu-opt-level default --keep-going \
  --seconds 600 --seed 0x3510 --corpus /tmp/w/corpus --gpu-dump /tmp/w/dump > /tmp/w/run1.out 2> /tmp/w/run1.err < /dev/null &
CUDA_VISIBLE_DEVICES=1 setsid nohup taskset -c 16-31 bash -c "
  $W fuzz --engines interp,jit,gpu --gpu-opt-level 0 --keep-going --seconds 290 --seed 0x3511 \
    --corpus /tmp/o0/corpus > /tmp/o0/out 2> /tmp/o0/err < /dev/null
  $W fuzz --engines interp,jit,gpu --gpu-opt-level 0 --gpu-perturb 7 --keep-going --seconds 290 --seed 0x3512 \
    --corpus /tmp/p/corpus > /tmp/p/out 2> /tmp/p/err < /dev/null" > /dev/null 2>&1 < /dev/null &
export CUDA_VISIBLE_DEVICES=1
T=taskset\ -c\ 16-31
( cd corpus/kernels/cub && $T timeout 240 python3 run_h200.py ) > /tmp/cub.txt 2>&1
echo "== cub"; grep -E "^[a-z_0-9]+: (ok|FAILED)|^nvcc|^GPU" /tmp/cub.txt
( cd corpus/check && $T timeout 120 python3 run_h200.py ) > /tmp/check.txt 2>&1
echo "== check"; grep -E "^[a-z_0-9]+: (ok|FAILED)" /tmp/check.txt
( cd corpus/approx && $T nvcc -O2 -arch=sm_90 -o sweep sweep.cu && $T timeout 120 ./sweep > h200-bounds.txt; echo "sweep exit $?"; rm -f sweep ) > /tmp/approx.txt 2>&1
echo "== approx"; tail -3 /tmp/approx.txt; head -50 corpus/approx/h200-bounds.txt
for r in n5-shl-immediate-past-width n6-add-f32-immediate-tie n7-predicate-rewritten-before-join n8-bfe-position-past-msb n9-bfi-length-mod-32; do
  ( $T timeout 150 sh corpus/repro/$r/build.sh > corpus/repro/$r/h200.txt 2>&1; echo "exit $?" >> corpus/repro/$r/h200.txt )
  rm -f corpus/repro/$r/repro corpus/repro/$r/*.cubin
  echo "== $r"; grep -v "^ \|^$" corpus/repro/$r/h200.txt | head -12
done
tar czf $OUT/s5a-files.tgz /tmp/cub.txt /tmp/check.txt /tmp/approx.txt corpus/kernels/cub corpus/check corpus/approx corpus/repro/n[5-9]-* 2>/dev/null
echo "== at $(date -u +%T)"; tail -1 /tmp/w/run1.err; tail -1 /tmp/o0/err
while [ $(( $(date +%s) - $(date -d "$(sed 's/start //' /tmp/w/start)" +%s) )) -lt 300 ]; do sleep 5; done
echo "== after 300 s"; grep -v '^\[' /tmp/w/run1.err | tail -5; tail -1 /tmp/w/run1.err; grep -v '^\[' /tmp/o0/err | tail -3; tail -1 /tmp/o0/err
grep -E "^  (all GPUs|known bugs|hangs)|^verdict|distinct" /tmp/o0/out | cut -c1-400
while [ $(( $(date +%s) - $(date -d "$(sed 's/start //' /tmp/w/start)" +%s) )) -lt 540 ]; do sleep 5; done
echo "== after 540 s"; tail -1 /tmp/w/run1.err; tail -1 /tmp/p/err
