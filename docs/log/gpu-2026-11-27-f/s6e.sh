#!/bin/bash
# Session 6, call 5 (2-GPU host): --gpus 1 against --gpus 2, 90 s each at the driver's default level,
# engines interp,gpu (the CPU side checks on the reference only, leaving the cores to the compilers).
set -u
D=$(cd "$(dirname "$0")" && pwd); cd "$D/.."
W=$D/warpdiff
R=$OUT
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee $R/gpu.txt; nproc | tee -a $R/gpu.txt
for g in 1 2; do
  mkdir -p /tmp/n$g/corpus
  timeout 150 $W fuzz --engines interp,gpu --gpu-opt-level default --keep-going --seconds 90 --seed 0x3606 --gpus $g \
    --corpus /tmp/n$g/corpus > /tmp/n$g/out 2> /tmp/n$g/err < /dev/null
  cat /tmp/n$g/out > $R/gpus$g.out; grep -v '^\[' /tmp/n$g/err >> $R/gpus$g.out
  echo "== --gpus $g"; grep -E "^  (GPU [0-9]|all GPUs|balance)|^verdict" /tmp/n$g/out | cut -c1-330
done
