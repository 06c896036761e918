#!/bin/bash
# Session 4, call 1, on a 2-GPU host: (a) --gpus 1 against --gpus 2, 120 s
# each at the default level, the whole host; (b) then, started in their own
# sessions so that they outlive this call: the 10-minute default-level run
# on GPU 0 pinned to half the host's cores (16, one per physical core where
# the host has two threads per core, so that ptxas alone can be run on the
# same cores), and the 5-minute -O0 and perturbed runs on GPU 1, pinned to
# the other half. Call m2 collects them and runs ptxas alone.
set -u
D=$(cd "$(dirname "$0")" && pwd); cd "$D/.."
W=$D/warpdiff
echo "== host"; nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; nproc; ptxas --version | tail -1
lscpu | grep -E '^(Model name|Socket|Core|Thread|NUMA node)'
N=$(nvidia-smi -L | wc -l)
for g in 1 $N; do
  mkdir -p /tmp/m$g/corpus
  $W fuzz --engines interp,jit,gpu --gpu-opt-level default --keep-going --seconds 120 --seed 0x3503 --gpus $g \
    --corpus /tmp/m$g/corpus > $OUT/multi-gpus$g.out 2> /tmp/m$g/err < /dev/null
  awk 'NR%10==1 || !/^\[/' /tmp/m$g/err > $OUT/multi-gpus$g.err
  echo "== --gpus $g"; grep -E "^  (GPU [0-9]|all GPUs|balance)|^verdict" $OUT/multi-gpus$g.out | cut -c1-300
done
# Two halves of the CPUs with no physical core shared.
lscpu -p=CPU,CORE | grep -v '^#' | sort -t, -k2,2n -k1,1n > /tmp/cpus
cores=$(cut -d, -f2 /tmp/cpus | sort -un | wc -l)
A=$(awk -F, -v h=$((cores/2)) '$2<h{print $1}' /tmp/cpus | paste -sd,)
B=$(awk -F, -v h=$((cores/2)) '$2>=h{print $1}' /tmp/cpus | paste -sd,)
echo "half A: $A"; echo "half B: $B"; echo "$A" > /tmp/halfA
mkdir -p /tmp/w/dump /tmp/w/corpus /tmp/o0/corpus /tmp/p/corpus
date -u +"start %FT%TZ"
CUDA_VISIBLE_DEVICES=0 setsid nohup taskset -c $A $W fuzz --engines interp,jit,gpu --gpu-opt-level default --keep-going \
  --seconds 600 --seed 0x3500 --corpus /tmp/w/corpus --gpu-dump /tmp/w/dump > /tmp/w/run1.out 2> /tmp/w/run1.err < /dev/null &
CUDA_VISIBLE_DEVICES=1 setsid nohup taskset -c $B bash -c "
  $W fuzz --engines interp,jit,gpu --gpu-opt-level 0 --keep-going --seconds 300 --seed 0x3501 \
    --corpus /tmp/o0/corpus > /tmp/o0/out 2> /tmp/o0/err < /dev/null
  $W fuzz --engines interp,jit,gpu --gpu-opt-level 0 --gpu-perturb 7 --keep-going --seconds 300 --seed 0x3502 \
    --corpus /tmp/p/corpus > /tmp/p/out 2> /tmp/p/err < /dev/null" > /dev/null 2>&1 < /dev/null &
sleep 45
echo "== after 45 s"; head -1 /tmp/w/run1.out | cut -c1-300; tail -1 /tmp/w/run1.err; head -1 /tmp/o0/out | cut -c1-300; tail -1 /tmp/o0/err
sleep 200
echo "== after 245 s"; grep -v '^\[' /tmp/w/run1.err | tail -8; tail -1 /tmp/w/run1.err; tail -1 /tmp/o0/err
