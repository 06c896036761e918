#!/bin/bash
# Session 12, call c: build.sh of the two UB64 reproducers (N30), transcripts and SASS back.
D=$(cd "$(dirname "$0")" && pwd)
for r in ub64-bfind64-of-never-written ub64-bfind64-of-never-written-match; do
  cd $D/$r && ./build.sh > h200.txt 2>&1; echo "rc $?" >> h200.txt
  mkdir -p $OUT/$r && cp h200.txt sass-O0.txt sass-O3.txt sass-O3-c.txt $OUT/$r/ 2>/dev/null
  # three more linker -O3 runs and the dirty filler instead of the mates (not built in: compare)
  for i in 1 2 3; do timeout 20 ./repro --link -O 3; done > $OUT/$r/more-O3.txt 2>&1
done
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader > $OUT/host.txt
