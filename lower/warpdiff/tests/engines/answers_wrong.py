#!/usr/bin/env python3
"""A broken external engine for warpdiff's tests, broken as argv[1] says:

- `length`: every output one word short;
- `status`: a status word of 7 on lane 0;
- `refuse`: refuses every request with an `error` message;
- `batch-only`: exits when a request has more than one job, answers a
  lone job right (through the reference client, examples/engines/).
"""

import json
import os
import sys

sys.dont_write_bytecode = True
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "../../../../examples/engines"))
import jit_client  # noqa: E402

how = sys.argv[1]


def send(msg):
    print(json.dumps(msg), flush=True)


def zeros(n):
    return "00" * 8 * n


while True:
    line = sys.stdin.buffer.readline()
    if not line:
        break
    msg = json.loads(line)
    if msg["type"] == "hello":
        send({"type": "hello", "protocol": 1, "name": "answers-wrong", "version": "1"})
        continue
    jobs = msg["jobs"]
    if how == "refuse":
        send({"type": "error", "id": msg["id"], "message": "no module loader here"})
    elif how == "batch-only":
        if len(jobs) > 1:
            sys.stderr.write("answers-wrong: out of memory for %d jobs\n" % len(jobs))
            sys.exit(5)
        send({"type": "result", "id": msg["id"], "jobs": jit_client.jit_jobs(msg)})
    elif how == "length":
        send({"type": "result", "id": msg["id"], "jobs": [{"output": zeros(j["out_words"] - 1)} for j in jobs]})
    elif how == "status":
        out = []
        for j in jobs:
            words = "00" * 8 * (j["out_words"] - 32)
            out.append({"output": words + "07" + "00" * 7 + zeros(31)})
        send({"type": "result", "id": msg["id"], "jobs": out})
    else:
        sys.exit("answers-wrong: no such way to be wrong: %s" % how)
