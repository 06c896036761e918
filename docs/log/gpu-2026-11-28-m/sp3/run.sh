#!/bin/bash
# H44 (session 13): SP (N32). (1) The reproducer corpus/repro/sp-redux-under-out-of-range-shfl-predicate
# (copied to ./repro): its build.sh > h200.txt (every level, whole program and the driver's JIT linker),
# plus the -O1 SASS (ptxas -O1 -c, the linker's relocatable compile, and -O1 whole program) and
# ./repro --cubin of the -O1 whole-program cubin. (2) The variants of docs/log/gpu-2026-11-28-m/sp3/variants/ (and
# the two original found variants as controls: orig8 = session 8's shfl-pred.found, orig12 =
# session 12's sp.found) through `warpdiff diff --engines interp,gpu --gpu-helpers` at -O0, -O1, -O3.
# Everything lands in $OUT/sp/. Expected wall time: about 60-90 s.
set -u
D=$(cd "$(dirname "$0")" && pwd)
O=${OUT:-/tmp/h44-out}/sp; mkdir -p $O
START=$(date +%s)
{ nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; ptxas --version | tail -1; date -u; } > $O/host.txt 2>&1
# (1) the reproducer
cd $D/repro
timeout 150 ./build.sh > h200.txt 2>&1; echo "rc $?" >> h200.txt
ptxas -arch=sm_90 -O1 -c kernel.ptx -o kernel-O1-c.cubin && cuobjdump -sass kernel-O1-c.cubin > sass-O1-c.txt
ptxas -arch=sm_90 -O1 kernel.ptx -o kernel-O1.cubin && cuobjdump -sass kernel-O1.cubin > sass-O1.txt
{ echo "== ./repro --cubin kernel-O1.cubin (ptxas -O1, whole program)"; timeout 20 ./repro --cubin kernel-O1.cubin; echo "rc $?"; } > cubin-O1.txt 2>&1
cp h200.txt cubin-O1.txt sass-*.txt $O/ 2>/dev/null
echo "reproducer done at $(( $(date +%s) - START )) s" >> $O/host.txt
# (2) the variants, one call per level (all files in it)
cd $D/variants
for L in 1 0 3; do
  o=$O/variants-O$L.txt
  timeout 60 $D/warpdiff diff --engines interp,gpu --gpu-helpers --gpu-opt-level $L *.ptx > $o 2>&1 < /dev/null
  echo "rc $? (-O$L)" >> $o
done
cp PREDICT.txt $O/
echo "elapsed $(( $(date +%s) - START )) s" >> $O/host.txt
cat $O/host.txt
grep -E "^(driver|kernel|repro|rc|Build)|lane 0:" $O/h200.txt $O/cubin-O1.txt
for L in 0 1 3; do echo "== -O$L"; grep -E "DIVERGES|interp = gpu|^rc|rror" $O/variants-O$L.txt; done
