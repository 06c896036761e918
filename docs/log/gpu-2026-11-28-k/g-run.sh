#!/bin/bash
# Session 11, call g: the two minimal batches' modules (9 kernels, the diverged one last: k8) and the
# diverged kernel alone (k0), through ptxas -O3 -c (the linker's compile) and -O0 -c, their SASS.
D=$(cd "$(dirname "$0")" && pwd); R=/tmp/s11g; rm -rf $R; mkdir -p $R
ptxas --version | tail -1 > $R/host.txt
for m in mod-am alone-am mod-ma alone-ma; do
  for o in 3 0; do
    ptxas -arch=sm_90 -O$o -c $D/$m.ptx -o $R/$m-O$o.cubin 2> $R/$m-O$o.err && cuobjdump -sass $R/$m-O$o.cubin > $R/$m-O$o.sass
  done
  ptxas -arch=sm_90 -O3 $D/$m.ptx -o $R/$m-O3-whole.cubin 2>> $R/$m-O3.err && cuobjdump -sass $R/$m-O3-whole.cubin > $R/$m-O3-whole.sass
done
rm -f $R/*.cubin; ls -la $R
cd /tmp && tar czf $OUT/s11g.tgz s11g
