#!/usr/bin/env python3
"""The reference client (jit_client.py) with one planted bug, the kind a
simulator's author makes: `vote.sync.uni` is computed as `vote.sync.all`,
forgetting that a predicate false on every participating lane is uniform
too. warpdiff's tests fuzz it and must find, reduce and record the bug:

    warpdiff fuzz --engines interp,cmd:"python3 examples/engines/buggy_client.py"
"""

import os
import sys

sys.dont_write_bytecode = True  # no __pycache__ beside the examples
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import jit_client  # noqa: E402


def planted_bug(case):
    return case.replace("vote.sync.uni.pred", "vote.sync.all.pred")


def run_jobs(request):
    return jit_client.jit_jobs(request, transform_case=planted_bug)


if __name__ == "__main__":
    jit_client.serve("buggy-client", "1.0", run_jobs)
