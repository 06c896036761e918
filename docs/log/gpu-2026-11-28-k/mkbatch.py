#!/usr/bin/env python3
"""Writes a warpdiff GPU batch file (docs/case-format.md, `.batch.txt`) of the
case files given, in order, case 0 marked as the one that diverged: a batch
made by hand, to run `warpdiff diff --gpu-batch-file` on hardware."""
import sys

files = sys.argv[1:]
out = ["// warpdiff GPU batch: %d case(s), made by hand by devrun/h34/mkbatch.py; case 0 marked." % len(files)]
for i, f in enumerate(files):
    out.append("// ==== batch case %d%s ====" % (i, " (diverged)" if i == 0 else ""))
    out.append(open(f).read().rstrip("\n"))
print("\n".join(out))
