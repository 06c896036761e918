#!/bin/bash
D=$(cd "$(dirname "$0")" && pwd); cd "$D/../.."
[ -e /tmp/x.bin ] || python3 -c "
import random, struct
random.seed(12)
for n in ('x', 'y'):
    open('/tmp/'+n+'.bin', 'wb').write(struct.pack('<1048576f', *[random.uniform(-100, 100) for _ in range(1048576)]))
"
A="corpus/kernels/nvcc/saxpy.ptx --kernel saxpy --grid 4096 --block 256 --buffer x=file:/tmp/x.bin --buffer y=file:/tmp/y.bin --param saxpy_param_0=1048576 --param saxpy_param_1=0x40200000 --param saxpy_param_2=buffer:x --param saxpy_param_3=buffer:y"
for i in 1 2 3 4 5 6; do
  s=$(date +%s%N); WARPDIFF_TIMINGS=1 $D/warpdiff run --engine jit $A 2>&1 >/dev/null | grep timings; t=$(date +%s%N); echo "  wall $(( (t-s)/1000000 )) ms"
done
for i in 1 2 3; do s=$(date +%s%N); $D/warpdiff run --engine interp $A > /dev/null; t=$(date +%s%N); echo "interp wall $(( (t-s)/1000000 )) ms"; done
