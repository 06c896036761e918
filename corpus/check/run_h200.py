#!/usr/bin/env python3
"""The bug patterns of this folder and their fixed twins (issue #38), compiled by nvcc for
sm_90 and run three times on an H200 by ../kernels/h200run.py. Usage, in this folder on the GPU
machine: `python3 run_h200.py [NAME ...]`."""
import os
import sys

import numpy as np

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "kernels"))
import h200run  # noqa: E402

ints = (np.arange(64, dtype=np.int32) * 37 % 101 - 50).astype(np.int32)
floats = np.arange(32, dtype=np.float32) * 0.5 - 1.75
SPECS = {}
for pair, grid, block, params in [
    ("reduce7", (1,), (32,), [("in", "in", floats), ("out", "out", 1)]),
    ("odd_from_even", (1,), (32,), [("in", "in", ints[:32]), ("out", "out", 32)]),
    ("half_shared", (1,), (64,), [("in", "in", ints), ("out", "out", 64)]),
    ("warp_sync_reduce", (1,), (64,), [("in", "in", ints), ("out", "out", 1)]),
    ("activemask_count", (1,), (32,), [("in", "in", ints[:32]), ("out", "out", 32)]),
]:
    for twin in ("bug", "fixed"):
        SPECS[f"{pair}_{twin}"] = dict(grid=grid, block=block, params=params)

if __name__ == "__main__":
    h200run.main(SPECS)
