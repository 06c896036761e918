#!/bin/bash
# Session 7, call 5 (one GPU): the hand case of a 64-bit bfind that branches inside
# (corpus/cases/activemask-after-bfind64-h100.ptx) and the found case, against the reference that now
# scatters after it; and N3 against N15: N3 with an entry value for its never-written register, and
# with the never-written register on the loop's back edge instead of its entry (N15's side). Each file
# at every level of the driver's JIT.
set -u
D=$(cd "$(dirname "$0")" && pwd); cd "$D/exp7"
W=$D/warpdiff
R=$OUT
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee $R/host.txt
for L in 0 1 2 3 4; do
  echo "== driver JIT -O$L"
  timeout 60 $W diff --engines interp,gpu --gpu-opt-level $L *.ptx 2>&1 | grep -v "^  " | head -20
done | tee $R/levels.txt
echo "== bfind64.ptx on the GPU at -O0, every lane" | tee $R/bfind64-gpu.txt
timeout 60 $W run --engine gpu --gpu-opt-level 0 bfind64.ptx 2>&1 | tee -a $R/bfind64-gpu.txt | tail -8
