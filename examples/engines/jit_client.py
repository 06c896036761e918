#!/usr/bin/env python3
"""The reference external engine for warpdiff: the engine protocol
(docs/engine-protocol.md), version 1, in Python with the standard library
only.

    warpdiff fuzz --engines interp,cmd:"python3 examples/engines/jit_client.py"

It runs each request's jobs on warpdiff's own Cranelift JIT: every job's
case (the `.ptx` text the request carries) goes into a temporary folder,
one `warpdiff run --engine jit --json FILE...` runs them all, and each
JSON line it prints becomes the job's output buffer in the kernel's layout
(word r*32 + lane = register r on that lane, then one status word per lane:
0 = ran to the end, 1 = exited). So it agrees with warpdiff everywhere,
which makes it the end-to-end test of the protocol, and a template: give
`serve` your own `run_jobs`, which gets each request (the module's PTX, its
kernels, each job's input buffer and case) and returns one entry per job.

warpdiff is found as $WARPDIFF_EXE (warpdiff sets it for the engines it
starts), else as `warpdiff` on PATH.
"""

import json
import os
import shutil
import struct
import subprocess
import sys
import tempfile
import traceback

PROTOCOL = 1
WARP = 32


def send(msg):
    """Writes one protocol message: one JSON object on one line."""
    sys.stdout.write(json.dumps(msg, separators=(",", ":")) + "\n")
    sys.stdout.flush()


def words_to_hex(words):
    """A buffer as the protocol writes it: little-endian u64 words, hex."""
    return struct.pack("<%dQ" % len(words), *words).hex()


def hex_to_words(text):
    """The inverse of words_to_hex."""
    raw = bytes.fromhex(text)
    return list(struct.unpack("<%dQ" % (len(raw) // 8), raw))


def warpdiff_exe():
    exe = os.environ.get("WARPDIFF_EXE") or shutil.which("warpdiff")
    if not exe:
        raise RuntimeError("warpdiff not found: set WARPDIFF_EXE or put warpdiff on PATH")
    return exe


def output_words(obj, out_words):
    """A `warpdiff run --json` object as the job's output buffer."""
    regs = list(obj["regs"].values())  # declaration order = register index
    if (len(regs) + 1) * WARP != out_words:
        raise ValueError("%d registers, but out_words is %d" % (len(regs), out_words))
    words = [0] * out_words
    for r, lanes in enumerate(regs):
        for lane, value in enumerate(lanes):
            words[r * WARP + lane] = value or 0  # null (undefined): any value will do
    for lane in range(WARP):
        words[len(regs) * WARP + lane] = obj["exited"] >> lane & 1
    return words


def jit_jobs(request, transform_case=None):
    """Runs every job of a `run` request on warpdiff's JIT; one result
    entry per job. `transform_case` may rewrite each case first."""
    jobs = request["jobs"]
    with tempfile.TemporaryDirectory(prefix="warpdiff-jit-client-") as tmp:
        files = []
        for i, job in enumerate(jobs):
            case = job["case"]
            if transform_case is not None:
                case = transform_case(case)
            path = os.path.join(tmp, "job%05d.ptx" % i)
            with open(path, "w") as f:
                f.write(case)
            files.append(path)
        done = subprocess.run(
            [warpdiff_exe(), "run", "--engine", "jit", "--json", *files],
            stdin=subprocess.DEVNULL,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
    lines = done.stdout.splitlines()
    if len(lines) != len(files):
        raise RuntimeError(
            "warpdiff run printed %d lines for %d files (status %d): %s"
            % (len(lines), len(files), done.returncode, done.stderr.strip()[-500:])
        )
    results = []
    for path, line, job in zip(files, lines, jobs):
        obj = json.loads(line)
        if obj.get("file") != path:
            raise RuntimeError("warpdiff run answered for %r, expected %r" % (obj.get("file"), path))
        if "error" in obj:
            message = obj["error"].replace(path + ": ", "")
            # "jit skips it: ..." is a limit of the JIT (a skip), anything else a failure.
            if message.startswith("jit skips it: "):
                results.append({"skip": message})
            else:
                results.append({"error": message})
        elif "ub" in obj:
            results.append({"error": "the JIT reported undefined behaviour: %s" % obj["ub"]})
        else:
            results.append({"output": words_to_hex(output_words(obj, job["out_words"]))})
    return results


def serve(name, version, run_jobs=jit_jobs):
    """The protocol loop: answers `hello`, then each `run` with
    run_jobs(request); ends when stdin closes."""
    while True:
        line = sys.stdin.buffer.readline()
        if not line:
            return  # warpdiff is done with us
        msg = json.loads(line)
        kind = msg.get("type")
        if kind == "hello":
            if msg.get("protocol") != PROTOCOL:
                send({"type": "error", "message": "this client speaks protocol %d" % PROTOCOL})
                return
            send({"type": "hello", "protocol": PROTOCOL, "name": name, "version": version})
        elif kind == "run":
            try:
                send({"type": "result", "id": msg["id"], "jobs": run_jobs(msg)})
            except Exception as e:  # the whole request fails, the client goes on
                traceback.print_exc(file=sys.stderr)
                send({"type": "error", "id": msg.get("id"), "message": "%s: %s" % (type(e).__name__, e)})
        else:
            send({"type": "error", "id": msg.get("id"), "message": "unknown message type %r" % kind})


if __name__ == "__main__":
    serve("jit-client", "1.0")
