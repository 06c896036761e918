#!/usr/bin/env python3
"""Reads the transcripts of `warpdiff diff --engines interp,gpu` runs of the s11 variants (sections
headed `== LABEL`, e.g. `== linker -O1`, `== whole -O3`) and prints a markdown table: each
variant's answer per section (`agrees`, `wrong` with its first differing lane, or what the engine
said), beside PREDICT.txt's two hypotheses, and which of them the linker's -O1/-O3 answers fit.
Usage: table.py PREDICT.txt TRANSCRIPT..."""
import re, sys

sections, cur, res = [], None, {}
for path in sys.argv[2:]:
    lines = open(path).read().splitlines()
    for k, l in enumerate(lines):
        if l.startswith("== "):
            cur = l[3:].strip()
            if cur not in sections:
                sections.append(cur)
            continue
        m = re.match(r"^(?:.*/)?([\w.\-]+?)\.ptx: (.*)$", l)
        if m and cur:
            name, what = m.group(1), m.group(2)
            if re.match(r"interp = \w+$", what):
                res[(name, cur)] = "agrees"
            elif "DIVERGES" in what:
                first = lines[k + 1].strip() if k + 1 < len(lines) else ""
                res[(name, cur)] = "wrong (" + first + ")"
            else:
                res[(name, cur)] = what[:80]
rows = [l.split() for l in open(sys.argv[1]).read().splitlines() if l.strip() and not l.startswith("#")]
print("| variant | " + " | ".join(sections) + " | H1 | H2 | fits |")
print("| --- | " + " | ".join("---" for _ in sections) + " | --- | --- | --- |")
for name, h1, h2 in rows:
    cells = [res.get((name, s), "?") for s in sections]
    linked = [res.get((name, s), "?") for s in sections if s.startswith("linker") and not s.endswith("-O0")]
    if any(c.startswith("wrong") for c in linked):
        seen = "diverges"
    elif linked and all(c == "agrees" for c in linked):
        seen = "agrees"
    else:
        seen = "?"
    fits = ",".join(h for h, p in (("H1", h1), ("H2", h2)) if p in (seen, "?")) or "neither"
    o0 = res.get((name, "linker -O0"), "?")
    if o0 != "agrees":
        fits += " (-O0: " + o0 + ")"
    print(f"| `{name}` | " + " | ".join(cells) + f" | {h1} | {h2} | {seen}: {fits} |")
