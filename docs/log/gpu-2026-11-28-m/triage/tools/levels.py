#!/usr/bin/env python3
"""Reads a transcript of `warpdiff diff --engines interp,gpu` runs of the experiment variants, one
section per level headed by a line with `-ON` (run.sh's levels.txt), and prints the markdown table
of triage.md: each variant's answer per level (`agrees`, `wrong (first differing lane)`, `crash`
(the compile failed: the compile helper died), `hang` (a hang or a fault), `skipped`, or the
engine's words), beside PREDICT.txt's prediction for the level its line names (`NAME PRED -ON`,
-O1 when none; `diverges` = wrong at that level). A row is
marked **not as predicted** when its answer at that level is not the prediction, and `-O0 not right` when
-O0 did not agree (a reference or harness problem, not the compiler's). (H41's
docs/log/gpu-2026-11-28-l/triage/tools/levels.py, judged at each variant's level.)
Usage: tools/levels.py LEVELS.txt experiments/PREDICT.txt"""
import re, sys

def answer(what, nxt):
    if what.startswith("interp = gpu"):
        return "agrees"
    if "DIVERGES" in what:
        return "wrong (" + nxt.strip() + ")"
    low = what.lower()
    if "hang" in low or "fault" in low or "illegal" in low or "still running" in low:
        return "hang"
    if "failed to compile" in low or "compile helper" in low or "sigsegv" in low:
        return "crash"
    if "skipped" in low:
        return "skipped"
    return what[:80]

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
        res[(m.group(1), cur)] = answer(m.group(2), lines[k + 1] if k + 1 < len(lines) else "")
    m = re.match(r"^skipped: ([\w.\-]+) (.*)$", l)
    if m and cur:
        res[(m.group(1), cur)] = "skipped (" + m.group(2) + ")"
word = {"diverges": "wrong", "agrees": "agrees", "crash": "crash", "hang": "hang"}
pred = [l.split() for l in open(sys.argv[2]).read().splitlines() if l.strip()]
levels.sort()
print("| variant | " + " | ".join(levels) + " | predicted | at | |")
print("| --- | " + " | ".join("---" for _ in levels) + " | --- | --- | --- |")
for row in pred:
    name, p = row[0], row[1]
    at = row[2] if len(row) > 2 else "-O1"
    cells = [res.get((name, L), "?") for L in levels]
    at1 = res.get((name, at), "?")
    note = "" if at1.startswith(word[p]) else "**not as predicted**"
    if at1.startswith("skipped") or at1 == "?":
        note = "not run at " + at
    if res.get((name, "-O0"), "?") != "agrees":
        note = (note + " -O0 not right").strip()
    print(f"| `{name}` | " + " | ".join(cells) + f" | {p} | {at} | {note} |")
