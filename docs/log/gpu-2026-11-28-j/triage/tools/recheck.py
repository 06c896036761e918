#!/usr/bin/env python3
"""Re-checks each found case's GPU lanes (its header's `// %r lane N: interp X, gpu Y` lines)
against the reference as it is now (`warpdiff run`'s table): a lane still differs where the
reference defines bits of the register that the GPU's value gets wrong. Prints one line per
case: still differs / now allowed, with the lanes. Usage: tools/recheck.py WARPDIFF FILE..."""
import re, subprocess, sys

def num(s):
    if s.startswith("0f") or s.startswith("0d"):
        return int(s[2:], 16)
    return int(s, 0)

warpdiff = sys.argv[1]
for path in sys.argv[2:]:
    text = open(path).read()
    lanes = re.findall(r"^// (%\w+) lane (\d+): interp (\S+), gpu (\S+)$", text, re.M)
    body = "\n".join(l for l in text.splitlines() if not l.startswith(".expect")) + "\n"
    tmp = "/tmp/h31r/case.ptx"
    open(tmp, "w").write(body)
    out = subprocess.run([warpdiff, "run", tmp], capture_output=True, text=True)
    name = path.split("/")[-2] + "/" + path.split("/")[-1]
    if not lanes:
        print(f"{name}: no lane lines (run exit {out.returncode})")
        continue
    table = out.stdout.splitlines()
    head = table[1].split()
    regs = [h.split(".")[0] for h in head[2:]]
    rows = [l.split() for l in table[2:] if l.strip()]
    differ = []
    for r, lane, was, gpu in lanes:
        v = rows[int(lane)][2 + regs.index(r)]
        if v == "_":
            continue
        if ":" in v:
            val, mask = (num(x) for x in v.split(":"))
        else:
            val, mask = num(v), (1 << 64) - 1
        if (num(gpu) ^ val) & mask:
            differ.append(f"{r}[{lane}] ref {v} gpu {gpu}")
    state = "still differs" if differ else "now allowed"
    print(f"{name}: {state} ({len(lanes)} header lanes); " + "; ".join(differ[:2]))
