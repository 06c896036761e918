#!/usr/bin/env python3
"""Compiles CUDA kernels with nvcc for sm_90 and records what an H200 stores (issues #37, #38).

Used by `cub/run_h200.py` and `../check/run_h200.py`, each of which gives a SPECS table:
kernel name -> dict(grid, block, params), a param being ("value", numpy scalar),
("in", BUF, array) (a buffer with those contents), ("out", BUF, WORDS) (a buffer of WORDS
32-bit words pre-filled with aaaaaaaa) or ("inout", BUF, array) (initial contents given,
recorded after the run like an output).

For each kernel NAME (all, or those named on the command line): `nvcc -ptx -arch=sm_90
NAME.cu -o NAME.ptx` (the PTX exactly as nvcc writes it; its version is printed), then three
runs, each in a fresh buffer set, with cupy's RawModule on that PTX; writes NAME.launch (for
`warpdiff run --launch`), NAME.gpu.txt (every buffer after the first run, 32-bit words in hex,
the `.expect` format) and NAME.gpu-runs.txt (the three runs' words, and which words differed
between runs: `runs differ at BUF[i]: a b c`). A kernel that fails to compile or run is
reported and the others go on. Exit status 1 if any failed."""
import subprocess
import sys
import traceback

import numpy as np

FILL = 0xAAAAAAAA
RUNS = 3


def words(a):
    return " ".join(f"{w:08x}" for w in np.ascontiguousarray(a).view(np.uint32))


def value_bits(v):
    return " ".join(f"0x{w:x}" for w in np.array([v]).view(np.uint32))


def run_one(cp, name, s):
    fn = cp.RawModule(path=f"{name}.ptx").get_function(name)
    args, bufs = [], []
    for p in s["params"]:
        if p[0] == "value":
            args.append(p[1])
        elif p[0] in ("in", "inout"):
            a = cp.asarray(np.ascontiguousarray(p[2]))
            args.append(a)
            bufs.append((p[1], a))
        else:
            a = cp.full(p[2], FILL, dtype=cp.uint32)
            args.append(a)
            bufs.append((p[1], a))
    fn(s["grid"], s["block"], tuple(args))
    cp.cuda.Device().synchronize()
    return [(b, cp.asnumpy(a).view(np.uint32).copy()) for b, a in bufs]


def launch_text(name, s):
    lines = [
        f"# {name}: the inputs run_h200.py used (grid {s['grid']}, block {s['block']}); "
        f"the H200 stored {name}.gpu.txt",
        f"kernel {name}",
        "grid " + ",".join(map(str, s["grid"])),
        "block " + ",".join(map(str, s["block"])),
    ]
    params = []
    for k, p in enumerate(s["params"]):
        pname = f"{name}_param_{k}"
        if p[0] == "value":
            v = np.array([p[1]])
            if v.dtype.itemsize == 4:
                params.append(f"param {pname} value 0x{int(v.view(np.uint32)[0]):x}")
            else:
                params.append(f"param {pname} value 0x{int(v.view(np.uint64)[0]):x}")
        elif p[0] in ("in", "inout"):
            lines.append(f"buffer {p[1]} u32 {words(p[2])}")
            params.append(f"param {pname} buffer {p[1]}")
        else:
            lines.append(f"buffer {p[1]} fill aaaaaaaa {p[2]}")
            params.append(f"param {pname} buffer {p[1]}")
    return "\n".join(lines + params) + "\n"


def main(specs):
    import cupy as cp

    names = sys.argv[1:] or list(specs)
    nvcc = subprocess.run(["nvcc", "--version"], capture_output=True, text=True).stdout.strip().splitlines()
    print("nvcc:", nvcc[-1] if nvcc else "?")
    print("GPU:", cp.cuda.runtime.getDeviceProperties(0)["name"].decode(),
          "driver", cp.cuda.runtime.driverGetVersion())
    bad = 0
    for name in names:
        s = specs[name]
        try:
            r = subprocess.run(["nvcc", "-ptx", "-arch=sm_90", f"{name}.cu", "-o", f"{name}.ptx"],
                               capture_output=True, text=True)
            if r.returncode != 0:
                raise RuntimeError("nvcc failed:\n" + r.stderr[-3000:])
            runs = [run_one(cp, name, s) for _ in range(RUNS)]
            with open(f"{name}.launch", "w") as f:
                f.write(launch_text(name, s))
            with open(f"{name}.gpu.txt", "w") as f:
                f.write(f"# {name}: what the H200 stored (run_h200.py, first of {RUNS} runs), "
                        f"outputs pre-filled with aaaaaaaa\n")
                for b, a in runs[0]:
                    f.write(f"{b}: {words(a)}\n")
            differ = []
            with open(f"{name}.gpu-runs.txt", "w") as f:
                f.write(f"# {name}: the {RUNS} runs on the H200 (run_h200.py)\n")
                for k, run in enumerate(runs):
                    for b, a in run:
                        f.write(f"run {k + 1} {b}: {words(a)}\n")
                for j, (b, a) in enumerate(runs[0]):
                    for i in range(len(a)):
                        vals = {int(run[j][1][i]) for run in runs}
                        if len(vals) > 1:
                            differ.append(f"{b}[{i}]")
                            f.write(f"runs differ at {b}[{i}]: "
                                    + " ".join(f"{int(run[j][1][i]):08x}" for run in runs) + "\n")
                if not differ:
                    f.write("the runs agree on every word\n")
            print(f"{name}: ok" + (f"; runs differ at {len(differ)} words: {' '.join(differ[:8])}" if differ else
                                   "; the three runs agree"))
        except Exception:
            bad += 1
            print(f"{name}: FAILED:\n{traceback.format_exc()[-3000:]}")
    sys.exit(1 if bad else 0)
