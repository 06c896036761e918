#!/usr/bin/env python3
"""Compiles the six CUDA examples of this folder that run_gpu.py does not
run (saxpy, transpose, syncwarp_reduce, block_scan, bitops, fp_round) with
`nvcc -ptx -arch=sm_90` (CUDA 13.0), runs the PTX on the GPU with fixed
inputs (cupy), and writes NAME.ptx, NAME.launch (the same launch for
warpdiff) and NAME.gpu.txt (every buffer after the run, 32-bit words in
hex). Run on an H200 (driver 580.159.04) on 2026-11-23; usage:
`python3 run_more.py` in this folder, with nvcc on PATH, cupy and a GPU."""
import subprocess, sys
import numpy as np
import cupy as cp

FILL = 0xAAAAAAAA

def words(a):
    return " ".join(f"{w:08x}" for w in np.ascontiguousarray(a).view(np.uint32))

rs = np.random.RandomState(2026)
i128 = np.arange(128)
SPECS = {
    "saxpy": dict(grid=(2,), block=(64,), params=[
        ("value", np.int32(100)), ("value", np.float32(2.5)),
        ("in", "x", (i128 * 0.37 - 5.1).astype(np.float32)),
        ("in", "y", (i128 * 1.13 + 0.5).astype(np.float32))]),
    "transpose": dict(grid=(2, 2), block=(32, 8), params=[
        ("out", "out", 64 * 64), ("in", "in", np.arange(64 * 64, dtype=np.float32) * 0.5),
        ("value", np.int32(64)), ("value", np.int32(64))]),
    "syncwarp_reduce": dict(grid=(2,), block=(64,), params=[
        ("in", "in", (i128 * 37 % 101 - 50).astype(np.int32)), ("out", "out", 4)]),
    "block_scan": dict(grid=(1,), block=(128,), params=[
        ("in", "in", (i128 * 13 % 17 - 8).astype(np.int32)), ("out", "out", 128)]),
    "bitops": dict(grid=(1,), block=(32,), params=[
        ("in", "a", rs.randint(0, 2**32 - 1, 32, dtype=np.uint64).astype(np.uint32) | np.uint32(2)),
        ("in", "b", rs.randint(0, 2**32 - 1, 32, dtype=np.uint64).astype(np.uint32)),
        ("out", "out", 32 * 16)]),
    "fp_round": dict(grid=(1,), block=(32,), params=[
        ("in", "f", rs.uniform(-100, 100, 64).astype(np.float32)),
        ("in", "d", rs.uniform(-1e6, 1e6, 64).astype(np.float64)),
        ("in", "k", rs.randint(-2**30, 2**30, 32).astype(np.int32)),
        ("out", "out", 32 * 20)]),
}

def main():
    bad = 0
    for name, s in SPECS.items():
        try:
            subprocess.run(["nvcc", "-ptx", "-arch=sm_90", f"{name}.cu", "-o", f"{name}.ptx"], check=True)
            fn = cp.RawModule(path=f"{name}.ptx").get_function(name)
            args, bufs, launch = [], [], [f"# {name}: grid {s['grid']}, block {s['block']}; written by run.py", f"kernel {name}",
                      "grid " + ",".join(map(str, s["grid"])), "block " + ",".join(map(str, s["block"]))]
            for k, p in enumerate(s["params"]):
                pname = f"{name}_param_{k}"
                if p[0] == "value":
                    args.append(p[1])
                    bits = int(np.array([p[1]]).view(np.uint32)[0])
                    launch.append(f"param {pname} value 0x{bits:x}")
                elif p[0] == "in":
                    a = cp.asarray(p[2]); args.append(a); bufs.append((p[1], a))
                    launch.insert(4 + len(bufs) - 1, f"buffer {p[1]} u32 {words(p[2])}")
                    launch.append(f"param {pname} buffer {p[1]}")
                else:
                    a = cp.full(p[2], FILL, dtype=cp.uint32); args.append(a); bufs.append((p[1], a))
                    launch.insert(4 + len(bufs) - 1, f"buffer {p[1]} fill aaaaaaaa {p[2]}")
                    launch.append(f"param {pname} buffer {p[1]}")
            fn(s["grid"], s["block"], tuple(args))
            cp.cuda.Device().synchronize()
            with open(f"{name}.launch", "w") as f:
                f.write("\n".join(launch) + "\n")
            with open(f"{name}.gpu.txt", "w") as f:
                f.write(f"# {name}: what the GPU stored (run.py), outputs pre-filled with aaaaaaaa\n")
                for b, a in bufs:
                    f.write(f"{b}: {words(cp.asnumpy(a))}\n")
            print(f"{name}: ok")
        except Exception as e:
            bad += 1
            print(f"{name}: FAILED: {e}")
    sys.exit(1 if bad else 0)

main()
