#!/bin/bash
# Session 12, call: issue #36's second figure at HEAD, `warpdiff run` of a 1M-element saxpy, interp
# three times, jit five times, wall time each (the Xeon of the GPU host).
D=$(cd "$(dirname "$0")" && pwd); cd "$D/../.."
python3 -c "
import random, struct
random.seed(12)
for n in ('x', 'y'):
    open('/tmp/'+n+'.bin', 'wb').write(struct.pack('<1048576f', *[random.uniform(-100, 100) for _ in range(1048576)]))
"
A="corpus/kernels/nvcc/saxpy.ptx --kernel saxpy --grid 4096 --block 256 --buffer x=file:/tmp/x.bin --buffer y=file:/tmp/y.bin --param saxpy_param_0=1048576 --param saxpy_param_1=0x40200000 --param saxpy_param_2=buffer:x --param saxpy_param_3=buffer:y"
echo "# $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2) ($(nproc) cores), $(git rev-parse --short HEAD 2>/dev/null)"
for e in interp interp interp jit jit jit jit jit; do
  s=$(date +%s.%N); $D/warpdiff run --engine $e $A > /tmp/out-$e.txt; rc=$?; t=$(date +%s.%N)
  echo "$e rc=$rc $(python3 -c "print(f'{($t-$s)*1000:.0f} ms')")"
done
cmp <(tail -n +2 /tmp/out-interp.txt) <(tail -n +2 /tmp/out-jit.txt) && echo "interp and jit print the same buffers"
