#!/usr/bin/env python3
"""A broken external engine for warpdiff's tests: shakes hands, then
never answers a request."""

import json
import sys
import time

while True:
    line = sys.stdin.buffer.readline()
    if not line:
        break
    msg = json.loads(line)
    if msg["type"] == "hello":
        print(json.dumps({"type": "hello", "protocol": 1, "name": "sleeps-forever", "version": "1"}), flush=True)
    else:
        sys.stderr.write("sleeps-forever: got %d jobs, sleeping\n" % len(msg["jobs"]))
        sys.stderr.flush()
        while True:
            time.sleep(60)
