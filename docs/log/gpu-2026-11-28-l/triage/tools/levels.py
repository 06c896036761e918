#!/usr/bin/env python3
"""Reads a transcript of `warpdiff diff --engines interp,gpu` runs of the experiment variants, one
section per level headed by a line with `-ON` (run.sh's levels.txt), and prints the markdown table
of triage.md: each variant's answer per level (`agrees`, `wrong (first differing lane)`, `crash`
(the compile failed: the compile helper died), `hang` (a hang or a fault), `skipped`, or the
engine's words), beside PREDICT.txt's prediction for -O1 (`diverges` = wrong at -O1). A row is
marked **not as predicted** when its -O1 answer is not the prediction, and `-O0 not right` when
-O0 did not agree (a reference or harness problem, not the compiler's). (H38's
docs/log/gpu-2026-11-28-k/triage/tools/levels.py with crash and hang answers, judged at -O1.)
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
print("| variant | " + " | ".join(levels) + " | predicted (-O1) | |")
print("| --- | " + " | ".join("---" for _ in levels) + " | --- | --- |")
for name, p in pred:
    cells = [res.get((name, L), "?") for L in levels]
    at1 = res.get((name, "-O1"), "?")
    note = "" if at1.startswith(word[p]) else "**not as predicted**"
    if at1.startswith("skipped") or at1 == "?":
        note = "not run at -O1"
    if res.get((name, "-O0"), "?") != "agrees":
        note = (note + " -O0 not right").strip()
    print(f"| `{name}` | " + " | ".join(cells) + f" | {p} | {note} |")
