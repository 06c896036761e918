#!/bin/bash
# Session 7, call 2 (2-GPU host): where the GPU oracle's rate is bounded. --gpus 1 with 16 compile
# helpers (the default), --gpus 1 with 32 (every core), --gpus 2 (16 each), at -O0 (100 s each), then
# the same three at the driver's default level with every known idiom avoided (100 s each would not
# fit: 80 s). Engines interp,gpu. The corpora come back (a -O0 run of call 1 found two `unknown`
# activemask divergences: agreeing when run alone).
set -u
D=$(cd "$(dirname "$0")" && pwd); cd "$D/.."
W=$D/warpdiff
R=$OUT
{ nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; nproc; } | tee $R/host.txt
run() { # name seconds args...
  n=$1; s=$2; shift 2
  mkdir -p /tmp/$n/corpus
  timeout $((s+40)) $W fuzz --engines interp,gpu --keep-going --seconds $s --seed 0x3708 \
    --corpus /tmp/$n/corpus "$@" > /tmp/$n/out 2> /tmp/$n/err < /dev/null
  echo "rc $?" >> /tmp/$n/out
  cat /tmp/$n/out > /tmp/$n/all.out; grep -v '^\[' /tmp/$n/err >> /tmp/$n/all.out
  echo "== $n $*"; grep -E "^  (GPU [0-9]|all GPUs|balance|[0-9]+ modules)|^verdict" /tmp/$n/out | cut -c1-240
  grep -o "compile helpers were busy [0-9]* %" /tmp/$n/out
}
run o0-g1-16 100 --gpu-opt-level 0 --gpus 1
run o0-g1-32 100 --gpu-opt-level 0 --gpus 1 --gpu-compile-threads 32
run o0-g2 100 --gpu-opt-level 0 --gpus 2
run def-g1-32 80 --gpu-opt-level default --avoid all --gpus 1 --gpu-compile-threads 32
uptime
cd /tmp && tar czf $R/s7b.tgz */all.out */corpus
