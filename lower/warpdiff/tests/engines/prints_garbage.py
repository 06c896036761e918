#!/usr/bin/env python3
"""A broken external engine for warpdiff's tests: shakes hands, then
answers every request with a debug print on stdout instead of a result."""

import json
import sys

while True:
    line = sys.stdin.buffer.readline()
    if not line:
        break
    msg = json.loads(line)
    if msg["type"] == "hello":
        print(json.dumps({"type": "hello", "protocol": 1, "name": "prints-garbage", "version": "1"}), flush=True)
    else:
        print("DEBUG: running %d jobs" % len(msg["jobs"]), flush=True)
