#!/usr/bin/env python3
"""Appends to each case file named the .expect lines the reference interpreter gives
(`warpdiff run --json`, its old .expect lines dropped): the reference's values, which the GPU is
compared against. Usage: tools/expect.py WARPDIFF FILE..."""
import json, subprocess, sys

def fmt(v):
    if v is None:
        return "_"
    return str(v) if v < 10 else hex(v)

warpdiff = sys.argv[1]
for path in sys.argv[2:]:
    lines = [l for l in open(path).read().splitlines() if not l.startswith(".expect")]
    out = subprocess.run([warpdiff, "run", "--json", path], capture_output=True, text=True)
    if out.returncode != 0:
        sys.exit(f"{path}: warpdiff run exited {out.returncode}: {out.stderr}")
    regs = json.loads(out.stdout.splitlines()[0])["regs"]
    for r, vals in regs.items():
        vals = [fmt(v) for v in vals]
        lanes = vals[0] if len(set(vals)) == 1 else " ".join(vals)
        lines.append(f".expect {r} = {lanes};")
    open(path, "w").write("\n".join(lines) + "\n")
