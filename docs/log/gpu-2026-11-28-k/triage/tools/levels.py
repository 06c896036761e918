#!/usr/bin/env python3
"""Reads a transcript of `warpdiff diff --engines interp,gpu` runs of the experiment variants, one
section per level headed by a line with `-ON` (as the main session's levels.txt), and prints the
markdown table of triage.md: each variant's answer per level (`agrees`, `wrong` with its first
differing lane, or the engine's failure), beside PREDICT.txt's prediction. Usage:
tools/levels.py LEVELS.txt triage/experiments/PREDICT.txt"""
import re, sys

levels, cur, res = [], None, {}
lines = open(sys.argv[1]).read().splitlines()
for k, l in enumerate(lines):
    m = re.match(r"^==.*?(-O\d|default)", l)
    if m:
        cur = m.group(1)
        if cur not in levels:
            levels.append(cur)
        continue
    m = re.match(r"^(?:.*/)?([\w.\-]+?)\.ptx(?:\.txt)?: (.*)$", l)
    if m and cur:
        name, what = m.group(1), m.group(2)
        if what.startswith("interp = gpu"):
            res[(name, cur)] = "agrees"
        elif "DIVERGES" in what:
            first = lines[k + 1].strip() if k + 1 < len(lines) else ""
            res[(name, cur)] = "wrong (" + first + ")"
        else:
            res[(name, cur)] = what
pred = [l.split() for l in open(sys.argv[2]).read().splitlines() if l.strip()]
print("| variant | " + " | ".join(levels) + " | predicted | |")
print("| --- | " + " | ".join("---" for _ in levels) + " | --- | --- |")
for name, p in pred:
    cells = [res.get((name, L), "?") for L in levels]
    wrong = any(c.startswith("wrong") for c in cells)
    ok0 = cells[0] == "agrees" if cells else False
    seen = "diverges" if wrong else ("agrees" if all(c == "agrees" for c in cells) else "?")
    note = "" if seen == p else "**not as predicted**"
    if not ok0:
        note = (note + " -O0 not right").strip()
    print(f"| `{name}` | " + " | ".join(cells) + f" | {p} | {note} |")
