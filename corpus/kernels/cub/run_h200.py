#!/usr/bin/env python3
"""The kernels of this folder (issue #37: CUB, cooperative groups, warp-aggregated atomics,
approximate math, common kernels): compiled by nvcc for sm_90 and run three times on an H200
by ../h200run.py. Usage, in this folder on the GPU machine: `python3 run_h200.py [NAME ...]`."""
import os
import sys

import numpy as np

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
import h200run  # noqa: E402

rs = np.random.RandomState(37)
i32 = lambda lo, hi, n: rs.randint(lo, hi, n).astype(np.int32)  # noqa: E731
f32 = lambda lo, hi, n: rs.uniform(lo, hi, n).astype(np.float32)  # noqa: E731

SPECS = {
    "cub_warp_reduce": dict(grid=(2,), block=(128,), params=[
        ("in", "in", i32(-1000, 1000, 256)), ("out", "out", 256)]),
    "cub_warp_scan": dict(grid=(2,), block=(128,), params=[
        ("in", "in", i32(-100, 100, 256)), ("out", "inc", 256), ("out", "exc", 256)]),
    "cub_block_reduce_raking": dict(grid=(4,), block=(128,), params=[
        ("in", "in", i32(-10**6, 10**6, 512)), ("out", "out", 4)]),
    "cub_block_reduce_warps": dict(grid=(4,), block=(128,), params=[
        ("in", "in", i32(-10**6, 10**6, 512)), ("out", "out", 8)]),
    "cub_block_scan_raking": dict(grid=(2,), block=(128,), params=[
        ("in", "in", i32(-100, 100, 256)), ("out", "out", 256), ("out", "total", 2)]),
    "cub_block_scan_warp_scans": dict(grid=(2,), block=(128,), params=[
        ("in", "in", i32(-100, 100, 256)), ("out", "out", 256)]),
    "cub_block_load_store": dict(grid=(2,), block=(128,), params=[
        ("in", "in", i32(-10**5, 10**5, 1024)), ("out", "out", 1024)]),
    "cub_warp_exchange": dict(grid=(2,), block=(64,), params=[
        ("in", "in", np.arange(512, dtype=np.int32) * 7 - 1000), ("out", "out", 512)]),
    "cub_block_radix_sort": dict(grid=(2,), block=(128,), params=[
        ("in", "in", rs.randint(0, 2**32, 1024, dtype=np.uint64).astype(np.uint32)), ("out", "out", 1024)]),
    "cg_tiles": dict(grid=(2,), block=(64,), params=[
        ("in", "in", i32(-20, 20, 128)), ("out", "out", 768)]),
    "atomic_hist_match": dict(grid=(4,), block=(128,), params=[
        ("in", "keys", rs.randint(0, 2**32, 512, dtype=np.uint64).astype(np.uint32)),
        ("inout", "hist", np.zeros(16, dtype=np.uint32))]),
    "atomic_compact": dict(grid=(4,), block=(128,), params=[
        ("in", "in", i32(-50, 50, 512)), ("out", "out", 512), ("inout", "count", np.zeros(1, dtype=np.uint32))]),
    "atomic_mix": dict(grid=(4,), block=(128,), params=[
        ("in", "in", i32(-1000, 1000, 512)),
        ("inout", "iw", np.array([-2**31, 2**31 - 1, 0, 0, -1, 0, 0, 0], dtype=np.int32)),
        ("inout", "uw", np.array([0] * 8 + [0, 500], dtype=np.uint32)),
        ("inout", "fw", np.zeros(2, dtype=np.float32)),
        ("inout", "dw", np.zeros(1, dtype=np.float64)),
        ("out", "old", 512)]),
    "approx_softmax": dict(grid=(2,), block=(64,), params=[
        ("in", "in", f32(-5, 5, 128)), ("out", "out", 128)]),
    "approx_funcs": dict(grid=(1,), block=(64,), params=[
        ("in", "in", f32(-10, 10, 64)), ("out", "out", 512)]),
    "layer_norm": dict(grid=(2,), block=(64,), params=[
        ("in", "in", rs.normal(0, 2, 128).astype(np.float32)), ("in", "gamma", f32(0.5, 1.5, 32)),
        ("in", "beta", f32(-1, 1, 32)), ("out", "out", 128)]),
    "stencil_shared": dict(grid=(4,), block=(128,), params=[
        ("in", "in", f32(-1, 1, 512)), ("out", "out", 512), ("value", np.int32(512))]),
}

if __name__ == "__main__":
    h200run.main(SPECS)
