#!/usr/bin/env python3
"""A broken external engine for warpdiff's tests: shakes hands, then on
every request writes half of its answer and exits with status 3."""

import json
import os
import sys

while True:
    line = sys.stdin.buffer.readline()
    if not line:
        break
    msg = json.loads(line)
    if msg["type"] == "hello":
        print(json.dumps({"type": "hello", "protocol": 1, "name": "exits-mid-batch", "version": "1"}), flush=True)
    else:
        sys.stdout.write('{"type":"result","id":%d,"jobs":[{"output":"0000' % msg["id"])
        sys.stdout.flush()
        sys.stderr.write("exits-mid-batch: simulated crash in a batch of %d jobs\n" % len(msg["jobs"]))
        sys.stderr.flush()
        os._exit(3)
