#!/bin/bash
# Session 10, call 2: is the helpers' compile (cuLinkAddData of PTX) the relocatable compile of
# ptxas (-c)? For each module the helpers compiled in call 1 (devrun/rdc): ptxas -c and ptxas
# (whole program) at -O0..-O3, whether each exits or dies, and the -O3 SASS of ptxas -c against the
# helper's cubin.
set -u
D=$(cd "$(dirname "$0")" && pwd); cd "$D/rdc"
R=/tmp/s10b; rm -rf $R; mkdir -p $R
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee $R/host.txt
ptxas --version | tail -1 | tee -a $R/host.txt
sass() { cuobjdump -sass $1 | grep -E "^\s+/\*[0-9a-f]{4}\*/" | sed 's#/\*[0-9a-f]*\*/##g; s/ *;.*//'; }
for f in *.ptx; do
  n=${f%.ptx}
  for O in 0 1 2 3; do
    for m in "-c" ""; do
      timeout 60 ptxas -arch=sm_90 -O$O $m $f -o $R/$n-O$O${m:+-c}.cubin > /dev/null 2>$R/err.txt
      rc=$?; echo "$n ptxas -O$O ${m:-(whole program)}: exit $rc $(grep -v warning $R/err.txt | head -2 | tr '\n' ' ')"
    done
  done
  if [ -f $n.helper.cubin ] && [ -f $R/$n-O3-c.cubin ]; then
    sass $n.helper.cubin > $R/$n.helper.sass; sass $R/$n-O3-c.cubin > $R/$n-O3-c.sass
    echo "$n: helper SASS against ptxas -O3 -c: $(diff $R/$n.helper.sass $R/$n-O3-c.sass | grep -c '^[<>]') differing lines of $(wc -l < $R/$n.helper.sass)"
  fi
done > $R/rdc.txt 2>&1
cat $R/rdc.txt
rm -f $R/*.cubin
cd /tmp && tar czf $OUT/s10b.tgz s10b
