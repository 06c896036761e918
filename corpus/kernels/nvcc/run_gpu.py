#!/usr/bin/env python3
"""Runs the nvcc-built kernels of this folder on the GPU (issue #13) and
writes what they stored, as the ground truth the CPU engines are compared
with: `<kernel>.gpu.txt`, one line per buffer, `name: w0 w1 ...` in hex
(u32 words). Inputs are fixed here and repeated in the .launch files.

Usage: python3 run_gpu.py   (after `nvcc -ptx -arch=sm_90 X.cu -o X.ptx`)
Needs cupy and a GPU.
"""
import cupy as cp
import numpy as np

N = 64  # one block of 64 threads: two full warps
SENTINEL = 0xAAAAAAAA


def inputs():
    i = np.arange(N, dtype=np.int64)
    return {
        "signed": ((i * 37 + 11) % 101 - 50).astype(np.int32),
        "keys": ((i * 7) % 5).astype(np.int32),
        "wrap": ((i * i * 2654435761) % (1 << 32)).astype(np.uint32),
    }


KERNELS = [
    ("warp_sum_xor", [("in", "signed")], [("out", N)]),
    ("ballot_compact", [("in", "signed")], [("out", N), ("count", 2)]),
    ("match_any_group", [("key", "keys")], [("mask", N), ("size", N)]),
    ("reduce_add", [("in", "wrap")], [("all", N), ("even", N)]),
]


def main():
    data = inputs()
    for name, ins, outs in KERNELS:
        mod = cp.RawModule(path=f"{name}.ptx")
        fn = mod.get_function(name)
        args, lines = [], []
        for pname, src in ins:
            a = cp.asarray(data[src].view(np.uint32))
            args.append(a)
            lines.append(f"{pname}: " + " ".join(f"{w:08x}" for w in data[src].view(np.uint32)))
        out_bufs = []
        for pname, n in outs:
            b = cp.full(n, SENTINEL, dtype=cp.uint32)
            args.append(b)
            out_bufs.append((pname, b))
        fn((1,), (N,), tuple(args))
        cp.cuda.Device().synchronize()
        for pname, b in out_bufs:
            lines.append(f"{pname}: " + " ".join(f"{w:08x}" for w in cp.asnumpy(b)))
        with open(f"{name}.gpu.txt", "w") as f:
            f.write(f"# {name}: grid 1, block {N}; outputs pre-filled with {SENTINEL:08x}\n")
            f.write("\n".join(lines) + "\n")
        print(f"{name}: ok")


if __name__ == "__main__":
    main()
