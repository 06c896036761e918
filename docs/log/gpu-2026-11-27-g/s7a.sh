#!/bin/bash
# Session 7, call 1 (2-GPU host): --gpus 1 against --gpus 2 at the driver's default level with every
# known idiom avoided (140 s each), then at -O0 (100 s each); engines interp,gpu. lscpu first: how many
# physical cores the compile helpers share.
set -u
D=$(cd "$(dirname "$0")" && pwd); cd "$D/.."
W=$D/warpdiff
R=$OUT
{ nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; nproc;
  lscpu | grep -E "^(Model name|Socket|Core|Thread|CPU\(s\))"; } | tee $R/host.txt
run() { # name seconds args...
  n=$1; s=$2; shift 2
  mkdir -p /tmp/$n/corpus
  timeout $((s+45)) $W fuzz --engines interp,gpu --keep-going --seconds $s --seed 0x3707 \
    --corpus /tmp/$n/corpus "$@" > /tmp/$n/out 2> /tmp/$n/err < /dev/null
  echo "rc $?" >> /tmp/$n/out
  cat /tmp/$n/out > $R/$n.out; grep -v '^\[' /tmp/$n/err >> $R/$n.out
  echo "== $n $*"; grep -E "^  (GPU [0-9]|all GPUs|balance|[0-9]+ modules)|^verdict" /tmp/$n/out | cut -c1-300
}
run def-g1 140 --gpu-opt-level default --avoid all --gpus 1
run def-g2 140 --gpu-opt-level default --avoid all --gpus 2
run o0-g1 100 --gpu-opt-level 0 --gpus 1
run o0-g2 100 --gpu-opt-level 0 --gpus 2
uptime
