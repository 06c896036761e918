#!/usr/bin/env python3
"""Appends to each case file named the .expect lines the reference interpreter gives (the table
`warpdiff run` prints, its old .expect lines dropped): the reference's values, which the GPU is
compared against; a value defined in some bits only is written VALUE:DEFINED-BITS, as the
corpus does. Usage: tools/expect.py WARPDIFF FILE..."""
import subprocess, sys

warpdiff = sys.argv[1]
for path in sys.argv[2:]:
    lines = [l for l in open(path).read().splitlines() if not l.startswith(".expect")]
    open(path, "w").write("\n".join(lines) + "\n")
    out = subprocess.run([warpdiff, "run", path], capture_output=True, text=True)
    if out.returncode != 0:
        sys.exit(f"{path}: warpdiff run exited {out.returncode}: {out.stderr}")
    table = out.stdout.splitlines()
    head = table[1].split()
    assert head[:2] == ["lane", "status"], table[1]
    regs = [h.split(".")[0] for h in head[2:]]
    rows = [l.split() for l in table[2:] if l.strip()]
    assert len(rows) == 32, path
    for k, r in enumerate(regs):
        vals = [row[2 + k] for row in rows]
        lanes = vals[0] if len(set(vals)) == 1 else " ".join(vals)
        lines.append(f".expect {r} = {lanes};")
    open(path, "w").write("\n".join(lines) + "\n")
