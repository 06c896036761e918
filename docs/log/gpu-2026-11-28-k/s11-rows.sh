#!/bin/bash
# Session 11, issue #35 (helper H35): the three draft rows MJ, N26X and OR64 of docs/findings.md.
# 1. Each new reproducer's build.sh (corpus/repro/NAME, copied to /tmp first): its transcript in
#    $OUT/NAME.txt, its SASS (build.sh's sass-O0/-O3/-O3-c, plus ptxas -O0 -c and -O1 -c) in
#    $OUT/repro/NAME/.
# 2. The variants v/*.ptx (PREDICT.txt) through the driver's JIT linker (`warpdiff diff
#    --gpu-helpers`, the hunts' compile) at -O0..-O3 and whole-program (in-process) at -O1 and -O3:
#    $OUT/levels.txt, $OUT/whole.txt, the table $OUT/table.md (table.py).
# 3. The SASS of each variant's module (`warpdiff emit-ptx`): ptxas -O3 -c and -O1 -c for all,
#    and -O0 -c and -O3 whole-program for N26's and N26X's (x*, n*): $OUT/sass/NAME-*.sass.
# Needs: nvcc, ptxas, cuobjdump, python3, one GPU. Takes about 3 minutes.
set -u
D=$(cd "$(dirname "$0")" && pwd)
ROOT=$(cd "$D/../.." && pwd)
W=$D/warpdiff; chmod +x $W 2>/dev/null
T=/tmp/s11; rm -rf $T; mkdir -p $T/mod $OUT/sass $OUT/repro
{ nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; ptxas --version | tail -1; } | tee $OUT/host.txt
start=$(date +%s)

# 1. The reproducers.
for n in mj-match-at-join-of-two-paths n26x-predicate-copy-lost-at-exit or64-low-word-ones-drops-high-word; do
  cp -r $ROOT/corpus/repro/$n $T/$n
  timeout 120 sh $T/$n/build.sh > $OUT/$n.txt 2>&1; echo "exit $?" >> $OUT/$n.txt
  mkdir -p $OUT/repro/$n
  cp $T/$n/sass-*.txt $OUT/repro/$n/ 2>/dev/null
  for o in 0 1; do
    ptxas -arch=sm_90 -O$o -c $T/$n/kernel.ptx -o $T/$n/k-O$o-c.cubin && cuobjdump -sass $T/$n/k-O$o-c.cubin > $OUT/repro/$n/sass-O$o-c.txt
  done
  echo "== $n ($(( $(date +%s) - start )) s)"; grep -v "^  %" $OUT/$n.txt | tail -15
done

# 2. The variants at each level.
# One `diff` per group and level, each bounded (a hang or a lost context costs that group only).
cd $D/v
groups="x n mj o"
for L in 0 1 2 3; do
  echo "== linker -O$L"
  for g in $groups; do
    timeout 60 $W diff --engines interp,gpu --gpu-helpers --gpu-opt-level $L $g[0-9]*.ptx 2>&1 | grep -v "^warpdiff: using"
    echo "-- group $g: exit ${PIPESTATUS[0]}"
  done
done > $OUT/levels.txt 2>&1
for L in 1 3; do
  echo "== whole -O$L"
  for g in $groups; do
    timeout 60 $W diff --engines interp,gpu --gpu-opt-level $L $g[0-9]*.ptx 2>&1 | grep -v "^warpdiff: using"
    echo "-- group $g: exit ${PIPESTATUS[0]}"
  done
done > $OUT/whole.txt 2>&1
echo "== variants done ($(( $(date +%s) - start )) s)"
python3 $D/table.py $D/PREDICT.txt $OUT/levels.txt $OUT/whole.txt > $OUT/table.md
cut -c1-400 $OUT/table.md

# 3. The variants' SASS.
for f in *.ptx; do
  n=${f%.ptx}
  $W emit-ptx $f > $T/mod/$n.ptx 2> $T/mod/$n.err || { echo "$n: emit-ptx failed: $(head -2 $T/mod/$n.err)"; continue; }
  opts="-O3:-c -O1:-c"
  case $n in x*|n*) opts="$opts -O0:-c -O3:";; esac
  for o in $opts; do
    lvl=${o%%:*}; c=${o#*:}
    ptxas -arch=sm_90 $lvl $c $T/mod/$n.ptx -o $T/mod/$n.cubin 2>> $OUT/sass/ptxas-errors.txt \
      && cuobjdump -sass $T/mod/$n.cubin > $OUT/sass/$n$lvl$c.sass
  done
  cp $T/mod/$n.ptx $OUT/sass/$n.module.ptx
done
echo "== all done ($(( $(date +%s) - start )) s)"
ls $OUT/sass | wc -l
